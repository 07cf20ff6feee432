//! The one process guard of the tests: a child started in its own process group, with its
//! output in log files, that is ended on drop (a polite signal first when asked for, then
//! SIGKILL to the group and to everything it started) even when the test panics, and that
//! dies with the test process if that is killed outright (`PR_SET_PDEATHSIG`).

use std::fs::File;
use std::ops::{Deref, DerefMut};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;

use super::paths::root;
use super::patience::{poll_blocking, scaled};
use super::procs;

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
        Guarded::launch(name, cmd, out, err, polite)
    }

    /// Spawns `cmd` in its own process group with its stdin and stdout piped to the test (for a
    /// process spoken to line by line) and its stderr to `<dir>/<name>.err`.
    pub fn spawn_piped(
        dir: &Path,
        name: &str,
        mut cmd: Command,
        polite: Option<Signal>,
    ) -> (Guarded, ChildStdin, ChildStdout) {
        let err = dir.join(format!("{name}.err"));
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(File::create(&err).expect("create log"));
        let mut guard = Guarded::launch(name, cmd, PathBuf::new(), err, polite);
        let child = guard.child_mut();
        let (stdin, stdout) = (child.stdin.take().expect("piped stdin"), child.stdout.take().expect("piped stdout"));
        (guard, stdin, stdout)
    }

    fn launch(name: &str, mut cmd: Command, out: PathBuf, err: PathBuf, polite: Option<Signal>) -> Guarded {
        cmd.process_group(0);
        die_with_parent(&mut cmd);
        let child = cmd.spawn().unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        let pid = child.id() as i32;
        Guarded { name: name.to_owned(), child: Some(child), pid, polite, out, err }
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
        poll_blocking(timeout, || self.exited())
    }

    pub fn logs(&self) -> String {
        format!("--- {} stdout\n{}\n--- {} stderr\n{}", self.name, tail(&self.out, 40), self.name, tail(&self.err, 60))
    }

    /// Stops the process and everything it started.
    pub fn stop(&mut self) {
        self.stop_within(Duration::from_secs(4));
    }

    /// Stops the process, giving it up to `patience` (scaled) to end on the polite signal
    /// before the group is killed; true when it ended by itself (or had already).
    pub fn stop_within(&mut self, patience: Duration) -> bool {
        let Some(mut child) = self.child.take() else { return true };
        let descendants = procs::descendants(self.pid);
        let mut ended = true;
        if child.try_wait().ok().flatten().is_none() {
            if let Some(sig) = self.polite {
                let _ = kill(Pid::from_raw(self.pid), sig);
                // A chance to end politely before the group is killed.
                ended = poll_blocking(patience, || child.try_wait().ok().flatten()).is_some();
            } else {
                ended = false;
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
        ended
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

impl Guarded {
    /// What the process wrote to stdout so far.
    pub fn stdout_text(&self) -> String {
        std::fs::read_to_string(&self.out).unwrap_or_default()
    }
}

/// Runs `cmd` to its end under a [`Guarded`] (output to `<dir>/<name>.out|.err`), for a process
/// that must exit by itself: a `serve` that refuses its config, a command run once. Panics with
/// its logs (and the guard ends it) when it still runs after `timeout` (scaled). Gives its exit
/// status and what it wrote to stderr.
pub fn run_to_exit(dir: &Path, name: &str, cmd: Command, timeout: Duration) -> (ExitStatus, String) {
    let mut proc = Guarded::spawn(dir, name, cmd, Some(Signal::SIGTERM));
    let status = proc
        .wait_timeout(timeout)
        .unwrap_or_else(|| panic!("{name} still runs after {:?}\n{}", scaled(timeout), proc.logs()));
    (status, std::fs::read_to_string(&proc.err).unwrap_or_default())
}

/// A [`Guarded`] program started with arguments and environment from the repository root,
/// asked to stop with SIGTERM (the gateway tests' way of starting servers and tools). Its stdin
/// is a pipe held open until it stops: the rig's Python servers end when their stdin closes.
pub struct Proc {
    guard: Guarded,
    stdin: Option<ChildStdin>,
}

impl Proc {
    pub fn spawn(dir: &Path, name: &str, program: &Path, args: &[String], envs: &[(&str, String)]) -> Proc {
        let mut cmd = Command::new(program);
        cmd.args(args)
            .current_dir(root())
            .env("PYTHONDONTWRITEBYTECODE", "1") // no __pycache__ in tests/rig
            .stdin(Stdio::piped());
        for (k, v) in envs {
            cmd.env(k, v);
        }
        Proc::command(dir, name, cmd)
    }

    /// Starts `cmd` as it is (output to `<dir>/<name>.out|.err`), stopped with SIGTERM.
    pub fn command(dir: &Path, name: &str, cmd: Command) -> Proc {
        let mut guard = Guarded::spawn(dir, name, cmd, Some(Signal::SIGTERM));
        let stdin = guard.child.as_mut().and_then(|c| c.stdin.take());
        Proc { guard, stdin }
    }

    /// Ends the process: closes its stdin, then stops it as the guard does.
    pub fn stop(&mut self) {
        drop(self.stdin.take());
        self.guard.stop();
    }

    /// [`Guarded::stop_within`], its stdin closed first.
    pub fn stop_within(&mut self, patience: std::time::Duration) -> bool {
        drop(self.stdin.take());
        self.guard.stop_within(patience)
    }
}

impl Deref for Proc {
    type Target = Guarded;
    fn deref(&self) -> &Guarded {
        &self.guard
    }
}

impl DerefMut for Proc {
    fn deref_mut(&mut self) -> &mut Guarded {
        &mut self.guard
    }
}
