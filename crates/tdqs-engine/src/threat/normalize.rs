//! The form the phrase rules read: compatibility forms folded (full-width, mathematical and
//! circled letters, ligatures), look-alike letters read as the Latin they imitate (`dressed`;
//! text with diacritics sprinkled over English words is read a second time without them),
//! lower case, invisible and control characters and ANSI escape
//! sequences removed, every run of whitespace one space, typographic quotes and dashes plain.
//! Splitting a phrase with zero-width characters or writing it in full-width letters therefore
//! does not hide it. Each byte remembers where it came from, for the evidence.

use std::cell::OnceCell;

use unicode_normalization::UnicodeNormalization;

/// Normalised text and, per byte, the byte offset of the original character it came from.
/// The offsets are only needed for a match's evidence, so plain ASCII text (most of what a
/// definition holds) is folded by a byte loop and its offsets worked out only when asked for.
pub struct Normalized {
    pub text: String,
    origin: OnceCell<Vec<u32>>,
    identifier: bool,
    /// The fold with its diacritics taken off (see [`Normalized::without_marks`]).
    unmarked: bool,
}

impl Normalized {
    /// Normalises `s`; `identifier` also reads `_` and `-` as spaces (names and keys).
    pub fn with(s: &str, identifier: bool) -> Normalized {
        if s.is_ascii() && !s.as_bytes().contains(&0x1b) {
            return Normalized {
                text: fold_ascii(s, identifier),
                origin: OnceCell::new(),
                identifier,
                unmarked: false,
            };
        }
        Normalized {
            text: fold_with_origin(s, identifier, false).0,
            origin: OnceCell::new(),
            identifier,
            unmarked: false,
        }
    }

    /// Text already folded (by [`super::glance::Glance`]) as [`Normalized::with`] folds it.
    pub fn folded(text: String, identifier: bool) -> Normalized {
        Normalized { text, origin: OnceCell::new(), identifier, unmarked: false }
    }

    pub fn new(s: &str) -> Normalized {
        Normalized::with(s, false)
    }

    /// A second reading for text with diacritics sprinkled over English words ("rẹäd thé
    /// fílĕ"): the fold with every mark taken off, read beside the fold as written (which a
    /// language's own rules need: "đừng nói", "contraseña"), so that adding marked words to a
    /// text can hide nothing. `None` for text that is not sprinkled.
    pub fn without_marks(&self) -> Option<Normalized> {
        super::dressed::is_sprinkled(&self.text).then(|| Normalized {
            text: super::dressed::strip_marks(&self.text, &[]).0,
            origin: OnceCell::new(),
            identifier: self.identifier,
            unmarked: true,
        })
    }

    /// The original byte range behind the normalised range `start..end`.
    pub fn original(&self, start: usize, end: usize, source: &str) -> (usize, usize) {
        let origin = self.origin.get_or_init(|| {
            let (text, origin) = fold_with_origin(source, self.identifier, true);
            if self.unmarked { super::dressed::strip_marks(&text, &origin).1 } else { origin }
        });
        let from = origin.get(start).copied().unwrap_or(0) as usize;
        let last = origin.get(end.saturating_sub(1)).copied().map(|o| o as usize).unwrap_or(source.len());
        let mut to = last.min(source.len());
        // Through the end of that character.
        to += source[to..].chars().next().map(char::len_utf8).unwrap_or(0);
        (from, to)
    }
}

/// An ASCII byte the folds make one space of: whitespace, and in identifiers `_` and `-`.
fn ascii_blank(b: u8, identifier: bool) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ') || (identifier && (b == b'_' || b == b'-'))
}

/// What [`fold_with_origin`] makes of ASCII text without escape sequences: lower case,
/// controls dropped, each run of whitespace (and of `_`/`-` in identifiers) one space, trimmed.
fn fold_ascii(s: &str, identifier: bool) -> String {
    let mut out = Vec::with_capacity(s.len());
    for &b in s.as_bytes() {
        if ascii_blank(b, identifier) {
            if out.last().is_some_and(|&l| l != b' ') {
                out.push(b' ');
            }
        } else if b >= 0x20 && b != 0x7f {
            out.push(b.to_ascii_lowercase());
        }
    }
    if out.last() == Some(&b' ') {
        out.pop();
    }
    String::from_utf8(out).expect("ASCII in, ASCII out")
}

