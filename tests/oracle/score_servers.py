"""Runs the reference CLI's `score` command (tdqs==0.1.0) in-process for each tools file given,
against an OpenAI-compatible endpoint, and prints one JSON array: for every file, its exit code,
its JSON report (parsed) and its stderr. Used by tests/it/score_diff.rs as a differential oracle.

usage: score_servers.py BASE_URL MODEL API_KEY FILE...
"""

import io
import json
import os
import sys
from importlib.metadata import version

WANT = "0.1.0"


def main() -> int:
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    base_url, model, api_key, *files = sys.argv[1:]

    # The endpoint is on loopback: no proxy may stand in between.
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        os.environ.pop(var, None)
    os.environ["NO_PROXY"] = "127.0.0.1,localhost"

    try:
        installed = version("tdqs")
    except Exception as error:  # noqa: BLE001
        print(f"the reference package tdqs is not installed: {error}", file=sys.stderr)
        return 3
    if installed != WANT:
        print(f"the reference package is tdqs {installed}, expected {WANT}", file=sys.stderr)
        return 3

    from tdqs.cli.run_cli import run_cli

    results = []
    for path in files:
        out, err = io.StringIO(), io.StringIO()
        argv = [
            "score",
            "--file", path,
            "--base-url", base_url,
            "--api-key", api_key,
            "--model", model,
            "--format", "json",
        ]
        code = run_cli(argv=argv, env={}, stderr=err, stdout=out)
        text = out.getvalue()
        try:
            report = json.loads(text) if text else None
        except ValueError:
            report = None
        results.append({"file": path, "exit": code, "report": report, "stdout": text, "stderr": err.getvalue()})

    json.dump(results, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
