//! The keys names are indexed under, worked out without building the folded name: a hash of
//! the name as written, without case or separators, as it looks (homoglyphs folded), and as
//! `eq_ignore_ascii_case` compares. A key only proposes a name; whoever uses a proposed name
//! compares it in full, so two names sharing a key cost a comparison, never a wrong finding.
//! Plain ASCII names (nearly all) are hashed byte by byte; others through the folded string.

use rustc_hash::FxHashMap;

use crate::threat::references::{plain, skeleton};

/// The key functions of one index. FNV-1a over bytes (the same bytes give the same key however
/// they were produced), started from a random value per index rather than FNV's published
/// one: names are an upstream's to choose, and names made to share a key would chain under it
/// and make each look-up a walk of the chain.
#[derive(Clone, Copy)]
pub struct Keys(u64);

impl Keys {
    /// Keys with a start drawn from the standard library's per-process random state.
    pub fn random() -> Keys {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::hash::RandomState::new().build_hasher();
        h.write_u64(0xcbf2_9ce4_8422_2325);
        Keys(h.finish())
    }

    fn hash(self, bytes: impl Iterator<Item = u8>) -> u64 {
        bytes.fold(self.0, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
    }

    pub fn written(self, name: &str) -> u64 {
        self.hash(name.bytes())
    }

    /// The key of [`plain`]`(name)`.
    pub fn plain_key(self, name: &str) -> u64 {
        if name.is_ascii() {
            return self.hash(name.bytes().filter(|&b| !is_separator(b)).map(|b| b.to_ascii_lowercase()));
        }
        self.hash(plain(name).bytes())
    }

    /// The key of [`skeleton`]`(name)`: for ASCII, compatibility folding changes nothing and the
    /// only look-alikes are `0` and `1`.
    pub fn skeleton_key(self, name: &str) -> u64 {
        if name.is_ascii() {
            let folded = name.bytes().filter(|&b| !is_separator(b)).map(|b| match b.to_ascii_lowercase() {
                b'0' => b'o',
                b'1' => b'l',
                b => b,
            });
            return self.hash(folded);
        }
        self.hash(skeleton(name).bytes())
    }

    /// The key under which names equal as `eq_ignore_ascii_case` compares meet.
    pub fn ascii_caseless(self, name: &str) -> u64 {
        self.hash(name.bytes().map(|b| b.to_ascii_lowercase()))
    }
}

fn is_separator(b: u8) -> bool {
    matches!(b, b'_' | b'-' | b'.' | b' ')
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
        let k = Keys::random();
        for (a, b) in [("Send_Email", "sendemail"), ("s.e-n d", "send"), ("ＳＥＮＤ", "ＳＥＮＤ")] {
            assert_eq!(k.plain_key(a), k.written(&plain(a)));
            assert_eq!(k.plain_key(b), k.written(&plain(b)));
        }
        for name in ["read_fi1e", "R0ot-Dir", "rеad_file", "ｒｅａｄ", "ab.c d"] {
            assert_eq!(k.skeleton_key(name), k.written(&skeleton(name)), "{name}");
        }
        assert_eq!(k.ascii_caseless("ReadFile"), k.ascii_caseless("readfile"));
    }

    #[test]
    fn each_index_keys_names_its_own_way() {
        let (a, b) = (Keys::random(), Keys::random());
        assert_ne!(
            a.written("send_email"),
            b.written("send_email"),
            "names that share a key under one index do not under another"
        );
        assert_eq!(a.written("send_email"), a.written("send_email"));
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
