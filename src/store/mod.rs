//! Durable scores. `store.url` picks the backend: `sqlite://PATH` (embedded, the default),
//! or `memory` for throwaway runs. What is kept: every final tool score by its score key
//! (the whole report entry), and the history of definitions: for each (upstream, tool name)
//! the hashes seen, with first and last sighting.
//!
//! The proxy never waits on the store: the scoring service reads it off the hot path, and
//! writes go through a background writer that batches them (see `writer.rs`).

mod sqlite;
pub mod writer;

use std::path::PathBuf;

use serde::Serialize;

pub use sqlite::SqliteStore;

/// Where scores are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreUrl {
    Memory,
    Sqlite(PathBuf),
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
            return Err("PostgreSQL is not supported by this build yet; use sqlite://PATH or memory".into());
        }
        Err(format!("{url:?} is not a store URL: use sqlite://PATH or memory"))
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

/// What the store can do; every call is blocking and made off the async threads.
pub trait Store: Send + Sync {
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
}

/// Opens the store a URL names.
pub fn open(url: &StoreUrl) -> Result<std::sync::Arc<dyn Store>, StoreError> {
    match url {
        StoreUrl::Memory => Ok(std::sync::Arc::new(SqliteStore::in_memory()?)),
        StoreUrl::Sqlite(path) => Ok(std::sync::Arc::new(SqliteStore::open(path)?)),
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
        assert!(StoreUrl::parse("postgres://x", base).unwrap_err().contains("not supported"));
        assert!(StoreUrl::parse("redis://x", base).is_err());
    }
}
