//! Annotation contradictions, in every direction: the description or name claims something
//! (read-only, no side effects, idempotent, reversible, local only) that a declared hint denies,
//! or a hint declares something safe (read-only, non-destructive, closed-world, idempotent)
//! that the description or name says the tool breaks. Claims are read with their negation
//! ("does not delete", "is not idempotent") and their scope ("fails on read-only files" says
//! nothing about the tool). The whole description is read, including sentences the scorers set
//! aside: a bare "Read-only." claims as much as a long one.
//!
//! The claim and word tables read best as lists, here; the sentence reader is [`super::claims`].

use super::claims::Claims;
use super::evidence::Evidence;
use super::lexicon::{DESTROYING_VERBS, NON_IDEMPOTENT_VERBS, VerbClass, verb_class};
use super::text::stem;

/// What [`Claims::action`] says when the text only calls the change permanent.
const IRREVERSIBLE: &[&str] = &["irreversib", "cannot be undone", "can't be undone"];

/// Words that cancel what follows within a few words.
pub(super) const NEGATORS: &[&str] = &[
    "not", "no", "never", "without", "won", "cannot", "doesn", "don", "isn", "aren", "refuses", "nor", "nothing",
    "none", "neither", "nobody", "t",
];

/// Phrases (word sequences; `*` ends a prefix) that claim the tool changes nothing.
const READ_ONLY_CLAIMS: &[&str] = &[
    "read only",
    "readonly",
    "no side effect*",
    "side effect free",
    "does not modify",
    "doesn t modify",
    "never modifies",
    "without modifying",
    "does not change",
    "doesn t change",
    "never changes",
    "does not write",
    "doesn t write",
    "never writes",
    "makes no changes",
    "only reads",
    "changes nothing",
    "modifies nothing",
    "non destructive",
    "nondestructive",
    "purely informational",
    "safe to call",
];
/// Claims that the tool destroys nothing (a subset of the above reads the same).
const NON_DESTRUCTIVE_CLAIMS: &[&str] = &["non destructive", "nondestructive", "never deletes", "does not delete"];
const IDEMPOTENT_CLAIMS: &[&str] = &["idempotent", "safe to retry", "same result every time", "no additional effect"];
const REVERSIBLE_CLAIMS: &[&str] = &[
    "reversible",
    "can be undone",
    "can be restored",
    "can be recovered",
    "recoverable",
    "soft delete*",
    "to the trash",
];
const LOCAL_CLAIMS: &[&str] = &[
    "local only",
    "locally only",
    "runs locally",
    "runs entirely locally",
    "entirely local",
    "fully local",
    "offline",
    "no network",
    "no internet",
    "without network",
    "without internet",
    "never leaves",
    "makes no network",
    "does not access the internet",
    "does not access the network",
    "no external",
];
/// Phrases that say the tool reaches the open internet.
const OPEN_WORLD: &[&str] = &[
    "the web",
    "web search",
    "internet",
    "any url",
    "any website",
    "third party",
    "external api",
    "external service",
    "remote api",
    "online",
    "web page*",
    "webpage*",
    "public api",
    "search engine",
    "over the network",
];
/// A claim followed by one of these is about the object, not the tool ("read-only files").
#[rustfmt::skip]
pub(super) const SCOPED_OBJECTS: &[&str] = &[
    "file", "files", "field", "fields", "attribute", "attributes", "property", "properties", "volume",
    "volumes", "filesystem", "directory", "directories", "folder", "folders", "column", "columns", "disk",
    "disks", "path", "paths", "member", "members", "replica", "replicas", "copy", "copies",
];
/// Verbs that, before a claim, put it on something else ("fails on read-only files").
pub(super) const SCOPING: &[&str] =
    &["except", "unless", "skips", "ignores", "fails", "on", "into", "against", "rejects"];

