//! Remembered renderings of a `tools` array: a repeat list (the common case) costs a read of
//! the envelope, a comparison and a splice.

use super::*;

/// What a `tools` array became, valid while the scoring generation is unchanged. A repeat
/// list (the common case) then costs a read of the envelope, a comparison and a splice.
pub(super) struct Rendered {
    pub(super) generation: (u64, u64),
    /// The upstream's array text, compared on a hit (the key only finds candidates).
    pub(super) original: Arc<str>,
    /// Its hash, which names a whole list in `last_whole`.
    pub(super) hash: u64,
    /// The array to send, or `None` when nothing changes.
    pub(super) output: Option<Bytes>,
    pub(super) ttl_cap: Option<u64>,
    /// Why each removed tool was removed (for the `tdqs.tools.hidden` counter).
    pub(super) hidden: Arc<[HideReason]>,
    /// The names of the tools in the array.
    pub(super) names: Arc<[String]>,
}

/// Distinct arrays remembered per upstream before the memory is cleared.
pub(super) const RENDERED_ENTRIES: usize = 256;

/// Bytes of a message, from its `tools` array on, that find remembered renderings.
pub(super) const PREFIX_BYTES: usize = 256;

/// The key of remembered renderings for a message whose `tools` array starts `from_tools`
/// (the array's length is not known before it is matched, so the key is a prefix's).
pub(super) fn prefix_key(from_tools: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(&from_tools[..from_tools.len().min(PREFIX_BYTES)])
}

impl UpstreamTools {
    /// The rendering remembered for the array `from_tools` starts with, if still current.
    pub(super) fn remembered(&self, from_tools: &[u8], generation: (u64, u64)) -> Option<Arc<Rendered>> {
        let map = self.rendered.lock();
        let candidates = map.get(&prefix_key(from_tools))?;
        candidates.iter().find(|r| r.generation == generation && from_tools.starts_with(r.original.as_bytes())).cloned()
    }
}

impl UpstreamTools {
    /// Remembers what the array `from_tools` starts with became, replacing an older rendering
    /// of the same array and forgetting those of other generations; past [`RENDERED_ENTRIES`]
    /// the memory starts over.
    pub(super) fn remember_rendering(&self, from_tools: &[u8], rendered: Rendered) {
        let mut m = self.rendered.lock();
        // A rendering of another generation is never found again (`remembered` wants the
        // current one, and generations only grow). Kept, they were dead weight up to the cap:
        // an upstream whose descriptions change moves the generation with every new score, so
        // its memory filled with renderings nobody would ask for (a few MB per such upstream,
        // freed all at once and filled again every few minutes: the soak's heap profile showed
        // it as the one site still growing after warm-up).
        m.retain(|_, same| {
            same.retain(|r| r.generation == rendered.generation);
            !same.is_empty()
        });
        if m.values().map(Vec::len).sum::<usize>() >= RENDERED_ENTRIES {
            m.clear();
        }
        let same = m.entry(prefix_key(from_tools)).or_default();
        same.retain(|r| r.original != rendered.original);
        same.push(Arc::new(rendered));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list of one tool whose description changes with `i` (the name stays, as on an upstream
    /// that rewrites its descriptions): a new definition, so a new score, for each `i`.
    fn answer(i: usize) -> Vec<u8> {
        let tool = json!({"name": "read_records", "description": format!("Reads record set {i} by its id.")});
        json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [tool]}}).to_string().into_bytes()
    }

    fn remembered_count(u: &UpstreamTools) -> usize {
        u.rendered.lock().values().map(Vec::len).sum()
    }

    #[tokio::test]
    async fn renderings_of_past_generations_are_forgotten_not_kept_to_the_cap() {
        let cfg = crate::config::Config::default();
        let u = UpstreamTools::new("u".into(), cfg.effective_policy(&Default::default()));
        let scoring = ScoringService::new(crate::judge::Judge::Heuristic, 1000);
        let generation = || (scoring.generation(), u.roster.generation());
        let mut generations = std::collections::HashSet::new();
        for i in 0..40 {
            u.rewrite_list(&scoring, &answer(i)).await;
            generations.insert(generation());
        }
        assert!(generations.len() > 30, "new definitions did not move the generation: {}", generations.len());
        assert_eq!(remembered_count(&u), 1, "renderings of past generations are still remembered");
        // The current generation's rendering is the one kept: the repeat list is a hit.
        let before = generation();
        u.rewrite_list(&scoring, &answer(39)).await;
        assert_eq!((generation(), remembered_count(&u)), (before, 1));
        let m = u.rendered.lock();
        assert!(m.values().flatten().all(|r| r.generation == before));
    }
}
