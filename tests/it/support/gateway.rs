//! The one way the tests start the gateway binary: `tdqs-gateway serve` on a config written for
//! the test with `[listen] addr = "127.0.0.1:0"`, so the kernel picks a free port and no two
//! tests race for one; the bound address is read back from the gateway's "listening" log line
//! (text or JSON logs alike). Held by a [`Proc`], so SIGTERM stops it the way a container
//! runtime would, and the process group goes with the guard.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use super::paths::gateway_bin;
use super::patience::poll;
use super::process::Proc;
use super::procs;

/// How long a process may take to become ready (Python imports are slow on a busy machine);
/// scaled by the patience factor where it is waited for.
pub const READY_TIMEOUT: Duration = Duration::from_secs(45);

/// What to start: everything but the scratch folder.
pub struct Launch<'a> {
    /// Stem of the config and log files (`<name>.toml`, `<name>.err`).
    pub name: &'a str,
    /// More `[listen]` keys (TOML lines), after the address.
    pub listen: &'a str,
    /// The rest of the config (policy, judge, upstreams; no `[listen]` table).
    pub config: &'a str,
    /// `--log-format json` (for tests that read log fields) instead of text.
    pub json_logs: bool,
    pub envs: Vec<(String, String)>,
    /// The gateway's working folder.
    pub cwd: PathBuf,
}

/// A running `tdqs-gateway serve`, the tests' one gateway type: started by [`Gateway::launch`]
/// or by the starters of the two vocabularies on top of it (`Gateway::start`, `start_with_env`
/// and `single` in [`super::rig`]; `Gateway::start_in` in [`super::stdio`]).
pub struct Gateway {
    pub proc: Proc,
    pub addr: SocketAddr,
    /// The config file it was started with.
    pub config: PathBuf,
}

impl Gateway {
    /// Writes the config into `dir`, starts the gateway and waits until it listens.
    pub async fn launch(dir: &Path, how: Launch<'_>) -> Gateway {
        let path = dir.join(format!("{}.toml", how.name));
        // `{{GATEWAY}}` in the config stands for the gateway's own base URL (a test of `[auth]`
        // names it as the resource): then the port is chosen here rather than by the kernel.
        let (addr, config) = if how.config.contains("{{GATEWAY}}") {
            let port = super::rig::free_port();
            (format!("127.0.0.1:{port}"), how.config.replace("{{GATEWAY}}", &format!("http://127.0.0.1:{port}")))
        } else {
            ("127.0.0.1:0".to_owned(), how.config.to_owned())
        };
        let text = format!("[listen]\naddr = \"{addr}\"\n{}\n\n{config}\n", how.listen);
        std::fs::write(&path, text).expect("write config");
        let mut cmd = Command::new(gateway_bin());
        cmd.arg("serve").arg("--config").arg(&path);
        if how.json_logs {
            cmd.args(["--log-format", "json"]);
        }
        cmd.env("TDQS_LOG", "info,tdqs_gateway=debug").envs(how.envs).current_dir(&how.cwd).stdin(Stdio::null());
        let mut proc = Proc::command(dir, how.name, cmd);
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

    pub fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `http://ADDR/mcp/<upstream>`.
    pub fn url(&self, upstream: &str) -> String {
        format!("http://{}/mcp/{upstream}", self.addr)
    }

    /// `http://ADDR/mcp/<upstream>` (the stdio tests' name).
    pub fn mcp_url(&self, upstream: &str) -> String {
        self.url(upstream)
    }

    /// `http://ADDR/sse/<upstream>`.
    pub fn sse_url(&self, upstream: &str) -> String {
        format!("http://{}/sse/{upstream}", self.addr)
    }

    /// The last lines of its logs, for failure messages.
    pub fn logs(&self) -> String {
        self.proc.logs()
    }

    /// Its whole log (stderr) so far.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.proc.err).unwrap_or_default()
    }

    pub fn pid(&self) -> i32 {
        self.proc.pid
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
}

/// The gateway binary of this build as a command, its stdin closed, for one that must end by
/// itself (a `serve` that refuses its config, `check-config`, ...): give it its arguments and
/// environment and run it with [`super::process::run_to_exit`], under the one process guard.
pub fn command() -> Command {
    let mut cmd = Command::new(gateway_bin());
    cmd.stdin(Stdio::null());
    cmd
}

/// The address of the "tdqs-gateway listening; MCP endpoints at http://ADDR/mcp/..." line,
/// found the same way in a text or a JSON log.
pub fn listening_addr(log: &Path) -> Option<SocketAddr> {
    let text = std::fs::read_to_string(log).ok()?;
    text.lines().filter(|l| l.contains("tdqs-gateway listening")).find_map(|l| {
        let at = &l[l.find("MCP endpoints at ")? + "MCP endpoints at ".len()..];
        let rest = at.strip_prefix("http://").or_else(|| at.strip_prefix("https://"))?;
        rest[..rest.find('/')?].parse().ok()
    })
}
