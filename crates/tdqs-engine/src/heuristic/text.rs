//! Text plumbing for the heuristic judge: lowercase word tokens, identifier tokens, sentences,
//! light stemming and phrase look-ups. Ideographic scripts (CJK) count one token per character.

use std::borrow::Cow;
use std::cell::OnceCell;

use crate::json::JsString;

use super::cues::Cues;

/// True for characters of scripts written without spaces between words.
#[inline]
pub fn is_ideograph(c: char) -> bool {
    // Most text is below kana: one comparison settles it.
    (c as u32) >= 0x3040
        && matches!(c as u32,
        0x3040..=0x30FF      // kana
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xF900..=0xFAFF)
}

/// A description (or any prose) broken up once for every later question.
#[derive(Clone, Debug, Default)]
pub struct Text {
    /// Lowercased, U+0000 removed, whitespace runs kept as they were.
    pub lower: String,
    /// Alphanumeric runs, lowercased; every ideograph is a token of its own.
    pub words: Vec<String>,
    /// Runs of alphanumerics, `_` and `-` (identifiers such as `search_calls_extensive`),
    /// lowercased, without leading or trailing `_`/`-`: byte ranges of `lower` (see
    /// [`Text::idents`]), not copies.
    idents: Vec<(u32, u32)>,
    /// Sentences and list lines, trimmed, non-empty.
    pub sentences: Vec<String>,
    /// Number of ideographs; a reader gets about one word's worth out of two of them.
    pub ideographs: usize,
    /// `words` after [`stem`], in the same order, where that differs from the word (see
    /// [`Text::stem_at`]): most words are their own stem and are not copied.
    stems: Vec<Option<String>>,
    /// Indices into `words`, sorted by word, for phrase look-ups.
    by_word: Vec<usize>,
    /// The lexicon's cue phrases found, on first use.
    cues: OnceCell<Cues>,
}

impl Text {
    pub fn new(raw: &str) -> Text {
        let lower = lower_of(raw);
        let mut words = Vec::new();
        let mut ideographs = 0;
        text_words(&lower, |w, ideograph| {
            ideographs += usize::from(ideograph);
            words.push(w.to_owned());
        });
        let mut idents = Vec::new();
        let mut ident = 0..0;
        let flush = |ident: &mut std::ops::Range<usize>, out: &mut Vec<(u32, u32)>| {
            let run = &lower[ident.clone()];
            let t = run.trim_start_matches(['_', '-']);
            let from = ident.start + (run.len() - t.len());
            let t = t.trim_end_matches(['_', '-']);
            if !t.is_empty() {
                out.push((from as u32, (from + t.len()) as u32));
            }
            *ident = 0..0;
        };
        for (i, c) in lower.char_indices() {
            if !is_ideograph(c) && (c.is_alphanumeric() || c == '_' || c == '-') {
                ident = if ident.is_empty() { i..i + c.len_utf8() } else { ident.start..i + c.len_utf8() };
            } else {
                flush(&mut ident, &mut idents);
            }
        }
        flush(&mut ident, &mut idents);
        let stems = words
            .iter()
            .map(|w| match stemmed(w) {
                Cow::Borrowed(s) if s.len() == w.len() => None,
                s => Some(s.into_owned()),
            })
            .collect();
        let mut by_word: Vec<usize> = (0..words.len()).collect();
        by_word.sort_by(|&a, &b| words[a].cmp(&words[b]).then(a.cmp(&b)));
        Text { sentences: sentences(&lower), lower, words, idents, ideographs, stems, by_word, cues: OnceCell::new() }
    }

    /// Latin-script words plus half the ideographs: a rough "how much is said" measure.
    pub fn word_count(&self) -> usize {
        self.words.len() - self.ideographs + self.ideographs.div_ceil(2)
    }

    /// True when most of the text is ideographic.
    pub fn mostly_ideographic(&self) -> bool {
        self.ideographs > 0 && 2 * self.ideographs >= self.words.len()
    }

    /// Does the phrase occur as whole words? A trailing `*` makes its last word a prefix;
    /// a phrase made of ideographs is looked up as a plain substring.
    pub fn has(&self, phrase: &str) -> bool {
        if phrase.chars().any(is_ideograph) {
            return self.lower.contains(phrase);
        }
        let (body, prefix) = match phrase.strip_suffix('*') {
            Some(b) => (b, true),
            None => (phrase, false),
        };
        let (first, rest) = body.split_once(' ').unwrap_or((body, ""));
        let matches_rest = |i: usize| {
            let n = rest.split(' ').count();
            rest.is_empty()
                || rest.split(' ').enumerate().all(|(k, pw)| match self.words.get(i + 1 + k) {
                    Some(w) if prefix && k + 1 == n => w.starts_with(pw),
                    Some(w) => w == pw,
                    None => false,
                })
        };
        if prefix && rest.is_empty() {
            return self.words.iter().any(|w| w.starts_with(first));
        }
        let from = self.by_word.partition_point(|&i| self.words[i].as_str() < first);
        self.by_word[from..].iter().take_while(|&&i| self.words[i] == first).any(|&i| matches_rest(i))
    }

