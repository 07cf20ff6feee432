//! The keys names are indexed under, worked out without building the folded name: a hash of
//! the name as written, without case or separators, as it looks (homoglyphs folded), and as
//! `eq_ignore_ascii_case` compares. A key only proposes a name; whoever uses a proposed name
//! compares it in full, so two names sharing a key cost a comparison, never a wrong finding.
//! Plain ASCII names (nearly all) are hashed byte by byte; others through the folded string.

use rustc_hash::FxHashMap;

use crate::threat::references::{plain, skeleton};

/// FNV-1a over bytes: the same bytes give the same key however they were produced.
fn hash(bytes: impl Iterator<Item = u8>) -> u64 {
    bytes.fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

fn is_separator(b: u8) -> bool {
    matches!(b, b'_' | b'-' | b'.' | b' ')
}

pub fn written(name: &str) -> u64 {
    hash(name.bytes())
}

/// The key of [`plain`]`(name)`.
pub fn plain_key(name: &str) -> u64 {
    if name.is_ascii() {
        return hash(name.bytes().filter(|&b| !is_separator(b)).map(|b| b.to_ascii_lowercase()));
    }
    hash(plain(name).bytes())
}

/// The key of [`skeleton`]`(name)`: for ASCII, compatibility folding changes nothing and the
/// only look-alikes are `0` and `1`.
pub fn skeleton_key(name: &str) -> u64 {
    if name.is_ascii() {
        let folded = name.bytes().filter(|&b| !is_separator(b)).map(|b| match b.to_ascii_lowercase() {
            b'0' => b'o',
            b'1' => b'l',
            b => b,
        });
        return hash(folded);
    }
    hash(skeleton(name).bytes())
}

/// The key under which names equal as `eq_ignore_ascii_case` compares meet.
pub fn ascii_caseless(name: &str) -> u64 {
    hash(name.bytes().map(|b| b.to_ascii_lowercase()))
}

/// Names by key: for each key the names bearing it, in the order they were added.
#[derive(Default)]
pub struct Index {
    /// First and last name of each key's chain.
    ends: FxHashMap<u64, (u32, u32)>,
    /// The next name of the same key after each name, `u32::MAX` at a chain's end.
    next: Vec<u32>,
}

impl Index {
    pub fn with_capacity(n: usize) -> Index {
        Index { ends: FxHashMap::with_capacity_and_hasher(n, Default::default()), next: Vec::with_capacity(n) }
    }

    /// Adds name `i` (names are added in order, each once, `i` the count added so far).
    pub fn add(&mut self, key: u64, i: usize) {
        let i = i as u32;
        self.next.push(u32::MAX);
        match self.ends.get_mut(&key) {
            Some((_, last)) => {
                self.next[*last as usize] = i;
                *last = i;
            }
            None => {
                self.ends.insert(key, (i, i));
            }
        }
    }

    /// The names under `key`, in order.
    pub fn get(&self, key: u64) -> impl Iterator<Item = usize> + '_ {
        let first = self.ends.get(&key).map_or(u32::MAX, |&(first, _)| first);
        std::iter::successors((first != u32::MAX).then_some(first), |&i| {
            let n = self.next[i as usize];
            (n != u32::MAX).then_some(n)
        })
        .map(|i| i as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_agree_with_the_folded_names() {
        for (a, b) in [("Send_Email", "sendemail"), ("s.e-n d", "send"), ("ＳＥＮＤ", "ＳＥＮＤ")] {
            assert_eq!(plain_key(a), written(&plain(a)));
            assert_eq!(plain_key(b), written(&plain(b)));
        }
        for name in ["read_fi1e", "R0ot-Dir", "rеad_file", "ｒｅａｄ", "ab.c d"] {
            assert_eq!(skeleton_key(name), written(&skeleton(name)), "{name}");
        }
        assert_eq!(ascii_caseless("ReadFile"), ascii_caseless("readfile"));
    }

    #[test]
    fn an_index_keeps_each_keys_names_in_order() {
        let mut index = Index::with_capacity(4);
        for (i, k) in [7u64, 9, 7, 7].into_iter().enumerate() {
            index.add(k, i);
        }
        assert_eq!(index.get(7).collect::<Vec<_>>(), vec![0, 2, 3]);
        assert_eq!(index.get(9).collect::<Vec<_>>(), vec![1]);
        assert_eq!(index.get(8).count(), 0);
    }
}
