#!/usr/bin/env bash
# Side-by-side proxy benchmark (DESIGN.md, "Performance targets"): the same wrk load straight
# at a fast MCP upstream and through tdqs-gateway, interleaved (direct, gateway, direct, ...)
# in one run, medians reported. Only the ratios mean anything: wrk, the upstream and the
# gateway share this machine's cores.
#
# Usage: scripts/bench-proxy.sh [options]
#   --reps N            interleaved repetitions per variant; medians reported (default 3)
#   --duration S        measured seconds per run (default 10)
#   --warmup S          unmeasured seconds of the same load before each run (default 2)
#   --connections C     connections of the throughput runs (default 32; wrk uses 2 threads)
#   --pace MS           the latency runs: one connection waiting MS between an answer and its
#                       next request (default 5), so latencies show service time, not queues
#   --slow-upstream MS  also run tools/list and tools/call against a second upstream that holds
#                       each answer MS milliseconds (a server doing real work); default off
#   --sdk-upstream      also run tools/list and tools/call against a real MCP server: the Python
#                       SDK's low-level Server (stateless, JSON answers) with the same tools, the
#                       comparison a deployment sees (needs .venv-mcp from scripts/test-deps.sh,
#                       else installs `mcp` under target/)
#   --no-nginx          leave out the nginx hop (Debian's package, a plain proxy_pass with
#                       upstream keep-alive: the cost of moving the bytes through a second
#                       process), which otherwise runs beside direct and the gateway
#   --no-mcp-proxy-rs   leave out the Rust mcp-proxy (crates.io, tower-mcp), which otherwise runs
#                       beside direct, the gateway and nginx whenever it is installed, with one
#                       HTTP backend (the same upstream); when it is not installed its rows are
#                       skipped with a note. Install it with
#                         cargo install mcp-proxy --root target/peers
#                       (or anywhere, and point MCP_PROXY_RS at DIR/bin/mcp-proxy)
#   --peers             also install the Rust mcp-proxy if missing, and run, for reference,
#                       supergateway (npm, --stateful) and mcp-proxy (PyPI) in front of a stdio
#                       server with the same tools (a different chain: HTTP -> peer -> stdio
#                       child); installs them under target/
#   --connections-list L  also the call and list scenarios at each of these connection counts
#                       (e.g. 1,8,32,256), every proxy side by side: how the cost grows with load
#   --tools-list L      also the list and call scenarios against upstreams serving each of these
#                       numbers of tools (e.g. 10,100,1000), every proxy side by side
#   --first-sighting N  the first tools/list of N tools (default 1000; 0: skip) through a fresh
#                       gateway (empty store, heuristic judge: every definition scored), in ms,
#                       once per rep, against the same list direct and cached
#   --gateway-arg ARG   one more argument for every `tdqs-gateway serve` (repeatable)
#   --also-gateway NAME='ARGS'  one more annotating gateway with these extra serve arguments,
#                       measured as variant NAME beside the others in the main scenarios
#                       (repeatable), e.g. --also-gateway "gateway-current-thread=--runtime
#                       current-thread"
#   --profile           also perf-record the gateway during one extra tools/list run and keep
#                       the top symbols (needs perf)
#   --no-build          use the binaries already in target/release
#   --out DIR           where results go (default target/bench-proxy)
#
# Scenarios (targets from DESIGN.md):
#   a. tools/list of 100 tools, scores cached, gateway --mode annotate:
#      >= 90% of direct throughput, < 1 ms added at p99 (read from the paced runs: a
#      saturating closed loop turns any throughput loss into queueing latency);
#   b. tools/call passthrough: >= 95% of direct throughput;
#   c. (a) with --mode observe: scoring without rewriting;
#   plus, for the analysis, the same 100-tool answer under a method the gateway does not
#   intercept (bench/tools_raw): the cost of moving the bytes alone.
# CPU time per request of wrk, the upstream and the gateway (from /proc and `times`) is
# reported as well, with what other tenants of the machine used meanwhile: it is the figure
# that other load disturbs least, and it gives the ratio a dedicated machine would show.
#
# Output (the format is kept stable, summarize.py reads it): OUT/results.jsonl, one line per
# measured run: {"group", "variant", "rep", "connections", "pace_ms", "tools", cpu_upstream_s,
# cpu_proxy_s, cpu_wrk_s, cpu_other_s, machine_busy_pct, "wrk": {requests, seconds, rps, bytes,
# p50_us, p90_us, p99_us, max_us, mean_us, errors}}; groups: list, call, list-paced,
# call-paced (the main scenarios), scalelist-cC / scalecall-cC (--connections-list),
# toolslist-nN / toolscall-nN (--tools-list), slow*, sdk*, peer* (as named above); variants:
# direct, gateway-annotate, gateway-observe, gateway-raw, nginx, mcp-proxy-rs, supergateway,
# mcp-proxy-py. OUT/first-sighting.jsonl: {"tools", "rep", "direct_ms", "first_ms",
# "cached_ms", "gateway_cpu_ms", "bytes"}. OUT/machine.txt: what ran it. The markdown summary
# goes to stdout and OUT/summary.md.
# Every process it starts is stopped on exit (trap), by process group.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

