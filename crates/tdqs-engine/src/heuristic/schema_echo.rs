//! A description that only says the input schema again: "Accepts part_number as a string and
//! include_interchangeables as a boolean. The part_number field is required. The result is
//! returned as JSON." Every word is a parameter's name, a type, a schema keyword or a word
//! the schema's own descriptions already hold, so an agent that reads the schema learns
//! nothing more from it, and the method gives no credit for repeating structured fields.
//!
//! One such sentence among others that say what the tool does is a harmless summary (and may
//! add what the schema lacks); the reader sets the sentences aside only when the whole text is
//! made of them.

use super::grounding::akin;
use super::reading::Own;
use super::text::stemmed;
use super::word_lists::{List, Lists};

/// Words about a schema rather than about a tool's domain.
pub(super) const SCHEMA_WORDS: &[&str] = &[
    "string",
    "strings",
    "integer",
    "integers",
    "int",
    "number",
    "numbers",
    "numeric",
    "float",
    "boolean",
    "booleans",
    "bool",
    "array",
    "arrays",
    "list",
    "object",
    "objects",
    "json",
    "date",
    "dates",
    "datetime",
    "time",
    "timestamp",
    "uri",
    "url",
    "format",
    "formatted",
    "field",
    "fields",
    "parameter",
    "parameters",
    "param",
    "params",
    "argument",
    "arguments",
    "args",
    "input",
    "inputs",
    "output",
    "outputs",
    "value",
    "values",
    "type",
    "types",
    "required",
    "optional",
    "mandatory",
    "omitted",
    "omit",
    "accepts",
    "accept",
    "takes",
    "take",
    "pass",
    "passed",
    "send",
    "supply",
    "provide",
    "given",
    "extra",
    "true",
    "false",
    "null",
    "one",
    "two",
    "three",
    "four",
    "five",
    "first",
    "other",
    "others",
    "all",
    "both",
    "each",
    "matching",
    "pattern",
    "minimum",
    "maximum",
    "min",
    "max",
    "characters",
    "character",
    "digit",
    "letters",
    "uppercase",
    "lowercase",
    "non",
    "negative",
    "positive",
    "zero",
    "more",
    "less",
    "response",
    "result",
    "results",
    "returned",
    "returns",
    "return",
    "structured",
    "comes",
    "back",
    "once",
    "done",
    "complete",
    "processing",
    "call",
    "made",
    "key",
    "keys",
    "nested",
    "inclusive",
    "also",
    "can",
    "may",
    "will",
    "is",
    "are",
    "be",
    "these",
    "those",
    "them",
    "when",
    "through",
    "via",
    "up",
];

/// The words that speak of a schema's typing: an echo of the schema uses some of them.
pub(super) const TYPING: &[&str] = &[
    "string",
    "strings",
    "integer",
    "integers",
    "number",
    "numbers",
    "boolean",
    "booleans",
    "array",
    "object",
    "required",
    "optional",
    "mandatory",
    "field",
    "fields",
    "parameter",
    "parameters",
    "argument",
    "arguments",
];

/// What one sentence holds: the parameters it names, its words about something other than the
/// schema, and its words about the schema's typing.
#[derive(Clone, Copy, Default)]
pub(super) struct Echo {
    params: usize,
    other: usize,
    typing: usize,
}

/// `None` as soon as the sentence has two words of its own: then the text is no echo, and the
/// reader stops asking.
pub(super) fn echo_of_schema(raw: &str, own: &Own) -> Option<Echo> {
    let (mut params, mut other, mut typing) = (0, 0, 0);
    for ident in raw.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()) {
        let lower = ident.to_lowercase();
        if own.params.contains(&lower) {
            params += 1;
            continue;
        }
        // Another identifier (a sibling, a field of the answer) is more than the schema says.
        if lower.contains('_') {
            return None;
        }
        let lists = Lists::of(&lower);
        typing += usize::from(lists.on(List::Typing));
        let plain = lower.chars().count() <= 2
            || lower.chars().all(|c| c.is_ascii_digit())
            || lists.on(List::SchemaWord)
            || lists.on(List::Stopword)
            || lists.on(List::Function)
            || lists.on(List::Determiner);
        // A word of a parameter's own description (an enum value, a unit) that is not the
        // name's: the schema says it already.
        let from_schema = || {
            let s = stemmed(&lower);
            own.words.iter().any(|w| akin(w, &s)) && !own.of_name(&lower)
        };
        if !plain && !from_schema() {
            other += 1;
            if other >= 2 {
                return None;
            }
        }
    }
    Some(Echo { params, other, typing })
}

/// Every sentence is the schema again: none has a word of its own, some name parameters and
/// some speak of types ("string", "required").
pub(super) fn whole_text_is_echo(sentences: &[Echo]) -> bool {
    let named: usize = sentences.iter().map(|s| s.params).sum();
    let typing: usize = sentences.iter().map(|s| s.typing).sum();
    named >= 1 && typing >= 2 && sentences.iter().all(|s| s.other == 0 || s.params >= 2)
}
