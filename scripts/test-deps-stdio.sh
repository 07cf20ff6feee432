#!/usr/bin/env bash
# Installs what the stdio and legacy integration tests (tests/stdio_*.rs, tests/legacy_*.rs) run
# against, into the project's own ignored folders; nothing global except `git` when it is missing
# (mcp-server-git drives it). Idempotent, quiet, and a no-op in milliseconds when everything is
# already in place:
#   tests/node/node_modules  npm ci from tests/node/package-lock.json when the SDK or
#                            server-everything is missing
#   .venv-mcp/               the Python venv of the MCP SDK (mcp 1.30), plus mcp-server-time and
#                            mcp-server-git pinned to releases that still run on mcp 1.x (later
#                            ones require mcp 2); not .venv, which serves another purpose
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE_DIR="$ROOT/tests/node"
VENV="$ROOT/.venv-mcp"
PY_REQUIREMENTS="mcp==1.30.* mcp-server-time==2026.8.18 mcp-server-git==2026.8.18"

say() { echo "test-deps-stdio: $*" >&2; }

# --- git (mcp-server-git, and the tests' scratch repositories) ----------------------------
if ! command -v git >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        say "installing git"
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq git) >/dev/null
    else
        say "git is required"; exit 1
    fi
fi

# --- npm packages -------------------------------------------------------------------------
command -v node >/dev/null && command -v npm >/dev/null || { say "node and npm are required"; exit 1; }
if [ ! -f "$NODE_DIR/node_modules/@modelcontextprotocol/sdk/package.json" ] \
    || [ ! -f "$NODE_DIR/node_modules/@modelcontextprotocol/server-everything/package.json" ]; then
    say "npm ci in tests/node"
    (cd "$NODE_DIR" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

# --- Python: the SDK and the two reference servers ----------------------------------------
marker="$VENV/.stdio-requirements"
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$marker" 2>/dev/null)" != "$PY_REQUIREMENTS" ] \
    || [ ! -x "$VENV/bin/mcp-server-time" ] || [ ! -x "$VENV/bin/mcp-server-git" ]; then
    say "preparing .venv-mcp ($PY_REQUIREMENTS)"
    [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV" >&2
    # shellcheck disable=SC2086  # the list is meant to split
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check $PY_REQUIREMENTS >&2
    "$VENV/bin/python" -c 'import mcp.client.sse, mcp.client.stdio, mcp.client.streamable_http, httpx' \
        || { say "the mcp package is not importable from $VENV"; exit 1; }
    for server in mcp-server-time mcp-server-git; do
        [ -x "$VENV/bin/$server" ] || { say "$server did not install into $VENV"; exit 1; }
    done
    echo "$PY_REQUIREMENTS" >"$marker"
fi
