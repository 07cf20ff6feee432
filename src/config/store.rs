//! `[store]` and `[cache]`: where scores are kept, and how much of them memory holds.

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoreConfig {
    /// `sqlite://PATH`, `postgres://...` or `memory`. Default: `sqlite://data/scores.db`
    /// beside the config file, or in the user's data folder when there is no config file.
    pub url: Option<String>,
    /// How long a replica's claim on a judge call lasts without renewal: after a replica dies
    /// mid-call, another takes the call over this long after its last renewal.
    #[serde(default = "default_lease_ms")]
    pub lease_ms: u64,
}

fn default_lease_ms() -> u64 {
    30_000
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig { url: None, lease_ms: default_lease_ms() }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheConfig {
    /// Entries of the caches counted in entries, and how many stored scores warm memory.
    #[serde(default = "default_cache_entries")]
    pub max_entries: u64,
    /// Approximate bytes the score caches may hold together (moka weigher).
    #[serde(default = "default_cache_bytes")]
    pub max_bytes: u64,
}

fn default_cache_entries() -> u64 {
    100_000
}

fn default_cache_bytes() -> u64 {
    256 * 1024 * 1024
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig { max_entries: default_cache_entries(), max_bytes: default_cache_bytes() }
    }
}
