"""A low-level `Server` (Python SDK 1.30) with a generated catalogue of tools, stateless, JSON
answers, over Streamable HTTP at `/mcp`. For tests that need many distinct definitions at once
(fleet single-flight) or a definition that changes between lists (pinning).

    python catalog_server.py [--count N] [--prefix P] [--variant-file PATH]

Tools are `<prefix>_00` .. `<prefix>_<N-1>`, each with its own description and parameters.
`--variant-file`: the first tool's description ends with the file's text, read at every
`tools/list`, so a test changes that definition by rewriting the file. Prints
`LISTENING <port>`; see rig_common.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mcp.types as types  # noqa: E402
from mcp.server.lowlevel import Server  # noqa: E402
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager  # noqa: E402
from rig_common import serve_mcp  # noqa: E402

SUBJECTS = ["invoice", "customer", "shipment", "ticket", "order", "report", "account", "device", "booking", "payment"]
VERBS = ["get", "list", "create", "update", "archive"]


def catalogue(count: int, prefix: str, variant: str) -> list[types.Tool]:
    tools = []
    for i in range(count):
        subject, verb = SUBJECTS[i % len(SUBJECTS)], VERBS[(i // len(SUBJECTS)) % len(VERBS)]
        description = (
            f"{verb.capitalize()} {subject} records in the {prefix} catalogue (entry {i}). "
            f"Returns the {subject} as JSON with its id and status."
        )
        if i == 0 and variant:
            description += " " + variant
        schema = {
            "type": "object",
            "properties": {
                "id": {"type": "string", "description": f"The {subject} identifier"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 100 + i},
            },
            "required": ["id"],
        }
        tools.append(types.Tool(name=f"{prefix}_{i:02d}", description=description, inputSchema=schema))
    return tools


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--prefix", default="cat")
    ap.add_argument("--variant-file", type=Path)
    args = ap.parse_args()
    server: Server = Server("rig-catalog", version="1.0.0")

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        variant = args.variant_file.read_text().strip() if args.variant_file and args.variant_file.exists() else ""
        return catalogue(args.count, args.prefix, variant)

    @server.call_tool(validate_input=False)
    async def call_tool(name: str, arguments: dict[str, Any]) -> Any:
        return [types.TextContent(type="text", text=f"{name} called with {sorted(arguments)}")]

    manager = StreamableHTTPSessionManager(app=server, json_response=True, stateless=True)

    serve_mcp(manager)


if __name__ == "__main__":
    main()
