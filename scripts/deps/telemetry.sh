#!/usr/bin/env bash
# The telemetry tests scrape the gateway with a real Prometheus server (Debian's package); the
# OTLP receiver they also need is written in Rust inside the test suite.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
scripts/apt-install.sh prometheus
