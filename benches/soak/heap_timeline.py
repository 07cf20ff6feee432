#!/usr/bin/env python3
"""Live heap against RSS over time, from one heaptrack recording (scripts/soak.sh --heaptrack).

heaptrack's recorder writes, besides every allocation and free, the elapsed time (`c`, ms) and
the process's RSS (`R`, pages) once per tick. Both come from the same process at the same
moment, so the two curves answer one question: when RSS steps up, did the program hold more
(live heap up: a site to find with `heaptrack_print -d`) or did the allocator keep pages it was
given back (live heap flat: fragmentation or retention, not a leak)?

Usage: heap_timeline.py FILE.zst [--every-s 30] [--from-s 60]
Prints a markdown table: time, live heap, RSS, and RSS minus live heap (what the allocator and
the rest of the process hold beyond what is allocated), and the least-squares slope of each
from --from-s to the end, in KiB/min. Reads the recording as a stream (zstd -dc); standard
library only.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

PAGE_KIB = 4


def fit(points):
    n = len(points)
    if n < 3:
        return None
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--every-s", type=float, default=30.0)
    ap.add_argument("--from-s", type=float, default=60.0)
    a = ap.parse_args()

    sizes: list[int] = []  # allocation-info index -> size in bytes
    live = 0
    peak_in_tick = 0
    rows = []  # (seconds, live KiB, peak live KiB since the previous row, RSS KiB)
    next_row = 0.0
    t_s = 0.0
    proc = subprocess.Popen(["zstd", "-dc", a.file], stdout=subprocess.PIPE)
    assert proc.stdout is not None
    for raw in proc.stdout:
        op = raw[:1]
        if op == b"+":
            live += sizes[int(raw[2:], 16)]
            if live > peak_in_tick:
                peak_in_tick = live
        elif op == b"-":
            live -= sizes[int(raw[2:], 16)]
        elif op == b"a":
            size, _trace = raw[2:].split()
            sizes.append(int(size, 16))
        elif op == b"c":
            t_s = int(raw[2:], 16) / 1000.0
        elif op == b"R" and t_s >= next_row:
            rows.append((t_s, live / 1024, peak_in_tick / 1024, int(raw[2:], 16) * PAGE_KIB))
            peak_in_tick = live
            next_row = t_s + a.every_s
    proc.wait()

    print("| t (s) | live heap (KiB) | peak live since last row | RSS (KiB) | RSS - live |")
    print("|---:|---:|---:|---:|---:|")
    for t, lv, pk, rss in rows:
        print(f"| {t:.0f} | {lv:,.0f} | {pk:,.0f} | {rss:,} | {rss - lv:,.0f} |")
    tail = [r for r in rows if r[0] >= a.from_s]
    for name, col in (("live heap", 1), ("peak live", 2), ("RSS", 3)):
        s = fit([(r[0] / 60, r[col]) for r in tail])
        print(f"- {name}: {'-' if s is None else f'{s:+.1f}'} KiB/min from {a.from_s:.0f} s")
    half = [r for r in rows if r[0] >= (rows[-1][0] + a.from_s) / 2] if rows else []
    for name, col in (("live heap", 1), ("RSS", 3)):
        s = fit([(r[0] / 60, r[col]) for r in half])
        print(f"- {name}, second half: {'-' if s is None else f'{s:+.1f}'} KiB/min")
    return 0


if __name__ == "__main__":
    sys.exit(main())
