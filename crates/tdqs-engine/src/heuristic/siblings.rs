//! A tool list's names, indexed once for the questions every tool of the list asks about its
//! siblings: is this word a sibling's name, is it a part of one, which siblings does this
//! description name. Asked of the names one by one, those questions cost each tool the length
//! of the list, and the list the square of its length (a 1,000-tool first listing took 25 s in
//! a debug build); looked up here, they cost each tool the length of its own description.
//!
//! The answers are exactly those of the one-by-one checks ([`super::evidence`] still confirms
//! every candidate with the original test): the index only decides which names need asking.

use std::hash::{BuildHasher, Hasher};
use std::sync::{LazyLock, OnceLock};

use foldhash::fast::{FoldHasher, RandomState};
use rustc_hash::FxHashSet;

use crate::json::JsString;

use super::text::{Text, identifier_words, is_ideograph, plain};

/// The quotes a one-word sibling must stand between to count as named.
const QUOTES: [char; 3] = ['`', '\'', '"'];

/// The hash of every key of the index, seeded at random once per process. Names are a
/// server's to choose: under a fixed hash, names made to hash alike would make each look-up
/// confirm every one of them, and a list the square of its length. A look-up confirms what it
/// finds, so the seed decides only how many comparisons are made, never an answer.
static SEEDED: LazyLock<RandomState> = LazyLock::new(RandomState::default);

fn hash(key: &[u8]) -> u64 {
    SEEDED.hash_one(key)
}

/// A running hash of a sequence of words, one word at a time: a name's words and the same
/// words met in a description hash alike at every length.
struct WordsHash(FoldHasher<'static>);

impl Default for WordsHash {
    fn default() -> WordsHash {
        WordsHash(SEEDED.build_hasher())
    }
}

impl WordsHash {
    fn push(&mut self, word: &str) -> u64 {
        self.0.write(word.as_bytes());
        self.0.write_u8(0xff);
        self.0.finish()
    }
}

/// Keys looked up by hash: `(hash, id)` pairs in order. A look-up gives the ids whose key
/// hashes alike, in id order, for the caller to confirm against the key itself. Built by one
/// sort, with no allocation per key (a map of owned strings cost a judged tool more than the
/// rest of its reading).
#[derive(Debug, Default)]
struct Hashed(Vec<(u64, u32)>);

impl Hashed {
    fn new(mut pairs: Vec<(u64, u32)>) -> Hashed {
        pairs.sort_unstable();
        Hashed(pairs)
    }

    fn get(&self, key: &[u8]) -> impl Iterator<Item = usize> + '_ {
        self.get_hash(hash(key))
    }

    fn get_hash(&self, h: u64) -> impl Iterator<Item = usize> + '_ {
        let from = self.0.partition_point(|e| e.0 < h);
        self.0[from..].iter().take_while(move |e| e.0 == h).map(|e| e.1 as usize)
    }
}

#[derive(Debug)]
struct Name {
    raw: JsString,
    /// `plain(raw)`, when that differs from the raw name's text (a U+0000, a lone surrogate).
    plain: Option<String>,
    /// The plain text lowercased, when that differs from it.
    lower: Option<String>,
    /// The identifier words of a name of two or more words, as a range of `word_spans`.
    words: (u32, u32),
}

/// The names of one list (each tool's own name among them).
#[derive(Debug, Default)]
pub struct SiblingIndex {
    names: Vec<Name>,
    by_lower: Hashed,
    /// The words of the multi-word names, one after the other, and where each word sits.
    word_text: String,
    word_spans: Vec<(u32, u32)>,
    /// Multi-word names by the hash of all their words: a description names one only where
    /// its words follow each other there. Looked up from each word of the description,
    /// extended one word at a time while the words so far begin some name (`prefixes`), so a
    /// word many names begin with ("get") costs a look-up, not a comparison with each of them.
    by_words: Hashed,
    prefixes: FxHashSet<u64>,
    /// Names no look-up finds (a one-word name holding a quote, a phrase with ideographs,
    /// which is matched as a substring): asked one by one.
    direct: Vec<usize>,
    /// Built on first use: by raw name (to count a tool's own copies), and the `_`/`-`
    /// separated parts of the lowercase names, as `(name, start, end)` in `parts`.
    by_raw: OnceLock<Hashed>,
    parts: OnceLock<Parts>,
}

