//! Reading a description before scoring it: the sentences that tell an agent something stay,
//! the ones that do not are set aside with the reason. A sentence says nothing when it repeats
//! an earlier one, is a bare cue ("Returns." "Use when." "Rate limit."), a list of keywords,
//! praise, placeholder text, or words in no order. The scorers then look only at what is left,
//! so stuffing a description with cue words, copies or filler adds nothing to it, while what
//! was set aside still counts against its conciseness.

use super::filler::{CONCRETE, DETERMINERS, FUNCTION, GENERIC, NO_ENDING, PLACEHOLDER, is_meta};
use super::siblings::SiblingView;
use super::text::{is_ideograph, stem, words_of};

/// Why a sentence was set aside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dropped {
    Repeat,
    Fragment,
    KeywordList,
    Praise,
    Placeholder,
    Shuffled,
}

impl Dropped {
    pub fn label(self) -> &'static str {
        match self {
            Dropped::Repeat => "repeats an earlier sentence",
            Dropped::Fragment => "is a bare cue with no fact",
            Dropped::KeywordList => "is a keyword list",
            Dropped::Praise => "is praise, not information",
            Dropped::Placeholder => "is placeholder text",
            Dropped::Shuffled => "is words in no readable order",
        }
    }
}

/// What the tool's own definition makes concrete: its parameters and sibling tools.
pub struct Own<'a> {
    pub name_stems: &'a [String],
    pub params: &'a [String],
    pub siblings: &'a SiblingView<'a>,
}

#[derive(Clone, Debug, Default)]
pub struct Reading {
    /// The description without the sentences set aside, otherwise byte for byte the same.
    pub substantive: String,
    /// Sentences set aside, in order, with the reason.
    pub dropped: Vec<(Dropped, String)>,
    /// Words in the whole description and in what was set aside.
    pub raw_words: usize,
    pub dropped_words: usize,
}

impl Reading {
    /// Share of the description's words that carry nothing, 0-100.
    pub fn dropped_percent(&self) -> usize {
        (100 * self.dropped_words).checked_div(self.raw_words).unwrap_or(0)
    }

    /// More than a word or two was written, but none of it says anything.
    pub fn content_free(&self) -> bool {
        self.raw_words > 2 && !self.dropped.is_empty() && self.substantive.trim().is_empty()
    }
}

/// Abbreviations whose full stop does not end a sentence.
const ABBREVIATIONS: &[&str] = &["e", "g", "i", "eg", "ie", "etc", "vs", "approx", "incl", "no", "min", "max", "ca"];

/// Section headings: structure, not content, and not filler either.
const HEADINGS: &[&str] = &[
    "args",
    "arguments",
    "parameters",
    "params",
    "returns",
    "return",
    "example",
    "examples",
    "usage",
    "notes",
    "errors",
    "output",
    "input",
    "response",
    "options",
    "value",
];

/// Words that only occur in sentences, never in a list of keywords.
const PROSE: &[&str] = &[
    "the", "a", "an", "of", "to", "for", "in", "on", "at", "by", "with", "from", "is", "are", "be", "it", "its",
    "this", "that", "into", "than",
];

/// Labels that introduce a keyword list.
const LIST_LABELS: &[&str] = &["keywords", "keyword", "tags", "tag", "topics", "categories", "seo", "search terms"];

/// Byte spans of the sentences (and list lines) of `raw`, whitespace trimmed.
fn spans(raw: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes: Vec<(usize, char)> = raw.char_indices().collect();
    let push = |from: usize, to: usize, out: &mut Vec<(usize, usize)>| {
        let s = &raw[from..to];
        let lead = s.len() - s.trim_start().len();
        let t = s.trim();
        if t.chars().any(char::is_alphanumeric) {
            out.push((from + lead, from + lead + t.len()));
        }
    };
    for (k, &(i, c)) in bytes.iter().enumerate() {
        let next = bytes.get(k + 1).map(|&(_, n)| n);
        let end = match c {
            '。' | '！' | '？' | '؟' => true,
            '.' | '!' | '?' => next.is_none_or(char::is_whitespace) && !abbreviation(&raw[start..i]),
            // A wrapped line continues in lowercase; anything else starts a new sentence.
            '\n' => !next.is_some_and(|n| n.is_lowercase()),
            _ => false,
        };
        if end {
            let to = i + c.len_utf8();
            push(start, to, &mut out);
            start = to;
        }
    }
    push(start, raw.len(), &mut out);
    out
}

