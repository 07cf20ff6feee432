"""An MCP client on the Python SDK 2.x (`mcp.Client`, run from `.venv-mcp2`), for the SDK 2.x
matrix (tests/it/gateway_sdk2.rs). `Client` negotiates in its default mode, `auto`: it probes
`server/discover` at 2026-07-28 and falls back to the `initialize` handshake when the server
is a 2025-era one.

    python py2_client.py tour URL [URL ...]

For each URL, one connection: negotiate; call `search_issues` (a well described tool every rig
server has) and `do_thing` (the deliberately poor one, which an enforcing gateway hides and
refuses) before listing anything, as a client that remembers its tools does; list every page of
tools; call `do_thing` again. Prints one JSON object, `{"runs": [...]}`, a run per URL in order;
a run that failed as a whole carries `fatal`.

    python py2_client.py tour-stdio CMD [ARG ...]

The same tour of one stdio server, launched as CMD ARG... (e.g. `tdqs-gateway wrap -- ...`).

    python py2_client.py listen TRIGGER URL [URL ...]

Opens a connection and a `subscriptions/listen` stream for tool list changes on every URL, then
POSTs to TRIGGER (the rig server's `/_rig/add-tool`), waits for the change event on each stream
lists the tools again and calls the new tool, `late_thing`; prints `{"runs": [{"url", "before",
"event", "after", "late"}, ...]}`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters

VISIBLE = ("search_issues", {"query": "crash", "state": "all"})
POOR = ("do_thing", {"a": "x", "b": 1})


def call_summary(result: types.CallToolResult) -> dict[str, Any]:
    return {
        "isError": bool(result.is_error),
        "text": "\n".join(c.text for c in result.content if isinstance(c, types.TextContent)),
    }


async def call(client: Client, name: str, args: dict[str, Any]) -> dict[str, Any]:
    try:
        return {"result": call_summary(await client.call_tool(name, args))}
    except Exception as e:  # an MCP error answer (or the SDK refusing the result)
        out: dict[str, Any] = {"type": type(e).__name__, "message": str(e)}
        err = getattr(e, "error", None)
        if err is not None:
            out.update({"code": err.code, "message": err.message, "data": err.data})
        return {"error": out}


async def tour(url: str, target: str | StdioServerParameters | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"url": url}
    try:
        async with Client(target or url) as client:
            out["protocolVersion"] = client.protocol_version
            info = client.server_info
            out["serverName"] = info.name if info else None
            out["visible"] = await call(client, *VISIBLE)
            out["poor"] = await call(client, *POOR)
            tools: list[Any] = []
            pages: list[dict[str, Any]] = []
            cursor: str | None = None
            while True:
                page = await client.list_tools(cursor=cursor)
                tools.extend(t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in page.tools)
                # 2026-07-28 list results say how long and for whom they may be cached.
                pages.append({"cacheScope": getattr(page, "cache_scope", None), "ttlMs": getattr(page, "ttl_ms", None)})
                cursor = page.next_cursor
                if not cursor:
                    break
            out["tools"] = tools
            out["pages"] = pages
            out["poorAgain"] = await call(client, *POOR)
    except BaseException as e:  # noqa: BLE001 - reported to the Rust side, which fails the test
        out["fatal"] = f"{type(e).__name__}: {e}"
    return out


async def main_async(urls: list[str]) -> dict[str, Any]:
    return {"client": "py2", "runs": [await tour(u) for u in urls]}


async def names(client: Client) -> list[str]:
    return [t.name for t in (await client.list_tools(cache_mode="refresh")).tools]


async def listen_all(trigger: str, urls: list[str]) -> dict[str, Any]:
    import urllib.request
    from contextlib import AsyncExitStack

    runs: list[dict[str, Any]] = [{"url": u} for u in urls]
    async with AsyncExitStack() as stack:
        subs = []
        for run in runs:
            client = await stack.enter_async_context(Client(run["url"]))
            run["before"] = await names(client)
            subs.append((client, await stack.enter_async_context(client.listen(tools_list_changed=True))))
        # Every stream is acknowledged: one change reaches them all.
        await asyncio.to_thread(lambda: urllib.request.urlopen(urllib.request.Request(trigger, method="POST")).read())
        for run, (client, sub) in zip(runs, subs):
            try:
                run["event"] = type(await asyncio.wait_for(sub.__anext__(), 20)).__name__
            except (TimeoutError, asyncio.TimeoutError, StopAsyncIteration) as e:
                run["event"] = f"none: {type(e).__name__}"
            run["after"] = await names(client)
            run["late"] = await call(client, "late_thing", {"x": "y"})
    return {"client": "py2", "runs": runs}


def main() -> None:
    if sys.argv[1:2] == ["tour-stdio"]:
        command = sys.argv[2:]
        target = StdioServerParameters(command=command[0], args=command[1:])
        out = {"client": "py2", "runs": [asyncio.run(tour(" ".join(command), target))]}
        json.dump(out, sys.stdout)
        sys.stdout.write("\n")
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("command", choices=["tour", "listen"])
    ap.add_argument("urls", nargs="+")
    args = ap.parse_args()
    if args.command == "listen":
        out = asyncio.run(listen_all(args.urls[0], args.urls[1:]))
    else:
        out = asyncio.run(main_async(args.urls))
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
