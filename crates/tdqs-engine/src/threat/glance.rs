//! One look at a string before the detectors run: which of them can find anything in it, and,
//! for the phrase rules, its folded form. Nearly every string of a definition is short ASCII
//! with nothing hidden, so the look is a single pass that also folds the text, eight bytes at a
//! time where they are plain ASCII and one character at a time elsewhere (only non-ASCII
//! characters decoded); a detector the look rules out is not run at all.
//!
//! Long: the look is one loop with two steps (a word of eight bytes at a time, a character at
//! a time) sharing one state, and its tests compare both against the general fold; apart,
//! each step would need the other's state in its signature.

use super::invisible::looks::{is_looked_at, is_variation_selector};
use super::lanes::{LANES, TOPS, at_least, equal};
use super::normalize::{Normalized, finish_fold, is_invisible, is_whitespace, push_folded};

/// What the look found.
#[derive(Debug, PartialEq, Eq)]
pub struct Glance {
    /// Only ASCII bytes.
    pub ascii: bool,
    /// Three whitespace characters in a row: the least the padding detector reports.
    pub whitespace_run: bool,
    /// A `<` or `[`: where an HTML or markdown comment can begin.
    pub comment_marks: bool,
    /// A run of base64 or hex bytes long enough to be an encoded payload.
    pub blob: bool,
    /// A character the tag, zero-width, bidi or control detectors report: without one, none of
    /// them finds anything (in ASCII text, a control other than tab and newline).
    pub looked_at: bool,
    /// A variation selector: without one, the selector detector has nothing to decode.
    pub selectors: bool,
    /// Three spaces each two bytes after the last (" a b "): what a run of six letters spelled
    /// apart ("I G N O R E") must hold in any eight of its bytes. Set for every such run of
    /// five spaces; may be set for a shorter one (the spaced-letters reading decides).
    pub spaced: bool,
}

/// Bytes of the shortest run the encoded-payload detector decodes.
const BLOB: u32 = 20;

const WS: u8 = 1;
const DROPPED: u8 = 2;
const CONTROL: u8 = 4;
const MARK: u8 = 8;
const B64: u8 = 16;
const ESCAPE: u8 = 32;
const SEPARATOR: u8 = 64;
/// Not a byte's class: three spaces two bytes apart, noted among the classes seen (one field
/// fewer in the look's hot loop).
const SPACED: u8 = 128;

/// The class of each byte (non-ASCII bytes have none: such text is looked at otherwise).
static CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        let mut class = 0;
        if matches!(c, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ') {
            class |= WS;
        } else if c < 0x20 || c == 0x7f {
            class |= DROPPED;
        }
        if (c < 0x20 && c != b'\t' && c != b'\n') || c == 0x7f {
            class |= CONTROL;
        }
        if c == b'<' || c == b'[' {
            class |= MARK;
        }
        if c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'-' | b'_') {
            class |= B64;
        }
        if c == 0x1b {
            class |= ESCAPE;
        }
        if c == b'_' || c == b'-' {
            class |= SEPARATOR;
        }
        table[b] = class;
        b += 1;
    }
    table
};

impl Glance {
    /// Looks at `s`; with `fold`, also makes its form for the phrase rules (as
    /// [`Normalized::with`] makes it; `true` reads `_` and `-` as spaces), in `buffer`'s
    /// allocation (the caller takes it back from the result).
    // Called once, by the analysis of each string: inlined there, as before the look grew.
    #[inline(always)]
    pub fn of(s: &str, fold: Option<bool>, buffer: &mut String) -> (Glance, Option<Normalized>) {
        let Some(identifier) = fold else {
            return (look::<false>(s, false, &mut Vec::new()).0, None);
        };
        let mut out = std::mem::take(buffer).into_bytes();
        let (glance, escape) = look::<true>(s, identifier, &mut out);
        let folded = String::from_utf8(out).expect("whole characters in, whole characters out");
        if escape {
            // Escape sequences are removed whole: the general fold, on its own.
            *buffer = folded;
            return (glance, Some(Normalized::with(s, identifier)));
        }
        let text = if glance.ascii {
            let mut text = folded;
            if text.ends_with(' ') {
                text.pop();
            }
            text
        } else {
            finish_fold(folded)
        };
        (glance, Some(Normalized::folded(text, identifier)))
    }
}

