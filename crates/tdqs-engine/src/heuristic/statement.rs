//! Whether a description says what the tool does at all: some sentence opens with an action
//! ("Gets the forecast ...", "Places a hold on ...", "This tool lists ...", "Use it to ..."),
//! the way every honest description does somewhere. Text that never does (an apology, minutes
//! of a meeting, a roadmap, trivia about the domain, thanks, a request for feedback, a note on
//! the copy itself) may use the tool's words fluently, but an agent still cannot tell what
//! calling it would do: its purpose is at best vague and its brevity is not conciseness.
//!
//! Read on the sentences the reader kept, by grammar rather than vocabulary: a verb the verb
//! lists know, not followed by another verb or a participle ("Calls go ...", "Copy reviewed
//! ..."), or any third-person verb followed by what a verb takes (an article, a pronoun, a
//! particle: "Puts one lift ...", "Looks up a permit ...").
//! Long: the grammar's rules and the sentences that pin each of them (half the file) are read
//! together; a rule without its cases beside it would not say what it is for.

use super::grounding::akin;
use super::lexicon::verb_class;
use super::text::{stem, stemmed, words_of};
use super::word_lists::{List, Lists};

/// Who a sentence may say acts before its verb: "This tool lists ...", "It returns ...".
const SUBJECTS: &[&str] =
    &["tool", "endpoint", "function", "operation", "method", "api", "command", "action", "server"];

/// Words after which a first word is a noun, not a verb: "Calls go through ...".
pub(super) const AFTER_A_NOUN: &[&str] = &[
    "go", "are", "were", "is", "was", "land", "arrive", "flow", "pass", "run", "get", "come", "need", "must", "can",
    "will", "should", "may", "have", "had", "range",
];

/// A modal or auxiliary two words in: the first two words were the subject ("Finds recording
/// will evolve ...").
const AUXILIARIES: &[&str] =
    &["will", "is", "are", "was", "were", "has", "have", "had", "can", "should", "would", "may", "must"];

/// What follows an imperative that takes an object: "Fill out a form", "Select an element".
const OBJECT_OPENERS: &[&str] = &[
    "a", "an", "the", "all", "each", "every", "any", "its", "their", "your", "this", "that", "these", "those", "some",
    "up", "out", "multiple", "several", "new", "existing", "current",
];

/// Nouns of thanks and record that look like verbs in the third person: "Thanks to ...",
/// "Apologies for ...", "Minutes of ...".
const SOCIAL_NOUNS: &[&str] = &[
    "thanks",
    "apologies",
    "cheers",
    "congratulations",
    "kudos",
    "notes",
    "minutes",
    "greetings",
    "regards",
    "credits",
    "props",
    "shoutouts",
    "details",
    "docs",
];

/// Words that open a clause inside a sentence, whose verb is not the sentence's.
const CLAUSE_OPENERS: &[&str] = &["that", "which", "who", "how", "what", "whether", "if", "when", "where", "why"];

/// Prepositions after a participle: "Copy reviewed for ...", "Notes taken by ...".
const AFTER_A_PARTICIPLE: &[&str] = &["for", "by", "with", "in", "on", "at", "to", "during", "from", "per"];

/// Whether the description says what its tool does: one of `sentences` (lowercase) opens with
/// an action, or the first is a short noun phrase that opens with the name's words ("Current
/// weather for a city.", "Full-text search over the user's documents."). Text mostly in
/// another language than English is not read here (`None`). `own` holds the stems of the
/// tool's own words (name, title, parameters): an imperative is the tool's action only when its
/// sentence names one of them.
pub fn says_what_it_does<S: AsRef<str>>(sentences: &[S], name_words: &[String], own: &[String]) -> Option<bool> {
    // English is told by its function words, and by the words its tool descriptions use
    // (headings, meta words; not verbs, which other languages share: "map"): a table of contents or a log in English has few
    // function words but is no less English. Numbers and letters alone count for neither.
    let (mut english, mut words) = (0, 0);
    for s in sentences {
        for w in words_of(s.as_ref()).filter(|w| w.len() > 1 && !w.bytes().all(|b| b.is_ascii_digit())) {
            words += 1;
            let lists = Lists::of(w);
            english += usize::from(
                lists.on(List::Stopword) || lists.on(List::Function) || lists.on(List::Heading) || lists.on(List::Meta),
            );
        }
    }
    if 8 * english < words {
        return None;
    }
    let named_phrase = sentences.first().is_some_and(|s| names_first(s.as_ref(), name_words));
    let tool = Tool { own, name: name_words, identifier: name_words.join("_") };
    Some(named_phrase || sentences.iter().enumerate().any(|(k, s)| opens_with_action(s.as_ref(), k, &tool)))
}

