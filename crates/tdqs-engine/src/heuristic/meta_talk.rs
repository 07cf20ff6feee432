//! Sentences about everything around a tool but the tool: the backlog item it came from, who
//! looks after it, where its documentation lives, the story of how it came to be, the persona
//! an agent should put on, how it is built, and what it is like. Each reads fluently and uses
//! the tool's own words, so neither the filler checks nor the grounding test set it aside; but
//! none tells an agent what the tool does, when to call it or what comes back. A model judge
//! gives such text nothing, and so does the reader: these sentences go where filler goes.
//!
//! Each kind is recognised by how such sentences are built (an opening formula, a frame, a
//! handful of words that only that kind of text uses together), never by one word alone; a
//! sentence that names one of the tool's parameters or siblings by identifier, or holds a code
//! span, is about the tool and always stays, and so does one that opens with a verb in the
//! third person ("Updates the contact ..."). A sentence right after one of a kind needs less to
//! count as the same kind, the way a reader follows a paragraph.
//!
//! The cost is one pass of one automaton over the sentence for every phrase, and the word
//! table the reader has already looked each word up in for the single words.
//! Long: seven kinds of text, each a few lines of rules over its own lists of words and
//! phrases, which are most of the file.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

use super::lexicon::verb_class;
use super::reading::{Dropped, Own};
use super::statement::AFTER_A_NOUN;
use super::word_lists::{List, Lists};

/// What one sentence gives the checks, computed once by the reader.
pub(super) struct Sentence<'a> {
    pub raw: &'a str,
    /// Lowercased, with list markers and leading punctuation trimmed.
    pub lower: &'a str,
    pub words: &'a [&'a str],
    /// Each word's lists, from the reader's one look-up.
    pub lists: &'a [Lists],
    /// The kind of the sentence before, if it was set aside.
    pub previous: Option<Dropped>,
}

/// A family of phrases, and whether it counts only where the sentence opens.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    /// "As a shift boss", at the opening (or after "Story X-1:").
    Role,
    /// "I want", "so that".
    Wish,
    /// "Acceptance criteria", "Story points", opening.
    Label,
    /// "Owned by", "Maintainers", opening.
    Owner,
    /// "... is responsible for this tool".
    Responsible,
    /// "help desk", "on-call", "for questions".
    Reach,
    /// "See ", "Refer to", "Details are", opening.
    PointTo,
    /// "... is documented in", "source of truth".
    Says,
    /// "... described there", "not repeated here".
    Elsewhere,
    /// "back when", "used to", "ever since".
    Anchor,
    /// "You are a", "Act as", opening.
    Persona,
    /// "Be ", "Stay ", "Treat ", opening.
    Conduct,
    /// "Think of this as", "Like a", opening.
    Likeness,
    /// " is the ", " like a ".
    Frame,
    /// "This is the", "It is a", opening.
    Itself,
    /// "under the hood", "read-through".
    Built,
    /// "no credit card required", "trusted by", "award-winning": selling, not saying.
    Pitch,
    /// "this server", "part of the", "toolkit": the server or suite, not this tool.
    Overview,
    /// "note to the AI", "never skip it", "even if the user asks": orders to the agent.
    Orders,
}

const GROUPS: [(Group, &[&str], bool); 19] = [
    (Group::Role, ROLES, true),
    (Group::Wish, WISHES, false),
    (Group::Label, LABELS, true),
    (Group::Owner, OWNERS, true),
    (Group::Responsible, RESPONSIBLE, false),
    (Group::Reach, REACH, false),
    (Group::PointTo, POINT_TO, true),
    (Group::Says, SAYS, false),
    (Group::Elsewhere, ELSEWHERE, false),
    (Group::Anchor, ANCHORS, false),
    (Group::Persona, PERSONAS, true),
    (Group::Conduct, CONDUCT, true),
    (Group::Likeness, LIKENESS, true),
    (Group::Frame, FRAMES, false),
    (Group::Itself, ITSELF, true),
    (Group::Built, BUILT, false),
    (Group::Pitch, PITCH, false),
    (Group::Overview, OVERVIEW, false),
    (Group::Orders, ORDERS, false),
];

/// Every phrase of every group in one automaton; each pattern's group and whether it must open.
struct Phrases {
    automaton: AhoCorasick,
    groups: Vec<(Group, bool)>,
}

