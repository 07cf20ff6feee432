//! A small deterministic generator (xorshift) for the engine's randomised tests, so a failure
//! can be replayed from its seed.

pub struct Rng(u64);

impl Rng {
    /// Seeded from `seed`, spread so that neighbouring seeds start far apart.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    pub fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }

    /// `len` characters drawn from the ASCII `alphabet`.
    pub fn string(&mut self, alphabet: &[u8], len: usize) -> String {
        (0..len).map(|_| char::from(alphabet[self.below(alphabet.len())])).collect()
    }
}
