//! The vocabulary the heuristic judge reads with: action verbs grouped by what they do to state,
//! and the cue phrases that signal usage guidance, behaviour and return values.
//! Phrases are lowercase words separated by single spaces; a trailing `*` is a prefix match.

use std::sync::LazyLock;

use rustc_hash::FxHashMap;

/// What an action verb does, coarsely.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VerbClass {
    /// Reads one thing: get, fetch, read, describe.
    Get,
    /// Reads many: list, search, find, query.
    List,
    /// Computes without changing anything: analyze, compare, validate.
    Compute,
    /// Brings something into existence: create, add, register, upload.
    Create,
    /// Changes something that exists: update, set, rename, move.
    Update,
    /// Removes or ends something: delete, remove, cancel, revoke.
    Delete,
    /// Sends something outward: send, notify, post, pay.
    Send,
    /// Runs or controls something: run, execute, start, stop.
    Execute,
}

impl VerbClass {
    /// Classes that change state outside the call.
    pub fn writes(self) -> bool {
        matches!(self, VerbClass::Create | VerbClass::Update | VerbClass::Delete | VerbClass::Send)
    }

    pub fn reads(self) -> bool {
        matches!(self, VerbClass::Get | VerbClass::List)
    }
}

#[rustfmt::skip]
const GET: &[&str] = &[
    "get", "fetch", "retrieve", "read", "show", "view", "describe", "inspect", "lookup", "load", "return",
    "download", "export", "obtain", "see", "display", "print", "recall", "whoami",
];
#[rustfmt::skip]
const LIST: &[&str] = &[
    "list", "search", "find", "query", "browse", "enumerate", "scan", "discover", "filter", "lookup", "explore",
    "grep", "locate",
];
#[rustfmt::skip]
const COMPUTE: &[&str] = &[
    "analyze", "analyse", "summarize", "summarise", "compare", "calculate", "compute", "estimate", "explain",
    "classify", "detect", "validate", "verify", "check", "convert", "translate", "render", "extract", "parse",
    "format", "preview", "test", "measure", "evaluate", "score", "diff", "count", "generate", "resolve", "route",
    "map", "predict", "recommend", "suggest", "plan", "assess", "audit", "lint", "debug", "review", "inspect",
    "transcribe", "encode", "decode", "hash", "sign", "simulate", "forecast", "rank", "match", "build", "ask",
    "answer", "consult", "think", "design", "capture", "take", "screenshot", "snapshot",
];
#[rustfmt::skip]
const CREATE: &[&str] = &[
    "create", "add", "insert", "register", "make", "upload", "import", "init", "initialize", "provision", "publish",
    "submit", "schedule", "book", "write", "save", "store", "remember", "persist", "record", "log", "append",
    "attach", "enqueue", "clone", "copy", "fork", "duplicate", "new", "compose", "draft", "claim", "install",
    "deploy",
];
#[rustfmt::skip]
const UPDATE: &[&str] = &[
    "update", "edit", "modify", "change", "set", "patch", "rename", "move", "replace", "configure", "assign",
    "apply", "merge", "enable", "disable", "toggle", "mark", "tag", "label", "upsert", "sync", "reset", "restore",
    "approve", "reject", "finalize", "confirm", "close", "reopen", "lock", "unlock", "pin", "unpin", "archive",
    "unarchive", "star", "overwrite", "rewrite", "increment", "decrement", "grant", "transition", "complete",
];
#[rustfmt::skip]
const DELETE: &[&str] = &[
    "delete", "remove", "drop", "destroy", "purge", "wipe", "erase", "truncate", "clear", "cancel", "revoke",
    "uninstall", "unregister", "detach", "unlink", "kill", "terminate", "discard", "forget", "evict", "expire",
];
#[rustfmt::skip]
const SEND: &[&str] = &[
    "send", "notify", "email", "post", "broadcast", "reply", "forward", "invite", "share", "pay", "charge",
    "transfer", "refund", "tweet", "dm", "alert",
];
#[rustfmt::skip]
const EXECUTE: &[&str] = &[
    "run", "execute", "exec", "call", "invoke", "eval", "perform", "process", "handle", "manage", "do", "start",
    "stop", "restart", "launch", "trigger", "dispatch", "click", "type", "navigate", "press", "scroll", "hover",
    "drag", "interact", "control", "operate", "use", "delegate", "orchestrate", "automate", "poll", "wait",
    "connect", "disconnect", "login", "logout", "authenticate", "ping", "echo", "stream", "open",
];

/// The class of an (already lowercased) verb, plural/third-person forms included. Earlier
/// lists win, so `inspect` reads and `post` sends.
pub fn verb_class(word: &str) -> Option<VerbClass> {
    // The word, its stem and the word without its `s` (`retrieves` -> `retrieve`, where the
    // stem is `retriev`-less): the class of the earliest list holding any of them.
    let candidates = [word, &super::text::stemmed(word), word.strip_suffix('s').unwrap_or(word)];
    candidates.iter().filter_map(|c| VERB_CLASSES.get(c)).min_by_key(|(rank, _)| *rank).map(|(_, class)| *class)
}

