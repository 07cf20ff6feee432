"""A small stdio MCP server that misbehaves on demand, for the gateway's failure tests
(tests/stdio_*.rs). Plain Python, no SDK: newline-delimited JSON-RPC on stdin/stdout.

    python bad_server.py [--garbage] [--json-garbage] [--exit-delay-ms N] [--close-stdout-first] [--marker X]

Tools:
    echo   {"text": str}  answers "echo: <text>"
    crash  {}             exits with status 3 as soon as the call arrives (no answer)
    hang   {}             never answers (the server keeps serving everything else)
    slow   {"ms": int}    answers "slept <ms>" after sleeping that long

--garbage       writes lines that are not JSON to stdout around every message (plain text, a
                truncated object, bytes that are not UTF-8, a 100 KB line, blank and CRLF lines),
                and a valid `notifications/message` log before every tools/call answer
--json-garbage  writes JSON lines that are not JSON-RPC messages (a structured log line, a
                number, null, an array of numbers) around every message
--exit-delay-ms on end of stdin, wait this long before exiting (a server slow to shut down)
--close-stdout-first  on end of stdin, close stdout before that wait (output ends before the process)
--marker        ignored; makes the command line unique so tests can find the process

The server exits with status 0 when stdin reaches end of file. Nothing but what the flags ask
for is written to stdout; diagnostics go to stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time

TOOLS = [
    {
        "name": "echo",
        "description": (
            "Echo the given text back unchanged, prefixed with 'echo: '. Use it to check that a "
            "round trip through the server works. Returns one text content item."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {"text": {"type": "string", "description": "The text to send back."}},
            "required": ["text"],
        },
        "annotations": {"readOnlyHint": True, "idempotentHint": True, "openWorldHint": False},
    },
    {
        "name": "crash",
        "description": (
            "Terminate the server process immediately with exit status 3, without answering. "
            "Use it only to test how a client or proxy handles a server that dies mid-call."
        ),
        "inputSchema": {"type": "object", "properties": {}},
        "annotations": {"destructiveHint": True, "openWorldHint": False},
    },
    {
        "name": "hang",
        "description": (
            "Never answer this call; the server keeps serving other requests. Use it only to "
            "test request timeouts in clients and proxies."
        ),
        "inputSchema": {"type": "object", "properties": {}},
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    },
    {
        "name": "slow",
        "description": (
            "Sleep for the given number of milliseconds, then answer 'slept <ms>'. Use it to "
            "keep a call in flight for a known time. Returns one text content item."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {"ms": {"type": "integer", "description": "How long to sleep, in milliseconds."}},
            "required": ["ms"],
        },
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    },
]

NOT_JSON = [
    b"server starting... (this line is not JSON)",
    b'{"jsonrpc": "2.0", "id": 99, "result": ',  # truncated
    b"\xff\xfe not utf-8 \xc3\x28",
    b"",
    b"WARNING: something happened\r",
    b"x" * 100_000,
]

JSON_NOT_RPC = [
    b'{"level": "info", "msg": "handled a request", "ts": 1}',
    b"42",
    b"null",
    b"[1, 2, 3]",
    b'"a log line as a JSON string"',
]

out_lock = threading.Lock()
args: argparse.Namespace


def write_raw(lines: list[bytes]) -> None:
    with out_lock:
        for line in lines:
            sys.stdout.buffer.write(line + b"\n")
        sys.stdout.buffer.flush()


def noise() -> list[bytes]:
    lines: list[bytes] = []
    if args.garbage:
        lines += NOT_JSON
    if args.json_garbage:
        lines += JSON_NOT_RPC
    return lines


def send(msg: dict) -> None:
    body = json.dumps(msg, separators=(",", ":")).encode()
    write_raw(noise() + [body] + noise())


def result(id_: object, res: dict) -> None:
    send({"jsonrpc": "2.0", "id": id_, "result": res})


def text(t: str) -> dict:
    return {"content": [{"type": "text", "text": t}], "isError": False}


def handle(msg: dict) -> None:
    method, id_ = msg.get("method"), msg.get("id")
    if method is None or id_ is None:
        return  # a notification, or an answer to something we never asked
    params = msg.get("params") or {}
    if method == "initialize":
        result(
            id_,
            {
                "protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {"listChanged": False}, "logging": {}},
                "serverInfo": {"name": "bad-server", "version": "1.0.0"},
            },
        )
    elif method == "ping":
        result(id_, {})
    elif method == "logging/setLevel":
        result(id_, {})
    elif method == "tools/list":
        result(id_, {"tools": TOOLS})
    elif method == "tools/call":
        name = params.get("name")
        arguments = params.get("arguments") or {}
        if args.garbage:
            send(
                {
                    "jsonrpc": "2.0",
                    "method": "notifications/message",
                    "params": {"level": "info", "logger": "bad-server", "data": f"calling {name}"},
                }
            )
        if name == "echo":
            result(id_, text(f"echo: {arguments.get('text', '')}"))
        elif name == "crash":
            print("bad_server: crashing with exit status 3 as asked", file=sys.stderr, flush=True)
            os._exit(3)
        elif name == "hang":
            print("bad_server: hanging on this call", file=sys.stderr, flush=True)
        elif name == "slow":
            ms = int(arguments.get("ms", 0))

            def later() -> None:
                time.sleep(ms / 1000)
                result(id_, text(f"slept {ms}"))

            threading.Thread(target=later, daemon=True).start()
        else:
            send({"jsonrpc": "2.0", "id": id_, "error": {"code": -32602, "message": f"Unknown tool: {name}"}})
    else:
        send({"jsonrpc": "2.0", "id": id_, "error": {"code": -32601, "message": f"Method not found: {method}"}})


def main() -> None:
    global args
    ap = argparse.ArgumentParser()
    ap.add_argument("--garbage", action="store_true")
    ap.add_argument("--json-garbage", action="store_true")
    ap.add_argument("--exit-delay-ms", type=int, default=0)
    ap.add_argument("--close-stdout-first", action="store_true")
    ap.add_argument("--marker", default="")
    args = ap.parse_args()
    if args.garbage or args.json_garbage:
        write_raw(noise())
    for raw in sys.stdin.buffer:
        raw = raw.strip()
        if not raw:
            continue
        try:
            msg = json.loads(raw)
        except ValueError:
            print(f"bad_server: not JSON from the client: {raw[:80]!r}", file=sys.stderr, flush=True)
            continue
        for m in msg if isinstance(msg, list) else [msg]:
            if isinstance(m, dict):
                handle(m)
    print("bad_server: end of stdin", file=sys.stderr, flush=True)
    if args.close_stdout_first:
        sys.stdout.flush()
        os.close(1)
    if args.exit_delay_ms:
        time.sleep(args.exit_delay_ms / 1000)
    sys.exit(0)


if __name__ == "__main__":
    main()
