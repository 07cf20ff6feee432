//! One look at a string before the detectors run: which of them can find anything in it, and,
//! for the phrase rules, its folded form. Nearly every string of a definition is short ASCII
//! with nothing hidden, so for ASCII text the look is a single pass over the bytes (a class
//! table per byte) that also folds the text; a detector the look rules out is not run at all.
//! Text with other characters is looked at in one pass that decodes only those; its fold is the
//! general one.

use super::invisible::looks::is_looked_at;
use super::normalize::{Normalized, finish_fold, is_invisible, is_whitespace, push_folded};

/// What the look found.
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
    /// allocation for ASCII text (the caller takes it back from the result).
    pub fn of(s: &str, fold: Option<bool>, buffer: &mut String) -> (Glance, Option<Normalized>) {
        if !s.is_ascii() {
            let Some(identifier) = fold else {
                return (look_general::<false>(s, false, &mut String::new()), None);
            };
            if s.as_bytes().contains(&0x1b) {
                // Escape sequences are removed whole: the general fold, on its own.
                return (look_general::<false>(s, false, &mut String::new()), Some(Normalized::with(s, identifier)));
            }
            let mut out = std::mem::take(buffer);
            let glance = look_general::<true>(s, identifier, &mut out);
            return (glance, Some(Normalized::folded(finish_fold(out), identifier)));
        }
        let Some(identifier) = fold else {
            return (look_ascii::<false>(s, false, &mut Vec::new()).0, None);
        };
        let mut out = std::mem::take(buffer).into_bytes();
        let (glance, escape) =
            if identifier { look_ascii::<true>(s, true, &mut out) } else { look_ascii::<true>(s, false, &mut out) };
        let norm = if escape {
            // Escape sequences are removed whole: the general fold.
            *buffer = String::from_utf8(out).expect("ASCII in, ASCII out");
            Normalized::with(s, identifier)
        } else {
            Normalized::folded(String::from_utf8(out).expect("ASCII in, ASCII out"), identifier)
        };
        (glance, Some(norm))
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

/// The look at ASCII text, and whether it holds an escape byte; with `FOLD`, the fold written
/// to `out`: lower case, controls dropped, each run of whitespace (and of `_` and `-` in
/// identifiers) one space, none at either end.
// This loop sees every byte of every string. Runs are counted (reset by a byte of another
// class) and only their longest kept; the byte's class and lower-case form come from one load.
#[inline(always)]
fn look_ascii<const FOLD: bool>(s: &str, identifier: bool, out: &mut Vec<u8>) -> (Glance, bool) {
    let bytes = s.as_bytes();
    let mut seen = 0u8;
    let (mut ws_run, mut ws_longest, mut b64_run, mut b64_longest) = (0u32, 0u32, 0u32, 0u32);
    let collapsed = if identifier { WS | SEPARATOR } else { WS };
    let (mut n, mut space) = (0usize, false);
    if FOLD {
        out.clear();
        out.resize(bytes.len(), 0);
    }
    for &b in bytes {
        let entry = CLASS_AND_LOWER[usize::from(b & 0x7f)];
        let class = entry as u8;
        seen |= class;
        ws_run = if class & WS != 0 { ws_run + 1 } else { 0 };
        ws_longest = ws_longest.max(ws_run);
        b64_run = if class & B64 != 0 { b64_run + 1 } else { 0 };
        b64_longest = b64_longest.max(b64_run);
        if FOLD {
            if class & collapsed != 0 {
                space = n != 0;
            } else if class & DROPPED == 0 {
                if space {
                    out[n] = b' ';
                    n += 1;
                    space = false;
                }
                out[n] = (entry >> 8) as u8;
                n += 1;
            }
        }
    }
    out.truncate(n);
    let glance = Glance {
        ascii: true,
        whitespace_run: ws_longest >= 3,
        comment_marks: seen & MARK != 0,
        blob: b64_longest >= BLOB,
        looked_at: seen & CONTROL != 0,
    };
    (glance, seen & ESCAPE != 0)
}

/// The look at text holding non-ASCII characters, in one pass: ASCII bytes by their class, and
/// only the other characters decoded (most such text is ASCII with a dash or an accent); with
/// `FOLD`, the general fold of text without escape sequences written to `out` on the way (as
/// [`Normalized::with`] folds it, before [`finish_fold`]).
#[inline(always)]
fn look_general<const FOLD: bool>(s: &str, identifier: bool, out: &mut String) -> Glance {
    let bytes = s.as_bytes();
    let (mut seen, mut looked_at) = (0u8, false);
    let (mut ws_run, mut ws_longest, mut b64_run, mut b64_longest) = (0u32, 0u32, 0u32, 0u32);
    let collapsed = if identifier { WS | SEPARATOR } else { WS };
    if FOLD {
        out.clear();
        out.reserve(s.len());
    }
    // A blank makes one space, none at the start and none after another.
    let blank = |out: &mut String| {
        if out.as_bytes().last().is_some_and(|&l| l != b' ') {
            out.push(' ');
        }
    };
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        let (ws, b64) = if b.is_ascii() {
            let entry = CLASS_AND_LOWER[usize::from(b)];
            let class = entry as u8;
            seen |= class;
            at += 1;
            if FOLD {
                if class & collapsed != 0 {
                    blank(out);
                } else if class & DROPPED == 0 {
                    out.push(char::from((entry >> 8) as u8));
                }
            }
            (class & WS != 0, class & B64 != 0)
        } else {
            let c = s[at..].chars().next().expect("a character starts where the last one ended");
            looked_at |= is_looked_at(c);
            at += c.len_utf8();
            let ws = is_whitespace(c);
            if FOLD {
                if ws {
                    blank(out);
                } else if !is_invisible(c) && !c.is_control() {
                    push_folded(out, c);
                }
            }
            (ws, false)
        };
        // Whitespace runs count characters; base64 runs count bytes (none of them non-ASCII).
        ws_run = if ws { ws_run + 1 } else { 0 };
        ws_longest = ws_longest.max(ws_run);
        b64_run = if b64 { b64_run + 1 } else { 0 };
        b64_longest = b64_longest.max(b64_run);
    }
    Glance {
        ascii: false,
        whitespace_run: ws_longest >= 3,
        comment_marks: seen & MARK != 0,
        blob: b64_longest >= BLOB,
        looked_at: looked_at || seen & CONTROL != 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let run = |s: &[u8], f: &dyn Fn(u8) -> bool, len: usize| s.split(|&b| !f(b)).any(|r| r.len() >= len);
        // Every other string mostly base64 bytes, so that long runs of them occur.
        let blobby = b"aZ9+/_-aZ9+/_-aZ9+/_- .";
        let (mut blobs, mut plain) = (0, 0);
        for i in 0..6000 {
            let from: &[u8] = if i % 2 == 0 { alphabet } else { blobby };
            let len = rng.below(48) + if i % 2 == 0 { 0 } else { 16 };
            let s = rng.string(from, len);
            let b = s.as_bytes();
            for identifier in [false, true] {
                let (g, norm) = Glance::of(&s, Some(identifier), &mut String::new());
                assert_eq!(norm.unwrap().text, Normalized::with(&s, identifier).text, "{s:?}");
                assert!(g.ascii);
                assert_eq!(
                    g.whitespace_run,
                    run(b, &|c| matches!(c, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' '), 3),
                    "{s:?}"
                );
                let b64 = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'-' | b'_');
                assert_eq!(g.blob, run(b, &b64, BLOB as usize), "{s:?}");
                assert_eq!(g.comment_marks, s.contains(['<', '[']), "{s:?}");
                let control = b.iter().any(|&c| (c < 0x20 && c != b'\t' && c != b'\n') || c == 0x7f);
                assert_eq!(g.looked_at, control, "{s:?}");
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
        let alphabet: Vec<char> = "aZ9 _-\t\n\r\u{1}\u{7f}.é\u{3000}\u{3164}\u{200b}\u{202e}\u{2019}\u{201c}\u{2014}\u{ff49}\u{a8}\u{1d422}\u{fb01}\u{456}\u{43e}\u{3b1}中ש\u{85}\u{e0041}"
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
                assert_eq!(g.looked_at, look_general::<false>(&s, identifier, &mut String::new()).looked_at);
            }
        }
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
