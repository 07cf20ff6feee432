"""A FastMCP server (Python SDK 1.30) over Streamable HTTP at `/mcp`, with tools of known quality:
three well described ones and three deliberately bad ones (no description, a tautological one,
undocumented parameters), plus one that reports progress and logs while it runs.

    python fastmcp_server.py [--stateless] [--gzip]

Default: stateful (sessions, answers as SSE streams). `--stateless`: `stateless_http=True` and
`json_response=True` (no sessions, every answer one JSON body). `--gzip`: responses of 500 bytes
or more are gzip-compressed when the request accepts it, as a server behind a compressing reverse
proxy would do. DNS-rebinding protection stays on (FastMCP's default on 127.0.0.1): a foreign
`Host` gets 421 and a foreign `Origin` 403, so a proxy must send the upstream's own `Host`.
Prints `LISTENING <port>`; see rig_common.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mcp.server.fastmcp import Context, FastMCP  # noqa: E402
from mcp.types import Icon, ToolAnnotations  # noqa: E402
from rig_common import Recorder, serve  # noqa: E402


class Issue(BaseModel):
    id: int = Field(description="Issue number")
    title: str = Field(description="One-line summary")
    state: Literal["open", "closed"] = Field(description="Whether the issue is still open")


class SearchResult(BaseModel):
    issues: list[Issue] = Field(description="Matching issues, newest first")
    total: int = Field(description="Number of matches before `limit` was applied")


ISSUES = [
    Issue(id=3, title="Crash when the config file is empty", state="open"),
    Issue(id=2, title="Typo in the README", state="closed"),
    Issue(id=1, title="Slow start on large repositories", state="open"),
]


def build(stateless: bool) -> FastMCP:
    mcp = FastMCP(
        "rig-fastmcp",
        instructions="Issue tracker test server for the tdqs-gateway integration tests.",
        stateless_http=stateless,
        json_response=stateless,
    )

    @mcp.tool(
        title="Search issues",
        annotations=ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False),
        icons=[Icon(src="https://rig.example/icons/search.png", mimeType="image/png", sizes=["48x48"])],
        meta={"rig.example/category": "issues"},
    )
    def search_issues(
        query: Annotated[str, Field(description="Free-text query matched against issue titles, case-insensitive")],
        state: Annotated[
            Literal["open", "closed", "all"], Field(description="Only issues in this state; 'all' for both")
        ] = "open",
        limit: Annotated[int, Field(ge=1, le=100, description="Largest number of issues to return (1-100)")] = 20,
    ) -> SearchResult:
        """Search the project's issue tracker and return matching issues, newest first.

        Use this before filing a report with `create_issue`, to find an existing issue about the
        same problem. Read-only. Returns at most `limit` issues, each with its number, title and
        state, plus the total number of matches. An empty query matches every issue.
        """
        q = query.lower()
        hits = [i for i in ISSUES if q in i.title.lower() and (state == "all" or i.state == state)]
        return SearchResult(issues=hits[:limit], total=len(hits))

    @mcp.tool(
        title="Create issue",
        annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False, openWorldHint=False),
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

    @mcp.tool(
        title="Count with progress",
        annotations=ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False),
    )
    async def count_to(
        n: Annotated[int, Field(ge=1, le=20, description="Last number to count to (1-20)")],
        ctx: Context,
        delay_ms: Annotated[int, Field(ge=0, le=1000, description="Pause between numbers, in milliseconds")] = 10,
    ) -> str:
        """Count from 1 to `n`, reporting progress after each number and logging it at info level.

        Use this to watch progress notifications and log messages arrive while a call runs; it
        has no side effects. Returns the text "counted to N".
        """
        import anyio

        for i in range(1, n + 1):
            await ctx.info(f"count {i}")
            await ctx.report_progress(i, n, f"step {i} of {n}")
            await anyio.sleep(delay_ms / 1000)
        return f"counted to {n}"

    # Deliberately bad definitions below.

    @mcp.tool()
    def do_thing(a: str, b: int) -> str:
        return f"{a}{b}"

    @mcp.tool(description="Gets data.")
    def get_data(x: str) -> str:
        return f"data for {x}"

    @mcp.tool(description="Process.")
    def process(input: str, mode: str, flag: bool = False) -> str:  # noqa: A002
        return f"processed {input} in {mode} ({flag})"

    return mcp


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--stateless", action="store_true")
    ap.add_argument("--gzip", action="store_true")
    args = ap.parse_args()
    app = build(args.stateless).streamable_http_app()
    if args.gzip:
        from starlette.middleware.gzip import GZipMiddleware

        app = GZipMiddleware(app, minimum_size=500)
    serve(Recorder(app))


if __name__ == "__main__":
    main()