/// Each ASCII byte's class and, in the high byte, its lower-case form (one load for both).
static CLASS_AND_LOWER: [u16; 128] = {
    let mut table = [0u16; 128];
    let mut b = 0;
    while b < 128 {
        table[b] = CLASS[b] as u16 | ((b as u8).to_ascii_lowercase() as u16) << 8;
        b += 1;
    }
    table
};

/// The running state of one look, shared by the word-at-a-time and the byte-at-a-time steps.
struct Runs {
    ascii: bool,
    seen: u8,
    looked_at: bool,
    selectors: bool,
    /// Whitespace characters in a row, and the longest such run.
    ws_run: u32,
    ws_longest: u32,
    /// Bytes since the last space or (read a byte at a time) the last byte outside base64, and
    /// the longest such stretch: at least the longest base64 run, so a look whose longest
    /// stretch is short needs no exact count of base64 runs.
    stretch: u32,
    stretch_longest: u32,
}

/// The look at `s` and whether it holds an escape byte; with `FOLD`, the fold written to `out`
/// (as [`Normalized::with`] folds text without escape sequences, before [`finish_fold`], the
/// last space included): lower case, controls and invisible characters dropped, each run of
/// blanks (whitespace, and `_` and `-` in identifiers) one space, none at the start.
///
/// This sees every byte of every string a model reads, so it reads eight bytes at a time: a
/// word of ASCII printable bytes and single spaces (most of any description) is classified and
/// folded with a few operations on the word (lanes as in `memchr`'s fallback); any other word
/// is read a byte or character at a time, as before. Base64 runs are counted exactly only when
/// a stretch without spaces is long enough to hold one.
#[inline(always)]
fn look<const FOLD: bool>(s: &str, identifier: bool, out: &mut Vec<u8>) -> (Glance, bool) {
    let bytes = s.as_bytes();
    let mut runs = Runs {
        ascii: true,
        seen: 0,
        looked_at: false,
        selectors: false,
        ws_run: 0,
        ws_longest: 0,
        stretch: 0,
        stretch_longest: 0,
    };
    let collapsed = if identifier { WS | SEPARATOR } else { WS };
    let mut scratch = String::new();
    if FOLD {
        out.clear();
        out.reserve(s.len() + 8);
    }
    let mut at = 0;
    while at < bytes.len() {
        // The next eight bytes, the last word of a string padded with `a` (a letter: folded to
        // itself, then cut off again).
        let (word, real) = match bytes.get(at..at + 8) {
            Some(eight) => (u64::from_le_bytes(eight.try_into().expect("eight bytes")), 8),
            None => {
                let mut padded = [b'a'; 8];
                padded[..bytes.len() - at].copy_from_slice(&bytes[at..]);
                (u64::from_le_bytes(padded), bytes.len() - at)
            }
        };
        if word & TOPS == 0 && fast_word::<FOLD>(word, real, identifier, &mut runs, out) {
            at += real;
            continue;
        }
        // Byte by byte (character by character) through the end of this word.
        let end = at + real;
        while at < end {
            at = slow_step::<FOLD>(s, at, collapsed, &mut runs, out, &mut scratch);
        }
    }
    runs.stretch_longest = runs.stretch_longest.max(runs.stretch);
    let blob = runs.stretch_longest >= BLOB && has_base64_run(bytes, BLOB as usize);
    let glance = Glance {
        ascii: runs.ascii,
        whitespace_run: runs.ws_longest >= 3,
        comment_marks: runs.seen & MARK != 0,
        blob,
        looked_at: runs.looked_at || runs.seen & CONTROL != 0,
        selectors: runs.selectors,
        spaced: runs.seen & SPACED != 0,
    };
    (glance, runs.seen & ESCAPE != 0)
}