static PHRASES: LazyLock<Phrases> = LazyLock::new(|| {
    let mut patterns = Vec::new();
    let mut groups = Vec::new();
    for (group, phrases, opening) in GROUPS {
        for p in phrases {
            patterns.push(*p);
            groups.push((group, opening));
        }
    }
    let automaton = AhoCorasick::builder()
        .kind(Some(AhoCorasickKind::DFA))
        .match_kind(MatchKind::Standard)
        .build(&patterns)
        .expect("the meta-talk phrases build an automaton");
    Phrases { automaton, groups }
});

/// The groups found in one sentence, and how many phrases of the counted ones.
#[derive(Default)]
struct Found {
    groups: u32,
    reach: usize,
    built: usize,
}

impl Found {
    fn of(lower: &str, role_from: usize) -> Found {
        let phrases = &*PHRASES;
        let mut found = Found::default();
        for m in phrases.automaton.find_overlapping_iter(lower) {
            let (group, opening) = phrases.groups[m.pattern().as_usize()];
            let at_start = m.start() == 0 || (group == Group::Role && m.start() == role_from);
            if opening && !at_start {
                continue;
            }
            found.groups |= 1 << group as u32;
            found.reach += usize::from(group == Group::Reach);
            found.built += usize::from(group == Group::Built);
        }
        found
    }

    fn has(&self, group: Group) -> bool {
        self.groups & (1 << group as u32) != 0
    }
}

/// The kind of text around the tool this sentence is, if it is one.
pub(super) fn around_the_tool(s: &Sentence, own: &Own) -> Option<Dropped> {
    if cites_own(s, own) {
        return None;
    }
    // "Story PETS-88: As a pet owner ..." is read from the role on.
    let role_from = match s.lower.split_once(':') {
        Some((head, rest)) if head.starts_with("story") && head.split_whitespace().count() <= 3 => {
            s.lower.len() - rest.trim_start().len()
        }
        _ => 0,
    };
    let found = Found::of(s.lower, role_from);
    // Orders to the agent and sales talk are what they are whatever verb opens them ("Call it
    // after every message", "Checks domains in seconds, loved by creators").
    if found.has(Group::Orders) {
        return Some(Dropped::Persona);
    }
    if found.has(Group::Pitch) || joins_a_crowd(s.lower) {
        return Some(Dropped::Pitch);
    }
    if states_an_action(s.words) {
        return None;
    }
    let named = s.words.iter().any(|w| own.of_name(w));
    let on = |list: List| s.lists.iter().filter(|l| l.on(list)).count();
    // A word an agent acts on ("must", "never", "error"), unless it is the name's ("call" in
    // `publish_call_sheet`).
    let actionable = s.words.iter().zip(s.lists).any(|(w, l)| l.on(List::Actionable) && !own.of_name(w));
    let after = |kind: Dropped| s.previous == Some(kind);

    // "Welcome to the Acme MCP server!", "Part of the CRM Toolkit", "Install the toolkit with
    // npm": the server or the suite, which says nothing of what this tool does.
    if found.has(Group::Overview) && (!actionable || after(Dropped::Pitch)) {
        return Some(Dropped::Pitch);
    }

    // "As a shift boss I want ... so that ...", "Story points: 3", "Definition of done: ...".
    let planning = on(List::Planning);
    let role = found.has(Group::Role) && (found.has(Group::Wish) || after(Dropped::Backlog));
    let label = found.has(Group::Label) && (after(Dropped::Backlog) || !named);
    if role || label || (after(Dropped::Backlog) && planning >= 1) || planning >= 2 {
        return Some(Dropped::Backlog);
    }

    // "Owned by the MRO Digital squad", "For questions ping #help on Slack". A channel the tool
    // itself is about (`update_contact`, a parameter `email`) is its resource, not a contact.
    if found.has(Group::Owner) || found.has(Group::Responsible) {
        return Some(Dropped::Contact);
    }
    let mut channels: Vec<&str> = s
        .words
        .iter()
        .zip(s.lists)
        .filter(|(w, l)| l.on(List::Channel) && !own.of_name(w) && !own.params.iter().any(|p| p == *w))
        .map(|(w, _)| *w)
        .collect();
    channels.dedup();
    let cues = channels.len() + found.reach + usize::from(has_address(s.raw));
    if (cues >= 2 && !named) || cues >= 3 || (after(Dropped::Contact) && cues >= 1) {
        return Some(Dropped::Contact);
    }

    // "See the runbook for a full explanation", "Details are in the API reference", and after
    // one, "... are described there and are not repeated here".
    let docs = on(List::Docs);
    let points = docs >= 1 && (found.has(Group::PointTo) || found.has(Group::Says));
    if points || (after(Dropped::Pointer) && (docs >= 1 || found.has(Group::Elsewhere))) {
        return Some(Dropped::Pointer);
    }

    // "Back when the practice ran on a paper diary ...", "In the winter of 2017 ...". With a
    // time to anchor it, any verb in "-ed" tells the past ("handled"); an action in the present
    // ("returns", "is") means the sentence also says what the tool does now.
    let past = on(List::Past);
    let regular = s.words.iter().filter(|w| w.len() > 4 && w.ends_with("ed")).count();
    let year = s.words.windows(2).any(|p| {
        matches!(p[0], "in" | "since" | "of")
            && p[1].len() == 4
            && (p[1].starts_with("19") || p[1].starts_with("20"))
            && p[1].bytes().all(|b| b.is_ascii_digit())
    });
    let anchored = year || found.has(Group::Anchor);
    let now = on(List::Now);
    if (anchored && past + regular >= 1) || (past >= 2 && now == 0) || (after(Dropped::Story) && past >= 2) {
        return Some(Dropped::Story);
    }

    // "You are a meticulous assistant", "Act as a caring receptionist"; then conduct: "Be warm
    // and reassuring", "Stay focused, be thorough".
    let tone = on(List::Tone);
    let conduct = found.has(Group::Conduct) && (tone >= 2 || (!named && (tone >= 1 || after(Dropped::Persona))));
    if found.has(Group::Persona) || conduct {
        return Some(Dropped::Persona);
    }

    // "This tool is a compass for goods crossing borders", "Like a well-tuned stethoscope".
    let images = on(List::Image);
    let frame = found.has(Group::Frame) || found.has(Group::Itself);
    let figure = found.has(Group::Likeness)
        || (frame && (images >= 2 || (images == 1 && !actionable)))
        || (found.has(Group::Itself) && !named && !actionable)
        || (after(Dropped::Figure) && images >= 1);
    if figure {
        return Some(Dropped::Figure);
    }

    // "Calls go through the parts-gateway service, which fans out to a Redis cache". A tool
    // about infrastructure (`k8s_apply_manifest`, a `cluster` parameter) speaks of it as its
    // resource.
    if own.name_stems.iter().chain(own.words).any(|w| Lists::of(w).on(List::Parts)) {
        return None;
    }
    let parts = on(List::Parts) + found.built;
    (parts >= 3 || (parts >= 2 && !named) || (after(Dropped::Plumbing) && parts >= 1)).then_some(Dropped::Plumbing)
}

