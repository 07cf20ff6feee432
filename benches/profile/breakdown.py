#!/usr/bin/env python3
"""Instructions per request by component, from one callgrind dump (scripts/profile-proxy.sh).

Every function's self cost goes to exactly one component (by the crate its symbol names, or the
shared object for C code), so the components add up to the total. Inclusive costs of a few
entry points follow, to say what the parts are spent on (an inclusive cost overlaps others).

Usage: breakdown.py CALLGRIND_OUT --requests N [--label L] [--json]
"""

import argparse
import json
import re
from collections import defaultdict

# (component, test on the function name and its shared object), first match wins.
COMPONENTS = [
    ("allocator (malloc, free, realloc)", lambda f, o: re.search(
        r"^(_int_malloc|_int_free|_int_realloc|malloc|free|cfree|realloc|calloc|malloc_consolidate|"
        r"tcache_|__libc_malloc|__libc_free|__libc_realloc|__libc_calloc|unlink_chunk|__rust_alloc|"
        r"__rust_dealloc|__rust_realloc|__rdl_|alloc::alloc::|sysmalloc|__default_morecore|_mid_memalign|"
        r"__posix_memalign|posix_memalign|aligned_alloc|_?mi_|mimalloc::)", f) is not None),
    ("memcpy, memmove, memset, memcmp", lambda f, o: re.search(r"(^|_)(mem(cpy|move|set|cmp|chr|rchr)|bcmp|strlen)", f) is not None),
    ("hyper (HTTP/1 server side and the client's connection)", lambda f, o: crate(f) in ("hyper", "httparse", "httpdate", "want", "try_lock")),
    ("hyper-util (server auto builder, client pool)", lambda f, o: crate(f) == "hyper_util"),
    ("reqwest (request building, client, body)", lambda f, o: crate(f) == "reqwest"),
    ("http types (HeaderMap, Uri, Method)", lambda f, o: crate(f) in ("http", "http_body", "http_body_util")),
    ("URL parsing (url, idna, percent-encoding)", lambda f, o: crate(f) in ("url", "idna", "percent_encoding", "form_urlencoded", "serde_urlencoded")),
    ("tokio runtime, I/O and wake-ups (tokio, mio)", lambda f, o: crate(f) in ("tokio", "mio", "parking_lot", "parking_lot_core", "lock_api")),
    ("telemetry (tracing, OpenTelemetry SDK)", lambda f, o: crate(f).startswith(("tracing", "opentelemetry", "sharded_slab", "prometheus"))),
    ("JSON (serde_json, serde)", lambda f, o: crate(f) in ("serde_json", "serde", "serde_core")),
    ("gateway: MCP classification (mcp::)", lambda f, o: f.lstrip("<&").startswith("tdqs_gateway::mcp")),
    ("gateway: telemetry calls (telemetry::)", lambda f, o: f.lstrip("<&").startswith("tdqs_gateway::telemetry")),
    ("gateway: proxy (routes, forward, headers, rewrite)", lambda f, o: f.lstrip("<&").startswith("tdqs_gateway::proxy")),
    ("gateway: other", lambda f, o: crate(f) == "tdqs_gateway"),
    ("futures, bytes, hashing, core/std", lambda f, o: crate(f) in (
        "futures_util", "futures_core", "futures_channel", "futures_task", "bytes", "core", "alloc", "std",
        "hashbrown", "indexmap", "smallvec", "pin_project_lite", "foldhash", "ahash", "siphasher", "slab",
        "rustc_demangle", "memchr", "itoa", "ryu", "once_cell", "arc_swap", "crossbeam_utils", "crossbeam_epoch",
        "moka", "sha2", "tower", "tower_service", "tower_layer", "sync_wrapper")),
    ("libc, system-call wrappers, dynamic loader (user side)", lambda f, o: "libc" in o or "ld-linux" in o or "vdso" in o),
]


def crate(name):
    n = name
    while n and n[0] in "<&*":
        n = n[1:]
    for prefix in ("mut ", "dyn ", "const "):
        if n.startswith(prefix):
            n = n[len(prefix):]
    return re.split(r"::|<| |\(", n, maxsplit=1)[0]


