//! Usage talk with nothing in it: sentences that point at other tools without naming one ("use
//! that one instead", "prefer it over similar tools"), conditions that are the tool's name again
//! ("use get_user whenever you need to get a user"), and text that goes round its name. The cue
//! words are there; what they should carry is not, so neither usage nor purpose credits them.

use super::evidence::Evidence;
use super::text::stemmed;

/// What a description's usage talk comes to, read once per tool: each sentence split into
/// its words and judged vague or not once, for both dimensions that ask.
pub(super) struct UsageTalk {
    /// The first cue saying when to use the tool that a sentence says with content of its own.
    pub when: Option<&'static str>,
    /// The first cue saying when not to use it (or what instead), said the same way.
    pub boundary: Option<&'static str>,
    /// Every sentence kept is usage talk with nothing of its own, pointing at other tools ("Use
    /// this rather than other messaging tools. If a different tool is better suited, use that
    /// tool.").
    pub only_choosing: bool,
    /// Goes round in circles ([`super::grounding::circular`]) with no other tool named to set
    /// it apart from: "Creates an email. Do not use it to look up an email; call get_email for
    /// that" repeats its name's words, but the alternative it names is a fact. A code example
    /// says the name again as it must ("{ \"name\": \"firecrawl_monitor_list\" }"): that is not
    /// prose going round in circles.
    pub circular: bool,
}

impl UsageTalk {
    pub fn read(e: &Evidence) -> UsageTalk {
        let name = e.name.to_lowercase();
        let name_stems: Vec<_> = e.name_words.iter().map(|n| stemmed(n)).collect();
        // Each sentence as its words, padded with spaces for whole-word cue look-ups, and
        // whether it is vague.
        let sentences: Vec<(String, bool)> = e
            .desc
            .sentences
            .iter()
            .map(|s| {
                let lower = s.to_lowercase();
                let words: Vec<&str> =
                    lower.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
                let vague = words.iter().all(|w| vague_word(w, &name, &name_stems));
                (format!(" {} ", words.join(" ")), vague)
            })
            .collect();
        // Cues are written as words with the punctuation taken out ("don t use").
        let said = |cue: &str| {
            sentences.iter().any(|(words, vague)| {
                !vague && (words.contains(&format!(" {cue} ")) || (!cue.is_ascii() && words.contains(cue)))
            })
        };
        const OTHERS: &[&str] =
            &["other", "others", "another", "alternative", "alternatives", "similar", "different", "corresponding"];
        let points = e.desc.words.iter().any(|w| OTHERS.contains(&w.as_str()));
        let code = e.desc.lower.contains("```") || e.desc.lower.contains('{');
        UsageTalk {
            when: e.when.iter().copied().find(|c| said(c)),
            boundary: e.when_not.iter().copied().find(|c| said(c)),
            only_choosing: points && !sentences.is_empty() && sentences.iter().all(|(_, vague)| *vague),
            circular: super::grounding::circular(e.echo) && e.names_alternative().is_none() && !code,
        }
    }
}

/// A word of usage talk with nothing of its own: a function word, a word of the tool's name, or
/// a word that points at other tools without naming one ("another tool would be more
/// appropriate", "prefer it over similar tools"). A sentence of only these is vague.
fn vague_word(w: &str, name: &str, name_stems: &[std::borrow::Cow<'_, str>]) -> bool {
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
    POINTING.contains(&w) || w == name || {
        let stem = stemmed(w);
        name_stems.iter().any(|n| super::grounding::akin(n, &stem))
    }
}