/// What a sentence is checked against: the tool's own words.
struct Tool<'a> {
    /// Stems of the name's, title's and parameters' words.
    own: &'a [String],
    name: &'a [String],
    /// The name as written in snake case ("schedule_vet_appointment").
    identifier: String,
}

/// What [`opens_with_action`] asks of the tool.
trait Ground {
    /// The sentence names something of the tool's.
    fn names_something(&self, lower: &str) -> bool;
    /// `word` is a verb of the tool's name: a word of it before the last (`browser_emulate_media`).
    fn name_verb(&self, word: &str) -> bool;
    /// The tool's name as an identifier, to be read as the tool itself ("x now handles ...").
    fn identifier(&self) -> &str;
}

impl Ground for Tool<'_> {
    fn names_something(&self, lower: &str) -> bool {
        // The tool's own identifier names the tool, not something it acts on ("join the team
        // behind file_court_document").
        let without =
            if self.identifier.contains('_') { lower.replace(&self.identifier, " ") } else { lower.to_owned() };
        self.own.is_empty() || words_of(&without).any(|w| self.own.iter().any(|o| akin(o, &stem(w))))
    }
    fn identifier(&self) -> &str {
        &self.identifier
    }
    fn name_verb(&self, word: &str) -> bool {
        let before_last = &self.name[..self.name.len().saturating_sub(1)];
        before_last.iter().any(|n| n == word)
    }
}

/// A short first sentence with no verb of being, whose first four words hold a word of the
/// name: a noun phrase naming the tool's resource.
fn names_first(lower: &str, name_words: &[String]) -> bool {
    let words: Vec<&str> = words_of(lower).collect();
    // Before any comma or colon: "Brewhouse stand-up: fermentation readings came up" names a
    // meeting first.
    let head = lower.split([',', ':', ';']).next().unwrap_or("");
    words.len() <= 12
        && !lower.contains('?')
        && !words.iter().any(|w| AUXILIARIES.contains(w))
        && words_of(head).take(3).any(|w| {
            let s = stemmed(w);
            name_words.iter().any(|n| akin(&stem(n), &s))
        })
}

