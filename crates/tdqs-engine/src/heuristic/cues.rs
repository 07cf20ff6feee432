//! The lexicon's cue phrases found in a text in one pass. Looking each of its three hundred
//! phrases up one by one cost a description more than everything else it was read for; here
//! two automata, built once, find all of them at once.
//!
//! The answers are [`Text::has`]'s, by construction: a text's words are written out between
//! single spaces (" lists the calls "), where a phrase occurs as whole words exactly when
//! " lists the " does, and its last word as a prefix (`limit*`) exactly when " limit" does,
//! since words hold no spaces. Phrases written in ideographs are substrings of the lowercase
//! text, as `has` reads them. A phrase outside the lexicon is asked of `has` itself.
//!
//! [`Text::has`]: super::text::Text::has

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind};
use rustc_hash::FxHashMap;

use super::lexicon::{BEHAVIOUR_CUES, DETAIL_CUES, RETURN_CUES, SOFT_USAGE_CUES, WHEN_CUES, WHEN_NOT_CUES};
use super::text::is_ideograph;

struct Automata {
    /// Each distinct phrase of the cue lists, numbered.
    ids: FxHashMap<&'static str, usize>,
    /// Each cue list (by address and length) with its phrases' numbers, so a list is looked
    /// up once rather than phrase by phrase.
    lists: Vec<((usize, usize), Vec<usize>)>,
    /// Over the spaced-out words, and over the lowercase text; each pattern's phrase number.
    words: AhoCorasick,
    word_ids: Vec<usize>,
    ideographs: AhoCorasick,
    ideograph_ids: Vec<usize>,
}

static AUTOMATA: LazyLock<Automata> = LazyLock::new(|| {
    let lists: Vec<&'static [&'static str]> = [WHEN_CUES, WHEN_NOT_CUES, SOFT_USAGE_CUES, RETURN_CUES, DETAIL_CUES]
        .into_iter()
        .chain(BEHAVIOUR_CUES.iter().map(|(_, phrases)| *phrases))
        .collect();
    let mut ids: FxHashMap<&'static str, usize> = FxHashMap::default();
    let (mut words, mut word_ids, mut ideographs, mut ideograph_ids) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for phrase in lists.iter().copied().flatten().copied() {
        let next = ids.len();
        let id = *ids.entry(phrase).or_insert(next);
        if id != next {
            continue;
        }
        if phrase.chars().any(is_ideograph) {
            ideographs.push(phrase.to_owned());
            ideograph_ids.push(id);
        } else {
            words.push(match phrase.strip_suffix('*') {
                Some(prefix) => format!(" {prefix}"),
                None => format!(" {phrase} "),
            });
            word_ids.push(id);
        }
    }
    // A DFA: the text is short and read once, so a table step per byte beats the default
    // NFA; every pattern opens with a space, so a prefilter would stop at every word.
    let build = |patterns: &[String]| {
        AhoCorasick::builder()
            .kind(Some(AhoCorasickKind::DFA))
            .prefilter(false)
            .build(patterns)
            .expect("the cue phrases make an automaton")
    };
    let lists = lists.iter().map(|l| (key(l), l.iter().map(|p| ids[p]).collect())).collect();
    Automata { words: build(&words), word_ids, ideographs: build(&ideographs), ideograph_ids, ids, lists }
});

fn key(list: &[&str]) -> (usize, usize) {
    (list.as_ptr() as usize, list.len())
}

/// Which cue phrases occur in one text.
#[derive(Clone, Debug, Default)]
pub struct Cues {
    found: Vec<u64>,
}

