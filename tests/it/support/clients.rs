//! The real SDK clients the tests drive the gateway with: the gateway rig's
//! (`tests/rig/py_client.py`, `ts_client.mjs`: arguments in, one JSON object out) and the stdio
//! rig's (`tests/stdio_rig/sdk_client.py`, `ts_client.mjs`: run under a [`Guarded`] with logs in
//! the scratch folder). Each prints one JSON object last on stdout, which is what they return.

use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use super::paths::{node, python, python2, rig_dir, root, stdio_rig};
use super::patience::{poll, scaled};
use super::process::Guarded;
use super::scratch::Scratch;

pub async fn run_client(mut cmd: tokio::process::Command, what: &str) -> Value {
    cmd.current_dir(root())
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .kill_on_drop(true)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = cmd.spawn().unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
    let out = tokio::time::timeout(scaled(Duration::from_secs(90)), child.wait_with_output())
        .await
        .unwrap_or_else(|_| panic!("{what} timed out"))
        .expect("client output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stdout.lines().rev().find(|l| l.starts_with('{'));
    match line.map(serde_json::from_str::<Value>) {
        Some(Ok(v)) => {
            assert!(v.get("fatal").is_none(), "{what} failed: {}\nstderr:\n{stderr}", v["fatal"]);
            v
        }
        _ => panic!("{what} failed ({}):\nstdout:\n{stdout}\nstderr:\n{stderr}", out.status),
    }
}

/// Runs `tests/rig/py_client.py` (the Python SDK client) and returns what it printed.
pub async fn rig_py_client(args: &[&str]) -> Value {
    let mut cmd = tokio::process::Command::new(python());
    cmd.arg(rig_dir().join("py_client.py")).args(args);
    run_client(cmd, &format!("py_client {args:?}")).await
}

/// Runs `tests/rig/ts_client.mjs` (the TypeScript SDK client) and returns what it printed.
pub async fn rig_ts_client(args: &[&str]) -> Value {
    let mut cmd = tokio::process::Command::new(node());
    cmd.arg(rig_dir().join("ts_client.mjs")).args(args);
    run_client(cmd, &format!("ts_client {args:?}")).await
}

/// Runs `tests/rig/py2_client.py` (the Python SDK 2.x client) and returns what it printed.
pub async fn rig_py2_client(args: &[&str]) -> Value {
    let mut cmd = tokio::process::Command::new(python2());
    cmd.arg(rig_dir().join("py2_client.py")).args(args);
    run_client(cmd, &format!("py2_client {args:?}")).await
}

/// Runs `tests/rig/ts2_client.mjs` (the TypeScript SDK 2.x client) and returns what it printed.
pub async fn rig_ts2_client(args: &[&str]) -> Value {
    let mut cmd = tokio::process::Command::new(node());
    cmd.arg(rig_dir().join("ts2_client.mjs")).args(args);
    run_client(cmd, &format!("ts2_client {args:?}")).await
}

/// Runs a client script to completion (killed, with what it started, after `timeout`) and
/// returns the JSON object it printed last on stdout.
pub async fn run_json(scratch: &Scratch, name: &str, mut cmd: Command, timeout: Duration) -> Value {
    super::stdio::require_deps();
    cmd.envs(scratch.envs()).stdin(Stdio::null()).current_dir(root());
    let mut proc = Guarded::spawn(&scratch.dir, name, cmd, None);
    let status = poll(timeout, || proc.exited()).await;
    let Some(status) = status else {
        panic!("{name} did not finish within {timeout:?}\n{}", proc.logs());
    };
    let out = std::fs::read_to_string(&proc.out).unwrap_or_default();
    let last = out.lines().rev().find(|l| l.trim_start().starts_with('{'));
    match (status.success(), last.and_then(|l| serde_json::from_str::<Value>(l).ok())) {
        (true, Some(v)) => v,
        _ => panic!("{name} failed ({status})\n{}", proc.logs()),
    }
}

/// `python tests/stdio_rig/sdk_client.py ARGS...`
pub async fn stdio_py_client(scratch: &Scratch, name: &str, args: Vec<String>) -> Value {
    let mut cmd = Command::new(python());
    cmd.arg(stdio_rig("sdk_client.py")).args(args);
    run_json(scratch, name, cmd, Duration::from_secs(120)).await
}

/// `node tests/stdio_rig/ts_client.mjs ARGS...`
pub async fn stdio_ts_client(scratch: &Scratch, name: &str, args: Vec<String>) -> Value {
    let mut cmd = Command::new(node());
    cmd.arg(stdio_rig("ts_client.mjs")).args(args);
    run_json(scratch, name, cmd, Duration::from_secs(120)).await
}
