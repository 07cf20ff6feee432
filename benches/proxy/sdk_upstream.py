#!/usr/bin/env python3
"""A real MCP server for the realistic runs of scripts/bench-proxy.sh (`--sdk-upstream`).

    sdk_upstream.py TOOLS_JSON PORT

The Python SDK's (PyPI `mcp`) low-level `Server` over Streamable HTTP, stateless with JSON
answers (DESIGN.md's "simplest load target"), on 127.0.0.1:PORT at `/mcp`, serving the tools of
examples/bench_upstream.rs (TOOLS_JSON is its --dump-tools output) and a small text result for
any call. Unlike the Rust bench upstream it does the work an SDK server does per request: the
comparison a deployment sees, where the fast upstream shows the gateway's cost alone.
"""

import contextlib
import json
import sys

import uvicorn
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.applications import Starlette
from starlette.routing import Route


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        tools = [types.Tool.model_validate(t) for t in json.load(f)]
    port = int(sys.argv[2])
    server: Server = Server("bench-sdk")

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return tools

    @server.call_tool()
    async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
        return [types.TextContent(type="text", text=f"{name}: done (bench upstream)")]

    manager = StreamableHTTPSessionManager(app=server, stateless=True, json_response=True)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette):  # type: ignore[no-untyped-def]
        async with manager.run():
            yield

    class Handle:  # an ASGI app, not a function, so the route hands requests over raw
        async def __call__(self, scope, receive, send) -> None:  # type: ignore[no-untyped-def]
            await manager.handle_request(scope, receive, send)

    app = Starlette(routes=[Route("/mcp", endpoint=Handle())], lifespan=lifespan)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
