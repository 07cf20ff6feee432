//! Reading tool names for the coherence judge: the case convention, where the verb sits
//! (verb_noun, noun_verb, prefix_verb_noun), and the resource words a name operates on.
//! Description words are read the same way when a server supplies descriptions.

use super::lexicon::{STOPWORDS, VerbClass, verb_class};

/// Words that never name a resource in a tool name.
const NAME_GENERIC: &[&str] = &["tool", "mcp", "the", "a", "an", "and", "or", "it", "this"];
use super::text::{Text, split_identifier, stem};

/// How a name is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Case {
    Snake,
    Kebab,
    Camel,
    Pascal,
    Dotted,
    /// One lowercase word: fits every convention.
    Single,
    Other,
}

impl Case {
    pub fn label(self) -> &'static str {
        match self {
            Case::Snake => "snake_case",
            Case::Kebab => "kebab-case",
            Case::Camel => "camelCase",
            Case::Pascal => "PascalCase",
            Case::Dotted => "dot.separated",
            Case::Single => "single word",
            Case::Other => "mixed",
        }
    }
}

pub fn case_of(name: &str) -> Case {
    let has = |c: char| name.contains(c);
    let upper = name.chars().any(char::is_uppercase);
    let seps = [has('_'), has('-'), has('.'), has(' ')];
    match seps {
        [true, false, false, false] if !upper => Case::Snake,
        [false, true, false, false] if !upper => Case::Kebab,
        [false, false, true, false] if !upper => Case::Dotted,
        [false, false, false, false] => {
            let first_upper = name.chars().next().is_some_and(char::is_uppercase);
            match (upper, first_upper) {
                (false, _) => Case::Single,
                (true, true) => Case::Pascal,
                (true, false) => Case::Camel,
            }
        }
        _ => Case::Other,
    }
}

/// Where the action verb sits in a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VerbOrder {
    /// `get_calls`, also after a namespace prefix (`slack_send_message`).
    VerbFirst,
    /// `health_check`, `knowledge-base-retrieve`.
    VerbLast,
    /// A noun only: `schema`, `issue`.
    NoVerb,
}

/// Nouns that describe a view of a resource rather than the resource.
pub const OVERVIEW_NOUNS: &[&str] = &[
    "report",
    "summary",
    "status",
    "stat",
    "statistic",
    "overview",
    "info",
    "detail",
    "dashboard",
    "metric",
    "health",
];

/// Words that qualify rather than name a resource.
const QUALIFIERS: &[&str] = &[
    "all",
    "recent",
    "single",
    "multiple",
    "bulk",
    "batch",
    "my",
    "current",
    "new",
    "latest",
    "full",
    "basic",
    "advanced",
    "extensive",
    "quick",
    "simple",
    "many",
    "one",
    "v1",
    "v2",
];

const PREPOSITIONS: &[&str] = &["by", "for", "from", "with", "in", "of", "to", "on", "at", "into"];

/// A tool name taken apart.
#[derive(Clone, Debug)]
pub struct NameParts {
    pub name: String,
    pub case: Case,
    pub words: Vec<String>,
    pub verb: Option<(String, VerbClass)>,
    pub order: VerbOrder,
    /// Stemmed resource words, qualifiers and words after a preposition dropped.
    pub resource: Vec<String>,
}

impl NameParts {
    pub fn new(name: &str) -> NameParts {
        let words = split_identifier(name);
        let verb_at = words.iter().position(|w| verb_class(w).is_some());
        let last = words.len().saturating_sub(1);
        let order = match verb_at {
            None => VerbOrder::NoVerb,
            Some(i) if i == last && i > 0 => VerbOrder::VerbLast,
            Some(_) => VerbOrder::VerbFirst,
        };
        let verb = verb_at.and_then(|i| verb_class(&words[i]).map(|c| (words[i].clone(), c)));
        let mut resource = Vec::new();
        for (i, w) in words.iter().enumerate() {
            if Some(i) == verb_at || (order == VerbOrder::VerbFirst && i < verb_at.unwrap_or(0)) {
                continue;
            }
            if PREPOSITIONS.contains(&w.as_str()) {
                break;
            }
            let s = stem(w);
            if !QUALIFIERS.contains(&s.as_str())
                && !NAME_GENERIC.contains(&s.as_str())
                && !s.chars().all(|c| c.is_ascii_digit())
            {
                resource.push(s);
            }
        }
        NameParts { name: name.to_owned(), case: case_of(name), words, verb, order, resource }
    }

    pub fn class(&self) -> Option<VerbClass> {
        self.verb.as_ref().map(|(_, c)| *c)
    }

    /// Resource words that are not overview nouns (`task` in `get_task_status`).
    pub fn core_resource(&self) -> Vec<String> {
        self.resource.iter().filter(|w| !OVERVIEW_NOUNS.contains(&w.as_str())).cloned().collect()
    }

    pub fn has_overview_noun(&self) -> bool {
        self.resource.iter().any(|w| OVERVIEW_NOUNS.contains(&w.as_str()))
    }
}

/// Distinct stemmed content words of a description.
pub fn content_words(description: &str) -> Vec<String> {
    let t = Text::new(description);
    let mut out: Vec<String> = Vec::new();
    for w in &t.words {
        let s = stem(w);
        if !STOPWORDS.contains(&w.as_str()) && s.len() > 2 && !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// |A and B| / |A or B| over two word sets.
pub fn jaccard(a: &[String], b: &[String]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let common = a.iter().filter(|w| b.contains(w)).count();
    common as f64 / (a.len() + b.len() - common) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts() {
        let p = NameParts::new("slack_send_message");
        assert_eq!((p.case, p.order), (Case::Snake, VerbOrder::VerbFirst));
        assert_eq!(p.resource, ["message"]);
        let p = NameParts::new("knowledge-base-retrieve");
        assert_eq!((p.case, p.order), (Case::Kebab, VerbOrder::VerbLast));
        let p = NameParts::new("get_teacher_enrollments_by_planned_course_id");
        assert_eq!(p.resource, ["teacher", "enrollment"]);
        assert_eq!(case_of("getCalls"), Case::Camel);
        assert_eq!(case_of("schema"), Case::Single);
        assert_eq!(NameParts::new("schema").order, VerbOrder::NoVerb);
        let p = NameParts::new("get_task_status");
        assert_eq!(p.core_resource(), ["task"]);
        assert!(p.has_overview_noun());
    }
}
