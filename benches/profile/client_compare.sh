#!/usr/bin/env bash
# reqwest against the gateway's hyper-util client (src/proxy/upstream_client.rs), the upstream side
# alone: instructions per request of examples/upstream_client_bench under callgrind, as the
# difference between a long and a short run (start-up cancels out). Needs the release build of
# both examples. Usage: benches/profile/client_compare.sh [N]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
N="${1:-2000}"
log() { echo "[client-compare] $*" >&2; }
# shellcheck source=../../scripts/lib/procs.sh
. scripts/lib/procs.sh
OUT=target/profile-proxy/clients
mkdir -p "$OUT"
port=$(free_port)
start upstream "$OUT/upstream.log" target/release/examples/bench_upstream --listen "127.0.0.1:$port" --threads 1
sleep 0.5
URL="http://127.0.0.1:$port/mcp"
ir() { # CLIENT REQUESTS: total instructions of one run
    valgrind --tool=callgrind --callgrind-out-file="$OUT/$1-$2.out" \
        target/release/examples/upstream_client_bench --url "$URL" --client "$1" --requests "$2" >/dev/null 2>"$OUT/$1-$2.log"
    grep '^totals:' "$OUT/$1-$2.out" | awk '{ print $2 }'
}
for client in reqwest hyper; do
    short=$(ir "$client" 200)
    long=$(ir "$client" "$((N + 200))")
    echo "$client: $(((long - short) / N)) instructions per request (user space, client side only)"
done
