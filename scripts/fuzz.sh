#!/usr/bin/env bash
# Runs the stable-toolchain fuzz targets (tests/it/fuzz_*.rs: seeded generators and mutators;
# cargo-fuzz needs nightly) for longer than CI does, one after the other. Prints each target's
# figures (executions, crashes, property failures, its own counters) and fails on any crash or
# failure. The dev profile (the one the tests already built) is used: a release build of the
# whole crate costs more than the speed it buys for a run of minutes.
#
#   scripts/fuzz.sh [TARGET|all] [SECONDS] [SEED]    (default: all, 1800 s each, each target's seed)
#
# Targets: reader (the strict JSON-RPC reader), sse (the SSE parser), tools_list (the
# tools/list scanner and splice), json (the engine's JSON parser), threat (the threat analysis).
# A number as the first argument is the SECONDS of `all` (the script's older form).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
targets=(reader sse tools_list json threat)
which="${1:-all}"
if [[ "$which" =~ ^[0-9]+$ ]]; then
    set -- all "$@"
    which=all
fi
seconds="${2:-1800}"
seed="${3:-}"
case "$which" in
    all) run=("${targets[@]}") ;;
    reader | sse | tools_list | json | threat) run=("$which") ;;
    *)
        echo "unknown target '$which' (one of: ${targets[*]}, all)" >&2
        exit 2
        ;;
esac
cargo build --tests --quiet
status=0
figures=()
for t in "${run[@]}"; do
    echo "fuzz_$t: ${seconds} s on $(nproc) cores of $(uname -n)" >&2
    out=$(FUZZ_SECONDS="$seconds" FUZZ_SEED="$seed" cargo test --quiet --test it "fuzz_$t::" -- --nocapture 2>&1) ||
        status=1
    printf '%s\n' "$out" | grep -E "^fuzz_$t:|^crash on|panicked|properties failed" || true
    figures+=("$(printf '%s\n' "$out" | grep -E "^fuzz_$t:" || echo "fuzz_$t: no figures (did it build?)")")
done
echo
echo "figures:"
printf '  %s\n' "${figures[@]}"
exit "$status"