/// The `_`/`-` separated parts of each lowercase name, as `(name, start, end)`.
#[derive(Debug)]
struct Parts {
    index: Hashed,
    spans: Vec<(u32, u32, u32)>,
}

impl SiblingIndex {
    pub fn new(names: &[JsString]) -> SiblingIndex {
        let text: usize = names.iter().map(|n| n.as_bytes().len()).sum();
        let mut ix = SiblingIndex {
            names: Vec::with_capacity(names.len()),
            word_text: String::with_capacity(text),
            word_spans: Vec::with_capacity(4 * names.len()),
            ..Default::default()
        };
        let mut by_lower = Vec::with_capacity(names.len());
        let mut by_words = Vec::with_capacity(names.len());
        for (i, raw) in names.iter().enumerate() {
            // Most names are their own plain and lowercase text: keep copies only of the others.
            let as_is = raw.as_str().filter(|s| !s.contains('\0'));
            let owned = as_is.is_none().then(|| plain(raw));
            let plain = as_is.or(owned.as_deref()).unwrap_or_default();
            let lower = (!plain.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase())).then(|| plain.to_lowercase());
            let (first, text_at) = (ix.word_spans.len(), ix.word_text.len());
            identifier_words(plain, |w| {
                let at = ix.word_text.len() as u32;
                ix.word_text.push_str(w);
                ix.word_spans.push((at, ix.word_text.len() as u32));
            });
            let count = ix.word_spans.len() - first;
            let mut words = (first as u32, ix.word_spans.len() as u32);
            let lower_text = lower.as_deref().unwrap_or(plain);
            by_lower.push((hash(lower_text.as_bytes()), i as u32));
            let ideographic = ix.word_spans[first..]
                .iter()
                .any(|&(a, b)| ix.word_text[a as usize..b as usize].chars().any(is_ideograph));
            if count < 2 {
                if lower_text.contains(QUOTES) {
                    ix.direct.push(i);
                }
            } else if ideographic {
                ix.direct.push(i);
            } else {
                let mut h = WordsHash::default();
                let mut whole = 0;
                for (k, &(a, b)) in ix.word_spans[first..].iter().enumerate() {
                    whole = h.push(&ix.word_text[a as usize..b as usize]);
                    if k + 1 < count {
                        ix.prefixes.insert(whole);
                    }
                }
                by_words.push((whole, i as u32));
            }
            if count < 2 || ideographic {
                // Only the multi-word names compared word by word keep their words.
                ix.word_spans.truncate(first);
                ix.word_text.truncate(text_at);
                words = (first as u32, first as u32);
            }
            ix.names.push(Name { raw: raw.clone(), plain: owned, lower, words });
        }
        ix.by_lower = Hashed::new(by_lower);
        ix.by_words = Hashed::new(by_words);
        ix
    }

    fn plain(&self, i: usize) -> &str {
        let n = &self.names[i];
        n.plain.as_deref().or_else(|| n.raw.as_str()).unwrap_or_default()
    }

    fn lower(&self, i: usize) -> &str {
        self.names[i].lower.as_deref().unwrap_or_else(|| self.plain(i))
    }

    fn words(&self, i: usize) -> impl Iterator<Item = &str> {
        let (a, b) = self.names[i].words;
        self.word_spans[a as usize..b as usize].iter().map(|&(x, y)| &self.word_text[x as usize..y as usize])
    }

    /// How many names of the list are exactly `raw`.
    fn copies(&self, raw: &JsString) -> usize {
        let by_raw = self.by_raw.get_or_init(|| {
            Hashed::new(self.names.iter().enumerate().map(|(i, n)| (hash(n.raw.as_bytes()), i as u32)).collect())
        });
        by_raw.get(raw.as_bytes()).filter(|&i| self.names[i].raw == *raw).count()
    }

    /// Do more than `more_than` names have `word` among their `_`/`-` separated parts (each
    /// name once)? Counted only as far as the answer needs: a part half the list shares
    /// ("get") would otherwise cost each tool that asks the length of the list.
    fn with_part(&self, word: &str, more_than: usize) -> bool {
        let Parts { index, spans } = self.parts.get_or_init(|| {
            let (mut hashed, mut spans) = (Vec::new(), Vec::new());
            for i in 0..self.names.len() {
                let lower = self.lower(i);
                let mut at = 0;
                for p in lower.split(['_', '-']) {
                    hashed.push((hash(p.as_bytes()), spans.len() as u32));
                    spans.push((i as u32, at as u32, (at + p.len()) as u32));
                    at += p.len() + 1;
                }
            }
            Parts { index: Hashed::new(hashed), spans }
        });
        // Matches come in name order, so a name holding the part twice is counted once.
        let mut last = None;
        index
            .get(word.as_bytes())
            .map(|k| spans[k])
            .filter(|&(i, a, b)| &self.lower(i as usize)[a as usize..b as usize] == word)
            .filter(|&(i, _, _)| last.replace(i) != Some(i))
            .nth(more_than)
            .is_some()
    }

    /// The siblings of the tool named `own`: every name of the list but (every copy of) its
    /// own; `None` when the list already leaves it out.
    pub fn view(&self, own: Option<&JsString>) -> SiblingView<'_> {
        let own_copies = own.map_or(0, |o| self.copies(o));
        let own = own.filter(|_| own_copies > 0);
        let own_lower = own.map(|o| plain(o).to_lowercase());
        SiblingView { index: self, own: own.cloned(), own_copies, own_lower }
    }
}

