"""Shared plumbing of the rig's Python MCP servers (Python SDK `mcp` 1.30, run from `.venv-mcp`).

- `serve(app)`: binds 127.0.0.1 on a free port chosen by the kernel, prints `LISTENING <port>` on
  stdout (the Rust side reads that line instead of guessing a port) and serves the ASGI app with
  uvicorn. The process exits as soon as its stdin reaches EOF, so a test process that dies, for
  whatever reason, never leaves a server behind (the Rust side keeps the other end open).
- `Recorder`: ASGI middleware noting every HTTP request that reaches the server (method, path,
  query string, the headers the tests care about, and each JSON-RPC message of a POST body).
  Tests read the record at `GET /_rig/received` and clear it with `POST /_rig/reset`, which is
  how they prove that the gateway never forwarded a refused `tools/call`.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
from typing import Any

import anyio
import uvicorn

# Request headers worth remembering (lower case).
INTERESTING_HEADERS = (
    "host",
    "origin",
    "accept",
    "accept-encoding",
    "content-type",
    "mcp-session-id",
    "mcp-protocol-version",
    "mcp-method",
    "mcp-name",
    "last-event-id",
    "authorization",
    "x-rig-token",
    "traceparent",
)


def _message_summary(msg: Any) -> dict[str, Any]:
    if not isinstance(msg, dict):
        return {"kind": "other"}
    out: dict[str, Any] = {}
    if "method" in msg:
        out["method"] = msg["method"]
    if "id" in msg:
        out["id"] = msg["id"]
    if "result" in msg or "error" in msg:
        out["kind"] = "response"
    params = msg.get("params")
    if msg.get("method") == "tools/call" and isinstance(params, dict):
        out["tool"] = params.get("name")
    if msg.get("method") == "tools/list" and isinstance(params, dict) and "cursor" in params:
        out["cursor"] = params["cursor"]
    return out


class Recorder:
    """Records requests, then hands them on unchanged."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.received: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    async def _json(self, send: Any, status: int, value: Any) -> None:
        body = json.dumps(value).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        if path == "/_rig/received":
            with self.lock:
                snapshot = list(self.received)
            await self._json(send, 200, snapshot)
            return
        if path == "/_rig/reset":
            with self.lock:
                self.received.clear()
            await self._json(send, 200, {"ok": True})
            return

        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        entry: dict[str, Any] = {
            "http": scope.get("method"),
            "path": path,
            "query": scope.get("query_string", b"").decode("latin-1"),
            "headers": {k: headers[k] for k in INTERESTING_HEADERS if k in headers},
        }
        if scope.get("method") != "POST":
            with self.lock:
                self.received.append(entry)
            await self.app(scope, receive, send)
            return

        # Read the whole body, note its messages, then replay it to the app.
        chunks: list[bytes] = []
        more = True
        while more:
            event = await receive()
            if event["type"] == "http.disconnect":
                return
            chunks.append(event.get("body", b""))
            more = event.get("more_body", False)
        body = b"".join(chunks)
        try:
            parsed = json.loads(body)
            messages = parsed if isinstance(parsed, list) else [parsed]
            entry["messages"] = [_message_summary(m) for m in messages]
            entry["batch"] = isinstance(parsed, list)
        except ValueError:
            entry["messages"] = []
            entry["unparsable"] = True
        with self.lock:
            self.received.append(entry)

        sent = False

        async def replay() -> Any:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _exit_on_stdin_eof() -> None:
    try:
        while os.read(0, 65536):  # raw reads: no buffer lock held at interpreter shutdown
            pass
    except (OSError, ValueError):
        pass
    os._exit(0)


def bind() -> socket.socket:
    """A listening socket on 127.0.0.1 at a kernel-chosen port (for an app that must know its
    own URL before it is built; then `serve(app, sock)`)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def serve(app: Any, sock: socket.socket | None = None) -> None:
    """Serves `app` on 127.0.0.1 at a kernel-chosen port announced on stdout."""
    threading.Thread(target=_exit_on_stdin_eof, daemon=True).start()
    sock = sock or bind()
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    print(f"LISTENING {port}", flush=True)
    anyio.run(lambda: server.serve(sockets=[sock]))


def serve_mcp(manager: Any) -> None:
    """Serves a Streamable HTTP session manager at `/mcp` (recorded), as `serve` does an app."""
    import contextlib

    from starlette.applications import Starlette
    from starlette.routing import Route

    class Handle:  # an ASGI app (not a function), so Starlette's Route passes requests through raw
        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            await manager.handle_request(scope, receive, send)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette):  # type: ignore[no-untyped-def]
        async with manager.run():
            yield

    serve(Recorder(Starlette(routes=[Route("/mcp", endpoint=Handle())], lifespan=lifespan)))
