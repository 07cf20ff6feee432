#!/usr/bin/env python3
"""Load and sampler of the memory soak (scripts/soak.sh starts the processes, this drives them).

Standard library only. Open-loop pacing: every load thread has a schedule and never bursts to
catch up, so the load stays moderate and steady on a shared machine. What it drives, through
the gateway:

- bench: the stateless Rust upstream (100 tools): cached `tools/list` and `tools/call` over
  keep-alive connections, plus a few malformed requests (bad JSON, no method, an empty batch, a
  wrong `Mcp-Method` header, a JSON string);
- sessions: a stateful FastMCP upstream: each session is a new connection that initializes,
  lists or calls once or twice, sometimes opens a GET stream that is dropped a few seconds
  later, and is then DELETEd (a minority) or simply abandoned;
- churn: the mutable upstream, whose tools file this process rewrites every few seconds with
  new descriptions, listed over one long-lived session: a steady flow of new content hashes.

Every JSON-RPC id is unique. Every `--sample-s` seconds it writes one line to samples.jsonl:
the gateway's RSS (VmRSS, RssAnon, VmHWM), open fds, threads, the sessions gauge from
`/metrics`, the SQLite files' sizes, and the request counters so far. counts.json at the end.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import random
import re
import socket
import sys
import threading
import time
import uuid
from collections import Counter

PROTOCOL = "2025-06-18"
ACCEPT = "application/json, text/event-stream"

counts: Counter = Counter()  # requests done, by kind
errors: Counter = Counter()  # unexpected outcomes, by kind
error_examples: dict[str, str] = {}
lock = threading.Lock()
stop = threading.Event()
_ids = itertools.count(1)
RUN = uuid.uuid4().hex[:8]


def next_id():
    """A unique JSON-RPC id: numbers and strings alternate, as clients use both."""
    n = next(_ids)
    return n if n % 2 else f"{RUN}-{n}"


def done(kind: str, ok: bool, why: str = "") -> None:
    with lock:
        counts[kind] += 1
        if not ok:
            errors[kind] += 1
            error_examples.setdefault(kind, why[:300])


def rpc(method: str, params: dict | None = None, rid=None) -> bytes:
    msg = {"jsonrpc": "2.0", "method": method}
    if rid is not None:
        msg["id"] = rid
    if params is not None:
        msg["params"] = params
    return json.dumps(msg).encode()


class Client:
    """One keep-alive HTTP/1.1 connection, reopened after an error."""

    def __init__(self, host: str, port: int, timeout: float = 10.0) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        h = {"Accept": ACCEPT}
        if body is not None:
            h["Content-Type"] = "application/json"
        h.update(headers or {})
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                self.conn.request(method, path, body=body, headers=h)
                resp = self.conn.getresponse()
                data = resp.read()
                return resp.status, resp.headers, data
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as e:
                # A keep-alive connection the server closed between requests: retry once.
                self.close()
                if attempt:
                    raise e
            except Exception:
                self.close()
                raise
        raise RuntimeError("unreachable")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def paced(rate: float, body) -> None:
    """Calls body() `rate` times a second until stop; late calls are skipped, never bunched."""
    if rate <= 0:
        return
    interval = 1.0 / rate
    nxt = time.monotonic() + random.random() * interval
    while not stop.is_set():
        now = time.monotonic()
        if nxt > now:
            if stop.wait(nxt - now):
                return
        elif now - nxt > 1.0:
            nxt = now
        nxt += interval
        try:
            body()
        except Exception as e:  # a failed request is counted by the body; keep going
            done("driver", False, f"{type(e).__name__}: {e}")


# --- bench: stateless, cached -----------------------------------------------------------------


def bench_loop(args, tool_names: list[str], rate: float) -> None:
    c = Client(args.host, args.port)
    path = "/mcp/bench"

    def one() -> None:
        r = random.random()
        if r < args.malformed:
            malformed(c)
        elif r < 0.5:
            kind = "bench_list"
            try:
                st, _, data = c.request("POST", path, rpc("tools/list", {}, next_id()))
                done(kind, st == 200 and b"tdqs-gateway/score" in data, f"{st} {data[:200]!r}")
            except Exception as e:
                done(kind, False, repr(e))
        else:
            kind = "bench_call"
            name = random.choice(tool_names)
            try:
                st, _, data = c.request(
                    "POST", path, rpc("tools/call", {"name": name, "arguments": {"query": "soak"}}, next_id())
                )
                done(kind, st == 200 and b'"result"' in data, f"{st} {data[:200]!r}")
            except Exception as e:
                done(kind, False, repr(e))

    paced(rate, one)
    c.close()


MALFORMED = [
    ("bad_json", b'{"jsonrpc":"2.0","id":', {}),
    ("no_method", None, {}),
    ("empty_batch", b"[]", {}),
    ("wrong_header", None, {"Mcp-Method": "tools/call"}),
    ("not_jsonrpc", b'"hello"', {}),
]


def malformed(c: Client) -> None:
    """A request no client should send: any answer but a 5xx (a 4xx, a JSON-RPC error, or 202
    for a body that reads as a response) is expected; a 5xx or a dropped connection is not."""
    name, body, headers = random.choice(MALFORMED)
    if name == "no_method":
        body = json.dumps({"jsonrpc": "2.0", "id": next_id()}).encode()
    elif name == "wrong_header":
        body = rpc("tools/list", {}, next_id())
    try:
        st, _, data = c.request("POST", "/mcp/bench", body, headers)
        ok = st < 500 and (st != 200 or b'"error"' in data)
        done("malformed", ok, f"{name}: {st} {data[:200]!r}")
    except Exception as e:
        done("malformed", False, f"{name}: {e!r}")


# --- sessions: stateful, churned ----------------------------------------------------------------

streams: list[tuple[float, socket.socket]] = []  # open GET streams and when to drop them
streams_lock = threading.Lock()


def sse_result(data: bytes) -> dict | None:
    """The last JSON-RPC message of an SSE (or JSON) answer."""
    text = data.decode("utf-8", "replace")
    lines = [ln[5:].strip() for ln in text.splitlines() if ln.startswith("data:")]
    raw = lines[-1] if lines else text
    try:
        return json.loads(raw)
    except ValueError:
        return None


def open_session(c, path: str, client: str, kind: str) -> dict | None:
    """initialize and notifications/initialized on `path`, counted as `<kind>_init` and
    `<kind>_initialized`; the headers of the session's later requests, or None."""
    init = rpc(
        "initialize",
        {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": client, "version": "1"}},
        next_id(),
    )
    st, hdrs, data = c.request("POST", path, init)
    sid = hdrs.get("Mcp-Session-Id")
    ok = st == 200 and sid is not None and (sse_result(data) or {}).get("result") is not None
    done(f"{kind}_init", ok, f"{st} {data[:200]!r}")
    if not ok:
        return None
    h = {"Mcp-Session-Id": sid, "MCP-Protocol-Version": PROTOCOL}
    st, _, data = c.request("POST", path, rpc("notifications/initialized"), h)
    done(f"{kind}_initialized", st == 202, f"{st} {data[:200]!r}")
    return h


def session_once(args) -> None:
    c = Client(args.host, args.port)
    path = "/mcp/sessions"
    try:
        h = open_session(c, path, "soak", "session")
        if h is None:
            return
        for _ in range(random.choice((1, 1, 2))):
            if random.random() < 0.5:
                st, _, data = c.request("POST", path, rpc("tools/list", {}, next_id()), h)
                msg = sse_result(data) or {}
                done("session_list", st == 200 and "tools" in msg.get("result", {}), f"{st} {data[:200]!r}")
            else:
                # The fast upstream is enforced at tier B: do_thing is hidden and its calls are
                # refused by the gateway; search_issues passes.
                name = random.choice(("search_issues", "do_thing"))
                arguments = {"query": "crash"} if name == "search_issues" else {"a": "x", "b": 1}
                st, _, data = c.request("POST", path, rpc("tools/call", {"name": name, "arguments": arguments}, next_id()), h)
                msg = sse_result(data) or {}
                ok = st == 200 and ("result" in msg if name == "search_issues" else "hidden by tdqs-gateway" in json.dumps(msg))
                done("session_call" if name == "search_issues" else "session_call_refused", ok, f"{st} {data[:200]!r}")
        if random.random() < args.get_streams:
            open_stream(args, path, h["Mcp-Session-Id"])
        if random.random() < args.delete:
            st, _, data = c.request("DELETE", path, None, h)
            done("session_delete", st in (200, 202, 204), f"{st} {data[:200]!r}")
    except Exception as e:
        done("session_error", False, repr(e))
    finally:
        c.close()


def open_stream(args, path: str, sid: str) -> None:
    """Opens the session's GET stream, reads its head, and leaves it to be dropped later."""
    s = socket.create_connection((args.host, args.port), timeout=5)
    req = (
        f"GET {path} HTTP/1.1\r\nHost: {args.host}:{args.port}\r\nAccept: text/event-stream\r\n"
        f"Mcp-Session-Id: {sid}\r\nMCP-Protocol-Version: {PROTOCOL}\r\n\r\n"
    )
    s.sendall(req.encode())
    head = b""
    try:
        while b"\r\n\r\n" not in head and len(head) < 8192:
            chunk = s.recv(4096)
            if not chunk:
                break
            head += chunk
    except OSError as e:
        head += repr(e).encode()
    ok = head.startswith(b"HTTP/1.1 200")
    done("session_get_stream", ok, head[:200].decode("latin-1"))
    if not ok:
        s.close()
        return
    with streams_lock:
        streams.append((time.monotonic() + random.uniform(0.5, args.stream_hold_s), s))


def stream_janitor() -> None:
    while not stop.wait(0.2):
        now = time.monotonic()
        with streams_lock:
            due = [s for t, s in streams if t <= now]
            streams[:] = [(t, s) for t, s in streams if t > now]
        for s in due:
            s.close()  # dropped, as a client that goes away does: no DELETE, no goodbye
    with streams_lock:
        for _, s in streams:
            s.close()
        streams.clear()


# --- churn: definitions that keep changing ---------------------------------------------------------

churn_state = {"generation": 0, "new_definitions": 0}


def churn_tools(generation: int, revisions: list[int]) -> list[dict]:
    tools = []
    for i, rev in enumerate(revisions):
        tools.append(
            {
                "name": f"record_{i:02d}",
                "description": (
                    f"Fetch record set {i} from the archive (revision {rev}). Returns up to `limit` "
                    f"records as JSON objects, newest first; read-only and safe to retry. Use "
                    f"record_{(i + 1) % len(revisions):02d} for the next set."
                ),
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "query": {"type": "string", "description": f"Text matched against titles (rev {rev})"},
                        "limit": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Most records"},
                    },
                    "required": ["query"],
                },
            }
        )
    return tools


