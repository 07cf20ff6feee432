//! The sentence reader behind [`super::contradiction`]: where a phrase is claimed (neither
//! negated nor scoped onto something else), where it is denied, and the first state-changing
//! action a description gives its tool. A contradiction check asks up to six such questions of
//! the same sentences, so each sentence is split into words, and each word's lists looked up,
//! once for all of them.

use std::borrow::Cow;

use smallvec::SmallVec;

use super::text::{stemmed, words_of};
use super::word_lists::{List, Lists, on};

/// A phrase's words (`*` ends a prefix), on the stack.
type Parts<'p> = SmallVec<[&'p str; 6]>;

fn parts(phrase: &str) -> Parts<'_> {
    phrase.split(' ').collect()
}

/// The sentences of a description, as words with the lists each word is on.
pub struct Claims<'a> {
    sentences: Vec<(Vec<&'a str>, Vec<Lists>)>,
    /// The sentences as written (lower case), for what the words lose: a comma before a verb.
    raw: &'a [String],
}

impl<'a> Claims<'a> {
    pub fn new(sentences: &'a [String]) -> Claims<'a> {
        let sentences_raw = sentences;
        let sentences = sentences
            .iter()
            .map(|s| {
                let words: Vec<&str> = words_of(s).collect();
                let lists = words.iter().map(|w| Lists::of(w)).collect();
                (words, lists)
            })
            .collect();
        Claims { sentences, raw: sentences_raw }
    }

    /// The first phrase of `phrases` claimed in some sentence, sentence by sentence.
    pub fn claimed<'p>(&self, phrases: &[&'p str]) -> Option<&'p str> {
        let split: Vec<(&'p str, Parts<'p>)> = phrases.iter().map(|p| (*p, parts(p))).collect();
        self.sentences
            .iter()
            .find_map(|(words, lists)| split.iter().find(|(_, p)| claim(words, lists, p)).map(|(p, _)| *p))
    }

    /// The same phrases, but only where a negator does precede them ("is not idempotent").
    pub fn denied<'p>(&self, phrases: &[&'p str]) -> Option<&'p str> {
        self.sentences.iter().find_map(|(words, lists)| {
            phrases.iter().copied().find(|p| {
                let first = p.split(' ').next().unwrap_or("");
                words.iter().enumerate().any(|(i, w)| *w == first && negated(&lists[i.saturating_sub(3)..i]))
            })
        })
    }

    /// The first state-changing action the description gives the tool, unnegated: a verb it
    /// is the subject of ("Deletes the file", "and sends a receipt") or a passive ("is
    /// overwritten"). `destroying` keeps only removals and overwrites.
    pub fn action(&self, destroying: bool) -> Option<String> {
        for (k, (words, lists)) in self.sentences.iter().enumerate() {
            for (i, w) in words.iter().enumerate() {
                if negated(&lists[i.saturating_sub(3)..i]) {
                    continue;
                }
                let prev = i.checked_sub(1).map(|j| (words[j], lists[j]));
                let next = words.get(i + 1).map(|n| (*n, lists[i + 1]));
                let base = verb_base(w);
                // Outside the opening sentence a bare imperative ("Set `limit` to 10") speaks
                // to the agent; only the third person ("sets") or "will" speaks of the tool.
                let third_person = **w != *base || prev.is_some_and(|(p, _)| p == "will") || k == 0;
                let active = on(&base, List::WriteVerb)
                    && third_person
                    && (i == 0 || prev.is_some_and(|(_, l)| l.on(List::SubjectLink)))
                    && !next.is_some_and(|(n, l)| l.on(List::Auxiliary) || n == "of");
                let adverb = prev.is_some_and(|(p, _)| p.ends_with("ly")) && i >= 2 && lists[i - 2].on(List::Auxiliary);
                // "Only rosters up to 28 days ahead are published": a passive under "only"
                // says what exists to be read, not what the tool does.
                let passive = (prev.is_some_and(|(_, l)| l.on(List::Auxiliary)) || adverb)
                    && lists[i].on(List::WriteParticiple)
                    && !shapes_the_answer(w, &words[..i])
                    && !words[..i].contains(&"only");
                // A participle clause goes on with what the tool does: "..., deleting the others",
                // "and cancelling any overlapping events".
                let gerund = gerund_base(w).filter(|_| {
                    i > 0
                        && (prev.is_some_and(|(p, _)| p == "and" || p == "then")
                            || self.raw[k].contains(&format!(", {w}")))
                });
                let is_gerund = gerund.is_some();
                let base = gerund.map_or(base, Cow::Owned);
                let destroys = on(&base, List::DestroyingVerb) || lists[i].on(List::DestroyingParticiple);
                if (active || passive || is_gerund) && (!destroying || destroys) {
                    return Some((*w).to_owned());
                }
            }
            if destroying
                && let Some(p) = ["irreversib*", "cannot be undone", "can t be undone"].iter().find(|p| has(words, p))
            {
                return Some(p.trim_end_matches('*').replace("can t", "can't"));
            }
        }
        None
    }
}

