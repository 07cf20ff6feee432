//! The embedded store: one SQLite file (folders created on first run, WAL mode), schema
//! versions applied at open through `PRAGMA user_version`. `memory` is the same store on an
//! in-memory database.
//!
//! Long: one implementation of the `Store` trait, method for method beside `postgres.rs`, with its
//! migrations.

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};

use super::{DefinitionText, Pin, Sighting, Store, StoreError, StoredKey, now_ms};

/// Schema steps; step N brings `user_version` from N to N+1. Never edit a released step.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE tool_scores (
        input_hash TEXT NOT NULL,
        spec_version TEXT NOT NULL,
        judge TEXT NOT NULL,
        prompts_sha256 TEXT NOT NULL,
        report TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (input_hash, spec_version, judge, prompts_sha256)
    );
    CREATE INDEX tool_scores_by_judge ON tool_scores (judge, created_at);
    CREATE TABLE definitions (
        upstream TEXT NOT NULL,
        tool TEXT NOT NULL,
        input_hash TEXT NOT NULL,
        first_seen INTEGER NOT NULL,
        last_seen INTEGER NOT NULL,
        PRIMARY KEY (upstream, tool, input_hash)
    );",
    "CREATE TABLE coherence (
        key TEXT PRIMARY KEY,
        server TEXT NOT NULL,
        answer TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE server_reports (
        upstream TEXT PRIMARY KEY,
        report TEXT NOT NULL,
        updated_at INTEGER NOT NULL
    );
    CREATE TABLE claims (
        key TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        expires_at INTEGER NOT NULL
    );
    CREATE TABLE pins (
        upstream TEXT NOT NULL,
        tool TEXT NOT NULL,
        input_hash TEXT NOT NULL,
        approved_at INTEGER NOT NULL,
        approved_by TEXT NOT NULL,
        PRIMARY KEY (upstream, tool, input_hash)
    );",
    super::texts::TABLE,
];

/// How long a statement waits for another connection's lock (SQLite's busy handler), and how
/// long opening a new file retries the switch to WAL, which that handler does not cover.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Whether SQLite refused because another connection held the lock.
fn busy(e: &rusqlite::Error) -> bool {
    matches!(e.sqlite_error_code(), Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked))
}

pub struct SqliteStore {
    conn: Mutex<Connection>,
}

