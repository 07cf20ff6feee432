//! Durable scores. `store.url` picks the backend: `sqlite://PATH` (embedded, the default),
//! `postgres://...` (one database for a fleet of gateways), or `memory` for throwaway runs.
//! What is kept: every final tool score by its score key (the whole report entry), coherence
//! answers by their key, each upstream's latest server report, the history of definitions
//! (for each (upstream, tool name) the hashes seen, with first and last sighting), the hashes
//! approved for pinned tools, the text of pinned upstreams' definitions by hash (so an approval
//! can be shown against what was approved before, after a restart and from the CLI), and the
//! claims replicas take before calling a model judge.
//!
//! The proxy never waits on the store: the scoring service reads it off the hot path, and
//! writes go through a background writer that batches them (see `writer.rs`).

pub mod approved;
mod postgres;
mod postgres_tls;
mod sqlite;
mod texts;
pub mod writer;

use std::path::PathBuf;

use serde::Serialize;

pub use postgres::PostgresStore;
pub use sqlite::SqliteStore;

/// Where scores are kept.
#[derive(Clone, PartialEq, Eq)]
pub enum StoreUrl {
    Memory,
    Sqlite(PathBuf),
    /// A libpq-style URL; may carry a password, so it is never printed whole.
    Postgres(String),
}

impl std::fmt::Debug for StoreUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreUrl::Memory => f.write_str("memory"),
            StoreUrl::Sqlite(p) => write!(f, "sqlite://{}", p.display()),
            StoreUrl::Postgres(url) => write!(f, "{}", redact_url(url)),
        }
    }
}

/// A URL with its password replaced by `***`.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_owned() };
    let (authority, tail) = rest.split_at(rest.find(['/', '?']).unwrap_or(rest.len()));
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => {
            let user = userinfo.split_once(':').map_or(userinfo, |(u, _)| u);
            let masked = if userinfo.contains(':') { format!("{user}:***") } else { user.to_owned() };
            format!("{scheme}://{masked}@{host}{tail}")
        }
        None => url.to_owned(),
    }
}

impl StoreUrl {
    /// Parses `memory` or `sqlite://PATH` (relative paths resolve against `base`).
    pub fn parse(url: &str, base: &std::path::Path) -> Result<StoreUrl, String> {
        if url == "memory" {
            return Ok(StoreUrl::Memory);
        }
        if let Some(path) = url.strip_prefix("sqlite://") {
            if path.is_empty() {
                return Err("sqlite:// needs a file path, e.g. sqlite://data/scores.db".into());
            }
            let p = PathBuf::from(path);
            return Ok(StoreUrl::Sqlite(if p.is_absolute() { p } else { base.join(p) }));
        }
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let url = postgres_tls::resolve(url, base)?;
            // The driver's own parameters are checked now too, so `check-config` names them.
            let (driver_url, _) = postgres_tls::split(&url)?;
            driver_url.parse::<::postgres::Config>().map_err(|e| StoreError::from(e).0)?;
            return Ok(StoreUrl::Postgres(url));
        }
        Err(format!("{:?} is not a store URL: use sqlite://PATH, postgres://... or memory", redact_url(url)))
    }
}

#[derive(Debug, thiserror::Error)]
#[error("store: {0}")]
pub struct StoreError(pub String);

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError(e.to_string())
    }
}

impl From<::postgres::Error> for StoreError {
    fn from(e: ::postgres::Error) -> Self {
        // The driver's Display hides the cause ("db error"); the source says what happened.
        match std::error::Error::source(&e) {
            Some(cause) => StoreError(format!("{e}: {cause}")),
            None => StoreError(e.to_string()),
        }
    }
}

impl From<r2d2::Error> for StoreError {
    fn from(e: r2d2::Error) -> Self {
        StoreError(format!("no database connection: {e}"))
    }
}

/// Unix milliseconds now.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// The identity a stored score is filed under (see `scoring::service::ScoreKey`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct StoredKey {
    pub input_hash: String,
    pub spec_version: String,
    pub judge: String,
    pub prompts_sha256: String,
}

/// One definition sighting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sighting {
    pub upstream: String,
    pub tool: String,
    pub input_hash: String,
    /// Unix milliseconds.
    pub first_seen: i64,
    pub last_seen: i64,
}

/// A hash approved for a pinned tool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pin {
    pub upstream: String,
    pub tool: String,
    pub input_hash: String,
    /// Unix milliseconds.
    pub approved_at: i64,
    /// `first-use` for the automatic first approval, else who approved (`cli`, `admin`).
    pub approved_by: String,
}

/// The text of one definition of a pinned upstream's tool, as the upstream listed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefinitionText {
    pub upstream: String,
    pub tool: String,
    pub input_hash: String,
    pub definition: String,
}