/// A code span, a parameter's identifier or a sibling's name: the sentence is about this tool.
/// (A parameter named with a plain word, `shift` or `email`, is also just a word.)
fn cites_own(s: &Sentence, own: &Own) -> bool {
    s.raw.contains('`')
        || s.raw.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|w| {
            w.contains('_') && {
                let lower = w.to_lowercase();
                own.params.contains(&lower) || own.siblings.has_name(&lower)
            }
        })
}

/// A sentence that opens with a verb in the third person ("Updates the contact ...", "Lists
/// ...") says what the tool does, whatever else it mentions. ("Calls go through ..." opens
/// with a noun: a verb follows it.)
fn states_an_action(words: &[&str]) -> bool {
    let [first, second, ..] = words else { return false };
    first.ends_with('s') && verb_class(first).is_some() && !AFTER_A_NOUN.contains(second)
}

/// An address to write to: "x@y", "#channel", "@handle".
fn has_address(raw: &str) -> bool {
    raw.split_whitespace().any(|w| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '@' && c != '#');
        (w.starts_with('#') || w.contains('@')) && w.chars().filter(|c| c.is_alphanumeric()).count() >= 3
    })
}

const ROLES: &[&str] = &["as a ", "as an ", "as the ", "as our ", "as crew", "as staff"];
const WISHES: &[&str] = &[" i want", " i would like", " i'd like", " i need", " we want", " we need", "so that"];
const LABELS: &[&str] = &[
    "acceptance",
    "definition of done",
    "done when",
    "story points",
    "story point",
    "estimate:",
    "priority:",
    "sprint ",
    "epic:",
    "refinement",
    "labels:",
    "notes:",
];
const OWNERS: &[&str] = &[
    "owned by",
    "maintained by",
    "supported by",
    "looked after by",
    "built and looked after by",
    "built and maintained by",
    "run by",
    "managed by",
    "maintainer",
    "code owner",
    "codeowners",
    "product owner",
    "technical lead",
    "tech lead",
    "architect:",
    "owner:",
    "point of contact",
    "contact:",
];
const RESPONSIBLE: &[&str] =
    &[" is owned by", " are owned by", " is maintained by", " are maintained by", "responsible for this"];