/// Whether `lower` opens with the tool's action. An imperative addressed to the reader's own
/// things ("Rate your experience") or beside its author ("Tap a star and help us ..."), or one
/// whose verb is not a tool's action and whose sentence
/// names nothing of the tool's ("Watch this space", "Keep an eye on the portal"), is the author
/// talking to a person, not a statement of what the tool does.
fn opens_with_action(lower: &str, k: usize, tool: &dyn Ground) -> bool {
    // A question asks; it does not say what the tool does ("Q: does it know about ...?").
    if lower.contains('?') || verse(lower) {
        return false;
    }
    // A label first ("DESTRUCTIVE: delete a file", "Router tool: map one question ..."), then
    // the sentence.
    // ("Notion | Create a page").
    let label_end = [lower.find(':'), lower.find(" |")].into_iter().flatten().min();
    let lower = match label_end.map(|at| lower.split_at(at)) {
        // A release ("v1.9.0 (2024-04-11): ...") tells what changed, not what the tool does.
        Some((label, _)) if release_label(label) => return false,
        Some((label, rest)) if words_of(label).count() <= 6 => {
            let rest = rest.trim_start_matches([':', '|']);
            if rest.starts_with(' ') && !rest.trim().is_empty() { rest } else { lower }
        }
        _ => lower,
    };
    let all: Vec<&str> = words_of(lower).collect();
    // "If a dialog was opened, use this command to handle it."
    if all.windows(2).any(|p| p[0] == "use" && matches!(p[1], "this" | "it")) {
        return true;
    }
    // A heading after the first sentence ("Test outcome.", "See also.", "Errors and limits.").
    if k > 0 && all.len() <= 3 {
        return false;
    }
    // The tool's own name as the subject ("schedule_vet_appointment now handles ..."): what
    // follows is its verb, as after "It".
    let named = tool.identifier().contains('_')
        && lower.trim_start().strip_prefix(tool.identifier()).is_some_and(|rest| rest.starts_with(' '));
    let named_words = if named { words_of(tool.identifier()).count() } else { 0 };
    let all = &all[named_words..];
    let words = &all[..all.len().min(8)];
    let mut start = super::lexicon::OPENERS
        .iter()
        .find(|o| words.len() > o.len() && words[..o.len()] == o[..])
        .map_or(0, |o| o.len());
    // After an opener ("Use this tool to ...") or a subject ("It returns ...") the verb is the
    // tool's; otherwise it may be an imperative to the reader.
    let mut to_reader = start == 0 && !named;
    // "It returns ...", "This endpoint lists ...", "Permanently deletes ...".
    match words.get(start..) {
        Some(["it", ..]) => {
            start += 1;
            to_reader = false;
        }
        Some(["this" | "the", subject, ..]) if SUBJECTS.contains(subject) => {
            start += 2;
            to_reader = false;
        }
        // "Always consult ...", "Never pass ...": a rule for the caller, not the tool's action.
        Some(["always" | "never", ..]) => return false,
        Some([adverb, ..])
            if (adverb.len() > 4 && adverb.ends_with("ly"))
                || matches!(*adverb, "often" | "also" | "then" | "just") =>
        {
            start += 1
        }
        _ => {}
    }
    let at = |i: usize| words.get(start + i).copied().unwrap_or("");
    let (first, next, third) = (at(0), at(1), at(2));
    // A verb of being or a past tense in third or fourth place: the words before were its
    // subject ("Get forecast came up briefly", "Finds recording will evolve").
    // Not after a word that opens a clause of its own: "Shows changes that are staged",
    // "Demonstrates how annotations can be used".
    let subject_of = |w: &str| AUXILIARIES.contains(&w) || Lists::of(w).on(List::Past);
    let clause = |w: &str| CLAUSE_OPENERS.contains(&w);
    if first.is_empty()
        || (subject_of(third) && !clause(next))
        || (subject_of(at(3)) && !clause(next) && !clause(third))
    {
        return false;
    }
    // A gerund opens a noun phrase ("Raising a glass ...", "Drilling a core takes ..."); an
    // object of "us" or "me" is the author asking the reader ("Tell us ...", "Drop us a line").
    if first.ends_with("ing") || matches!(next, "us" | "me") || next.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    // A past tense tells what was done ("Fixed a display issue", "Rewrote the engine"), and a
    // verb of having or being what is ("It has a field", "It depends on ...").
    if past_tense(first) || STATIVE.contains(&first) {
        return false;
    }
    let participle = next.len() > 4 && next.ends_with("ed");
    let third_person = first.len() >= 4 && first.ends_with('s') && !first.ends_with("ss") && !first.ends_with("us");
    // The author in the first person beside an imperative: "Tap a star and help us improve".
    let author = || all.iter().any(|w| matches!(*w, "us" | "we" | "our" | "me" | "my"));
    if to_reader
        && !third_person
        && ((next == "your" && (verb_class(first).is_none() || READERS_OWN.contains(&third)))
            || author()
            || (verb_class(first).is_none() && !tool.names_something(lower)))
    {
        return false;
    }
    if verb_class(first).is_some() {
        return !(AFTER_A_NOUN.contains(&next) || (participle && AFTER_A_PARTICIPLE.contains(&third)));
    }
    // A verb the lists do not know: in the third person followed by its object ("Counts
    // presigned urls", "Puts one lift"), or in the imperative followed by a determiner ("Fill
    // out ...").
    if matches!(first, "lets" | "allows" | "enables" | "helps") {
        return true;
    }
    let plain = Lists::of(first);
    if plain.on(List::Stopword) || plain.on(List::Function) || plain.on(List::Determiner) {
        return false;
    }
    // A plural noun looks like a verb in the third person; one followed by "and", a comma or
    // nothing of the tool's is a noun ("Shipments and codes", "Tides, and station data",
    // "Cartons cross the sea").
    let comma = lower.split_once(first).is_some_and(|(_, after)| after.starts_with(','));
    let takes_object = !next.is_empty()
        && !AFTER_A_NOUN.contains(&next)
        && !SOCIAL_NOUNS.contains(&first)
        && !participle
        && !next.ends_with("ly")
        && !matches!(next, "and" | "or")
        && !comma
        && (OBJECT_OPENERS.contains(&next) || CLAUSE_OPENERS.contains(&next) || tool.names_something(lower));
    // An imperative of the name's own verb, in the first sentence: "Emulate CSS media
    // features" (`browser_emulate_media`).
    (third_person && takes_object)
        || OBJECT_OPENERS.contains(&next)
        || (!third_person && k == 0 && tool.name_verb(first))
}

/// What a reader is asked to give of their own ("Share your feedback"); "Retrieve your token"
/// is an action on the caller's things.
const READERS_OWN: &[&str] = &[
    "feedback",
    "experience",
    "thoughts",
    "opinion",
    "opinions",
    "input",
    "comments",
    "ideas",
    "story",
    "suggestions",
];