REPS=3
DURATION=10
WARMUP=2
CONNS=32
SLOW_MS=0
SDK=0
PACE_MS=5
PEERS=0
NGINX=1
MCP_RS=1
CONNS_LIST=""
TOOLS_LIST=""
FIRST_TOOLS=1000
GATEWAY_ARGS=()
ALSO_GATEWAYS=()
PROFILE=0
BUILD=1
OUT="target/bench-proxy"
while [ $# -gt 0 ]; do
    case "$1" in
        --reps) REPS="$2"; shift 2 ;;
        --duration) DURATION="$2"; shift 2 ;;
        --warmup) WARMUP="$2"; shift 2 ;;
        --connections) CONNS="$2"; shift 2 ;;
        --slow-upstream) SLOW_MS="$2"; shift 2 ;;
        --sdk-upstream) SDK=1; shift ;;
        --pace) PACE_MS="$2"; shift 2 ;;
        --peers) PEERS=1; shift ;;
        --no-nginx) NGINX=0; shift ;;
        --no-mcp-proxy-rs) MCP_RS=0; shift ;;
        --connections-list) CONNS_LIST="${2//,/ }"; shift 2 ;;
        --tools-list) TOOLS_LIST="${2//,/ }"; shift 2 ;;
        --first-sighting) FIRST_TOOLS="$2"; shift 2 ;;
        --gateway-arg) GATEWAY_ARGS+=("$2"); shift 2 ;;
        --also-gateway) ALSO_GATEWAYS+=("$2"); shift 2 ;;
        --profile) PROFILE=1; shift ;;
        --no-build) BUILD=0; shift ;;
        --out) OUT="$2"; shift 2 ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

log() { echo "[bench-proxy] $*" >&2; }

# --- processes we start, stopped on exit -------------------------------------------------------
# shellcheck source=lib/procs.sh
. "$ROOT/scripts/lib/procs.sh"
# shellcheck source=lib/peers.sh
. "$ROOT/scripts/lib/peers.sh"
WRK_PID=""
cleanup_extra() {
    if [ -n "$WRK_PID" ]; then kill "$WRK_PID" 2>/dev/null || true; fi
}

# post URL METHOD [SESSION] [TOOL]: one JSON-RPC request, the answer body on stdout.
post() {
    local h=()
    [ -n "${3:-}" ] && [ "$3" != - ] && h=(-H "Mcp-Session-Id: $3")
    local params='{}'
    [ "$2" = "tools/call" ] && params="{\"name\":\"${4:-search_issues}\",\"arguments\":{\"query\":\"x\"}}"
    curl -sS --max-time 5 -X POST "$1" "${h[@]}" \
        -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
        -H 'MCP-Protocol-Version: 2025-06-18' \
        --data "{\"jsonrpc\":\"2.0\",\"id\":\"probe\",\"method\":\"$2\",\"params\":$params}"
}

# wait_ready URL: until a ping POST answers 200 (10 s at most).
wait_ready() {
    local i
    for i in $(seq 100); do
        if curl -s -o /dev/null -w '%{http_code}' --max-time 2 -X POST "$1" \
            -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
            --data '{"jsonrpc":"2.0","id":0,"method":"ping"}' 2>/dev/null | grep -q '^200$'; then
            return 0
        fi
        sleep 0.1
    done
    log "not ready: $1"
    return 1
}

# CPU ticks (user + system) of every process in process group $1.
group_ticks() {
    local pg="$1" sum=0 f line
    local -a fields
    for f in /proc/[0-9]*/stat; do
        { read -r line <"$f"; } 2>/dev/null || continue
        line="${line##*) }"
        read -r -a fields <<<"$line"
        # fields[0] is stat field 3 (state): pgrp is field 5, utime 14, stime 15.
        if [ "${fields[2]}" = "$pg" ]; then
            sum=$((sum + fields[11] + fields[12]))
        fi
    done
    echo "$sum"
}