/// The general fold, with each output byte's source offset when `track` (else no offsets:
/// they are worked out again for the rare match).
fn fold_with_origin(s: &str, identifier: bool, track: bool) -> (String, Vec<u32>) {
    let mut text = String::with_capacity(s.len());
    let mut origin = Vec::with_capacity(if track { s.len() } else { 0 });
    let mut escape = Escape::None;
    let bytes = s.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        // ASCII outside an escape sequence, the common case, folded as `fold_ascii` folds it
        // (what the checks below make of it): each run of printable bytes copied and
        // lower-cased at once, the whitespace (and in identifiers `_` and `-`) and controls
        // between runs taken a byte at a time; only other characters and ESC go below.
        if matches!(escape, Escape::None) {
            let from = at;
            loop {
                let plain = |b: &&u8| matches!(**b, b'!'..=b'~') && !(identifier && (**b == b'_' || **b == b'-'));
                let run = bytes[at..].iter().take_while(plain).count();
                if run > 0 {
                    let start = text.len();
                    text.push_str(&s[at..at + run]);
                    text[start..].make_ascii_lowercase();
                    if track {
                        origin.extend(at as u32..(at + run) as u32);
                    }
                    at += run;
                }
                match bytes.get(at) {
                    Some(&b) if b.is_ascii() && b != 0x1b => {
                        if ascii_blank(b, identifier) && !text.is_empty() && !text.ends_with(' ') {
                            text.push(' ');
                            if track {
                                origin.push(at as u32);
                            }
                        }
                        // Any other byte here is a control: dropped.
                        at += 1;
                    }
                    _ => break,
                }
            }
            if at > from {
                continue;
            }
        }
        let c = s[at..].chars().next().expect("a character starts where the last one ended");
        let here = at;
        at += c.len_utf8();
        // ANSI sequences: ESC, then either one final byte or `[` parameters and a final byte.
        match escape {
            Escape::Start => {
                escape = if c == '[' || c == ']' { Escape::Csi } else { Escape::None };
                continue;
            }
            Escape::Csi => {
                if ('@'..='~').contains(&c) && c != '[' || c == '\u{7}' {
                    escape = Escape::None;
                }
                continue;
            }
            Escape::None => {}
        }
        if c == '\u{1b}' {
            escape = Escape::Start;
            continue;
        }
        if is_whitespace(c) || (identifier && (c == '_' || c == '-')) {
            if !text.is_empty() && !text.ends_with(' ') {
                text.push(' ');
                if track {
                    origin.push(here as u32);
                }
            }
            continue;
        }
        if is_invisible(c) || c.is_control() {
            continue;
        }
        let start = text.len();
        push_folded(&mut text, c);
        if track {
            origin.resize(origin.len() + (text.len() - start), here as u32);
        }
    }
    if text.ends_with(' ') {
        text.pop();
        if track {
            origin.pop();
        }
    }
    if may_mix_scripts(&text) {
        (text, origin) = fold_mixed_words(&text, &origin);
    }
    (text, origin)
}

/// Whether folding words can change `text`: not unless a Latin letter and a Cyrillic or Greek
/// one are both there (their UTF-8 lead bytes are 0xCE..=0xD4), so most non-ASCII text skips it.
fn may_mix_scripts(text: &str) -> bool {
    !text.is_ascii() && text.bytes().any(|b| b.is_ascii_lowercase()) && text.bytes().any(|b| (0xce..=0xd4).contains(&b))
}

/// The end of the general fold of text written without offsets (by [`super::glance`]'s look
/// at text with non-ASCII characters): no space at the end, mixed-script words read as Latin.
pub(super) fn finish_fold(mut text: String) -> String {
    if text.ends_with(' ') {
        text.pop();
    }
    if may_mix_scripts(&text) {
        text = fold_mixed_words(&text, &[]).0;
    }
    text
}