/// One tool's siblings, answered from the list's index.
pub struct SiblingView<'a> {
    index: &'a SiblingIndex,
    own: Option<JsString>,
    own_copies: usize,
    own_lower: Option<String>,
}

impl SiblingView<'_> {
    /// How many siblings.
    pub fn len(&self) -> usize {
        self.index.names.len() - self.own_copies
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn copies_of_own_if(&self, matches: impl FnOnce(&str) -> bool) -> usize {
        match &self.own_lower {
            Some(l) if matches(l) => self.own_copies,
            _ => 0,
        }
    }

    /// Is `lower` a sibling's name (lowercased)?
    pub fn has_name(&self, lower: &str) -> bool {
        let ix = self.index;
        let own = self.copies_of_own_if(|l| l == lower);
        ix.by_lower.get(lower.as_bytes()).filter(|&i| ix.lower(i) == lower).nth(own).is_some()
    }

    /// Is `word` one of the `_`/`-` separated parts of a sibling's name (lowercased)?
    pub fn has_part(&self, word: &str) -> bool {
        let own = self.copies_of_own_if(|l| l.split(['_', '-']).any(|p| p == word));
        self.index.with_part(word, own)
    }

    fn is_own(&self, i: usize) -> bool {
        self.own.as_ref().is_some_and(|o| *o == self.index.names[i].raw)
    }

    /// The siblings (their `plain` text, in list order) for which `names(desc, sibling)`
    /// holds, other than those spelled `name`. `names` is the one-by-one test; it is asked
    /// only of the names the description could name: those written between quotes, as an
    /// identifier, or word for word, and the few the index cannot look up.
    pub fn named_in(&self, desc: &Text, name: &str, names: impl Fn(&Text, &str) -> bool) -> Vec<String> {
        let ix = self.index;
        let mut candidates: Vec<usize> = ix.direct.clone();
        let mut add = |key: &str| candidates.extend(ix.by_lower.get(key.as_bytes()).filter(|&i| ix.lower(i) == key));
        for q in QUOTES {
            let mut marks = desc.lower.match_indices(q).map(|(i, _)| i);
            if let Some(mut open) = marks.next() {
                for close in marks {
                    add(&desc.lower[open + 1..close]);
                    open = close;
                }
            }
        }
        for ident in desc.idents() {
            add(ident);
        }
        if !ix.by_words.0.is_empty() {
            for start in 0..desc.words.len() {
                let mut h = WordsHash::default();
                for (len, word) in desc.words[start..].iter().enumerate() {
                    let whole = h.push(word);
                    let run = &desc.words[start..=start + len];
                    for i in ix.by_words.get_hash(whole) {
                        if ix.words(i).eq(run.iter().map(String::as_str)) {
                            candidates.push(i);
                        }
                    }
                    if !ix.prefixes.contains(&whole) {
                        break;
                    }
                }
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        candidates
            .into_iter()
            .filter(|&i| !self.is_own(i) && ix.plain(i) != name && names(desc, ix.plain(i)))
            .map(|i| ix.plain(i).to_owned())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::evidence::names_tool;
    use super::*;

    /// Names of every kind the index treats apart: one word, several, camelCase, quotes,
    /// ideographs, case variants and exact copies of a name, a NUL, nothing at all.
    const NAMES: &[&str] = &[
        "get_weather",
        "get_weather",
        "Get_Weather",
        "getWeather",
        "weather",
        "search",
        "search-files",
        "it's",
        "查询_任务",
        "a\0b_c",
        "",
        "__",
        "get_weather_v2",
        "get_weather_v2_beta",
        "get-weather-v3",
        "x",
    ];

    const DESCS: &[&str] = &[
        "Use `weather` or get_weather, not 'search'.",
        "Prefer get weather v2 to search files; it's faster than \"x\".",
        "Call 查询 任务 first, or `it's`, or `` or a b c.",
        "getweather then ''__'' and `Get_Weather`",
        "get weather v2 beta, get weather v3 or get weather; get get weather v2",
        "",
    ];

    #[test]
    fn the_index_answers_as_the_names_one_by_one_do() {
        let names: Vec<JsString> = NAMES.iter().map(|n| JsString::from(*n)).collect();
        let index = SiblingIndex::new(&names);
        let mut named = 0;
        let probes: Vec<String> =
            NAMES.iter().map(|n| n.to_lowercase()).chain(["weather".into(), "v2".into()]).collect();
        for own in names.iter().map(Some).chain([None, Some(&JsString::from("absent"))]) {
            let siblings: Vec<&JsString> = names.iter().filter(|n| own.is_none_or(|o| *n != o)).collect();
            let lower: Vec<String> = siblings.iter().map(|s| plain(s).to_lowercase()).collect();
            let view = index.view(own);
            assert_eq!(view.len(), siblings.len());
            for p in &probes {
                assert_eq!(view.has_name(p), lower.iter().any(|s| s == p), "{own:?} {p}");
                let part = lower.iter().flat_map(|s| s.split(['_', '-'])).any(|w| w == p);
                assert_eq!(view.has_part(p), part, "{own:?} {p}");
            }
            for d in DESCS {
                let desc = Text::new(d);
                let name = own.map(plain).unwrap_or_default();
                let one_by_one: Vec<String> =
                    siblings.iter().map(|s| plain(s)).filter(|s| *s != name && names_tool(&desc, s)).collect();
                assert_eq!(view.named_in(&desc, &name, names_tool), one_by_one, "{own:?} {d}");
                named += one_by_one.len();
            }
        }
        assert!(named > 20, "the descriptions should name siblings ({named})");
    }
}
