#!/usr/bin/env python3
"""Turns a soak run (samples.jsonl, counts.json, the SQLite file) into a markdown summary
(stdout) and one JSON line (--jsonl FILE, appended).

RSS "start" is the first sample after the warm-up, "end" the last one; the verdict rests on
the slope of a least-squares line through the samples of the run's second half, in KiB per
minute: "no growth" when it is at most the tolerance.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sqlite3
import tempfile


def fit(points):
    """Least-squares slope and its standard error, per unit of x."""
    n = len(points)
    if n < 3:
        return None, None
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if sxx == 0:
        return None, None
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx
    resid = sum((y - my - slope * (x - mx)) ** 2 for x, y in points)
    return slope, math.sqrt(resid / (n - 2) / sxx)


def slope_per_min(rows, key, since):
    pts = [(r["t_s"] / 60, key(r)) for r in rows if r["t_s"] >= since and key(r) is not None]
    return fit(pts)


def sessions_total(r):
    g = r.get("sessions_gauge") or {}
    vals = [v for k, v in g.items() if k != "error"]
    return sum(vals) if vals else None


def db_stats(path):
    """Rows per table and bytes per table with its indexes (dbstat), read from a copy of the
    database with its WAL folded in, so the live files stay as the gateway left them."""
    tmp = tempfile.mkdtemp(prefix="soak-db-")
    try:
        for suffix in ("", "-wal"):
            if os.path.exists(path + suffix):
                shutil.copy(path + suffix, os.path.join(tmp, "scores.db" + suffix))
        con = sqlite3.connect(os.path.join(tmp, "scores.db"))
        try:
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            rows, pages = {}, {}
            tables = con.execute("SELECT name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')").fetchall()
            owner = dict(tables)
            for name, tbl in tables:
                if name == tbl:
                    rows[name] = con.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
            for name, size in con.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"):
                pages[owner.get(name, name)] = pages.get(owner.get(name, name), 0) + size
            size = con.execute("PRAGMA page_count").fetchone()[0] * con.execute("PRAGMA page_size").fetchone()[0]
            return {"rows": rows, "bytes": pages, "checkpointed_bytes": size}
        finally:
            con.close()
    except sqlite3.Error as e:
        return {"error": repr(e)}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--warmup-s", type=float, required=True)
    ap.add_argument("--tolerance", type=float, required=True, help="KiB/min")
    ap.add_argument("--sqlite", default="")
    ap.add_argument("--label", default="soak")
    ap.add_argument("--jsonl", default="")
    a = ap.parse_args()

    rows = [json.loads(line) for line in open(f"{a.dir}/samples.jsonl") if line.strip()]
    rows = [r for r in rows if "VmRSS" in r]
    counts = json.load(open(f"{a.dir}/counts.json"))
    total_s = counts["seconds"]
    warm = [r for r in rows if r["t_s"] >= a.warmup_s] or rows
    start, end = warm[0], warm[-1]
    half = total_s / 2
    rss_slope, rss_se = slope_per_min(rows, lambda r: r["VmRSS"], half)
    anon_slope, _ = slope_per_min(rows, lambda r: r.get("RssAnon"), half)
    all_slope, _ = slope_per_min(rows, lambda r: r["VmRSS"], a.warmup_s)
    fd_slope, _ = slope_per_min(rows, lambda r: r.get("fds"), half)
    thr_slope, _ = slope_per_min(rows, lambda r: r.get("Threads"), half)
    ses_slope, _ = slope_per_min(rows, sessions_total, half)
    if rss_slope is None:
        verdict = "too short to tell"
    else:
        verdict = "no growth" if rss_slope <= a.tolerance else "GROWTH"

    def rng(key):
        vals = [key(r) for r in warm if key(r) is not None]
        return (min(vals), max(vals)) if vals else (None, None)

    minutes = total_s / 60
    req = counts["counts"]
    errs = counts["errors"]
    total_req = sum(req.values())

    db = {}
    if a.sqlite:
        db = db_stats(a.sqlite)

    def dbsize(r):
        return r.get("sqlite_bytes", 0) + r.get("sqlite_wal_bytes", 0)

    new_defs = end.get("new_definitions", 0) - start.get("new_definitions", 0)
    out = []
    p = out.append
    p(f"## Memory soak: {a.label} ({minutes:.1f} min, {len(rows)} samples)")
    p("")
    p("| gateway | start (after {:.0f} s warm-up) | end | max | slope, 2nd half | slope, after warm-up |".format(a.warmup_s))
    p("|---|---|---|---|---|---|")
    fmt_slope = lambda s: "-" if s is None else f"{s:+.1f}/min"  # noqa: E731
    rss_2nd = "-" if rss_slope is None else f"**{rss_slope:+.1f} KiB/min** (± {rss_se:.1f})"
    rss_all = "-" if all_slope is None else f"{all_slope:+.1f} KiB/min"
    p(
        f"| RSS (KiB) | {start['VmRSS']:,} | {end['VmRSS']:,} | {max(r['VmRSS'] for r in warm):,} "
        f"(VmHWM {end.get('VmHWM', 0):,}) | {rss_2nd} | {rss_all} |"
    )
    p(f"| RssAnon (KiB) | {start.get('RssAnon', 0):,} | {end.get('RssAnon', 0):,} | {rng(lambda r: r.get('RssAnon'))[1]:,} | {fmt_slope(anon_slope)} | |")
    lo, hi = rng(lambda r: r.get("fds"))
    p(f"| open fds | {start.get('fds')} | {end.get('fds')} | {hi} (min {lo}) | {fmt_slope(fd_slope)} | |")
    lo, hi = rng(lambda r: r.get("Threads"))
    p(f"| threads | {start.get('Threads')} | {end.get('Threads')} | {hi} (min {lo}) | {fmt_slope(thr_slope)} | |")
    lo, hi = rng(sessions_total)
    p(f"| sessions gauge | {sessions_total(start)} | {sessions_total(end)} | {hi} | {fmt_slope(ses_slope)} | |")
    p("")
    p(
        f"**Verdict: {verdict}** (tolerance {a.tolerance:g} KiB/min on the second half's slope: "
        f"{a.tolerance * 1024 / max(total_req / minutes, 1):.2f} bytes per request at this run's "
        f"{total_req / total_s:.0f} requests/s"
        + (
            f", {a.tolerance * 1024 / (req.get('session_init', 0) / minutes):.0f} bytes per session at "
            f"{req.get('session_init', 0) / minutes:.0f} sessions/min"
            if req.get("session_init")
            else ""
        )
        + ")."
    )
    p("")
    p(f"Upstreams' RSS (KiB, start -> end): stateful sessions upstream "
      f"{start.get('up_sessions_rss')} -> {end.get('up_sessions_rss')}, churn upstream "
      f"{start.get('up_churn_rss')} -> {end.get('up_churn_rss')}.")
    p("")
    p(f"Requests: {total_req:,} in {minutes:.1f} min ({total_req / total_s:.0f}/s), "
      f"{sum(errs.values())} unexpected outcomes.")
    p("")
    p("| kind | requests | per s | unexpected |")
    p("|---|---|---|---|")
    for k in sorted(req, key=lambda k: -req[k]):
        p(f"| {k} | {req[k]:,} | {req[k] / total_s:.1f} | {errs.get(k, 0)} |")
    for k, ex in counts.get("error_examples", {}).items():
        p(f"- first unexpected `{k}`: `{ex[:200]}`")
    p("")
    per_def = None
    if a.sqlite:
        p(
            f"SQLite on disk (`scores.db` + WAL): {dbsize(start):,} bytes after the warm-up, "
            f"{dbsize(end):,} at the end, max {max(dbsize(r) for r in warm):,}; "
            f"{end.get('new_definitions', 0):,} new definitions written in the run, {new_defs:,} after the warm-up."
        )
        if "rows" in db:
            b, n = db["bytes"], db["rows"]
            # A new definition adds a tool_scores row (the report) and a definitions row (the
            # sighting), each with its indexes; server_reports and pins are rewritten in place.
            per_def = (b.get("tool_scores", 0) + b.get("definitions", 0)) / max(n.get("tool_scores", 1), 1)
            p(
                f"Checkpointed, the database is {db['checkpointed_bytes']:,} bytes: "
                + ", ".join(f"{t} {n.get(t, 0):,} rows / {b.get(t, 0):,} bytes" for t in sorted(n))
                + f" (tables with their indexes). **{per_def:,.0f} bytes per definition** "
                f"(tool_scores + definitions pages over tool_scores rows)."
            )
        else:
            p(f"Database not readable: {db}")
    print("\n".join(out))

    if a.jsonl:
        with open(a.jsonl, "a") as f:
            f.write(
                json.dumps(
                    {
                        "label": a.label,
                        "minutes": round(minutes, 2),
                        "rss_start_kib": start["VmRSS"],
                        "rss_end_kib": end["VmRSS"],
                        "rss_max_kib": max(r["VmRSS"] for r in warm),
                        "rss_slope_2nd_half_kib_min": None if rss_slope is None else round(rss_slope, 2),
                        "rss_slope_se": None if rss_se is None else round(rss_se, 2),
                        "rss_slope_after_warmup_kib_min": None if all_slope is None else round(all_slope, 2),
                        "rssanon_slope_2nd_half_kib_min": None if anon_slope is None else round(anon_slope, 2),
                        "fds": [start.get("fds"), end.get("fds")],
                        "threads": [start.get("Threads"), end.get("Threads")],
                        "sessions_gauge": [sessions_total(start), sessions_total(end)],
                        "tolerance_kib_min": a.tolerance,
                        "verdict": verdict,
                        "requests": req,
                        "errors": errs,
                        "sqlite_disk_bytes": [dbsize(start), dbsize(end)],
                        "new_definitions_after_warmup": new_defs,
                        "sqlite_bytes_per_definition": per_def,
                        "sqlite": db,
                    }
                )
                + "\n"
            )


if __name__ == "__main__":
    main()
