//! Purpose Clarity and Usage Guidelines: does the description name a specific action on a
//! specific resource and set the tool apart from its siblings, and does it say when to use it,
//! when not to, and what to use instead.

use crate::answer::Justified;

use super::evidence::Evidence;
use super::lexicon::VAGUE_VERBS;
use super::param_mentions::Mention;
use super::text::{quote, stem};
use super::usage_talk::UsageTalk;
use super::word_lists::{List, on};

fn justified(score: u8, justification: String) -> Justified {
    Justified { score, justification }
}

/// Quoted description, shortened for a justification.
pub fn quoted(e: &Evidence) -> String {
    format!("\"{}\"", quote(&e.desc_raw, 80))
}

fn list(words: &[&String], max: usize) -> String {
    let shown: Vec<String> = words.iter().take(max).map(|w| format!("'{w}'")).collect();
    shown.join(", ")
}

/// A lexicon phrase as a reader would write it ("e g" -> "e.g.", "limit*" -> "limit").
pub fn shown(phrase: &str) -> String {
    match phrase.trim_end_matches('*') {
        "e g" => "e.g.".to_owned(),
        "i e" => "i.e.".to_owned(),
        p => p.replace("don t", "don't").replace("can t", "can't").replace("won t", "won't"),
    }
}

/// 5 specific verb and resource set apart from siblings; 4 clear; 3 vague; 2 restates the
/// name; 1 says nothing at all.
pub fn purpose_clarity(e: &Evidence, talk: &UsageTalk) -> Justified {
    let name = &e.name;
    if e.reading.content_free() {
        return justified(
            1,
            format!("Nothing in the description says what `{name}` does: {}.", super::structure::idle_words(e)),
        );
    }
    if e.restates_name() && e.trivial() {
        return justified(
            1,
            format!(
                "The description {} is only the name `{name}` again: it does not say what the tool acts on or what it produces.",
                quoted(e)
            ),
        );
    }
    if talk.circular {
        let (again, content) = e.echo;
        return justified(
            2,
            format!(
                "{again} of the {content} content words of {} are the name `{name}` again: it goes round in circles and adds little to the name.",
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
    if e.ungrounded() {
        let own: Vec<&String> = e.own_words.iter().collect();
        return justified(
            2,
            format!(
                "The description {} never uses the words its name and parameters are made of ({}): the purpose it states may be another tool's, or none.",
                quoted(e),
                list(&own, 4)
            ),
        );
    }
    if talk.only_choosing {
        return justified(
            2,
            format!(
                "The description {} only says to pick `{name}` over other tools it does not name; only the name says what it does.",
                quoted(e)
            ),
        );
    }
    let extra = e.extra_words.len();
    let ideographic = e.desc.mostly_ideographic();
    let verb = e.lead_verb.as_ref();
    // The first sentence's broad verb, whether or not the verb lists know it ("deals with",
    // "works with").
    let opening = e.desc.sentences.first().map(|s| {
        let lower = super::text::lowercase(s);
        super::text::words_of(&lower).take(6).map(stem).collect::<Vec<_>>()
    });
    let broad = opening.unwrap_or_default().into_iter().find(|w| VAGUE_VERBS.contains(&w.as_str()));
    let vague_verb = verb.filter(|v| VAGUE_VERBS.contains(&stem(&v.word).as_str()));
    let verb_stem = verb.map(|v| stem(&v.word));
    let content: Vec<&String> = e.extra_words.iter().filter(|w| Some(*w) != verb_stem.as_ref()).collect();
    let adds = if ideographic {
        format!("says about {} words' worth beyond the name", e.word_count())
    } else if content.is_empty() {
        "adds nothing but the verb beyond the name".to_owned()
    } else if content.len() == 1 {
        format!("adds only {} beyond the name", list(&content, 1))
    } else {
        format!("adds {} content words beyond the name, such as {}", content.len(), list(&content, 3))
    };
    // Ideographic text has no word breaks to find a verb in; its length stands in.
    let thin = if ideographic { e.word_count() < 8 } else { verb.is_none() && extra < 6 };
    if e.trivial() || thin {
        let why = if e.trivial() {
            format!("{} is only {} words long", quoted(e), e.word_count())
        } else if ideographic {
            format!("{} is short (about {} words' worth)", quoted(e), e.word_count())
        } else {
            format!("No leading action verb in {}; it {adds}", quoted(e))
        };
        // Mostly hedges and asides around no action: only the name says what it does.
        let score = if !e.trivial() && e.reading.padding_percent() >= super::MOSTLY_PADDING { 2 } else { 3 };
        return justified(score, format!("{why}, so the action stays vague."));
    }
    let (idle, content_words) = e.filler;
    if idle >= 3 && 5 * idle >= 2 * content_words {
        return justified(
            3,
            format!(
                "{idle} of its {content_words} content words are praise or hedges (such as {}); what exactly it does is left open.",
                list(&super::grounding::filler_words(&e.desc).iter().collect::<Vec<_>>(), 3)
            ),
        );
    }
    // The opening is the name in other words and nothing after it is specific: no detail, no
    // return, no boundary, no alternative, no parameter named. Whatever else is said, the
    // purpose is only the name's.
    let specific = !e.details.is_empty()
        || !e.returns.is_empty()
        || talk.boundary.is_some()
        || e.names_alternative().is_some()
        || e.params_mentioned(Mention::Full) > 0;
    if super::grounding::opening_restates_name(&e.desc, &e.name_words) && !specific {
        return justified(
            3,
            format!(
                "Its opening only says the name `{name}` in other words, and nothing after it is specific (no detail, return value, boundary or parameter): the purpose is the name's."
            ),
        );
    }
    let generic_verb = verb.filter(|v| on(&v.word, List::Generic) || on(&v.word, List::Hedge));
    if let Some(v) = generic_verb {
        return justified(3, format!("Opens with '{}', a word of praise rather than an action; it {adds}.", v.word));
    }
    if let (None, Some(b)) = (verb, &broad) {
        return justified(
            3,
            format!("Its purpose rests on the broad verb '{b}' and it {adds}; what exactly happens is left open."),
        );
    }
    if let Some(v) = vague_verb.filter(|_| extra < 8) {
        return justified(
            3,
            format!("Opens with the broad verb '{}' and {adds}; what exactly happens is left open.", v.word),
        );
    }
    if extra < 3 || (ideographic && e.word_count() < 12) {
        return justified(3, format!("States an action but {adds}; the resource and scope stay thin."));
    }
    if e.says_what_it_does == Some(false) {
        // The name is then all that says what the tool does: the anchor for restating it.
        return justified(
            2,
            format!(
                "No sentence opens with what `{name}` does (an action on something); it {adds}, but only the name says what calling it does."
            ),
        );
    }
    let action = match verb {
        Some(v) => format!("Leads with the verb '{}' and {adds}", v.word),
        None => format!("Has no leading verb but {adds}"),
    };
    if let Some(alt) = e.names_alternative() {
        return justified(5, format!("{action}; it sets itself apart by naming `{alt}` as a different tool."));
    }
    if let Some(cue) = talk.boundary {
        return justified(
            5,
            format!("{action}; it draws a boundary with '{}', which separates it from neighbours.", shown(cue)),
        );
    }
    if extra >= 12 && !e.details.is_empty() {
        return justified(
            5,
            format!(
                "{action}; concrete specifics ('{}') leave little room to confuse it with another tool.",
                shown(e.details[0])
            ),
        );
    }
    let contrast = if e.sibling_count == 0 {
        "no sibling tools are known to contrast it with"
    } else {
        "nothing contrasts it with its sibling tools"
    };
    justified(4, format!("{action}; clear, but {contrast}."))
}

/// 5 when, when-not and an alternative; 4 clear context; 3 implied; 2 none; 1 nothing to go on.
pub fn usage_guidelines(e: &Evidence, talk: &UsageTalk) -> Justified {
    if e.trivial() {
        return justified(
            1,
            format!("The description {} gives an agent nothing to decide when to call the tool.", quoted(e)),
        );
    }
    // A cue counts where a sentence holding it says something of its own: not "use that one
    // instead" or "prefer it over similar tools" (no tool named), nor "use get_user whenever
    // you need to get a user" (the name again).
    let (when, not) = (talk.when, talk.boundary);
    let alt = e.names_alternative();
    let alt_text = alt.map(|a| format!("names `{a}` as the alternative"));
    match (when, not.is_some() || alt.is_some()) {
        (Some(w), true) => {
            let contrast = alt_text.unwrap_or_else(|| format!("marks a limit with '{}'", shown(not.map_or("", |n| n))));
            justified(5, format!("Says when to use it ('{}') and {contrast}.", shown(w)))
        }
        (Some(w), false) => {
            let w = shown(w);
            justified(4, format!("States when to use it ('{w}') but gives no exclusions or alternatives."))
        }
        (None, true) => {
            let contrast = alt_text.unwrap_or_else(|| format!("marks a limit with '{}'", shown(not.map_or("", |n| n))));
            justified(4, format!("{} but never states the situations it is meant for.", capitalise(&contrast)))
        }
        (None, false) if !e.soft_usage.is_empty() && !talk.only_choosing => justified(
            3,
            format!(
                "Usage is only implied (cue '{}'); no explicit when-to-use or alternatives.",
                shown(e.soft_usage[0])
            ),
        ),
        (None, false) => {
            justified(2, "No guidance on when to call it, when not to, or which sibling to prefer.".to_owned())
        }
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
