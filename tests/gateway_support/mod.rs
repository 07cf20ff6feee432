//! Shared helpers of the gateway integration tests (`tests/gateway_*.rs`), included by each one
//! with `#[path = "gateway_support/mod.rs"] mod support;`.
//!
//! A test builds a [`Rig`] (a scratch folder for configs and logs), starts real upstreams
//! ([`Upstream`]: the rig's Python SDK servers in `tests/rig/`, or server-everything from
//! `tests/node/node_modules`), starts the gateway binary on them ([`Gateway`]) and talks to both
//! with a raw HTTP client ([`http::Mcp`]) or with the real SDK clients ([`py_client`],
//! [`ts_client`]). Every process is started through `tests/rig/reaper.py` and held by a [`Proc`]
//! whose `Drop` ends it, so a panicking test leaves nothing behind; a test process that dies
//! outright closes the reapers' stdin, which ends them too. Readiness is polled, never slept on.
//!
//! What the tests need is installed by `scripts/test-deps.sh` (`.venv-mcp/`, `tests/node/`).

#![allow(dead_code)]

pub mod http;
pub mod meta;
pub mod tap;

use std::fs::File;
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long a process may take to become ready (Python imports are slow on a loaded machine).
const READY_TIMEOUT: Duration = Duration::from_secs(45);

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn rig_dir() -> PathBuf {
    root().join("tests/rig")
}

/// The Python of `.venv-mcp` (the `mcp` 1.30 SDK).
pub fn python() -> PathBuf {
    root().join(".venv-mcp/bin/python")
}

pub fn node_modules() -> PathBuf {
    root().join("tests/node/node_modules")
}

/// `node` from PATH.
pub fn node() -> PathBuf {
    PathBuf::from("node")
}

fn require_rig() {
    let missing: Vec<String> = [python(), node_modules().join("@modelcontextprotocol/server-everything")]
        .into_iter()
        .filter(|p| !p.exists())
        .map(|p| p.display().to_string())
        .collect();
    assert!(missing.is_empty(), "test rig missing ({}); run scripts/test-deps.sh", missing.join(", "));
}

/// A free loopback port (the kernel's choice; a process started on it right after rarely loses
/// the race, and the starters retry when one does).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("bind 127.0.0.1:0")
}

/// A running child process (through the reaper), with its output in log files.
pub struct Proc {
    pub name: String,
    child: Option<Child>,
    stdin: Option<ChildStdin>,
    pub out: PathBuf,
    pub err: PathBuf,
}

impl Proc {
    pub fn spawn(dir: &Path, name: &str, program: &Path, args: &[String], envs: &[(&str, String)]) -> Proc {
        let out = dir.join(format!("{name}.out"));
        let err = dir.join(format!("{name}.err"));
        let mut cmd = Command::new(python());
        cmd.arg(rig_dir().join("reaper.py"))
            .arg(program)
            .args(args)
            .current_dir(root())
            .env("PYTHONDONTWRITEBYTECODE", "1") // no __pycache__ in tests/rig
            .stdin(Stdio::piped())
            .stdout(File::create(&out).expect("create log"))
            .stderr(File::create(&err).expect("create log"));
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        let stdin = child.stdin.take();
        Proc { name: name.to_owned(), child: Some(child), stdin, out, err }
    }

    /// The exit status, if the process has ended.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.child.as_mut().and_then(|c| c.try_wait().ok().flatten())
    }

    pub fn stdout_text(&self) -> String {
        std::fs::read_to_string(&self.out).unwrap_or_default()
    }

    /// The last lines of both logs, for failure messages.
    pub fn logs(&self) -> String {
        let tail = |p: &Path| {
            let text = std::fs::read_to_string(p).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            lines[lines.len().saturating_sub(40)..].join("\n")
        };
        format!("--- {} stdout\n{}\n--- {} stderr\n{}", self.name, tail(&self.out), self.name, tail(&self.err))
    }

    /// Ends the process: closing its stdin makes the reaper end the whole process group.
    pub fn stop(&mut self) {
        drop(self.stdin.take());
        let Some(mut child) = self.child.take() else { return };
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.stop();
    }
}

