//! Shared helpers of the stdio and legacy integration tests (`tests/stdio_*.rs`,
//! `tests/legacy_*.rs`), included by each with `#[path = "stdio_support/mod.rs"] mod support;`.
//!
//! Everything runs for real: the gateway binary, real MCP servers (mcp-server-time,
//! mcp-server-git, server-everything) and our misbehaving ones (`tests/stdio_rig/bad_server.py`),
//! and real SDK clients (`tests/stdio_rig/sdk_client.py`, `ts_client.mjs`). Every process a test
//! starts is held by a guard whose `Drop` kills it (and what it started) even when the test
//! panics, and is started with `PR_SET_PDEATHSIG` so it dies with the test process if that is
//! killed outright. Readiness is polled, never slept on.
//!
//! Installed by `scripts/test-deps-stdio.sh`: `.venv-mcp/` (mcp 1.30, mcp-server-time,
//! mcp-server-git) and `tests/node/node_modules` (server-everything, the TypeScript SDK).

#![allow(dead_code)]

#[path = "../support/eventually.rs"]
pub mod eventually;

pub mod http;
pub mod procs;

use std::fs::File;
use std::net::SocketAddr;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;
use serde_json::Value;

/// How long a process may take to become ready (Python imports are slow on a busy machine).
pub const READY_TIMEOUT: Duration = Duration::from_secs(45);

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A file in `tests/stdio_rig/`.
pub fn rig(name: &str) -> PathBuf {
    root().join("tests/stdio_rig").join(name)
}

/// The Python of `.venv-mcp` (the `mcp` 1.30 SDK, mcp-server-time, mcp-server-git).
pub fn python() -> PathBuf {
    root().join(".venv-mcp/bin/python")
}

/// A console script installed in `.venv-mcp` (e.g. `mcp-server-time`).
pub fn venv_bin(name: &str) -> PathBuf {
    root().join(".venv-mcp/bin").join(name)
}

/// server-everything's entry point (`node ... stdio|sse|streamableHttp`).
pub fn everything_js() -> PathBuf {
    root().join("tests/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
}

pub fn gateway_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tdqs-gateway"))
}

/// `node` from PATH.
pub fn node() -> PathBuf {
    PathBuf::from("node")
}

/// Fails with the installer's name when something the tests run is missing.
pub fn require_deps() {
    let needed = [
        python(),
        venv_bin("mcp-server-time"),
        venv_bin("mcp-server-git"),
        everything_js(),
        root().join("tests/node/node_modules/@modelcontextprotocol/sdk/package.json"),
    ];
    let missing: Vec<String> = needed.iter().filter(|p| !p.exists()).map(|p| p.display().to_string()).collect();
    assert!(missing.is_empty(), "test dependencies missing ({}); run scripts/test-deps-stdio.sh", missing.join(", "));
}

/// Makes `cmd` die with the thread that spawns it (the test's), should the test process be
/// killed before its guards run.
pub fn die_with_parent(cmd: &mut Command) {
    // SAFETY: prctl is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).map_err(std::io::Error::from)?;
            Ok(())
        });
    }
}

static SCRATCH_COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A scratch folder for one test's configs, logs and data, removed at the end unless the test
/// failed (then it is kept and named on stderr).
pub struct Scratch {
    pub dir: PathBuf,
}

