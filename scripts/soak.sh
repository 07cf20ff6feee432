#!/usr/bin/env bash
# Memory soak (DESIGN.md, "Performance targets": "Memory stays bounded: the cache is capped,
# sessions are reaped, and a 30-minute soak shows no growth"). Starts a release gateway from a
# TOML config, as a user would (heuristic judge, the embedded SQLite store in the run's folder),
# in front of three upstreams, drives a steady, moderate mixed load for --minutes, and samples
# the gateway's RSS, open fds, threads and sessions gauge every few seconds:
#   bench     examples/bench_upstream (stateless JSON, 100 tools), mode annotate: cached
#             tools/list and tools/call on keep-alive connections, ~1% malformed requests
#   sessions  tests/rig/fastmcp_server.py (FastMCP, stateful, SSE answers), mode enforce at
#             tier B: session churn, each session a new connection that initializes, lists or
#             calls once or twice (calls to a hidden tool are refused), 30% open a GET stream
#             dropped 0.5-5 s later, 25% are DELETEd, the rest abandoned
#   churn     tests/rig/mutable_server.py, mode annotate: the driver rewrites its 10 tools every
#             2 s with 2 new descriptions, so new content hashes keep reaching the score cache
#             and the store; listed over one long-lived session
# Every JSON-RPC id is unique. The caches are capped low (--cache-entries 500, --cache-bytes 1 MiB)
# so that the run reaches the caps within minutes: the shipped 100,000 entries and 256 MiB would
# take days to fill at this rate, and a soak would only see them filling.
#
# Usage: scripts/soak.sh [options]
#   --minutes N         measured length (default 30); the verdict uses the second half
#   --rate R            requests/s to the bench upstream (default 250); sessions and churn add
#                       ~20/s more. Keep it moderate: the machine is shared
#   --sessions S        new sessions/s on the stateful upstream (default 4; 0: no session churn)
#   --delete F          fraction of sessions DELETEd (default 0.25; the rest are abandoned)
#   --get-streams F     fraction of sessions opening a GET stream (default 0.3)
#   --session-threads N driver threads opening sessions (default 2; raise it with --sessions)
#   --session-idle-ms MS the gateway's [listen] session_idle_ms (default 600000, as shipped):
#                       lower it with a higher --sessions to see session churn's growth sooner
#   --churn-rate R      requests/s on the churn upstream (default 4; 0: no definition churn)
#   --def-interval S    seconds between rewrites of the churn upstream's tools (default 2)
#   --def-changes N     descriptions changed per rewrite (default 2)
#   --cache-entries N   the gateway's [cache] max_entries (default 500): the entry-counted caches
#                       (sightings, threats, coherence, failures) and the store warm-up
#   --cache-bytes B     the gateway's [cache] max_bytes (default 1048576): the score caches are
#                       capped in bytes, not entries; the shipped 256 MiB would take days to fill
#                       at this rate, and a soak would only see it filling (~2 KB a definition)
#   --sample S          seconds between samples (default 5)
#   --warmup S          seconds before "start" is read (default 60)
#   --tolerance K       KiB/min: the second half's RSS slope that still counts as "no growth"
#                       (default 16; see the summary line for what it means per request)
#   --gateway PATH      a tdqs-gateway binary; with --upstream-bin PATH the bench upstream.
#                       Without them: cargo build --release, then target/release's
#   --heaptrack FILE    runs the gateway under heaptrack (its LD_PRELOAD recorder), writing
#                       FILE.zst: where the heap grows, by allocation site (`heaptrack_print
#                       --print-massif` gives the live heap by site over time). Its RSS then
#                       includes the recorder's own: use it to find growth, not to measure it
#   --label L           names the run in the summary and results.jsonl (default "soak")
#   --out DIR           where results go (default target/soak; the run's files in DIR/LABEL)
#
# Prints a markdown summary: RSS at start (after the warm-up), end and max, the least-squares
# slope over the second half with its standard error, fds, threads, the sessions gauge,
# requests per kind, unexpected outcomes, SQLite growth per new definition. Also in
# DIR/LABEL/summary.md, samples in DIR/LABEL/samples.jsonl, one line per run appended to
# DIR/results.jsonl. Every process it starts is stopped on exit (trap), by process group.
#
# When the verdict is growth, take the load apart with --label'd runs: --sessions 0 (no session
# churn), --churn-rate 0 (no definition churn), --delete 1 (every session closed by its client);
# the sessions gauge in samples.jsonl shows the session table. README, "Measured", has a 30-minute
# run and its analysis.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

