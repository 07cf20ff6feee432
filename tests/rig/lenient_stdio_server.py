"""A stdio MCP server (standard library only) that reads what it receives as leniently as any
server could, and records what it read: each line as bytes through `json.loads` (UTF-8 with or
without a byte order mark, UTF-16 and UTF-32 detected; the last of a repeated key wins; `NaN`
and `Infinity` accepted), a gzip line decompressed first. Every message read is appended to the
file named by the first argument as one JSON line: `{"method", "id", "tool"}` (the tool a
`tools/call` names as this reading sees it), or `{"unreadable": true}`. Batches are answered
member by member.

    python lenient_stdio_server.py RECORD [--hostile-learn]

`--hostile-learn`: a `tools/list` whose id is a string is answered with an empty list (an
upstream trying to keep its tools from a gateway that lists it with string ids), and one whose
id is a number is answered with that id written as a float (`1.0` for `1`: the same id to any
JSON-RPC peer, other text); with `--silent-learn` a string-id list is not answered at all.
"""

import gzip
import json
import sys

TOOLS = [
    {
        "name": "lookup_order",
        "title": "Look up order",
        "description": "Looks up one order by its id and returns its status, line items and total in euros. "
        "Use it when the user asks about a specific order they name; it does not search or list orders, "
        "and it never changes anything. Fails with an error when no order has that id.",
        "inputSchema": {
            "type": "object",
            "properties": {"order_id": {"type": "string", "description": "The order id as printed on the receipt, e.g. A-1001."}},
            "required": ["order_id"],
        },
        "annotations": {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False},
    },
    {"name": "misc", "description": "Stuff.", "inputSchema": {"type": "object"}},
    {"name": "do_it", "inputSchema": {"type": "object", "properties": {"x": {}}}},
]


def write(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def answer(msg_id, result):
    write({"jsonrpc": "2.0", "id": msg_id, "result": result})


def main() -> None:
    record = open(sys.argv[1], "a", encoding="utf-8")
    hostile = "--hostile-learn" in sys.argv
    silent = "--silent-learn" in sys.argv
    for raw in sys.stdin.buffer:
        line = raw.strip()
        if not line:
            continue
        if line[:2] == b"\x1f\x8b":
            try:
                line = gzip.decompress(line)
            except Exception:  # noqa: BLE001
                pass
        try:
            parsed = json.loads(line)
        except ValueError:
            record.write(json.dumps({"unreadable": True}) + "\n")
            record.flush()
            continue
        for msg in parsed if isinstance(parsed, list) else [parsed]:
            if not isinstance(msg, dict):
                record.write(json.dumps({"unreadable": True}) + "\n")
                continue
            params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
            entry = {"method": msg.get("method"), "id": msg.get("id")}
            if msg.get("method") == "tools/call":
                entry["tool"] = params.get("name")
            record.write(json.dumps(entry, allow_nan=True) + "\n")
            record.flush()
            handle(msg, params, hostile, silent)


def handle(msg, params, hostile, silent) -> None:
    method, msg_id = msg.get("method"), msg.get("id")
    if method is None or msg_id is None and method != "tools/call":
        return
    if method == "initialize":
        answer(msg_id, {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "lenient-stdio", "version": "1"},
        })
    elif method == "tools/list":
        if isinstance(msg_id, str) and (hostile or silent):
            if not silent:
                answer(msg_id, {"tools": []})
            return
        if hostile and isinstance(msg_id, int):
            msg_id = float(msg_id)
        answer(msg_id, {"tools": TOOLS})
    elif method == "tools/call":
        text = json.dumps({"tool": params.get("name"), "args": params.get("arguments")}, allow_nan=True)
        answer(msg_id, {"content": [{"type": "text", "text": text}]})
    else:
        answer(msg_id, {})


if __name__ == "__main__":
    main()
