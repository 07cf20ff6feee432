//! Conciseness & Structure and Contextual Completeness: is the description sized for what it
//! has to say and front-loaded, and does it tell an agent enough (returns, behaviour, usage,
//! parameters) for the tool's complexity.

use crate::answer::Justified;

use super::evidence::{Evidence, Mention};
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
    let kept = e.word_count();
    let wc = e.reading.raw_words.max(kept);
    let sentences = e.desc.sentences.len() + e.reading.dropped.len();
    let size = format!("{} in {}", plural(wc, "word"), plural(sentences, "sentence"));
    let idle = idle_words(e);
    if e.trivial() {
        let (score, why) = if !e.reading.content_free() {
            (2, "short, but under-specified rather than concise".to_owned())
        } else {
            (1, format!("none of it carries a fact: {idle}"))
        };
        return Justified { score, justification: format!("{size}: {why}.") };
    }
    // Too terse is judged on what is said, too long on what is written.
    let (mut score, mut why): (u8, String) = match (kept, wc) {
        (0..=4, _) => (3, "so terse that it leaves the essentials out".to_owned()),
        (5..=7, 0..=60) => (4, "compact, though it says little".to_owned()),
        (_, 0..=60) => (5, "every sentence carries information and the purpose comes first".to_owned()),
        (_, 61..=120) => (4, "long; some sentences could be cut or moved into the schema".to_owned()),
        (_, 121..=200) => (3, "long enough that the essentials are buried".to_owned()),
        _ => (2, "far longer than an agent needs".to_owned()),
    };
    // Short text that never says what the tool does is brief by leaving out the purpose.
    if score > 2 && e.says_what_it_does == Some(false) {
        (score, why) = (
            2,
            "no sentence says what the tool does, so none of them earns its place; brevity without the purpose is not conciseness"
                .to_owned(),
        );
    }
    if wc > 60 && kept > 60 && e.structured {
        score += 1;
        why.push_str(", but sections or bullets make it scannable");
    }
    let c = complexity(e);
    if score == 5 && kept < 20 && c >= 4 && usage <= 2 && behaviour <= 2 {
        score = 4;
        why = format!("brief for a tool this involved ({}); brevity here is under-specification", complexity_words(e));
    }
    // A one-liner over several parameters the schema leaves unexplained is short because it
    // leaves things out.
    let s = &e.signals;
    let unexplained = e.params.iter().filter(|p| !p.described && p.mention < Mention::Explained).count();
    if score > 3
        && kept < 20
        && s.param_count >= 3
        && s.schema_description_coverage < 50
        && 2 * unexplained > e.params.len()
    {
        score = 3;
        why = format!(
            "brief, but {unexplained} of {} parameters are explained nowhere; that is under-specification",
            e.params.len()
        );
    }
    // A text that mostly says its name again is circular, however short.
    let (again, echo_of) = e.echo;
    if again >= 4 && 2 * again >= echo_of {
        let cut = if 3 * again >= 2 * echo_of { 2 } else { 1 };
        score = score.saturating_sub(cut).max(2);
        why.push_str(&format!("; {again} of its {echo_of} content words repeat the name"));
    }
    // Praise and hedges are words spent on no fact: conciseness falls with their share.
    let (idle, content_words) = e.filler;
    if idle >= 2 && 4 * idle >= content_words {
        let cut = if 2 * idle >= content_words { 2 } else { 1 };
        score = score.saturating_sub(cut).max(2);
        let shown: Vec<String> =
            super::grounding::filler_words(&e.desc).iter().take(3).map(|w| format!("'{w}'")).collect();
        why.push_str(&format!("; {idle} of {content_words} content words are praise or hedges ({})", shown.join(", ")));
    }
    let redundancy = match e.reading.dropped_percent() {
        50.. => 2,
        25.. => 1,
        _ => 0,
    };
    if redundancy > 0 {
        score = score.saturating_sub(redundancy).max(1);
        why.push_str(&format!("; {}% of the words carry no fact ({idle})", e.reading.dropped_percent()));
    } else if let Some(share) = repeated_phrases(e) {
        score = score.saturating_sub(1).max(1);
        why.push_str(&format!("; {share}% of its four-word phrases repeat earlier ones"));
    }
    if let Some(n) = e.noise.first() {
        score = score.saturating_sub(1).max(2.min(score));
        why.push_str(&format!("; '{n}' adds noise rather than meaning"));
    }
    Justified { score: score.min(5), justification: format!("{size}: {why}.") }
}

/// The sentences set aside, quoted with why: "'Returns.' is a bare cue with no fact".
pub fn idle_words(e: &Evidence) -> String {
    let shown: Vec<String> = e
        .reading
        .dropped
        .iter()
        .take(2)
        .map(|(why, s)| format!("\"{}\" {}", super::text::quote(s, 40), why.label()))
        .collect();
    let more = e.reading.dropped.len().saturating_sub(2);
    let tail = if more > 0 { format!(", and {more} more") } else { String::new() };
    format!("{}{tail}", shown.join(", "))
}

/// Share (percent) of four-word phrases that occur earlier in the text, when it is at least a
/// fifth of a text long enough to judge.
fn repeated_phrases(e: &Evidence) -> Option<usize> {
    let grams = e.desc.words.len().saturating_sub(3);
    if grams < 12 {
        return None;
    }
    let distinct: super::WordSet<&[String]> = e.desc.words.windows(4).collect();
    let repeats = grams - distinct.len();
    let share = 100 * repeats / grams;
    (share >= 20).then_some(share)
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

/// Bullet lines (two or more) or a section heading (`Args:`, `Returns:`): scannable text.
pub(super) fn structured(raw: &str) -> bool {
    let lines: Vec<&str> = raw.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let bullets = lines
        .iter()
        .filter(|l| l.starts_with(['-', '*', '•']) || (l.starts_with(|c: char| c.is_ascii_digit()) && l.contains(". ")))
        .count();
    let lower: Vec<_> = lines.iter().map(|l| super::text::lowercase(l)).collect();
    let heading = |l: &str, h: &str| l.strip_prefix(h).is_some_and(|rest| rest.is_empty() || rest.starts_with(':'));
    let sections = ["args", "arguments", "parameters", "params", "returns", "example", "examples", "usage", "notes"]
        .iter()
        .filter(|h| lower.iter().any(|l| heading(l, h)))
        .count();
    bullets >= 2 || sections >= 1
}

/// Tags (`[UNIFIED]`) and emoji that carry no meaning.
pub(super) fn noise(raw: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(rest) = raw.trim_start().strip_prefix('[')
        && let Some(end) = rest.find(']')
        && end <= 20
    {
        out.push(format!("[{}]", &rest[..end]));
    }
    if raw.chars().any(|c| matches!(c as u32, 0x1F300..=0x1FAFF | 0x2700..=0x27BF)) {
        out.push("emoji".to_owned());
    }
    out
}
