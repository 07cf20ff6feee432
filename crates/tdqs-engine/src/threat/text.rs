//! Positions in a text the detectors cut windows from: a byte offset moved back to a character
//! boundary, and the clause a window ends in.

/// The largest character boundary of `s` at or before byte `i` (`i` at most `s.len()`).
pub(super) fn floor(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The clause `before` ends in: what follows its last `.`, `;`, `!` or `?`.
pub(super) fn last_clause(before: &str) -> &str {
    &before[before.rfind(['.', ';', '!', '?']).map_or(0, |i| i + 1)..]
}
