"""An `MCPServer` (Python SDK 2.x, run from `.venv-mcp2`) over Streamable HTTP at `/mcp`, for the
SDK 2.x matrix (tests/it/gateway_sdk2.rs). One endpoint serves both protocol eras, as SDK 2.x
servers do: 2025-era clients get the `initialize` handshake and a session; 2026-07-28 clients
send `server/discover` and then self-contained requests with no session.

Tools (the same three as ts2_server.mjs, so both servers score alike): two well described ones,
`search_issues` and `create_issue`, and one deliberately poor one, `do_thing` (no description,
undocumented parameters), which enforce must hide. `tools/list` says `cacheScope: "public"` with
a minute's `ttlMs`.

    python py2_server.py [--json]

`--json`: answer 2025-era requests with one JSON body instead of an SSE stream; `--stdio`: serve
on stdin and stdout instead. Prints `LISTENING <port>`; every request is recorded (see
rig_common.py). `POST /_rig/add-tool` adds a poorly described tool, `late_thing`, and tells
every open `subscriptions/listen` stream that the tool list changed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mcp.server.caching import CacheHint  # noqa: E402
from mcp.server.mcpserver import MCPServer  # noqa: E402
from mcp.server.subscriptions import InMemorySubscriptionBus  # noqa: E402
from mcp.shared.subscriptions import ToolsListChanged  # noqa: E402
from mcp_types import ToolAnnotations  # noqa: E402
from rig_common import Recorder, serve  # noqa: E402

ISSUES = [
    {"id": 3, "title": "Crash when the config file is empty", "state": "open"},
    {"id": 2, "title": "Typo in the README", "state": "closed"},
    {"id": 1, "title": "Slow start on large repositories", "state": "open"},
]


BUS = InMemorySubscriptionBus()


def build() -> MCPServer:
    # A shareable, long-lived list (the SDK's default is private and immediately stale): the
    # gateway, which scores and may filter per policy, must make it private on the way out.
    hints = {"tools/list": CacheHint(ttl_ms=60_000, scope="public")}
    mcp = MCPServer(
        "rig-py2",
        instructions="Issue tracker test server on the Python SDK 2.x.",
        cache_hints=hints,
        subscriptions=BUS,
    )

    @mcp.tool(
        title="Search issues",
        annotations=ToolAnnotations(
            read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
        ),
        structured_output=False,
    )
    def search_issues(
        query: Annotated[str, Field(description="Free-text query matched against issue titles, case-insensitive")],
        state: Annotated[
            Literal["open", "closed", "all"], Field(description="Only issues in this state; 'all' for both")
        ] = "open",
        limit: Annotated[int, Field(ge=1, le=100, description="Largest number of issues to return (1-100)")] = 20,
    ) -> str:
        """Search the project's issue tracker and return matching issues, newest first.

        Use this before filing a report with `create_issue`, to find an existing issue about the
        same problem. Read-only. Returns at most `limit` issues, one per line as `#N [state]
        title`, or the text "no issues" when nothing matches. An empty query matches every issue.
        """
        q = query.lower()
        hits = [i for i in ISSUES if q in i["title"].lower() and (state == "all" or i["state"] == state)]
        lines = [f"#{i['id']} [{i['state']}] {i['title']}" for i in hits[:limit]]
        return "\n".join(lines) if lines else "no issues"

    @mcp.tool(
        title="Create issue",
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
        ),
        structured_output=False,
    )
    def create_issue(
        title: Annotated[str, Field(description="One-line summary of the problem, at most 120 characters")],
        body: Annotated[str, Field(description="Markdown description: steps to reproduce, expected and actual result")],
    ) -> str:
        """File a new issue in the project's issue tracker and return its number.

        Use `search_issues` first to avoid duplicates. Each call adds a new issue (not idempotent);
        existing issues are never changed. Fails if the title is empty.
        """
        if not title.strip():
            raise ValueError("title must not be empty")
        return f"created issue #{len(ISSUES) + 1}: {title}"

    # The deliberately poor definition.
    @mcp.tool(structured_output=False)
    def do_thing(a: str, b: int) -> str:
        return f"{a}{b}"

    return mcp


class AddTool:
    """`POST /_rig/add-tool`: a new poor tool, announced to listeners; the rest goes to `app`."""

    def __init__(self, server: MCPServer, app: Any) -> None:
        self.server, self.app = server, app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("path") != "/_rig/add-tool":
            await self.app(scope, receive, send)
            return

        def late_thing(x: str) -> str:
            return x

        self.server.add_tool(late_thing, structured_output=False)
        await BUS.publish(ToolsListChanged())
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--stdio", action="store_true")
    args = ap.parse_args()
    if args.stdio:
        build().run("stdio")
        return
    server = build()
    serve(AddTool(server, Recorder(server.streamable_http_app(json_response=args.json))))


if __name__ == "__main__":
    main()
