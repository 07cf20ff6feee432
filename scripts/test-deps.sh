#!/usr/bin/env bash
# Installs what the gateway integration tests (tests/gateway_*.rs) run against, into the
# project's own ignored folders; nothing global. Idempotent, quiet, and a no-op in milliseconds
# when everything is already in place:
#   tests/node/node_modules  npm ci from tests/node/package-lock.json (server-everything, the
#                            TypeScript SDK, the conformance suite 0.1.16 and, as
#                            conformance-alpha, 0.2.0-alpha.12 for 2026-07-28, and a Node 22
#                            binary for them),
#                            rerun when the lock file changed since the last install
#   .venv-mcp/               a Python venv with the Python MCP SDK (mcp 1.30), for the rig's
#                            servers and client in tests/rig/ (not .venv: that one holds the
#                            reference tdqs package, which needs mcp 2.x)
#   .venv-mcp2/              a Python venv with the Python MCP SDK 2.x (mcp 2.3.0), for the rig's
#                            py2_server.py and py2_client.py (the SDK 2.x matrix); its own venv,
#                            so the oracle's .venv can move on without changing what is tested
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE_DIR="$ROOT/tests/node"

say() { echo "test-deps: $*" >&2; }

# --- npm packages -------------------------------------------------------------------------
command -v npm >/dev/null || { say "npm is required (Node.js 18 or newer)"; exit 1; }
stamp="$NODE_DIR/node_modules/.package-lock.json"   # written by npm on every install
# The lock file decides (a fresh clone's file times say nothing); after editing package.json,
# run `npm install` in tests/node yourself to update the lock.
if [ ! -f "$stamp" ] || [ "$NODE_DIR/package-lock.json" -nt "$stamp" ]; then
    say "npm ci in tests/node"
    (cd "$NODE_DIR" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

# --- Python MCP SDKs -----------------------------------------------------------------------
# venv DIR REQUIREMENT MODULES: DIR holds exactly REQUIREMENT, and MODULES import from it.
venv() {
    local dir="$ROOT/$1" want="$2" modules="$3"
    local marker="$dir/.rig-requirements"
    if [ ! -x "$dir/bin/python" ] || [ "$(cat "$marker" 2>/dev/null)" != "$want" ]; then
        say "preparing $1 ($want)"
        [ -x "$dir/bin/python" ] || python3 -m venv "$dir" >&2
        "$dir/bin/python" -m pip install --quiet --disable-pip-version-check "$want" >&2
        "$dir/bin/python" -c "import $modules" \
            || { say "the mcp package is not importable from $dir"; exit 1; }
        echo "$want" >"$marker"
    fi
}
venv .venv-mcp "mcp==1.30.*" "mcp.server.fastmcp, mcp.client.streamable_http"
venv .venv-mcp2 "mcp==2.3.0" "mcp.server.mcpserver, mcp.client.client"
