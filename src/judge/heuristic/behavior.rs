//! Behavioral Transparency and annotation contradictions: what the description discloses about
//! side effects, safety, limits, auth, failures and timing, weighed against the annotation hints,
//! and whether the name or description contradicts a declared hint.

use crate::tdqs::answer::Justified;

use super::evidence::{Evidence, Verb};
use super::lexicon::{DESTROYING_VERBS, NON_IDEMPOTENT_VERBS};
use super::purpose::shown;
use super::text::stem;

/// Words that cancel a verb right after them ("will NOT delete", "never overwrites").
/// "nothing is deleted or overwritten" negates too.
const NEGATORS: &[&str] =
    &["not", "no", "never", "without", "won", "cannot", "doesn", "don", "refuses", "nor", "nothing", "none", "neither"];

/// Phrases that say the tool reaches the open internet.
const OPEN_WORLD_PHRASES: &[&str] =
    &["the web", "web search", "internet", "any url", "any website", "third party", "external api"];

/// Why the description or name contradicts a declared annotation hint, if it does.
pub fn contradiction(e: &Evidence) -> Option<String> {
    let verbs = [("name", e.name_verb.as_ref()), ("description", e.lead_verb.as_ref())];
    let found = |pred: &dyn Fn(&Verb) -> bool| {
        verbs.iter().find_map(|(where_, v)| v.filter(|v| pred(v)).map(|v| (*where_, v.word.clone())))
    };
    if e.hint("readOnlyHint") == Some(true)
        && let Some((where_, word)) = found(&|v| v.class.writes())
    {
        return Some(format!(
            "readOnlyHint: true is declared, but the {where_} says the tool will '{word}', which changes state."
        ));
    }
    if e.hint("destructiveHint") == Some(false) {
        if let Some((where_, word)) = found(&|v| DESTROYING_VERBS.contains(&stem(&v.word).as_str())) {
            return Some(format!(
                "destructiveHint: false is declared, but the {where_} says the tool will '{word}', which destroys data."
            ));
        }
        if let Some(word) = unnegated(e, &["overwrit", "permanently", "irreversib", "wipes", "purges"]) {
            return Some(format!("destructiveHint: false is declared, but the description says '{word}'."));
        }
    }
    if e.hint("idempotentHint") == Some(true)
        && let Some((where_, word)) = found(&|v| NON_IDEMPOTENT_VERBS.contains(&stem(&v.word).as_str()))
    {
        return Some(format!(
            "idempotentHint: true is declared, but the {where_} says the tool will '{word}', which has a new effect on every call."
        ));
    }
    if e.hint("openWorldHint") == Some(false)
        && let Some(p) = e.desc.first_of(OPEN_WORLD_PHRASES)
    {
        return Some(format!("openWorldHint: false is declared, but the description reaches '{p}'."));
    }
    None
}

/// The first word starting with one of `prefixes` that no negator precedes within four words.
fn unnegated(e: &Evidence, prefixes: &[&str]) -> Option<String> {
    let w = &e.desc.words;
    (0..w.len()).find_map(|i| {
        let hit = prefixes.iter().any(|p| w[i].starts_with(p));
        let negated = w[i.saturating_sub(4)..i].iter().any(|p| NEGATORS.contains(&p.as_str()));
        (hit && !negated).then(|| w[i].clone())
    })
}

/// Scores what the description adds about behaviour; annotations lower the bar, a
/// contradiction is a 1.
pub fn behavioral_transparency(e: &Evidence, contradiction: Option<&str>) -> Justified {
    if let Some(reason) = contradiction {
        return Justified { score: 1, justification: format!("{reason} The description contradicts its annotations.") };
    }
    if e.trivial() {
        return Justified {
            score: 1,
            justification: format!(
                "A {}-word description discloses nothing about effects, safety or limits{}.",
                e.word_count(),
                if e.hints.is_empty() { " and no annotations stand in" } else { "" }
            ),
        };
    }
    let families = e.behaviour.len();
    let cited = if e.behaviour.is_empty() {
        "mentions no side effects, safety, limits, auth, failure modes or timing".to_owned()
    } else {
        let parts: Vec<String> = e
            .behaviour
            .iter()
            .map(|(family, found)| {
                let quoted: Vec<String> = found.iter().take(3).map(|p| format!("'{}'", shown(p))).collect();
                format!("{family} ({})", quoted.join(", "))
            })
            .collect();
        format!("discloses {}", parts.join(", "))
    };
    let writes = e.main_verb().is_some_and(|v| v.class.writes());
    if e.hints.is_empty() {
        let score = match families {
            0 => 2,
            1 | 2 => 3,
            3 | 4 => 4,
            _ => 5,
        };
        let burden = if writes && families == 0 {
            "; a state-changing tool without annotations leaves the agent guessing what changes"
        } else {
            "; without annotations the description carries all of it"
        };
        return Justified { score, justification: format!("The description {cited}{burden}.") };
    }
    let hints = e.hints.join(", ");
    let score = match families {
        0 if e.hints.len() >= 3 => 4,
        0 => 3,
        1..=3 => 4,
        _ => 5,
    };
    let add = if families == 0 {
        "; the prose adds nothing the hints cannot say (what is touched, auth, limits)"
    } else {
        " on top of them"
    };
    Justified { score, justification: format!("Annotations declare {hints}; the description {cited}{add}.") }
}
