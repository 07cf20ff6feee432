"""An MCP client built on the Python SDK 1.30 (`ClientSession` over `streamablehttp_client`), run by
the Rust integration tests against an upstream directly or through the gateway. It prints one
JSON object on stdout describing what it saw; the Rust side asserts on it.

    python py_client.py list URL             initialize, list every page (following nextCursor)
    python py_client.py call URL TOOL ARGS   initialize, list every page, call TOOL with ARGS
                                             (JSON), collecting progress and log notifications
    python py_client.py everything URL       the server-everything tour: capabilities for roots,
                                             sampling and elicitation; list_changed, list, echo,
                                             progress, sampling, elicitation, roots, logging
    python py_client.py tour URL [URL ...]   per URL: initialize, call `search_issues` and
                                             `do_thing`, list, call `do_thing` again (the SDK 2.x
                                             matrix, gateway_sdk2.rs); prints {"runs": [...]}
Add `--header K=V` (repeatable) for extra HTTP headers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import Any

import mcp.types as types
from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client
from mcp.shared.context import RequestContext
from mcp.shared.session import RequestResponder


def dump(model: Any) -> Any:
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


class Observer:
    """Collects what the server sends besides answers."""

    def __init__(self) -> None:
        self.notifications: list[str] = []
        self.logs: list[dict[str, Any]] = []
        self.sampling: list[dict[str, Any]] = []
        self.elicitations: list[dict[str, Any]] = []
        self.roots_requests = 0
        self.list_changed = asyncio.Event()
        self.log_seen = asyncio.Event()

    async def on_message(
        self,
        message: RequestResponder[types.ServerRequest, types.ClientResult] | types.ServerNotification | Exception,
    ) -> None:
        if isinstance(message, types.ServerNotification):
            self.notifications.append(message.root.method)
            if isinstance(message.root, types.ToolListChangedNotification):
                self.list_changed.set()
        elif isinstance(message, Exception):
            self.notifications.append(f"error: {message}")

    async def on_log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.logs.append({"level": params.level, "data": params.data})
        self.log_seen.set()

    async def on_sampling(
        self, _ctx: RequestContext[ClientSession, Any], params: types.CreateMessageRequestParams
    ) -> types.CreateMessageResult:
        text = params.messages[0].content.text if params.messages else ""
        self.sampling.append({"prompt": text, "maxTokens": params.maxTokens})
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="sampled answer from the rig client"),
            model="rig-model",
            stopReason="endTurn",
        )

    async def on_elicit(self, _ctx: RequestContext[ClientSession, Any], params: Any) -> types.ElicitResult:
        self.elicitations.append({"message": getattr(params, "message", "")})
        return types.ElicitResult(action="accept", content={"name": "Rig Client", "check": True, "integer": 7})

    async def on_roots(self, _ctx: RequestContext[ClientSession, Any]) -> types.ListRootsResult:
        self.roots_requests += 1
        return types.ListRootsResult(roots=[types.Root(uri="file:///rig/root", name="rig-root")])


async def list_all(session: ClientSession) -> dict[str, Any]:
    pages: list[list[str]] = []
    cursors: list[str | None] = []
    tools: list[Any] = []
    cursor: str | None = None
    while True:
        page = await session.list_tools(cursor) if cursor else await session.list_tools()
        pages.append([t.name for t in page.tools])
        tools.extend(dump(t) for t in page.tools)
        cursors.append(page.nextCursor)
        if not page.nextCursor:
            break
        cursor = page.nextCursor
    return {"pages": pages, "nextCursors": cursors, "tools": tools}


def call_summary(result: types.CallToolResult) -> dict[str, Any]:
    return {
        "isError": bool(result.isError),
        "text": "\n".join(c.text for c in result.content if isinstance(c, types.TextContent)),
        "structuredContent": result.structuredContent,
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    headers = dict(h.split("=", 1) for h in args.header)
    obs = Observer()
    out: dict[str, Any] = {}
    caps: dict[str, Any] = {}
    if args.command == "everything":
        caps = dict(
            sampling_callback=obs.on_sampling,
            elicitation_callback=obs.on_elicit,
            list_roots_callback=obs.on_roots,
        )
    async with streamablehttp_client(args.url, headers=headers or None) as (read, write, get_session_id):
        async with ClientSession(
            read, write, message_handler=obs.on_message, logging_callback=obs.on_log, **caps
        ) as session:
            init = await session.initialize()
            out["protocolVersion"] = init.protocolVersion
            out["serverName"] = init.serverInfo.name
            out["sessionId"] = get_session_id()

            if args.command == "list":
                out.update(await list_all(session))
            elif args.command == "call":
                out["list"] = await list_all(session)
                progress: list[list[float | None]] = []

                async def on_progress(p: float, total: float | None, _msg: str | None) -> None:
                    progress.append([p, total])

                try:
                    result = await session.call_tool(
                        args.tool, json.loads(args.args or "{}"), progress_callback=on_progress
                    )
                    out["result"] = call_summary(result)
                except Exception as e:  # an MCP error answer
                    out["error"] = {"type": type(e).__name__, "message": str(e)}
                    err = getattr(e, "error", None)
                    if err is not None:
                        out["error"].update({"code": err.code, "data": err.data})
                out["progress"] = progress
                await asyncio.sleep(0.1)
                out["logs"] = obs.logs
            elif args.command == "everything":
                await everything(session, obs, out)
            out["notifications"] = obs.notifications
    return out


async def everything(session: ClientSession, obs: Observer, out: dict[str, Any]) -> None:
    # server-everything registers its capability-dependent tools after `initialized` and says so
    # with list_changed on the GET stream.
    try:
        await asyncio.wait_for(obs.list_changed.wait(), 1.5)
        out["listChangedSeen"] = True
    except asyncio.TimeoutError:
        out["listChangedSeen"] = False
    listed = await list_all(session)
    out["tools"] = listed["tools"]

    out["echo"] = call_summary(await session.call_tool("echo", {"message": "hello through the gateway"}))

    progress: list[list[float | None]] = []

    async def on_progress(p: float, total: float | None, _msg: str | None) -> None:
        progress.append([p, total])

    r = await session.call_tool(
        "trigger-long-running-operation", {"duration": 0.4, "steps": 4}, progress_callback=on_progress
    )
    out["longRunning"] = call_summary(r)
    out["progress"] = progress

    names = {t["name"] for t in out["tools"]}
    if "trigger-sampling-request" in names:
        r = await session.call_tool("trigger-sampling-request", {"prompt": "say hi", "maxTokens": 20})
        out["sampling"] = {"result": call_summary(r), "requests": obs.sampling}
    if "trigger-elicitation-request" in names:
        r = await session.call_tool("trigger-elicitation-request", {})
        out["elicitation"] = {"result": call_summary(r), "requests": obs.elicitations}
    if "get-roots-list" in names:
        r = await session.call_tool("get-roots-list", {})
        out["roots"] = {"result": call_summary(r), "requests": obs.roots_requests}

    # Logging: server-everything sends one message at once, then one every 5 s, on the GET stream.
    await session.set_logging_level("debug")
    await session.call_tool("toggle-simulated-logging", {})
    start = time.monotonic()
    try:
        await asyncio.wait_for(obs.log_seen.wait(), 8)
    except asyncio.TimeoutError:
        pass
    out["logWaitSeconds"] = round(time.monotonic() - start, 2)
    out["logs"] = obs.logs
    await session.call_tool("toggle-simulated-logging", {})


async def tour_one(url: str) -> dict[str, Any]:
    """One connection of the SDK 2.x matrix: initialize, a visible call and a poor one before
    listing (as a client that remembers its tools does), the list, the poor call again."""
    out: dict[str, Any] = {"url": url}
    try:
        async with streamablehttp_client(url) as (read, write, get_session_id):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                out["protocolVersion"] = init.protocolVersion
                out["serverName"] = init.serverInfo.name
                out["sessionId"] = get_session_id()

                async def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
                    try:
                        return {"result": call_summary(await session.call_tool(name, arguments))}
                    except Exception as e:  # an MCP error answer
                        err = getattr(e, "error", None)
                        got: dict[str, Any] = {"type": type(e).__name__, "message": str(e)}
                        if err is not None:
                            got.update({"code": err.code, "message": err.message, "data": err.data})
                        return {"error": got}

                out["visible"] = await call("search_issues", {"query": "crash", "state": "all"})
                out["poor"] = await call("do_thing", {"a": "x", "b": 1})
                out["tools"] = (await list_all(session))["tools"]
                out["poorAgain"] = await call("do_thing", {"a": "x", "b": 1})
    except BaseException as e:  # noqa: BLE001 - reported to the Rust side, which fails the test
        out["fatal"] = f"{type(e).__name__}: {e}"
    return out


async def tour(urls: list[str]) -> dict[str, Any]:
    return {"client": "py1", "runs": [await tour_one(u) for u in urls]}


def main() -> None:
    if sys.argv[1:2] == ["tour"]:
        out = asyncio.run(tour(sys.argv[2:]))
        json.dump(out, sys.stdout)
        sys.stdout.write("\n")
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("command", choices=["list", "call", "everything"])
    ap.add_argument("url")
    ap.add_argument("tool", nargs="?")
    ap.add_argument("args", nargs="?")
    ap.add_argument("--header", action="append", default=[])
    args = ap.parse_args()
    out = asyncio.run(run(args))
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