const REACH: &[&str] = &[
    "on-call",
    "on call",
    "oncall",
    "help desk",
    "service desk",
    "help line",
    "help portal",
    "reach out",
    "hit us up",
    "support hours",
    "business hours",
    "working days",
    "out-of-hours",
    "out of hours",
    "on duty",
    "duty manager",
    "on rotation",
    "best effort",
    "for help",
    "for questions",
    "for assistance",
    "report problems",
    "report issues",
];
const POINT_TO: &[&str] = &[
    "see ",
    "please see",
    "refer to",
    "please refer",
    "consult ",
    "please consult",
    "please read",
    "please follow",
    "please check",
    "check the ",
    "for details",
    "for more details",
    "for more information",
    "for more info",
    "for semantics",
    "for usage",
    "for full",
    "full usage notes",
    "full details",
    "details are",
    "everything you need to know",
    "all you need to know",
];
const SAYS: &[&str] = &[
    " is documented in",
    " are documented in",
    " is described in",
    " are described in",
    " is explained in",
    " are explained in",
    " explains ",
    "source of truth",
    " live in the",
    " lives in the",
];
const ELSEWHERE: &[&str] = &[" there", "elsewhere", "not repeated here", " attached ", "up to date"];
const ANCHORS: &[&str] = &[
    "back when",
    "used to",
    "for years",
    "years ago",
    "it started",
    "it all started",
    "was born",
    "in the early days",
    "originally",
    "the next season",
    "the next year",
    "ever since",
    "one day",
    "one memorable",
    "in the winter of",
    "in the summer of",
    "in the spring of",
    "in the autumn of",
    "a decade",
    "the first prototype",
    "the first version",
    "here we are",
    "took over",
    "never again",
    "once upon",
    "the rest is history",
    "was created in",
    "was written in",
    "was built in",
];
const PERSONAS: &[&str] = &[
    "you are a ",
    "you are an ",
    "you're a ",
    "you're an ",
    "act as ",
    "act like ",
    "behave like ",
    "behave as ",
    "think like ",
    "approach every ",
    "approach each ",
    "be the kind",
    "be the sort",
    "pretend ",
    "imagine you",
    "your role is",
    "your job is",
    "play the role",
    "play fair",
    "take on the role",
    "adopt the",
];
const CONDUCT: &[&str] = &[
    "be ",
    "always be",
    "stay ",
    "remain ",
    "keep ",
    "maintain ",
    "treat ",
    "respect ",
    "encourage ",
    "communicate ",
    "double-check ",
    "work carefully",
    "consider all",
    "respond ",
    "speak ",
    "show ",
    "go the extra",
    "take pride",
    "make sure your",
    "anticipate ",
    "safety first",
];
const LIKENESS: &[&str] =
    &["think of this as", "think of it as", "think of the", "picture the", "picture this", "like a ", "like an "];
const FRAMES: &[&str] = &[" is the ", " is a ", " is an ", " like a ", " like an ", " as a ", "steady as"];
const ITSELF: &[&str] = &[
    "this is the ",
    "this is a ",
    "this is an ",
    "this tool is the ",
    "this tool is a ",
    "this tool is an ",
    "it is the ",
    "it is a ",
];
const PITCH: &[&str] = &[
    "start now",
    "get started",
    "sign up",
    "no credit card",
    "free trial",
    "trusted by",
    "award-winning",
    "award winning",
    "welcome to",
    "the right place",
    "never been easier",
    "contributions are welcome",
    "ready to go",
    "best-in-class",
    "world-class",
    "industry-leading",
    "powered by our",
    "try it today",
    "try the best",
    "today!",
    "loved by",
    "#1 ",
    "don't wait",
    "made simple",
    "fortune 500",
    "fortune 1000",
    "uptime sla",
    "24/7 support",
    "their productivity",
    "our customers",
    "secure your brand",
    "looking for the best",
];
const OVERVIEW: &[&str] = &[
    "this server",
    "the server provides",
    "mcp server provides",
    "part of the",
    "toolkit",
    "collection of tools",
    "install the",
    "open source",
    "our github",
    "works with claude",
    "works with chatgpt",
    "all tools share",
    "full list of",
];
const ORDERS: &[&str] = &[
    "note to the ai",
    "note to the model",
    "note to the assistant",
    "note to the llm",
    "note to the agent",
    "this tool is mandatory",
    "never skip",
    "even if the user asks",
    "after every message",
    "before every message",
    "after every user message",
    "required by policy",
];