/// One word of ASCII bytes (`real` of them, the rest padding) read whole, if it holds no
/// control and no two blanks in a row and does not begin a run of blanks; else `false` and
/// nothing changed.
#[inline(always)]
fn fast_word<const FOLD: bool>(word: u64, real: usize, identifier: bool, runs: &mut Runs, out: &mut Vec<u8>) -> bool {
    let topped = word | TOPS;
    let control = (at_least(topped, 0x20) ^ TOPS) | at_least(topped, 0x7f);
    let space = equal(topped, b' ');
    let blank = if identifier { space | equal(topped, b'_') | equal(topped, b'-') } else { space };
    // A blank in the first lane would continue a run (or, folding, begin the text or follow a
    // space already written): a byte-at-a-time matter.
    let continues_blanks = if FOLD { out.last().is_none_or(|&l| l == b' ') } else { runs.ws_run > 0 };
    if control != 0 || blank & (blank << 8) != 0 || (blank & 0x80 != 0 && continues_blanks) {
        return false;
    }
    if equal(topped, b'<') | equal(topped, b'[') != 0 {
        runs.seen |= MARK;
    }
    // Spaces only one at a time here: a whitespace run is at most one, ending at the last byte.
    runs.ws_run = u32::from(space >> 63 != 0 && real == 8);
    if space == 0 {
        runs.stretch += 8;
    } else {
        runs.stretch_longest = runs.stretch_longest.max(runs.stretch + space.trailing_zeros() / 8);
        runs.stretch = space.leading_zeros() / 8;
        // Letters spelled apart: spaces in lanes k, k + 2 and k + 4; two of them first (rare
        // in prose), the third only then.
        let pairs = space & (space >> 16);
        if pairs != 0 {
            runs.seen |= third_space(pairs);
        }
    }
    if FOLD {
        let upper = at_least(topped, b'A') & !at_least(topped, b'Z' + 1);
        let lower = word | (upper >> 2);
        // Blank lanes become spaces: each lane's top bit spread over its byte.
        let blank_bytes = (blank >> 7) * 0xff;
        let folded = (lower & !blank_bytes) | ((LANES * u64::from(b' ')) & blank_bytes);
        let folded = folded.to_le_bytes();
        if real == 8 {
            // A fixed length: a store, not a call to `memcpy`.
            out.extend_from_slice(&folded);
        } else {
            out.extend_from_slice(&folded[..real]);
        }
    }
    true
}

/// [`SPACED`] when spaces two lanes apart (`pairs`, each marked at the first) are followed by
/// a third two lanes on: out of line, so the common word pays only for finding no pair.
#[cold]
#[inline(never)]
fn third_space(pairs: u64) -> u8 {
    if pairs & (pairs >> 16) != 0 { SPACED } else { 0 }
}

/// One character at `at` read on its own (ASCII by its class, any other decoded); returns
/// where the next begins.
#[inline(always)]
fn slow_step<const FOLD: bool>(
    s: &str,
    at: usize,
    collapsed: u8,
    runs: &mut Runs,
    out: &mut Vec<u8>,
    scratch: &mut String,
) -> usize {
    // A blank makes one space, none at the start and none after another.
    let blank = |out: &mut Vec<u8>| {
        if out.last().is_some_and(|&l| l != b' ') {
            out.push(b' ');
        }
    };
    let b = s.as_bytes()[at];
    let (next, ws, base64) = if b.is_ascii() {
        let entry = CLASS_AND_LOWER[usize::from(b)];
        let class = entry as u8;
        runs.seen |= class;
        // A third space two bytes after the last: letters spelled apart, as `fast_word` sees
        // them in a word (the bytes before may be another word's). Few bytes come this way.
        let bytes = s.as_bytes();
        if b == b' ' && at >= 4 && bytes[at - 2] == b' ' && bytes[at - 4] == b' ' {
            runs.seen |= SPACED;
        }
        if FOLD {
            if class & collapsed != 0 {
                blank(out);
            } else if class & DROPPED == 0 {
                out.push((entry >> 8) as u8);
            }
        }
        (at + 1, class & WS != 0, class & B64 != 0)
    } else {
        let c = s[at..].chars().next().expect("a character starts where the last one ended");
        runs.ascii = false;
        runs.looked_at |= is_looked_at(c);
        runs.selectors |= is_variation_selector(c);
        let ws = is_whitespace(c);
        if FOLD {
            if ws {
                blank(out);
            } else if !is_invisible(c) && !c.is_control() {
                scratch.clear();
                push_folded(scratch, c);
                out.extend_from_slice(scratch.as_bytes());
            }
        }
        (at + c.len_utf8(), ws, false)
    };
    // Whitespace runs count characters.
    runs.ws_run = if ws { runs.ws_run + 1 } else { 0 };
    runs.ws_longest = runs.ws_longest.max(runs.ws_run);
    if base64 {
        runs.stretch += 1;
    } else {
        runs.stretch_longest = runs.stretch_longest.max(runs.stretch);
        runs.stretch = 0;
    }
    next
}

