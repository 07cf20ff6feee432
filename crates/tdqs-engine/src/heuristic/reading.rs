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

use super::meta_talk::{Sentence, around_the_tool};
use super::schema_echo::{Echo, echo_of_schema, whole_text_is_echo};
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
    Question,
    Aside,
    Jargon,
    History,
    Backlog,
    Contact,
    Pointer,
    Story,
    Persona,
    Figure,
    Plumbing,
    Echo,
    Pitch,
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
            Dropped::Question => "is a question, not a statement",
            Dropped::Aside => "speaks of neither the tool nor its inputs",
            Dropped::Jargon => "is buzzwords strung together",
            Dropped::History => "is release history, not behaviour",
            Dropped::Backlog => "is a backlog note, not behaviour",
            Dropped::Contact => "says who looks after the tool, not what it does",
            Dropped::Pointer => "points to documentation elsewhere instead of saying",
            Dropped::Story => "tells how the tool came to be, not what it does",
            Dropped::Persona => "tells the agent how to behave, not what the tool does",
            Dropped::Figure => "is a figure of speech, not a fact",
            Dropped::Plumbing => "says how the tool is built, not what it does",
            Dropped::Echo => "only says the input schema again",
            Dropped::Pitch => "sells the tool or describes its server, not what the tool does",
        }
    }
}

/// What the tool's own definition makes concrete: its parameters and sibling tools.
pub struct Own<'a> {
    pub name_stems: &'a [String],
    /// Stems of the words the definition is made of ([`super::grounding::own_words`]).
    pub words: &'a [String],
    pub params: &'a [String],
    pub siblings: &'a SiblingView<'a>,
}

impl Own<'_> {
    /// Whether `word`, in any form, is one of the tool's name's words.
    pub fn of_name(&self, word: &str) -> bool {
        let s = stemmed(word);
        self.name_stems.iter().any(|n| super::grounding::akin(n, &s))
    }
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

    /// Share of the description's words (0-100) set aside for any reason but repetition:
    /// filler, asides, praise, cues without facts. Copies are counted against conciseness only.
    pub fn padding_percent(&self) -> usize {
        let padding: usize = self
            .dropped
            .iter()
            .filter(|(kind, _)| *kind != Dropped::Repeat)
            .map(|(_, text)| text.split_whitespace().count())
            .sum();
        (100 * padding).checked_div(self.raw_words).unwrap_or(0).min(100)
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
        } else if lower.contains('_')
            || inner_caps
            || acronym
            || own.params.iter().any(|p| p == lower && named_apart(p))
        {
            return Concrete::Yes;
        }
    }
    if words.iter().zip(lists).any(|(w, l)| measure(w, *l)) {
        return Concrete::Measure;
    }
    if sibling { Concrete::SiblingOnly } else { Concrete::No }
}

/// A parameter whose name is also a common word ("to", "for", "in") is not named by using
/// the word: only a longer name, or one on no function-word list, is.
fn named_apart(param: &str) -> bool {
    param.len() >= 3 && !Lists::of(param).on(List::Stopword) && !Lists::of(param).on(List::Function)
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

/// A sales line: six or more comma-separated items, two thirds of them short, with praise
/// among them ("Best-in-class shipping for ecommerce, logistics, cheap postage, ...").
fn sales_list(lower: &str, praise: usize) -> bool {
    let (mut segments, mut short) = (0, 0);
    for segment in lower.split([',', ';', '|', '\u{3001}']) {
        let n = words_of(segment).count();
        if n > 0 {
            segments += 1;
            short += usize::from(n <= 4);
        }
    }
    segments >= 6 && 3 * short >= 2 * segments && praise >= 2
}

/// A line that opens with a version or a date and a separator: a changelog entry.
fn release_note(raw: &str) -> bool {
    let mut parts = raw.splitn(2, char::is_whitespace);
    let head = parts.next().unwrap_or("").trim_start_matches(['-', '*', '#', '[']).trim_end_matches([']', ':']);
    let head = head.strip_prefix(['v', 'V']).unwrap_or(head);
    let numbered = head.split(['.', '-']).filter(|p| !p.is_empty()).all(|p| p.bytes().all(|b| b.is_ascii_digit()));
    let dotted = head.matches(['.', '-']).count() >= 1 && head.starts_with(|c: char| c.is_ascii_digit());
    let rest = parts.next().unwrap_or("").trim_start();
    numbered && dotted && (rest.starts_with(['-', ':', '\u{2013}', '\u{2014}']) || raw.contains(':'))
}

/// Buzzwords strung together: three or more hyphenated modifiers ("carrier-agnostic",
/// "cloud-native") with praise among them, making a quarter of the sentence.
fn jargon(raw: &str, words: usize, praise: usize) -> bool {
    let compounds = raw
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|w| {
            let mut parts = w.split('-');
            w.contains('-') && parts.all(|p| p.len() >= 2 && p.chars().all(char::is_alphabetic))
        })
        .count();
    compounds >= 3 && praise >= 1 && 4 * (compounds + praise) >= words
}

