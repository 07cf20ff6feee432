//! The fleet store: one PostgreSQL database shared by every replica. Same tables as the SQLite
//! store; migrations run at start under an advisory lock, so replicas starting together apply
//! each step once. Claims use the database's clock, so replicas with skewed clocks still agree
//! on when a lease has run out.
//!
//! The synchronous driver runs a small runtime of its own per connection, which must never
//! meet the gateway's: every call runs on the store's own worker threads (which also own the
//! connections, so they are closed there too), whatever thread asks.
//!
//! Long: one implementation of the `Store` trait, method for method beside `sqlite.rs`; splitting
//! it would separate queries from the schema they rely on.

use std::time::Duration;

use tokio_postgres_rustls::MakeRustlsConnect;

use super::postgres_tls;
use super::{DefinitionText, Pin, Sighting, Store, StoreError, StoredKey, now_ms, redact_url};

type Pool = r2d2::Pool<Manager>;

/// Makes the pool's connections. Its own (rather than `r2d2_postgres`) so that a failed
/// connection reports its cause: the pool keeps only the error's text, and the driver's text
/// alone is "error performing TLS handshake" without saying why.
struct Manager {
    config: postgres::Config,
    tls: MakeRustlsConnect,
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct ConnectError(String);

impl r2d2::ManageConnection for Manager {
    type Connection = postgres::Client;
    type Error = ConnectError;

    fn connect(&self) -> Result<postgres::Client, ConnectError> {
        self.config.connect(self.tls.clone()).map_err(|e| {
            let hint = postgres_tls::hint(&e);
            let text = StoreError::from(e).0;
            ConnectError(match hint {
                Some(h) => format!("{text} ({h})"),
                None => text,
            })
        })
    }

    fn is_valid(&self, client: &mut postgres::Client) -> Result<(), ConnectError> {
        client.simple_query("").map(|_| ()).map_err(|e| ConnectError(StoreError::from(e).0))
    }

    fn has_broken(&self, client: &mut postgres::Client) -> bool {
        client.is_closed()
    }
}

/// Schema steps; step N brings the recorded version from N to N+1. Never edit a released step.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE tool_scores (
        input_hash TEXT NOT NULL,
        spec_version TEXT NOT NULL,
        judge TEXT NOT NULL,
        prompts_sha256 TEXT NOT NULL,
        report JSONB NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (input_hash, spec_version, judge, prompts_sha256)
    );
    CREATE INDEX tool_scores_by_judge ON tool_scores (judge, created_at);
    CREATE TABLE definitions (
        upstream TEXT NOT NULL,
        tool TEXT NOT NULL,
        input_hash TEXT NOT NULL,
        first_seen BIGINT NOT NULL,
        last_seen BIGINT NOT NULL,
        PRIMARY KEY (upstream, tool, input_hash)
    );
    CREATE TABLE coherence (
        key TEXT PRIMARY KEY,
        server TEXT NOT NULL,
        answer JSONB NOT NULL,
        created_at BIGINT NOT NULL
    );
    CREATE TABLE server_reports (
        upstream TEXT PRIMARY KEY,
        report JSONB NOT NULL,
        updated_at BIGINT NOT NULL
    );
    CREATE TABLE claims (
        key TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        expires_at BIGINT NOT NULL
    );
    CREATE TABLE pins (
        upstream TEXT NOT NULL,
        tool TEXT NOT NULL,
        input_hash TEXT NOT NULL,
        approved_at BIGINT NOT NULL,
        approved_by TEXT NOT NULL,
        PRIMARY KEY (upstream, tool, input_hash)
    );",
    super::texts::TABLE,
];

/// Key of the advisory lock that serializes migrations across replicas ("tdqs" in ASCII).
const MIGRATION_LOCK: i64 = 0x7464_7173;

/// Milliseconds since the epoch on the database's clock.
const DB_NOW_MS: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// Threads that own the connection pool.
const WORKERS: usize = 4;

type Job = Box<dyn FnOnce(&Pool) + Send>;

pub struct PostgresStore {
    jobs: std::sync::Mutex<std::sync::mpsc::Sender<Job>>,
}