fn abbreviation(before: &str) -> bool {
    let last = before.rsplit(|c: char| !c.is_alphanumeric()).next().unwrap_or("");
    (last.chars().count() == 1 && last.chars().all(char::is_alphabetic))
        || ABBREVIATIONS.contains(&last.to_lowercase().as_str())
}

/// Word tokens of a sentence: alphanumeric runs, every ideograph on its own.
fn tokens(lower: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for w in words_of(lower) {
        if w.chars().any(is_ideograph) {
            let mut from = 0;
            for (i, c) in w.char_indices() {
                if is_ideograph(c) {
                    if from < i {
                        out.push(&w[from..i]);
                    }
                    out.push(&w[i..i + c.len_utf8()]);
                    from = i + c.len_utf8();
                }
            }
            if from < w.len() {
                out.push(&w[from..]);
            }
        } else {
            out.push(w);
        }
    }
    out
}

/// Word count as [`super::text::Text::word_count`] counts it: two ideographs make one word.
fn word_weight(words: &[&str]) -> usize {
    let ideographs = words.iter().filter(|w| w.chars().any(is_ideograph)).count();
    words.len() - ideographs + ideographs.div_ceil(2)
}

/// Does the sentence name something an agent can act on: a number, a parameter, a sibling,
/// an identifier, a quoted value, a unit or format, an acronym?
/// What makes a sentence concrete: something of its own, or only a sibling's name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Concrete {
    No,
    SiblingOnly,
    Yes,
}

fn concrete(raw: &str, words: &[&str], own: &Own) -> Concrete {
    let mut sibling = false;
    if words.iter().any(|w| w.chars().any(|c| c.is_ascii_digit()) || CONCRETE.contains(w)) {
        return Concrete::Yes;
    }
    if raw.contains('`') || raw.contains('"') || raw.contains('\u{201c}') {
        return Concrete::Yes;
    }
    let idents = raw.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-')).filter(|w| !w.is_empty());
    for ident in idents {
        let lower = ident.to_lowercase();
        let lower = lower.trim_matches(|c| c == '_' || c == '-');
        let inner_caps = ident.chars().skip(1).any(char::is_uppercase) && ident.chars().any(char::is_lowercase);
        let acronym =
            ident.len() >= 2 && ident.chars().all(|c| c.is_ascii_uppercase()) && !["API", "MCP", "AI"].contains(&ident);
        if own.siblings.has_name(lower) {
            sibling = true;
        } else if lower.contains('_') || inner_caps || acronym || own.params.iter().any(|p| p == lower) {
            return Concrete::Yes;
        }
    }
    if sibling { Concrete::SiblingOnly } else { Concrete::No }
}

/// A line of short items with no sentence around them: "weather, forecast, rain, wind".
fn keyword_list(lower: &str) -> bool {
    // A label says what the items are: "Actions: list, start, stop" is an enumeration,
    // unless the label only announces keywords.
    if let Some((label, _)) = lower.split_once(':')
        && words_of(label).count() <= 2
    {
        return LIST_LABELS.contains(&label.trim().trim_start_matches(['-', '*', '#', ' ']));
    }
    let segments: Vec<Vec<&str>> = lower
        .split([',', ';', '|', '/', '\u{3001}'])
        .map(|s| words_of(s).collect::<Vec<_>>())
        .filter(|s| !s.is_empty())
        .collect();
    if segments.len() < 4 || segments.iter().any(|s| s.len() > 3) {
        return false;
    }
    let prose = segments.iter().flatten().any(|w| PROSE.contains(w));
    !prose && (segments[0].len() == 1 || segments.len() >= 6)
}

