//! Usage talk with nothing in it: sentences that point at other tools without naming one ("use
//! that one instead", "prefer it over similar tools"), conditions that are the tool's name again
//! ("use get_user whenever you need to get a user"), and text that goes round its name. The cue
//! words are there; what they should carry is not, so neither usage nor purpose credits them.

use super::evidence::Evidence;

/// The first cue saying when not to use the tool that a sentence says with content of its own.
pub(super) fn boundary(e: &Evidence) -> Option<&'static str> {
    e.when_not.iter().copied().find(|cue| e.desc.sentences.iter().any(|s| holds_cue(s, cue) && !vague_usage(s, e)))
}

/// Every sentence kept is usage talk with nothing of its own ("Use this rather than other
/// messaging tools. If a different tool is better suited, use that tool.").
pub(super) fn only_choosing(e: &Evidence) -> bool {
    const OTHERS: &[&str] =
        &["other", "others", "another", "alternative", "alternatives", "similar", "different", "corresponding"];
    let points = e.desc.words.iter().any(|w| OTHERS.contains(&w.as_str()));
    points && e.desc.sentences.iter().all(|s| vague_usage(s, e))
}

/// Goes round in circles ([`super::grounding::circular`]) with no other tool named to set it
/// apart from: "Creates an email. Do not use it to look up an email; call get_email for that"
/// repeats its name's words, but the alternative it names is a fact.
pub(super) fn circular(e: &Evidence) -> bool {
    // A code example says the name again as it must ("{ \"name\": \"firecrawl_monitor_list\" }"):
    // that is not prose going round in circles.
    let code = e.desc.lower.contains("```") || e.desc.lower.contains('{');
    super::grounding::circular(e.echo) && e.names_alternative().is_none() && !code
}

/// Whether `sentence` holds the cue phrase (cues are written as words with the punctuation
/// taken out: "don t use").
pub(super) fn holds_cue(sentence: &str, cue: &str) -> bool {
    let words: String = sentence
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '_' { c } else { ' ' })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    format!(" {words} ").contains(&format!(" {cue} ")) || (!cue.is_ascii() && words.contains(cue))
}

/// A sentence about usage with nothing of its own: every word is a function word, a word of
/// the tool's name, or a word that points at other tools without naming one ("another tool
/// would be more appropriate", "prefer it over similar tools").
pub(super) fn vague_usage(sentence: &str, e: &Evidence) -> bool {
    const POINTING: &[&str] = &[
        "use",
        "using",
        "used",
        "tool",
        "tools",
        "other",
        "others",
        "another",
        "alternative",
        "alternatives",
        "similar",
        "different",
        "better",
        "best",
        "suited",
        "suitable",
        "appropriate",
        "fits",
        "fit",
        "prefer",
        "preferred",
        "option",
        "options",
        "instead",
        "rather",
        "than",
        "over",
        "when",
        "whenever",
        "if",
        "exists",
        "exist",
        "available",
        "kind",
        "task",
        "tasks",
        "purpose",
        "case",
        "cases",
        "most",
        "recommended",
        "choice",
        "more",
        "do",
        "not",
        "the",
        "a",
        "an",
        "it",
        "that",
        "this",
        "these",
        "those",
        "for",
        "of",
        "one",
        "is",
        "are",
        "would",
        "be",
        "otherwise",
        "you",
        "your",
        "need",
        "needs",
        "want",
        "wants",
        "to",
        "in",
        "and",
        "or",
        "any",
        "all",
        "some",
        "there",
        "which",
        "whatever",
        "relevant",
        "corresponding",
        "related",
        "operations",
        "such",
        "situations",
        "situation",
        "here",
        "then",
        "so",
        "also",
        "only",
        "should",
        "can",
        "may",
        "must",
        "with",
        "on",
        "as",
        "by",
        "choose",
        "pick",
        "select",
        "call",
        "calls",
        "avoid",
        "never",
        "don",
        "t",
        "returns",
        "return",
        "returned",
        "was",
        "were",
        "that's",
        "it's",
        "its",
        "they",
        "them",
        "same",
        "each",
        "step",
        "steps",
        "work",
        "job",
        "most",
        "many",
        "server",
        "sibling",
        "siblings",
        "handled",
        "see",
    ];
    sentence.to_lowercase().split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).all(|w| {
        POINTING.contains(&w) || {
            let stem = super::text::stemmed(w);
            e.name_words.iter().any(|n| super::grounding::akin(&super::text::stemmed(n), &stem))
                || w == e.name.to_lowercase()
        }
    })
}