MINUTES=30
RATE=250
SESSIONS=4
DELETE=0.25
GET_STREAMS=0.3
SESSION_THREADS=2
SESSION_IDLE_MS=600000
CHURN_RATE=4
DEF_INTERVAL=2
DEF_CHANGES=2
CACHE_ENTRIES=500
CACHE_BYTES=1048576
SAMPLE=5
WARMUP=60
TOLERANCE=16
GATEWAY=""
UPSTREAM=""
LABEL="soak"
HEAPTRACK=""
OUT="target/soak"
while [ $# -gt 0 ]; do
    case "$1" in
        --minutes) MINUTES="$2"; shift 2 ;;
        --rate) RATE="$2"; shift 2 ;;
        --sessions) SESSIONS="$2"; shift 2 ;;
        --delete) DELETE="$2"; shift 2 ;;
        --get-streams) GET_STREAMS="$2"; shift 2 ;;
        --session-threads) SESSION_THREADS="$2"; shift 2 ;;
        --session-idle-ms) SESSION_IDLE_MS="$2"; shift 2 ;;
        --churn-rate) CHURN_RATE="$2"; shift 2 ;;
        --def-interval) DEF_INTERVAL="$2"; shift 2 ;;
        --def-changes) DEF_CHANGES="$2"; shift 2 ;;
        --cache-entries) CACHE_ENTRIES="$2"; shift 2 ;;
        --cache-bytes) CACHE_BYTES="$2"; shift 2 ;;
        --sample) SAMPLE="$2"; shift 2 ;;
        --warmup) WARMUP="$2"; shift 2 ;;
        --tolerance) TOLERANCE="$2"; shift 2 ;;
        --gateway) GATEWAY="$2"; shift 2 ;;
        --upstream-bin) UPSTREAM="$2"; shift 2 ;;
        --heaptrack) HEAPTRACK="$2"; shift 2 ;;
        --label) LABEL="$2"; shift 2 ;;
        --out) OUT="$2"; shift 2 ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

log() { echo "[soak] $*" >&2; }

# --- processes we start, stopped on exit -------------------------------------------------------
# shellcheck source=lib/procs.sh
. "$ROOT/scripts/lib/procs.sh"

# rig_server NAME ARGS...: a tests/rig server (it serves while its stdin is open and prints
# `LISTENING <port>`); sets RIG_PORT and RIG_PID (the Python process, for its RSS).
rig_server() {
    local name="$1" i pid
    shift
    start "$name" "$RUN/$name.log" sh -c 'sleep 2147483647 | "$0" "$@"' "$SDK_PY" "$@"
    RIG_PORT=""
    for i in $(seq 300); do
        # The log is opened by the started process: on a busy machine it may not exist yet.
        RIG_PORT=$(sed -n 's/^LISTENING \([0-9]*\)$/\1/p' "$RUN/$name.log" 2>/dev/null | head -n1 || true)
        [ -n "$RIG_PORT" ] && break
        sleep 0.1
    done
    [ -n "$RIG_PORT" ] || { log "$name never listened:"; cat "$RUN/$name.log" >&2; exit 1; }
    RIG_PID=""
    for pid in $(ps -o pid= -g "$STARTED"); do
        if grep -q python "/proc/$pid/comm" 2>/dev/null; then RIG_PID=$pid; fi
    done
}

wait_http() { # URL: until it answers 200 (10 s at most)
    local i
    for i in $(seq 100); do
        [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$1" 2>/dev/null)" = 200 ] && return 0
        sleep 0.1
    done
    log "not ready: $1"
    return 1
}

# --- binaries and the Python SDK ---------------------------------------------------------------
if [ -z "$GATEWAY" ] || [ -z "$UPSTREAM" ]; then
    log "building tdqs-gateway and examples/bench_upstream (release)..."
    cargo build --quiet --release --bin tdqs-gateway --example bench_upstream
    GATEWAY="${GATEWAY:-target/release/tdqs-gateway}"
    UPSTREAM="${UPSTREAM:-target/release/examples/bench_upstream}"
fi
SDK_PY=$(sdk_python "$ROOT")

mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
RUN="$OUT/$LABEL"
rm -rf "$RUN"
mkdir -p "$RUN/bin" "$RUN/data"
# Copies, so a rebuild during the run cannot swap a binary.
cp "$GATEWAY" "$RUN/bin/tdqs-gateway"
cp "$UPSTREAM" "$RUN/bin/bench_upstream"