# Busy and total jiffies of the whole machine.
machine_jiffies() {
    local _cpu user nice system idle iowait irq softirq steal _rest
    read -r _cpu user nice system idle iowait irq softirq steal _rest </proc/stat
    echo "$((user + nice + system + irq + softirq + steal)) $((user + nice + system + idle + iowait + irq + softirq + steal))"
}

# --- build and tools ---------------------------------------------------------------------------
if ! command -v wrk >/dev/null; then
    log "wrk is missing; installing the Debian package"
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq >&2 && apt-get install -y -qq wrk >&2
    else
        sudo apt-get update -qq >&2 && sudo apt-get install -y -qq wrk >&2
    fi
fi
if [ "$BUILD" = 1 ]; then
    log "building tdqs-gateway and examples/bench_upstream (release)..."
    cargo build --quiet --release --bin tdqs-gateway --example bench_upstream
fi
LUA=benches/proxy/mcp.lua
mkdir -p "$OUT/bin"
OUT="$(cd "$OUT" && pwd)"
# Copies, so a rebuild of target/ during the run cannot swap a binary between variants.
cp target/release/tdqs-gateway target/release/examples/bench_upstream "$OUT/bin/"
GATEWAY="$OUT/bin/tdqs-gateway"
UPSTREAM="$OUT/bin/bench_upstream"
RESULTS="$OUT/results.jsonl"
: >"$RESULTS"
# The gateways keep scores where quick flags put them, under XDG_DATA_HOME: start empty.
rm -rf "$OUT/data"
TICK=$(getconf CLK_TCK)
{
    echo "cpus: $(nproc) x $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    echo "kernel: $(uname -r); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "wrk, the upstreams and every proxy share these cores with whatever else runs"
} >"$OUT/machine.txt"

# --- the servers -------------------------------------------------------------------------------
start_upstream() { # NAME DELAY_MS [TOOLS] -> sets UP_URL, UP_PG
    local port
    port=$(free_port)
    start "$1" "$OUT/$1.log" "$UPSTREAM" --listen "127.0.0.1:$port" --delay-ms "$2" --tools "${3:-100}"
    UP_PG=$STARTED
    UP_URL="http://127.0.0.1:$port/mcp"
    wait_ready "$UP_URL"
}

start_gateway() { # NAME MODE UPSTREAM_URL [DATA_DIR] -> sets GW_URL, GW_PG
    local port
    port=$(free_port)
    start "$1" "$OUT/$1.log" env TDQS_LOG=warn XDG_DATA_HOME="${4:-$OUT/data}" \
        "$GATEWAY" serve --listen "127.0.0.1:$port" --upstream "bench=$3" --mode "$2" ${GATEWAY_ARGS[@]+"${GATEWAY_ARGS[@]}"}
    GW_PG=$STARTED
    GW_URL="http://127.0.0.1:$port/mcp/bench"
    wait_ready "$GW_URL"
}

start_upstream upstream 0
UP0_URL=$UP_URL UP0_PG=$UP_PG
start_gateway gateway-annotate annotate "$UP0_URL"
GWA_URL=$GW_URL GWA_PG=$GW_PG
start_gateway gateway-observe observe "$UP0_URL"
GWO_URL=$GW_URL GWO_PG=$GW_PG

# --- sanity: the answers are what the scenarios claim ------------------------------------------
check() { # LABEL PYTHON_EXPR_ON_v < body
    python3 -c '
import json, sys
label, expr = sys.argv[1], sys.argv[2]
raw = sys.stdin.read()
if raw.lstrip().startswith("event:") or raw.lstrip().startswith("data:"):
    raw = [l[5:] for l in raw.splitlines() if l.startswith("data:")][-1]
try:
    v = json.loads(raw)
except ValueError:
    print("BAD " + label + ": the answer is not JSON: " + repr(raw[:300]), file=sys.stderr)
    sys.exit(1)
ok = eval(expr)
print(("ok  " if ok else "BAD ") + label + ("" if ok else ": " + repr(raw[:300])), file=sys.stderr)
sys.exit(0 if ok else 1)
' "$1" "$2"
}
TOOLS='v["result"]["tools"]'
ANNOTATED="all(\"tdqs-gateway/score\" in t.get(\"_meta\", {}) for t in $TOOLS)"
post "$UP0_URL" tools/list | tee "$OUT/direct-list.json" | check "direct tools/list: 100 tools" "len($TOOLS) == 100"
post "$GWA_URL" tools/list | tee "$OUT/annotate-list.json" |
    check "annotate tools/list: 100 tools, all annotated" "len($TOOLS) == 100 and $ANNOTATED"