impl SqliteStore {
    /// Opens (creating it and its folders if needed) and migrates the file at `path`.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| StoreError(format!("cannot create {}: {e}", dir.display())))?;
        }
        let named = |e: StoreError| StoreError(format!("{}: {}", path.display(), e.0));
        let conn = Connection::open(path).map_err(|e| named(e.into()))?;
        // SQLite quietly opens a write-protected file read-only; every write would then fail.
        if conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(false) {
            return Err(named(StoreError(
                "the file can be read but not written by this process; give the gateway write access to it and its \
                 folder, or use store.url = \"memory\""
                    .into(),
            )));
        }
        let prepare = || -> rusqlite::Result<()> {
            conn.busy_timeout(BUSY_TIMEOUT)?;
            let mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
            if mode != "wal" {
                tracing::warn!(path = %path.display(), mode, "SQLite WAL mode unavailable");
            }
            conn.execute_batch("PRAGMA synchronous=NORMAL;")?;
            Ok(())
        };
        // Switching a new file to WAL takes its lock without SQLite's busy handler: two gateways
        // opening one new file at once can meet it taken. Such a refusal is tried again, for
        // as long as the busy timeout would have waited.
        let started = std::time::Instant::now();
        loop {
            match prepare() {
                Ok(()) => break,
                Err(e) if busy(&e) && started.elapsed() < BUSY_TIMEOUT => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(e) => return Err(named(e.into())),
            }
        }
        Self::migrate(conn).map_err(named)
    }

    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        Self::migrate(Connection::open_in_memory()?)
    }

    fn migrate(mut conn: Connection) -> Result<SqliteStore, StoreError> {
        // An immediate transaction takes the write lock before reading the version, so two
        // gateways starting on one file apply each step once.
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let version: usize = tx.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0))? as usize;
        if version > MIGRATIONS.len() {
            return Err(StoreError(format!(
                "schema version {version} is newer than this build knows ({}); upgrade tdqs-gateway",
                MIGRATIONS.len()
            )));
        }
        for step in MIGRATIONS.iter().skip(version) {
            tx.execute_batch(step)?;
        }
        tx.execute_batch(&format!("PRAGMA user_version = {}", MIGRATIONS.len()))?;
        tx.commit()?;
        Ok(SqliteStore { conn: Mutex::new(conn) })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Store for SqliteStore {
    fn ping(&self) -> Result<(), StoreError> {
        self.conn().query_row("SELECT count(*) FROM tool_scores WHERE 0", [], |r| r.get::<_, i64>(0))?;
        Ok(())
    }

    fn checkpoint(&self) -> Result<(), StoreError> {
        // (busy, log frames, frames checkpointed); TRUNCATE also empties the log file.
        self.conn().query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get::<_, i64>(0))?;
        Ok(())
    }

    fn get_score(&self, key: &StoredKey) -> Result<Option<serde_json::Value>, StoreError> {
        let text: Option<String> = self
            .conn()
            .query_row(
                "SELECT report FROM tool_scores WHERE input_hash=?1 AND spec_version=?2 AND judge=?3 AND prompts_sha256=?4",
                params![key.input_hash, key.spec_version, key.judge, key.prompts_sha256],
                |r| r.get(0),
            )
            .optional()?;
        text.map(|t| serde_json::from_str(&t).map_err(|e| StoreError(format!("stored report is not JSON: {e}"))))
            .transpose()
    }

    fn put_scores(&self, scores: &[(StoredKey, serde_json::Value)]) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT INTO tool_scores (input_hash, spec_version, judge, prompts_sha256, report, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT DO UPDATE SET report = excluded.report",
            )?;
            let now = now_ms();
            for (k, report) in scores {
                stmt.execute(params![
                    k.input_hash,
                    k.spec_version,
                    k.judge,
                    k.prompts_sha256,
                    report.to_string(),
                    now
                ])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn scores_for_judge(&self, judge: &str, limit: usize) -> Result<Vec<(StoredKey, serde_json::Value)>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT input_hash, spec_version, judge, prompts_sha256, report FROM tool_scores
             WHERE judge = ?1 ORDER BY created_at DESC LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![judge, limit as i64], |r| {
            Ok((
                StoredKey {
                    input_hash: r.get(0)?,
                    spec_version: r.get(1)?,
                    judge: r.get(2)?,
                    prompts_sha256: r.get(3)?,
                },
                r.get::<_, String>(4)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (k, text) = row?;
            match serde_json::from_str(&text) {
                Ok(v) => out.push((k, v)),
                Err(e) => tracing::warn!(hash = %k.input_hash, error = %e, "skipping a stored score that is not JSON"),
            }
        }
        Ok(out)
    }

    fn record_sightings(&self, sightings: &[Sighting]) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT INTO definitions (upstream, tool, input_hash, first_seen, last_seen) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT DO UPDATE SET last_seen = max(last_seen, excluded.last_seen)",
            )?;
            for s in sightings {
                stmt.execute(params![s.upstream, s.tool, s.input_hash, s.first_seen, s.last_seen])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn history(&self, upstream: &str, tool: &str) -> Result<Vec<Sighting>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT upstream, tool, input_hash, first_seen, last_seen FROM definitions
             WHERE upstream = ?1 AND tool = ?2 ORDER BY first_seen, input_hash",
        )?;
        let rows = stmt.query_map(params![upstream, tool], sighting)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn upstream_history(&self, upstream: &str) -> Result<Vec<Sighting>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT upstream, tool, input_hash, first_seen, last_seen FROM definitions
             WHERE upstream = ?1 ORDER BY tool, first_seen, input_hash",
        )?;
        let rows = stmt.query_map(params![upstream], sighting)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn get_coherence(&self, key: &str) -> Result<Option<serde_json::Value>, StoreError> {
        let text: Option<String> = self
            .conn()
            .query_row("SELECT answer FROM coherence WHERE key = ?1", params![key], |r| r.get(0))
            .optional()?;
        text.map(|t| serde_json::from_str(&t).map_err(|e| StoreError(format!("stored coherence is not JSON: {e}"))))
            .transpose()
    }

    fn put_coherence(&self, key: &str, server: &str, answer: &serde_json::Value) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT INTO coherence (key, server, answer, created_at) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT DO UPDATE SET answer = excluded.answer",
            params![key, server, answer.to_string(), now_ms()],
        )?;
        Ok(())
    }

    fn put_server_report(&self, upstream: &str, report: &serde_json::Value) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT INTO server_reports (upstream, report, updated_at) VALUES (?1, ?2, ?3)
             ON CONFLICT DO UPDATE SET report = excluded.report, updated_at = excluded.updated_at",
            params![upstream, report.to_string(), now_ms()],
        )?;
        Ok(())
    }

    fn server_reports(&self) -> Result<Vec<(String, serde_json::Value)>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare("SELECT upstream, report FROM server_reports ORDER BY upstream")?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
        let mut out = Vec::new();
        for row in rows {
            let (upstream, text) = row?;
            if let Ok(v) = serde_json::from_str(&text) {
                out.push((upstream, v));
            }
        }
        Ok(out)
    }

    fn claim(&self, key: &str, owner: &str, lease_ms: i64) -> Result<bool, StoreError> {
        let now = now_ms();
        let holder: Option<String> = self
            .conn()
            .query_row(
                "INSERT INTO claims (key, owner, expires_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
                 WHERE claims.owner = excluded.owner OR claims.expires_at < ?4
                 RETURNING owner",
                params![key, owner, now + lease_ms, now],
                |r| r.get(0),
            )
            .optional()?;
        Ok(holder.as_deref() == Some(owner))
    }

    fn release(&self, key: &str, owner: &str) -> Result<(), StoreError> {
        self.conn().execute("DELETE FROM claims WHERE key = ?1 AND owner = ?2", params![key, owner])?;
        Ok(())
    }

    fn renew(&self, keys: &[String], owner: &str, lease_ms: i64) -> Result<Vec<String>, StoreError> {
        let expires = now_ms() + lease_ms;
        let conn = self.conn();
        let mut stmt = conn.prepare("UPDATE claims SET expires_at = ?1 WHERE key = ?2 AND owner = ?3")?;
        let mut held = Vec::new();
        for key in keys {
            if stmt.execute(params![expires, key, owner])? == 1 {
                held.push(key.clone());
            }
        }
        Ok(held)
    }

    fn pins(&self) -> Result<Vec<Pin>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT upstream, tool, input_hash, approved_at, approved_by FROM pins ORDER BY upstream, tool, approved_at",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(Pin {
                upstream: r.get(0)?,
                tool: r.get(1)?,
                input_hash: r.get(2)?,
                approved_at: r.get(3)?,
                approved_by: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn pin_first(&self, pin: &Pin) -> Result<bool, StoreError> {
        let n = self.conn().execute(
            "INSERT INTO pins (upstream, tool, input_hash, approved_at, approved_by)
             SELECT ?1, ?2, ?3, ?4, ?5 WHERE NOT EXISTS (SELECT 1 FROM pins WHERE upstream = ?1 AND tool = ?2)",
            params![pin.upstream, pin.tool, pin.input_hash, pin.approved_at, pin.approved_by],
        )?;
        Ok(n == 1)
    }

    fn approve(&self, pins: &[Pin]) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT INTO pins (upstream, tool, input_hash, approved_at, approved_by) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT DO NOTHING",
            )?;
            for p in pins {
                stmt.execute(params![p.upstream, p.tool, p.input_hash, p.approved_at, p.approved_by])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn put_definition_texts(&self, texts: &[DefinitionText]) -> Result<(), StoreError> {
        super::texts::sqlite_put(&mut self.conn(), texts)
    }

    fn definition_texts(&self, upstream: &str, hashes: &[String]) -> Result<Vec<DefinitionText>, StoreError> {
        super::texts::sqlite_get(&self.conn(), upstream, hashes)
    }
}