    /// Every phrase of the list that occurs, in list order. The lexicon's cue phrases are
    /// found all at once (see [`Cues`]); any other phrase is looked up with [`Text::has`].
    pub fn all_of<'a>(&self, phrases: &[&'a str]) -> Vec<&'a str> {
        let cues = self.cues.get_or_init(|| Cues::find(&self.lower, self.words.iter().map(String::as_str)));
        let known = cues.all_of_known(phrases);
        known
            .unwrap_or_else(|| phrases.iter().copied().filter(|p| cues.has(p).unwrap_or_else(|| self.has(p))).collect())
    }

    /// Is any word of the text equal to one of `stems` after stemming?
    pub fn has_stem(&self, stem_set: &[&str]) -> bool {
        (0..self.words.len()).any(|i| stem_set.contains(&self.stem_at(i)))
    }

    /// The stem of word `i`.
    pub fn stem_at(&self, i: usize) -> &str {
        self.stems[i].as_deref().unwrap_or(&self.words[i])
    }

    /// The identifiers, in order.
    pub fn idents(&self) -> impl Iterator<Item = &str> {
        self.idents.iter().map(|&(a, b)| &self.lower[a as usize..b as usize])
    }
}

/// The text as [`Text`] reads it: U+0000 removed, lowercased.
pub fn lower_of(raw: &str) -> String {
    if raw.contains('\0') { raw.replace('\0', "").to_lowercase() } else { raw.to_lowercase() }
}

/// The sentences [`Text::new`] would find in `raw`, without reading its words.
pub fn sentences_of(raw: &str) -> Vec<String> {
    sentences(&lower_of(raw))
}

/// The words of lowercase text as [`Text`] keeps them, in order, each with whether it is an
/// ideograph: alphanumeric runs, every ideograph a word of its own.
pub fn text_words<'a>(lower: &'a str, mut emit: impl FnMut(&'a str, bool)) {
    let mut start = None;
    for (i, c) in lower.char_indices() {
        let ideograph = is_ideograph(c);
        if !ideograph && c.is_alphanumeric() {
            start.get_or_insert(i);
            continue;
        }
        if let Some(s) = start.take() {
            emit(&lower[s..i], false);
        }
        if ideograph {
            emit(&lower[i..i + c.len_utf8()], true);
        }
    }
    if let Some(s) = start {
        emit(&lower[s..], false);
    }
}

/// The alphanumeric runs of already-lowercased text, without allocating.
pub fn words_of(lower: &str) -> impl Iterator<Item = &str> {
    lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty())
}

/// Splits prose into sentences (at `.`, `!`, `?` and their full-width forms followed by a
/// space or the end) and lines.
fn sentences(lower: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in lower.lines() {
        // Sentences are cut out of the line by position, not collected character by character.
        let mut start = 0;
        let mut chars = line.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            let ends = match c {
                '。' | '！' | '？' => true,
                '.' | '!' | '?' => chars.peek().is_none_or(|(_, n)| n.is_whitespace()),
                _ => false,
            };
            if ends {
                let to = i + c.len_utf8();
                push_sentence(&mut out, &line[start..to]);
                start = to;
            }
        }
        push_sentence(&mut out, &line[start..]);
    }
    out
}

fn push_sentence(out: &mut Vec<String>, s: &str) {
    let t = s.trim_matches(|c: char| c.is_whitespace() || c == '•' || c == '-' || c == '*');
    if t.chars().any(char::is_alphanumeric) {
        out.push(t.to_owned());
    }
}

/// Strips plural and third-person endings: `entries` -> `entry`, `fetches` -> `fetch`,
/// `lists` -> `list`; leaves `status`, `process`, `analysis` alone.
pub fn stem(w: &str) -> String {
    stemmed(w).into_owned()
}

/// [`stem`] without a copy where the stem is the word or a prefix of it (all but `-ies`).
pub fn stemmed(w: &str) -> Cow<'_, str> {
    let n = w.len();
    if n <= 3 || !w.is_ascii() {
        return Cow::Borrowed(w);
    }
    if w.ends_with("ss") || w.ends_with("us") || w.ends_with("is") {
        return Cow::Borrowed(w);
    }
    if let Some(b) = w.strip_suffix("ies").filter(|_| n > 4) {
        return Cow::Owned(format!("{b}y"));
    }
    for suffix in ["ches", "shes", "sses", "xes", "zes"] {
        if w.ends_with(suffix) {
            return Cow::Borrowed(&w[..n - 2]);
        }
    }
    Cow::Borrowed(w.strip_suffix('s').unwrap_or(w))
}