static RIG_COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A scratch folder for one test's configs and logs, removed at the end unless the test failed
/// (then the log tails of every process are printed and the folder is kept).
pub struct Rig {
    pub dir: PathBuf,
    /// Gateways started so far (each gets its own config and log names).
    gateways: AtomicUsize,
    procs_logs: std::sync::Mutex<Vec<(PathBuf, PathBuf, String)>>,
}

impl Rig {
    pub fn new(test: &str) -> Rig {
        require_rig();
        let n = RIG_COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir =
            PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("gateway-tests/{test}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create rig folder");
        Rig { dir, gateways: AtomicUsize::new(0), procs_logs: Default::default() }
    }

    pub fn note(&self, p: &Proc) {
        self.procs_logs.lock().unwrap().push((p.out.clone(), p.err.clone(), p.name.clone()));
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

impl Drop for Rig {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let logs = self.procs_logs.lock().map(|l| l.clone()).unwrap_or_default();
            for (out, err, name) in logs {
                for (kind, p) in [("stdout", out), ("stderr", err)] {
                    let text = std::fs::read_to_string(&p).unwrap_or_default();
                    let lines: Vec<&str> = text.lines().collect();
                    let tail = lines[lines.len().saturating_sub(30)..].join("\n");
                    eprintln!("----- {name} {kind} ({}):\n{tail}", p.display());
                }
            }
            eprintln!("rig folder kept: {}", self.dir.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// Polls `check` every 25 ms until it returns `Some`, the process exits, or the time is up.
pub async fn poll_ready<T, F, Fut>(proc: &mut Proc, what: &str, mut check: F) -> Option<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = Instant::now() + READY_TIMEOUT;
    loop {
        if let Some(v) = check().await {
            return Some(v);
        }
        if proc.exited().is_some() {
            return None;
        }
        assert!(Instant::now() < deadline, "{what} not ready after {READY_TIMEOUT:?}\n{}", proc.logs());
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// An MCP server the gateway fronts.
pub struct Upstream {
    pub proc: Proc,
    pub port: u16,
    http: reqwest::Client,
}

impl Upstream {
    /// The MCP endpoint.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }

    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// A rig Python server (`tests/rig/<script>`), on the port it announces.
    pub async fn python(rig: &Rig, name: &str, script: &str, args: &[&str]) -> Upstream {
        let mut argv = vec![rig_dir().join(script).display().to_string()];
        argv.extend(args.iter().map(|s| s.to_string()));
        let mut proc = Proc::spawn(&rig.dir, name, &python(), &argv, &[]);
        rig.note(&proc);
        let out = proc.out.clone();
        let port = poll_ready(&mut proc, name, || {
            let out = out.clone();
            async move {
                let text = std::fs::read_to_string(&out).ok()?;
                text.lines().find_map(|l| l.strip_prefix("LISTENING ")).and_then(|p| p.trim().parse::<u16>().ok())
            }
        })
        .await
        .unwrap_or_else(|| panic!("{name} exited before listening\n{}", proc.logs()));
        Upstream { proc, port, http: reqwest::Client::new() }
    }

    /// The FastMCP server: stateful SSE by default; `--stateless` for JSON answers; `--gzip`.
    pub async fn fastmcp(rig: &Rig, args: &[&str]) -> Upstream {
        Upstream::python(rig, "fastmcp", "fastmcp_server.py", args).await
    }

    /// The low-level server with a three-page `tools/list`; `--json` for JSON answers.
    pub async fn paginated(rig: &Rig, args: &[&str]) -> Upstream {
        Upstream::python(rig, "paginated", "paginated_server.py", args).await
    }

    /// The rig's server implementing the conformance suite's fixtures.
    pub async fn conformance(rig: &Rig) -> Upstream {
        Upstream::python(rig, "conformance-server", "conformance_server.py", &[]).await
    }

    /// The rig's stateless 2026-07-28 server implementing the alpha suite's fixtures; `name`
    /// tells its logs apart from other instances'.
    pub async fn conformance_2026(rig: &Rig, name: &str) -> Upstream {
        Upstream::python(rig, name, "conformance_2026_server.py", &[]).await
    }

    /// server-everything 2026.8.31 over Streamable HTTP (stateful, SSE answers, resumable).
    pub async fn everything(rig: &Rig) -> Upstream {
        let script = node_modules().join("@modelcontextprotocol/server-everything/dist/index.js");
        for attempt in 0..5 {
            let port = free_port();
            let name = format!("everything{}", if attempt == 0 { String::new() } else { format!("-{attempt}") });
            let mut proc = Proc::spawn(
                &rig.dir,
                &name,
                &node(),
                &[script.display().to_string(), "streamableHttp".into()],
                &[("PORT", port.to_string())],
            );
            rig.note(&proc);
            let http = reqwest::Client::new();
            let url = format!("http://127.0.0.1:{port}/mcp");
            // A GET without a session gets server-everything's own 400 once it listens.
            let ready = poll_ready(&mut proc, "server-everything", || {
                let (http, url) = (http.clone(), url.clone());
                async move {
                    let resp = http.get(&url).send().await.ok()?;
                    let text = resp.text().await.ok()?;
                    text.contains("No valid session ID").then_some(())
                }
            })
            .await;
            if ready.is_some() && proc.exited().is_none() {
                return Upstream { proc, port, http };
            }
        }
        panic!("server-everything would not start");
    }

    /// What the rig Python server received so far (see `tests/rig/rig_common.py`).
    pub async fn received(&self) -> Vec<Value> {
        let r = self.http.get(format!("{}/_rig/received", self.base())).send().await.expect("rig record");
        r.json().await.expect("rig record JSON")
    }

    pub async fn reset(&self) {
        self.http.post(format!("{}/_rig/reset", self.base())).send().await.expect("rig reset");
    }

    /// Every `tools/call` the server received, by tool name.
    pub async fn calls_received(&self) -> Vec<String> {
        self.received()
            .await
            .iter()
            .flat_map(|e| e["messages"].as_array().cloned().unwrap_or_default())
            .filter(|m| m["method"] == "tools/call")
            .map(|m| m["tool"].as_str().unwrap_or_default().to_owned())
            .collect()
    }
}

/// The gateway binary, serving a config written for the test.
pub struct Gateway {
    pub proc: Proc,
    pub addr: SocketAddr,
    /// The config file it was started with.
    pub config: PathBuf,
}

impl Gateway {
    /// Starts `tdqs-gateway serve --config` with `[listen] addr` on a free port followed by
    /// `listen_extra` (more `[listen]` keys), then `config` (policy, judge, upstreams; no
    /// `[listen]` table; `{{GATEWAY}}` in it becomes the gateway's base URL). Ready once
    /// `/healthz` answers.
    pub async fn start(rig: &Rig, listen_extra: &str, config: &str) -> Gateway {
        Gateway::start_with_env(rig, listen_extra, config, &[]).await
    }

    /// Like [`start`](Self::start), with extra environment variables for the gateway process.
    pub async fn start_with_env(rig: &Rig, listen_extra: &str, config: &str, env: &[(&str, &str)]) -> Gateway {
        for _ in 0..5 {
            let port = free_port();
            // `{{GATEWAY}}` in the config stands for the gateway's own base URL.
            let config = config.replace("{{GATEWAY}}", &format!("http://127.0.0.1:{port}"));
            let text = format!("[listen]\naddr = \"127.0.0.1:{port}\"\n{listen_extra}\n\n{config}\n");
            let n = rig.gateways.fetch_add(1, Ordering::Relaxed);
            let name = if n == 0 { "gateway".to_owned() } else { format!("gateway-{n}") };
            let path = rig.path(&format!("{name}.toml"));
            std::fs::write(&path, text).expect("write config");
            let bin = PathBuf::from(env!("CARGO_BIN_EXE_tdqs-gateway"));
            let mut proc = Proc::spawn(
                &rig.dir,
                &name,
                &bin,
                &["serve".into(), "--config".into(), path.display().to_string()],
                &std::iter::once(("TDQS_LOG", "tdqs_gateway=debug,info".to_owned()))
                    .chain(env.iter().map(|(k, v)| (*k, v.to_string())))
                    .collect::<Vec<_>>(),
            );
            rig.note(&proc);
            let http = reqwest::Client::new();
            let health = format!("http://127.0.0.1:{port}/healthz");
            let ready = poll_ready(&mut proc, "gateway", || {
                let (http, health) = (http.clone(), health.clone());
                async move { http.get(&health).send().await.ok().filter(|r| r.status() == 200).map(|_| ()) }
            })
            .await;
            if ready.is_some() && proc.exited().is_none() {
                return Gateway { proc, addr: SocketAddr::from(([127, 0, 0, 1], port)), config: path };
            }
            let logs = proc.logs();
            assert!(logs.contains("cannot listen"), "gateway exited at start:\n{logs}");
        }
        panic!("gateway would not start");
    }

    /// One upstream with a policy given as TOML lines of `[policy]`.
    pub async fn single(rig: &Rig, name: &str, url: &str, policy: &str) -> Gateway {
        let config = format!("[policy]\n{policy}\n\n[[upstream]]\nname = \"{name}\"\nurl = \"{url}\"\n");
        Gateway::start(rig, "", &config).await
    }

    pub fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn url(&self, upstream: &str) -> String {
        format!("http://{}/mcp/{upstream}", self.addr)
    }

    pub fn logs(&self) -> String {
        self.proc.logs()
    }
}

pub async fn run_client(mut cmd: tokio::process::Command, what: &str) -> Value {
    cmd.current_dir(root())
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .kill_on_drop(true)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = cmd.spawn().unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
    let out = tokio::time::timeout(Duration::from_secs(90), child.wait_with_output())
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
pub async fn py_client(args: &[&str]) -> Value {
    let mut cmd = tokio::process::Command::new(python());
    cmd.arg(rig_dir().join("py_client.py")).args(args);
    run_client(cmd, &format!("py_client {args:?}")).await
}

/// Runs `tests/rig/ts_client.mjs` (the TypeScript SDK client) and returns what it printed.
pub async fn ts_client(args: &[&str]) -> Value {
    let mut cmd = tokio::process::Command::new(node());
    cmd.arg(rig_dir().join("ts_client.mjs")).args(args);
    run_client(cmd, &format!("ts_client {args:?}")).await
}

/// `tdqs-gateway score --format json` on a `tools/list` result (the same definitions scored by
/// the command line, not the proxy), by tool name.
pub fn cli_scores(rig: &Rig, result: &Value) -> serde_json::Map<String, Value> {
    let file = rig.path("cli-tools.json");
    std::fs::write(&file, serde_json::to_vec(result).unwrap()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tdqs-gateway"))
        .args(["score", "--format", "json", "--file"])
        .arg(&file)
        .output()
        .expect("run tdqs-gateway score");
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("score output ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    report["tools"]
        .as_array()
        .expect("score tools")
        .iter()
        .map(|t| (t["name"].as_str().unwrap().to_owned(), t.clone()))
        .collect()
}

/// Names of the tools whose command-line score is below `minimum` (what enforce should hide).
pub fn below(scores: &serde_json::Map<String, Value>, minimum: f64) -> Vec<String> {
    scores.iter().filter(|(_, t)| t["tdqs"].as_f64().unwrap() < minimum - 1e-9).map(|(n, _)| n.clone()).collect()
}
