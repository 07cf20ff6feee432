#!/usr/bin/env bash
# PostgreSQL server binaries for the fleet-store tests (tests/it/store_postgres.rs,
# tests/it/store_fleet.rs). Each test starts its own cluster on a loopback port in a temp folder
# (tests/it/support/pg.rs); nothing here starts a service.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
scripts/apt-install.sh postgresql