impl PostgresStore {
    /// Connects and migrates. Fails with the (redacted) URL when the database is unreachable,
    /// a TLS parameter is wrong or the server's certificate does not verify.
    pub fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let named = |e: StoreError| StoreError(format!("{}: {}", redact_url(url), e.0));
        let (driver_url, tls) = postgres_tls::split(url).map_err(|m| named(StoreError(m)))?;
        let mut config: postgres::Config = driver_url.parse().map_err(|e: postgres::Error| named(e.into()))?;
        config.ssl_mode(tls.driver_mode());
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(3));
        }
        if config.get_application_name().is_none() {
            config.application_name("tdqs-gateway");
        }
        let manager = Manager { config, tls: tls.connector().map_err(|m| named(StoreError(m)))? };
        // Connections are made when needed: an outage later fails a call within the timeout
        // instead of hanging it, and the pool reconnects when the database is back.
        let pool = r2d2::Pool::builder()
            .max_size(WORKERS as u32)
            .min_idle(Some(0))
            .connection_timeout(Duration::from_secs(3))
            .test_on_check_out(true)
            // Failures reach the caller (and the writer's one log line per outage), not a log
            // line per connection attempt.
            .error_handler(Box::new(r2d2::NopErrorHandler))
            .build_unchecked(manager);
        let (tx, rx) = std::sync::mpsc::channel::<Job>();
        let rx = std::sync::Arc::new(std::sync::Mutex::new(rx));
        for i in 0..WORKERS {
            let (rx, pool) = (rx.clone(), pool.clone());
            std::thread::Builder::new()
                .name(format!("postgres-{i}"))
                .spawn(move || {
                    loop {
                        let job = rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                        match job {
                            Ok(job) => job(&pool),
                            Err(_) => return, // the store is gone
                        }
                    }
                })
                .map_err(|e| StoreError(format!("cannot start a store thread: {e}")))?;
        }
        drop(pool);
        let store = PostgresStore { jobs: std::sync::Mutex::new(tx) };
        store.run(migrate).map_err(named)?;
        Ok(store)
    }

    /// Runs `f` on a worker thread and waits for its answer.
    fn run<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Pool) -> Result<T, StoreError> + Send + 'static,
    {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        let job: Job = Box::new(move |pool| {
            let _ = tx.send(f(pool));
        });
        self.jobs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send(job)
            .map_err(|_| StoreError("the store's threads have stopped".into()))?;
        rx.recv().map_err(|_| StoreError("a store thread failed".into()))?
    }
}

fn migrate(pool: &Pool) -> Result<(), StoreError> {
    {
        let mut conn = pool.get()?;
        let mut tx = conn.transaction()?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
        tx.batch_execute("CREATE TABLE IF NOT EXISTS tdqs_schema (version INTEGER NOT NULL)")?;
        let version: i32 = match tx.query_opt("SELECT version FROM tdqs_schema", &[])? {
            Some(row) => row.get(0),
            None => {
                tx.execute("INSERT INTO tdqs_schema (version) VALUES (0)", &[])?;
                0
            }
        };
        let version = version as usize;
        if version > MIGRATIONS.len() {
            return Err(StoreError(format!(
                "schema version {version} is newer than this build knows ({}); upgrade tdqs-gateway",
                MIGRATIONS.len()
            )));
        }
        for (i, step) in MIGRATIONS.iter().enumerate().skip(version) {
            tx.batch_execute(step)?;
            tx.execute("UPDATE tdqs_schema SET version = $1", &[&((i + 1) as i32)])?;
        }
        tx.commit()?;
        Ok(())
    }
}

fn sighting(row: &postgres::Row) -> Sighting {
    Sighting {
        upstream: row.get(0),
        tool: row.get(1),
        input_hash: row.get(2),
        first_seen: row.get(3),
        last_seen: row.get(4),
    }
}

impl Store for PostgresStore {
    fn ping(&self) -> Result<(), StoreError> {
        self.run(|pool| Ok(pool.get()?.batch_execute("SELECT 1")?))
    }

    fn get_score(&self, key: &StoredKey) -> Result<Option<serde_json::Value>, StoreError> {
        let key = key.clone();
        self.run(move |pool| {
            let row = pool.get()?.query_opt(
                "SELECT report FROM tool_scores WHERE input_hash=$1 AND spec_version=$2 AND judge=$3 AND prompts_sha256=$4",
                &[&key.input_hash, &key.spec_version, &key.judge, &key.prompts_sha256],
            )?;
            Ok(row.map(|r| r.get(0)))
        })
    }

