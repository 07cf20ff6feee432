# Process plumbing shared by the benchmark drivers (bench-proxy.sh, soak.sh); sourced, not run.
# The sourcing script defines `log` first. Every process is started in its own process group
# (so its children stop with it) and every group is stopped when the script exits, by trap.
# A script with more to stop defines `cleanup_extra`, called first.

PGIDS=()

cleanup() {
    local pg
    if declare -F cleanup_extra >/dev/null; then cleanup_extra; fi
    for pg in "${PGIDS[@]}"; do kill -TERM -- "-$pg" 2>/dev/null || true; done
    sleep 0.3
    for pg in "${PGIDS[@]}"; do kill -KILL -- "-$pg" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start NAME LOGFILE CMD...: runs CMD in its own process group; sets STARTED to the group id.
start() {
    local name="$1" logfile="$2"
    shift 2
    setsid "$@" >"$logfile" 2>&1 </dev/null &
    STARTED=$!
    PGIDS+=("$STARTED")
    log "started $name (pgid $STARTED)"
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# sdk_python ROOT: the Python with the MCP SDK (PyPI `mcp`) on stdout: the test rig's .venv-mcp,
# else a venv of its own under target/, installed on first use.
sdk_python() {
    local py="$1/.venv-mcp/bin/python"
    if [ ! -x "$py" ]; then
        py="$1/target/bench-proxy-peers/sdk-venv/bin/python"
        if [ ! -x "$py" ]; then
            log "installing the MCP Python SDK into target/bench-proxy-peers/sdk-venv"
            python3 -m venv "$1/target/bench-proxy-peers/sdk-venv" >&2
            "$py" -m pip install -q --disable-pip-version-check 'mcp==1.30.*' >&2
        fi
    fi
    echo "$py"
}
