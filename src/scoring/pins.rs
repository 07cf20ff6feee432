//! Pins: rug-pull protection. For an upstream with `pin = true` the first definition seen of
//! each tool is approved (trust on first use); a later definition with another hash is not
//! approved until an operator approves it (`tdqs-gateway approve`, or the admin API). Every
//! approved hash stays approved, so a tool that goes back to an approved definition needs
//! nothing.
//!
//! The approved set lives in the store (shared by a fleet) and in memory here, reloaded
//! periodically so approvals made elsewhere (the CLI, another replica) take effect. The texts
//! of pinned definitions go to the store too ([`Pins::texts_to_keep`], through the store writer), so that what is held can
//! be shown against what was approved before by anyone who reads the store.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

use crate::store::{DefinitionText, Pin, Store, StoreError, now_ms};

// The decision reads pin statuses, so the type is the policy's.
pub use crate::policy::PinStatus;

type Book = HashMap<(String, String), HashSet<String>>;

/// A definition longer than this is not kept as text (its approval view has no diff): a
/// hostile upstream's huge definitions cost the store no more than this each.
const TEXT_KEPT_MAX: usize = 256 * 1024;
/// (upstream, hash) pairs remembered as written; past it the set starts again (a rewrite is
/// harmless: the store keeps the first text).
const TEXTS_REMEMBERED: usize = 20_000;

pub struct Pins {
    store: Option<Arc<dyn Store>>,
    approved: RwLock<Book>,
    /// Whether `approved` reflects the store (always, without one).
    loaded: AtomicBool,
    /// Definition texts this process sent to the store, so each goes once.
    texts_sent: parking_lot::Mutex<HashSet<(String, String)>>,
}

impl Pins {
    pub fn new(store: Option<Arc<dyn Store>>) -> Pins {
        let pins = Pins {
            loaded: AtomicBool::new(store.is_none()),
            store,
            approved: RwLock::default(),
            texts_sent: Default::default(),
        };
        if let Err(e) = pins.reload() {
            tracing::error!(error = %e, "cannot read pinned definitions; pinned tools are unverified until the store answers");
        }
        pins
    }

    /// Reads every approval from the store; true when the approved set changed.
    pub fn reload(&self) -> Result<bool, StoreError> {
        let Some(store) = &self.store else { return Ok(false) };
        let mut book = Book::new();
        for p in store.pins()? {
            book.entry((p.upstream, p.tool)).or_default().insert(p.input_hash);
        }
        let was_loaded = self.loaded.swap(true, Ordering::AcqRel);
        let mut approved = self.approved.write().unwrap_or_else(|e| e.into_inner());
        // Keep first-use approvals whose store write is still on its way; a change is only
        // what the store added.
        for (k, hashes) in approved.iter() {
            if !book.contains_key(k) {
                book.insert(k.clone(), hashes.clone());
            }
        }
        let changed = *approved != book;
        *approved = book;
        Ok(changed || !was_loaded)
    }

    /// The status of `tool`'s definition `hash`; the first definition of a tool is approved
    /// on the spot.
    pub fn check(&self, upstream: &str, tool: &str, hash: &str) -> PinStatus {
        self.check_or_hold(upstream, tool, hash, false)
    }

    /// Whether any tool of `upstream` is pinned (its first listing happened, here or in the
    /// store's history).
    pub fn knows_upstream(&self, upstream: &str) -> bool {
        self.approved.read().unwrap_or_else(|e| e.into_inner()).keys().any(|(u, _)| u == upstream)
    }

