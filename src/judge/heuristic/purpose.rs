//! Purpose Clarity and Usage Guidelines: does the description name a specific action on a
//! specific resource and set the tool apart from its siblings, and does it say when to use it,
//! when not to, and what to use instead.

use crate::tdqs::answer::Justified;

use super::evidence::Evidence;
use super::lexicon::VAGUE_VERBS;
use super::text::{quote, stem};

fn justified(score: u8, justification: String) -> Justified {
    Justified {
        score,
        justification,
    }
}

/// Quoted description, shortened for a justification.
pub fn quoted(e: &Evidence) -> String {
    format!("\"{}\"", quote(&e.desc_raw, 80))
}

fn list(words: &[String], max: usize) -> String {
    let shown: Vec<String> = words.iter().take(max).map(|w| format!("'{w}'")).collect();
    shown.join(", ")
}

/// 5 specific verb and resource set apart from siblings; 4 clear; 3 vague; 2 restates the
/// name; 1 says nothing at all.
pub fn purpose_clarity(e: &Evidence) -> Justified {
    let name = &e.name;
    if e.restates_name() && e.trivial() {
        return justified(
            1,
            format!(
                "The description {} is only the name `{name}` again: it does not say what the tool acts on or what it produces.",
                quoted(e)
            ),
        );
    }
    if e.restates_name() {
        return justified(
            2,
            format!(
                "The description {} adds no words beyond the name `{name}`, so the purpose is only as clear as the name.",
                quoted(e)
            ),
        );
    }
    let extra = e.extra_words.len();
    let ideographic = e.desc.mostly_ideographic();
    let verb = e.lead_verb.as_ref();
    let vague_verb = verb.filter(|v| VAGUE_VERBS.contains(&stem(&v.word).as_str()));
    let adds = format!(
        "adds {} beyond the name",
        if extra == 1 {
            format!("only {}", list(&e.extra_words, 1))
        } else {
            format!("{extra} content words such as {}", list(&e.extra_words, 3))
        }
    );
    if e.trivial() || (verb.is_none() && !ideographic && extra < 6) {
        return justified(
            3,
            format!(
                "No leading action verb in {}; it {adds}, so the action stays vague.",
                quoted(e)
            ),
        );
    }
    if let Some(v) = vague_verb.filter(|_| extra < 8) {
        return justified(
            3,
            format!(
                "Opens with the broad verb '{}' and {adds}; what exactly happens is left open.",
                v.word
            ),
        );
    }
    if extra < 3 {
        return justified(
            3,
            format!("States an action but {adds}; the resource and scope stay thin."),
        );
    }
    let action = match verb {
        Some(v) => format!("Leads with the verb '{}' and {adds}", v.word),
        None => format!("Names the action in non-Latin script and {adds}"),
    };
    if let Some(alt) = e.names_alternative() {
        return justified(
            5,
            format!("{action}; it sets itself apart by naming `{alt}` as a different tool."),
        );
    }
    if let Some(cue) = e.when_not.first() {
        return justified(
            5,
            format!("{action}; it draws a boundary with '{cue}', which separates it from neighbours."),
        );
    }
    if extra >= 12 && !e.details.is_empty() {
        return justified(
            5,
            format!(
                "{action}; the specifics (e.g. '{}') leave little room to confuse it with another tool.",
                e.details[0]
            ),
        );
    }
    justified(
        4,
        format!("{action}; clear, but nothing contrasts it with sibling tools."),
    )
}

/// 5 when, when-not and an alternative; 4 clear context; 3 implied; 2 none; 1 nothing to go on.
pub fn usage_guidelines(e: &Evidence) -> Justified {
    if e.trivial() {
        return justified(
            1,
            format!(
                "The description {} gives an agent nothing to decide when to call the tool.",
                quoted(e)
            ),
        );
    }
    let when = e.when.first();
    let not = e.when_not.first();
    let alt = e.names_alternative();
    let alt_text = alt.map(|a| format!("names `{a}` as the alternative"));
    match (when, not.is_some() || alt.is_some()) {
        (Some(w), true) => {
            let contrast = alt_text.unwrap_or_else(|| format!("marks a limit with '{}'", not.map_or("", |n| n)));
            justified(
                5,
                format!("Says when to use it ('{w}') and {contrast}."),
            )
        }
        (Some(w), false) => justified(
            4,
            format!("States when to use it ('{w}') but gives no exclusions or alternatives."),
        ),
        (None, true) => {
            let contrast = alt_text.unwrap_or_else(|| format!("marks a limit with '{}'", not.map_or("", |n| n)));
            justified(
                4,
                format!("{} but never states the situations it is meant for.", capitalise(&contrast)),
            )
        }
        (None, false) if !e.soft_usage.is_empty() => justified(
            3,
            format!(
                "Usage is only implied (cue '{}'); no explicit when-to-use or alternatives.",
                e.soft_usage[0]
            ),
        ),
        (None, false) => justified(
            2,
            "No guidance on when to call it, when not to, or which sibling to prefer.".to_owned(),
        ),
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
