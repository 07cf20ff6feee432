#!/usr/bin/env python3
"""Turns scripts/bench-proxy.sh's results.jsonl into markdown tables (stdout).

Runs were interleaved (direct, gateway, direct, gateway, ...): a ratio or a difference is
computed per repetition from adjacent runs, and the median over repetitions is reported, as
are the medians of throughput and latency percentiles.

CPU per request is a process group's user + system time over the measured run divided by the
requests wrk completed. "CPU ratio" is the direct chain's CPU per request (wrk + upstream)
over the gateway chain's (wrk + upstream + gateway): the throughput ratio a machine running
nothing else would show once the load saturates its cores. "others" is the machine's busy
time not spent by wrk, the upstream or the proxies, in cores: the other tenants' load.

Beside the gateway, the same scenarios run through nginx (a plain proxy_pass hop: what moving
the bytes through a second process costs) and the Rust mcp-proxy; "vs nginx" is the gateway's
throughput over nginx's in the same repetition. The scaling tables (--connections-list,
--tools-list) and the first sighting of a long list (first-sighting.jsonl) follow.
"""

import argparse
import json
import statistics
from collections import defaultdict


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def ms(us):
    return "-" if us is None else f"{us / 1000:.2f}"


def num(x, spec=",.0f"):
    return "-" if x is None else format(x, spec)


