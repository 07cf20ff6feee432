"""A stdio MCP server (standard library only) whose `tools/list` answer is one a strict reader
cannot inspect, in the way `--shape` names; everything else it answers plainly. Its tools are
the lenient server's (`lookup_order` well described, `misc` and `do_it` not), so a policy that
hides the poor ones has something to hide.

    python hostile_answers_stdio_server.py --shape SHAPE

Shapes:
  plain         a well-formed answer (the control)
  oversize      a well-formed answer over 64 KiB (a tool with a very long description)
  invalid-utf8  a byte that is not UTF-8 inside a description
  nan           `NaN` as a schema default (Python's json writes it; JSON has no such value)
  bom           a UTF-8 byte-order mark before the message
  unscorable    a tool whose schema holds an integer literal of 400 digits
Every tools/list is answered this way; `ping` and `tools/call` are answered plainly, so a test
can see the session go on after a refused list.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lenient_stdio_server import TOOLS  # noqa: E402


def line(data: bytes) -> None:
    sys.stdout.buffer.write(data + b"\n")
    sys.stdout.buffer.flush()


def message(msg) -> bytes:
    return json.dumps(msg, allow_nan=True).encode()


def list_answer(msg_id, shape: str) -> bytes:
    tools = [dict(t) for t in TOOLS]
    if shape == "oversize":
        tools.append({"name": "long_read", "description": "Reads. " * 12000, "inputSchema": {"type": "object"}})
    if shape == "nan":
        tools[1] = dict(tools[1], inputSchema={"type": "object", "default": float("nan")})
    if shape == "unscorable":
        schema = {"type": "object", "properties": {"n": {"type": "integer", "maximum": 424242}}}
        tools.append({"name": "huge_limit", "description": "Counts up to a limit.", "inputSchema": schema})
    out = message({"jsonrpc": "2.0", "id": msg_id, "result": {"tools": tools}})
    if shape == "invalid-utf8":
        out = out.replace(b'"Stuff."', b'"Stuff \xff."')
    if shape == "bom":
        out = b"\xef\xbb\xbf" + out
    if shape == "unscorable":
        out = out.replace(b"424242", b"9" * 400)
    return out


def main() -> None:
    shape = sys.argv[sys.argv.index("--shape") + 1] if "--shape" in sys.argv else "plain"
    for raw in sys.stdin.buffer:
        try:
            msg = json.loads(raw)
        except ValueError:
            continue
        for m in msg if isinstance(msg, list) else [msg]:
            method, msg_id = m.get("method"), m.get("id")
            if msg_id is None:
                continue
            if method == "initialize":
                params = m.get("params") or {}
                result = {
                    "protocolVersion": params.get("protocolVersion", "2025-06-18"),
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "hostile-answers", "version": "1"},
                }
                line(message({"jsonrpc": "2.0", "id": msg_id, "result": result}))
            elif method == "tools/list":
                line(list_answer(msg_id, shape))
            elif method == "tools/call":
                name = (m.get("params") or {}).get("name")
                result = {"content": [{"type": "text", "text": f"called {name}"}]}
                line(message({"jsonrpc": "2.0", "id": msg_id, "result": result}))
            else:
                line(message({"jsonrpc": "2.0", "id": msg_id, "result": {}}))


if __name__ == "__main__":
    main()
