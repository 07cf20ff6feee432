//! Where the tests find things: the repository, the two rigs, the Python venvs, node, and the
//! gateway binary cargo built for this test run.

use std::path::PathBuf;

/// The repository root (where `Cargo.toml` lives).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `tests/rig/`: the Python SDK servers and clients of the gateway tests.
pub fn rig_dir() -> PathBuf {
    root().join("tests/rig")
}

/// A file in `tests/stdio_rig/` (the stdio tests' servers and clients).
pub fn stdio_rig(name: &str) -> PathBuf {
    root().join("tests/stdio_rig").join(name)
}

/// The Python of `.venv-mcp` (the `mcp` 1.30 SDK, mcp-server-time, mcp-server-git).
pub fn python() -> PathBuf {
    root().join(".venv-mcp/bin/python")
}

/// The Python of `.venv-mcp2` (the `mcp` 2.x SDK: py2_server.py, py2_client.py).
pub fn python2() -> PathBuf {
    root().join(".venv-mcp2/bin/python")
}

/// A console script installed in `.venv-mcp` (e.g. `mcp-server-time`).
pub fn venv_bin(name: &str) -> PathBuf {
    root().join(".venv-mcp/bin").join(name)
}

pub fn node_modules() -> PathBuf {
    root().join("tests/node/node_modules")
}

/// server-everything's entry point (`node ... stdio|sse|streamableHttp`).
pub fn everything_js() -> PathBuf {
    node_modules().join("@modelcontextprotocol/server-everything/dist/index.js")
}

/// `node` from PATH.
pub fn node() -> PathBuf {
    PathBuf::from("node")
}

/// The `tdqs-gateway` binary of this build.
pub fn gateway_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tdqs-gateway"))
}

/// Cargo's scratch folder for integration tests.
pub fn tmp_root() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

/// Fails with the installer's name when something a test runs is missing.
pub fn require(paths: &[PathBuf], installer: &str) {
    let missing: Vec<String> = paths.iter().filter(|p| !p.exists()).map(|p| p.display().to_string()).collect();
    assert!(missing.is_empty(), "test dependencies missing ({}); run {installer}", missing.join(", "));
}