/// Words out of order: a determiner before a function word ("the of"), or a sentence ending
/// on a function word ("lists the").
fn disfluencies(raw: &str, words: &[&str]) -> usize {
    let capitalised = raw
        .split_whitespace()
        .skip(1)
        .filter(|w| {
            let lower = w.to_lowercase();
            let bare = lower.trim_matches(|c: char| !c.is_alphanumeric());
            // Title case only: "NOT" is emphasis, not a moved word.
            let title = w.starts_with(char::is_uppercase) && w.chars().skip(1).all(|c| !c.is_uppercase());
            title && (FUNCTION.contains(&bare) || CAPITALISED_OPENERS.contains(&bare))
        })
        .count();
    let collisions = words.windows(2).filter(|p| DETERMINERS.contains(&p[0]) && FUNCTION.contains(&p[1])).count();
    let bad_end = words.last().is_some_and(|w| NO_ENDING.contains(w) && words.len() >= 3);
    capitalised + collisions + usize::from(bad_end)
}

/// Words that open English sentences; capitalised in the middle of one, they were moved.
const CAPITALISED_OPENERS: &[&str] = &["use", "call", "give", "gets", "lists", "returns", "creates", "an", "if", "for"];

/// Reads `raw` sentence by sentence; see the module comment.
pub fn read(raw: &str, own: &Own) -> Reading {
    let spans = spans(raw);
    let mut seen: Vec<String> = Vec::new();
    let mut seen_trigrams: Vec<String> = Vec::new();
    let mut kinds: Vec<Option<Dropped>> = Vec::with_capacity(spans.len());
    let mut raw_words = 0;
    let mut weights = Vec::with_capacity(spans.len());
    let (mut latin, mut disfluent) = (0, 0);
    for &(from, to) in &spans {
        let text = &raw[from..to];
        let lower = text.to_lowercase();
        let words = tokens(&lower);
        let weight = word_weight(&words);
        raw_words += weight;
        weights.push(weight);
        let key = words.join(" ");
        let trigrams: Vec<String> = words.windows(3).map(|w| w.join(" ")).collect();
        let known = trigrams.iter().filter(|t| seen_trigrams.contains(t)).count();
        let kind = if seen.contains(&key) || (trigrams.len() >= 3 && 5 * known >= 4 * trigrams.len()) {
            Some(Dropped::Repeat)
        } else {
            classify(text, &lower, &words, own, kinds.iter().all(|k| k.is_some()))
        };
        if kind.is_none() && words.len() >= 4 && text.is_ascii() {
            latin += 1;
            let lower_start = text.trim_start_matches(|c: char| !c.is_alphanumeric()).starts_with(char::is_lowercase);
            let d = disfluencies(text, &words);
            if d >= 2 || (d == 1 && (lower_start || words.len() >= 8)) {
                disfluent += 1;
            }
        }
        seen.push(key);
        seen_trigrams.extend(trigrams);
        kinds.push(kind);
    }
    // Shuffled words show as disfluency in most sentences; then none of them can be trusted.
    let shuffled = disfluent >= 2 && 2 * disfluent >= latin;
    let mut reading = Reading { raw_words, ..Reading::default() };
    let mut last = 0;
    for (k, &(from, to)) in spans.iter().enumerate() {
        let kind = kinds[k].or(shuffled.then_some(Dropped::Shuffled));
        if let Some(kind) = kind {
            reading.substantive.push_str(&raw[last..from]);
            last = to;
            reading.dropped_words += weights[k];
            reading.dropped.push((kind, raw[from..to].to_owned()));
        }
    }
    reading.substantive.push_str(&raw[last..]);
    reading
}

