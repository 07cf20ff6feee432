//! Strings of one list already read and found to hold nothing, whatever tool they appear in:
//! most strings of a `tools/list` repeat within it (`"string"` and `"object"` in every schema,
//! the same property names and enum values across tools; four out of five of the bench
//! corpus' strings), and a repeat of a clean string need not be read again.
//!
//! "Clean" is decided by the analysis itself ([`super::analyze_text`]): no finding, nothing
//! hidden, and no rule that reads the tool's parameter names was triggered, so that the
//! string's own findings are empty in any context. For the cross-server reading a string is
//! clean when it directs nothing and mentions no other upstream's tool, which depends on the
//! names it was read against ([`CrossNames`]): those marks hold for one index only and are
//! dropped when another is used.
//!
//! The memo also lends each definition of the list, in turn, the two buffers its reading
//! writes into (the strings' JSON pointers, the folded text): one allocation for the list
//! rather than two large ones per definition, which made glibc's allocator consolidate its
//! free lists each time (7% of a first sighting's instructions).
//!
//! The set is exact (the whole string is the key, no digest that a crafted string could
//! collide with), hashed with a randomly seeded hasher (foldhash: a look-up costs a few dozen
//! instructions where SipHash cost 270, which ate the saving; the seed keeps a list from being
//! made of strings that collide), and bounded in entries and in the length of a string kept.

use std::collections::HashMap;

use super::CrossNames;
use super::strings::{Role, Spare};

/// Most strings remembered per list; past it, the rest are read every time.
const MAX_ENTRIES: usize = 16_384;
/// Longest string remembered: long prose rarely repeats, and keeping it costs more than it
/// saves (64, 128 and 256 measured level on the bench list, 6.76-6.83 million instructions).
const MAX_LEN: usize = 64;

/// Clean strings of one list, each with the readings it was found clean in: its own (by the
/// role it was read as, which decides the detectors: a string clean as a key may not be clean
/// as prose) and the cross-server one (by role, against the index `cross_of`).
#[derive(Default)]
pub struct CleanStrings {
    seen: HashMap<Box<str>, u16, foldhash::fast::RandomState>,
    /// The index the cross-server marks were made against (0: none yet).
    cross_of: u64,
    lent: Buffers,
}

/// The buffers a definition's reading writes into, lent by the list.
#[derive(Default)]
pub(super) struct Buffers {
    /// The JSON pointers of its strings, one after another.
    pub(super) pointers: String,
    /// The folded text of one string at a time.
    pub(super) folded: String,
    /// The vectors of the strings and parameter names, emptied.
    pub(super) spare: Spare,
}

/// A reading of a string: its own analysis, or the cross-server one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Reading {
    Own,
    Cross,
}

/// The mark of one reading of a string read as `role`.
pub(super) fn mark(role: Role, reading: Reading) -> u16 {
    let own = match role {
        Role::Name => 1,
        Role::Prose => 2,
        Role::Value => 4,
        Role::Key => 8,
        Role::Syntax => 16,
    };
    if reading == Reading::Cross { own << 5 } else { own }
}

/// Every cross-server mark.
const CROSS: u16 = 0b11111 << 5;

impl CleanStrings {
    pub fn new() -> CleanStrings {
        CleanStrings::default()
    }

    /// The list's buffers, for one definition's reading; [`CleanStrings::give_back`] returns
    /// them.
    pub(super) fn lend(&mut self) -> Buffers {
        std::mem::take(&mut self.lent)
    }

    pub(super) fn give_back(&mut self, buffers: Buffers) {
        self.lent = buffers;
    }

    /// Cross-server marks are about to be read or made against `names`: those made against
    /// another index are dropped.
    pub(super) fn reading_against(&mut self, names: &CrossNames) {
        if self.cross_of != names.id() {
            self.cross_of = names.id();
            self.seen.retain(|_, marks| {
                *marks &= !CROSS;
                *marks != 0
            });
        }
    }

    /// The readings `text` was found clean in before ([`mark`] bits; none for a string too
    /// long to be remembered): one look-up for all of them.
    pub(super) fn marks(&self, text: &str) -> u16 {
        if text.len() > MAX_LEN {
            return 0;
        }
        self.seen.get(text).copied().unwrap_or(0)
    }

    /// Whether `text`, read as `role`, was found clean in `reading` before.
    #[cfg(test)]
    pub(super) fn contains(&self, role: Role, reading: Reading, text: &str) -> bool {
        self.marks(text) & mark(role, reading) != 0
    }

    /// Remembers `text` as clean in the readings `marks` (within the bounds).
    pub(super) fn remember(&mut self, text: &str, marks: u16) {
        if text.len() > MAX_LEN || marks == 0 {
            return;
        }
        if let Some(kept) = self.seen.get_mut(text) {
            *kept |= marks;
        } else if self.seen.len() < MAX_ENTRIES {
            self.seen.insert(Box::from(text), marks);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembered_by_role_and_bounded() {
        use Reading::{Cross, Own};
        let mut clean = CleanStrings::new();
        clean.remember("city", mark(Role::Key, Own));
        assert!(clean.contains(Role::Key, Own, "city"));
        assert!(!clean.contains(Role::Prose, Own, "city"), "clean as a key is not clean as prose");
        assert!(!clean.contains(Role::Key, Cross, "city"), "nor across servers");
        assert!(!clean.contains(Role::Key, Own, "City"));
        let long = "x".repeat(MAX_LEN + 1);
        clean.remember(&long, mark(Role::Prose, Own));
        assert!(!clean.contains(Role::Prose, Own, &long));
        for i in 0..MAX_ENTRIES + 10 {
            clean.remember(&i.to_string(), mark(Role::Value, Own));
        }
        assert_eq!(clean.seen.len(), MAX_ENTRIES);
    }

    #[test]
    fn cross_server_marks_hold_for_one_index() {
        use Reading::{Cross, Own};
        let (a, b) = (CrossNames::new(&["x"], &[("up", "send_email")]), CrossNames::new(&["x"], &[]));
        let mut clean = CleanStrings::new();
        clean.reading_against(&a);
        clean.remember("Sends mail.", mark(Role::Prose, Cross));
        clean.remember("Sends mail.", mark(Role::Prose, Own));
        clean.reading_against(&a);
        assert!(clean.contains(Role::Prose, Cross, "Sends mail."));
        clean.reading_against(&b);
        assert!(!clean.contains(Role::Prose, Cross, "Sends mail."), "another index: read again");
        assert!(clean.contains(Role::Prose, Own, "Sends mail."), "its own reading does not depend on the names");
    }
}
