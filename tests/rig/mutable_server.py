"""A low-level `Server` (Python SDK 1.30) whose tool definitions can change while it runs: each
`tools/list` reads them again from a JSON file the test rewrites (a bare array of tools), which
is how a test plays a server whose tool description changes under a pinned upstream (a rug
pull). Streamable HTTP at `/mcp`, JSON answers.

    python mutable_server.py TOOLS_JSON_FILE

A `tools/call` answers with the tool's name. Prints `LISTENING <port>`; see rig_common.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mcp.types as types  # noqa: E402
from mcp.server.lowlevel import Server  # noqa: E402
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager  # noqa: E402
from rig_common import serve_mcp  # noqa: E402


def build(path: Path) -> Server:
    server: Server = Server("rig-mutable", version="1.0.0")

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return [types.Tool.model_validate(t) for t in json.loads(path.read_text())]

    @server.call_tool(validate_input=False)
    async def call_tool(name: str, arguments: dict[str, Any]) -> Any:
        return [types.TextContent(type="text", text=f"{name} ran")]

    return server


def main() -> None:
    path = Path(sys.argv[1])
    manager = StreamableHTTPSessionManager(app=build(path), json_response=True)

    serve_mcp(manager)


if __name__ == "__main__":
    main()
