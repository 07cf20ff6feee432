//! The gateway tests' vocabulary: a test builds a [`Rig`] (a scratch folder), starts real
//! upstreams ([`Upstream`]: the rig's Python SDK servers in `tests/rig/`, or server-everything
//! from `tests/node/node_modules`), starts the gateway binary on them ([`Gateway`]) and talks to both
//! with the raw client ([`http::Mcp`]) or with the real SDK clients ([`py_client`],
//! [`ts_client`]). Every process is held by a [`Proc`], whose `Drop` ends its process group.
//! Readiness is polled, never slept on.
//!
//! What the tests need is installed by `scripts/test-deps.sh` (`.venv-mcp/`, `tests/node/`).

use std::net::TcpListener;
use std::ops::Deref;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

pub use super::clients::{
    rig_py_client as py_client, rig_py2_client as py2_client, rig_ts_client as ts_client, rig_ts2_client as ts2_client,
    run_client,
};
pub use super::gateway::{Gateway, Launch, READY_TIMEOUT};
pub use super::mcp as http;
pub use super::paths::{node, node_modules, python, python2, rig_dir, root};
pub use super::process::Proc;
pub use super::scratch::Scratch;
pub use super::{meta, tap};

pub use super::patience::{eventually, eventually_async, patience, poll, poll_async};

fn require_rig() {
    let needed = [python(), node_modules().join("@modelcontextprotocol/server-everything")];
    super::paths::require(&needed, "scripts/test-deps.sh");
}

/// Fails naming the installer when the SDK 2.x rig (`.venv-mcp2`, the TypeScript SDK 2.x
/// packages) is missing.
pub fn require_sdk2() {
    let sdk = node_modules().join("@modelcontextprotocol");
    super::paths::require(
        &[python2(), sdk.join("server/package.json"), sdk.join("client/package.json")],
        "scripts/test-deps.sh",
    );
}

/// A free loopback port (the kernel's choice; a process started on it right after rarely loses
/// the race, and the starters retry when one does).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("bind 127.0.0.1:0")
}

/// A scratch folder for one test's configs and logs (kept, with the process logs printed,
/// when the test fails), which numbers the gateways started in it.
pub struct Rig {
    scratch: Scratch,
    /// Gateways started so far (each gets its own config and log names).
    gateways: AtomicUsize,
}

impl Rig {
    pub fn new(test: &str) -> Rig {
        require_rig();
        Rig { scratch: Scratch::new(test), gateways: AtomicUsize::new(0) }
    }
}

impl Deref for Rig {
    type Target = Scratch;
    fn deref(&self) -> &Scratch {
        &self.scratch
    }
}

/// Polls `check` until it returns `Some`, the process exits, or the ready time is up.
pub async fn poll_ready<T, F, Fut>(proc: &mut Proc, what: &str, mut check: F) -> Option<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let found = poll_async(READY_TIMEOUT, || {
        let exited = proc.exited().is_some();
        let next = check();
        async move { if exited { Some(None) } else { next.await.map(Some) } }
    })
    .await;
    match found {
        Some(v) => v,
        None => panic!("{what} not ready after {READY_TIMEOUT:?} (times the patience)\n{}", proc.logs()),
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
        Upstream::announced(rig, name, &python(), script, args).await
    }

    /// A rig Node server (`tests/rig/<script>`, on the TypeScript SDK), on the port it announces.
    pub async fn node(rig: &Rig, name: &str, script: &str, args: &[&str]) -> Upstream {
        Upstream::announced(rig, name, &node(), script, args).await
    }

    /// A rig server run by `program` (a Python, node) from `tests/rig/<script>`, on the port it
    /// announces with `LISTENING <port>`.
    pub async fn announced(rig: &Rig, name: &str, program: &std::path::Path, script: &str, args: &[&str]) -> Upstream {
        let mut argv = vec![rig_dir().join(script).display().to_string()];
        argv.extend(args.iter().map(|s| s.to_string()));
        let mut proc = Proc::spawn(&rig.dir, name, program, &argv, &[]);
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

    /// The Python SDK 2.x `MCPServer` (both protocol eras on one endpoint; `--json`).
    pub async fn py2(rig: &Rig, args: &[&str]) -> Upstream {
        Upstream::announced(rig, "py2-server", &python2(), "py2_server.py", args).await
    }

    /// The TypeScript SDK 2.x server (`createMcpHandler`: 2026-07-28, and 2025-era requests
    /// served statelessly).
    pub async fn ts2(rig: &Rig) -> Upstream {
        Upstream::announced(rig, "ts2-server", &node(), "ts2_server.mjs", &[]).await
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

impl Gateway {
    /// Starts `tdqs-gateway serve --config` with `[listen]` on port 0 followed by
    /// `listen_extra` (more `[listen]` keys), then `config` (policy, judge, upstreams; no
    /// `[listen]` table).
    pub async fn start(rig: &Rig, listen_extra: &str, config: &str) -> Gateway {
        Gateway::start_with_env(rig, listen_extra, config, &[]).await
    }

    /// Like [`start`](Self::start), with extra environment variables for the gateway process.
    pub async fn start_with_env(rig: &Rig, listen_extra: &str, config: &str, env: &[(&str, &str)]) -> Gateway {
        let n = rig.gateways.fetch_add(1, Ordering::Relaxed);
        let name = if n == 0 { "gateway".to_owned() } else { format!("gateway-{n}") };
        let envs = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let how = Launch { name: &name, listen: listen_extra, config, json_logs: false, envs, cwd: root() };
        Gateway::launch(&rig.dir, how).await
    }

    /// One upstream with a policy given as TOML lines of `[policy]`.
    pub async fn single(rig: &Rig, name: &str, url: &str, policy: &str) -> Gateway {
        let config = format!("[policy]\n{policy}\n\n[[upstream]]\nname = \"{name}\"\nurl = \"{url}\"\n");
        Gateway::start(rig, "", &config).await
    }
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