/// "Join 50,000+ developers", "join thousands of teams": a crowd to join, not a fact. ("Joins
/// two tables", "an inner join on `id`" are not.)
fn joins_a_crowd(lower: &str) -> bool {
    lower.match_indices("join ").any(|(at, _)| {
        let next = lower[at + 5..].split_whitespace().next().unwrap_or("");
        (at == 0 || !lower[..at].ends_with("inner ") && !lower[..at].ends_with("outer "))
            && (next.starts_with(|c: char| c.is_ascii_digit())
                || ["thousands", "millions", "over", "more", "our"].contains(&next))
    })
}

const BUILT: &[&str] = &[
    "under the hood",
    "behind the scenes",
    "implemented as",
    "written in",
    "built on",
    "api gateway",
    "circuit breaker",
    "read-through",
    "write-through",
    "fans out",
    "stream processor",
    "under load",
    "message queue",
    "worker that",
    "service mesh",
    "handled by",
    "running on",
];

// Single words, looked up through the reader's word table (`super::word_lists`).

pub(super) const PLANNING: &[&str] =
    &["sprint", "stakeholders", "spike", "spikes", "backlog", "refinement", "grooming", "epic", "acceptance"];
pub(super) const CHANNELS: &[&str] = &[
    "slack",
    "discord",
    "jira",
    "servicenow",
    "pagerduty",
    "opsgenie",
    "whatsapp",
    "escalation",
    "escalations",
    "escalate",
    "helpdesk",
    "ping",
    "ticket",
    "incidents",
    "contact",
    "email",
    "phone",
    "extension",
];
pub(super) const DOCS: &[&str] = &[
    "docs",
    "documentation",
    "documented",
    "handbook",
    "manual",
    "runbook",
    "wiki",
    "confluence",
    "notion",
    "sharepoint",
    "guide",
    "kb",
    "article",
    "readme",
    "portal",
    "intranet",
    "faq",
    "walkthrough",
    "loom",
    "reference",
    "pdf",
    "chapter",
    "appendix",
    "section",
    "page",
    "drive",
    "post",
];
pub(super) const PAST: &[&str] = &[
    "was",
    "were",
    "had",
    "got",
    "grew",
    "drove",
    "wrote",
    "took",
    "gave",
    "went",
    "fell",
    "froze",
    "ran",
    "spent",
    "began",
    "came",
    "said",
    "became",
    "lost",
    "asked",
    "offered",
    "retired",
    "moved",
    "shipped",
    "crashed",
    "pitched",
    "decided",
    "invested",
    "funded",
    "collected",
    "scribbled",
    "photographed",
    "passed",
    "started",
    "followed",
    "designed",
    "wanted",
    "tried",
    "broke",
    "launched",
    "founded",
    "hired",
    "quit",
    "understood",
    "realised",
    "realized",
    "missing",
    "built",
    "made",
    "found",
    "saw",
    "thought",
    "knew",
    "left",
    "brought",
    "bought",
    "sold",
    "told",
    "kept",
    "held",
];
pub(super) const NOW: &[&str] = &["is", "are", "returns", "does", "can", "will", "must"];
pub(super) const TONE: &[&str] = &[
    "warm",
    "kind",
    "gracious",
    "grateful",
    "polite",
    "friendly",
    "courteous",
    "respectful",
    "professional",
    "professionally",
    "empathetic",
    "patient",
    "calm",
    "honest",
    "thorough",
    "diligent",
    "precise",
    "objective",
    "impartial",
    "fair",
    "vigilant",
    "methodical",
    "meticulous",
    "reassuring",
    "focused",
    "careful",
    "carefully",
    "clearly",
    "courteously",
    "welcoming",
    "tone",
];
pub(super) const IMAGES: &[&str] = &[
    "heart",
    "heartbeat",
    "lifeblood",
    "compass",
    "lighthouse",
    "bridge",
    "harbour",
    "harbor",
    "river",
    "symphony",
    "drum",
    "lantern",
    "bugle",
    "megaphone",
    "whistle",
    "handshake",
    "bookmark",
    "stethoscope",
    "encyclopedia",
    "companion",
    "door",
    "gate",
    "journey",
    "road",
    "magic",
    "superpower",
    "backbone",
    "beacon",
    "oracle",
    "orchestra",
    "conductor",
    "trophy",
    "arena",
    "nod",
    "promise",
    "rhythm",
    "soul",
    "canvas",
    "tapestry",
    "fog",
    "stream",
    "spark",
    "treasure",
    "gem",
    "key",
];
pub(super) const PARTS: &[&str] = &[
    "kafka",
    "redis",
    "postgres",
    "postgresql",
    "mysql",
    "sqlite",
    "dynamodb",
    "mongodb",
    "s3",
    "lambda",
    "kubernetes",
    "k8s",
    "pod",
    "pods",
    "grpc",
    "protobuf",
    "graphql",
    "resolver",
    "microservice",
    "microservices",
    "rabbitmq",
    "sqs",
    "etl",
    "cron",
    "replica",
    "shard",
    "cluster",
    "container",
    "docker",
    "outbox",
    "debezium",
    "connector",
    "adapter",
    "hypertable",
    "influxdb",
    "timescaledb",
    "mqtt",
    "websocket",
    "websockets",
    "lru",
    "autoscaling",
    "chromium",
    "cdn",
    "nginx",
    "elasticsearch",
    "serverless",
    "terraform",
    "deployed",
    "internally",
    "latency",
    "ingestion",
    "relay",
    "vector",
    "embeddings",
    "pooling",
    "polling",
    "edge",
];

