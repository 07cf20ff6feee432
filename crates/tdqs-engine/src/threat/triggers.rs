//! Which rules a text can match at all, from one Aho-Corasick pass. Every match of a rule
//! holds one of a finite set of literals, which `regex-syntax` works out from the rule itself
//! (see [`required`]), so the set cannot drift from the patterns: a text holding none of a
//! rule's literals cannot match it, and the rule's regex is not run. Most strings of a
//! definition hold no trigger at all and cost the one pass.
//!
//! Of the sets a rule allows (what its matches begin or end with, what a run of its parts
//! begins with, per branch), the one whose literals carry the most content is taken: a rule
//! that begins "it" or "the user" and goes on "overrides the system prompt" is run where
//! "overrides" is, not on most prose. Measured on the bench's 100-tool list (callgrind,
//! 2026-12-04): taking only what matches begin or end with, 1,200 rule runs a list that found
//! nothing and 7.8 million instructions; by content, under 200 and about 5 million.
//!
//! A rule for which no such literals exist (a match may start and end with anything) is run
//! on every text.
//!
//! The literals are cut to their first (for an ending, last) [`CUT`] bytes: a match that
//! holds a literal holds its first bytes too, so the test stays sound, and the literals become
//! few enough for one automaton (3,891 of them then, 10,333 in session 27) where the whole set
//! needed 57 MB as a DFA.
//!
//! The automaton ([`automaton`]) is a DFA near its root and a trie with failure links deeper
//! down, where nearly every step of a text stays near the root. Session 24 measured
//! `aho-corasick`'s DFA for the literals (7.77 million instructions a list, 53 MB of the
//! gateway's 97 MB at start) against its contiguous NFA (8.82 million, the example's peak RSS
//! 57 MB instead of 106 MB, the same wall clock); the NFA's steps were 44 instructions a byte.

use std::collections::HashMap;

use regex_syntax::hir::literal::{ExtractKind, Extractor};
use regex_syntax::hir::{Hir, HirKind};

pub use rules::Rules;

/// Bytes of a literal kept. Measured on the bench's 100-tool list (callgrind, 2026-12-02, with
/// this round's other cuts): cut to 8 bytes, 9.0 million instructions a list, the example's
/// peak RSS 32 MB and its start (the rules and this automaton built) 611 million; cut to 12,
/// 8.6 million, 38 MB (the DFA 10.8 MB over 2,109 literals) and 713 million; cut to 16, 8.5
/// million, 49 MB and 902 million. The whole literals (7,195) took 57 MB as a DFA; as a
/// contiguous NFA, 2.1 million instructions a list to step instead of 0.6 million.
const CUT: usize = 12;

/// Most literals worked out of one part of a rule.
const LIMIT_TOTAL: usize = 1_000;
/// Most literals of a rule whose branches each have their own.
const LIMIT_UNION: usize = 4_000;
/// Bytes from which a literal counts as rare: longer ones are not preferred for their length.
const RARE: usize = 8;

mod automaton;
mod rules;

pub struct Triggers {
    /// The literals, each with the rules it may begin or end.
    literals: automaton::Automaton,
    /// The rules run whatever the text holds.
    always: Rules,
    /// The same literals in `aho-corasick`'s automaton, for the tests' comparison.
    #[cfg(test)]
    reference: (aho_corasick::AhoCorasick, Vec<Rules>),
}

impl Triggers {
    /// Triggers for `patterns` (as compiled: the same syntax the `regex` crate reads).
    pub fn new(patterns: &[String]) -> Triggers {
        assert!(patterns.len() <= Rules::BITS, "more rules than bits");
        let mut literals: Vec<Vec<u8>> = Vec::new();
        let mut rules_of: Vec<Rules> = Vec::new();
        let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut always = Rules::default();
        for (i, p) in patterns.iter().enumerate() {
            let Some(lits) = required_literals(p) else {
                always |= Rules::of(i);
                continue;
            };
            for lit in lits {
                let at = *index.entry(lit.clone()).or_insert_with(|| {
                    literals.push(lit);
                    rules_of.push(Rules::default());
                    literals.len() - 1
                });
                rules_of[at] |= Rules::of(i);
            }
        }
        Triggers {
            literals: automaton::Automaton::new(&literals, &rules_of),
            always,
            #[cfg(test)]
            reference: (aho_corasick::AhoCorasick::new(&literals).expect("literals build"), rules_of),
        }
    }

    /// Bytes the automaton holds.
    #[cfg(test)]
    pub fn memory(&self) -> usize {
        self.literals.memory()
    }

    /// [`Triggers::candidates`] as an overlapping search of `aho-corasick` finds them.
    #[cfg(test)]
    pub fn reference_candidates(&self, text: &str) -> Rules {
        let (ac, rules_of) = &self.reference;
        ac.find_overlapping_iter(text).fold(self.always, |found, m| found | rules_of[m.pattern().as_usize()])
    }

