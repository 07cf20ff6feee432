//! The cheap looks that decide whether the invisible-character detectors run on a string: a
//! detector that cannot find anything in it is not run (most strings hold none of the
//! characters involved, and the detectors' own passes are dearer).

use super::{is_tag, is_zero_width};

/// A character one of the tag, zero-width, bidi or control detectors reports; without one,
/// none of them finds anything.
pub(in crate::threat) fn is_looked_at(c: char) -> bool {
    is_tag(c)
        || is_zero_width(c)
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
        || (c.is_control() && c != '\t' && c != '\n')
}

/// A variation selector (U+FE00..=U+FE0F, U+E0100..=U+E01EF): one after a character picks
/// its glyph; more carry bytes ([`super::selectors`]).
pub(in crate::threat) fn is_variation_selector(c: char) -> bool {
    matches!(c as u32, 0xfe00..=0xfe0f | 0xe0100..=0xe01ef)
}
