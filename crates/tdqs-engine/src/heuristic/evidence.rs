//! Everything the tool scorers look at, read off a definition once: the description's words and
//! cues, the verbs in the name and the description, the parameters and whether the prose
//! mentions them, the siblings it names, and the declared annotation hints.

use crate::definition::ToolDefinition;
use crate::json::JsValue;
use crate::signals::ContextSignals;

use rustc_hash::FxHashSet;

use super::cues::Cues;
use super::grounding::{akin, foreign, own_words, shares};
use super::lexicon::{self, BEHAVIOUR_CUES, OPENERS, VerbClass, verb_class};
pub use super::param_mentions::{Mention, Param};
use super::param_mentions::{param_descriptions, param_keys, params};
use super::reading::{Own, Reading, read};
use super::siblings::SiblingView;
use super::structure::{noise, structured};
use super::text::{Text, lower_of, plain, sentences_of, split_identifier, stem, text_words, words_of};
use super::word_lists::{List, on};

/// Words that stand where a returned thing would be named and name nothing: "gives back
/// output", "returns the information in a suitable format".
const VAGUE_OBJECTS: &[&str] = &[
    "back",
    "information",
    "info",
    "data",
    "details",
    "content",
    "contents",
    "suitable",
    "requested",
    "corresponding",
    "applicable",
    "some",
    "certain",
    "several",
    "any",
    "whatever",
    "stuff",
    "everything",
];

