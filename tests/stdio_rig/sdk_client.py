"""An MCP client on the Python SDK (mcp 1.30) that runs a plan of steps and prints, as one JSON
object on stdout, what it saw; the Rust tests (tests/stdio_*.rs, tests/legacy_*.rs) assert on it.

    python sdk_client.py http URL PLAN            Streamable HTTP (streamable_http_client; the
                                                  session is DELETEd on close)
    python sdk_client.py sse URL PLAN             legacy HTTP+SSE (sse_client)
    python sdk_client.py stdio PLAN -- CMD ARGS   launches CMD over stdio (stdio_client)

PLAN is a JSON array of steps:
    {"op": "list"}                                every page of tools/list
    {"op": "call", "tool": NAME, "args": {...}}   tools/call; an error answer is reported, not raised
    {"op": "ping"}
    {"op": "procs", "marker": TEXT}               pids whose command line holds TEXT, with their
                                                  children (stdio: to check what a close leaves)
Output: {"protocolVersion", "serverName", "sessionId", "steps": [...], "logs": [...],
"exceptions": [...] (messages the transport could not parse), "closeSeconds"}.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

import anyio
import mcp.types as types
from mcp import ClientSession, McpError, StdioServerParameters
from mcp.client.sse import sse_client
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

OVERALL_TIMEOUT = 90


def dump(model: Any) -> Any:
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


def procs(marker: str) -> list[dict[str, Any]]:
    """Processes whose command line contains `marker`, plus their direct children."""
    table: dict[int, tuple[int, str]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        except OSError:
            continue
        table[int(entry)] = (ppid, cmd)
    me = os.getpid()
    marked = {pid for pid, (_, cmd) in table.items() if marker in cmd and pid != me}
    kids = {pid for pid, (ppid, _) in table.items() if ppid in marked}
    return [{"pid": pid, "cmd": table[pid][1], "marked": pid in marked} for pid in sorted(marked | kids)]


async def run_steps(session: ClientSession, plan: list[dict[str, Any]]) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    for step in plan:
        op = step["op"]
        if op == "list":
            tools: list[Any] = []
            cursor: str | None = None
            while True:
                page = await session.list_tools(cursor) if cursor else await session.list_tools()
                tools.extend(dump(t) for t in page.tools)
                cursor = page.nextCursor
                if not cursor:
                    break
            steps.append({"op": op, "tools": tools})
        elif op == "call":
            try:
                r = await session.call_tool(step["tool"], step.get("args") or {})
                steps.append(
                    {
                        "op": op,
                        "ok": True,
                        "isError": bool(r.isError),
                        "text": "\n".join(c.text for c in r.content if isinstance(c, types.TextContent)),
                        "structuredContent": r.structuredContent,
                    }
                )
            except McpError as e:
                steps.append(
                    {
                        "op": op,
                        "ok": False,
                        "code": e.error.code,
                        "message": e.error.message,
                        "data": e.error.data,
                    }
                )
        elif op == "ping":
            await session.send_ping()
            steps.append({"op": op, "ok": True})
        elif op == "procs":
            steps.append({"op": op, "procs": procs(step["marker"])})
        else:
            raise SystemExit(f"unknown step {op!r}")
    return steps


async def run(transport: str, target: str | list[str], plan: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"logs": [], "exceptions": []}

    async def on_message(message: Any) -> None:
        if isinstance(message, Exception):
            out["exceptions"].append(f"{type(message).__name__}: {message}"[:300])

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        out["logs"].append({"level": params.level, "data": params.data})

    async def session_on(read: Any, write: Any, get_id: Any = None) -> None:
        async with ClientSession(read, write, message_handler=on_message, logging_callback=on_log) as session:
            init = await session.initialize()
            out["protocolVersion"] = init.protocolVersion
            out["serverName"] = init.serverInfo.name
            out["sessionId"] = get_id() if get_id else None
            out["steps"] = await run_steps(session, plan)
            out["closeStarted"] = time.monotonic()

    with anyio.fail_after(OVERALL_TIMEOUT):
        if transport == "http":
            async with streamable_http_client(str(target)) as (read, write, get_id):
                await session_on(read, write, get_id)
        elif transport == "sse":
            async with sse_client(str(target)) as (read, write):
                await session_on(read, write)
        else:
            cmd = list(target)
            params = StdioServerParameters(command=cmd[0], args=cmd[1:], env=dict(os.environ))
            async with stdio_client(params) as (read, write):
                await session_on(read, write)
    out["closeSeconds"] = round(time.monotonic() - out.pop("closeStarted"), 3)
    return out


def main() -> None:
    argv = sys.argv[1:]
    if len(argv) < 2 or argv[0] not in ("http", "sse", "stdio"):
        raise SystemExit(__doc__)
    transport = argv[0]
    if transport == "stdio":
        plan, sep, cmd = json.loads(argv[1]), argv[2] if len(argv) > 2 else "", argv[3:]
        if sep != "--" or not cmd:
            raise SystemExit("usage: sdk_client.py stdio PLAN -- CMD ARGS")
        target: str | list[str] = cmd
    else:
        target, plan = argv[1], json.loads(argv[2])
    out = anyio.run(run, transport, target, plan)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