/// Whether `bytes` hold a run of `len` base64 or hex bytes (none of them non-ASCII). Such a
/// run covers one of every `len` positions in a row, so only those are looked at, and around
/// them only as far as a run reaches: a string of words is read a few bytes in twenty.
fn has_base64_run(bytes: &[u8], len: usize) -> bool {
    let base64 = |i: usize| CLASS[usize::from(bytes[i])] & B64 != 0;
    let mut at = len - 1;
    while at < bytes.len() {
        if !base64(at) {
            at += len;
            continue;
        }
        let mut start = at;
        while start > 0 && at - start + 1 < len && base64(start - 1) {
            start -= 1;
        }
        let mut end = at;
        while end + 1 < bytes.len() && end + 1 - start < len && base64(end + 1) {
            end += 1;
        }
        if end + 1 - start >= len {
            return true;
        }
        // The next run long enough starts after `end + 1` (not base64), so covers `end + len`.
        at = end + len;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spaces each two bytes after the last, `n` of them, somewhere in `s`.
    fn spaces_apart(s: &str, n: usize) -> bool {
        let b = s.as_bytes();
        (0..b.len()).any(|i| (0..n).all(|k| b.get(i + 2 * k) == Some(&b' ')))
    }

    /// What the look must find in `s`, read a character at a time from the definitions;
    /// `spaced`, which the look may set for fewer than five spaces apart, as the look set it
    /// when that is within its bounds (`seen`).
    fn read_a_character_at_a_time(s: &str, seen: &Glance) -> Glance {
        let spaced = if spaces_apart(s, 5) {
            true
        } else if !spaces_apart(s, 3) {
            false
        } else {
            seen.spaced
        };
        let chars: Vec<char> = s.chars().collect();
        let longest = |f: &dyn Fn(char) -> bool| chars.split(|&c| !f(c)).map(<[char]>::len).max().unwrap_or(0);
        let b64 = |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '-' | '_');
        let control = s.bytes().any(|c| (c < 0x20 && c != b'\t' && c != b'\n') || c == 0x7f);
        Glance {
            ascii: s.is_ascii(),
            whitespace_run: longest(&|c| is_whitespace(c)) >= 3,
            comment_marks: s.contains(['<', '[']),
            blob: longest(&b64) >= BLOB as usize,
            looked_at: control || s.chars().any(|c| !c.is_ascii() && is_looked_at(c)),
            selectors: s.chars().any(is_variation_selector),
            spaced,
        }
    }

    #[test]
    fn the_ascii_fold_is_the_general_one() {
        for (s, identifier) in [
            ("  Ignore\tALL \x01 previous\r\n", false),
            ("ignore_previous--rules_", true),
            ("a\x7fb", false),
            ("x \x1b[8mhidden\x1b[0m y", false),
            ("", false),
            ("   ", true),
        ] {
            let (_, norm) = Glance::of(s, Some(identifier), &mut String::new());
            assert_eq!(norm.unwrap().text, Normalized::with(s, identifier).text, "{s:?}");
        }
    }

    #[test]
    fn the_ascii_look_and_fold_agree_with_a_byte_at_a_time_reading() {
        let alphabet = b"aZ9+/ _-\t\n\r\x0b\x0c\x01\x1b\x7f.<[~";
        let mut rng = crate::test_rng::Rng::new(0x9e37_79b9_7f4a_7c15);
        // Every other string mostly base64 bytes, so that long runs of them occur.
        let blobby = b"aZ9+/_-aZ9+/_-aZ9+/_- .";
        let (mut blobs, mut plain) = (0, 0);
        for i in 0..6000 {
            let from: &[u8] = if i % 2 == 0 { alphabet } else { blobby };
            let len = rng.below(48) + if i % 2 == 0 { 0 } else { 16 };
            let s = rng.string(from, len);
            for identifier in [false, true] {
                let (g, norm) = Glance::of(&s, Some(identifier), &mut String::new());
                assert_eq!(norm.unwrap().text, Normalized::with(&s, identifier).text, "{s:?}");
                assert!(g.ascii);
                assert_eq!(g, read_a_character_at_a_time(&s, &g), "{s:?}");
                if g.blob { blobs += 1 } else { plain += 1 }
            }
        }
        assert!(blobs > 100 && plain > 100, "both kinds were tried: {blobs} blobs, {plain} not");
    }

    #[test]
    fn the_fold_made_while_looking_at_non_ascii_text_is_the_general_one() {
        // Letters, blanks, separators, controls and the characters the general fold treats
        // each its own way: accents, wide and blank letters, invisibles, typographic quotes,
        // compatibility forms (one folds to a space and a mark), Cyrillic look-alikes, scripts.
        let alphabet: Vec<char> = "aZ9 _-\t\n\r\u{1}\u{7f}.é\u{3000}\u{3164}\u{200b}\u{202e}\u{2019}\u{201c}\u{2014}\u{ff49}\u{a8}\u{1d422}\u{fb01}\u{456}\u{43e}\u{3b1}中ש\u{85}\u{e0041}\u{fe0f}\u{e0100}👍"
            .chars()
            .collect();
        let mut rng = crate::test_rng::Rng::new(0x5851_f42d_4c95_7f2d);
        for _ in 0..6000 {
            let len = rng.below(24) + 1;
            let mut s: String = (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect();
            if s.is_ascii() {
                s.push('é');
            }
            for identifier in [false, true] {
                let (g, norm) = Glance::of(&s, Some(identifier), &mut String::from("left over"));
                assert_eq!(norm.unwrap().text, Normalized::with(&s, identifier).text, "{s:?}");
                assert_eq!(g, read_a_character_at_a_time(&s, &g), "{s:?}");
                assert_eq!(g, Glance::of(&s, None, &mut String::new()).0, "{s:?}");
            }
        }
    }

    #[test]
    fn prose_read_a_word_at_a_time_looks_and_folds_as_read_a_character_at_a_time() {
        // Mostly letters and single spaces (the words read whole), with now and then what sends
        // a word to the slow reading: a second space, a newline, a control, a separator, a
        // comment mark, an escape, a non-ASCII letter or blank; long tokens for the base64 count.
        let common: Vec<char> = "abcdefghijklmnopqrstuvwxyzABCXYZ0189.,:/+ ".chars().collect();
        let rare: Vec<char> = "  \n\t_-<[\u{1}\u{1b}\u{7f}é\u{3000}\u{200b}\u{2014}і\u{fe0f}".chars().collect();
        let mut rng = crate::test_rng::Rng::new(0x2f6b_9a4e_1c3d_5e7f);
        let (mut fast_only, mut mixed) = (0, 0);
        for i in 0..8000 {
            let len = rng.below(90);
            let rare_every = [4, 12, 40, 1000][i % 4];
            let s: String = (0..len)
                .map(|_| {
                    if rng.below(rare_every) == 0 {
                        rare[rng.below(rare.len())]
                    } else {
                        common[rng.below(common.len())]
                    }
                })
                .collect();
            for identifier in [false, true] {
                let (g, norm) = Glance::of(&s, Some(identifier), &mut String::from("left over"));
                assert_eq!(norm.unwrap().text, Normalized::with(&s, identifier).text, "{s:?}");
                assert_eq!(g, read_a_character_at_a_time(&s, &g), "{s:?}");
                assert_eq!(g, Glance::of(&s, None, &mut String::new()).0, "{s:?}");
            }
            if s.chars().all(|c| common.contains(&c)) { fast_only += 1 } else { mixed += 1 }
        }
        assert!(fast_only > 1000 && mixed > 1000, "both kinds were tried: {fast_only} plain, {mixed} mixed");
    }

    #[test]
    fn a_run_of_base64_is_found_as_by_counting_every_byte() {
        let counted = |b: &[u8], len: usize| {
            let (mut run, mut longest) = (0, 0);
            for &c in b {
                run = if CLASS[usize::from(c)] & B64 != 0 { run + 1 } else { 0 };
                longest = longest.max(run);
            }
            longest >= len
        };
        let mut rng = crate::test_rng::Rng::new(0x3c6e_f372_fe94_f82b);
        let (mut runs, mut none) = (0, 0);
        for i in 0..20_000 {
            // Words of base64 bytes between other bytes, now and then long.
            let alphabet: &[u8] = if i % 3 == 0 { b"aZ9+/-_ .:" } else { b"aZ9+/-_aZ9+/-_ " };
            let len = rng.below(80);
            let s = rng.string(alphabet, len);
            for run in [1, 2, 5, 20] {
                let found = has_base64_run(s.as_bytes(), run);
                assert_eq!(found, counted(s.as_bytes(), run), "{s:?} {run}");
                if run == 20 {
                    if found { runs += 1 } else { none += 1 }
                }
            }
        }
        assert!(runs > 1000 && none > 1000, "{runs} {none}");
    }

    #[test]
    fn letters_spelled_apart_are_seen_wherever_they_fall() {
        // Six letters each followed by one space, at every offset, in ASCII words read whole
        // and in words read a character at a time (a newline, a double space, a letter é).
        let mut rng = crate::test_rng::Rng::new(0x6a09_e667_f3bc_c908);
        let context: Vec<char> = "abcdefgh ,.é\n".chars().collect();
        for _ in 0..4000 {
            let mut s: String = (0..rng.below(20)).map(|_| context[rng.below(context.len())]).collect();
            s.push_str("I G N O R E");
            s.extend((0..rng.below(12)).map(|_| context[rng.below(context.len())]));
            let (g, _) = Glance::of(&s, Some(false), &mut String::new());
            assert!(g.spaced, "{s:?}");
        }
        for s in ["Plan A or B", "x y coordinates", "a b c", "pick (a) or (b)", "I am a cat"] {
            assert!(!Glance::of(s, None, &mut String::new()).0.spaced, "{s:?}");
        }
        assert!(Glance::of("👍\u{fe0f}", None, &mut String::new()).0.selectors);
        assert!(!Glance::of("👍 ok", None, &mut String::new()).0.selectors);
    }

    #[test]
    fn the_look_rules_out_only_what_cannot_be_there() {
        let (g, norm) = Glance::of("plain words", None, &mut String::new());
        assert!(norm.is_none());
        assert!(g.ascii && !g.looked_at && !g.whitespace_run && !g.comment_marks && !g.blob);
        let (g, _) = Glance::of("a\r\n\tb <!-- c --> aGVsbG8gd29ybGQgaGVsbG8gd29y", None, &mut String::new());
        assert!(g.looked_at && g.whitespace_run && g.comment_marks && g.blob);
        let (g, _) = Glance::of("é   [x] aGVsbG8gd29ybGQgaGVsbG8gd29y", None, &mut String::new());
        assert!(!g.ascii && g.whitespace_run && g.comment_marks && g.blob && !g.looked_at);
        let (g, _) = Glance::of("é a\u{3000}\u{3000}\u{2003}b aGVsbG8gd29yé bGQgaGVsbG8gd2", None, &mut String::new());
        assert!(
            g.whitespace_run && !g.blob && !g.comment_marks && !g.looked_at,
            "wide blanks are a run; é splits a blob"
        );
        assert!(Glance::of("é aGVsbG8gd29ybGQgaGVsbG8gd2", None, &mut String::new()).0.blob);
        for s in ["é\u{200b}", "é\u{202e}", "é\u{e0041}", "é\x07"] {
            assert!(Glance::of(s, None, &mut String::new()).0.looked_at, "{s:?}");
        }
    }
}