/// Every verb with the rank of the first list that holds it and that list's class.
static VERB_CLASSES: LazyLock<FxHashMap<&'static str, (usize, VerbClass)>> = LazyLock::new(|| {
    let lists: [(&[&str], VerbClass); 8] = [
        (GET, VerbClass::Get),
        (LIST, VerbClass::List),
        (DELETE, VerbClass::Delete),
        (UPDATE, VerbClass::Update),
        (CREATE, VerbClass::Create),
        (SEND, VerbClass::Send),
        (COMPUTE, VerbClass::Compute),
        (EXECUTE, VerbClass::Execute),
    ];
    let mut classes = FxHashMap::default();
    for (rank, (words, class)) in lists.iter().enumerate() {
        for w in *words {
            classes.entry(*w).or_insert((rank, *class));
        }
    }
    classes
});

/// Verbs an agent cannot tell apart: two tools using different verbs of one group on the same
/// resource are near-duplicates.
#[rustfmt::skip]
pub const SYNONYM_GROUPS: &[&[&str]] = &[
    &["get", "fetch", "retrieve", "read", "obtain", "load", "show", "view", "describe"],
    &["list", "enumerate", "browse"],
    &["search", "find", "query", "lookup", "locate"],
    &["create", "add", "new", "insert", "make"],
    &["update", "edit", "modify", "change", "patch"],
    &["delete", "remove", "destroy", "erase", "drop", "purge"],
    &["send", "post", "notify"],
    &["run", "execute", "exec", "invoke", "call"],
];

/// True when two different verbs belong to one synonym group (after stemming).
pub fn synonymous(a: &str, b: &str) -> bool {
    let (a, b) = (super::text::stem(a), super::text::stem(b));
    a != b && SYNONYM_GROUPS.iter().any(|g| g.contains(&a.as_str()) && g.contains(&b.as_str()))
}

/// Verbs that say little about what exactly happens.
#[rustfmt::skip]
pub const VAGUE_VERBS: &[&str] = &[
    "manage", "handle", "process", "interact", "do", "perform", "use", "work", "deal", "support", "help", "provide",
    "access", "control", "operate", "hello",
];

/// Verbs whose object is removed or irreversibly replaced.
#[rustfmt::skip]
pub const DESTROYING_VERBS: &[&str] = &[
    "delete", "remove", "drop", "destroy", "purge", "wipe", "erase", "truncate", "overwrite",
];

/// Verbs that normally produce a different effect on every call.
#[rustfmt::skip]
pub const NON_IDEMPOTENT_VERBS: &[&str] = &[
    "send", "append", "increment", "enqueue", "charge", "pay", "post", "submit", "transfer",
];

/// Words that never carry the subject of a description.
#[rustfmt::skip]
pub const STOPWORDS: &[&str] = &[
    "a", "an", "the", "of", "to", "for", "in", "on", "at", "by", "with", "from", "and", "or", "is", "are", "be",
    "it", "its", "this", "that", "these", "as", "into", "via", "using", "your", "you", "can", "will", "which",
    "all", "any", "one", "some", "given", "specified", "specific", "tool", "tools", "function", "current", "new",
    "existing", "based", "about", "if", "when", "e", "g", "etc", "also", "such", "used", "use", "allows", "lets",
    "simple", "single", "data", "information", "info", "details", "api", "mcp", "server", "returns", "return",
];

// The cue lists are statics, not constants: each has one address, by which the cue automaton
// (`cues.rs`) knows it.

/// Phrases that say when to use the tool.
#[rustfmt::skip]
pub static WHEN_CUES: &[&str] = &[
    "use this when", "use when", "use this to", "use it to", "use it when", "use this for", "use for", "use before",
    "use after", "use this before", "use this after", "use whenever", "use this whenever", "whenever you",
    "whenever the", "when you need", "when you want", "when the user", "if you need", "ideal for", "best for",
    "useful for", "useful when", "intended for", "designed for", "call this", "call it", "call before",
    "call after", "call first", "use first", "before calling", "after calling", "before using", "only when",
    "only if", "when to call", "when to use", "should be used", "should be called", "good for", "recommended for",
    "helpful for", "use it for", "use it before", "use it after", "use this tool", "when asked", "start here", "仅在",
    "只有在", "时使用", "时调用", "用于",
];

/// Phrases that say when not to use it, or what to use instead.
#[rustfmt::skip]
pub static WHEN_NOT_CUES: &[&str] = &[
    "do not use", "don t use", "not for", "not intended", "instead", "rather than", "avoid", "never",
    "not suitable", "not meant", "do not call", "don t call", "unless", "should not", "must not", "is not a",
    "is not an", "not a", "not an", "only use", "prefer", "不要", "禁止", "请勿",
];

