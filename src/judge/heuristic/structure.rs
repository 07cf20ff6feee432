//! Conciseness & Structure and Contextual Completeness: is the description sized for what it
//! has to say and front-loaded, and does it tell an agent enough (returns, behaviour, usage,
//! parameters) for the tool's complexity.

use crate::tdqs::answer::Justified;

use super::evidence::Evidence;
use super::purpose::shown;

/// What makes the tool involved, in words: "4 parameters, a nested object, changes state".
fn complexity_words(e: &Evidence) -> String {
    let s = &e.signals;
    let mut parts = vec![plural(s.param_count as usize, "parameter")];
    if s.has_nested_objects {
        parts.push("a nested object".to_owned());
    }
    if e.main_verb().is_some_and(|v| v.class.writes()) {
        parts.push("changes state".to_owned());
    }
    parts.join(", ")
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// How much there is to explain: parameters, nesting, required fields, state changes.
pub fn complexity(e: &Evidence) -> u32 {
    let s = &e.signals;
    let writes = e.main_verb().is_some_and(|v| v.class.writes());
    s.param_count + 2 * u32::from(s.has_nested_objects) + u32::from(writes) + s.required_field_count.saturating_sub(3)
}

pub fn conciseness_structure(e: &Evidence, usage: u8, behaviour: u8) -> Justified {
    let wc = e.word_count();
    let sentences = e.desc.sentences.len();
    let size = format!("{} in {}", plural(wc, "word"), plural(sentences, "sentence"));
    if e.trivial() {
        return Justified {
            score: 2,
            justification: format!("{size}: short, but under-specified rather than concise."),
        };
    }
    let (mut score, mut why): (u8, String) = match wc {
        0..=4 => (3, "so terse that it leaves the essentials out".to_owned()),
        5..=7 => (4, "compact, though it says little".to_owned()),
        8..=60 => (5, "every sentence carries information and the purpose comes first".to_owned()),
        61..=120 => (4, "long; some sentences could be cut or moved into the schema".to_owned()),
        121..=200 => (3, "long enough that the essentials are buried".to_owned()),
        _ => (2, "far longer than an agent needs".to_owned()),
    };
    if wc > 60 && e.structured {
        score += 1;
        why.push_str(", but sections or bullets make it scannable");
    }
    let c = complexity(e);
    if score == 5 && wc < 20 && c >= 4 && usage <= 2 && behaviour <= 2 {
        score = 4;
        why = format!("brief for a tool this involved ({}); brevity here is under-specification", complexity_words(e));
    }
    if let Some(n) = e.noise.first() {
        score = score.saturating_sub(1).max(2);
        why.push_str(&format!("; '{n}' adds noise rather than meaning"));
    }
    Justified { score: score.min(5), justification: format!("{size}: {why}.") }
}

/// Scores how complete the definition is for what the tool does: a simple tool starts at 3, an
/// involved one at 2; saying what comes back and disclosing behaviour or usage add, leaving
/// parameters unexplained or saying almost nothing subtract.
pub fn contextual_completeness(e: &Evidence, params: u8, usage: u8, behaviour: u8) -> Justified {
    if e.trivial() {
        return Justified {
            score: 1,
            justification: format!(
                "With {} and a {}-word description, an agent learns neither what comes back nor what happens.",
                plural(e.signals.param_count as usize, "parameter"),
                e.word_count()
            ),
        };
    }
    let c = complexity(e);
    let mut score: i32 = if c <= 3 { 3 } else { 2 };
    let mut covered = Vec::new();
    let mut missing = Vec::new();
    if e.has_output_schema {
        score += 1;
        covered.push("an output schema describes the result".to_owned());
    } else if let Some(r) = e.returns.first() {
        score += 1;
        covered.push(format!("the prose says what comes back ('{}')", shown(r)));
    } else {
        missing.push("what it returns");
    }
    if behaviour >= 4 || usage >= 4 {
        score += 1;
        covered.push(
            match (behaviour >= 4, usage >= 4) {
                (true, true) => "behaviour and usage are spelled out",
                (true, false) => "behaviour is disclosed",
                _ => "usage context is given",
            }
            .to_owned(),
        );
    } else {
        missing.push("its effects or when to use it");
    }
    if params <= 2 {
        score -= 1;
        missing.push("what the parameters mean");
    }
    if e.word_count() < 6 {
        score -= 1;
        missing.push("more than a few words of explanation");
    }
    let mut text = format!("{} tool ({})", if c <= 3 { "A simple" } else { "An involved" }, complexity_words(e));
    if !covered.is_empty() {
        text.push_str(&format!("; {}", covered.join(", ")));
    }
    if !missing.is_empty() {
        text.push_str(&format!("; missing: {}", missing.join(", ")));
    }
    Justified { score: score.clamp(1, 5) as u8, justification: format!("{text}.") }
}