/// Lines of verse written inline ("Cartons cross the sea, / six digits hum in the hold, /
/// origin, then home."): three or more segments between " / ", each of three words or more
/// (options such as "read / write / delete" are single words).
fn verse(lower: &str) -> bool {
    let lines: Vec<&str> = lower.split(" / ").collect();
    lines.len() >= 3 && lines.iter().all(|l| words_of(l).count() >= 3)
}

/// Verbs that say what is rather than what the tool does.
const STATIVE: &[&str] =
    &["has", "have", "is", "are", "was", "were", "depends", "seems", "sounds", "means", "varies", "belongs"];

/// A past tense: on the word lists, or any word in "-ed" ("fixed", "refactored"); no verb a
/// tool's action opens with ends so but "embed", "shred" and the "-eed" ones ("seed").
fn past_tense(word: &str) -> bool {
    Lists::of(word).on(List::Past)
        || (word.len() > 4 && word.ends_with("ed") && !word.ends_with("eed") && !matches!(word, "embed" | "shred"))
}

/// A label that names a release: a version ("v1.9.0", "2.0.3") or a date ("2024-04-11").
/// Whether a description is not prose at all but something pasted in its place, told by how it
/// opens: code (a Python `def` or `class`, a JavaScript `function`, a doc comment, a shebang),
/// a JSON or XML document, a commit message's conventional prefix (`refactor(cluster): ...`),
/// or a licence's opening. Whatever words it holds, it does not say what the tool does.
pub fn not_prose(raw: &str) -> bool {
    let text = raw.trim_start();
    let first = text.lines().next().unwrap_or("").trim_end();
    let lower = first.to_ascii_lowercase();
    let code = (lower.starts_with("def ") || lower.starts_with("async def ") || lower.starts_with("class "))
        && first.ends_with(':')
        || (lower.starts_with("function ") || lower.starts_with("async function ")) && first.contains('(')
        || ["/**", "/*", "#!", "<?xml", "<!doctype"].iter().any(|p| lower.starts_with(p));
    let document = text.starts_with('{') && serde_json::from_str::<serde_json::Value>(raw.trim()).is_ok();
    const COMMIT_TYPES: &[&str] =
        &["feat", "fix", "refactor", "chore", "docs", "style", "test", "perf", "build", "ci", "revert"];
    // Written in lower case, as the convention has it ("Fix: ..." opens prose).
    let commit = first.split_once(':').is_some_and(|(label, _)| {
        let kind = label.split('(').next().unwrap_or("").trim_end_matches('!');
        COMMIT_TYPES.contains(&kind) && (label.len() == kind.len() || label.ends_with(')') || label.ends_with(")!"))
    });
    const LICENCES: &[&str] = &[
        "licensed under the",
        "copyright (c)",
        "copyright ©",
        "permission is hereby granted",
        "spdx-license-identifier",
        "the software is provided \"as is\"",
    ];
    code || document || commit || LICENCES.iter().any(|l| lower.starts_with(l))
}

fn release_label(label: &str) -> bool {
    let label = label.trim();
    let version =
        label.trim_start_matches(['v', 'V']).split(|c: char| c.is_whitespace() || c == '(').next().is_some_and(|v| {
            v.contains('.') && v.split('.').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        });
    let date = label
        .as_bytes()
        .windows(10)
        .any(|w| w.iter().enumerate().all(|(i, b)| if i == 4 || i == 7 { *b == b'-' } else { b.is_ascii_digit() }));
    version || date
}

#[cfg(test)]
mod tests {

    #[test]
    fn code_documents_commits_and_licences_are_not_prose() {
        for pasted in [
            "def hash_password(password, rounds=12):\n    salt = bcrypt.gensalt(rounds)",
            "/**\n * @description TODO: add description\n */",
            "{\"enabled\": true, \"timeout_ms\": 30000}",
            "refactor(cluster): extract helper, rename vars, bump deps (#1832)",
            "fix: handle empty pages",
            "Licensed under the Apache License, Version 2.0 (the \"License\"); you may not use this file.",
        ] {
            assert!(not_prose(pasted), "{pasted}");
        }
        for prose in [
            "Defines a function: returns the classification of a text.",
            "Fix: repairs a broken index and returns what it changed.",
            "From a list of ids, returns the matching orders.",
            "{id} is replaced by the order id. Fetches one order.",
            "Class schedules for a gym: lists the classes of a day.",
        ] {
            assert!(!not_prose(prose), "{prose}");
        }
    }
    use super::*;

    /// A tool every sentence below names something of, with no verb in its name.
    struct Named;
    impl Ground for Named {
        fn names_something(&self, _: &str) -> bool {
            true
        }
        fn name_verb(&self, _: &str) -> bool {
            false
        }
        fn identifier(&self) -> &str {
            "a_tool"
        }
    }