/// What the store can do; every call is blocking and made off the async threads.
pub trait Store: Send + Sync {
    /// Answers when the store can be read (for `/readyz`).
    fn ping(&self) -> Result<(), StoreError>;
    /// At shutdown, after the last write: leaves the store complete without this process
    /// (SQLite folds its write-ahead log into the database file, so the file alone is a full
    /// copy for a backup or another host).
    fn checkpoint(&self) -> Result<(), StoreError> {
        Ok(())
    }
    /// The stored report entry (JSON) for a key.
    fn get_score(&self, key: &StoredKey) -> Result<Option<serde_json::Value>, StoreError>;
    /// Upserts scores; writing the same key twice is harmless.
    fn put_scores(&self, scores: &[(StoredKey, serde_json::Value)]) -> Result<(), StoreError>;
    /// Every score of one judge (for warming the cache at start), newest first, at most `limit`.
    fn scores_for_judge(&self, judge: &str, limit: usize) -> Result<Vec<(StoredKey, serde_json::Value)>, StoreError>;
    /// Records sightings (upsert: first_seen kept, last_seen raised).
    fn record_sightings(&self, sightings: &[Sighting]) -> Result<(), StoreError>;
    /// Every hash seen for one tool of one upstream, oldest first.
    fn history(&self, upstream: &str, tool: &str) -> Result<Vec<Sighting>, StoreError>;
    /// Every sighting of one upstream's tools, by tool then oldest first.
    fn upstream_history(&self, upstream: &str) -> Result<Vec<Sighting>, StoreError>;

    /// A stored coherence answer (the contract's JSON) by its key.
    fn get_coherence(&self, key: &str) -> Result<Option<serde_json::Value>, StoreError>;
    /// Upserts a coherence answer.
    fn put_coherence(&self, key: &str, server: &str, answer: &serde_json::Value) -> Result<(), StoreError>;
    /// Replaces an upstream's latest server report.
    fn put_server_report(&self, upstream: &str, report: &serde_json::Value) -> Result<(), StoreError>;
    /// Every upstream's latest server report.
    fn server_reports(&self) -> Result<Vec<(String, serde_json::Value)>, StoreError>;

    /// Takes (or renews) the claim on `key` for `owner` until `lease_ms` from now, unless
    /// another owner holds an unexpired claim. True when `owner` holds it afterwards.
    fn claim(&self, key: &str, owner: &str, lease_ms: i64) -> Result<bool, StoreError>;
    /// Gives a claim up (only `owner`'s).
    fn release(&self, key: &str, owner: &str) -> Result<(), StoreError>;
    /// Extends `owner`'s claims on `keys` to `lease_ms` from now; the keys it still holds.
    /// Never takes a claim nor brings back one that is gone: a renewal that reaches the store
    /// after the release of its claim must not leave a claim behind (see `fleet.rs`).
    fn renew(&self, keys: &[String], owner: &str, lease_ms: i64) -> Result<Vec<String>, StoreError>;

    /// Every approved pin.
    fn pins(&self) -> Result<Vec<Pin>, StoreError>;
    /// Approves `pin` only when its tool has no approved hash yet (trust on first use).
    /// True when it was recorded.
    fn pin_first(&self, pin: &Pin) -> Result<bool, StoreError>;
    /// Approves hashes (idempotent).
    fn approve(&self, pins: &[Pin]) -> Result<(), StoreError>;

    /// Keeps definition texts; the first text kept for an (upstream, hash) stays.
    fn put_definition_texts(&self, texts: &[DefinitionText]) -> Result<(), StoreError>;
    /// The texts kept for these hashes of one upstream (those it has).
    fn definition_texts(&self, upstream: &str, hashes: &[String]) -> Result<Vec<DefinitionText>, StoreError>;
}

/// Opens the store a URL names.
pub fn open(url: &StoreUrl) -> Result<std::sync::Arc<dyn Store>, StoreError> {
    match url {
        StoreUrl::Memory => Ok(std::sync::Arc::new(SqliteStore::in_memory()?)),
        StoreUrl::Sqlite(path) => Ok(std::sync::Arc::new(SqliteStore::open(path)?)),
        StoreUrl::Postgres(url) => Ok(std::sync::Arc::new(PostgresStore::open(url)?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        let base = std::path::Path::new("/etc/tdqs");
        assert_eq!(StoreUrl::parse("memory", base), Ok(StoreUrl::Memory));
        assert_eq!(StoreUrl::parse("sqlite://data/s.db", base), Ok(StoreUrl::Sqlite("/etc/tdqs/data/s.db".into())));
        assert_eq!(StoreUrl::parse("sqlite:///var/s.db", base), Ok(StoreUrl::Sqlite("/var/s.db".into())));
        assert_eq!(StoreUrl::parse("postgres://x", base), Ok(StoreUrl::Postgres("postgres://x".into())));
        assert!(StoreUrl::parse("redis://x", base).is_err());
        let pg = StoreUrl::parse("postgresql://app:s3cret@db:5432/tdqs?sslmode=disable", base).unwrap();
        assert_eq!(format!("{pg:?}"), "postgresql://app:***@db:5432/tdqs?sslmode=disable");
        assert_eq!(redact_url("postgres://app@db/x"), "postgres://app@db/x");
        let e = StoreUrl::parse("postgres://app:s3cret@db/x?sslmode=verify", base).unwrap_err();
        assert!(e.contains("sslmode") && !e.contains("s3cret"), "{e}");
        let e = StoreUrl::parse("postgres://app:s3cret@db/x?sslfoo=1", base).unwrap_err();
        assert!(e.contains("sslfoo") && !e.contains("s3cret"), "{e}");
        let pg = StoreUrl::parse("postgres://db/x?sslmode=verify-full&sslrootcert=ca.pem", base).unwrap();
        assert_eq!(pg, StoreUrl::Postgres("postgres://db/x?sslmode=verify-full&sslrootcert=/etc/tdqs/ca.pem".into()));
    }
}
