"""Throughput of the reference TDQS package (tdqs==0.1.0) on the benchmark corpus, in-process.

Usage: python bench_engine_reference.py [--corpus PATH] [--reps N] [--min-seconds S]

The counterpart of examples/engine_throughput.rs, with the same workloads, timing and output
shape (one JSON object on stdout), so scripts/bench-engine.sh can divide one by the other:
- stages12: tdqs.compute_context_signals + tdqs.evaluate_hard_gates per tool, over definitions
  parsed once, outside the timing, with tdqs.parse_tool_definitions;
- lint50: tdqs.lint_server over servers of 50 tools;
- parse50: json.loads of a tools/list result of 50 tools + tdqs.parse_tool_definitions.
Each workload runs whole passes over the corpus until --min-seconds have passed, --reps times,
after one warm-up pass; the median repetition is reported in tools per second.

The reference is a test oracle only; this script just calls its public API.
"""

import argparse
import json
import statistics
import sys
import time
from importlib.metadata import version

import tdqs

SERVER_SIZE = 50


def measure(reps, min_seconds, tools_per_pass, run_pass):
    run_pass()  # warm-up
    samples = []
    for _ in range(reps):
        passes = 0
        start = time.perf_counter()
        while True:
            run_pass()
            passes += 1
            elapsed = time.perf_counter() - start
            if elapsed >= min_seconds:
                break
        samples.append(passes * tools_per_pass / elapsed)
    return samples


def report(samples, checksum):
    return {"toolsPerSecond": statistics.median(samples), "samples": samples, "checksum": checksum}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="benches/corpus/tools.json")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--min-seconds", type=float, default=1.0)
    args = ap.parse_args()
    if args.reps < 1:
        sys.exit("--reps must be at least 1")

    with open(args.corpus, "rb") as f:
        items = json.loads(f.read().decode("utf-8"))
    chunks = [items[i : i + SERVER_SIZE] for i in range(0, len(items), SERVER_SIZE)]
    # The same documents the Rust side parses: a tools/list result per server.
    documents = [
        json.dumps({"serverName": f"bench-{i:02}", "tools": c}, ensure_ascii=False).encode("utf-8")
        for i, c in enumerate(chunks)
    ]
    servers = [tdqs.parse_tool_definitions(json.loads(d)) for d in documents]
    tools = [t for s in servers for t in s.tools]
    n = len(tools)

    # Checksums, computed once outside the timing.
    cost_sum = sum(tdqs.compute_context_signals(t).invocation_cost for t in tools)
    gated = sum(1 for t in tools if tdqs.evaluate_hard_gates(t).flags)
    findings = sum(len(tdqs.lint_server(server_name=s.server_name, tools=s.tools).findings) for s in servers)

    compute_context_signals = tdqs.compute_context_signals
    evaluate_hard_gates = tdqs.evaluate_hard_gates
    lint_server = tdqs.lint_server
    parse_tool_definitions = tdqs.parse_tool_definitions

    def stages12():
        for t in tools:
            compute_context_signals(t)
            evaluate_hard_gates(t)

    def lint50():
        for s in servers:
            lint_server(server_name=s.server_name, tools=s.tools)

    def parse50():
        for d in documents:
            parse_tool_definitions(json.loads(d))

    out = {
        "implementation": f"tdqs {version('tdqs')} (Python {sys.version.split()[0]})",
        "tools": n,
        "servers": len(servers),
        "reps": args.reps,
        "minSecondsPerRep": args.min_seconds,
        "stages12": report(measure(args.reps, args.min_seconds, n, stages12),
                           {"invocationCostSum": cost_sum, "gatedTools": gated}),
        "lint50": report(measure(args.reps, args.min_seconds, n, lint50), {"findings": findings}),
        "parse50": report(measure(args.reps, args.min_seconds, n, parse50), {"tools": n}),
    }
    print(json.dumps(out, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