post "$GWO_URL" tools/list | check "observe tools/list: 100 tools, unchanged" "len($TOOLS) == 100 and not any(\"_meta\" in t for t in $TOOLS)"
post "$GWA_URL" bench/tools_raw | check "raw list through the gateway: not annotated" "len($TOOLS) == 100 and not any(\"_meta\" in t for t in $TOOLS)"
post "$GWA_URL" tools/call | check "tools/call through the gateway" "v[\"result\"][\"content\"][0][\"text\"].startswith(\"search_issues\")"
log "list answer: $(wc -c <"$OUT/direct-list.json") bytes direct, $(wc -c <"$OUT/annotate-list.json") bytes annotated"

# --- the hops beside the gateway: nginx, the Rust mcp-proxy ------------------------------------
# Each variant of a run is a URL, the process group whose CPU is the proxy's, a session (or -)
# and the tool name its tools/call names; keyed VARIANT@SET (SET: the upstream it fronts).
declare -A V_URL V_PG V_SID V_TOOL
set_variant() { # KEY URL PG [SESSION] [TOOL]
    V_URL[$1]=$2 V_PG[$1]=$3 V_SID[$1]=${4:--} V_TOOL[$1]=${5:-search_issues}
}
# start_hops SET UPSTREAM_URL UPSTREAM_PG GATEWAY_URL GATEWAY_PG TOOLS: direct, the gateway and
# whichever hops are on, for one upstream; sets HOP_VARIANTS.
start_hops() {
    local set="$1" up="$2" up_pg="$3" tools="$6"
    HOP_VARIANTS=(direct gateway-annotate)
    set_variant "direct@$set" "$up" "$up_pg"
    set_variant "gateway-annotate@$set" "$4" "$5"
    if [ "$NGINX" = 1 ]; then
        start_nginx "nginx-$set" "$up"
        set_variant "nginx@$set" "$NG_URL" "$NG_PG"
        post "$NG_URL" tools/list | check "nginx tools/list ($set): $tools tools" "len($TOOLS) == $tools"
        HOP_VARIANTS+=(nginx)
    fi
    if [ "$MCP_RS" = 1 ]; then
        start_mcp_proxy_rs "mcp-proxy-rs-$set" "$up"
        set_variant "mcp-proxy-rs@$set" "$MR_URL" "$MR_PG" "${MR_SID:--}" "$MR_TOOL"
        # Its lists carry the backend's tools as bench/<name> plus five management tools of
        # its own (proxy/add_backend, proxy/config, ...): its list answers are a little longer.
        post "$MR_URL" tools/list "$MR_SID" | check "mcp-proxy (Rust) tools/list ($set): $tools tools (+ its own)" \
            "len([t for t in $TOOLS if t[\"name\"].startswith(\"bench/\")]) == $tools"
        post "$MR_URL" tools/call "$MR_SID" "$MR_TOOL" |
            check "mcp-proxy (Rust) tools/call ($set)" "v[\"result\"][\"content\"][0][\"text\"].startswith(\"search_issues\")"
        HOP_VARIANTS+=(mcp-proxy-rs)
    fi
}
[ "$NGINX" = 1 ] && ensure_nginx
if [ "$MCP_RS" = 1 ]; then
    [ "$PEERS" = 1 ] && ensure_mcp_proxy_rs
    if ! have_mcp_proxy_rs; then
        log "note: the Rust mcp-proxy is not installed ($MCP_PROXY_RS): its rows are skipped" \
            "(cargo install mcp-proxy --root target/peers, or MCP_PROXY_RS=DIR/bin/mcp-proxy)"
        MCP_RS=0
    fi
fi
start_hops main "$UP0_URL" "$UP0_PG" "$GWA_URL" "$GWA_PG" 100
MAIN_VARIANTS=("${HOP_VARIANTS[@]}")
for spec in ${ALSO_GATEWAYS[@]+"${ALSO_GATEWAYS[@]}"}; do
    name="${spec%%=*}"
    read -r -a extra <<<"${spec#*=}"
    saved=(${GATEWAY_ARGS[@]+"${GATEWAY_ARGS[@]}"})
    GATEWAY_ARGS=(${GATEWAY_ARGS[@]+"${GATEWAY_ARGS[@]}"} "${extra[@]}")
    start_gateway "$name" annotate "$UP0_URL"
    GATEWAY_ARGS=(${saved[@]+"${saved[@]}"})
    post "$GW_URL" tools/list | check "$name tools/list: 100 tools, all annotated" "len($TOOLS) == 100 and $ANNOTATED"
    set_variant "$name@main" "$GW_URL" "$GW_PG"
    MAIN_VARIANTS+=("$name")
