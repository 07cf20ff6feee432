//! The gateway-wide view of which tool names each upstream lists now. Cross-server threat
//! findings (a tool that tells the agent how to use another server's tool, a name that
//! collides with another server's) are only visible here; when one upstream's names change,
//! the others are decided again and their sessions told if what they may see changed.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

/// One upstream's tools as (name, definition hash).
type Tools = Arc<[(String, String)]>;

pub struct Roster {
    names: Mutex<BTreeMap<String, Tools>>,
    /// Bumped on every change: renderings decided against the old names are stale.
    generation: AtomicU64,
    changes: broadcast::Sender<Arc<str>>,
}

impl Default for Roster {
    fn default() -> Self {
        Roster { names: Mutex::default(), generation: AtomicU64::new(0), changes: broadcast::channel(64).0 }
    }
}

impl Roster {
    /// Records `upstream`'s current tools (name, definition hash); true (and listeners told)
    /// when they changed.
    pub fn set(&self, upstream: &str, mut names: Vec<(String, String)>) -> bool {
        names.sort();
        names.dedup();
        {
            let Ok(mut map) = self.names.lock() else { return false };
            if map.get(upstream).is_some_and(|old| **old == *names) {
                return false;
            }
            map.insert(upstream.to_owned(), names.into());
        }
        self.generation.fetch_add(1, Ordering::AcqRel);
        let _ = self.changes.send(Arc::from(upstream));
        true
    }

    /// `(upstream, tool, hash)` for every tool of every upstream other than `upstream`.
    pub fn others(&self, upstream: &str) -> Vec<(Arc<str>, String, String)> {
        let Ok(map) = self.names.lock() else { return vec![] };
        map.iter()
            .filter(|(u, _)| u.as_str() != upstream)
            .flat_map(|(u, names)| {
                let u: Arc<str> = Arc::from(u.as_str());
                names.iter().map(move |(n, h)| (u.clone(), n.clone(), h.clone()))
            })
            .collect()
    }

    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Names of upstreams whose tool names changed.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.changes.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_seen_by_the_others_once() {
        let r = Roster::default();
        let mut rx = r.subscribe();
        let t = |n: &str, h: &str| (n.to_owned(), h.to_owned());
        assert!(r.set("a", vec![t("x", "1"), t("y", "2")]));
        assert!(!r.set("a", vec![t("y", "2"), t("x", "1")]), "the same set in another order");
        assert!(r.set("b", vec![t("z", "3")]));
        let a: Arc<str> = Arc::from("a");
        assert_eq!(
            r.others("b"),
            vec![(a.clone(), "x".to_owned(), "1".to_owned()), (a, "y".to_owned(), "2".to_owned())]
        );
        assert!(r.set("a", vec![t("x", "1"), t("y", "9")]), "a changed definition is a change");
        assert_eq!(r.generation(), 3);
        assert_eq!(&*rx.try_recv().unwrap(), "a");
        assert_eq!(&*rx.try_recv().unwrap(), "b");
    }
}
