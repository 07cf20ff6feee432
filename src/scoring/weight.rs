//! The memory a cached score holds, approximately, so the score caches are capped in bytes
//! (`cache.max_bytes`) rather than only in entries: a definition with long descriptions and
//! justifications costs many times what a terse one does, and a count says nothing of that.

use std::sync::Arc;

use super::service::ScoreKey;
use crate::tdqs::tool_score::ToolScore;

/// What moka and the allocator add per entry besides the key and value themselves (the
/// entry's node, its deque links, hash slot, the `Arc` header), rounded up.
const ENTRY_OVERHEAD: usize = 256;

/// Approximate bytes of one score: its JSON form (strings dominate a score, and JSON carries
/// each once) plus the fixed overhead. Serializing happens once per insert (a new definition),
/// never on a lookup.
pub fn score_bytes(score: &ToolScore) -> usize {
    let json = serde_json::to_vec(score).map(|v| v.len()).unwrap_or(4096);
    json + std::mem::size_of::<ToolScore>() + ENTRY_OVERHEAD
}

fn weight(bytes: usize) -> u32 {
    u32::try_from(bytes).unwrap_or(u32::MAX)
}

/// The final scores, by key, holding at most `max_bytes` (approximately).
pub fn finals_cache(max_bytes: u64) -> moka::sync::Cache<ScoreKey, Arc<ToolScore>> {
    moka::sync::Cache::builder()
        .max_capacity(max_bytes)
        .weigher(|k: &ScoreKey, v: &Arc<ToolScore>| {
            let key = k.input_hash.len() + k.judge.len() + k.prompts_sha256.as_ref().map_or(0, String::len);
            weight(key + score_bytes(v))
        })
        .build()
}

/// The heuristic's scores, by definition hash, holding at most `max_bytes` (approximately).
pub fn heuristics_cache(max_bytes: u64) -> moka::sync::Cache<String, Arc<ToolScore>> {
    moka::sync::Cache::builder()
        .max_capacity(max_bytes)
        .weigher(|k: &String, v: &Arc<ToolScore>| weight(k.len() + score_bytes(v)))
        .build()
}

/// How `cache.max_bytes` is shared: three quarters for final scores, one quarter for the
/// heuristic's (provisional answers while a model judges). With the heuristic judge both
/// caches hold the same `Arc`, counted twice: the cap overestimates, never underestimates.
pub fn split(max_bytes: u64) -> (u64, u64) {
    let finals = max_bytes / 4 * 3;
    (finals, max_bytes - finals)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Judge;
    use crate::scoring::service::{CacheLimits, ScoringService};
    use crate::tdqs::definition::tool_from_object;

    fn tool(i: usize, description_words: usize) -> crate::tdqs::definition::ToolDefinition {
        let description =
            format!("Searches the issue tracker (variant {i}) ") + &"for matching issues ".repeat(description_words);
        let doc = format!(
            r#"{{"name":"tool_{i}","description":"{description}","inputSchema":{{"type":"object","properties":{{"query":{{"type":"string","description":"What to look for"}}}},"required":["query"]}}}}"#
        );
        let v = crate::tdqs::json::parse(doc.as_bytes()).unwrap();
        tool_from_object(v.as_object().unwrap(), i).unwrap()
    }

    #[test]
    fn a_score_weighs_what_its_text_holds() {
        let svc = ScoringService::new(Judge::Heuristic, 100);
        let score = svc.score("u", &tool(1, 2), &Default::default()).score;
        assert!(score_bytes(&score) > ENTRY_OVERHEAD + std::mem::size_of::<ToolScore>());
        // A model's long justifications and summary are what make one score big.
        let mut long = (*score).clone();
        long.summary.push_str(&"x".repeat(10_000));
        assert!(score_bytes(&long) >= score_bytes(&score) + 10_000);
    }

    #[test]
    fn the_score_caches_stay_under_their_byte_cap() {
        let cap: u64 = 256 * 1024;
        let svc = ScoringService::with_limits(Judge::Heuristic, CacheLimits { max_entries: 100_000, max_bytes: cap });
        for i in 0..2_000 {
            svc.score("u", &tool(i, i % 40), &Default::default());
        }
        let (bytes, entries) = svc.cache_footprint();
        assert!(bytes <= cap, "{bytes} bytes cached over a cap of {cap}");
        assert!(entries > 0, "the cap is not so small that nothing is kept");
        assert!(entries < 4_000, "2,000 scores in two caches do not fit in {cap} bytes: some were evicted");
    }
}