done
set_variant gateway-observe@main "$GWO_URL" "$GWO_PG"
set_variant gateway-raw@main "$GWA_URL" "$GWA_PG"

# --- one measured run --------------------------------------------------------------------------
# Children's CPU seconds of this shell (wrk's, once waited for), from `times` written to FILE.
# `times` must run in this shell, not in a $(...) subshell, which has children of its own.
TIMES_FILE="$OUT/.times"
children_cpu() {
    tail -n 1 "$1" | awk '{ n = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]); n += p[1] * 60 + p[2] } printf "%.3f", n }'
}

# measure GROUP VARIANT REP URL METHOD CONNS [SESSION] [PACE_MS] [TOOL]; MEASURE_TOOLS is the
# number of tools the upstream lists.
MEASURE_TOOLS=100
measure() {
    local group="$1" variant="$2" rep="$3" url="$4" method="$5" conns="$6" session="${7:--}" pace="${8:-0}"
    local tool="${9:-search_issues}" threads=2
    [ "$conns" -lt 2 ] && threads=1
    local args=(-t "$threads" -c "$conns" --timeout 5s -s "$LUA" "$url" -- "$method" "$tool" "$session" "$pace")
    wrk -d "${WARMUP}s" "${args[@]}" >/dev/null
    local up0 px0 m0 w0 up1 px1 m1 w1 out line
    up0=$(group_ticks "$MEASURE_UP_PG")
    px0=$(proxy_ticks)
    m0=$(machine_jiffies)
    times >"$TIMES_FILE.0"
    wrk -d "${DURATION}s" --latency "${args[@]}" >"$OUT/.wrk.out"
    times >"$TIMES_FILE.1"
    w0=$(children_cpu "$TIMES_FILE.0")
    w1=$(children_cpu "$TIMES_FILE.1")
    up1=$(group_ticks "$MEASURE_UP_PG")
    px1=$(proxy_ticks)
    m1=$(machine_jiffies)
    out=$(cat "$OUT/.wrk.out")
    line=$(grep '^BENCH_JSON ' <<<"$out" | cut -d' ' -f2-)
    if [ -z "$line" ]; then
        log "wrk printed no summary for $group/$variant:"
        echo "$out" >&2
        return 1
    fi
    # Machine-wide busy time minus ours: what other tenants of the machine used meanwhile.
    local cpu
    cpu=$(awk -v a="$m0" -v b="$m1" -v up="$((up1 - up0))" -v px="$((px1 - px0))" -v w0="$w0" -v w1="$w1" -v k="$TICK" '
        BEGIN {
            split(a, x, " "); split(b, y, " ");
            busy = (y[1] - x[1]) / k; total = (y[2] - x[2]) / k; wrk = w1 - w0;
            other = busy - up / k - px / k - wrk; if (other < 0) other = 0;
            printf "\"cpu_upstream_s\":%.2f,\"cpu_proxy_s\":%.2f,\"cpu_wrk_s\":%.2f,\"cpu_other_s\":%.2f,\"machine_busy_pct\":%.1f",
                up / k, px / k, wrk, other, 100 * busy / total
        }')
    printf '{"group":"%s","variant":"%s","rep":%d,"connections":%d,"pace_ms":%d,"tools":%d,%s,"wrk":%s}\n' \
        "$group" "$variant" "$rep" "$conns" "$pace" "$MEASURE_TOOLS" "$cpu" "$line" >>"$RESULTS"
    log "$(printf '%-13s %-17s rep %d: %8s rps, p50 %6s us, p99 %6s us | %s' "$group" "$variant" "$rep" \
        "$(sed 's/.*"rps":\([0-9.]*\).*/\1/' <<<"$line")" "$(sed 's/.*"p50_us":\([0-9]*\).*/\1/' <<<"$line")" \
        "$(sed 's/.*"p99_us":\([0-9]*\).*/\1/' <<<"$line")" "$(tr -d '"' <<<"$cpu" | tr ',' ' ')")"
    if ! grep -q '"errors":{"connect":0,"read":0,"write":0,"status":0,"timeout":0}' <<<"$line"; then
        log "  errors in this run: $(sed 's/.*"errors":\({[^}]*}\).*/\1/' <<<"$line")"
    fi
}
# CPU ticks of every proxy process (idle ones add nothing).
PROXY_PGS=()
proxy_ticks() {
    local pg sum=0
    for pg in "${PROXY_PGS[@]}"; do sum=$((sum + $(group_ticks "$pg"))); done
    echo "$sum"
}

# measure_v GROUP VARIANT SET REP METHOD CONNS [PACE_MS]: measure with the variant's URL,
# session and tool; the proxy CPU counted is every proxy of the set (idle ones add nothing).
measure_v() {
    local key="$2@$3"
    measure "$1" "$2" "$4" "${V_URL[$key]}" "$5" "$6" "${V_SID[$key]}" "${7:-0}" "${V_TOOL[$key]}"
}
set_pgs() { # SET: PROXY_PGS = every proxy of the set, each group once
    local k
    PROXY_PGS=()
    for k in "${!V_PG[@]}"; do
        if [ "${k#*@}" = "$1" ] && [ "${k%@*}" != direct ] && [[ " ${PROXY_PGS[*]} " != *" ${V_PG[$k]} "* ]]; then
            PROXY_PGS+=("${V_PG[$k]}")
        fi
    done
}

MEASURE_UP_PG=$UP0_PG
set_pgs main
scale_runs=0
for c in $CONNS_LIST; do scale_runs=$((scale_runs + 2 * ${#MAIN_VARIANTS[@]})); done
for n in $TOOLS_LIST; do scale_runs=$((scale_runs + 2 * ${#MAIN_VARIANTS[@]})); done
total_runs=$(((3 * ${#MAIN_VARIANTS[@]} + 2 + 2 * ${#MAIN_VARIANTS[@]} + (SLOW_MS != 0 ? 4 : 0) + SDK * 4 + PEERS * 6 + scale_runs) * REPS))
log "measuring: $REPS reps, ${WARMUP}s warmup + ${DURATION}s per run, $total_runs runs (~$((total_runs * (WARMUP + DURATION) / 60)) min)"

for rep in $(seq "$REPS"); do
    # a, c and the raw-bytes analysis, at CONNS connections, beside every hop.
    for v in "${MAIN_VARIANTS[@]}"; do
        measure_v list "$v" main "$rep" tools/list "$CONNS"
        if [ "$v" = gateway-annotate ]; then
            measure_v list gateway-observe main "$rep" tools/list "$CONNS"
            measure_v list gateway-raw main "$rep" bench/tools_raw "$CONNS"
        fi
    done
    # b
    for v in "${MAIN_VARIANTS[@]}"; do measure_v call "$v" main "$rep" tools/call "$CONNS"; done
    # Added latency under light load: one connection, PACE_MS between an answer and the next
    # request, so nothing queues.
    for v in "${MAIN_VARIANTS[@]}"; do measure_v list-paced "$v" main "$rep" tools/list 1 "$PACE_MS"; done
    for v in "${MAIN_VARIANTS[@]}"; do measure_v call-paced "$v" main "$rep" tools/call 1 "$PACE_MS"; done
done

# Scaling with load: the same upstream and proxies at each connection count.
for rep in $(seq "$REPS"); do
    for c in $CONNS_LIST; do
        for v in "${MAIN_VARIANTS[@]}"; do measure_v "scalecall-c$c" "$v" main "$rep" tools/call "$c"; done
        for v in "${MAIN_VARIANTS[@]}"; do measure_v "scalelist-c$c" "$v" main "$rep" tools/list "$c"; done
    done
done

# Scaling with the work: upstreams serving N tools, each with its own gateway and hops.
if [ -n "$TOOLS_LIST" ]; then
    declare -A SET_UP_PG
    for n in $TOOLS_LIST; do
        start_upstream "upstream-n$n" 0 "$n"
        SET_UP_PG[n$n]=$UP_PG
        start_gateway "gateway-n$n" annotate "$UP_URL"
        # The first list scores every definition: done here, so the runs measure cached lists.
        post "$GW_URL" tools/list | check "annotate tools/list: $n tools, all annotated" "len($TOOLS) == $n and $ANNOTATED"
        start_hops "n$n" "$UP_URL" "$UP_PG" "$GW_URL" "$GW_PG" "$n"
    done
    for rep in $(seq "$REPS"); do
        for n in $TOOLS_LIST; do
            MEASURE_UP_PG=${SET_UP_PG[n$n]} MEASURE_TOOLS=$n
            set_pgs "n$n"
            for v in "${HOP_VARIANTS[@]}"; do measure_v "toolslist-n$n" "$v" "n$n" "$rep" tools/list "$CONNS"; done
            for v in "${HOP_VARIANTS[@]}"; do measure_v "toolscall-n$n" "$v" "n$n" "$rep" tools/call "$CONNS"; done
        done
    done
    MEASURE_UP_PG=$UP0_PG MEASURE_TOOLS=100
fi

# First sighting: a gateway that has never seen these N definitions (fresh data dir, so an
# empty store) answers its first tools/list after scoring all of them with the heuristic judge.
# When the threat analysis lands it runs inside that same first list (no change needed here;
# if it comes behind a flag or config key, pass it with --gateway-arg so it is counted).
if [ "$FIRST_TOOLS" != 0 ]; then
    start_upstream upstream-first 0 "$FIRST_TOOLS"
    FS_UP_URL=$UP_URL
    : >"$OUT/first-sighting.jsonl"
    # time_ms URL [SESSION]: wall milliseconds of one tools/list; the body to $OUT/.fs.json.
    time_ms() {
        curl -sS --max-time 60 -o "$OUT/.fs.json" -w '%{time_total}' -X POST "$1" \
            -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
            -H 'MCP-Protocol-Version: 2025-06-18' \
            --data '{"jsonrpc":"2.0","id":"fs","method":"tools/list","params":{}}' | awk '{ printf "%.2f", $1 * 1000 }'
    }
    for rep in $(seq "$REPS"); do
        rm -rf "$OUT/data-first"
        start_gateway "gateway-first-$rep" annotate "$FS_UP_URL" "$OUT/data-first"
        direct_ms=$(time_ms "$FS_UP_URL")
        t0=$(group_ticks "$GW_PG")
        first_ms=$(time_ms "$GW_URL")
        t1=$(group_ticks "$GW_PG")
        check "first sighting: $FIRST_TOOLS tools, all annotated" "len($TOOLS) == $FIRST_TOOLS and $ANNOTATED" <"$OUT/.fs.json"
        bytes=$(wc -c <"$OUT/.fs.json")
        cached_ms=$(time_ms "$GW_URL")
        printf '{"tools":%d,"rep":%d,"direct_ms":%s,"first_ms":%s,"cached_ms":%s,"gateway_cpu_ms":%d,"bytes":%d}\n' \
            "$FIRST_TOOLS" "$rep" "$direct_ms" "$first_ms" "$cached_ms" "$(((t1 - t0) * 1000 / TICK))" "$bytes" \
            >>"$OUT/first-sighting.jsonl"
        log "first sighting of $FIRST_TOOLS tools, rep $rep: ${first_ms} ms (direct ${direct_ms} ms, cached ${cached_ms} ms)"
        kill -TERM -- "-$GW_PG" 2>/dev/null || true
    done
fi

# list_and_call PREFIX UPSTREAM_URL UPSTREAM_PG: groups PREFIXlist and PREFIXcall, direct and
# through the annotating gateway last started (GW_URL, GW_PG), REPS times interleaved.
list_and_call() {
    local prefix="$1" up_url="$2" rep
    MEASURE_UP_PG=$3
    PROXY_PGS=("$GW_PG")
    for rep in $(seq "$REPS"); do
        measure "${prefix}list" direct "$rep" "$up_url" tools/list "$CONNS"
        measure "${prefix}list" gateway-annotate "$rep" "$GW_URL" tools/list "$CONNS"
        measure "${prefix}call" direct "$rep" "$up_url" tools/call "$CONNS"
        measure "${prefix}call" gateway-annotate "$rep" "$GW_URL" tools/call "$CONNS"
    done
}

if [ "$SLOW_MS" != 0 ]; then
    start_upstream upstream-slow "$SLOW_MS"
    UPS_URL=$UP_URL UPS_PG=$UP_PG
    start_gateway gateway-slow annotate "$UPS_URL"
    list_and_call slow "$UPS_URL" "$UPS_PG"
fi

if [ "$SDK" = 1 ]; then
    SDK_PY=$(sdk_python "$ROOT")
    "$UPSTREAM" --dump-tools >"$OUT/tools.json"
    port=$(free_port)
    start upstream-sdk "$OUT/upstream-sdk.log" "$SDK_PY" "$ROOT/benches/proxy/sdk_upstream.py" "$OUT/tools.json" "$port"
    UPK_URL="http://127.0.0.1:$port/mcp" UPK_PG=$STARTED
    wait_ready "$UPK_URL"
    start_gateway gateway-sdk annotate "$UPK_URL"
    post "$GW_URL" tools/list | check "annotate tools/list from the SDK server: 100 tools, all annotated" "len($TOOLS) == 100 and $ANNOTATED"
    list_and_call sdk "$UPK_URL" "$UPK_PG"
fi

if [ "$PEERS" = 1 ]; then
    mkdir -p "$PEER_DIR"
    if [ ! -x "$PEER_DIR/node/node_modules/.bin/supergateway" ]; then
        log "installing supergateway (npm) into $PEER_DIR/node"
        npm install --silent --no-audit --no-fund --prefix "$PEER_DIR/node" supergateway@4.0.0 >&2
    fi
    if [ ! -x "$PEER_DIR/venv/bin/mcp-proxy" ]; then
        log "installing mcp-proxy (PyPI) into $PEER_DIR/venv"
        python3 -m venv "$PEER_DIR/venv"
        "$PEER_DIR/venv/bin/pip" install -q mcp-proxy==0.13.0 >&2
    fi
    "$UPSTREAM" --dump-tools >"$OUT/tools.json"
    STDIO_CMD="python3 $ROOT/benches/proxy/stdio_server.py $OUT/tools.json"

    port=$(free_port)
    start supergateway "$OUT/supergateway.log" "$PEER_DIR/node/node_modules/.bin/supergateway" \
        --stdio "$STDIO_CMD" --outputTransport streamableHttp --stateful --port "$port" --logLevel none
    SG_PG=$STARTED SG_URL="http://127.0.0.1:$port/mcp"
    wait_port "$port"
    SG_SID=$(open_session "$SG_URL")
    post "$SG_URL" tools/list "$SG_SID" | check "supergateway tools/list: 100 tools" "len($TOOLS) == 100"

    port=$(free_port)
    start mcp-proxy-py "$OUT/mcp-proxy-py.log" "$PEER_DIR/venv/bin/mcp-proxy" --port "$port" --log-level WARNING \
        python3 "$ROOT/benches/proxy/stdio_server.py" "$OUT/tools.json"
    MP_PG=$STARTED MP_URL="http://127.0.0.1:$port/mcp"
    wait_port "$port"
    MP_SID=$(open_session "$MP_URL")
    post "$MP_URL" tools/list "$MP_SID" | check "mcp-proxy (Python) tools/list: 100 tools" "len($TOOLS) == 100"

    MEASURE_UP_PG=$UP0_PG
    for rep in $(seq "$REPS"); do
        PROXY_PGS=("$GWA_PG")
        measure peerlist tdqs-gateway "$rep" "$GWA_URL" tools/list "$CONNS"
        PROXY_PGS=("$SG_PG")
        measure peerlist supergateway "$rep" "$SG_URL" tools/list "$CONNS" "$SG_SID"
        PROXY_PGS=("$MP_PG")
        measure peerlist mcp-proxy-py "$rep" "$MP_URL" tools/list "$CONNS" "$MP_SID"
        PROXY_PGS=("$GWA_PG")
        measure peercall tdqs-gateway "$rep" "$GWA_URL" tools/call "$CONNS"
        PROXY_PGS=("$SG_PG")
        measure peercall supergateway "$rep" "$SG_URL" tools/call "$CONNS" "$SG_SID"
        PROXY_PGS=("$MP_PG")
        measure peercall mcp-proxy-py "$rep" "$MP_URL" tools/call "$CONNS" "$MP_SID"
    done
fi

if [ "$PROFILE" = 1 ]; then
    if command -v perf >/dev/null; then
        log "profiling the annotate gateway under tools/list load (perf, ${DURATION}s)"
        wrk -t 2 -c "$CONNS" -d "$((DURATION + 2))s" -s "$LUA" "$GWA_URL" -- tools/list >/dev/null &
        WRK_PID=$!
        sleep 1
        perf record -F 499 --call-graph dwarf,16384 -o "$OUT/perf.data" -p "$GWA_PG" \
            -- sleep "$DURATION" >/dev/null 2>&1 || log "perf record failed"
        wait "$WRK_PID" || true
        WRK_PID=""
        perf report -i "$OUT/perf.data" --no-children --sort symbol --stdio -g none 2>/dev/null |
            grep -v '^#' | grep '%' | head -n 40 >"$OUT/perf-top.txt" || true
        perf report -i "$OUT/perf.data" --children --sort symbol --stdio -g none 2>/dev/null |
            grep -v '^#' | grep '%' | head -n 80 >"$OUT/perf-children.txt" || true
        log "top symbols in $OUT/perf-top.txt (self) and $OUT/perf-children.txt (inclusive)"
    else
        log "perf not found; skipping the profile"
    fi
fi

python3 "$ROOT/benches/proxy/summarize.py" "$RESULTS" --connections "$CONNS" --duration "$DURATION" --reps "$REPS" \
    --machine "$OUT/machine.txt" --first-sighting "$OUT/first-sighting.jsonl" |
    tee "$OUT/summary.md"