def write_tools(path: str, tools: list[dict]) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(tools, f)
    os.replace(tmp, path)  # the server never reads a half-written file


def churn_writer(args) -> None:
    """Rewrites the mutable upstream's tools: `--def-changes` new descriptions per interval."""
    revisions = [0] * args.churn_tools
    nxt = 0
    while not stop.wait(args.def_interval_s):
        for _ in range(args.def_changes):
            revisions[nxt] = churn_state["generation"] * args.def_changes + _ + 1
            nxt = (nxt + 1) % len(revisions)
        churn_state["generation"] += 1
        write_tools(args.tools_file, churn_tools(churn_state["generation"], revisions))
        with lock:
            churn_state["new_definitions"] += args.def_changes


def churn_loop(args, rate: float) -> None:
    c = Client(args.host, args.port)
    path = "/mcp/churn"
    state: dict = {"h": None}

    def one() -> None:
        if state["h"] is None:
            state["h"] = open_session(c, path, "soak-churn", "churn")
            return
        try:
            if random.random() < 0.8:
                st, _, data = c.request("POST", path, rpc("tools/list", {}, next_id()), state["h"])
                done("churn_list", st == 200 and b"tdqs-gateway/score" in data, f"{st} {data[:200]!r}")
            else:
                name = f"record_{random.randrange(args.churn_tools):02d}"
                st, _, data = c.request(
                    "POST", path, rpc("tools/call", {"name": name, "arguments": {"query": "q"}}, next_id()), state["h"]
                )
                done("churn_call", st == 200 and b'"result"' in data, f"{st} {data[:200]!r}")
            if st == 404:  # the upstream forgot the session: start a new one
                state["h"] = None
        except Exception as e:
            done("churn_error", False, repr(e))

    paced(rate, one)
    c.close()


