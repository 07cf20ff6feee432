//! The other tools of a list, as a judge sees them. One list's names are shared by all of its
//! tools (an `Arc`), and each tool's view leaves its own name out only when a judge call
//! needs the names written out. Before, every tool kept its own copy of every other name: a
//! 4,000-tool list held 16 million names, a 20,000-tool list 400 million.

use std::sync::{Arc, Mutex, Weak};

use crate::judge::heuristic::SiblingIndex;
use crate::tdqs::json::JsString;

/// A list's names, held weakly, with their index.
type Kept = (Weak<[JsString]>, Arc<SiblingIndex>);

/// One tool's siblings: the names of its list, minus its own.
#[derive(Clone, Debug, Default)]
pub struct Siblings {
    names: Arc<[JsString]>,
    own: JsString,
}

impl Siblings {
    /// The siblings of `own` in a list whose names are `names` (shared with the list's other
    /// tools).
    pub fn new(names: Arc<[JsString]>, own: JsString) -> Self {
        Siblings { names, own }
    }

    /// The names, written out for one judge call (dropped when it returns).
    pub fn to_vec(&self) -> Vec<JsString> {
        self.names.iter().filter(|n| **n != self.own).cloned().collect()
    }

    /// The list the names are shared with (two views of one list share it).
    pub fn shares_list_with(&self, other: &Siblings) -> bool {
        Arc::ptr_eq(&self.names, &other.names)
    }

    /// This tool's own name (left out of its siblings).
    pub fn own(&self) -> &JsString {
        &self.own
    }

    /// The heuristic judge's index of the whole list, built once per list: the tools of a
    /// list are scored one after the other, each asking for the index of the same shared
    /// names, so the last few lists' indexes are kept (by the identity of their names, held
    /// weakly: a list gone is never mistaken for a new one at the same address).
    pub fn index(&self) -> Arc<SiblingIndex> {
        const KEPT: usize = 8;
        static RECENT: Mutex<Vec<Kept>> = Mutex::new(Vec::new());
        let found = |recent: &mut Vec<Kept>| {
            recent.retain(|(w, _)| w.strong_count() > 0);
            recent
                .iter()
                .find(|(w, _)| w.upgrade().is_some_and(|n| Arc::ptr_eq(&n, &self.names)))
                .map(|(_, i)| i.clone())
        };
        if let Some(i) = RECENT.lock().ok().and_then(|mut r| found(&mut r)) {
            return i;
        }
        let index = Arc::new(SiblingIndex::new(&self.names));
        if let Ok(mut recent) = RECENT.lock() {
            if recent.len() >= KEPT {
                recent.remove(0);
            }
            recent.push((Arc::downgrade(&self.names), index.clone()));
        }
        index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_tool_sees_the_others_and_the_list_is_shared() {
        let names: Arc<[JsString]> = ["a", "b", "c"].map(JsString::from).into();
        let a = Siblings::new(names.clone(), JsString::from("a"));
        let c = Siblings::new(names, JsString::from("c"));
        assert_eq!(a.to_vec(), ["b", "c"].map(JsString::from));
        assert_eq!(c.to_vec(), ["a", "b"].map(JsString::from));
        assert!(a.shares_list_with(&c));
        assert!(Arc::ptr_eq(&a.index(), &c.index()), "one index for the list");
        let other = Siblings::new(["a", "b", "c"].map(JsString::from).into(), JsString::from("a"));
        assert!(!Arc::ptr_eq(&a.index(), &other.index()), "another list, another index");
    }
}