impl Cues {
    /// The cues of a text given as its lowercase form and its words.
    pub fn find<'w>(lower: &str, words: impl Iterator<Item = &'w str>) -> Cues {
        let a = &*AUTOMATA;
        let mut found = vec![0u64; a.ids.len().div_ceil(64)];
        let mut mark = |id: usize| found[id / 64] |= 1 << (id % 64);
        let mut spaced = String::with_capacity(lower.len() + 2);
        spaced.push(' ');
        for w in words {
            spaced.push_str(w);
            spaced.push(' ');
        }
        for m in a.words.find_overlapping_iter(&spaced) {
            mark(a.word_ids[m.pattern().as_usize()]);
        }
        if lower.chars().any(is_ideograph) {
            for m in a.ideographs.find_overlapping_iter(lower) {
                mark(a.ideograph_ids[m.pattern().as_usize()]);
            }
        }
        Cues { found }
    }

    /// Every phrase of a cue list that occurs, in list order.
    pub fn all_of(&self, phrases: &[&'static str]) -> Vec<&'static str> {
        self.all_of_known(phrases).unwrap_or_else(|| {
            phrases.iter().copied().filter(|p| self.has(p).expect("a phrase of the cue lists")).collect()
        })
    }

    /// [`Cues::all_of`] for one of the lists the automata were built from, found by its
    /// address; `None` for any other slice (a copy of a list is looked up phrase by phrase).
    pub fn all_of_known<'p>(&self, phrases: &[&'p str]) -> Option<Vec<&'p str>> {
        let (_, ids) = AUTOMATA.lists.iter().find(|(k, _)| *k == key(phrases))?;
        Some(phrases.iter().zip(ids).filter(|(_, id)| self.found(**id)).map(|(p, _)| *p).collect())
    }

    fn found(&self, id: usize) -> bool {
        self.found[id / 64] & (1 << (id % 64)) != 0
    }

    /// Whether the phrase occurs; `None` for a phrase outside the cue lists.
    pub fn has(&self, phrase: &str) -> Option<bool> {
        Some(self.found(*AUTOMATA.ids.get(phrase)?))
    }
}

#[cfg(test)]
mod tests {
    use super::super::text::Text;
    use super::*;

    /// Texts with every kind of word the tokeniser treats apart: prefixes of cue words, cue
    /// words inside identifiers, digits, ideographs (one of them punctuation, U+30FB), and
    /// phrases cut by punctuation.
    const TEXTS: &[&str] = &[
        "Use this when you need the limits: at most 10 per page, rate-limited; errors are retried.",
        "Returns a list of results (max 50). Don't use it for writes; use `search_all` instead.",
        "Limitless authors authored an authorisation; e.g. the iso-8601 default, i.e. yyyy-mm-dd.",
        "仅在需要时使用。返回结果・限制 超时 实时轮询 不要 用于",
        "read-only, no side-effects; does not modify. Cannot be undone, irreversibly overwrites.",
        "USE WHEN. Instead. Rather than. Not for. prefer",
        "",
        "≤ 5 kb",
    ];

    #[test]
    fn the_automata_answer_as_the_phrases_one_by_one_do() {
        let lists = [WHEN_CUES, WHEN_NOT_CUES, SOFT_USAGE_CUES, RETURN_CUES, DETAIL_CUES]
            .into_iter()
            .chain(BEHAVIOUR_CUES.iter().map(|(_, phrases)| *phrases));
        let phrases: Vec<&str> = lists.flatten().copied().collect();
        let mut found = 0;
        for t in TEXTS {
            let text = Text::new(t);
            let cues = Cues::find(&text.lower, text.words.iter().map(String::as_str));
            for p in &phrases {
                assert_eq!(cues.has(p), Some(text.has(p)), "{p:?} in {t:?}");
                found += usize::from(text.has(p));
            }
            assert_eq!(cues.has("not a cue phrase"), None);
            // The lists are found by address, not phrase by phrase.
            assert!(cues.all_of_known(WHEN_CUES).is_some() && cues.all_of_known(BEHAVIOUR_CUES[0].1).is_some());
            let copy = WHEN_CUES.to_vec();
            assert!(cues.all_of_known(&copy).is_none());
        }
        assert!(found > 40, "the texts should hold many cues ({found})");
    }
}