# --- sampling ----------------------------------------------------------------------------------------


def proc_status(pid: int) -> dict:
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "RssAnon", "RssFile", "VmHWM"):
                out[k] = int(v.split()[0])
            elif k == "Threads":
                out[k] = int(v)
    try:
        out["fds"] = len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        out["fds"] = None
    return out


def scrape_sessions(host: str, port: int) -> dict:
    c = Client(host, port, timeout=5)
    try:
        st, _, data = c.request("GET", "/metrics")
    finally:
        c.close()
    found = {}
    for m in re.finditer(rb'^mcp_gateway_sessions\{[^}]*server="([^"]+)"[^}]*\}\s+([0-9.e+]+)', data, re.M):
        found[m.group(1).decode()] = float(m.group(2))
    return found


def file_size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def sampler(args, t0: float, out) -> None:
    while True:
        t = time.monotonic() - t0
        row: dict = {"t_s": round(t, 1)}
        try:
            row.update(proc_status(args.pid))
        except OSError as e:
            row["error"] = f"gateway gone: {e}"
        for name, pid in (("up_sessions_rss", args.sessions_pid), ("up_churn_rss", args.churn_pid)):
            if pid:
                try:
                    row[name] = proc_status(pid).get("VmRSS")
                except OSError:
                    pass
        try:
            row["sessions_gauge"] = scrape_sessions(args.host, args.port)
        except Exception as e:
            row["sessions_gauge"] = {"error": repr(e)}
        if args.sqlite:
            row["sqlite_bytes"] = file_size(args.sqlite)
            row["sqlite_wal_bytes"] = file_size(args.sqlite + "-wal")
        with lock:
            row["counts"] = dict(counts)
            row["errors"] = sum(errors.values())
            row["new_definitions"] = churn_state["new_definitions"]
        with streams_lock:
            row["open_streams"] = len(streams)
        out.write(json.dumps(row) + "\n")
        out.flush()
        if stop.wait(args.sample_s):
            return


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gateway", required=True, help="host:port of the gateway")
    ap.add_argument("--pid", type=int, required=True, help="the gateway's process id")
    ap.add_argument("--sessions-pid", type=int, default=0)
    ap.add_argument("--churn-pid", type=int, default=0)
    ap.add_argument("--seconds", type=float, required=True)
    ap.add_argument("--rate", type=float, default=250, help="requests/s to the bench upstream")
    ap.add_argument("--bench-threads", type=int, default=4)
    ap.add_argument("--malformed", type=float, default=0.01, help="fraction of bench requests malformed")
    ap.add_argument("--sessions", type=float, default=4, help="new sessions/s on the stateful upstream (0: none)")
    ap.add_argument("--session-threads", type=int, default=2)
    ap.add_argument("--delete", type=float, default=0.25, help="fraction of sessions DELETEd")
    ap.add_argument("--get-streams", type=float, default=0.3, help="fraction of sessions opening a GET stream")
    ap.add_argument("--stream-hold-s", type=float, default=5.0)
    ap.add_argument("--churn-rate", type=float, default=4, help="requests/s on the churn upstream (0: none)")
    ap.add_argument("--tools-file", required=True)
    ap.add_argument("--churn-tools", type=int, default=10)
    ap.add_argument("--def-interval-s", type=float, default=2.0)
    ap.add_argument("--def-changes", type=int, default=2, help="descriptions changed per interval")
    ap.add_argument("--sample-s", type=float, default=5.0)
    ap.add_argument("--sqlite", default="")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    args.host, port = args.gateway.rsplit(":", 1)
    args.port = int(port)

    c = Client(args.host, args.port)
    st, _, data = c.request("POST", "/mcp/bench", rpc("tools/list", {}, next_id()))
    c.close()
    tool_names = [t["name"] for t in json.loads(data)["result"]["tools"]]

    t0 = time.monotonic()
    os.makedirs(args.out, exist_ok=True)
    samples = open(os.path.join(args.out, "samples.jsonl"), "w")
    threads = [threading.Thread(target=sampler, args=(args, t0, samples), daemon=True)]
    for _ in range(args.bench_threads):
        threads.append(threading.Thread(target=bench_loop, args=(args, tool_names, args.rate / args.bench_threads)))
    if args.sessions > 0:
        for _ in range(args.session_threads):
            threads.append(
                threading.Thread(target=paced, args=(args.sessions / args.session_threads, lambda: session_once(args)))
            )
        threads.append(threading.Thread(target=stream_janitor))
    if args.churn_rate > 0:
        threads.append(threading.Thread(target=churn_writer, args=(args,)))
        threads.append(threading.Thread(target=churn_loop, args=(args, args.churn_rate)))
    for t in threads:
        t.start()
    last = 0.0
    try:
        while not stop.wait(1.0):
            el = time.monotonic() - t0
            if el >= args.seconds:
                break
            if el - last >= 60:
                last = el
                with lock:
                    total = sum(counts.values())
                    print(f"[soak] {el / 60:4.1f} min: {total} requests, {sum(errors.values())} errors", file=sys.stderr)
    except KeyboardInterrupt:
        pass
    stop.set()
    for t in threads[1:]:
        t.join(timeout=15)
    elapsed = time.monotonic() - t0
    threads[0].join(timeout=args.sample_s + 10)
    samples.close()
    with open(os.path.join(args.out, "counts.json"), "w") as f:
        json.dump(
            {
                "seconds": round(elapsed, 1),
                "counts": dict(counts),
                "errors": dict(errors),
                "error_examples": error_examples,
                "new_definitions_written": churn_state["new_definitions"],
                "churn_generations": churn_state["generation"],
            },
            f,
            indent=1,
        )


if __name__ == "__main__":
    main()
