//! The one way the tests start `tdqs-gateway wrap` (the gateway as a stdio MCP server in front
//! of a stdio server) and speak to it: a [`Guarded`] process whose stdin is the test's and whose
//! stdout is read line by line, as it comes, on a thread of its own; its stderr goes to
//! `<dir>/<name>.err`. Dropping it closes stdin and lets `wrap` end by itself (as a client
//! closing the pipe does) before the guard ends whatever is left.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{ChildStdin, Command, ExitStatus};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::paths::gateway_bin;
use super::patience::scaled;
use super::process::Guarded;

/// How long `wrap` gets to end by itself once its stdin is closed on drop.
const CLOSE_WAIT: Duration = Duration::from_secs(10);

/// A running `tdqs-gateway wrap`.
pub struct Wrap {
    pub proc: Guarded,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Wrap {
    /// `tdqs-gateway wrap <args> -- <server>`, for a test to add environment to before
    /// [`Wrap::spawn`].
    pub fn command(args: &[String], server: &[String]) -> Command {
        let mut cmd = Command::new(gateway_bin());
        cmd.arg("wrap").args(args).arg("--").args(server);
        cmd
    }

    /// Starts `tdqs-gateway wrap <args> -- <server>`, its stderr in `<dir>/<name>.err`.
    pub fn start(dir: &Path, name: &str, args: &[String], server: &[String]) -> Wrap {
        Wrap::spawn(dir, name, Wrap::command(args, server))
    }

    /// Starts `cmd` (from [`Wrap::command`]), its stderr in `<dir>/<name>.err`.
    pub fn spawn(dir: &Path, name: &str, cmd: Command) -> Wrap {
        let (proc, stdin, stdout) = Guarded::spawn_piped(dir, name, cmd, None);
        let (tx, lines) = mpsc::channel();
        // Lines as bytes, decoded leniently: a byte that is not UTF-8 does not end the reading.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).split(b'\n') {
                let Ok(line) = line else { return };
                if tx.send(String::from_utf8_lossy(&line).into_owned()).is_err() {
                    return;
                }
            }
        });
        Wrap { proc, stdin: Some(stdin), lines }
    }

    /// Writes `bytes` and a newline to wrap's stdin.
    pub fn write_line(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("wrap's stdin is open");
        stdin
            .write_all(bytes)
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .expect("write to wrap's stdin");
    }

    /// Sends one message as a line.
    pub fn send(&mut self, msg: &Value) {
        self.write_line(msg.to_string().as_bytes());
    }

    /// The next stdout line, waiting up to `wait` (not scaled: the caller's bound).
    pub fn next_line(&self, wait: Duration) -> Result<String, RecvTimeoutError> {
        self.lines.recv_timeout(wait)
    }

    /// The stdout lines that have arrived and not been read yet.
    pub fn pending_lines(&self) -> Vec<String> {
        self.lines.try_iter().collect()
    }

    /// Messages until one satisfies `found` (included), within `wait` (scaled); a line that is
    /// not JSON comes as `{"unparsable_line": line}`. Panics naming `what` when none does.
    pub fn until(&self, what: &str, wait: Duration, found: impl Fn(&Value) -> bool) -> Vec<Value> {
        let deadline = Instant::now() + scaled(wait);
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.next_line(left).unwrap_or_else(|e| {
                panic!("{what}: not seen within {:?} ({e}); messages: {seen:#?}\n{}", scaled(wait), self.proc.logs())
            });
            let msg = serde_json::from_str(&line).unwrap_or_else(|_| json!({ "unparsable_line": line }));
            let hit = found(&msg);
            seen.push(msg);
            if hit {
                return seen;
            }
        }
    }

    /// Closes stdin (what a client does to end `wrap`) and waits up to `wait` (scaled) for the
    /// process to end by itself.
    pub fn close(&mut self, wait: Duration) -> Option<ExitStatus> {
        drop(self.stdin.take());
        self.proc.wait_timeout(wait)
    }
}

impl Drop for Wrap {
    fn drop(&mut self) {
        drop(self.stdin.take());
        if !std::thread::panicking() {
            // Its last log lines are written as it ends; the guard then ends what is left.
            let _ = self.proc.wait_timeout(CLOSE_WAIT);
        }
    }
}