    /// The rules that may match `text`.
    pub fn candidates(&self, text: &str) -> Rules {
        self.always | self.literals.rules_in(text.as_bytes())
    }
}

/// Literals of a rule, each cut to its first [`CUT`] bytes (or its last, where matches end
/// with it).
type Literals = Vec<Vec<u8>>;

/// Literals one of which every match of `pattern` holds; `None` when there is no finite set
/// of non-empty ones.
fn required_literals(pattern: &str) -> Option<Literals> {
    let hir = regex_syntax::ParserBuilder::new().build().parse(pattern).ok()?;
    required(&hir).map(|(_, lits)| lits)
}

/// How selective a set of literals is: the least content among them (see [`content`], up to
/// [`RARE`] bytes), then the shortest's length, then fewer literals. A rule's prefix alone is
/// often as common as "it" or "the user" ("it overrides the system prompt"): the rule would be
/// run on most prose, where its rarer middle ("overrides") says far more.
type Selectivity = (usize, usize, std::cmp::Reverse<usize>);

fn selectivity(lits: &Literals) -> Option<Selectivity> {
    if lits.iter().any(|l| l.is_empty()) {
        return None;
    }
    let least = lits.iter().map(|l| content(l)).min()?;
    let shortest = lits.iter().map(Vec::len).min()?;
    Some((least.min(RARE), shortest, std::cmp::Reverse(lits.len())))
}

/// Words found in most English descriptions of tools: a literal made of them (" to the ",
/// "the user") is in most texts and says little. Sorted, for a binary search.
///
/// The nouns and verbs of tools' own prose among them ("update", "change", "response",
/// "message", "request", "result", "instead of", "rather than", "chat", "slack", "token") were
/// the literals that ran rules on the bench's 100-tool list and found nothing: counted as
/// common, a rule is run where a rarer part of it is (any part is sound, see [`required`]).
/// Measured (callgrind, steady state): 8.28 -> 7.77 million instructions a list, the phrase
/// rules' searches 1.45 -> 0.86 million. More words ("name", "only", "without", "delete",
/// "admin", "file", "list", ...) moved rules onto worse parts: 8.11-8.15 million.
// (Packed by hand: rustfmt would give each word a line.)
#[rustfmt::skip]
const COMMON: &[&str] = &[
    "a", "account", "all", "an", "and", "any", "are", "as", "ask", "at", "be", "by", "can", "change", "chat", "confirm",
    "default", "do", "does", "each", "email", "errors", "every", "fetch", "for", "from", "given", "he", "her", "him",
    "i", "if", "ignore", "in", "instead", "is", "issues", "it", "its", "keep", "key", "know", "mail", "may", "me",
    "message", "messages", "must", "my", "no", "not", "notify", "now", "number", "of", "on", "or", "our", "permanently",
    "point", "previous", "private", "rather", "request", "requests", "required", "response", "result", "results", "run",
    "send", "she", "should", "show", "slack", "so", "summary", "than", "that", "the", "their", "them", "these", "they",
    "this", "those", "to", "token", "tool", "tools", "update", "us", "use", "user", "users", "we", "when", "will",
    "with", "you", "your",
];

/// Bytes of `literal` outside common words and spaces (punctuation counts: "[system]" is rarer
/// than "system"; a word cut at either end counts as written).
fn content(literal: &[u8]) -> usize {
    literal
        .split(|b| *b == b' ')
        .filter(|w| std::str::from_utf8(w).map_or(true, |w| COMMON.binary_search(&w).is_err()))
        .map(<[u8]>::len)
        .sum()
}

/// The most selective set of literals of which every match of `hir` holds one.
///
/// Sound by construction: a match of `hir` begins (ends) with one of its prefix (suffix)
/// literals; a match of a concatenation holds a match of every run of its parts, so one of
/// each run's literals; a match of an alternation is a match of one branch, so it holds one of
/// the union of the branches' literals; a repetition at least once holds a match of its part.
fn required(hir: &Hir) -> Option<(Selectivity, Literals)> {
    // A group matches what its inside matches: the same literals, worked out once.
    if let HirKind::Capture(c) = hir.kind() {
        return required(&c.sub);
    }
    let mut best: Option<(Selectivity, Literals)> = None;
    let mut consider = |found: Option<(Selectivity, Literals)>| {
        if let Some((score, lits)) = found
            && best.as_ref().is_none_or(|(b, _)| score > *b)
        {
            best = Some((score, lits));
        }
    };
    consider(extracted(hir, ExtractKind::Prefix));
    consider(extracted(hir, ExtractKind::Suffix));
    match hir.kind() {
        HirKind::Repetition(r) if r.min > 0 => consider(required(&r.sub)),
        HirKind::Concat(parts) => {
            // A run from each part on that begins with something written out (a literal or a
            // group of them): a run beginning with a class (`\S+`) or an optional part has no
            // literals a match must begin with worth having, and a look (`\b`) begins the same
            // run as the part after it. Skipping them keeps the rules' start short.
            for k in 1..parts.len() {
                let begins_written = match parts[k].kind() {
                    HirKind::Literal(_) | HirKind::Capture(_) | HirKind::Alternation(_) => true,
                    HirKind::Repetition(r) => r.min > 0 && !matches!(r.sub.kind(), HirKind::Class(_)),
                    _ => false,
                };
                if begins_written && !matches!(parts[k - 1].kind(), HirKind::Look(_)) {
                    consider(extracted(&Hir::concat(parts[k..].to_vec()), ExtractKind::Prefix));
                }
            }
            for part in parts {
                consider(required(part));
            }
        }
        HirKind::Alternation(branches) => {
            // Every branch must bring literals; one without leaves what was found above.
            let union: Option<Literals> =
                branches.iter().map(|b| required(b).map(|(_, lits)| lits)).collect::<Option<Vec<_>>>().map(|sets| {
                    let mut union: Literals = sets.into_iter().flatten().collect();
                    union.sort();
                    union.dedup();
                    union
                });
            if let Some(union) = union.filter(|u| u.len() <= LIMIT_UNION) {
                consider(selectivity(&union).map(|s| (s, union)));
            }
        }
        _ => {}
    }
    best
}