/// The return cues found, when the description says what comes back: a cue word followed in
/// its sentence by a word that names something (not a cue, praise, function word or vague
/// object). "Returns the forecast" does; "Gives back output." and "Returns." do not. Cues of
/// several words ("list of", "object with") name a shape and stand; ideographic text has no
/// word breaks to read this way and keeps what was found.
fn what_comes_back(desc: &Text, found: Vec<&'static str>) -> Vec<&'static str> {
    if found.is_empty() || desc.mostly_ideographic() || found.iter().any(|c| c.contains(' ')) {
        return found;
    }
    const CUES: &[&str] = &["return", "output", "yield", "result", "provide", "give", "contain", "includ", "respond"];
    let cue = |w: &str| CUES.iter().any(|c| w.starts_with(c));
    let names = |w: &str| {
        w.len() >= 2
            && !cue(w)
            && !VAGUE_OBJECTS.contains(&w)
            && !on(w, List::Stopword)
            && !on(w, List::Meta)
            && !on(w, List::Generic)
    };
    // A heading ("Returns", "Returns:") names what follows on the next lines.
    let sentences = &desc.sentences;
    let said = sentences.iter().enumerate().any(|(k, s)| {
        let heading = !s.trim_end().ends_with(['.', '!', '?']);
        let next = sentences.get(k + 1).filter(|_| heading).map_or("", String::as_str);
        let words: Vec<&str> = words_of(s).chain(words_of(next)).collect();
        words.iter().enumerate().any(|(i, w)| cue(w) && words[i + 1..].iter().take(8).any(|n| names(n)))
    });
    if said { found } else { Vec::new() }
}

/// A verb found in the name or the description, with its class.
#[derive(Clone, Debug)]
pub struct Verb {
    pub word: String,
    pub class: VerbClass,
}

#[derive(Clone, Debug)]
pub struct Evidence {
    pub name: String,
    /// The description without the sentences [`read`] set aside: what the scorers read.
    pub desc_raw: String,
    pub desc: Text,
    /// The sentences of the whole description as written, for what it claims
    /// (contradictions), when reading set some aside; else they are `desc`'s.
    full: Option<Vec<String>>,
    /// What was set aside and why.
    pub reading: Reading,
    pub params: Vec<Param>,
    /// Siblings the description names, as the sibling list spells them.
    pub siblings_named: Vec<String>,
    pub sibling_count: usize,
    /// Quoted or backticked identifiers that look like other tools (`'tool-list'`).
    pub tool_references: Vec<String>,
    pub lead_verb: Option<Verb>,
    pub name_verb: Option<Verb>,
    /// The name split into words (`git_log` -> `git`, `log`).
    pub name_words: Vec<String>,
    /// Distinct content words (stemmed) that the name and title do not already say.
    pub extra_words: Vec<String>,
    pub when: Vec<&'static str>,
    pub when_not: Vec<&'static str>,
    pub soft_usage: Vec<&'static str>,
    /// (family, phrases of that family found), families with at least one phrase. Phrases
    /// made only of the tool name's own words are not disclosures (a rate-limit tool saying
    /// "rate limit").
    pub behaviour: Vec<(&'static str, Vec<&'static str>)>,
    pub returns: Vec<&'static str>,
    pub details: Vec<&'static str>,
    /// Some sentence opens with an action ([`super::statement`]); `None` for text in another
    /// language ([`Self::foreign`], or few English function words).
    pub says_what_it_does: Option<bool>,
    /// Annotation hints declared as booleans, as `readOnlyHint: true` strings.
    pub hints: Vec<String>,
    pub has_output_schema: bool,
    /// Bullet lines or `Args:`/`Returns:` sections.
    pub structured: bool,
    /// The first of the tool's own words (from its name, title or parameter names) that the
    /// kept text uses, when it has any to use: a purpose stated in none of them may be another
    /// tool's. `None` when it uses none.
    pub grounding: Option<String>,
    /// The tool's own words, for the justification when none is used.
    pub own_words: Vec<String>,
    /// The text reads as another language than English (ideographs, or letters beyond ASCII
    /// and few English function words): its words cannot be checked against the name's.
    pub foreign: bool,
    /// Of the kept text's content words, how many are praise, hedges or qualifiers that name
    /// nothing ("relevant", "suitable", "blazing"), and how many content words there are.
    pub filler: (usize, usize),
    /// Of the kept text's content words, how many are the name's own words again (in any form),
    /// and how many content words there are: a text that mostly repeats its name is circular.
    pub echo: (usize, usize),
    /// Tags and emoji that carry no meaning (`[UNIFIED]`).
    pub noise: Vec<String>,
    pub signals: ContextSignals,
}

impl Evidence {
    pub fn gather(tool: &ToolDefinition, signals: &ContextSignals, siblings: &SiblingView<'_>) -> Self {
        let name = plain(&tool.name);
        let name_words = split_identifier(&name);
        let title_words = tool.title.as_ref().map(|t| split_identifier(&plain(t))).unwrap_or_default();
        let written = super::surface::as_read(tool.description.as_ref().map(plain).unwrap_or_default());
        let known: Vec<String> = name_words.iter().chain(&title_words).map(|w| stem(w)).collect();
        let keys = param_keys(tool);
        let param_names: Vec<String> = keys.iter().map(|p| p.to_lowercase()).collect();
        let own_words = own_words(&name_words, &title_words, &keys, &param_descriptions(tool));
        let reading = read(&written, &Own { name_stems: &known, words: &own_words, params: &param_names, siblings });
        let desc_raw = reading.substantive.clone();
        let desc = Text::new(&desc_raw);
        let full = (!reading.dropped.is_empty()).then(|| sentences_of(&written));
        let params = params(tool, &desc);
        let siblings_named: Vec<String> = siblings.named_in(&desc, &name, names_tool);
        let tool_references = desc
            .sentences
            .iter()
            .filter(|s| words_of(s).any(|w| on(w, List::ReferenceCue)))
            .flat_map(|s| quoted_identifiers(s))
            .filter(|q| *q != name.to_lowercase() && !param_names.contains(q))
            .filter(|q| !siblings_named.iter().any(|s| s.to_lowercase() == *q))
            .fold(Vec::new(), |mut v: Vec<String>, q| {
                if !v.contains(&q) {
                    v.push(q);
                }
                v
            });
        let mut extra_words: Vec<String> = Vec::new();
        let mut extra: FxHashSet<&str> = FxHashSet::default();
        for (i, w) in desc.words.iter().enumerate() {
            let s = desc.stem_at(i);
            // Cue and praise words ("returns", "output", "appropriate", "powerful") say nothing
            // about what the tool acts on, and neither do the name's own words in another form
            // ("uploaded", "uploading" for `upload_file`): they are not content beyond the name.
            let content = (w.chars().count() >= 2 || w.chars().any(super::text::is_ideograph))
                && !on(w, List::Stopword)
                && !on(w, List::Meta)
                && !on(w, List::Generic)
                && !on(w, List::Hedge)
                && !lexicon::VAGUE_VERBS.contains(&s)
                && !w.chars().all(|c| c.is_ascii_digit())
                && !known.iter().any(|k| akin(k, s));
            if content && extra.insert(s) {
                extra_words.push(s.to_owned());
            }
        }
        // A phrase of the name's own words (in any form: "creates a" for `create_label`) with
        // at most function words beside them.
        let own = |p: &str| {
            let mut named = false;
            let all = p.split(' ').all(|w| {
                let w = w.trim_end_matches('*');
                let of_name = name_words.iter().any(|n| n.starts_with(w) || akin(&stem(n), &stem(w)));
                named |= of_name;
                of_name || on(w, List::Determiner) || on(w, List::Function)
            });
            all && named
        };
        // A cue inside an identifier (`max_results`, `wait`) names a parameter, not behaviour.
        let masked = mask_identifiers(&desc_raw);
        // The masked text is read for cues only: its words, not a whole `Text`.
        let masked_cues = (masked != desc_raw).then(|| {
            let lower = lower_of(&masked);
            let mut words = Vec::new();
            text_words(&lower, |w, _| words.push(w));
            Cues::find(&lower, words.into_iter())
        });
        let behaviour = BEHAVIOUR_CUES
            .iter()
            .filter_map(|(family, phrases)| {
                let found = match &masked_cues {
                    Some(cues) => cues.all_of(phrases),
                    None => desc.all_of(phrases),
                };
                let found: Vec<&'static str> = found.into_iter().filter(|p| !own(p)).collect();
                (!found.is_empty()).then_some((*family, found))
            })
            .collect();
        let hints = hints(tool);
        let grounding = if own_words.is_empty() || desc.lower.contains(&name.to_lowercase()) {
            Some(String::new())
        } else {
            (0..desc.words.len())
                .map(|i| desc.stem_at(i))
                .find(|s| own_words.iter().any(|o| akin(o, s)))
                .map(str::to_owned)
        };
        let foreign = foreign(&desc);
        let (filler, echo) = shares(&desc, &known);
        // Pasted text says nothing; text in another language is not asked for an English action.
        let pasted = super::statement::not_prose(&tool.description.as_ref().map(plain).unwrap_or_default());
        let says = || super::statement::says_what_it_does(&desc.sentences, &name_words, &own_words);
        let says_what_it_does = if pasted { Some(false) } else { (!foreign).then(says).flatten() };
        Evidence {
            grounding,
            own_words,
            foreign,
            filler,
            echo,
            lead_verb: lead_verb(&desc),
            name_verb: name_words.iter().find_map(|w| verb_class(w).map(|class| Verb { word: w.clone(), class })),
            name_words,
            when: desc.all_of(lexicon::WHEN_CUES),
            when_not: desc.all_of(lexicon::WHEN_NOT_CUES),
            soft_usage: desc.all_of(lexicon::SOFT_USAGE_CUES),
            returns: what_comes_back(&desc, desc.all_of(lexicon::RETURN_CUES)),
            details: desc.all_of(lexicon::DETAIL_CUES),
            says_what_it_does,
            structured: structured(&desc_raw),
            noise: noise(&written),
            has_output_schema: signals.has_output_schema,
            sibling_count: siblings.len(),
            name,
            desc_raw,
            desc,
            full,
            reading,
            params,
            siblings_named,
            tool_references,
            extra_words,
            behaviour,
            hints,
            signals: signals.clone(),
        }
    }

    pub fn word_count(&self) -> usize {
        self.desc.word_count()
    }

    /// The sentences of the whole description, including those set aside.
    pub fn full_sentences(&self) -> &[String] {
        self.full.as_deref().unwrap_or(&self.desc.sentences)
    }

    /// One or two words: nothing an agent can act on.
    pub fn trivial(&self) -> bool {
        self.word_count() <= 2
    }

    /// Says nothing the name and title do not already say.
    pub fn restates_name(&self) -> bool {
        self.extra_words.is_empty()
    }

    /// The description names another tool (a sibling or a quoted tool-like identifier).
    pub fn names_alternative(&self) -> Option<&str> {
        self.siblings_named.first().or(self.tool_references.first()).map(String::as_str)
    }

    /// The verb that says what the tool does: the description's, else the name's.
    pub fn main_verb(&self) -> Option<&Verb> {
        self.lead_verb.as_ref().or(self.name_verb.as_ref())
    }

    pub fn hint(&self, key: &str) -> Option<bool> {
        let a = &self.signals.annotation_values;
        match key {
            "readOnlyHint" => a.read_only,
            "destructiveHint" => a.destructive,
            "idempotentHint" => a.idempotent,
            "openWorldHint" => a.open_world,
            _ => None,
        }
    }

    /// English text that uses none of the tool's own words: what it says may be about another
    /// tool, so it earns no more than the minimum on any dimension. A tool with a single word of
    /// its own (a one-word name, no parameters) is too easily described in other words to tell.
    pub fn ungrounded(&self) -> bool {
        !self.foreign && self.grounding.is_none() && self.own_words.len() >= 2
    }

    /// Parameters the prose mentions at least as well as `at_least`.
    pub fn params_mentioned(&self, at_least: Mention) -> usize {
        self.params.iter().filter(|p| p.mention >= at_least).count()
    }
}

/// The text with code spans and `snake_case` identifiers blanked out.
fn mask_identifiers(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for (i, part) in raw.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str(" code ");
            continue;
        }
        let mut word = String::new();
        let flush = |word: &mut String, out: &mut String| {
            let identifier = word.trim_matches('_').contains('_');
            out.push_str(if identifier { "code" } else { word.as_str() });
            word.clear();
        };
        for c in part.chars() {
            if c.is_alphanumeric() || c == '_' {
                word.push(c);
            } else {
                flush(&mut word, &mut out);
                out.push(c);
            }
        }
        flush(&mut word, &mut out);
    }
    out
}

