//! Conciseness & Structure and Contextual Completeness: is the description sized for what it
//! has to say and front-loaded, and does it tell an agent enough (returns, behaviour, usage,
//! parameters) for the tool's complexity.

use crate::tdqs::answer::Justified;

use super::evidence::Evidence;

/// How much there is to explain: parameters, nesting, required fields, state changes.
pub fn complexity(e: &Evidence) -> u32 {
    let s = &e.signals;
    let writes = e.main_verb().is_some_and(|v| v.class.writes());
    s.param_count
        + 2 * u32::from(s.has_nested_objects)
        + u32::from(writes)
        + s.required_field_count.saturating_sub(3)
}

pub fn conciseness_structure(e: &Evidence, usage: u8, behaviour: u8) -> Justified {
    let wc = e.word_count();
    let sentences = e.desc.sentences.len();
    let size = format!("{wc} words in {sentences} sentence{}", if sentences == 1 { "" } else { "s" });
    if e.trivial() {
        return Justified {
            score: 2,
            justification: format!(
                "{size}: short, but under-specified rather than concise."
            ),
        };
    }
    let (mut score, mut why) = match wc {
        0..=4 => (3, "so terse that it leaves the essentials out".to_owned()),
        5..=7 => (4, "compact, though it says little".to_owned()),
        8..=90 => (5, "every sentence carries information and the purpose comes first".to_owned()),
        91..=160 => (4, "long; some sentences could be cut or moved into the schema".to_owned()),
        _ => (3, "long enough that the essentials are buried".to_owned()),
    };
    if wc > 90 && e.structured {
        score += 1;
        why.push_str(", but sections or bullets make it scannable");
    }
    let c = complexity(e);
    if score == 5 && wc < 20 && c >= 4 && usage <= 2 && behaviour <= 2 {
        score = 4;
        why = format!(
            "brief for a tool this involved ({} parameters); brevity here is under-specification",
            e.signals.param_count
        );
    }
    if let Some(n) = e.noise.first() {
        score = score.saturating_sub(1).max(2);
        why.push_str(&format!("; '{n}' adds noise rather than meaning"));
    }
    Justified {
        score: score.min(5),
        justification: format!("{size}: {why}."),
    }
}

/// Scores how complete the definition is for what the tool does.
pub fn contextual_completeness(e: &Evidence, params: u8, usage: u8, behaviour: u8) -> Justified {
    if e.trivial() {
        return Justified {
            score: 1,
            justification: format!(
                "With {} parameters and a {}-word description, an agent learns neither what comes back nor what happens.",
                e.signals.param_count,
                e.word_count()
            ),
        };
    }
    let mut covered = Vec::new();
    let mut missing = Vec::new();
    let mut points = 0i32;
    if e.has_output_schema {
        points += 2;
        covered.push("an output schema describes the result".to_owned());
    } else if let Some(r) = e.returns.first() {
        points += 2;
        covered.push(format!("the prose says what comes back ('{r}')"));
    } else {
        missing.push("what it returns");
    }
    if behaviour >= 4 || (behaviour >= 3 && e.behaviour.len() >= 2) {
        points += 2;
        covered.push("behaviour is disclosed".to_owned());
    } else if behaviour == 3 {
        points += 1;
    } else {
        missing.push("its effects and limits");
    }
    if usage >= 4 {
        points += 2;
        covered.push("usage context is given".to_owned());
    } else if usage == 3 {
        points += 1;
    } else {
        missing.push("when to use it");
    }
    match params {
        0..=1 => {
            points -= 2;
            missing.push("what the parameters mean");
        }
        2 => points -= 1,
        4.. => points += 1,
        _ => {}
    }
    if e.word_count() >= 40 {
        points += 1;
    }
    let c = complexity(e);
    let needed = if c >= 8 { 2 } else { 0 };
    let score = match points - needed {
        ..=0 => 2,
        1..=2 => 2,
        3..=4 => 3,
        5..=6 => 4,
        _ => 5,
    };
    let mut text = format!("Complexity {c} (parameters, nesting, state changes)");
    if !covered.is_empty() {
        text.push_str(&format!("; {}", covered.join(", ")));
    }
    if !missing.is_empty() {
        text.push_str(&format!("; missing: {}", missing.join(", ")));
    }
    Justified {
        score,
        justification: format!("{text}."),
    }
}
