"""Runs every server document of a JSONL corpus through the reference implementation's lint.

Usage: python lint_corpus.py INPUT.jsonl OUTPUT.jsonl

Each input line is one raw JSON document (a tools/list result, a bare array of tools, or one
tool). Each output line is {"ok": <lint report>, "serverName": <parsed name or null>,
"canonical": [<each tool's canonical serialization>]} or {"error": "<type>: <message>"} when the
reference refuses the document. Output is written with ensure_ascii so lone surrogates survive
as \\udXXX escapes. Test oracle only (called, never copied): see tests/it/oracle_diff.rs.
"""

import json
import sys
from importlib import metadata

import tdqs


def _refuse_constant(name):
    raise ValueError(f"{name} is not valid JSON")


def lint_line(raw):
    data = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
    parsed = tdqs.parse_tool_definitions(data)
    name = parsed.server_name if parsed.server_name else "server"
    report = tdqs.lint_server(server_name=name, tools=parsed.tools)
    return {
        "ok": report.model_dump(by_alias=True, mode="json"),
        "serverName": parsed.server_name,
        # What inputHash and definitionBytes are computed from, to show where a hash differs.
        "canonical": [tdqs.serialize_tool_definition(t) for t in parsed.tools],
    }


EXPECTED_VERSION = "0.1.0"


def main():
    src, dst = sys.argv[1], sys.argv[2]
    installed = metadata.version("tdqs")
    if installed != EXPECTED_VERSION:
        sys.exit(f"the oracle must be tdqs=={EXPECTED_VERSION}, this python has {installed}")
    with open(src, "rb") as f:
        # Split on "\n" only: str.splitlines would also split on U+2028, U+0085, ...
        lines = f.read().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    with open(dst, "w", encoding="ascii", newline="\n") as out:
        for raw in lines:
            try:
                result = lint_line(raw)
            except BaseException as e:  # noqa: BLE001 - every refusal is a result
                if isinstance(e, (KeyboardInterrupt, SystemExit)):
                    raise
                result = {"error": f"{type(e).__name__}: {e}"}
            out.write(json.dumps(result, ensure_ascii=True, allow_nan=False))
            out.write("\n")


if __name__ == "__main__":
    main()