def parse(path):
    """Self and inclusive Ir per function, summed over every thread in the file."""
    names = {"fn": {}, "ob": {}}
    self_cost = defaultdict(int)
    incl_calls = defaultdict(int)
    obj_of = {}
    totals = 0
    fn = ob = None
    after_calls = False

    def resolve(kind, value):
        m = re.match(r"\((\d+)\)(?: (.*))?$", value)
        if not m:
            return value
        if m.group(2) is not None:
            names[kind][m.group(1)] = m.group(2)
        return names[kind].get(m.group(1), value)

    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            c = line[0]
            if c.isdigit() or c in "+-*":
                parts = line.split()
                cost = int(parts[1]) if len(parts) > 1 else 0
                if after_calls:
                    incl_calls[fn] += cost
                    after_calls = False
                elif fn is not None:
                    self_cost[fn] += cost
                continue
            if line.startswith("fn="):
                fn = resolve("fn", line[3:])
                obj_of.setdefault(fn, ob or "")
            elif line.startswith("ob="):
                ob = resolve("ob", line[3:])
            elif line.startswith("cfn="):
                resolve("fn", line[4:])
            elif line.startswith("cob="):
                resolve("ob", line[4:])
            elif line.startswith("calls="):
                after_calls = True
            elif line.startswith("totals:") or line.startswith("summary:"):
                totals = max(totals, int(line.split()[1]))
    inclusive = {k: self_cost.get(k, 0) + incl_calls.get(k, 0) for k in set(self_cost) | set(incl_calls)}
    return self_cost, inclusive, obj_of, totals or sum(self_cost.values())


# Entry points whose inclusive cost says what a part of the request costs.
INCLUSIVE = [
    ("gateway request handling (routes::handle, inclusive)", r"tdqs_gateway::proxy::routes::handle"),
    ("forward::observed (span, metrics, handle)", r"tdqs_gateway::proxy::forward::observed"),
    ("forward::send (headers, URL, reqwest send)", r"tdqs_gateway::proxy::forward::send"),
    ("headers::end_to_end (header copying)", r"tdqs_gateway::proxy::headers::end_to_end"),
    ("mcp::message::parse_body (JSON classification)", r"tdqs_gateway::mcp::message::parse_body"),
    ("telemetry::metrics::Metrics::request (histogram)", r"tdqs_gateway::telemetry::metrics::Metrics::request"),
    ("telemetry::traces::request_span (span)", r"tdqs_gateway::telemetry::traces::request_span"),
    ("reqwest Client::execute_request", r"reqwest::async_impl::client::Client::execute_request"),
    ("reqwest RequestBuilder::send", r"reqwest::async_impl::request::RequestBuilder::send"),
    ("url::Url::parse", r"^url::Url::parse|url::parser::Parser::parse_url"),
    ("the list rewrite (catalog::)", r"tdqs_gateway::catalog::table::UpstreamTools::rewrite_list"),
    ("malloc", r"^malloc$|__libc_malloc"),
    ("free", r"^free$|^cfree|__libc_free"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dump")
    ap.add_argument("--requests", type=int, required=True)
    ap.add_argument("--label", default="")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    self_cost, inclusive, obj_of, total = parse(a.dump)
    n = a.requests
    by = defaultdict(int)
    for f, cost in self_cost.items():
        comp = next((c for c, test in COMPONENTS if test(f, obj_of.get(f, ""))), "other")
        by[comp] += cost
    if a.json:
        print(json.dumps({"label": a.label, "per_request": total / n,
                          "components": {k: v / n for k, v in by.items()}}))
        return
    print(f"## {a.label}: {total / n:,.0f} instructions per request ({n} requests, user space)\n")
    print("| component (self cost) | instructions / request | share |")
    print("|---|---:|---:|")
    for comp, cost in sorted(by.items(), key=lambda kv: -kv[1]):
        print(f"| {comp} | {cost / n:,.0f} | {100 * cost / total:.1f}% |")
    print("\n| entry point (inclusive, overlapping) | instructions / request | share |")
    print("|---|---:|---:|")
    for label, pattern in INCLUSIVE:
        matched = [v for f, v in inclusive.items() if re.search(pattern, f)]
        if matched:
            v = max(matched) if "malloc" not in label and "free" not in label else sum(matched)
            print(f"| {label} | {v / n:,.0f} | {100 * v / total:.1f}% |")
    print("\nTop functions by self cost:\n")
    for f, cost in sorted(self_cost.items(), key=lambda kv: -kv[1])[:25]:
        print(f"    {cost / n:9,.0f}  {f[:150]}")


if __name__ == "__main__":
    main()