def per_request_us(run, *keys):
    n = run["wrk"]["requests"]
    return sum(run[k] for k in keys) / n * 1e6 if n else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--connections", type=int, default=32)
    ap.add_argument("--duration", type=int, default=10)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--machine", help="machine.txt written by the driver")
    ap.add_argument("--first-sighting", help="first-sighting.jsonl written by the driver")
    a = ap.parse_args()

    runs = defaultdict(dict)  # (group, variant) -> rep -> run
    with open(a.results, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                runs[(r["group"], r["variant"])][r["rep"]] = r

    def stat(group, variant, key):
        return median([r["wrk"][key] for r in runs.get((group, variant), {}).values()])

    def paired(group, variant, fn):
        base = runs.get((group, "direct"), {})
        other = runs.get((group, variant), {})
        return median([fn(base[k], other[k]) for k in sorted(set(base) & set(other))])

    def cpu(group, variant, *keys):
        return median([per_request_us(r, *keys) for r in runs.get((group, variant), {}).values()])

    def errors(group, variant):
        return sum(sum(r["wrk"]["errors"].values()) for r in runs.get((group, variant), {}).values())

    chain = ("cpu_wrk_s", "cpu_upstream_s", "cpu_proxy_s")

    def cpu_ratio(d, g):
        return per_request_us(d, *chain) / per_request_us(g, *chain)

    c = a.connections
    if a.machine:
        try:
            with open(a.machine, encoding="utf-8") as f:
                print("Machine: " + "; ".join(line.strip() for line in f if line.strip()) + "\n")
        except OSError:
            pass
    print(
        f"### tdqs-gateway vs direct ({a.reps} interleaved reps x {a.duration}s, medians; "
        "ratios within one run, wrk and the servers sharing 2 cores)\n"
    )
    print(
        "| scenario | conns | rps direct | rps gateway | ratio | CPU ratio | p50 direct | p50 gateway | "
        "p99 direct | p99 gateway | added p99 | target | met |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")

    pace = next((r["pace_ms"] for (g, _), reps in runs.items() if g == "list-paced" for r in reps.values()), 0)
    rows = [
        ("a. `tools/list` 100 tools, cached, annotate", "list", "gateway-annotate", f"{c}", 0.90),
        ("c. `tools/list` 100 tools, cached, observe", "list", "gateway-observe", f"{c}", None),
        ("b. `tools/call` passthrough", "call", "gateway-annotate", f"{c}", 0.95),
        ("analysis: the same 100-tool answer, not intercepted", "list", "gateway-raw", f"{c}", None),
        ("a. `tools/list`, light load", "list-paced", "gateway-annotate", f"1, {pace} ms apart", "p99"),
        ("b. `tools/call`, light load", "call-paced", "gateway-annotate", f"1, {pace} ms apart", None),
        ("`tools/list`, upstream holding each answer", "slowlist", "gateway-annotate", f"{c}", None),
        ("`tools/call`, upstream holding each answer", "slowcall", "gateway-annotate", f"{c}", None),
        ("`tools/list` 100 tools, cached, annotate, Python SDK server", "sdklist", "gateway-annotate", f"{c}", 0.90),
        ("`tools/call` passthrough, Python SDK server", "sdkcall", "gateway-annotate", f"{c}", 0.95),
    ]
    verdicts = []
    for label, group, variant, conns, target in rows:
        if (group, variant) not in runs or (group, "direct") not in runs:
            continue
        ratio = paired(group, variant, lambda d, g: g["wrk"]["rps"] / d["wrk"]["rps"])
        cratio = paired(group, variant, cpu_ratio)
        added = paired(group, variant, lambda d, g: g["wrk"]["p99_us"] - d["wrk"]["p99_us"])
        tgt, met = "", ""
        if target == "p99":
            tgt, ok = "< 1 ms added p99", added is not None and added < 1000
        elif target is not None:
            tgt, ok = f">= {target:.0%} rps", ratio is not None and ratio >= target
        if tgt:
            met = "yes" if ok else "**no**"
            verdicts.append((label, tgt, ok))
        errs = errors(group, variant) + errors(group, "direct")
        note = f" ({errs} errors)" if errs else ""
        print(
            f"| {label}{note} | {conns} | {num(stat(group, 'direct', 'rps'))} | "
            f"{num(stat(group, variant, 'rps'))} | {num(ratio, '.3f')} | {num(cratio, '.3f')} | "
            f"{ms(stat(group, 'direct', 'p50_us'))} ms | {ms(stat(group, variant, 'p50_us'))} ms | "
            f"{ms(stat(group, 'direct', 'p99_us'))} ms | {ms(stat(group, variant, 'p99_us'))} ms | "
            f"{ms(added)} ms | {tgt} | {met} |"
        )

    print("\n### CPU time per request (user + system; medians) and the machine's other load\n")
    print("| run | conns | wrk µs/req | upstream µs/req | gateway µs/req | chain µs/req | others (cores) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    order = ["list", "call", "list-paced", "call-paced", "slowlist", "slowcall", "sdklist", "sdkcall"]
    for (group, variant), reps in sorted(
        runs.items(), key=lambda kv: (order.index(kv[0][0]) if kv[0][0] in order else 99, kv[0][0], kv[0][1] != "direct", kv[0][1])
    ):
        if group.startswith(("peer", "scale", "tools")):
            continue
        first = next(iter(reps.values()))
        others = median([r["cpu_other_s"] / r["wrk"]["seconds"] for r in reps.values()])
        px = "-" if variant == "direct" else num(cpu(group, variant, "cpu_proxy_s"), ".1f")
        print(
            f"| {group} / {variant} | {first['connections']} | {num(cpu(group, variant, 'cpu_wrk_s'), '.1f')} | "
            f"{num(cpu(group, variant, 'cpu_upstream_s'), '.1f')} | {px} | "
            f"{num(cpu(group, variant, *chain), '.1f')} | {num(others, '.2f')} |"
        )

    if any(g.startswith("peer") for g, _ in runs):
        print(
            "\n### Reference: other MCP proxies (different chains: tdqs-gateway fronts the Rust HTTP "
            "upstream and scores; supergateway and mcp-proxy front a Python stdio server with the same "
            "tools and pass lists through unscored; server CPU is the Rust upstream's for tdqs-gateway, "
            "the stdio child's, counted in the peer's process group, for the others)\n"
        )
        print("| method | proxy | rps | p50 | p99 | proxy + server CPU µs/req | errors |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for group, method in (("peerlist", "tools/list"), ("peercall", "tools/call")):
            for variant in ("tdqs-gateway", "supergateway", "mcp-proxy-py"):
                if (group, variant) not in runs:
                    continue
                print(
                    f"| `{method}` | {variant} | {num(stat(group, variant, 'rps'))} | "
                    f"{ms(stat(group, variant, 'p50_us'))} ms | {ms(stat(group, variant, 'p99_us'))} ms | "
                    f"{num(cpu(group, variant, 'cpu_proxy_s', 'cpu_upstream_s'))} | {errors(group, variant)} |"
                )

    hops(runs, stat, paired, cpu, errors, c)
    scaling(runs, paired, cpu)
    if a.first_sighting:
        first_sighting(a.first_sighting)

    if verdicts:
        print("\nTargets: " + "; ".join(f"{label}: {t} {'met' if ok else 'NOT met'}" for label, t, ok in verdicts))


HOPS = ("direct", "gateway-annotate", "nginx", "mcp-proxy-rs")
HOP_NAMES = {
    "direct": "direct",
    "gateway-annotate": "tdqs-gateway (annotate)",
    "nginx": "nginx proxy_pass",
    "mcp-proxy-rs": "mcp-proxy (Rust)",
}


def vs(runs, group, variant, other):
    """Median over reps of variant's rps over other's, same rep."""
    a, b = runs.get((group, variant), {}), runs.get((group, other), {})
    return median([a[k]["wrk"]["rps"] / b[k]["wrk"]["rps"] for k in sorted(set(a) & set(b)) if b[k]["wrk"]["rps"]])


def hops(runs, stat, paired, cpu, errors, c):
    """The gateway beside nginx and the Rust mcp-proxy, same upstream, same run."""
    if not any(v in ("nginx", "mcp-proxy-rs") for _, v in runs):
        return
    print(
        "\n### The same upstream through each hop (ratios to direct and to nginx per rep, medians; "
        "added latency = the hop's percentile minus direct's in the same rep)\n"
    )
    print(
        "| scenario | hop | rps | ratio to direct | gateway vs this hop | p50 | p99 | added p50 | "
        "added p99 | hop CPU µs/req |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    pace = next((r["pace_ms"] for (g, _), reps in runs.items() if g == "call-paced" for r in reps.values()), 0)
    extra = sorted({v for g, v in runs if g == "call" and v not in HOPS and v.startswith("gateway-")
                    and v not in ("gateway-observe", "gateway-raw")})
    for group, label in (
        ("call", f"`tools/call`, {c} conns"),
        ("list", f"cached `tools/list` 100 tools, {c} conns"),
        # One connection back to back (the next request as soon as the answer is in: the
        # latency a busy agent sees, each process awake) and paced (each request wakes idle
        # processes, so the figures hold the machine's wake-up cost once per process).
        ("scalecall-c1", "`tools/call`, 1 conn back to back"),
        ("scalelist-c1", "cached `tools/list`, 1 conn back to back"),
        ("call-paced", f"`tools/call`, 1 conn {pace} ms apart"),
        ("list-paced", f"cached `tools/list`, 1 conn {pace} ms apart"),
    ):
        for v in HOPS + tuple(extra):
            if (group, v) not in runs:
                continue
            ratio = paired(group, v, lambda d, g: g["wrk"]["rps"] / d["wrk"]["rps"]) if v != "direct" else None
            gw_vs = vs(runs, group, "gateway-annotate", v) if v not in ("direct", "gateway-annotate") else None
            a50 = paired(group, v, lambda d, g: g["wrk"]["p50_us"] - d["wrk"]["p50_us"]) if v != "direct" else None
            a99 = paired(group, v, lambda d, g: g["wrk"]["p99_us"] - d["wrk"]["p99_us"]) if v != "direct" else None
            px = cpu(group, v, "cpu_proxy_s") if v != "direct" else None
            errs = errors(group, v)
            note = f" ({errs} errors)" if errs else ""
            print(
                f"| {label} | {HOP_NAMES.get(v, v)}{note} | {num(stat(group, v, 'rps'))} | {num(ratio, '.3f')} | "
                f"{num(gw_vs, '.2f')} | {ms(stat(group, v, 'p50_us'))} ms | {ms(stat(group, v, 'p99_us'))} ms | "
                f"{'-' if a50 is None else f'{a50:.0f} µs'} | {'-' if a99 is None else f'{a99:.0f} µs'} | "
                f"{num(px, '.1f')} |"
            )


def scaling(runs, paired, cpu):
    """One table per scaling axis: a row per setting and method, every hop side by side."""
    for prefix, axis, title in (
        ("scale", "-c", "connections"),
        ("tools", "-n", "tools per list"),
    ):
        groups = sorted(
            {g for g, _ in runs if g.startswith(prefix)},
            key=lambda g: (g.split(axis)[0], int(g.split(axis)[1])),
        )
        if not groups:
            continue
        present = [v for v in HOPS[1:] if any((g, v) in runs for g in groups)]
        print(f"\n### Scaling with {title} (ratio to direct per rep, medians; proxy CPU per request)\n")
        head = " | ".join(f"{HOP_NAMES[v]} ratio" for v in present)
        cpus = " | ".join(f"{HOP_NAMES[v]} µs/req" for v in present)
        extra = " | gateway vs nginx" if "nginx" in present else ""
        print(f"| method | {title} | rps direct | {head}{extra} | {cpus} |")
        print("|---|---:|---:|" + "---:|" * (2 * len(present) + (1 if extra else 0)))
        for g in groups:
            method = "`tools/call`" if "call" in g.split(axis)[0] else "`tools/list`"
            setting = g.split(axis)[1]
            d = median([r["wrk"]["rps"] for r in runs.get((g, "direct"), {}).values()])
            ratios = " | ".join(
                num(paired(g, v, lambda a, b: b["wrk"]["rps"] / a["wrk"]["rps"]), ".3f") for v in present
            )
            vs_ng = f" | {num(vs(runs, g, 'gateway-annotate', 'nginx'), '.2f')}" if extra else ""
            us = " | ".join(num(cpu(g, v, "cpu_proxy_s"), ".1f") for v in present)
            print(f"| {method} | {setting} | {num(d)} | {ratios}{vs_ng} | {us} |")


def first_sighting(path):
    try:
        with open(path, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
    except OSError:
        return
    if not rows:
        return
    n = rows[0]["tools"]
    print(
        f"\n### First sighting of a {n}-tool list (a fresh gateway, heuristic judge, every definition "
        f"scored before the answer; wall ms of one request, medians of {len(rows)})\n"
    )
    print("| direct | first through the gateway | added | then cached | gateway CPU, first (10 ms ticks) | bytes |")
    print("|---:|---:|---:|---:|---:|---:|")
    med = lambda k: median([r[k] for r in rows])  # noqa: E731
    added = median([r["first_ms"] - r["direct_ms"] for r in rows])
    print(
        f"| {med('direct_ms'):.1f} ms | {med('first_ms'):.1f} ms | {added:.1f} ms | {med('cached_ms'):.1f} ms | "
        f"{med('gateway_cpu_ms'):.0f} ms | {med('bytes'):,.0f} |"
    )


if __name__ == "__main__":
    main()