# --- upstreams ---------------------------------------------------------------------------------
port=$(free_port)
start bench "$RUN/bench.log" "$RUN/bin/bench_upstream" --listen "127.0.0.1:$port"
BENCH_URL="http://127.0.0.1:$port/mcp"
rig_server sessions "$ROOT/tests/rig/fastmcp_server.py"
SESSIONS_URL="http://127.0.0.1:$RIG_PORT/mcp" SESSIONS_PID=$RIG_PID
TOOLS_FILE="$RUN/churn-tools.json"
python3 -c "
import json, sys
sys.path.insert(0, 'benches/soak')
from drive import churn_tools
json.dump(churn_tools(0, [0] * 10), open('$TOOLS_FILE', 'w'))"
rig_server churn "$ROOT/tests/rig/mutable_server.py" "$TOOLS_FILE"
CHURN_URL="http://127.0.0.1:$RIG_PORT/mcp" CHURN_PID=$RIG_PID

# --- the gateway, configured from a file -------------------------------------------------------
GW_PORT=$(free_port)
cat >"$RUN/gateway.toml" <<EOF
# Written by scripts/soak.sh.
[listen]
addr = "127.0.0.1:$GW_PORT"
session_idle_ms = $SESSION_IDLE_MS

[judge]
kind = "heuristic"

[store]
url = "sqlite://data/scores.db"

[cache]
max_entries = $CACHE_ENTRIES
max_bytes = $CACHE_BYTES

[telemetry]
log_level = "warn"

[policy]
mode = "annotate"

[[upstream]]
name = "bench"
url = "$BENCH_URL"

[[upstream]]
name = "sessions"
url = "$SESSIONS_URL"
[upstream.policy]
mode = "enforce"
min_tier = "B"

[[upstream]]
name = "churn"
url = "$CHURN_URL"
EOF
"$RUN/bin/tdqs-gateway" check-config --config "$RUN/gateway.toml" >&2
WRAP=()
[ -n "$HEAPTRACK" ] && WRAP=(heaptrack -o "$HEAPTRACK")
start gateway "$RUN/gateway.log" "${WRAP[@]}" "$RUN/bin/tdqs-gateway" serve --config "$RUN/gateway.toml"
GW_PG=$STARTED
wait_http "http://127.0.0.1:$GW_PORT/healthz"
# The gateway's own process: the group's leader, or heaptrack's child.
GW_PID=""
for pid in $GW_PG $(ps -o pid= -g "$GW_PG"); do
    if grep -qx tdqs-gateway "/proc/$pid/comm" 2>/dev/null; then GW_PID=$pid; break; fi
done
[ -n "$GW_PID" ] || { log "no tdqs-gateway process in group $GW_PG"; exit 1; }

# --- the load ----------------------------------------------------------------------------------
CHURN_NOTE=""
[ "$CHURN_RATE" != 0 ] && CHURN_NOTE=" (${DEF_CHANGES} new definitions every ${DEF_INTERVAL} s)"
log "driving for $MINUTES min: bench $RATE req/s, $SESSIONS sessions/s ($DELETE DELETEd)," \
    "churn $CHURN_RATE req/s$CHURN_NOTE, cache caps $CACHE_ENTRIES entries / $CACHE_BYTES bytes, samples every ${SAMPLE} s"
python3 "$ROOT/benches/soak/drive.py" --gateway "127.0.0.1:$GW_PORT" --pid "$GW_PID" \
    --sessions-pid "$SESSIONS_PID" --churn-pid "$CHURN_PID" \
    --seconds "$(awk -v m="$MINUTES" 'BEGIN { print m * 60 }')" --rate "$RATE" \
    --sessions "$SESSIONS" --delete "$DELETE" --get-streams "$GET_STREAMS" \
    --session-threads "$SESSION_THREADS" --churn-rate "$CHURN_RATE" --tools-file "$TOOLS_FILE" \
    --def-interval-s "$DEF_INTERVAL" --def-changes "$DEF_CHANGES" --sample-s "$SAMPLE" \
    --sqlite "$RUN/data/scores.db" --out "$RUN"

# Stop the gateway before reading its database (the WAL is folded in on a clean close).
# Under heaptrack, only the gateway is signalled: the recorder writes its file once it exits.
if [ -n "$HEAPTRACK" ]; then kill -TERM "$GW_PID" 2>/dev/null || true; else kill -TERM -- "-$GW_PG" 2>/dev/null || true; fi
for _ in $(seq 50); do kill -0 "$GW_PID" 2>/dev/null || break; sleep 0.1; done
if [ -n "$HEAPTRACK" ]; then
    for _ in $(seq 600); do kill -0 "$GW_PG" 2>/dev/null || break; sleep 0.1; done
    log "heaptrack: $(ls "$HEAPTRACK".* 2>/dev/null)"
fi
python3 "$ROOT/benches/soak/summarize.py" "$RUN" --warmup-s "$WARMUP" --tolerance "$TOLERANCE" \
    --sqlite "$RUN/data/scores.db" --label "$LABEL" --jsonl "$OUT/results.jsonl" | tee "$RUN/summary.md"
