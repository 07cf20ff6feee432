#!/usr/bin/env bash
# Instructions per proxied request, by component: the release gateway runs under callgrind in
# front of examples/bench_upstream; after a warm-up (the first list scores every tool), the
# collection is switched on for exactly N requests on one keep-alive connection, then dumped.
# Instruction counts do not depend on what else the machine runs, so they compare builds and
# settings on a shared machine where wall times cannot (benches/PROFILE.md has the results).
# Only user-space instructions are counted: the kernel's share (the sockets' system calls) is
# not in them; `perf record` (see PROFILE.md) shows it.
#
# Usage: scripts/profile-proxy.sh [options]
#   --method M        tools/call (default) or tools/list (cached, annotated)
#   --requests N      requests counted (default 2000)
#   --tools N         tools the upstream lists (default 100)
#   --gateway-arg A   one more argument for `tdqs-gateway serve` (repeatable), e.g.
#                     --gateway-arg --runtime --gateway-arg current-thread
#   --env K=V         one more environment variable for the gateway (repeatable)
#   --gateway BIN     the gateway binary (default target/release/tdqs-gateway)
#   --label NAME      names the output files (default: the method)
#   --out DIR         where results go (default target/profile-proxy)
#   --perf SECONDS    instead of callgrind: the gateway runs natively under wrk (2 threads, 32
#                     connections) and `perf record -g` samples it (kernel included) for that
#                     long; OUT/LABEL.svg is the flamegraph (needs FlameGraph's
#                     stackcollapse-perf.pl and flamegraph.pl in FLAMEGRAPH_DIR, default
#                     target/flamegraph)
# Prints instructions per request and the breakdown; keeps OUT/LABEL.callgrind for
# callgrind_annotate and OUT/LABEL.txt.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
METHOD=tools/call
REQUESTS=2000
TOOLS=100
GATEWAY_ARGS=()
GATEWAY_ENV=()
GATEWAY="target/release/tdqs-gateway"
LABEL=""
OUT="target/profile-proxy"
PERF=0
while [ $# -gt 0 ]; do
    case "$1" in
        --method) METHOD="$2"; shift 2 ;;
        --requests) REQUESTS="$2"; shift 2 ;;
        --tools) TOOLS="$2"; shift 2 ;;
        --gateway-arg) GATEWAY_ARGS+=("$2"); shift 2 ;;
        --env) GATEWAY_ENV+=("$2"); shift 2 ;;
        --gateway) GATEWAY="$2"; shift 2 ;;
        --label) LABEL="$2"; shift 2 ;;
        --out) OUT="$2"; shift 2 ;;
        --perf) PERF="$2"; shift 2 ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done
LABEL="${LABEL:-${METHOD//\//-}}"
log() { echo "[profile-proxy] $*" >&2; }
# shellcheck source=lib/procs.sh
. "$ROOT/scripts/lib/procs.sh"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

port=$(free_port)
start upstream "$OUT/$LABEL.upstream.log" "${UPSTREAM_BIN:-target/release/examples/bench_upstream}" \
    --listen "127.0.0.1:$port" --threads 1 --tools "$TOOLS"