/// How a sentence about the tool itself opens, in the languages filler is written in.
const SELF_REFERENCES: &[&str] = &[
    "this tool",
    "esta herramienta",
    "dieses werkzeug",
    "dieses tool",
    "cet outil",
    "questo strumento",
    "esta ferramenta",
    "narzędzie to",
    "to narzędzie",
    "bu araç",
    "công cụ này",
    "этот инструмент",
    "цей інструмент",
    "deze tool",
    "dit hulpmiddel",
    "alat ini",
    "tämä työkalu",
    "detta verktyg",
    "dette værktøj",
    "ten nástroj",
];

/// Terms rather than behaviour ("The provider disclaims all liability for decisions made on
/// the basis of this information."): two or more hedges or legal words, none of the
/// definition's own words, nothing concrete.
fn boilerplate(raw: &str, words: &[&str], lists: &[Lists], concrete: Concrete, own: &Own) -> bool {
    let hedges = lists.iter().filter(|l| l.on(List::Hedge)).count();
    hedges >= 2 && concrete != Concrete::Yes && !owned(words, own) && !raw.chars().any(|c| c.is_ascii_digit())
}

/// Placeholder text said in a phrase, in the languages tool descriptions come in: "Descripción
/// pendiente", "Dieser Text ist ein Platzhalter", "A completar", "to be documented".
const PLACEHOLDER_PHRASES: &[&str] = &[
    "placeholder text",
    "placeholder description",
    "this is a placeholder",
    "to be documented",
    "description to follow",
    "description pending",
    "platzhalter",
    "hier steht die",
    "folgen in kürze",
    "folgt in kürze",
    "wird ersetzt",
    "beschreibung einfügen",
    "descripción pendiente",
    "marcador de posición",
    "texto de relleno",
    "se reemplazará",
    "agregue aquí",
    "por definir",
    "texto de exemplo",
    "texto de preenchimento",
    "espaço reservado",
    "redação final",
    "adicionado posteriormente",
    "texte provisoire",
    "espace réservé",
    "description à venir",
    "segnaposto",
    "descrizione in arrivo",
    "tijdelijke tekst",
    "plaatshouder",
    "占位",
    "待补充",
    "プレースホルダー",
    "準備中",
];

/// Placeholder text that is a whole sentence: "A completar." "TBD."
const PLACEHOLDER_SENTENCES: &[&str] = &[
    "a completar",
    "por completar",
    "por completar por el equipo responsable",
    "à compléter",
    "da completare",
    "tbd",
    "todo",
    "coming soon",
    "em breve",
    "próximamente",
    "demnächst",
];

/// Words every HTTP API's documentation uses, whatever the API does.
const API_BOILERPLATE: &[&str] = &[
    "json",
    "response",
    "responses",
    "status",
    "code",
    "codes",
    "ok",
    "success",
    "successful",
    "failure",
    "fails",
    "error",
    "errors",
    "object",
    "invalid",
    "input",
    "inputs",
    "missing",
    "authentication",
    "unauthorized",
    "permissions",
    "permission",
    "insufficient",
    "forbidden",
    "server",
    "timeout",
    "timeouts",
    "result",
    "results",
    "http",
    "request",
    "requests",
    "backoff",
    "exponential",
    "retry",
    "retries",
    "common",
    "include",
    "includes",
    "returned",
    "returns",
    "return",
    "not",
    "found",
    "rate",
    "limited",
    "internal",
    "bad",
    "message",
    "field",
    "fields",
    "4xx",
    "5xx",
    "2xx",
    "handled",
    "gracefully",
    "standard",
    "conventions",
    "parameters",
    "arguments",
    "passed",
    "accepted",
    "payload",
    "body",
    "format",
];

