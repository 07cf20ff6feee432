//! The cheap looks that decide whether the invisible-character detectors run on a string: a
//! detector that cannot find anything in it is not run (most strings hold none of the
//! characters involved, and the detectors' own passes are dearer).

use super::super::normalize::is_whitespace;
use super::{is_tag, is_zero_width};

/// A character one of the tag, zero-width, bidi or control detectors reports; without one,
/// none of them finds anything.
pub(super) fn is_looked_at(c: char) -> bool {
    is_tag(c)
        || is_zero_width(c)
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
        || (c.is_control() && c != '\t' && c != '\n')
}

/// Three whitespace characters in a row: the least that [`super::padding`] reports (a run that is
/// wide, spans lines, or holds blank letters is at least that long).
pub(in crate::threat) fn has_whitespace_run(s: &str) -> bool {
    let mut run = 0;
    if s.is_ascii() {
        for &b in s.as_bytes() {
            run = if matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ') { run + 1 } else { 0 };
            if run >= 3 {
                return true;
            }
        }
        return false;
    }
    for c in s.chars() {
        run = if is_whitespace(c) { run + 1 } else { 0 };
        if run >= 3 {
            return true;
        }
    }
    false
}
