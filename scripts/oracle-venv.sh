#!/usr/bin/env bash
# Prepares the reference implementation used as a test oracle by tests/it/oracle_diff.rs:
# a virtualenv at <repo>/.venv with tdqs==0.1.0. Idempotent; prints the venv's python.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
WANT="0.1.0"

if [ ! -x "$PY" ]; then
    python3 -m venv "$VENV" >&2
fi

installed() {
    "$PY" - "$WANT" <<'PYEOF' >/dev/null 2>&1
import sys
from importlib.metadata import version
import tdqs  # noqa: F401
sys.exit(0 if version("tdqs") == sys.argv[1] else 1)
PYEOF
}

if ! installed; then
    "$PY" -m pip install --quiet --disable-pip-version-check "tdqs==$WANT" >&2
    installed || { echo "tdqs==$WANT is still not importable from $PY" >&2; exit 1; }
fi

echo "$PY"
