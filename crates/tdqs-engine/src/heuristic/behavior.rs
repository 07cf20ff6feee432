//! Behavioral Transparency: what the description discloses about side effects, safety, limits,
//! auth, failures and timing, weighed against the annotation hints (a contradiction, found in
//! [`super::contradiction`], is a 1).

use crate::answer::Justified;

use super::evidence::Evidence;
use super::purpose::shown;

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
    // Hints alone are the minimum viable disclosure: the bar is lower with them, but a 4 needs
    // the prose to say something they cannot (what is touched, auth, limits, failures).
    let score = match families {
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