/// A sibling counts as named when its exact identifier occurs (a one-word name only in quotes
/// or backticks, since it is usually an ordinary word too), or all of its words in order.
pub(super) fn names_tool(desc: &Text, sibling: &str) -> bool {
    let words = split_identifier(sibling);
    let lower = sibling.to_lowercase();
    if words.len() < 2 {
        return ['`', '\'', '"'].iter().any(|q| desc.lower.contains(&format!("{q}{lower}{q}")));
    }
    desc.idents().any(|i| i == lower) || desc.has(&words.join(" "))
}

/// Identifiers with `_` or `-` written between quotes or backticks.
fn quoted_identifiers(lower: &str) -> Vec<String> {
    let mut out = Vec::new();
    for q in ['`', '\'', '"'] {
        let parts: Vec<&str> = lower.split(q).collect();
        for inner in parts.iter().skip(1).step_by(2).take(parts.len() / 2) {
            let ok = inner.len() >= 4
                && inner.len() <= 64
                && inner.contains(['_', '-'])
                && inner.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-');
            if ok && !out.contains(&inner.to_string()) {
                out.push(inner.to_string());
            }
        }
    }
    out
}

/// The first verb among the first few words of the first sentence, after boilerplate openers
/// ("This tool", "Allows you to", "[UNIFIED]").
fn lead_verb(desc: &Text) -> Option<Verb> {
    let first = desc.sentences.first()?;
    let words: Vec<&str> = words_of(first).collect();
    let start = OPENERS.iter().find(|o| words.len() > o.len() && words[..o.len()] == o[..]).map_or(0, |o| o.len());
    words.iter().skip(start).take(4).find_map(|w| verb_class(w).map(|class| Verb { word: (*w).to_owned(), class }))
}

fn hints(tool: &ToolDefinition) -> Vec<String> {
    let Some(a) = tool.annotations.as_ref() else {
        return Vec::new();
    };
    ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]
        .iter()
        .filter_map(|k| match a.get(k) {
            Some(JsValue::Bool(b)) => Some(format!("{k}: {b}")),
            _ => None,
        })
        .collect()
}
