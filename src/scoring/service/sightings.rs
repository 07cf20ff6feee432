//! Sightings: which definition an upstream lists under a name, and when it changes.

use super::*;

impl ScoringService {
    /// Notes that `upstream` lists `tool` with definition `hash`: a new hash for a known name
    /// is logged as a definition change; sightings reach the store at most once a minute per
    /// unchanged definition.
    pub fn record_sighting(&self, upstream: &str, tool: &str, hash: &str) {
        let now = std::time::Instant::now();
        let key = (upstream.to_owned(), tool.to_owned());
        let write = match self.sightings.get(&key) {
            Some((h, at)) if h == hash && now.duration_since(at) < Duration::from_secs(60) => false,
            previous => {
                if let Some((old, _)) = previous.filter(|(h, _)| h != hash) {
                    tracing::info!(upstream, tool, old_hash = %old, new_hash = %hash, "tool definition changed");
                    crate::telemetry::metrics().definition_changed(upstream);
                }
                self.sightings.insert(key, (hash.to_owned(), now));
                true
            }
        };
        if write && let Some((_, writer)) = &self.store {
            let ms = crate::store::now_ms();
            writer.sighting(Sighting {
                upstream: upstream.to_owned(),
                tool: tool.to_owned(),
                input_hash: hash.to_owned(),
                first_seen: ms,
                last_seen: ms,
            });
        }
    }
}
