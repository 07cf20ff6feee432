//! One stdio MCP server process: launched in its own process group (so `npx` and the node it
//! starts go together), newline-delimited JSON on stdin/stdout, stderr into our log under the
//! upstream's name, and a shutdown that follows the MCP stdio rules: close stdin, then
//! SIGTERM, then SIGKILL, and always reap.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::Mutex;

use crate::settings::expand_env;

/// Longest line read from a server where no tighter limit is configured.
pub const MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// How long each shutdown step waits for the process to leave.
const GRACE: Duration = Duration::from_secs(2);

pub struct ChildProcess {
    pub upstream: String,
    pub pid: Option<u32>,
    stdin: Mutex<Option<ChildStdin>>,
    child: Mutex<Child>,
}

/// What `spawn` hands back: the process and its stdout, read by the session.
pub struct Spawned {
    pub process: ChildProcess,
    pub stdout: BufReader<ChildStdout>,
}

/// How a server is started, settled once when its upstream is set up: the program and its
/// arguments, the environment added to the gateway's with its `${VAR}`s already expanded,
/// and the working folder.
#[derive(Debug, Clone)]
pub struct Launch {
    command: Vec<String>,
    env: BTreeMap<String, String>,
    cwd: Option<PathBuf>,
}

impl Launch {
    /// Expands `env` now, once. Every child of the upstream then gets the values the gateway's
    /// environment had when the upstream was set up: a variable changed or unset after start
    /// does not silently change what later children run with, and a spawn expands (and can
    /// fail on) nothing. The config check named any unset variable at start; this is the
    /// expansion it checked. An error names the key (`env KEY: ...`).
    pub fn new(command: Vec<String>, env: &BTreeMap<String, String>, cwd: Option<PathBuf>) -> Result<Launch, String> {
        let env = env
            .iter()
            .map(|(k, v)| Ok((k.clone(), expand_env(v).map_err(|e| format!("env {k}: {e}"))?)))
            .collect::<Result<_, String>>()?;
        Ok(Launch { command, env, cwd })
    }

    /// `command` run with the gateway's own environment and working folder, nothing added.
    pub fn command(command: Vec<String>) -> Launch {
        Launch { command, env: BTreeMap::new(), cwd: None }
    }
}

/// Launches a server as `launch` says, in its own process group.
pub fn spawn(upstream: &str, launch: &Launch) -> std::io::Result<Spawned> {
    let (program, args) = launch.command.split_first().ok_or_else(|| std::io::Error::other("empty command"))?;
    let mut cmd = Command::new(program);
    cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).kill_on_drop(true);
    cmd.process_group(0);
    cmd.envs(&launch.env);
    if let Some(dir) = &launch.cwd {
        cmd.current_dir(dir);
    }
    let mut child = cmd.spawn().map_err(|e| std::io::Error::new(e.kind(), format!("cannot start {program}: {e}")))?;
    let stdin = child.stdin.take();
    let stdout = child.stdout.take().ok_or_else(|| std::io::Error::other("no stdout"))?;
    if let Some(stderr) = child.stderr.take() {
        let name = upstream.to_owned();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                tracing::info!(target: "tdqs_gateway::upstream_stderr", upstream = %name, "{line}");
            }
        });
    }
    let pid = child.id();
    let process =
        ChildProcess { upstream: upstream.to_owned(), pid, stdin: Mutex::new(stdin), child: Mutex::new(child) };
    Ok(Spawned { process, stdout: BufReader::new(stdout) })
}

impl ChildProcess {
    /// Writes one message as one line. Messages never hold raw newlines except as JSON
    /// whitespace, which is turned into spaces here.
    pub async fn send(&self, message: &[u8]) -> std::io::Result<()> {
        let mut line: Vec<u8> = message.iter().map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b }).collect();
        line.push(b'\n');
        let mut guard = self.stdin.lock().await;
        let stdin = guard.as_mut().ok_or_else(|| std::io::Error::other("the server's stdin is closed"))?;
        stdin.write_all(&line).await?;
        stdin.flush().await
    }

    /// Stops the process and reaps it; returns how it ended.
    pub async fn shutdown(&self) -> Option<ExitStatus> {
        self.stdin.lock().await.take(); // closing stdin asks the server to exit
        let mut child = self.child.lock().await;
        if let Ok(Ok(status)) = tokio::time::timeout(GRACE, child.wait()).await {
            self.kill_group(Signal::SIGKILL); // whatever it started in its group goes too
            return Some(status);
        }
        self.kill_group(Signal::SIGTERM);
        if let Ok(Ok(status)) = tokio::time::timeout(GRACE, child.wait()).await {
            self.kill_group(Signal::SIGKILL);
            return Some(status);
        }
        self.kill_group(Signal::SIGKILL);
        let _ = child.start_kill();
        child.wait().await.ok()
    }

    /// The exit status if the process has already ended (reaping it).
    pub async fn try_status(&self) -> Option<ExitStatus> {
        self.child.lock().await.try_wait().ok().flatten()
    }

    fn kill_group(&self, signal: Signal) {
        if let Some(pid) = self.pid.and_then(|p| i32::try_from(p).ok()) {
            let _ = killpg(Pid::from_raw(pid), signal);
        }
    }
}