    #[test]
    fn actions_are_found_and_talk_around_them_is_not() {
        for s in [
            "gets the forecast for a city.",
            "places a hold on one ice core segment.",
            "looks up a permit number.",
            "this tool lists open invoices.",
            "it returns the newest first.",
            "use this to book a slot.",
            "search for products by name.",
            "permanently deletes an issue.",
            "counts presigned urls that match a filter.",
            "get detailed profile information for a user.",
            "fill out an input field.",
            "destructive: delete a file on the server.",
            "notion | create a page",
            "demonstrates how annotations can be used.",
            "shows version information.",
            "sends a message through https://api.telegram.org/bot{token}/sendmessage with `chat_id` and `text`.",
            "lists processed and pending payrolls with status.",
            "reacts with a thumbs up.",
        ] {
            assert!(opens_with_action(s, 0, &Named), "{s}");
        }
        for s in [
            "sorry to everyone affected by the delays last winter.",
            "calls go through the gateway service.",
            "copy reviewed for consistency with the style sheet.",
            "the cellar team has big ambitions for next quarter.",
            "with thanks to the ranger service.",
            "love it? hate it? tell us.",
            "finds recording will evolve alongside the archive strategy.",
            "platform sync, item 3: get forecast came up briefly.",
            "always consult official meteorological services.",
            "sorry to all the guests affected by lift delays.",
            "thanks to the volunteers who tested it.",
            "apologies to everyone whose records went missing.",
            "raising a glass to the cellar crew.",
            "tell us one thing you would change.",
        ] {
            assert!(!opens_with_action(s, 0, &Named), "{s}");
        }
    }

    #[test]
    fn an_imperative_to_the_reader_is_not_the_tools_action() {
        let name: Vec<String> = ["close", "lift", "for", "wind", "hold"].iter().map(|w| w.to_string()).collect();
        let own: Vec<String> = ["lift", "wind", "hold", "close"].iter().map(|w| stem(w)).collect();
        let tool = Tool { own: &own, name: &name, identifier: name.join("_") };
        for s in [
            "watch this space over the coming seasons.",
            "keep an eye on the internal portal.",
            "follow up at the next sprint review.",
            "tap a star rating and help us make the mountain better.",
            "rate your experience with lift wind holds!",
            "share your feedback on wind holds with the team.",
            "tap a wind hold rating below and help us make it better.",
            "hold as changing share it needed.",
        ] {
            assert!(!opens_with_action(s, 0, &tool), "{s}");
        }
        for s in [
            "close a lift while the wind is too strong.",
            "puts one lift on a wind hold.",
            "it closes the lift for the rest of the day.",
            "use this tool to record the reason for the hold.",
            "return the full protocol specification.",
            "retrieve your lift's wind hold.",
            "shows changes that are staged for commit.",
            "close the lift until the wind drops.",
        ] {
            assert!(opens_with_action(s, 0, &tool), "{s}");
        }
    }

    #[test]
    fn releases_headings_questions_verse_and_the_tools_own_name_are_not_its_action() {
        let name: Vec<String> = ["schedule", "vet", "appointment"].iter().map(|w| w.to_string()).collect();
        let own: Vec<String> = ["schedule", "vet", "appointment", "clinic", "reason"].iter().map(|w| stem(w)).collect();
        let tool = Tool { own: &own, name: &name, identifier: name.join("_") };
        let says = |s: &str, k: usize| opens_with_action(s, k, &tool);
        for s in [
            "v1.9.0 (2024-04-11): schedule_vet_appointment now handles more reason values gracefully.",
            "v2.0.0: rewrote the appointment engine.",
            "fixed a display issue with some clinic labels.",
            "front desk: does it know about the clinic?",
            "it: it has a field for it, yeah.",
            "a: it depends on the clinic.",
            "a: appointments and clinics, broadly speaking.",
            "paws at the front desk, / a tail that wags at the clock.",
            "cartons cross the clinic, / six digits hum in the hold, / a reason, then home.",
            "join the team behind schedule_vet_appointment.",
            "schedule_vet_appointment at a glance.",
        ] {
            assert!(!says(s, 1), "{s}");
        }
        assert!(!says("appointment result.", 3), "a heading");
        for s in [
            "schedule_vet_appointment books a slot at a clinic for one patient.",
            "books a slot at the clinic.",
            "reads / writes / deletes one appointment at a clinic.",
            "schedule a visit at a clinic for a reason given.",
        ] {
            assert!(says(s, 0), "{s}");
        }
    }
}
