//! Text plumbing for the heuristic judge: lowercase word tokens, identifier tokens, sentences,
//! light stemming and phrase look-ups. Ideographic scripts (CJK) count one token per character.

use crate::json::JsString;

/// True for characters of scripts written without spaces between words.
pub fn is_ideograph(c: char) -> bool {
    matches!(c as u32,
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
    /// lowercased, without leading or trailing `_`/`-`.
    pub idents: Vec<String>,
    /// Sentences and list lines, trimmed, non-empty.
    pub sentences: Vec<String>,
    /// Number of ideographs; a reader gets about one word's worth out of two of them.
    pub ideographs: usize,
    /// `words` after [`stem`], in the same order.
    pub stems: Vec<String>,
    /// Indices into `words`, sorted by word, for phrase look-ups.
    by_word: Vec<usize>,
}

impl Text {
    pub fn new(raw: &str) -> Text {
        let lower: String = raw.replace('\0', "").to_lowercase();
        let mut words = Vec::new();
        let mut idents = Vec::new();
        let mut word = String::new();
        let mut ident = String::new();
        let mut ideographs = 0;
        let flush = |buf: &mut String, out: &mut Vec<String>, trim_marks: bool| {
            let t = if trim_marks { buf.trim_matches(|c| c == '_' || c == '-') } else { buf.as_str() };
            if !t.is_empty() {
                out.push(t.to_owned());
            }
            buf.clear();
        };
        for c in lower.chars() {
            if is_ideograph(c) {
                ideographs += 1;
                flush(&mut word, &mut words, false);
                flush(&mut ident, &mut idents, true);
                words.push(c.to_string());
            } else if c.is_alphanumeric() {
                word.push(c);
                ident.push(c);
            } else if c == '_' || c == '-' {
                flush(&mut word, &mut words, false);
                ident.push(c);
            } else {
                flush(&mut word, &mut words, false);
                flush(&mut ident, &mut idents, true);
            }
        }
        flush(&mut word, &mut words, false);
        flush(&mut ident, &mut idents, true);
        let stems = words.iter().map(|w| stem(w)).collect();
        let mut by_word: Vec<usize> = (0..words.len()).collect();
        by_word.sort_by(|&a, &b| words[a].cmp(&words[b]).then(a.cmp(&b)));
        Text { sentences: sentences(&lower), lower, words, idents, ideographs, stems, by_word }
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

    /// Every phrase of the list that occurs, in list order.
    pub fn all_of<'a>(&self, phrases: &[&'a str]) -> Vec<&'a str> {
        phrases.iter().copied().filter(|p| self.has(p)).collect()
    }

    /// Is any word of the text equal to one of `stems` after stemming?
    pub fn has_stem(&self, stem_set: &[&str]) -> bool {
        self.stems.iter().any(|s| stem_set.contains(&s.as_str()))
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
        let mut current = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            current.push(c);
            let ends = match c {
                '。' | '！' | '？' => true,
                '.' | '!' | '?' => chars.peek().is_none_or(|n| n.is_whitespace()),
                _ => false,
            };
            if ends {
                push_sentence(&mut out, &current);
                current.clear();
            }
        }
        push_sentence(&mut out, &current);
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
    let n = w.len();
    if n <= 3 || !w.is_ascii() {
        return w.to_owned();
    }
    if w.ends_with("ss") || w.ends_with("us") || w.ends_with("is") {
        return w.to_owned();
    }
    if let Some(b) = w.strip_suffix("ies").filter(|_| n > 4) {
        return format!("{b}y");
    }
    for suffix in ["ches", "shes", "sses", "xes", "zes"] {
        if w.ends_with(suffix) {
            return w[..n - 2].to_owned();
        }
    }
    match w.strip_suffix('s') {
        Some(b) => b.to_owned(),
        None => w.to_owned(),
    }
}

/// The words of an identifier: `search_calls_extensive`, `searchCallsExtensive`,
/// `search-calls.extensive` all give `search`, `calls`, `extensive` (lowercased).
pub fn split_identifier(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        let boundary = c.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase() || p.is_ascii_digit() || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
            });
        if boundary && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The lossy text of a JavaScript string with U+0000 removed.
pub fn plain(s: &JsString) -> String {
    s.to_string_lossy().replace('\0', "")
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
        assert!(t.idents.contains(&"search_calls_extensive".to_owned()));
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
