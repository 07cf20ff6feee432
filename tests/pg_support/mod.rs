//! A real PostgreSQL server for one test: its own cluster in a temp folder (initdb), on a free
//! loopback port, trust authentication for the `tdqs` role, fsync off. Stoppable and
//! restartable on the same port and data (for outage tests); removed when dropped.
//!
//! Debian's `postgresql` package provides the binaries (`scripts/deps/postgres.sh` installs
//! it). PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct PgServer {
    pub port: u16,
    dir: PathBuf,
    bin: PathBuf,
    child: Option<Child>,
}

/// The newest `/usr/lib/postgresql/<version>/bin`.
fn bin_dir() -> PathBuf {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
        .filter(|(_, p)| p.join("initdb").exists())
        .collect();
    versions.sort();
    versions.pop().map(|(_, p)| p).unwrap_or_else(|| {
        panic!("PostgreSQL server binaries not found under /usr/lib/postgresql; run scripts/deps/postgres.sh")
    })
}

/// Whether the tests run as root (who may write any file and may not run PostgreSQL).
pub fn is_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().find_map(|l| l.strip_prefix("Uid:")).and_then(|ids| ids.split_whitespace().nth(1)) == Some("0")
}

/// A command run as the `postgres` user when the tests run as root.
fn as_server_user(program: &Path) -> Command {
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

impl PgServer {
    pub fn start() -> PgServer {
        let bin = bin_dir();
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let dir = std::env::temp_dir().join(format!("tdqs-pg-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        if is_root() {
            let ok = Command::new("chown").args(["-R", "postgres:postgres"]).arg(&dir).status().unwrap();
            assert!(ok.success(), "chown {} to postgres", dir.display());
        }
        let out = as_server_user(&bin.join("initdb"))
            .args(["-A", "trust", "-U", "tdqs", "--no-sync", "-E", "UTF8", "-D"])
            .arg(dir.join("data"))
            .output()
            .expect("run initdb");
        assert!(out.status.success(), "initdb failed: {}", String::from_utf8_lossy(&out.stderr));
        let mut pg = PgServer { port, dir, bin, child: None };
        pg.resume();
        pg
    }

    /// `postgres://tdqs@127.0.0.1:<port>/postgres`
    pub fn url(&self) -> String {
        format!("postgres://tdqs@127.0.0.1:{}/postgres", self.port)
    }

    /// Starts the server (again) on the same port and data, and waits until it answers.
    pub fn resume(&mut self) {
        assert!(self.child.is_none(), "already running");
        let log = std::fs::File::create(self.dir.join(format!("server-{}.log", now_ns()))).unwrap();
        let child = as_server_user(&self.bin.join("postgres"))
            .arg("-D")
            .arg(self.dir.join("data"))
            .args(["-p", &self.port.to_string(), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"])
            .args(["-c", "full_page_writes=off", "-c", "max_connections=200", "-k"])
            .arg(&self.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start postgres");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let url = self.url();
            if off_runtime(move || postgres::Client::connect(&url, postgres::NoTls).is_ok()) {
                return;
            }
            assert!(Instant::now() < deadline, "PostgreSQL did not start:\n{}", self.logs());
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops the server (fast shutdown: open connections are cut).
    pub fn stop(&mut self) {
        let Some(mut child) = self.child.take() else { return };
        // The postmaster itself (runuser does not pass signals on): SIGINT is a fast shutdown.
        let pid_file = std::fs::read_to_string(self.dir.join("data/postmaster.pid")).unwrap_or_default();
        let pid = pid_file.lines().next().and_then(|l| l.trim().parse::<i32>().ok()).unwrap_or(child.id() as i32);
        let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGINT);
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
        // The postmaster may outlive runuser briefly; wait for the port to close.
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// A client for checking what the gateway stored (not from async code: see `count`).
    pub fn client(&self) -> postgres::Client {
        postgres::Client::connect(&self.url(), postgres::NoTls).expect("connect to the test PostgreSQL")
    }

    /// The single integer a query answers (usable from async tests).
    pub fn count(&self, sql: &str) -> i64 {
        let (url, sql) = (self.url(), sql.to_owned());
        off_runtime(move || {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).expect("connect to the test PostgreSQL");
            c.query_one(&sql, &[]).expect("query").get(0)
        })
    }

    /// The first column of every row, as text (usable from async tests).
    pub fn strings(&self, sql: &str) -> Vec<String> {
        let (url, sql) = (self.url(), sql.to_owned());
        off_runtime(move || {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).expect("connect to the test PostgreSQL");
            c.query(&sql, &[]).expect("query").iter().map(|r| r.get(0)).collect()
        })
    }

    pub fn logs(&self) -> String {
        let mut text = String::new();
        for e in std::fs::read_dir(&self.dir).into_iter().flatten().flatten() {
            if e.path().extension().is_some_and(|x| x == "log") {
                text.push_str(&std::fs::read_to_string(e.path()).unwrap_or_default());
            }
        }
        text
    }
}

/// Runs blocking client code on its own thread (the sync driver cannot run inside a runtime).
fn off_runtime<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::spawn(f).join().expect("database helper thread")
}

fn now_ns() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()
}

impl Drop for PgServer {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
