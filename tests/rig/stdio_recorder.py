"""A minimal stdio MCP server (standard library only) that appends every line it receives to
the file named by its first argument: the telemetry tests read the `params._meta` trace
context the gateway put there. Two tools; `tools/call` echoes its arguments.
"""

import json
import sys

TOOLS = [
    {
        "name": "lookup_order",
        "description": "Looks up one order by its id and returns its status, items and total. "
        "Use it when the user asks about a specific order; it does not search.",
        "inputSchema": {
            "type": "object",
            "properties": {"order_id": {"type": "string", "description": "The order id, e.g. A-1001."}},
            "required": ["order_id"],
        },
    },
    {"name": "misc", "description": "Stuff.", "inputSchema": {"type": "object"}},
]


def answer(msg_id, result):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": result}) + "\n")
    sys.stdout.flush()


def main() -> None:
    record = open(sys.argv[1], "a", encoding="utf-8")
    for line in sys.stdin:
        record.write(line if line.endswith("\n") else line + "\n")
        record.flush()
        try:
            parsed = json.loads(line)
        except ValueError:
            continue
        # A batch is answered message by message, each on its own line.
        for msg in parsed if isinstance(parsed, list) else [parsed]:
            if isinstance(msg, dict):
                handle(msg)


def handle(msg) -> None:
    method, msg_id = msg.get("method"), msg.get("id")
    if msg_id is None:
        return
    if method == "initialize":
        answer(msg_id, {
            "protocolVersion": msg.get("params", {}).get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "stdio-recorder", "version": "1"},
        })
    elif method == "tools/list":
        answer(msg_id, {"tools": TOOLS})
    elif method == "tools/call":
        args = msg.get("params", {}).get("arguments", {})
        answer(msg_id, {"content": [{"type": "text", "text": json.dumps(args)}]})
    else:
        answer(msg_id, {})


if __name__ == "__main__":
    main()
