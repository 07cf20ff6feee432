//! The stdio and legacy-SSE tests' vocabulary. Everything runs for real: the gateway binary,
//! real MCP servers (mcp-server-time, mcp-server-git, server-everything) and our misbehaving
//! ones (`tests/stdio_rig/bad_server.py`), and real SDK clients (`tests/stdio_rig/sdk_client.py`,
//! `ts_client.mjs`). Every process a test starts is held by a [`Guarded`]. Readiness is polled,
//! never slept on.
//!
//! Installed by `scripts/test-deps-stdio.sh`: `.venv-mcp/` (mcp 1.30, mcp-server-time,
//! mcp-server-git) and `tests/node/node_modules` (server-everything, the TypeScript SDK).

pub mod http;

use serde_json::Value;

pub use super::clients::{run_json, stdio_py_client as py_client, stdio_ts_client as ts_client};
pub use super::gateway::{Gateway, Launch, READY_TIMEOUT};
pub use super::paths::{everything_js, gateway_bin, node, python, root, stdio_rig as rig, venv_bin};
pub use super::patience::{poll, poll_async};
pub use super::process::{Guarded, die_with_parent, tail};
pub use super::procs;
pub use super::scratch::Scratch;

/// Fails with the installer's name when something the tests run is missing.
pub fn require_deps() {
    let needed = [
        python(),
        venv_bin("mcp-server-time"),
        venv_bin("mcp-server-git"),
        everything_js(),
        root().join("tests/node/node_modules/@modelcontextprotocol/sdk/package.json"),
    ];
    super::paths::require(&needed, "scripts/test-deps-stdio.sh");
}

impl Gateway {
    /// Starts `serve` the stdio tests' way: `config` (TOML, without a `[listen]` table: the
    /// gateway listens on a port of the kernel's choice, read back from its log) in `scratch`,
    /// which is also its working folder and holds its own score store; JSON logs. Waits until
    /// it listens.
    pub async fn start_in(scratch: &Scratch, name: &str, config: &str) -> Gateway {
        require_deps();
        let how = Launch { name, listen: "", config, json_logs: true, envs: scratch.envs(), cwd: scratch.dir.clone() };
        Gateway::launch(&scratch.dir, how).await
    }
}

/// A unique marker for command lines (to find a test's processes in /proc).
pub fn marker(test: &str) -> String {
    format!("mk-{test}-{}-{}", std::process::id(), super::scratch::unique())
}

/// The `_meta["tdqs-gateway/score"]` object of a listed tool.
pub fn score_of(tool: &Value) -> Option<&Value> {
    tool.get("_meta")?.get("tdqs-gateway/score")
}

/// Names of the tools in a `list` step of a client's output.
pub fn tool_names(tools: &[Value]) -> Vec<String> {
    tools.iter().filter_map(|t| t["name"].as_str().map(str::to_owned)).collect()
}

/// A minimum score that splits mcp-server-git's tools in two under the heuristic judge: their
/// terse descriptions score 1.8-2.9 under `heuristic-9`, so the default minimum (3.0) would hide
/// every one of them and leave nothing to tell hiding from an empty list.
pub const GIT_MIN_SCORE: f64 = 2.6;

/// Asserts every tool carries a score object in `_meta` with a number and a tier.
pub fn assert_scored(tools: &[Value], what: &str) {
    assert!(!tools.is_empty(), "{what}: no tools listed");
    for t in tools {
        let s = score_of(t).unwrap_or_else(|| panic!("{what}: tool {} has no score in _meta: {t}", t["name"]));
        let tdqs = s["tdqs"].as_f64().unwrap_or(-1.0);
        assert!((0.0..=5.0).contains(&tdqs), "{what}: {} has tdqs {tdqs}", t["name"]);
        assert!(matches!(s["tier"].as_str(), Some("A" | "B" | "C" | "D")), "{what}: {} tier {}", t["name"], s["tier"]);
    }
}

/// A client's steps of one kind (`list`, `call`, ...).
pub fn steps<'a>(out: &'a Value, op: &str) -> Vec<&'a Value> {
    out["steps"].as_array().map(|s| s.iter().filter(|s| s["op"] == op).collect()).unwrap_or_default()
}

/// The tools of the `i`-th list step.
pub fn listed(out: &Value, i: usize) -> Vec<Value> {
    steps(out, "list").get(i).and_then(|s| s["tools"].as_array().cloned()).unwrap_or_default()
}