/// A sentence of nothing but HTTP boilerplate ("Common errors include invalid input, missing
/// authentication and server errors. Timeouts result in a 504."): it would say the same of any
/// API, so it says nothing of this one. One word of the tool's domain ("If no airport matches,
/// it fails with a not-found error") makes it this tool's error case.
fn generic_api(words: &[&str], lists: &[Lists], own: &Own) -> bool {
    let status =
        |w: &str| w.len() == 3 && w.bytes().all(|b| b.is_ascii_digit()) && (b'1'..=b'5').contains(&w.as_bytes()[0]);
    let mut content = words
        .iter()
        .zip(lists)
        .filter(|(_, l)| !l.on(List::Stopword) && !l.on(List::Function) && !l.on(List::Determiner))
        .map(|(w, _)| *w)
        .peekable();
    // A line of an endpoint's own error table ("400: Bad request", as OpenAPI-made servers
    // list them) names a status this endpoint answers with: it stays.
    if content.peek().is_none_or(|w| status(w)) {
        return false;
    }
    let mut count = 0;
    let all_boiler = content.all(|w| {
        count += 1;
        API_BOILERPLATE.contains(&w) || status(w)
    });
    // The name's own words keep it ("Returns the HTTP status code" for `get_status_code`); a
    // parameter's do not, when they are these very words (`status`, `code`).
    all_boiler && count >= 3 && !words.iter().any(|w| own.of_name(w))
}

/// Whether a sentence uses one of the definition's own words (in any form).
fn owned(words: &[&str], own: &Own) -> bool {
    words.iter().any(|w| {
        let s = stemmed(w);
        own.words.iter().chain(own.name_stems).any(|o| super::grounding::akin(o, &s))
    })
}

/// The cue words an agent acts on (the actionable part of [`super::filler::META`]: not "way",
/// "many" or "help"); looked up through [`List::Actionable`].
pub(super) const ACTIONABLE: &[&str] = &[
    "return",
    "returns",
    "returned",
    "use",
    "used",
    "when",
    "whenever",
    "instead",
    "rather",
    "avoid",
    "prefer",
    "only",
    "read",
    "write",
    "readonly",
    "idempotent",
    "side",
    "effects",
    "safe",
    "rate",
    "limit",
    "limits",
    "limited",
    "auth",
    "authentication",
    "authenticated",
    "authorization",
    "permission",
    "permissions",
    "pagination",
    "paginated",
    "page",
    "pages",
    "error",
    "errors",
    "failure",
    "failures",
    "fail",
    "fails",
    "example",
    "examples",
    "output",
    "outputs",
    "result",
    "results",
    "response",
    "responses",
    "input",
    "inputs",
    "parameter",
    "parameters",
    "argument",
    "arguments",
    "option",
    "options",
    "value",
    "values",
    "call",
    "calls",
    "request",
    "requests",
    "destructive",
    "reversible",
    "irreversible",
    "permanent",
    "permanently",
    "never",
    "always",
    "must",
    "required",
    "requires",
    "optional",
    "default",
    "defaults",
    "format",
    "formats",
    "before",
    "after",
    "unless",
    "until",
];

