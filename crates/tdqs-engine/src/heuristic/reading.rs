//! Reading a description before scoring it: the sentences that tell an agent something stay,
//! the ones that do not are set aside with the reason. A sentence says nothing when it repeats
//! an earlier one, is a bare cue ("Returns." "Use when." "Rate limit."), a list of keywords,
//! praise, hedges ("could vary depending on several factors"), placeholder text, words in no
//! order, or a number with no word for what it measures ("99.9%."); and a text made mostly of
//! short labels ("Nur lesend. Keine Nebenwirkungen.") is a telegram, in any language. The
//! scorers then look only at what is left, so stuffing a description with cue words, copies or
//! filler adds nothing to it, while what was set aside still counts against its conciseness.
//! Long: the sentence reader and its tests; the sentence splitter, the concreteness test and the
//! classifier share the same word lists and are read together.

use super::WordSet;

use super::siblings::SiblingView;
use super::text::{is_ideograph, lowercase, stemmed, words_of};
use super::word_lists::{List, Lists};

/// Why a sentence was set aside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dropped {
    Repeat,
    Fragment,
    KeywordList,
    Praise,
    Hedged,
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
            Dropped::Hedged => "is hedged so that it states nothing",
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
pub(super) const HEADINGS: &[&str] = &[
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
pub(super) const PROSE: &[&str] = &[
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
            // A wrapped line continues in lowercase; anything else starts a new sentence, and
            // so does a labelled line ("returns: data"), whatever its case.
            '\n' => !next.is_some_and(|n| n.is_lowercase()) || labelled(&raw[start..i]) || labelled(&raw[i + 1..]),
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

/// Whether a line opens with a label of at most three words and a colon ("side effects: none").
fn labelled(line: &str) -> bool {
    let line = line.trim_start().trim_start_matches(['-', '*', '•', ' ']);
    let head = line.split('\n').next().unwrap_or("");
    head.split_once(':').is_some_and(|(label, _)| {
        let words = label.split_whitespace().count();
        (1..=3).contains(&words) && label.chars().all(|c| c.is_alphanumeric() || c == ' ' || c == '_' || c == '-')
    })
}

fn abbreviation(before: &str) -> bool {
    let last = before.rsplit(|c: char| !c.is_alphanumeric()).next().unwrap_or("");
    (last.chars().count() == 1 && last.chars().all(char::is_alphabetic)) || ABBREVIATIONS.contains(&&*lowercase(last))
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
/// an identifier, a quoted value, a unit or format, an acronym? What makes it concrete:
/// something of its own, only numbers and units, or only a sibling's name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Concrete {
    No,
    SiblingOnly,
    /// Only numbers and units: "5 seconds." "99.9%."
    Measure,
    Yes,
}

fn concrete(raw: &str, words: &[&str], lists: &[Lists], own: &Own) -> Concrete {
    let mut sibling = false;
    if raw.contains('`') || raw.contains('"') || raw.contains('\u{201c}') {
        return Concrete::Yes;
    }
    let idents = raw.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-')).filter(|w| !w.is_empty());
    for ident in idents {
        let lower = lowercase(ident);
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
    if words.iter().zip(lists).any(|(w, l)| measure(w, *l)) {
        return Concrete::Measure;
    }
    if sibling { Concrete::SiblingOnly } else { Concrete::No }
}

/// A number or a unit: concrete, but only about something the sentence names.
fn measure(word: &str, lists: Lists) -> bool {
    word.chars().any(|c| c.is_ascii_digit()) || lists.on(List::Concrete)
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
    // Counted in one pass: at least four short segments (three words at most), no prose.
    let (mut segments, mut first_len, mut prose) = (0, 0, false);
    for segment in lower.split([',', ';', '|', '/', '\u{3001}']) {
        let mut n = 0;
        for w in words_of(segment) {
            n += 1;
            prose |= Lists::of(w).on(List::Prose);
        }
        if n > 3 {
            return false;
        }
        if n > 0 {
            first_len = if segments == 0 { n } else { first_len };
            segments += 1;
        }
    }
    segments >= 4 && !prose && (first_len == 1 || segments >= 6)
}

/// Words out of order: a determiner before a function word ("the of"), or a sentence ending
/// on a function word ("lists the").
fn disfluencies(raw: &str, words: &[&str], lists: &[Lists]) -> usize {
    let capitalised = raw
        .split_whitespace()
        .skip(1)
        .filter(|w| {
            // Title case only: "NOT" is emphasis, not a moved word.
            let title = w.starts_with(char::is_uppercase) && w.chars().skip(1).all(|c| !c.is_uppercase());
            let bare = || Lists::of(lowercase(w).trim_matches(|c: char| !c.is_alphanumeric()));
            title && (bare().on(List::Function) || bare().on(List::CapitalisedOpener))
        })
        .count();
    let collisions = lists.windows(2).filter(|p| p[0].on(List::Determiner) && p[1].on(List::Function)).count();
    let bad_end = lists.last().is_some_and(|l| l.on(List::NoEnding) && words.len() >= 3);
    capitalised + collisions + usize::from(bad_end)
}

/// Who a sales pitch speaks for and to.
const PITCH_PRONOUNS: &[&str] = &["our", "we", "us", "your", "you"];

/// Words that open English sentences; capitalised in the middle of one, they were moved.
pub(super) const CAPITALISED_OPENERS: &[&str] =
    &["use", "call", "give", "gets", "lists", "returns", "creates", "an", "if", "for"];

/// Reads `raw` sentence by sentence; see the module comment.
pub fn read(raw: &str, own: &Own) -> Reading {
    let spans = spans(raw);
    // Every sentence lowercased and split first, so that the repeat checks can keep earlier
    // sentences' words (and three-word runs) in sets instead of joining them into strings.
    let lowers: Vec<String> = spans.iter().map(|&(from, to)| raw[from..to].to_lowercase()).collect();
    let mut seen: WordSet<&[&str]> = WordSet::default();
    let mut seen_trigrams: WordSet<&[&str]> = WordSet::default();
    let sentence_words: Vec<Vec<&str>> = lowers.iter().map(|l| tokens(l)).collect();
    let mut kinds: Vec<Option<Dropped>> = Vec::with_capacity(spans.len());
    let mut raw_words = 0;
    let mut weights = Vec::with_capacity(spans.len());
    let (mut latin, mut disfluent) = (0, 0);
    // Later sentences of three words or fewer with nothing concrete in them ("Non-altering."
    // "Nur lesend." "Bounded in size."): in any language, a text made mostly of these is a
    // telegram of labels, not statements.
    let mut terse = vec![false; spans.len()];
    for (k, &(from, to)) in spans.iter().enumerate() {
        let text = &raw[from..to];
        let (lower, words) = (&lowers[k], &sentence_words[k][..]);
        let lists: Vec<Lists> = words.iter().map(|w| Lists::of(w)).collect();
        let weight = word_weight(words);
        raw_words += weight;
        weights.push(weight);
        let trigrams = words.len().saturating_sub(2);
        let known = words.windows(3).filter(|t| seen_trigrams.contains(t)).count();
        let concrete = concrete(text, words, &lists, own);
        // Counted as written: an identifier is one word here, not the two its `_` makes.
        terse[k] =
            k > 0 && text.split_whitespace().count() <= 3 && matches!(concrete, Concrete::No | Concrete::SiblingOnly);
        let kind = if seen.contains(words) || (trigrams >= 3 && 5 * known >= 4 * trigrams) {
            Some(Dropped::Repeat)
        } else {
            classify(text, lower, words, &lists, concrete, own, kinds.iter().all(|k| k.is_some()))
        };
        if kind.is_none() && words.len() >= 4 && text.is_ascii() {
            latin += 1;
            let lower_start = text.trim_start_matches(|c: char| !c.is_alphanumeric()).starts_with(char::is_lowercase);
            let d = disfluencies(text, words, &lists);
            if d >= 2 || (d == 1 && (lower_start || words.len() >= 8)) {
                disfluent += 1;
            }
        }
        seen.insert(words);
        seen_trigrams.extend(words.windows(3));
        kinds.push(kind);
    }
    // Shuffled words show as disfluency in most sentences; then none of them can be trusted.
    let shuffled = disfluent >= 2 && 2 * disfluent >= latin;
    let labels = terse.iter().filter(|t| **t).count();
    let telegram = labels >= 3 && 2 * labels >= spans.len().saturating_sub(1);
    let mut reading = Reading { raw_words, ..Reading::default() };
    let mut last = 0;
    for (k, &(from, to)) in spans.iter().enumerate() {
        let kind =
            kinds[k].or(shuffled.then_some(Dropped::Shuffled)).or((telegram && terse[k]).then_some(Dropped::Fragment));
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

fn classify(
    raw: &str,
    lower: &str,
    words: &[&str],
    lists: &[Lists],
    concrete: Concrete,
    own: &Own,
    first: bool,
) -> Option<Dropped> {
    let heading = words.len() <= 2 && lists.iter().all(|l| l.on(List::Heading));
    if heading && !raw.ends_with(['.', '!', '?']) {
        return None;
    }
    let placeholder = lists.iter().filter(|l| l.on(List::Placeholder)).count();
    if placeholder >= 2 && 10 * placeholder >= 3 * words.len() {
        return Some(Dropped::Placeholder);
    }
    if keyword_list(lower) {
        return Some(Dropped::KeywordList);
    }
    // A part of a sibling's name, when the sentence's only concrete thing is a sibling.
    let sibling_word = |w: &str| concrete == Concrete::SiblingOnly && own.siblings.has_part(w);
    let meta = |l: &Lists| l.on(List::Meta) || l.on(List::Generic) || l.on(List::Hedge) || l.on(List::Stopword);
    let open: Vec<&&str> = words
        .iter()
        .zip(lists)
        .filter(|(w, l)| !meta(l) && (w.len() >= 2 || w.chars().any(is_ideograph)) && !sibling_word(w))
        .map(|(w, _)| w)
        .collect();
    let generic = lists.iter().filter(|l| l.on(List::Generic)).count();
    let hedges = lists.iter().filter(|l| l.on(List::Hedge) && !l.on(List::Generic)).count();
    let own_word = |w: &&&str| {
        let s = stemmed(w);
        own.name_stems.iter().any(|n| *n == *s)
    };
    let new_words = open.iter().filter(|w| !own_word(w)).count();
    // A number with no word for what it measures ("99.9%." "Up to 100." "5 seconds.") says
    // nothing an agent can use.
    if concrete == Concrete::Measure && words.iter().zip(lists).all(|(w, l)| measure(w, *l) || meta(l) || w.len() < 2) {
        return Some(Dropped::Fragment);
    }
    // A sibling's name alone ("Instead use get_x.") names an alternative without saying when.
    let around_sibling = words.iter().filter(|w| !sibling_word(w)).count();
    let is_concrete = matches!(concrete, Concrete::Yes | Concrete::Measure)
        || (concrete == Concrete::SiblingOnly && (new_words >= 1 || around_sibling >= 4));
    if !is_concrete && generic >= 2 && generic >= open.len() {
        return Some(Dropped::Praise);
    }
    // A pitch to a buyer: the author's "our" or the reader's "your" with praise around it.
    let addressed = words.iter().any(|w| PITCH_PRONOUNS.contains(w));
    let praise = lists.iter().filter(|l| l.on(List::Generic) && !l.on(List::Meta)).count();
    if !is_concrete && addressed && praise >= 2 {
        return Some(Dropped::Praise);
    }
    // Hedged all round: "could be affected by various limitations", "the corresponding output".
    if !is_concrete && generic + hedges >= 2 && 2 * (generic + hedges) >= open.len() {
        return Some(Dropped::Hedged);
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

    /// Runs `check` with what a forecast tool owns: its name's stems, a `city` parameter and one
    /// sibling.
    fn with_own(check: impl FnOnce(&Own)) {
        let siblings = SiblingIndex::new(&[JsString::from("get_current_weather")]);
        let (name_stems, params) = (vec!["get".into(), "forecast".into()], vec!["city".into()]);
        check(&Own { name_stems: &name_stems, params: &params, siblings: &siblings.view(None) });
    }

    #[test]
    fn sets_aside_cues_copies_lists_and_filler() {
        with_own(|own| {
            let r = read("Returns. Use when. Rate limit. Instead use get_current_weather.", own);
            // A sibling's name with nothing around it says which tool, not when.
            assert_eq!(r.dropped.len(), 4, "{r:?}");
            assert!(r.content_free());
            let r = read("Returns. For today's conditions, use get_current_weather instead.", own);
            assert_eq!(r.substantive.trim(), "For today's conditions, use get_current_weather instead.");
            let honest = "Gets the 5-day forecast for a city. Temperatures are in Celsius.";
            assert_eq!(read(honest, own).substantive, honest);
            let copies = read(&format!("{honest} {honest}"), own);
            assert_eq!(copies.substantive.trim(), honest);
            let kw = read("Gets the forecast for a city.\nKeywords: weather, rain, wind, returns", own);
            assert_eq!(kw.dropped[0].0, Dropped::KeywordList);
            let praise = read("Gets the forecast for a city. This powerful tool is extremely useful and amazing.", own);
            assert_eq!(praise.dropped[0].0, Dropped::Praise);
            let lorem = read("Gets the forecast. Lorem ipsum dolor sit amet, returns results, use when.", own);
            assert_eq!(lorem.dropped[0].0, Dropped::Placeholder);
            assert!(read("Returns. Use when. Errors.", own).content_free());
        });
    }

    #[test]
    fn sets_aside_hedges_bare_numbers_and_telegrams_of_labels() {
        with_own(|own| {
            let r = read("Gets the forecast for a city. Results could vary depending on several factors.", own);
            assert_eq!(r.dropped.iter().map(|d| d.0).collect::<Vec<_>>(), [Dropped::Hedged], "{r:?}");
            // A number needs a word for what it measures.
            let r = read("Gets the forecast for a city. Up to 100. 99.9%. Timeout 30 seconds.", own);
            assert_eq!(r.substantive.trim(), "Gets the forecast for a city.   Timeout 30 seconds.", "{r:?}");
            // Labels, in any language, when they make up the text.
            let r = read("Liefert die Vorhersage. Nur lesend. Keine Nebenwirkungen. Fehler möglich.", own);
            assert_eq!(r.dropped.len(), 3, "{r:?}");
            // Short statements among sentences are kept, and so are terse ones that measure.
            for honest in [
                "Gets the forecast for a city. Cached hourly. Temperatures are rounded to one decimal.",
                "Fetches the forecast page. Timeout 30 s. Max 5 MB. Follows redirects.",
            ] {
                assert!(read(honest, own).dropped.is_empty(), "{honest}");
            }
        });
    }

    #[test]
    fn keeps_abbreviations_wrapped_lines_and_other_scripts() {
        with_own(|own| {
            let t = "Gets the forecast, e.g. for Paris.\nValues are\nrounded to one decimal.";
            assert_eq!(read(t, own).substantive, t);
            for t in
                ["Ruft die Wettervorhersage für eine Stadt ab.", "获取城市的天气预报。", "يعرض توقعات الطقس لمدينة."]
            {
                assert!(read(t, own).dropped.is_empty(), "{t}");
            }
        });
    }
}
