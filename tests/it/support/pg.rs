//! A real PostgreSQL server for one test: its own cluster in a temp folder (initdb), on a free
//! loopback port, trust authentication for the `tdqs` role, fsync off. Stoppable and
//! restartable on the same port and data (for outage tests); removed when dropped.
//!
//! Debian's `postgresql` package provides the binaries (`scripts/deps/postgres.sh` installs
//! it). PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user.
//!
//! `start_tls` turns `ssl=on` with a certificate made here (rcgen): a test CA signs a server
//! certificate for [`TLS_HOST`] and 127.0.0.1; a second CA signs nothing the server shows.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::patience::{poll_blocking, scaled};

pub struct PgServer {
    pub port: u16,
    dir: PathBuf,
    bin: PathBuf,
    child: Option<Child>,
    /// Extra `-c` settings for every start.
    settings: Vec<String>,
}

/// The name the TLS server's certificate is made out to (besides 127.0.0.1); tests reach it
/// with `hostaddr=127.0.0.1`.
pub const TLS_HOST: &str = "db.test";

/// Who may connect to a TLS server without TLS.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Hba {
    /// With or without TLS (what `initdb` writes).
    Any,
    /// TCP only over TLS (`hostssl`); plaintext TCP is turned away.
    HostSslOnly,
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
        let mut pg = PgServer::init();
        pg.resume();
        pg
    }

    /// A server with `ssl=on` and a certificate signed by [`PgServer::ca_file`].
    pub fn start_tls(hba: Hba) -> PgServer {
        let mut pg = PgServer::init();
        let make_ca = |name: &str| {
            let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
            params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
            params.distinguished_name.push(rcgen::DnType::CommonName, name);
            rcgen::CertifiedIssuer::self_signed(params, rcgen::KeyPair::generate().unwrap()).unwrap()
        };
        let (ca, other_ca) = (make_ca("tdqs test CA"), make_ca("another CA"));
        let key = rcgen::KeyPair::generate().unwrap();
        let cert = rcgen::CertificateParams::new(vec![TLS_HOST.to_owned(), "127.0.0.1".to_owned()])
            .unwrap()
            .signed_by(&key, &ca)
            .unwrap();
        std::fs::write(pg.ca_file(), ca.pem()).unwrap();
        std::fs::write(pg.other_ca_file(), other_ca.pem()).unwrap();
        let data = pg.dir.join("data");
        std::fs::write(data.join("server.crt"), cert.pem()).unwrap();
        std::fs::write(data.join("server.key"), key.serialize_pem()).unwrap();
        if hba == Hba::HostSslOnly {
            let rules = "local all all trust\nhostssl all all 127.0.0.1/32 trust\nhostssl all all ::1/128 trust\n";
            std::fs::write(data.join("pg_hba.conf"), rules).unwrap();
        }
        // PostgreSQL insists that only its own user can read the key.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(data.join("server.key"), std::fs::Permissions::from_mode(0o600)).unwrap();
        if is_root() {
            let ok = Command::new("chown").args(["-R", "postgres:postgres"]).arg(&pg.dir).status().unwrap();
            assert!(ok.success(), "chown {} to postgres", pg.dir.display());
        }
        pg.settings = vec!["ssl=on".into(), "ssl_cert_file=server.crt".into(), "ssl_key_file=server.key".into()];
        pg.resume();
        pg
    }

    /// The CA (PEM) that signed a TLS server's certificate.
    pub fn ca_file(&self) -> PathBuf {
        self.dir.join("ca.pem")
    }

    /// A CA (PEM) that signed nothing the server presents.
    pub fn other_ca_file(&self) -> PathBuf {
        self.dir.join("other-ca.pem")
    }

    /// `postgres://tdqs@db.test:<port>/postgres?hostaddr=127.0.0.1&<params>`: the certificate's
    /// name, reached on loopback.
    pub fn tls_url(&self, params: &str) -> String {
        format!("postgres://tdqs@{TLS_HOST}:{}/postgres?hostaddr=127.0.0.1&{params}", self.port)
    }

    /// A cluster made but not started.
    fn init() -> PgServer {
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
        PgServer { port, dir, bin, child: None, settings: Vec::new() }
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
            .args(["-c", "full_page_writes=off", "-c", "max_connections=200"])
            .args(self.settings.iter().flat_map(|s| ["-c", s.as_str()]))
            .arg("-k")
            .arg(&self.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start postgres");
        self.child = Some(child);
        let up = poll_blocking(Duration::from_secs(30), || {
            let url = self.url();
            // An answer from the server, even "no pg_hba.conf entry" (a server that wants
            // TLS), means it is up; "the database system is starting up" does not.
            let answered = move || match postgres::Client::connect(&url, postgres::NoTls) {
                Ok(_) => true,
                Err(e) => e.as_db_error().is_some_and(|db| *db.code() != postgres::error::SqlState::CANNOT_CONNECT_NOW),
            };
            off_runtime(answered).then_some(())
        });
        assert!(up.is_some(), "PostgreSQL did not start:\n{}", self.logs());
    }

    /// Stops the server (fast shutdown: open connections are cut).
    pub fn stop(&mut self) {
        let Some(mut child) = self.child.take() else { return };
        // The postmaster itself (runuser does not pass signals on): SIGINT is a fast shutdown.
        let pid_file = std::fs::read_to_string(self.dir.join("data/postmaster.pid")).unwrap_or_default();
        let pid = pid_file.lines().next().and_then(|l| l.trim().parse::<i32>().ok()).unwrap_or(child.id() as i32);
        let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGINT);
        let _ = poll_blocking(Duration::from_secs(20), || child.try_wait().ok().flatten());
        let _ = child.kill();
        let _ = child.wait();
        // The postmaster may outlive runuser briefly; wait for the port to close.
        let _ = poll_blocking(Duration::from_secs(10), || {
            std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err().then_some(())
        });
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