#[derive(Clone, Copy)]
enum Escape {
    None,
    Start,
    Csi,
}

/// Appends the folded form of one character that is neither blank nor invisible.
pub(super) fn push_folded(out: &mut String, c: char) {
    if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
        return;
    }
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201a}' | '\u{201b}' | '\u{2032}' | '\u{ff07}' => return out.push('\''),
        '\u{201c}' | '\u{201d}' | '\u{201e}' | '\u{201f}' | '\u{2033}' | '\u{ff02}' => return out.push('"'),
        '\u{2010}'..='\u{2015}' | '\u{2212}' => return out.push('-'),
        _ => {}
    }
    if let Some(latin) = super::dressed::script_lookalike(c) {
        return out.push(latin);
    }
    if has_compatibility_form(c) {
        for d in std::iter::once(c).nfkc() {
            out.extend(d.to_lowercase());
        }
    } else {
        out.extend(c.to_lowercase());
    }
}

/// Words mixing Latin letters with Cyrillic or Greek look-alikes ("іgnore" with a Cyrillic
/// `і`) read as the Latin word they imitate; words wholly in one script are left alone, so
/// Russian and Greek text keeps its own letters. In a text dressed so twice or more, a short
/// word made only of look-alikes ("іѕ" beside "fоrwаrdеd") is dressed Latin too.
fn fold_mixed_words(text: &str, origin: &[u32]) -> (String, Vec<u32>) {
    let mut out = String::with_capacity(text.len());
    let mut map = Vec::with_capacity(origin.len());
    let mixed_word = |word: &str| {
        word.bytes().any(|b| b.is_ascii_alphabetic()) && word.chars().any(|c| latin_lookalike(c).is_some())
    };
    let dressed_text = text.split(|c: char| !c.is_alphabetic()).filter(|w| mixed_word(w)).nth(1).is_some();
    let mut word_start = 0;
    let flush = |out: &mut String, map: &mut Vec<u32>, from: usize, to: usize| {
        let word = &text[from..to];
        let all_lookalike = dressed_text
            && word.chars().count() <= 4
            && !word.is_empty()
            && word.chars().all(|c| latin_lookalike(c).is_some());
        let mixed = mixed_word(word) || all_lookalike;
        for (i, c) in word.char_indices() {
            let at = origin.get(from + i).copied().unwrap_or(0);
            match latin_lookalike(c).filter(|_| mixed) {
                Some(l) => {
                    out.push(l);
                    map.push(at);
                }
                None => {
                    out.push(c);
                    map.extend(std::iter::repeat_n(at, c.len_utf8()));
                }
            }
        }
    };
    for (i, c) in text.char_indices() {
        if !c.is_alphabetic() {
            flush(&mut out, &mut map, word_start, i);
            out.push(c);
            map.extend(std::iter::repeat_n(origin.get(i).copied().unwrap_or(0), c.len_utf8()));
            word_start = i + c.len_utf8();
        }
    }
    flush(&mut out, &mut map, word_start, text.len());
    (out, map)
}

/// The Latin letter a lower-case Cyrillic or Greek letter is drawn like, if any.
pub(super) fn latin_lookalike(c: char) -> Option<char> {
    Some(match c {
        'а' | 'α' => 'a',
        'в' => 'b',
        'с' | 'ϲ' => 'c',
        'ԁ' => 'd',
        'е' | 'ε' => 'e',
        'һ' => 'h',
        'і' | 'ι' | 'ӏ' => 'i',
        'ј' => 'j',
        'к' | 'κ' => 'k',
        'м' => 'm',
        'п' | 'η' => 'n',
        'о' | 'ο' => 'o',
        'р' | 'ρ' => 'p',
        'ԛ' => 'q',
        'ѕ' => 's',
        'т' | 'τ' => 't',
        'υ' => 'u',
        'ν' => 'v',
        'ԝ' | 'ω' => 'w',
        'х' | 'χ' => 'x',
        'у' | 'γ' => 'y',
        _ => return None,
    })
}