fn classify(raw: &str, lower: &str, words: &[&str], own: &Own, first: bool) -> Option<Dropped> {
    let heading = words.len() <= 2 && words.iter().all(|w| HEADINGS.contains(w));
    if heading && !raw.ends_with(['.', '!', '?']) {
        return None;
    }
    let placeholder = words.iter().filter(|w| PLACEHOLDER.contains(w)).count();
    if placeholder >= 2 && 10 * placeholder >= 3 * words.len() {
        return Some(Dropped::Placeholder);
    }
    if keyword_list(lower) {
        return Some(Dropped::KeywordList);
    }
    let concrete = concrete(raw, words, own);
    // A part of a sibling's name, when the sentence's only concrete thing is a sibling.
    let sibling_word = |w: &str| concrete == Concrete::SiblingOnly && own.siblings.has_part(w);
    let open: Vec<&&str> = words
        .iter()
        .filter(|w| !is_meta(w) && (w.len() >= 2 || w.chars().any(is_ideograph)) && !sibling_word(w))
        .collect();
    let generic = words.iter().filter(|w| GENERIC.contains(w)).count();
    let own_word = |w: &&&str| own.name_stems.contains(&stem(w));
    let new_words = open.iter().filter(|w| !own_word(w)).count();
    // A sibling's name alone ("Instead use get_x.") names an alternative without saying when.
    let around_sibling = words.iter().filter(|w| !sibling_word(w)).count();
    let is_concrete =
        concrete == Concrete::Yes || (concrete == Concrete::SiblingOnly && (new_words >= 1 || around_sibling >= 4));
    if !is_concrete && generic >= 2 && generic >= open.len() {
        return Some(Dropped::Praise);
    }
    // The opening sentence states the purpose: one word of its own (often the name's) is
    // enough there. Later sentences must add two words (one of them beyond the name) or one
    // concrete thing.
    let enough = is_concrete || new_words >= 2 || (new_words == 1 && open.len() >= 2) || (first && !open.is_empty());
    (!enough).then_some(Dropped::Fragment)
}

#[cfg(test)]
mod tests {
    use super::super::siblings::SiblingIndex;
    use super::*;
    use crate::json::JsString;

    fn own() -> (Vec<String>, Vec<String>, SiblingIndex) {
        let siblings = SiblingIndex::new(&[JsString::from("get_current_weather")]);
        (vec!["get".into(), "forecast".into()], vec!["city".into()], siblings)
    }

    #[test]
    fn sets_aside_cues_copies_lists_and_filler() {
        let (n, p, s) = own();
        let s = s.view(None);
        let own = Own { name_stems: &n, params: &p, siblings: &s };
        let r = read("Returns. Use when. Rate limit. Instead use get_current_weather.", &own);
        // A sibling's name with nothing around it says which tool, not when.
        assert_eq!(r.dropped.len(), 4, "{r:?}");
        assert!(r.content_free());
        let r = read("Returns. For today's conditions, use get_current_weather instead.", &own);
        assert_eq!(r.substantive.trim(), "For today's conditions, use get_current_weather instead.");
        let honest = "Gets the 5-day forecast for a city. Temperatures are in Celsius.";
        assert_eq!(read(honest, &own).substantive, honest);
        let copies = read(&format!("{honest} {honest}"), &own);
        assert_eq!(copies.substantive.trim(), honest);
        let kw = read("Gets the forecast for a city.\nKeywords: weather, rain, wind, returns", &own);
        assert_eq!(kw.dropped[0].0, Dropped::KeywordList);
        let praise = read("Gets the forecast for a city. This powerful tool is extremely useful and amazing.", &own);
        assert_eq!(praise.dropped[0].0, Dropped::Praise);
        let lorem = read("Gets the forecast. Lorem ipsum dolor sit amet, returns results, use when.", &own);
        assert_eq!(lorem.dropped[0].0, Dropped::Placeholder);
        assert!(read("Returns. Use when. Errors.", &own).content_free());
    }

    #[test]
    fn keeps_abbreviations_wrapped_lines_and_other_scripts() {
        let (n, p, s) = own();
        let s = s.view(None);
        let own = Own { name_stems: &n, params: &p, siblings: &s };
        let t = "Gets the forecast, e.g. for Paris.\nValues are\nrounded to one decimal.";
        assert_eq!(read(t, &own).substantive, t);
        for t in ["Ruft die Wettervorhersage für eine Stadt ab.", "获取城市的天气预报。", "يعرض توقعات الطقس لمدينة."]
        {
            assert!(read(t, &own).dropped.is_empty(), "{t}");
        }
    }
}