/// Reads one line (without its terminator). `Ok(None)` at end of stream.
pub async fn read_line<R: AsyncBufRead + Unpin>(r: &mut R, buf: &mut Vec<u8>) -> std::io::Result<Option<()>> {
    match next_line(r, buf, MAX_LINE_BYTES).await? {
        LineRead::Line => Ok(Some(())),
        LineRead::End => Ok(None),
        LineRead::TooLong => {
            Err(std::io::Error::other(format!("a line from the server exceeded {MAX_LINE_BYTES} bytes")))
        }
    }
}

/// What [`next_line`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A line is in the buffer.
    Line,
    /// A line longer than the limit went by; the buffer holds none of it and reading can go
    /// on with the next line.
    TooLong,
    End,
}

/// Reads one line (without its terminator) of at most `max` bytes. A longer one is read past
/// without being kept, so that one oversized message costs that message only.
pub async fn next_line<R: AsyncBufRead + Unpin>(r: &mut R, buf: &mut Vec<u8>, max: usize) -> std::io::Result<LineRead> {
    buf.clear();
    let mut skipping = false;
    loop {
        let chunk = r.fill_buf().await?;
        if chunk.is_empty() {
            return Ok(match (skipping, buf.is_empty()) {
                (true, _) => LineRead::TooLong,
                (false, true) => LineRead::End,
                (false, false) => LineRead::Line,
            });
        }
        let newline = chunk.iter().position(|&b| b == b'\n');
        let take = newline.unwrap_or(chunk.len());
        if !skipping {
            buf.extend_from_slice(&chunk[..take]);
        }
        r.consume(newline.map_or(take, |i| i + 1));
        if !skipping && buf.len() > max + 1 {
            skipping = true;
            buf.clear();
        }
        if newline.is_some() {
            if skipping {
                return Ok(LineRead::TooLong);
            }
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            if buf.len() > max {
                buf.clear();
                return Ok(LineRead::TooLong);
            }
            return Ok(LineRead::Line);
        }
    }
}

/// "exit status 3", "killed by signal 9".
pub fn describe_exit(status: Option<ExitStatus>) -> String {
    use std::os::unix::process::ExitStatusExt;
    match status {
        Some(s) if s.code().is_some() => format!("exit status {}", s.code().unwrap_or_default()),
        Some(s) => format!("killed by signal {}", s.signal().unwrap_or_default()),
        None => "unknown exit status".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(k: &str, v: &str) -> BTreeMap<String, String> {
        BTreeMap::from([(k.to_owned(), v.to_owned())])
    }

    #[test]
    fn the_environment_is_expanded_when_the_launch_is_settled() {
        let launch = Launch::new(vec!["true".into()], &env("SEARCH", "${PATH}:/extra"), None).unwrap();
        assert_eq!(launch.env["SEARCH"], format!("{}:/extra", std::env::var("PATH").unwrap()));
        let e = Launch::new(vec!["true".into()], &env("KEY", "k-${TDQS_SURELY_UNSET_VAR}"), None).unwrap_err();
        assert!(e.contains("env KEY") && e.contains("TDQS_SURELY_UNSET_VAR"), "{e}");
    }

    #[tokio::test]
    async fn a_child_runs_with_the_settled_values() {
        let command = ["sh", "-c", "printf '%s\\n' \"$SEARCH\""].map(str::to_owned).to_vec();
        let launch = Launch::new(command, &env("SEARCH", "${PATH}:/extra"), None).unwrap();
        let Spawned { process, mut stdout } = spawn("test", &launch).unwrap();
        let mut line = Vec::new();
        read_line(&mut stdout, &mut line).await.unwrap().expect("a line");
        assert_eq!(String::from_utf8(line).unwrap(), launch.env["SEARCH"]);
        process.shutdown().await;
    }
}