    fn put_scores(&self, scores: &[(StoredKey, serde_json::Value)]) -> Result<(), StoreError> {
        if scores.is_empty() {
            return Ok(());
        }
        let scores = scores.to_vec();
        self.run(move |pool| {
            let mut conn = pool.get()?;
            let mut tx = conn.transaction()?;
            let stmt = tx.prepare(
                "INSERT INTO tool_scores (input_hash, spec_version, judge, prompts_sha256, report, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (input_hash, spec_version, judge, prompts_sha256) DO UPDATE SET report = excluded.report",
            )?;
            let now = now_ms();
            for (k, report) in &scores {
                tx.execute(&stmt, &[&k.input_hash, &k.spec_version, &k.judge, &k.prompts_sha256, report, &now])?;
            }
            Ok(tx.commit()?)
        })
    }

    fn scores_for_judge(&self, judge: &str, limit: usize) -> Result<Vec<(StoredKey, serde_json::Value)>, StoreError> {
        let judge = judge.to_owned();
        self.run(move |pool| {
            let rows = pool.get()?.query(
                "SELECT input_hash, spec_version, judge, prompts_sha256, report FROM tool_scores
                 WHERE judge = $1 ORDER BY created_at DESC LIMIT $2",
                &[&judge, &(limit as i64)],
            )?;
            Ok(rows
                .iter()
                .map(|r| {
                    let key = StoredKey {
                        input_hash: r.get(0),
                        spec_version: r.get(1),
                        judge: r.get(2),
                        prompts_sha256: r.get(3),
                    };
                    (key, r.get(4))
                })
                .collect())
        })
    }

    fn record_sightings(&self, sightings: &[Sighting]) -> Result<(), StoreError> {
        if sightings.is_empty() {
            return Ok(());
        }
        let sightings = sightings.to_vec();
        self.run(move |pool| {
            let mut conn = pool.get()?;
            let mut tx = conn.transaction()?;
            let stmt = tx.prepare(
                "INSERT INTO definitions (upstream, tool, input_hash, first_seen, last_seen) VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (upstream, tool, input_hash) DO UPDATE
                 SET last_seen = GREATEST(definitions.last_seen, excluded.last_seen)",
            )?;
            for s in &sightings {
                tx.execute(&stmt, &[&s.upstream, &s.tool, &s.input_hash, &s.first_seen, &s.last_seen])?;
            }
            Ok(tx.commit()?)
        })
    }

    fn history(&self, upstream: &str, tool: &str) -> Result<Vec<Sighting>, StoreError> {
        let (upstream, tool) = (upstream.to_owned(), tool.to_owned());
        self.run(move |pool| {
            let rows = pool.get()?.query(
                "SELECT upstream, tool, input_hash, first_seen, last_seen FROM definitions
                 WHERE upstream = $1 AND tool = $2 ORDER BY first_seen, input_hash",
                &[&upstream, &tool],
            )?;
            Ok(rows.iter().map(sighting).collect())
        })
    }

    fn upstream_history(&self, upstream: &str) -> Result<Vec<Sighting>, StoreError> {
        let upstream = upstream.to_owned();
        self.run(move |pool| {
            let rows = pool.get()?.query(
                "SELECT upstream, tool, input_hash, first_seen, last_seen FROM definitions
                 WHERE upstream = $1 ORDER BY tool, first_seen, input_hash",
                &[&upstream],
            )?;
            Ok(rows.iter().map(sighting).collect())
        })
    }

    fn get_coherence(&self, key: &str) -> Result<Option<serde_json::Value>, StoreError> {
        let key = key.to_owned();
        self.run(move |pool| {
            let row = pool.get()?.query_opt("SELECT answer FROM coherence WHERE key = $1", &[&key])?;
            Ok(row.map(|r| r.get(0)))
        })
    }

    fn put_coherence(&self, key: &str, server: &str, answer: &serde_json::Value) -> Result<(), StoreError> {
        let (key, server, answer) = (key.to_owned(), server.to_owned(), answer.clone());
        self.run(move |pool| {
            pool.get()?.execute(
                "INSERT INTO coherence (key, server, answer, created_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (key) DO UPDATE SET answer = excluded.answer",
                &[&key, &server, &answer, &now_ms()],
            )?;
            Ok(())
        })
    }

    fn put_server_report(&self, upstream: &str, report: &serde_json::Value) -> Result<(), StoreError> {
        let (upstream, report) = (upstream.to_owned(), report.clone());
        self.run(move |pool| {
            pool.get()?.execute(
                "INSERT INTO server_reports (upstream, report, updated_at) VALUES ($1, $2, $3)
                 ON CONFLICT (upstream) DO UPDATE SET report = excluded.report, updated_at = excluded.updated_at",
                &[&upstream, &report, &now_ms()],
            )?;
            Ok(())
        })
    }