/// Verbs (third person and imperative) that change state when the tool is their subject.
#[rustfmt::skip]
pub(super) const WRITE_VERBS: &[&str] = &[
    "create", "add", "insert", "write", "save", "store", "update", "modify", "change", "edit", "set",
    "rename", "move", "replace", "delete", "remove", "drop", "destroy", "purge", "wipe", "erase", "truncate",
    "overwrite", "send", "post", "publish", "upload", "submit", "email", "notify", "charge", "pay",
    "transfer", "cancel", "revoke", "reset", "clear", "append", "commit", "push", "deploy", "install", "kill",
    "terminate", "merge", "book", "stop", "restart", "reboot", "suspend", "archive", "approve", "reject",
    "assign", "schedule", "enable", "disable", "grant", "invite",
];
/// Participles after "is/are/will be/gets": the passive says the same ("the file is deleted").
#[rustfmt::skip]
pub(super) const WRITE_PARTICIPLES: &[&str] = &[
    "created", "added", "inserted", "written", "saved", "stored", "updated", "modified", "changed", "edited",
    "renamed", "moved", "replaced", "deleted", "removed", "dropped", "destroyed", "purged", "wiped", "erased",
    "truncated", "overwritten", "sent", "posted", "published", "uploaded", "submitted", "charged",
    "cancelled", "canceled", "revoked", "reset", "cleared", "appended", "committed", "pushed", "terminated",
    "merged", "booked",
];
pub(super) const DESTROYING_PARTICIPLES: &[&str] =
    &["deleted", "removed", "dropped", "destroyed", "purged", "wiped", "erased", "truncated", "overwritten"];
/// Words before a verb that keep the tool its subject ("and deletes", "it sends").
#[rustfmt::skip]
pub(super) const SUBJECT_LINKS: &[&str] = &[
    "it", "and", "also", "then", "which", "that", "tool", "permanently", "irreversibly", "immediately",
    "automatically", "or", "first", "finally", "optionally", "silently", "directly", "will", "this",
];
pub(super) const AUXILIARIES: &[&str] = &["is", "are", "be", "gets", "get", "been", "was", "were"];

/// Words that are verbs in front of a name (`log_event`, `email_report`) and nouns at its end
/// (`git_log`, `draft_email`, `get_last_commit`).
const NOUNS_AT_THE_END: &[&str] = &[
    "log",
    "logs",
    "email",
    "emails",
    "post",
    "posts",
    "message",
    "messages",
    "note",
    "notes",
    "record",
    "records",
    "commit",
    "commits",
    "tag",
    "tags",
    "update",
    "updates",
    "change",
    "changes",
    "upload",
    "uploads",
    "order",
    "orders",
    "report",
    "reports",
    "draft",
    "drafts",
    "backup",
    "backups",
    "transfer",
    "transfers",
    "reply",
    "replies",
    "alert",
    "alerts",
    "export",
    "exports",
    "import",
    "imports",
    "edit",
    "edits",
    "push",
    "set",
];

/// The state-changing verb the name gives the tool, if it gives one: not when the name also
/// reads (`email_search_inbox` searches), nor a word that ends a longer name as a noun
/// (`git_log`).
fn name_writes(e: &Evidence) -> Option<String> {
    // The name's first verb says what it does (`count_archives` counts).
    let verb = e.name_verb.as_ref().filter(|v| v.class.writes())?;
    let words = &e.name_words;
    if words.iter().any(|w| verb_class(w).is_some_and(VerbClass::reads)) {
        return None;
    }
    let i = words.iter().position(|w| *w == verb.word)?;
    let last_noun = words.len() >= 2 && i == words.len() - 1 && NOUNS_AT_THE_END.contains(&verb.word.as_str());
    (!last_noun).then(|| verb.word.clone())
}

