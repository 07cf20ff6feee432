#!/usr/bin/env bash
# Fuzzes the strict JSON-RPC reader for longer than CI does (tests/it/fuzz_reader.rs: a seeded
# mutator on the stable toolchain; cargo-fuzz needs nightly). Prints executions, accepted and
# refused inputs, crashes and disagreements; fails on any crash or disagreement. The dev profile
# (the one the tests already built) is used: a release build of the whole crate costs more than
# the speed it buys for a run of minutes.
#
#   scripts/fuzz.sh [SECONDS] [SEED]     (default: 1800 s, seed 32149)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds="${1:-1800}"
seed="${2:-32149}"
FUZZ_SECONDS="$seconds" FUZZ_SEED="$seed" cargo test --test it fuzz_reader:: -- --nocapture 2>&1 |
    grep -E "^fuzz_reader:|crash on|panicked|disagree|test result"
