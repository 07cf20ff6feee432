//! A set of rules, a bit each: the phrase rules and the detectors gated like them outnumber
//! the 128 bits of one integer, so four words, with the few operations the triggers need.

/// A bit per rule; at most [`Rules::BITS`] rules.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Rules([u64; 4]);

impl Rules {
    pub const BITS: usize = 256;

    /// The set of rule `i` alone.
    pub fn of(i: usize) -> Rules {
        let mut r = Rules::default();
        r.0[i / 64] = 1 << (i % 64);
        r
    }

    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    pub fn has(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    /// The rules of the set below `end`, lowest first.
    pub fn below(self, end: usize) -> impl Iterator<Item = usize> {
        self.0.into_iter().enumerate().flat_map(move |(w, mut bits)| {
            std::iter::from_fn(move || {
                let i = w * 64 + bits.trailing_zeros() as usize;
                if bits == 0 || i >= end {
                    return None;
                }
                bits &= bits - 1;
                Some(i)
            })
        })
    }
}

impl std::ops::BitOr for Rules {
    type Output = Rules;
    fn bitor(mut self, other: Rules) -> Rules {
        self |= other;
        self
    }
}

impl std::ops::BitOrAssign for Rules {
    fn bitor_assign(&mut self, other: Rules) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }
}

/// The tests write small sets as integers.
#[cfg(test)]
impl PartialEq<u128> for Rules {
    fn eq(&self, other: &u128) -> bool {
        self.0 == [*other as u64, (*other >> 64) as u64, 0, 0]
    }
}
