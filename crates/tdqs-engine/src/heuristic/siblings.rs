//! A tool list's names, indexed once for the questions every tool of the list asks about its
//! siblings: is this word a sibling's name, is it a part of one, which siblings does this
//! description name. Asked of the names one by one, those questions cost each tool the length
//! of the list, and the list the square of its length (a 1,000-tool first listing took 25 s in
//! a debug build); looked up here, they cost each tool the length of its own description.
//!
//! The answers are exactly those of the one-by-one checks ([`super::evidence`] still confirms
//! every candidate with the original test): the index only decides which names need asking.

use std::collections::{BTreeSet, HashMap};

use crate::json::JsString;

use super::text::{Text, is_ideograph, plain, split_identifier};

/// The quotes a one-word sibling must stand between to count as named.
const QUOTES: [char; 3] = ['`', '\'', '"'];

/// The names of one list (each tool's own name among them).
#[derive(Debug, Default)]
pub struct SiblingIndex {
    raw: Vec<JsString>,
    /// `plain` of each name, and that lowercased, in list order.
    plain: Vec<String>,
    lower: Vec<String>,
    /// How many times each raw name occurs (a tool leaves out every copy of its own).
    raw_count: HashMap<JsString, usize>,
    /// Positions of the names with a given lowercase form.
    by_lower: HashMap<String, Vec<usize>>,
    /// How many names have a given `_`/`-` separated part (each name counted once per part).
    parts: HashMap<String, usize>,
    /// The word sequences of the multi-word names, as a trie: `trie[node][word]` is the next
    /// node, `ends[node]` the names whose words end there.
    trie: Vec<HashMap<String, usize>>,
    ends: Vec<Vec<usize>>,
    /// Names no look-up finds (a one-word name holding a quote, a phrase with ideographs,
    /// which is matched as a substring): asked one by one.
    direct: Vec<usize>,
}

impl SiblingIndex {
    pub fn new(names: &[JsString]) -> SiblingIndex {
        let mut ix = SiblingIndex { trie: vec![HashMap::new()], ends: vec![Vec::new()], ..Default::default() };
        for (i, raw) in names.iter().enumerate() {
            let plain = plain(raw);
            let lower = plain.to_lowercase();
            *ix.raw_count.entry(raw.clone()).or_default() += 1;
            ix.by_lower.entry(lower.clone()).or_default().push(i);
            let mut parts: Vec<&str> = lower.split(['_', '-']).collect();
            parts.sort_unstable();
            parts.dedup();
            for p in parts {
                *ix.parts.entry(p.to_owned()).or_default() += 1;
            }
            let words = split_identifier(&plain);
            if words.len() < 2 {
                if lower.contains(QUOTES) {
                    ix.direct.push(i);
                }
            } else if words.iter().any(|w| w.chars().any(is_ideograph)) {
                ix.direct.push(i);
            } else {
                let mut node = 0;
                for w in words {
                    node = match ix.trie[node].get(&w) {
                        Some(&next) => next,
                        None => {
                            ix.trie.push(HashMap::new());
                            ix.ends.push(Vec::new());
                            let next = ix.trie.len() - 1;
                            ix.trie[node].insert(w, next);
                            next
                        }
                    };
                }
                ix.ends[node].push(i);
            }
            ix.raw.push(raw.clone());
            ix.plain.push(plain);
            ix.lower.push(lower);
        }
        ix
    }

    /// The siblings of the tool named `own`: every name of the list but (every copy of) its
    /// own; `None` when the list already leaves it out.
    pub fn view(&self, own: Option<&JsString>) -> SiblingView<'_> {
        let own_copies = own.and_then(|o| self.raw_count.get(o)).copied().unwrap_or(0);
        let own_lower = own.filter(|_| own_copies > 0).map(|o| plain(o).to_lowercase());
        SiblingView { index: self, own: own.filter(|_| own_copies > 0).cloned(), own_copies, own_lower }
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
        self.index.raw.len() - self.own_copies
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
        let n = self.index.by_lower.get(lower).map_or(0, Vec::len);
        n > self.copies_of_own_if(|l| l == lower)
    }

    /// Is `word` one of the `_`/`-` separated parts of a sibling's name (lowercased)?
    pub fn has_part(&self, word: &str) -> bool {
        let n = self.index.parts.get(word).copied().unwrap_or(0);
        n > self.copies_of_own_if(|l| l.split(['_', '-']).any(|p| p == word))
    }

    fn is_own(&self, i: usize) -> bool {
        self.own.as_ref().is_some_and(|o| *o == self.index.raw[i])
    }

    /// The siblings (their `plain` text, in list order) for which `names(desc, sibling)`
    /// holds, other than those spelled `name`. `names` is the one-by-one test; it is asked
    /// only of the names the description could name: those written between quotes, as an
    /// identifier, or word for word, and the few the index cannot look up.
    pub fn named_in(&self, desc: &Text, name: &str, names: impl Fn(&Text, &str) -> bool) -> Vec<String> {
        let ix = self.index;
        let mut candidates: BTreeSet<usize> = ix.direct.iter().copied().collect();
        let mut add = |key: &str| {
            if let Some(at) = ix.by_lower.get(key) {
                candidates.extend(at);
            }
        };
        for q in QUOTES {
            let marks: Vec<usize> = desc.lower.match_indices(q).map(|(i, _)| i).collect();
            for pair in marks.windows(2) {
                add(&desc.lower[pair[0] + 1..pair[1]]);
            }
        }
        for ident in &desc.idents {
            add(ident);
        }
        for start in 0..desc.words.len() {
            let mut node = 0;
            for w in &desc.words[start..] {
                let Some(&next) = ix.trie[node].get(w) else { break };
                node = next;
                candidates.extend(&ix.ends[node]);
            }
        }
        candidates
            .into_iter()
            .filter(|&i| !self.is_own(i) && ix.plain[i] != name && names(desc, &ix.plain[i]))
            .map(|i| ix.plain[i].clone())
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
        "x",
    ];

    const DESCS: &[&str] = &[
        "Use `weather` or get_weather, not 'search'.",
        "Prefer get weather v2 to search files; it's faster than \"x\".",
        "Call 查询 任务 first, or `it's`, or `` or a b c.",
        "getweather then ''__'' and `Get_Weather`",
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