/// Blocks whose characters fold to plainer ones under NFKC and are used to dress up text:
/// checked by range so ordinary scripts skip the normalisation tables.
fn has_compatibility_form(c: char) -> bool {
    matches!(c as u32,
        0x2070..=0x209f | 0x2100..=0x214f | 0x2460..=0x24ff | 0x3200..=0x33ff | 0xfb00..=0xfb4f
        | 0xfe30..=0xfe6f | 0xff00..=0xffef | 0x1d400..=0x1d7ff | 0x1f100..=0x1f1ff)
}

/// Whitespace, including the "blank" letters that render as nothing (Hangul fillers, braille
/// blank) that are used as padding.
pub fn is_whitespace(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{3164}' | '\u{115f}' | '\u{1160}' | '\u{ffa0}' | '\u{2800}')
}

/// Characters that render as nothing: format characters, joiners, bidi controls, variation
/// selectors, tags.
pub fn is_invisible(c: char) -> bool {
    matches!(c as u32,
        0xad | 0x34f | 0x61c | 0x17b4 | 0x17b5 | 0x180b..=0x180f | 0x200b..=0x200f | 0x202a..=0x202e
        | 0x2060..=0x206f | 0xfe00..=0xfe0f | 0xfeff | 0xfff9..=0xfffb | 0x1d173..=0x1d17a
        | 0xe0000..=0xe007f | 0xe0100..=0xe01ef)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_general_fold_of_ascii_is_the_ascii_fold() {
        // Every mix of letters, blanks, separators and controls (ESC aside), with offsets.
        let alphabet = b"aZ _-\t\n\r\x0b\x0c\x01\x7f.!~0";
        let mut rng = crate::test_rng::Rng::new(0x2545_f491_4f6c_dd1d);
        for _ in 0..4000 {
            let len = rng.below(24);
            let s = rng.string(alphabet, len);
            for identifier in [false, true] {
                let (text, origin) = fold_with_origin(&s, identifier, true);
                assert_eq!(text, fold_ascii(&s, identifier), "{s:?}");
                assert_eq!(origin.len(), text.len(), "{s:?}");
                for (i, &o) in origin.iter().enumerate() {
                    let folded = text.as_bytes()[i];
                    let source = s.as_bytes()[o as usize];
                    assert!(folded == source.to_ascii_lowercase() || folded == b' ', "{s:?} at {i}");
                }
            }
        }
    }

    #[test]
    fn folds_what_would_hide_a_phrase() {
        assert_eq!(Normalized::new("Ig\u{200b}nore  ALL\n\tprevious").text, "ignore all previous");
        assert_eq!(Normalized::new("ｉｇｎｏｒｅ　ｐｒｅｖｉｏｕｓ").text, "ignore previous");
        assert_eq!(Normalized::new("\u{1d422}\u{1d420}").text, "ig");
        assert_eq!(Normalized::new("don\u{2019}t \x1b[8mtell\x1b[0m").text, "don't tell");
        assert_eq!(Normalized::new("ИГНОРИРУЙ").text, "игнорируй");
        assert_eq!(Normalized::with("ignore_previous-rules", true).text, "ignore previous rules");
        assert_eq!(Normalized::new("  a\u{3164}\u{3164}b ").text, "a b");
        assert_eq!(Normalized::new("\u{456}gnore pr\u{435}vious").text, "ignore previous");
        assert_eq!(Normalized::new("Привет мир, hello").text, "привет мир, hello");
    }

    #[test]
    fn maps_back_to_the_original() {
        let src = "x  Ig\u{200b}nore\u{200b} it";
        let n = Normalized::new(src);
        let at = n.text.find("ignore").unwrap();
        let (a, b) = n.original(at, at + "ignore".len(), src);
        assert_eq!(&src[a..b], "Ig\u{200b}nore");
    }
}