/// Why the description or name contradicts a declared annotation hint, if it does.
pub fn contradiction(e: &Evidence) -> Option<String> {
    let read_only = e.hint("readOnlyHint");
    let destructive = e.hint("destructiveHint");
    let idempotent = e.hint("idempotentHint");
    let open_world = e.hint("openWorldHint");
    let name_verb = e.name_verb.as_ref();
    let name_writes = name_writes(e);
    let name_destroys = name_writes.clone().filter(|w| DESTROYING_VERBS.contains(&stem(w).as_str()));
    let quoted = |p: &str| format!("'{}'", p.trim_end_matches('*').replace(" t ", "'t "));
    if [read_only, destructive, idempotent, open_world].iter().all(Option::is_none) {
        // Every check below needs a declared hint.
        return None;
    }
    let claims = Claims::new(e.full_sentences());
    let (claimed, denied, action) = (|p| claims.claimed(p), |p| claims.denied(p), |d| claims.action(d));

    // Declared safe, described or named as changing state.
    if read_only == Some(true) {
        if let Some(w) = name_writes.clone() {
            return Some(format!("readOnlyHint: true is declared, but the name says the tool will '{w}'."));
        }
        if let Some(w) = action(false) {
            return Some(format!("readOnlyHint: true is declared, but the description says the tool '{w}'."));
        }
    }
    if destructive == Some(false) {
        if let Some(w) = name_destroys {
            return Some(format!("destructiveHint: false is declared, but the name says the tool will '{w}'."));
        }
        // "Cannot be undone" of a tool that only adds (files a document, sends a message) is
        // not destruction: MCP reads destructiveHint: false as "only additive updates".
        let additive = [e.name_verb.as_ref(), e.lead_verb.as_ref()]
            .into_iter()
            .flatten()
            .any(|v| matches!(v.class, VerbClass::Create | VerbClass::Send))
            // A name that opens with a verb of lodging, which the verb lists read as a noun.
            || e.name_words.first().is_some_and(|w| matches!(w.as_str(), "file" | "lodge"));
        if let Some(w) = action(true).filter(|w| !(additive && IRREVERSIBLE.contains(&w.as_str()))) {
            return Some(format!("destructiveHint: false is declared, but the description says '{w}'."));
        }
    }
    if idempotent == Some(true) {
        let verb = [e.name_verb.as_ref(), e.lead_verb.as_ref()]
            .into_iter()
            .flatten()
            .find(|v| NON_IDEMPOTENT_VERBS.contains(&stem(&v.word).as_str()));
        if let Some(v) = verb {
            return Some(format!(
                "idempotentHint: true is declared, but the tool will '{}', which has a new effect on every call.",
                v.word
            ));
        }
        if let Some(p) = denied(&["idempotent"]) {
            return Some(format!("idempotentHint: true is declared, but the description says it is not {p}."));
        }
    }
    if open_world == Some(false)
        && let Some(p) = claimed(OPEN_WORLD)
    {
        return Some(format!("openWorldHint: false is declared, but the description reaches {}.", quoted(p)));
    }

    // Described or named as safe, declared otherwise.
    let unsafe_hint = match (read_only, destructive) {
        (_, Some(true)) => Some("destructiveHint: true"),
        (Some(false), _) => Some("readOnlyHint: false"),
        _ => None,
    };
    if let Some(hint) = unsafe_hint
        && let Some(p) = claimed(READ_ONLY_CLAIMS).or_else(|| claimed(NON_DESTRUCTIVE_CLAIMS))
    {
        return Some(format!("{hint} is declared, but the description claims {}.", quoted(p)));
    }
    if destructive == Some(true) {
        if let Some(p) = claimed(REVERSIBLE_CLAIMS) {
            return Some(format!("destructiveHint: true is declared, but the description calls it {}.", quoted(p)));
        }
        if let Some(v) = name_verb.filter(|v| v.class.reads())
            && action(false).is_none()
        {
            return Some(format!(
                "destructiveHint: true is declared, but the name reads ('{}') and the description changes nothing.",
                v.word
            ));
        }
    }
    if idempotent == Some(false)
        && let Some(p) = claimed(IDEMPOTENT_CLAIMS)
    {
        return Some(format!("idempotentHint: false is declared, but the description claims {}.", quoted(p)));
    }
    if open_world == Some(true)
        && let Some(p) = claimed(LOCAL_CLAIMS)
    {
        return Some(format!("openWorldHint: true is declared, but the description claims {}.", quoted(p)));
    }
    None
}