    fn server_reports(&self) -> Result<Vec<(String, serde_json::Value)>, StoreError> {
        self.run(|pool| {
            let rows = pool.get()?.query("SELECT upstream, report FROM server_reports ORDER BY upstream", &[])?;
            Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
        })
    }

    fn claim(&self, key: &str, owner: &str, lease_ms: i64) -> Result<bool, StoreError> {
        let (key, owner) = (key.to_owned(), owner.to_owned());
        self.run(move |pool| {
            let sql = format!(
                "INSERT INTO claims (key, owner, expires_at) VALUES ($1, $2, {DB_NOW_MS} + $3)
                 ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
                 WHERE claims.owner = excluded.owner OR claims.expires_at < {DB_NOW_MS}
                 RETURNING owner"
            );
            let row = pool.get()?.query_opt(&sql, &[&key, &owner, &lease_ms])?;
            Ok(row.is_some_and(|r| r.get::<_, String>(0) == owner))
        })
    }

    fn release(&self, key: &str, owner: &str) -> Result<(), StoreError> {
        let (key, owner) = (key.to_owned(), owner.to_owned());
        self.run(move |pool| {
            pool.get()?.execute("DELETE FROM claims WHERE key = $1 AND owner = $2", &[&key, &owner])?;
            Ok(())
        })
    }

    fn renew(&self, keys: &[String], owner: &str, lease_ms: i64) -> Result<Vec<String>, StoreError> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let (keys, owner) = (keys.to_vec(), owner.to_owned());
        self.run(move |pool| {
            let sql = format!(
                "UPDATE claims SET expires_at = {DB_NOW_MS} + $3 WHERE key = ANY($1) AND owner = $2 RETURNING key"
            );
            let rows = pool.get()?.query(&sql, &[&keys, &owner, &lease_ms])?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    fn pins(&self) -> Result<Vec<Pin>, StoreError> {
        self.run(|pool| {
            let rows = pool.get()?.query(
                "SELECT upstream, tool, input_hash, approved_at, approved_by FROM pins ORDER BY upstream, tool, approved_at",
                &[],
            )?;
            Ok(rows
                .iter()
                .map(|r| Pin {
                    upstream: r.get(0),
                    tool: r.get(1),
                    input_hash: r.get(2),
                    approved_at: r.get(3),
                    approved_by: r.get(4),
                })
                .collect())
        })
    }

    fn pin_first(&self, pin: &Pin) -> Result<bool, StoreError> {
        let pin = pin.clone();
        self.run(move |pool| {
            let mut conn = pool.get()?;
            let mut tx = conn.transaction()?;
            // Two replicas meeting a tool for the first time at once: the lock makes one of
            // them see the other's pin.
            let lock_key = format!("pin:{}:{}", pin.upstream, pin.tool);
            tx.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", &[&lock_key])?;
            let n = tx.execute(
                "INSERT INTO pins (upstream, tool, input_hash, approved_at, approved_by)
                 SELECT $1, $2, $3, $4, $5 WHERE NOT EXISTS (SELECT 1 FROM pins WHERE upstream = $1 AND tool = $2)",
                &[&pin.upstream, &pin.tool, &pin.input_hash, &pin.approved_at, &pin.approved_by],
            )?;
            tx.commit()?;
            Ok(n == 1)
        })
    }

    fn approve(&self, pins: &[Pin]) -> Result<(), StoreError> {
        let pins = pins.to_vec();
        self.run(move |pool| {
            let mut conn = pool.get()?;
            let mut tx = conn.transaction()?;
            let stmt = tx.prepare(
                "INSERT INTO pins (upstream, tool, input_hash, approved_at, approved_by) VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT DO NOTHING",
            )?;
            for p in &pins {
                tx.execute(&stmt, &[&p.upstream, &p.tool, &p.input_hash, &p.approved_at, &p.approved_by])?;
            }
            Ok(tx.commit()?)
        })
    }

    fn put_definition_texts(&self, texts: &[DefinitionText]) -> Result<(), StoreError> {
        if texts.is_empty() {
            return Ok(());
        }
        let texts = texts.to_vec();
        self.run(move |pool| super::texts::pg_put(&mut *pool.get()?, &texts))
    }

    fn definition_texts(&self, upstream: &str, hashes: &[String]) -> Result<Vec<DefinitionText>, StoreError> {
        let (upstream, hashes) = (upstream.to_owned(), hashes.to_vec());
        self.run(move |pool| super::texts::pg_get(&mut *pool.get()?, &upstream, &hashes))
    }
}