/// `s.to_lowercase()`, without a copy when that changes nothing (ASCII without capitals).
pub fn lowercase(s: &str) -> Cow<'_, str> {
    if s.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase()) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(s.to_lowercase())
    }
}

/// The words of an identifier: `search_calls_extensive`, `searchCallsExtensive`,
/// `search-calls.extensive` all give `search`, `calls`, `extensive` (lowercased).
pub fn split_identifier(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    identifier_words(name, |w| out.push(w.to_owned()));
    out
}

/// [`split_identifier`]'s words, handed to `emit` one at a time from one buffer, so a caller
/// that keeps them elsewhere (the sibling index) allocates nothing per word.
pub fn identifier_words(name: &str, mut emit: impl FnMut(&str)) {
    if name.is_ascii() {
        return ascii_identifier_words(name, emit);
    }
    let mut cur = String::new();
    let mut prev: Option<char> = None;
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                emit(&cur);
                cur.clear();
            }
            prev = Some(c);
            continue;
        }
        let next = chars.peek().copied();
        let boundary = c.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase() || p.is_ascii_digit() || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
            });
        if boundary && !cur.is_empty() {
            emit(&cur);
            cur.clear();
        }
        if c.is_ascii() {
            cur.push(c.to_ascii_lowercase());
        } else {
            cur.extend(c.to_lowercase());
        }
        prev = Some(c);
    }
    if !cur.is_empty() {
        emit(&cur);
    }
}

/// [`identifier_words`] for ASCII, where every character test is a byte test and a word
/// without capitals is handed out as it stands (most names), without being copied.
fn ascii_identifier_words(name: &str, mut emit: impl FnMut(&str)) {
    let b = name.as_bytes();
    let mut buf = String::new();
    let mut word = |from: usize, to: usize| {
        let w = &name[from..to];
        if w.bytes().any(|c| c.is_ascii_uppercase()) {
            buf.clear();
            buf.push_str(w);
            buf.make_ascii_lowercase();
            emit(&buf);
        } else {
            emit(w);
        }
    };
    let mut start = None;
    for (i, &c) in b.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if let Some(s) = start.take() {
                word(s, i);
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|j| b[j]);
        let next = b.get(i + 1);
        let boundary = c.is_ascii_uppercase()
            && prev.is_some_and(|p| {
                p.is_ascii_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_ascii_uppercase() && next.is_some_and(u8::is_ascii_lowercase))
            });
        if boundary && let Some(s) = start.take() {
            word(s, i);
        }
        start.get_or_insert(i);
    }
    if let Some(s) = start {
        word(s, b.len());
    }
}

/// The lossy text of a JavaScript string with U+0000 removed.
pub fn plain(s: &JsString) -> String {
    let mut t = s.to_string_lossy();
    if t.contains('\0') {
        t.retain(|c| c != '\0');
    }
    t
}

/// Shortens a quotation for a justification, on a character boundary.
pub fn quote(s: &str, max_chars: usize) -> String {
    let one_line: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= max_chars {
        return one_line;
    }
    let cut: String = one_line.chars().take(max_chars).collect();
    format!("{}...", cut.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_sentences_and_phrases() {
        let t = Text::new("Lists calls. Use `search_calls_extensive` instead!\n- item one");
        assert_eq!(t.sentences.len(), 3);
        assert!(t.idents().any(|i| i == "search_calls_extensive"));
        assert!(t.has("use search calls extensive instead"));
        assert!(t.has("inst*"));
        assert!(!t.has("list"));
        assert!(t.has_stem(&["list"]));
        let cjk = Text::new("查询任务状态");
        assert_eq!((cjk.ideographs, cjk.word_count()), (6, 3));
        assert!(cjk.has("任务") && cjk.mostly_ideographic());
    }

    #[test]
    fn stems_and_identifiers() {
        assert_eq!(stem("entries"), "entry");
        assert_eq!(stem("fetches"), "fetch");
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("namespaces"), "namespace");
        assert_eq!(split_identifier("getHTTPResponse_v2"), ["get", "http", "response", "v2"]);
        assert_eq!(split_identifier("knowledge-base-retrieve"), ["knowledge", "base", "retrieve"]);
        assert_eq!(quote("a  b\nc", 3), "a b...");
    }
}
