"""Many Streamable HTTP clients at once against one gateway upstream (raw httpx, to see every
status code), for tests/it/stdio_load.rs. Each client: initialize (retrying on 503 until a
deadline), notifications/initialized, tools/list, tools/call, DELETE. Prints one JSON object;
each client's `opened` (initialize answered) and `closing` (DELETE about to be sent) times are
on one monotonic clock, so overlapping sessions can be counted.

    python load_client.py URL CLIENTS [--call-ms MS] [--deadline S]

--call-ms   each client calls `slow` with this many ms (0: `echo`), so sessions overlap
--deadline  seconds a client keeps retrying initialize after 503s
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from typing import Any

import httpx

ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def messages(resp: httpx.Response) -> list[dict[str, Any]]:
    if resp.headers.get("content-type", "").startswith("text/event-stream"):
        out = []
        for block in resp.text.replace("\r\n", "\n").split("\n\n"):
            data = [line[5:].lstrip(" ") for line in block.split("\n") if line.startswith("data:")]
            if data:
                out.append(json.loads("\n".join(data)))
        return out
    body = resp.json() if resp.text.strip() else []
    return body if isinstance(body, list) else [body]


def answer(resp: httpx.Response, id_: int) -> dict[str, Any]:
    for m in messages(resp):
        if m.get("id") == id_ and "method" not in m:
            return m
    raise RuntimeError(f"no answer to {id_}: {resp.status_code} {resp.text[:300]}")


async def one(http: httpx.AsyncClient, url: str, i: int, call_ms: int, deadline: float) -> dict[str, Any]:
    rec: dict[str, Any] = {"i": i, "attempts": 0, "rejected": 0, "ok": False}
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": f"load-{i}", "version": "1"}},
    }
    try:
        while True:
            rec["attempts"] += 1
            r = await http.post(url, json=init, headers=ACCEPT)
            if r.status_code == 503:
                rec["rejected"] += 1
                rec["rejection"] = {"status": 503, "body": r.json()}
                if time.monotonic() > deadline:
                    raise RuntimeError("still 503 at the deadline")
                await asyncio.sleep(random.uniform(0.02, 0.1))
                continue
            r.raise_for_status()
            break
        rec["opened"] = time.monotonic()
        sid = r.headers["mcp-session-id"]
        answer(r, 0)["result"]
        h = {**ACCEPT, "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18"}
        r = await http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=h)
        assert r.status_code == 202, r.status_code
        r = await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, headers=h)
        tools = answer(r, 1)["result"]["tools"]
        rec["tools"] = len(tools)
        rec["scored"] = all("tdqs-gateway/score" in (t.get("_meta") or {}) for t in tools)
        if call_ms:
            params = {"name": "slow", "arguments": {"ms": call_ms}}
            expect = f"slept {call_ms}"
        else:
            params = {"name": "echo", "arguments": {"text": f"client {i}"}}
            expect = f"echo: client {i}"
        r = await http.post(url, json={"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params}, headers=h)
        text = answer(r, 2)["result"]["content"][0]["text"]
        if text != expect:
            raise RuntimeError(f"call answered {text!r}, expected {expect!r}")
        rec["closing"] = time.monotonic()
        r = await http.delete(url, headers={"mcp-session-id": sid})
        rec["deleteStatus"] = r.status_code
        rec["ok"] = r.status_code == 200
    except Exception as e:  # reported, asserted on by the Rust side
        rec["error"] = f"{type(e).__name__}: {e}"[:400]
    return rec


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("url")
    ap.add_argument("clients", type=int)
    ap.add_argument("--call-ms", type=int, default=0)
    ap.add_argument("--deadline", type=float, default=60)
    args = ap.parse_args()
    started = time.monotonic()
    deadline = started + args.deadline
    limits = httpx.Limits(max_connections=args.clients + 10, max_keepalive_connections=args.clients + 10)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        recs = await asyncio.gather(*(one(http, args.url, i, args.call_ms, deadline) for i in range(args.clients)))
    out = {"clients": recs, "seconds": round(time.monotonic() - started, 2)}
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    asyncio.run(main())
