#!/usr/bin/env bash
# Side-by-side throughput of the deterministic TDQS stages: ours (release build of
# examples/engine_throughput.rs) against the reference Python package tdqs==0.1.0
# (scripts/bench_engine_reference.py), in-process on both sides, same corpus, one after the
# other in this run. Prints tools/second for each side and the ratio ours/reference.
# Repetitions alternate between the two sides (ours, reference, ours, ...) so that a change in
# machine load hits both; each side's median repetition is compared.
#
# Usage: scripts/bench-engine.sh [--reps N] [--min-seconds S] [--corpus PATH] [--enforce]
#   --reps N         repetitions per workload; the median is reported (default 5)
#   --min-seconds S  each repetition runs whole corpus passes for at least S seconds (default 1)
#   --corpus PATH    JSON array of tool definitions (default benches/corpus/tools.json)
#   --enforce        exit 1 when a targeted ratio is below 100x (DESIGN.md, Performance targets)
# Environment: TDQS_REFERENCE_PYTHON selects the interpreter that has tdqs==0.1.0 (default: the
# repository's .venv, created by scripts/oracle-venv.sh when missing).
# Results are also written to target/bench-engine/{ours,reference,summary}.json (and one file
# per side and repetition).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

REPS=5
MIN_SECONDS=1
CORPUS="benches/corpus/tools.json"
ENFORCE=0
while [ $# -gt 0 ]; do
    case "$1" in
        --reps) REPS="$2"; shift 2 ;;
        --min-seconds) MIN_SECONDS="$2"; shift 2 ;;
        --corpus) CORPUS="$2"; shift 2 ;;
        --enforce) ENFORCE=1; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

if [ -n "${TDQS_REFERENCE_PYTHON:-}" ]; then
    PY="$TDQS_REFERENCE_PYTHON"
elif [ -x scripts/oracle-venv.sh ]; then
    PY="$(scripts/oracle-venv.sh)"
else
    if [ ! -x .venv/bin/python ]; then
        python3 -m venv .venv >&2
    fi
    .venv/bin/python -c 'import tdqs' 2>/dev/null || .venv/bin/pip install -q tdqs==0.1.0 >&2
    PY=.venv/bin/python
fi

OUT="target/bench-engine"
mkdir -p "$OUT"

echo "building examples/engine_throughput (release)..." >&2
if ! cargo build --release --example engine_throughput >"$OUT/build.log" 2>&1; then
    cat "$OUT/build.log" >&2
    exit 1
fi
BIN="target/release/examples/engine_throughput"

ARGS=(--corpus "$CORPUS" --reps 1 --min-seconds "$MIN_SECONDS")
rm -f "$OUT"/ours-*.json "$OUT"/reference-*.json
for i in $(seq 1 "$REPS"); do
    echo "repetition $i/$REPS: ours, then the reference (>= ${MIN_SECONDS}s per workload each)..." >&2
    "$BIN" "${ARGS[@]}" >"$OUT/ours-$i.json"
    "$PY" scripts/bench_engine_reference.py "${ARGS[@]}" >"$OUT/reference-$i.json"
done

"$PY" - "$OUT" "$REPS" "$ENFORCE" <<'PYEOF'
import json
import statistics
import sys

out, reps, enforce = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"


def merge(side):
    """One result per side: every repetition's sample, and the median."""
    runs = [json.load(open(f"{out}/{side}-{i}.json")) for i in range(1, reps + 1)]
    merged = dict(runs[0], reps=reps)
    for key in ("stages12", "lint50", "parse50"):
        samples = [s for run in runs for s in run[key]["samples"]]
        checksums = {json.dumps(run[key]["checksum"], sort_keys=True) for run in runs}
        if len(checksums) != 1:
            print(f"WARNING: {side} {key}: checksums vary between repetitions: {checksums}")
        merged[key] = dict(runs[0][key], samples=samples, toolsPerSecond=statistics.median(samples))
    json.dump(merged, open(f"{out}/{side}.json", "w"), indent=2)
    return merged


ours, ref = merge("ours"), merge("reference")
summary_path = f"{out}/summary.json"
TARGET = 100.0
WORKLOADS = [
    ("stages12", "stage 1+2 per tool (signals + gates)", True),
    ("lint50", "lint_tools, servers of 50", True),
    ("parse50", "parse+validate bytes, servers of 50", False),
]

print(f"corpus: {ours['tools']} tools in {ours['servers']} servers; "
      f"median of {ours['reps']} reps, each >= {ours['minSecondsPerRep']} s")
print(f"ours:      {ours['implementation']}")
print(f"reference: {ref['implementation']}")
print()
print(f"{'workload':<40} {'ours tools/s':>14} {'ref tools/s':>14} {'ratio':>9}  target")
summary, failed = {}, []
for key, label, targeted in WORKLOADS:
    o, r = ours[key], ref[key]
    if o["checksum"] != r["checksum"]:
        print(f"WARNING: {key}: checksums differ: ours {o['checksum']} reference {r['checksum']}")
    ratio = o["toolsPerSecond"] / r["toolsPerSecond"]
    verdict = ("met" if ratio >= TARGET else "MISSED") if targeted else "(none)"
    if targeted and ratio < TARGET:
        failed.append(key)
    print(f"{label:<40} {o['toolsPerSecond']:>14,.0f} {r['toolsPerSecond']:>14,.0f} {ratio:>8.1f}x  "
          f"{'>= 100x ' + verdict if targeted else verdict}")
    summary[key] = {
        "oursToolsPerSecond": o["toolsPerSecond"],
        "referenceToolsPerSecond": r["toolsPerSecond"],
        "ratio": ratio,
        "pairRatios": [a / b for a, b in zip(o["samples"], r["samples"])],
        "targeted": targeted,
        "checksumsMatch": o["checksum"] == r["checksum"],
    }
json.dump(summary, open(summary_path, "w"), indent=2)
if enforce and failed:
    print(f"\nbelow the {TARGET:.0f}x target: {', '.join(failed)}", file=sys.stderr)
    sys.exit(1)
PYEOF
