#!/usr/bin/env bash
# Headless Chromium and its WebDriver, for the dashboard's browser tests (tests/it/admin_browser.rs).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
scripts/apt-install.sh chromium chromium-driver