/// A passive that shapes what the tool returns or how long a call runs, not what it stores:
/// "passages scoring below min_score are dropped", "files larger than max_bytes are truncated",
/// "the query is cancelled after timeout_seconds". The sentence must name the answer, the call
/// or a limit before the participle; "the table is truncated" still changes state.
fn shapes_the_answer(participle: &str, before: &[&str]) -> bool {
    const SHAPING: &[&str] = &["truncated", "dropped", "cancelled", "canceled", "cut", "capped", "omitted"];
    const ANSWER: &[&str] = &[
        "result",
        "results",
        "passage",
        "passages",
        "row",
        "rows",
        "item",
        "items",
        "entry",
        "entries",
        "line",
        "lines",
        "output",
        "response",
        "responses",
        "match",
        "matches",
        "snippet",
        "snippets",
        "value",
        "values",
        "text",
        "query",
        "queries",
        "request",
        "requests",
        "call",
        "calls",
        "search",
        "larger",
        "longer",
        "beyond",
        "exceeding",
        "max",
        "limit",
        "timeout",
        "page",
        "pages",
        "body",
        "preview",
    ];
    SHAPING.contains(&participle) && before.iter().any(|w| ANSWER.contains(w))
}

fn negated(before: &[Lists]) -> bool {
    before.iter().any(|l| l.on(List::Negator))
}

/// Whether `phrase` occurs in the sentence with no negator before it and not scoped onto
/// an object ("read-only files") or by a verb ("fails on read-only files").
fn claim(words: &[&str], lists: &[Lists], parts: &[&str]) -> bool {
    let n = parts.len();
    let matches = |w: &str, p: &str| match p.strip_suffix('*') {
        Some(prefix) => w.starts_with(prefix),
        None => w == p,
    };
    (0..words.len().saturating_sub(n - 1)).any(|i| {
        let hit = parts.iter().enumerate().all(|(k, p)| matches(words[i + k], p));
        if !hit {
            return false;
        }
        let before = &lists[i.saturating_sub(3)..i];
        let negated = negated(before) && !on(parts[0], List::Negator);
        let scoped = lists.get(i + n).is_some_and(|l| l.on(List::ScopedObject))
            || before.iter().rev().take(2).any(|l| l.on(List::Scoping))
            || said_of_something_else(&words[..i], &lists[..i]);
        !negated && !scoped
    })
}

/// "calendar_id is read-only", "the target is idempotent": a claim after "is" or "are" whose
/// subject is a noun other than the tool (or the words that stand for it: "it", "this tool",
/// "the endpoint", "access") is about that noun.
fn said_of_something_else(before: &[&str], lists: &[Lists]) -> bool {
    let [.., subject, link] = before else {
        return false;
    };
    let aux = matches!(*link, "is" | "are");
    let lists_of_subject = lists[lists.len() - 2];
    aux && !lists_of_subject.on(List::SubjectLink)
        && !lists_of_subject.on(List::Negator)
        && !TOOL_SUBJECTS.contains(subject)
        && subject.chars().all(|c| c.is_alphanumeric())
}

/// Nouns that stand for the tool as the subject of a claim ("the endpoint is read-only").
const TOOL_SUBJECTS: &[&str] = &[
    "endpoint",
    "operation",
    "call",
    "command",
    "function",
    "action",
    "method",
    "request",
    "api",
    "access",
    "mode",
    "everything",
    "which",
    "what",
    "itself",
    "tools",
    "operations",
    "calls",
    "requests",
    "always",
    "fully",
    "completely",
    "strictly",
    "purely",
    "entirely",
    "safe",
    "also",
];

fn has(words: &[&str], phrase: &str) -> bool {
    let parts = parts(phrase);
    words.windows(parts.len()).any(|w| {
        w.iter().zip(&parts).all(|(a, p)| match p.strip_suffix('*') {
            Some(prefix) => a.starts_with(prefix),
            None => a == p,
        })
    })
}

/// The write verb an `-ing` form is made from: `deleting` -> `delete`, `cancelling` -> `cancel`,
/// `stopping` -> `stop`, `merging` -> `merge`.
fn gerund_base(w: &str) -> Option<String> {
    let stem = w.strip_suffix("ing").filter(|s| s.len() >= 2)?;
    let undoubled = stem.strip_suffix(|c: char| stem.ends_with(format!("{c}{c}").as_str()));
    [Some(stem.to_owned()), Some(format!("{stem}e")), undoubled.map(str::to_owned)]
        .into_iter()
        .flatten()
        .find(|b| on(b, List::WriteVerb))
}

/// `deletes` -> `delete`, `pushes` -> `push`, `copies` -> `copy`.
fn verb_base(w: &str) -> Cow<'_, str> {
    if on(w, List::WriteVerb) {
        return Cow::Borrowed(w);
    }
    let s = stemmed(w);
    if on(&s, List::WriteVerb) {
        return s;
    }
    Cow::Borrowed(w.strip_suffix('s').unwrap_or(w))
}
