//! Threat findings beside the scores: the engine's context-free analysis of a definition is
//! kept by upstream and definition hash (the score's identity), so a repeat listing costs a
//! lookup and each finding is logged and counted once per definition, not once per list.
//! Cross-server findings depend on the other upstreams' tools and are not kept here.

use std::sync::Arc;

use crate::tdqs::threat::{self, Finding};

/// Findings of one definition, shared by every state that refers to it.
pub type Findings = Arc<[Finding]>;

pub struct ThreatCache {
    tools: moka::sync::Cache<(Arc<str>, String), Findings>,
    /// Server instructions by upstream and text hash.
    instructions: moka::sync::Cache<(Arc<str>, u64), Findings>,
}

impl ThreatCache {
    pub fn new(max_entries: u64) -> ThreatCache {
        ThreatCache {
            tools: moka::sync::Cache::new(max_entries),
            instructions: moka::sync::Cache::new(max_entries.min(10_000)),
        }
    }

    /// The findings kept for `input_hash` (a definition as the engine hashed it) listed by
    /// `upstream`, if it was analysed; the catalogue analyses a first sighting and [`keep`]s it.
    ///
    /// [`keep`]: ThreatCache::keep
    pub fn cached(&self, upstream: &str, input_hash: &str) -> Option<Findings> {
        self.tools.get(&(Arc::<str>::from(upstream), input_hash.to_owned()))
    }

    /// Keeps `found`, a first analysis of `input_hash`, reporting each finding (once per hash).
    pub fn keep(&self, upstream: &str, tool: &str, input_hash: &str, found: Vec<Finding>) -> Findings {
        let found: Findings = found.into();
        report(upstream, Some(tool), Some(input_hash), &found);
        self.tools.insert((Arc::<str>::from(upstream), input_hash.to_owned()), found.clone());
        found
    }

    /// The findings of a server's `instructions`.
    pub fn instructions(&self, upstream: &str, text: &str) -> Findings {
        let key = (Arc::<str>::from(upstream), xxhash_rust::xxh3::xxh3_64(text.as_bytes()));
        if let Some(f) = self.instructions.get(&key) {
            return f;
        }
        let found: Findings = threat::analyze_instructions(text).into();
        report(upstream, None, None, &found);
        self.instructions.insert(key, found.clone());
        found
    }
}

/// One log event and one count per finding.
pub fn report(upstream: &str, tool: Option<&str>, input_hash: Option<&str>, found: &[Finding]) {
    for f in found {
        tracing::warn!(
            name: "tdqs.threat_found",
            upstream,
            tool = tool.unwrap_or(""),
            hash = input_hash.unwrap_or(""),
            kind = %f.kind,
            severity = f.severity.as_str(),
            field = %f.field,
            evidence = %f.evidence,
            decoded = f.decoded.as_deref().unwrap_or(""),
            "threat found in a definition"
        );
        crate::telemetry::metrics().threat_found(upstream, &f.kind, f.severity.as_str());
    }
}
