//! Positions in a text the detectors cut windows from: a byte offset moved back to a character
//! boundary, and the clause a window ends in.

/// The largest character boundary of `s` at or before byte `i` (`i` at most `s.len()`).
pub(super) fn floor(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Up to `n` bytes of `s` from `at` on, ending on a character boundary (`at` one itself).
pub(super) fn ahead(s: &str, at: usize, n: usize) -> &str {
    &s[at..floor(s, (at + n).min(s.len()))]
}

/// About `n` bytes of `s` before `at`, beginning on a character boundary at or before `at - n`.
pub(super) fn behind(s: &str, at: usize, n: usize) -> &str {
    &s[floor(s, at.saturating_sub(n))..at]
}

/// The clause `before` ends in: what follows its last `.`, `;`, `!` or `?`.
pub(super) fn last_clause(before: &str) -> &str {
    &before[before.rfind(['.', ';', '!', '?']).map_or(0, |i| i + 1)..]
}
