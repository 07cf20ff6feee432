//! Which rules a text can match at all, from one Aho-Corasick pass. Every match of a rule
//! starts with one of a finite set of literals (or ends with one), which `regex-syntax` works
//! out from the rule itself, so the set cannot drift from the patterns: a text holding none of
//! a rule's literals cannot match it, and the rule's regex is not run. Most strings of a
//! definition hold no trigger at all and cost the one pass.
//!
//! A rule for which no such literals exist (a match may start and end with anything) is run
//! on every text.
//!
//! The literals are cut to their first (for an ending, last) [`CUT`] bytes: a match that
//! starts with a literal starts with its first bytes too, so the test stays sound, and the
//! 7,195 literals of this round's rules become few enough for a DFA of a few megabytes where
//! the whole set needed 57 MB.

use std::collections::HashMap;

use aho_corasick::automaton::Automaton;
use aho_corasick::dfa::DFA;
use aho_corasick::{Anchored, MatchKind, StartKind};
use regex_syntax::hir::literal::{ExtractKind, Extractor};

/// A bit per rule; at most 128 rules.
pub type Rules = u128;

/// Bytes of a literal kept. Measured on the bench's 100-tool list (callgrind, 2026-12-02, with
/// this round's other cuts): cut to 8 bytes, 9.0 million instructions a list, the example's
/// peak RSS 32 MB and its start (the rules and this automaton built) 611 million; cut to 12,
/// 8.6 million, 38 MB (the DFA 10.8 MB over 2,109 literals) and 713 million; cut to 16, 8.5
/// million, 49 MB and 902 million. The whole literals (7,195) took 57 MB as a DFA; as a
/// contiguous NFA, 2.1 million instructions a list to step instead of 0.6 million.
const CUT: usize = 12;

/// Most literals worked out of one rule.
const LIMIT_TOTAL: usize = 1_000;

pub struct Triggers {
    literals: DFA,
    /// The rules each literal may begin or end.
    rules_of: Vec<Rules>,
    /// The rules run whatever the text holds.
    always: Rules,
}

impl Triggers {
    /// Triggers for `patterns` (as compiled: the same syntax the `regex` crate reads).
    pub fn new(patterns: &[String]) -> Triggers {
        assert!(patterns.len() <= Rules::BITS as usize, "more rules than bits");
        let mut literals: Vec<Vec<u8>> = Vec::new();
        let mut rules_of: Vec<Rules> = Vec::new();
        let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut always: Rules = 0;
        for (i, p) in patterns.iter().enumerate() {
            let Some(lits) = required_literals(p) else {
                always |= 1 << i;
                continue;
            };
            for (lit, ending) in lits {
                let lit = if ending {
                    lit[lit.len().saturating_sub(CUT)..].to_vec()
                } else {
                    lit[..lit.len().min(CUT)].to_vec()
                };
                let at = *index.entry(lit.clone()).or_insert_with(|| {
                    literals.push(lit);
                    rules_of.push(0);
                    literals.len() - 1
                });
                rules_of[at] |= 1 << i;
            }
        }
        // Every literal ending anywhere needs the standard semantics, without a prefilter (the
        // literals are too many for one to skip much).
        let literals = DFA::builder()
            .match_kind(MatchKind::Standard)
            .start_kind(StartKind::Unanchored)
            .prefilter(false)
            .build(&literals)
            .expect("trigger literals build");
        Triggers { literals, rules_of, always }
    }

    /// The rules that may match `text`.
    // The automaton stepped byte by byte: at each state every literal ending there is a match
    // of it (what an overlapping search reports), without a search's set-up per text.
    pub fn candidates(&self, text: &str) -> Rules {
        let dfa = &self.literals;
        let mut found = self.always;
        let Ok(mut sid) = dfa.start_state(Anchored::No) else { return found };
        for &b in text.as_bytes() {
            sid = dfa.next_state(Anchored::No, sid, b);
            if dfa.is_special(sid) && dfa.is_match(sid) {
                for i in 0..dfa.match_len(sid) {
                    found |= self.rules_of[dfa.match_pattern(sid, i).as_usize()];
                }
            }
        }
        found
    }
}

/// Literals, each marked `true` when matches end with it rather than start with it.
type Literals = Vec<(Vec<u8>, bool)>;

/// Literals one of which every match of `pattern` starts with (or, if that set is weaker, ends
/// with, each then marked `true`); `None` when there is no finite set of non-empty ones.
fn required_literals(pattern: &str) -> Option<Literals> {
    let hir = regex_syntax::ParserBuilder::new().build().parse(pattern).ok()?;
    let mut best: Option<(usize, Literals)> = None;
    for (ending, kind) in [(false, ExtractKind::Prefix), (true, ExtractKind::Suffix)] {
        let mut extractor = Extractor::new();
        // The secrets' alternation alone has more than the default 250 literals; past the
        // limit the set is given up and the rule would run on every text.
        extractor.kind(kind).limit_total(LIMIT_TOTAL);
        let seq = extractor.extract(&hir);
        let Some(lits) = seq.literals() else { continue };
        let Some(shortest) = lits.iter().map(|l| l.as_bytes().len()).min() else { continue };
        if shortest == 0 || best.as_ref().is_some_and(|(len, _)| *len >= shortest) {
            continue;
        }
        best = Some((shortest, lits.iter().map(|l| (l.as_bytes().to_vec(), ending)).collect()));
    }
    best.map(|(_, lits)| lits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_without_a_rules_literals_does_not_trigger_it() {
        let rules: Vec<String> =
            [r"\b(ignore|forget) (previous|all)\b", r"(^|\. )system:", r".*"].iter().map(|s| s.to_string()).collect();
        let t = Triggers::new(&rules);
        assert_eq!(t.always, 0b100, "a rule matching anything is always run");
        assert_eq!(t.candidates("please forget all of it"), 0b100 | 0b001);
        assert_eq!(t.candidates("a system: note") & 0b010, 0b010);
        assert_eq!(t.candidates("nothing here"), 0b100);
    }

    #[test]
    fn a_literal_longer_than_the_cut_still_triggers_its_rule() {
        let rules: Vec<String> =
            [r"\bdisregarding everything\b", r"whatsoever\.$"].iter().map(|s| s.to_string()).collect();
        let t = Triggers::new(&rules);
        assert_eq!(t.candidates("now disregarding everything said"), 0b01);
        assert_eq!(t.candidates("no reason whatsoever."), 0b10);
        assert_eq!(t.candidates("nothing to see"), 0);
    }
}