/// Phrases that hint at usage without stating it.
#[rustfmt::skip]
pub static SOFT_USAGE_CUES: &[&str] = &[
    "when", "if", "before", "after", "first", "only", "e g", "for example", "such as", "typically", "then",
    "optionally", "to preview", "to check", "to find", "to see", "so it can", "so that", "requires", "must",
    "needed", "see also", "see", "仅", "需要",
];

/// Behavioural cue families: (what a justification calls it, phrases).
#[rustfmt::skip]
pub static BEHAVIOUR_CUES: &[(&str, &[&str])] = &[
    ("safety", &[
        "read only", "no side effects", "no side effect", "does not modify", "doesn t modify", "non destructive",
        "safe to", "without modifying", "writes are", "refuse*", "safety", "safe", "protected", "protection",
        "dry run", "preview", "not an editing", "won t", "will not", "sandbox*", "isolation",
    ]),
    ("destructiveness", &[
        "permanent*", "irreversibl*", "cannot be undone", "can t be undone", "undo", "overwrit*", "snapshot",
        "backup", "destructive", "cascade*", "in place",
    ]),
    ("side effects", &[
        "will receive", "will be", "saves to", "saved to", "saves", "stored", "persist*", "survive*",
        "creates a", "sends a", "notif*", "invitation*", "worktree", "committed", "charged",
    ]),
    ("limits", &[
        "limit*", "max", "maximum", "at most", "up to", "capped", "cap", "≤", "timeout", "rate", "quota",
        "truncat*", "paginat*", "per page", "allowlist", "allowed", "within", "deduplicat*", "only works",
        "no more than", "kb", "mb", "限制", "超时", "不超过", "最大",
    ]),
    ("authorization", &[
        "auth*", "api key", "token", "permission*", "credential*", "requires", "login", "oauth", "scope*",
        "confirmation", "approval", "ssh",
    ]),
    ("failure modes", &[
        "error*", "fail*", "blocked", "reject*", "invalid", "not found", "exception", "retry", "retries",
        "validat*", "conflict", "raises an", "raises a", "throws", "missing",
    ]),
    ("execution model", &[
        "async*", "synchronous*", "block*", "immediately", "background", "long running", "poll", "polls", "polling",
        "wait*",
        "stream*", "cache*", "real time", "concurren*", "idempoten*", "deterministic", "non interactive", "queue*",
        "schedul*", "seconds", "minutes", "即時", "实时", "轮询",
    ]),
];

/// Phrases that say what comes back.
#[rustfmt::skip]
pub static RETURN_CUES: &[&str] = &[
    "returns", "return", "returned", "returning", "responds with", "response", "outputs", "output", "yields",
    "result*", "provides", "gives", "containing", "including", "includes", "with fields", "list of", "array of",
    "object with", "返回", "结果",
];

/// Phrases that give concrete values: examples, defaults, formats.
#[rustfmt::skip]
pub static DETAIL_CUES: &[&str] = &[
    "e g", "for example", "example*", "default*", "such as", "format", "iso", "rfc*", "yyyy*", "between", "one of",
    "either", "must be", "in the form", "like", "i e", "maximum", "minimum", "max", "min", "true", "false", "omit*",
    "optional", "required",
];

/// Words that, in the same sentence as a quoted identifier, make it a reference to another
/// tool ("see also 'catalog'", "use `search_all` instead").
#[rustfmt::skip]
pub const REFERENCE_CUES: &[&str] = &[
    "use", "see", "instead", "call", "try", "prefer", "rather", "alternative", "before", "after", "then", "first",
];

/// Words that are boilerplate rather than content when they open a description.
#[rustfmt::skip]
pub const OPENERS: &[&[&str]] = &[
    &["this", "tool"], &["the", "tool"], &["tool", "to"], &["tool", "that"], &["tool", "for"], &["a", "tool", "to"],
    &["a", "tool", "that"], &["this", "function"], &["allows", "you", "to"], &["lets", "you"], &["used", "to"],
    &["use", "this", "to"], &["unified"],
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verb_classes() {
        assert_eq!(verb_class("creates"), Some(VerbClass::Create));
        assert_eq!(verb_class("retrieves"), Some(VerbClass::Get));
        assert_eq!(verb_class("fetches"), Some(VerbClass::Get));
        assert_eq!(verb_class("lists"), Some(VerbClass::List));
        assert_eq!(verb_class("post"), Some(VerbClass::Send));
        assert_eq!(verb_class("inspect"), Some(VerbClass::Get));
        assert_eq!(verb_class("calls"), Some(VerbClass::Execute));
        assert_eq!(verb_class("record"), Some(VerbClass::Create));
        assert_eq!(verb_class("invoice"), None);
        assert!(VerbClass::Delete.writes() && !VerbClass::List.writes());
    }
}