    /// [`check`](Self::check), except that with `hold_new` a tool never pinned before is
    /// [`PinStatus::New`] instead of approved on first use.
    pub fn check_or_hold(&self, upstream: &str, tool: &str, hash: &str, hold_new: bool) -> PinStatus {
        if !self.loaded.load(Ordering::Acquire) {
            return PinStatus::Unverified;
        }
        let key = (upstream.to_owned(), tool.to_owned());
        if let Some(hashes) = self.approved.read().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return if hashes.contains(hash) { PinStatus::Approved } else { PinStatus::Changed };
        }
        {
            let mut book = self.approved.write().unwrap_or_else(|e| e.into_inner());
            if let Some(hashes) = book.get(&key) {
                return if hashes.contains(hash) { PinStatus::Approved } else { PinStatus::Changed };
            }
            if hold_new {
                return PinStatus::New;
            }
            book.entry(key).or_default().insert(hash.to_owned());
        }
        tracing::info!(upstream, tool, hash, "pinned a tool's first definition");
        if let Some(store) = self.store.clone() {
            let pin = pin(upstream, tool, hash, "first-use");
            // Off the hot path. Another replica may have pinned a different definition first:
            // the next reload then shows this one as changed.
            let write = move || {
                if let Err(e) = store.pin_first(&pin) {
                    tracing::warn!(error = %e, tool = %pin.tool, "could not store a first-use pin; kept in memory");
                }
            };
            match tokio::runtime::Handle::try_current() {
                Ok(rt) => drop(rt.spawn_blocking(write)),
                Err(_) => drop(std::thread::spawn(write)),
            }
        }
        PinStatus::Approved
    }

    /// Approves hashes (blocking: call off the async threads).
    pub fn approve(&self, approvals: &[(String, String, String)], by: &str) -> Result<(), StoreError> {
        let pins: Vec<Pin> = approvals.iter().map(|(u, t, h)| pin(u, t, h, by)).collect();
        if let Some(store) = &self.store {
            store.approve(&pins)?;
        }
        let mut book = self.approved.write().unwrap_or_else(|e| e.into_inner());
        for p in pins {
            book.entry((p.upstream, p.tool)).or_default().insert(p.input_hash);
        }
        Ok(())
    }

    /// The texts of `listed` (tool, hash, definition as listed) not yet sent to the store,
    /// marked as sent: what the store writer keeps for the approval views, whatever their
    /// status (a held text is what `approve` shows, an approved one what later ones are
    /// compared with). Over-long texts are left out; without a store, nothing. The writer
    /// retries a failed batch itself, so a text marked here is not lost to a store outage.
    pub fn texts_to_keep(&self, upstream: &str, listed: &[(&str, &str, &str)]) -> Vec<DefinitionText> {
        if self.store.is_none() {
            return Vec::new();
        }
        let mut sent = self.texts_sent.lock();
        if sent.len() >= TEXTS_REMEMBERED {
            sent.clear();
        }
        listed
            .iter()
            .filter(|(_, _, text)| text.len() <= TEXT_KEPT_MAX)
            .filter(|(_, hash, _)| sent.insert((upstream.to_owned(), (*hash).to_owned())))
            .map(|(tool, hash, text)| DefinitionText {
                upstream: upstream.to_owned(),
                tool: (*tool).to_owned(),
                input_hash: (*hash).to_owned(),
                definition: (*text).to_owned(),
            })
            .collect()
    }

    /// Approved hashes of one tool.
    pub fn approved(&self, upstream: &str, tool: &str) -> Vec<String> {
        let book = self.approved.read().unwrap_or_else(|e| e.into_inner());
        let mut v: Vec<String> =
            book.get(&(upstream.to_owned(), tool.to_owned())).map(|h| h.iter().cloned().collect()).unwrap_or_default();
        v.sort();
        v
    }
}

fn pin(upstream: &str, tool: &str, hash: &str, by: &str) -> Pin {
    Pin {
        upstream: upstream.to_owned(),
        tool: tool.to_owned(),
        input_hash: hash.to_owned(),
        approved_at: now_ms(),
        approved_by: by.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SqliteStore;

    #[test]
    fn first_use_then_change_then_approval_then_return() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
        let pins = Pins::new(Some(store.clone()));
        assert_eq!(pins.check("u", "t", "h1"), PinStatus::Approved);
        // The first-use pin is written in the background; an approval racing it would make the
        // store refuse it as not first (it then lives in memory only), so wait for it here.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while store.pins().unwrap().is_empty() {
            assert!(std::time::Instant::now() < deadline, "the first-use pin never reached the store");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert_eq!(pins.check("u", "t", "h2"), PinStatus::Changed);
        pins.approve(&[("u".into(), "t".into(), "h2".into())], "cli").unwrap();
        assert_eq!(pins.check("u", "t", "h2"), PinStatus::Approved);
        assert_eq!(pins.check("u", "t", "h1"), PinStatus::Approved, "an approved definition that returns");
        // A second gateway on the same store sees the approvals after the first-use write lands.
        let other = Pins::new(Some(store));
        assert_eq!(other.check("u", "t", "h3"), PinStatus::Changed);
        assert_eq!(other.approved("u", "t"), ["h1", "h2"]);
    }

    #[test]
    fn a_new_name_is_held_until_approved() {
        let pins = Pins::new(None);
        assert!(!pins.knows_upstream("u"));
        assert_eq!(pins.check_or_hold("u", "t", "h1", false), PinStatus::Approved);
        assert!(pins.knows_upstream("u"));
        assert_eq!(pins.check_or_hold("u", "renamed", "h9", true), PinStatus::New);
        assert_eq!(pins.check_or_hold("u", "renamed", "h9", true), PinStatus::New, "held, not pinned");
        pins.approve(&[("u".into(), "renamed".into(), "h9".into())], "admin").unwrap();
        assert_eq!(pins.check_or_hold("u", "renamed", "h9", true), PinStatus::Approved);
    }

    #[test]
    fn approvals_made_elsewhere_arrive_on_reload() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
        store.approve(&[pin("u", "t", "h1", "cli")]).unwrap();
        let pins = Pins::new(Some(store.clone()));
        assert_eq!(pins.check("u", "t", "h2"), PinStatus::Changed);
        store.approve(&[pin("u", "t", "h2", "cli")]).unwrap();
        assert!(pins.reload().unwrap());
        assert_eq!(pins.check("u", "t", "h2"), PinStatus::Approved);
        assert!(!pins.reload().unwrap(), "nothing new");
    }
}