fn sighting(r: &rusqlite::Row<'_>) -> rusqlite::Result<Sighting> {
    Ok(Sighting {
        upstream: r.get(0)?,
        tool: r.get(1)?,
        input_hash: r.get(2)?,
        first_seen: r.get(3)?,
        last_seen: r.get(4)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(h: &str) -> StoredKey {
        StoredKey { input_hash: h.into(), spec_version: "1.3".into(), judge: "m".into(), prompts_sha256: "p".into() }
    }

    #[test]
    fn many_opening_one_new_file_at_once_all_succeed() {
        for round in 0..20 {
            let dir = std::env::temp_dir().join(format!("tdqs-store-race-{}-{round}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            let path = dir.join("shared.db");
            let start = std::sync::Arc::new(std::sync::Barrier::new(8));
            let openers: Vec<_> = (0..8)
                .map(|_| {
                    let (path, start) = (path.clone(), start.clone());
                    std::thread::spawn(move || {
                        start.wait();
                        SqliteStore::open(&path).map(drop)
                    })
                })
                .collect();
            for o in openers {
                o.join().unwrap().unwrap_or_else(|e| panic!("round {round}: {e}"));
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    }

    #[test]
    fn scores_round_trip_and_upsert() {
        let dir = std::env::temp_dir().join(format!("tdqs-store-{}", std::process::id()));
        let path = dir.join("nested/scores.db");
        {
            let s = SqliteStore::open(&path).unwrap();
            s.put_scores(&[(key("a"), serde_json::json!({"tdqs": 4.3}))]).unwrap();
            s.put_scores(&[(key("a"), serde_json::json!({"tdqs": 4.4})), (key("b"), serde_json::json!({}))]).unwrap();
        }
        let s = SqliteStore::open(&path).unwrap(); // reopened: migrations are idempotent
        assert_eq!(s.get_score(&key("a")).unwrap(), Some(serde_json::json!({"tdqs": 4.4})));
        assert_eq!(s.get_score(&key("zzz")).unwrap(), None);
        assert_eq!(s.scores_for_judge("m", 10).unwrap().len(), 2);
        assert_eq!(s.scores_for_judge("other", 10).unwrap().len(), 0);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn sightings_keep_first_and_raise_last() {
        let s = SqliteStore::in_memory().unwrap();
        let seen = |h: &str, at: i64| Sighting {
            upstream: "u".into(),
            tool: "t".into(),
            input_hash: h.into(),
            first_seen: at,
            last_seen: at,
        };
        s.record_sightings(&[seen("h1", 10), seen("h1", 20), seen("h2", 30)]).unwrap();
        s.record_sightings(&[seen("h1", 15)]).unwrap();
        let h = s.history("u", "t").unwrap();
        assert_eq!(h.len(), 2);
        assert_eq!((h[0].input_hash.as_str(), h[0].first_seen, h[0].last_seen), ("h1", 10, 20));
    }

    #[test]
    fn claims_exclude_others_until_the_lease_runs_out() {
        let s = SqliteStore::in_memory().unwrap();
        assert!(s.claim("k", "a", 60_000).unwrap());
        assert!(!s.claim("k", "b", 60_000).unwrap(), "held by a");
        assert!(s.claim("k", "a", 60_000).unwrap(), "a renews its own claim");
        s.release("k", "b").unwrap(); // not b's: nothing happens
        assert!(!s.claim("k", "b", 60_000).unwrap());
        s.release("k", "a").unwrap();
        assert!(s.claim("k", "b", -1).unwrap(), "free after release");
        assert!(s.claim("k", "c", 60_000).unwrap(), "b's lease already ran out");
    }

    #[test]
    fn a_renewal_extends_only_the_owners_claims_and_never_brings_one_back() {
        let s = SqliteStore::in_memory().unwrap();
        assert!(s.claim("k", "a", -1).unwrap());
        assert!(s.claim("j", "b", 60_000).unwrap());
        let keys = ["k".to_owned(), "j".to_owned(), "gone".to_owned()];
        assert_eq!(s.renew(&keys, "a", 60_000).unwrap(), ["k"], "only a's claim is a's to renew");
        assert!(!s.claim("k", "b", 60_000).unwrap(), "a's renewed lease holds again");
        s.release("k", "a").unwrap();
        assert!(s.renew(&keys, "a", 60_000).unwrap().is_empty(), "a released claim stays released");
        assert!(s.claim("k", "b", 60_000).unwrap(), "and is free for another");
    }

    #[test]
    fn the_first_pin_is_trusted_once_and_approvals_accumulate() {
        let s = SqliteStore::in_memory().unwrap();
        let pin = |h: &str, by: &str| Pin {
            upstream: "u".into(),
            tool: "t".into(),
            input_hash: h.into(),
            approved_at: 1,
            approved_by: by.into(),
        };
        assert!(s.pin_first(&pin("h1", "first-use")).unwrap());
        assert!(!s.pin_first(&pin("h2", "first-use")).unwrap(), "a changed definition is not trusted");
        s.approve(&[pin("h2", "cli"), pin("h2", "cli")]).unwrap();
        let hashes: Vec<String> = s.pins().unwrap().into_iter().map(|p| p.input_hash).collect();
        assert_eq!(hashes, ["h1", "h2"]);
    }

    #[test]
    fn coherence_and_server_reports_round_trip() {
        let s = SqliteStore::in_memory().unwrap();
        s.put_coherence("k", "srv", &serde_json::json!({"summary": "a"})).unwrap();
        s.put_coherence("k", "srv", &serde_json::json!({"summary": "b"})).unwrap();
        assert_eq!(s.get_coherence("k").unwrap(), Some(serde_json::json!({"summary": "b"})));
        s.put_server_report("srv", &serde_json::json!({"n": 1})).unwrap();
        s.put_server_report("srv", &serde_json::json!({"n": 2})).unwrap();
        assert_eq!(s.server_reports().unwrap(), vec![("srv".to_owned(), serde_json::json!({"n": 2}))]);
    }

    #[test]
    fn a_file_that_is_not_a_database_is_a_clear_error() {
        let path = std::env::temp_dir().join(format!("tdqs-notdb-{}.db", std::process::id()));
        std::fs::write(&path, b"this is not a database, just text that is long enough to look like a header").unwrap();
        let e = SqliteStore::open(&path).err().expect("refused");
        assert!(e.to_string().contains(&path.display().to_string()), "{e}");
        std::fs::remove_file(&path).ok();
    }
}
