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
    pub(super) output: Option<Arc<str>>,
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
    /// of the same array; past [`RENDERED_ENTRIES`] the memory starts over.
    pub(super) fn remember_rendering(&self, from_tools: &[u8], rendered: Rendered) {
        let mut m = self.rendered.lock();
        if m.values().map(Vec::len).sum::<usize>() >= RENDERED_ENTRIES {
            m.clear();
        }
        let same = m.entry(prefix_key(from_tools)).or_default();
        same.retain(|r| r.original != rendered.original);
        same.push(Arc::new(rendered));
    }
}
