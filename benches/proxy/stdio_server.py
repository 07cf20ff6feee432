#!/usr/bin/env python3
"""A tiny stdio MCP server for the peer-proxy reference runs of scripts/bench-proxy.sh.

    stdio_server.py TOOLS_JSON

Serves the same tools as examples/bench_upstream.rs (TOOLS_JSON is its --dump-tools output)
over newline-delimited JSON-RPC on stdin/stdout: initialize, ping, tools/list (all tools, no
pagination), tools/call (a small text result); notifications are ignored and anything else
gets -32601. Standard library only; answers are assembled from pre-serialized text, so the
server does as little per request as a Python stdio server can.
"""

import json
import sys


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        tools = json.load(f)
    list_result = json.dumps({"tools": tools}, separators=(",", ":"))
    init_result = json.dumps(
        {
            "protocolVersion": "2025-06-18",
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "bench-stdio", "version": "1.0.0"},
        },
        separators=(",", ":"),
    )
    out = sys.stdout
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if not isinstance(msg, dict) or "method" not in msg or "id" not in msg:
            continue  # notifications and responses need no answer
        rid = json.dumps(msg["id"])
        method = msg["method"]
        if method == "tools/list":
            result = list_result
        elif method == "tools/call":
            name = (msg.get("params") or {}).get("name", "")
            result = json.dumps(
                {"content": [{"type": "text", "text": f"{name}: done (bench upstream)"}], "isError": False},
                separators=(",", ":"),
            )
        elif method == "initialize":
            proto = (msg.get("params") or {}).get("protocolVersion")
            result = init_result if not proto else init_result.replace("2025-06-18", proto)
        elif method == "ping":
            result = "{}"
        else:
            err = json.dumps({"code": -32601, "message": f"method not found: {method}"})
            out.write('{"jsonrpc":"2.0","id":' + rid + ',"error":' + err + "}\n")
            out.flush()
            continue
        out.write('{"jsonrpc":"2.0","id":' + rid + ',"result":' + result + "}\n")
        out.flush()


if __name__ == "__main__":
    main()