/// A later sentence of a longer description that speaks of neither the tool nor its inputs:
/// none of the definition's own words, nothing concrete, no cue an agent acts on, and praise
/// or hedges in it ("Many teams rely on it every day as their needs change over time.").
fn aside(raw: &str, words: &[&str], lists: &[Lists], concrete: Concrete, own: &Own) -> bool {
    if concrete == Concrete::Yes || concrete == Concrete::SiblingOnly || raw.chars().any(|c| c.is_ascii_digit()) {
        return false;
    }
    let vague = lists.iter().filter(|l| l.on(List::Generic) || l.on(List::Hedge)).count();
    let cue = lists.iter().any(|l| l.on(List::Actionable));
    vague >= 1 && !cue && !owned(words, own) && raw.is_ascii()
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
    let mut self_praise = false;
    // The sentences kept so far, with what [`echo_of_schema`] finds in them; none once one
    // of them has words of its own.
    let mut echoes: Option<Vec<(usize, Echo)>> = Some(Vec::new());
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
        // "Esta herramienta realiza la operación ... de manera eficiente. Está diseñada para
        // ...": sentences about the tool itself, in any language, with praise in them and
        // nothing concrete; once one opened so, the next ones in another script than ASCII go
        // with it.
        let praised = concrete != Concrete::Yes && lists.iter().any(|l| l.on(List::Generic));
        let about_itself = SELF_REFERENCES.iter().any(|r| lower.starts_with(r)) || (self_praise && !text.is_ascii());
        self_praise = praised && about_itself;
        let kind = if seen.contains(words) || (trigrams >= 3 && 5 * known >= 4 * trigrams) {
            Some(Dropped::Repeat)
        } else if self_praise {
            Some(Dropped::Praise)
        } else if let Some(kind) = around_the_tool(
            &Sentence {
                raw: text,
                lower: lower.trim_start_matches(|c: char| !c.is_alphanumeric()),
                words,
                lists: &lists,
                previous: kinds.last().copied().flatten(),
            },
            own,
        ) {
            Some(kind)
        } else {
            classify(text, lower, words, &lists, concrete, own, kinds.iter().all(|k| k.is_some()))
                .or_else(|| {
                    (k > 0 && spans.len() >= 4 && aside(text, words, &lists, concrete, own)).then_some(Dropped::Aside)
                })
                .or_else(|| boilerplate(text, words, &lists, concrete, own).then_some(Dropped::Hedged))
        };
        if kind.is_none() && words.len() >= 4 && text.is_ascii() {
            latin += 1;
            let lower_start = text.trim_start_matches(|c: char| !c.is_alphanumeric()).starts_with(char::is_lowercase);
            let d = disfluencies(text, words, &lists);
            if d >= 2 || (d == 1 && (lower_start || words.len() >= 8)) {
                disfluent += 1;
            }
        }
        if kind.is_none()
            && let Some(kept) = echoes.as_mut()
        {
            match echo_of_schema(text, own) {
                Some(echo) => kept.push((k, echo)),
                None => echoes = None,
            }
        }
        seen.insert(words);
        seen_trigrams.extend(words.windows(3));
        kinds.push(kind);
    }
    if let Some(echoes) = echoes {
        let kept: Vec<Echo> = echoes.iter().map(|e| e.1).collect();
        if whole_text_is_echo(&kept) {
            for (k, _) in echoes {
                kinds[k] = Some(Dropped::Echo);
            }
        }
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
    let bare = lower.trim_matches(|c: char| !c.is_alphanumeric());
    if concrete != Concrete::Yes
        && (PLACEHOLDER_PHRASES.iter().any(|p| lower.contains(p)) || PLACEHOLDER_SENTENCES.contains(&bare))
    {
        return Some(Dropped::Placeholder);
    }
    if generic_api(words, lists, own) {
        return Some(Dropped::Aside);
    }
    let generic = lists.iter().filter(|l| l.on(List::Generic)).count();
    if keyword_list(lower) || sales_list(lower, generic) {
        return Some(Dropped::KeywordList);
    }
    // "v2.4.1 - Fixed a minor issue.": what changed once, not what the tool does now.
    if release_note(raw) {
        return Some(Dropped::History);
    }
    // (Capitals inside a compound, "AI-driven", make it look like an identifier; code, quotes
    // and numbers do not come with buzzwords.)
    if jargon(raw, lists.len(), generic) && !raw.contains(['`', '"', '_']) && !raw.chars().any(|c| c.is_ascii_digit()) {
        return Some(Dropped::Jargon);
    }
    // A question asks; the answer, if any, is the next sentence ("Need a label? ...").
    if raw.ends_with(['?', '\u{ff1f}', '\u{61f}']) && concrete != Concrete::Yes {
        return Some(Dropped::Question);
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
        check(&Own { name_stems: &name_stems, words: &[], params: &params, siblings: &siblings.view(None) });
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