#[cfg(test)]
mod tests {
    use super::super::reading::read;
    use super::super::siblings::SiblingIndex;
    use super::*;
    use crate::json::JsString;

    /// What an `update_contact` tool owns: its name's stems, `contact_id` and `email`
    /// parameters and one sibling.
    fn kinds_of(text: &str) -> Vec<Dropped> {
        let siblings = SiblingIndex::new(&[JsString::from("create_contact")]);
        let (name_stems, params) = (vec!["updat".into(), "contact".into()], vec!["contact_id".into(), "email".into()]);
        let own = Own { name_stems: &name_stems, words: &[], params: &params, siblings: &siblings.view(None) };
        read(text, &own).dropped.iter().map(|d| d.0).collect()
    }

    #[test]
    fn text_around_the_tool_is_set_aside_by_kind() {
        use Dropped::*;
        let cases: &[(&str, &[Dropped])] = &[
            (
                "As a sales rep I want contacts to be tidy so that I look organised. Story points: 2.",
                &[Backlog, Backlog],
            ),
            (
                "Maintained by the CRM guild. Questions go to #crm-help on Slack or the service desk.",
                &[Contact, Contact],
            ),
            (
                "Refer to the CRM handbook, chapter 4, for the details. Field meanings are kept there.",
                &[Pointer, Pointer],
            ),
            (
                "Back in 2019 the sales team kept contacts in a spreadsheet. It broke, and we wrote this.",
                &[Story, Story],
            ),
            ("You are a careful CRM assistant. Be polite and precise with every customer.", &[Persona, Persona]),
            ("Think of this as the address book's heartbeat. It is the bridge between people.", &[Figure, Figure]),
            (
                "Writes go through a Kafka outbox to a Postgres replica. Latency stays low under load.",
                &[Plumbing, Plumbing],
            ),
            ("Parameters: contact_id (string, required), email (string, optional).", &[Echo]),
        ];
        for (text, expected) in cases {
            assert_eq!(kinds_of(text), *expected, "{text}");
        }
    }

    #[test]
    fn statements_about_the_tool_stay() {
        for honest in [
            "Updates the name, email or phone number of an existing contact.",
            "Changes a contact's email; see create_contact for new people.",
            "Results are cached in Redis for 5 minutes.",
            "Contacts that were created before 2019 are read-only and are rejected with an error.",
            "Be careful: an email already used by another contact is rejected.",
            "Use `contact_id` from list_contacts; the email field is optional.",
            "The contact_id field is required and must be a string; the call fails with NOT_FOUND for an unknown one.",
            "Owned contacts are those whose owner is the caller.",
        ] {
            assert_eq!(kinds_of(honest), [], "{honest}");
        }
    }
}