impl Scratch {
    pub fn new(test: &str) -> Scratch {
        require_deps();
        let n = SCRATCH_COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir =
            PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("stdio-tests/{test}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create scratch folder");
        Scratch { dir }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The environment every process of this test gets: its own score store.
    pub fn envs(&self) -> Vec<(String, String)> {
        vec![("XDG_DATA_HOME".into(), self.path("xdg").display().to_string())]
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("scratch folder kept: {}", self.dir.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// Last `n` lines of a file, for failure messages.
pub fn tail(path: &Path, n: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// A process that is killed, with its process group and every process it started, on drop.
pub struct Guarded {
    pub name: String,
    child: Option<Child>,
    pub pid: i32,
    /// Ask with this signal first (e.g. SIGINT for the gateway's orderly shutdown).
    polite: Option<Signal>,
    pub out: PathBuf,
    pub err: PathBuf,
}

impl Guarded {
    /// Spawns `cmd` in its own process group, output to `<dir>/<name>.out|.err`.
    pub fn spawn(dir: &Path, name: &str, mut cmd: Command, polite: Option<Signal>) -> Guarded {
        let out = dir.join(format!("{name}.out"));
        let err = dir.join(format!("{name}.err"));
        cmd.stdout(File::create(&out).expect("create log")).stderr(File::create(&err).expect("create log"));
        cmd.process_group(0);
        die_with_parent(&mut cmd);
        let child = cmd.spawn().unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        let pid = child.id() as i32;
        Guarded { name: name.to_owned(), child: Some(child), pid, polite, out, err }
    }

    /// Wraps a child spawned elsewhere (e.g. with piped stdio).
    pub fn adopt(name: &str, child: Child, polite: Option<Signal>) -> Guarded {
        let pid = child.id() as i32;
        Guarded { name: name.to_owned(), child: Some(child), pid, polite, out: PathBuf::new(), err: PathBuf::new() }
    }

    pub fn child_mut(&mut self) -> &mut Child {
        self.child.as_mut().expect("process already stopped")
    }

    /// The exit status, if the process has ended (reaping it).
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.child.as_mut().and_then(|c| c.try_wait().ok().flatten())
    }

    /// Waits up to `timeout` for the process to end by itself.
    pub fn wait_timeout(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(s) = self.exited() {
                return Some(s);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    pub fn logs(&self) -> String {
        format!("--- {} stdout\n{}\n--- {} stderr\n{}", self.name, tail(&self.out, 40), self.name, tail(&self.err, 60))
    }

    /// Stops the process and everything it started.
    pub fn stop(&mut self) {
        let Some(mut child) = self.child.take() else { return };
        let descendants = procs::descendants(self.pid);
        if child.try_wait().ok().flatten().is_none() {
            if let Some(sig) = self.polite {
                let _ = kill(Pid::from_raw(self.pid), sig);
                let deadline = Instant::now() + Duration::from_secs(4);
                while Instant::now() < deadline && child.try_wait().ok().flatten().is_none() {
                    std::thread::sleep(Duration::from_millis(10));
                }
            }
            let _ = killpg(Pid::from_raw(self.pid), Signal::SIGKILL);
            let _ = child.kill();
        }
        let _ = child.wait();
        for p in descendants {
            if procs::alive(p.pid) {
                let _ = killpg(Pid::from_raw(p.pid), Signal::SIGKILL);
                let _ = kill(Pid::from_raw(p.pid), Signal::SIGKILL);
            }
        }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        if std::thread::panicking() && !self.err.as_os_str().is_empty() {
            eprintln!("{}", self.logs());
        }
        self.stop();
    }
}

/// Polls `check` every 20 ms until it returns `Some` or `timeout` passes.
pub async fn poll<T>(timeout: Duration, mut check: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(v) = check() {
            return Some(v);
        }
        if Instant::now() >= deadline {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A running `tdqs-gateway serve`.
pub struct Gateway {
    pub proc: Guarded,
    pub addr: SocketAddr,
    pub config: PathBuf,
}

impl Gateway {
    /// Starts `serve` with `config` (TOML, without a `[listen]` table: the gateway listens on a
    /// port of the kernel's choice, read back from its log) and waits until it listens.
    pub async fn start(scratch: &Scratch, name: &str, config: &str) -> Gateway {
        let path = scratch.path(&format!("{name}.toml"));
        std::fs::write(&path, format!("[listen]\naddr = \"127.0.0.1:0\"\n\n{config}")).expect("write config");
        let mut cmd = Command::new(gateway_bin());
        cmd.arg("serve")
            .arg("--config")
            .arg(&path)
            .arg("--log-format")
            .arg("json")
            .env("TDQS_LOG", "info,tdqs_gateway=debug")
            .envs(scratch.envs())
            .current_dir(&scratch.dir)
            .stdin(Stdio::null());
        let mut proc = Guarded::spawn(&scratch.dir, name, cmd, Some(Signal::SIGINT));
        let err = proc.err.clone();
        let mut exited = false;
        let addr = poll(READY_TIMEOUT, || {
            if proc.exited().is_some() {
                exited = true;
                return Some(None);
            }
            listening_addr(&err).map(Some)
        })
        .await
        .flatten();
        match addr {
            Some(addr) => Gateway { proc, addr, config: path },
            None => panic!("the gateway did not start (exited: {exited})\n{}", proc.logs()),
        }
    }

    pub fn pid(&self) -> i32 {
        self.proc.pid
    }

    /// `http://ADDR/mcp/<upstream>`.
    pub fn mcp_url(&self, upstream: &str) -> String {
        format!("http://{}/mcp/{upstream}", self.addr)
    }

    /// `http://ADDR/sse/<upstream>`.
    pub fn sse_url(&self, upstream: &str) -> String {
        format!("http://{}/sse/{upstream}", self.addr)
    }

    /// The gateway's direct children (the stdio servers), zombies included.
    pub fn children(&self) -> Vec<procs::ProcInfo> {
        procs::children(self.pid())
    }

    /// Live (not zombie) children.
    pub fn live_children(&self) -> Vec<procs::ProcInfo> {
        self.children().into_iter().filter(|p| p.state != 'Z').collect()
    }

    /// Waits until the gateway has exactly `n` live children (and no zombie); panics with the
    /// process list otherwise.
    pub async fn expect_children(&self, n: usize, timeout: Duration, why: &str) {
        let ok = poll(timeout, || {
            let c = self.children();
            (c.len() == n && c.iter().all(|p| p.state != 'Z')).then_some(())
        })
        .await;
        assert!(ok.is_some(), "{why}: expected {n} children of the gateway, found {:#?}", self.children());
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.proc.err).unwrap_or_default()
    }
}

/// The address in the gateway's "listening" JSON log line.
fn listening_addr(log: &Path) -> Option<SocketAddr> {
    let text = std::fs::read_to_string(log).ok()?;
    text.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()).find_map(|v| {
        let f = v.get("fields")?;
        f.get("message")?.as_str()?.contains("listening").then_some(())?;
        f.get("addr")?.as_str()?.parse().ok()
    })
}

/// Runs a client script to completion (killed, with what it started, after `timeout`) and
/// returns the JSON object it printed last on stdout.
pub async fn run_json(scratch: &Scratch, name: &str, mut cmd: Command, timeout: Duration) -> Value {
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
pub async fn py_client(scratch: &Scratch, name: &str, args: Vec<String>) -> Value {
    let mut cmd = Command::new(python());
    cmd.arg(rig("sdk_client.py")).args(args);
    run_json(scratch, name, cmd, Duration::from_secs(120)).await
}

/// `node tests/stdio_rig/ts_client.mjs ARGS...`
pub async fn ts_client(scratch: &Scratch, name: &str, args: Vec<String>) -> Value {
    let mut cmd = Command::new(node());
    cmd.arg(rig("ts_client.mjs")).args(args);
    run_json(scratch, name, cmd, Duration::from_secs(120)).await
}

/// A unique marker for command lines (to find a test's processes in /proc).
pub fn marker(test: &str) -> String {
    format!("mk-{test}-{}-{}", std::process::id(), SCRATCH_COUNTER.fetch_add(1, Ordering::Relaxed))
}

/// The `_meta["tdqs-gateway/score"]` object of a listed tool.
pub fn score_of(tool: &Value) -> Option<&Value> {
    tool.get("_meta")?.get("tdqs-gateway/score")
}

/// Names of the tools in a `list` step of a client's output.
pub fn tool_names(tools: &[Value]) -> Vec<String> {
    tools.iter().filter_map(|t| t["name"].as_str().map(str::to_owned)).collect()
}

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