UP="http://127.0.0.1:$port/mcp"
gport=$(free_port)
rm -rf "$OUT/data-$LABEL" "$OUT/$LABEL.callgrind"
if [ "$PERF" != 0 ]; then
    start gateway "$OUT/$LABEL.gateway.log" env TDQS_LOG=warn XDG_DATA_HOME="$OUT/data-$LABEL" \
        ${GATEWAY_ENV[@]+"${GATEWAY_ENV[@]}"} \
        "$GATEWAY" serve --listen "127.0.0.1:$gport" --upstream "bench=$UP" --mode annotate \
        ${GATEWAY_ARGS[@]+"${GATEWAY_ARGS[@]}"}
    GW_PID=$STARTED
    GW="http://127.0.0.1:$gport/mcp/bench"
    for _ in $(seq 100); do curl -s -o /dev/null -X POST "$GW" -H 'Content-Type: application/json' \
        -H 'Accept: application/json, text/event-stream' --data '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' && break; sleep 0.1; done
    wrk -t 2 -c 32 -d "$((PERF + 3))s" -s benches/proxy/mcp.lua "$GW" -- "$METHOD" search_issues >/dev/null &
    WRK=$!
    sleep 1
    perf record -e cpu-clock -F 997 --call-graph dwarf,16384 -o "$OUT/$LABEL.perf.data" -p "$GW_PID" \
        -- sleep "$PERF" >/dev/null 2>&1
    wait "$WRK" || true
    FG="${FLAMEGRAPH_DIR:-$ROOT/target/flamegraph}"
    perf script -i "$OUT/$LABEL.perf.data" 2>/dev/null | "$FG/stackcollapse-perf.pl" --kernel >"$OUT/$LABEL.folded"
    "$FG/flamegraph.pl" --title "tdqs-gateway, $METHOD ($LABEL)" --width 1400 "$OUT/$LABEL.folded" >"$OUT/$LABEL.svg"
    python3 "$ROOT/benches/profile/folded.py" "$OUT/$LABEL.folded" | tee "$OUT/$LABEL.perf.txt"
    exit 0
fi
start gateway "$OUT/$LABEL.gateway.log" env TDQS_LOG=warn XDG_DATA_HOME="$OUT/data-$LABEL" \
    ${GATEWAY_ENV[@]+"${GATEWAY_ENV[@]}"} \
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$OUT/$LABEL.callgrind" \
    "$GATEWAY" serve --listen "127.0.0.1:$gport" --upstream "bench=$UP" --mode annotate \
    ${GATEWAY_ARGS[@]+"${GATEWAY_ARGS[@]}"}
VG_PID=$STARTED
GW="http://127.0.0.1:$gport/mcp/bench"

# drive URL METHOD N: N requests on one keep-alive connection, each answer read whole.
drive() {
    python3 - "$@" <<'EOF'
import http.client, json, sys, time, urllib.parse
url, method, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
u = urllib.parse.urlsplit(url)
for _ in range(600):
    try:
        c = http.client.HTTPConnection(u.hostname, u.port, timeout=120)
        c.connect()
        break
    except OSError:
        time.sleep(0.1)
params = {"name": "search_issues", "arguments": {"query": "profile"}} if method == "tools/call" else {}
headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
           "MCP-Protocol-Version": "2025-06-18"}
for i in range(n):
    body = json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
    c.request("POST", u.path, body, headers)
    r = c.getresponse()
    data = r.read()
    if r.status != 200 or b'"result"' not in data:
        sys.exit(f"request {i}: {r.status} {data[:200]!r}")
EOF
}

log "warming up under callgrind (slow: valgrind runs the gateway ~50x slower)"
drive "$GW" tools/list 20
drive "$GW" "$METHOD" 200
# Instrumentation is off until here (the warm-up runs at near native speed); counters are
# zeroed once it is on, so the dump holds the N requests alone.
callgrind_control -i on "$VG_PID" >/dev/null
drive "$GW" "$METHOD" 50
callgrind_control -z "$VG_PID" >/dev/null
drive "$GW" "$METHOD" "$REQUESTS"
callgrind_control -d "$VG_PID" >/dev/null
callgrind_control -i off "$VG_PID" >/dev/null
# The dump is written asynchronously: wait for a file with a totals line.
for _ in $(seq 100); do
    f=$(ls -t "$OUT/$LABEL.callgrind"* 2>/dev/null | head -n1 || true)
    [ -n "$f" ] && grep -q '^totals:' "$f" && break
    sleep 0.2
done
kill -TERM -- "-$VG_PID" 2>/dev/null || true
python3 "$ROOT/benches/profile/breakdown.py" "$f" --requests "$REQUESTS" --label "$LABEL" | tee "$OUT/$LABEL.txt"
