//! Eight bytes read as one `u64` and classified together ("SWAR", as `memchr`'s fallback
//! does), so that the look at every string ([`super::glance`]) takes a plain word at a time.
//! Tried and not kept: the same skip in the `obfuscated-text` look, whose bytes (digits,
//! `.`, `-`) are in too many words of prose to save more than 1% of a list; that look skips
//! plain bytes two at a time through a table of pairs instead (`threat/obfuscated.rs`).

/// Eight bytes read as one word: one bit (the top one) per byte for the lane masks below.
pub const LANES: u64 = 0x0101_0101_0101_0101;
pub const TOPS: u64 = 0x8080_8080_8080_8080;

/// The lanes of a word `w` of ASCII bytes (given as `w | TOPS`) whose byte is at least `c`:
/// each lane holds 0x80..=0xff before the subtraction, so no borrow crosses into the next.
#[inline(always)]
pub const fn at_least(topped: u64, c: u8) -> u64 {
    (topped - LANES * c as u64) & TOPS
}

/// The lanes of `topped` whose byte is `c`.
#[inline(always)]
pub const fn equal(topped: u64, c: u8) -> u64 {
    at_least(topped, c) & !at_least(topped, c + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_lane_is_compared_on_its_own() {
        let mut rng = crate::test_rng::Rng::new(0x0bad_5eed_1234_5678);
        for _ in 0..20_000 {
            let bytes: [u8; 8] = std::array::from_fn(|_| rng.below(128) as u8);
            let c = rng.below(128) as u8;
            let topped = u64::from_le_bytes(bytes) | TOPS;
            for (i, &b) in bytes.iter().enumerate() {
                let lane = |m: u64| m >> (8 * i) & 0x80 != 0;
                assert_eq!(lane(at_least(topped, c)), b >= c, "{bytes:?} {c}");
                assert_eq!(lane(equal(topped, c)), b == c, "{bytes:?} {c}");
            }
        }
    }
}