/// `hir`'s prefix (or suffix) literals, cut, if they are a finite set of non-empty ones.
fn extracted(hir: &Hir, kind: ExtractKind) -> Option<(Selectivity, Literals)> {
    let mut extractor = Extractor::new();
    // The secrets' alternation alone has more than the default 250 literals; past the limit
    // the set is given up.
    extractor.kind(kind.clone()).limit_total(LIMIT_TOTAL);
    let seq = extractor.extract(hir);
    let ending = matches!(kind, ExtractKind::Suffix);
    let mut lits: Literals = seq
        .literals()?
        .iter()
        .map(|l| {
            let l = l.as_bytes();
            if ending { l[l.len().saturating_sub(CUT)..].to_vec() } else { l[..l.len().min(CUT)].to_vec() }
        })
        .collect();
    lits.sort();
    lits.dedup();
    selectivity(&lits).map(|s| (s, lits))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn triggers(patterns: &[&str]) -> Triggers {
        Triggers::new(&patterns.iter().map(|p| p.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn a_text_without_a_rules_literals_does_not_trigger_it() {
        let t = triggers(&[r"\b(ignore|forget) (previous|all)\b", r"(^|\. )system:", r".*"]);
        assert_eq!(t.always, 0b100, "a rule matching anything is always run");
        assert_eq!(t.candidates("please forget all of it"), 0b100 | 0b001);
        assert!(t.candidates("a system: note").has(1));
        assert_eq!(t.candidates("nothing here"), 0b100);
    }

    #[test]
    fn a_literal_longer_than_the_cut_still_triggers_its_rule() {
        let t = triggers(&[r"\bdisregarding everything\b", r"whatsoever\.$"]);
        assert_eq!(t.candidates("now disregarding everything said"), 0b01);
        assert_eq!(t.candidates("no reason whatsoever."), 0b10);
        assert_eq!(t.candidates("nothing to see"), 0);
    }

    #[test]
    fn a_rule_is_triggered_by_its_rarest_part_not_its_common_first_word() {
        let t = triggers(&[r"\b(it|this tool) (overrides|outranks) (the|your) system prompt\b"]);
        assert_eq!(t.candidates("it returns the list of files this tool can read"), 0, "a common word ran the rule");
        assert_eq!(t.candidates("this tool outranks your system prompt"), 1);
        assert_eq!(t.candidates("it overrides the system prompt"), 1);
    }

    #[test]
    fn each_branch_of_an_alternation_brings_its_own_literals() {
        let t = triggers(&[r"\b(the|a) (secret|hidden) note\b|\bplease (forward|relay) it\b"]);
        assert_eq!(t.candidates("the hidden note"), 1);
        assert_eq!(t.candidates("please relay it"), 1);
        assert_eq!(t.candidates("the note, please"), 0);
    }

    #[test]
    fn the_automaton_finds_what_an_overlapping_search_finds() {
        let t = triggers(&[r"\bhers\b", r"(his|she)", r"\bhe said\b", r"ушёл|уш", r"x{3}yz"]);
        let mut seed = 7u64;
        let pieces = ["he", "hers", "his", "she", " said", "уш", "ёл", "xx", "x", "yz", "a", " ", "é"];
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..(seed % 9) {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            assert_eq!(t.candidates(&text), t.reference_candidates(&text), "{text:?}");
        }
    }

    #[test]
    fn common_words_and_spaces_carry_no_content() {
        assert_eq!(content(b" to the "), 0);
        assert_eq!(content(b"the user"), 0);
        assert_eq!(content(b"[system]"), 8);
        assert_eq!(content(b"it overrides"), 9);
        assert!(COMMON.windows(2).all(|w| w[0] < w[1]), "COMMON must stay sorted for its binary search");
    }
}
