//! Annotation contradictions, in every direction: the description or name claims something
//! (read-only, no side effects, idempotent, reversible, local only) that a declared hint denies,
//! or a hint declares something safe (read-only, non-destructive, closed-world, idempotent)
//! that the description or name says the tool breaks. Claims are read with their negation
//! ("does not delete", "is not idempotent") and their scope ("fails on read-only files" says
//! nothing about the tool). The whole description is read, including sentences the scorers set
//! aside: a bare "Read-only." claims as much as a long one.
//!
//! Long: the claim table (each claim with its negations and the hint it contradicts) reads best as
//! one list; the rest is the reader and its tests.

use super::evidence::Evidence;
use super::lexicon::{DESTROYING_VERBS, NON_IDEMPOTENT_VERBS};
use super::text::{stem, words_of};

/// Words that cancel what follows within a few words.
const NEGATORS: &[&str] = &[
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
const SCOPED_OBJECTS: &[&str] = &[
    "file",
    "files",
    "field",
    "fields",
    "attribute",
    "attributes",
    "property",
    "properties",
    "volume",
    "volumes",
    "filesystem",
    "directory",
    "directories",
    "folder",
    "folders",
    "column",
    "columns",
    "disk",
    "disks",
    "path",
    "paths",
    "member",
    "members",
    "replica",
    "replicas",
    "copy",
    "copies",
];
/// Verbs that, before a claim, put it on something else ("fails on read-only files").
const SCOPING: &[&str] = &["except", "unless", "skips", "ignores", "fails", "on", "into", "against", "rejects"];

/// Verbs (third person and imperative) that change state when the tool is their subject.
const WRITE_VERBS: &[&str] = &[
    "create",
    "add",
    "insert",
    "write",
    "save",
    "store",
    "update",
    "modify",
    "change",
    "edit",
    "set",
    "rename",
    "move",
    "replace",
    "delete",
    "remove",
    "drop",
    "destroy",
    "purge",
    "wipe",
    "erase",
    "truncate",
    "overwrite",
    "send",
    "post",
    "publish",
    "upload",
    "submit",
    "email",
    "notify",
    "charge",
    "pay",
    "transfer",
    "cancel",
    "revoke",
    "reset",
    "clear",
    "append",
    "commit",
    "push",
    "deploy",
    "install",
    "kill",
    "terminate",
];
/// Participles after "is/are/will be/gets": the passive says the same ("the file is deleted").
const WRITE_PARTICIPLES: &[&str] = &[
    "created",
    "added",
    "inserted",
    "written",
    "saved",
    "stored",
    "updated",
    "modified",
    "changed",
    "edited",
    "renamed",
    "moved",
    "replaced",
    "deleted",
    "removed",
    "dropped",
    "destroyed",
    "purged",
    "wiped",
    "erased",
    "truncated",
    "overwritten",
    "sent",
    "posted",
    "published",
    "uploaded",
    "submitted",
    "charged",
    "cancelled",
    "canceled",
    "revoked",
    "reset",
    "cleared",
    "appended",
    "committed",
    "pushed",
    "terminated",
];
const DESTROYING_PARTICIPLES: &[&str] =
    &["deleted", "removed", "dropped", "destroyed", "purged", "wiped", "erased", "truncated", "overwritten"];
/// Words before a verb that keep the tool its subject ("and deletes", "it sends").
const SUBJECT_LINKS: &[&str] = &[
    "it",
    "and",
    "also",
    "then",
    "which",
    "that",
    "tool",
    "permanently",
    "irreversibly",
    "immediately",
    "automatically",
    "or",
    "first",
    "finally",
    "optionally",
    "silently",
    "directly",
    "will",
    "this",
];
const AUXILIARIES: &[&str] = &["is", "are", "be", "gets", "get", "been", "was", "were"];

/// Position of the first occurrence of `phrase` in `words` that no negator precedes.
fn claim(words: &[&str], phrase: &str) -> Option<usize> {
    let parts: Vec<&str> = phrase.split(' ').collect();
    let n = parts.len();
    (0..words.len().saturating_sub(n - 1)).find(|&i| {
        let hit = parts.iter().enumerate().all(|(k, p)| match p.strip_suffix('*') {
            Some(prefix) => words[i + k].starts_with(prefix),
            None => words[i + k] == *p,
        });
        if !hit {
            return false;
        }
        let before = &words[i.saturating_sub(3)..i];
        let negated = before.iter().any(|w| NEGATORS.contains(w)) && !NEGATORS.contains(&parts[0]);
        let scoped = words.get(i + n).is_some_and(|w| SCOPED_OBJECTS.contains(w))
            || before.iter().rev().take(2).any(|w| SCOPING.contains(w));
        !negated && !scoped
    })
}

/// The first phrase of `phrases` claimed in some sentence of the description.
fn claimed<'a>(e: &Evidence, phrases: &[&'a str]) -> Option<&'a str> {
    e.full_sentences().iter().find_map(|s| {
        let words: Vec<&str> = words_of(s).collect();
        phrases.iter().copied().find(|p| claim(&words, p).is_some())
    })
}

/// The same phrases, but only where a negator does precede them ("is not idempotent").
fn denied<'a>(e: &Evidence, phrases: &[&'a str]) -> Option<&'a str> {
    e.full_sentences().iter().find_map(|s| {
        let words: Vec<&str> = words_of(s).collect();
        phrases.iter().copied().find(|p| {
            let first = p.split(' ').next().unwrap_or("");
            words
                .iter()
                .enumerate()
                .any(|(i, w)| *w == first && words[i.saturating_sub(3)..i].iter().any(|b| NEGATORS.contains(b)))
        })
    })
}

/// The first state-changing action the description gives the tool, unnegated: a verb it is
/// the subject of ("Deletes the file", "and sends a receipt") or a passive ("is overwritten").
/// `destroying` keeps only removals and overwrites.
fn action(e: &Evidence, destroying: bool) -> Option<String> {
    for (k, s) in e.full_sentences().iter().enumerate() {
        let words: Vec<&str> = words_of(s).collect();
        for (i, w) in words.iter().enumerate() {
            let before = &words[i.saturating_sub(3)..i];
            if before.iter().any(|b| NEGATORS.contains(b)) {
                continue;
            }
            let prev = i.checked_sub(1).map(|j| words[j]);
            let next = words.get(i + 1).copied();
            let base = verb_base(w);
            // Outside the opening sentence a bare imperative ("Set `limit` to 10") speaks to
            // the agent; only the third person ("sets") or "will" speaks of the tool.
            let third_person = *w != base || prev == Some("will") || k == 0;
            let active = WRITE_VERBS.contains(&base.as_str())
                && third_person
                && (i == 0 || prev.is_some_and(|p| SUBJECT_LINKS.contains(&p)))
                && !next.is_some_and(|n| AUXILIARIES.contains(&n) || n == "of");
            let adverb = prev.is_some_and(|p| p.ends_with("ly")) && i >= 2 && AUXILIARIES.contains(&words[i - 2]);
            let passive = (prev.is_some_and(|p| AUXILIARIES.contains(&p)) || adverb) && WRITE_PARTICIPLES.contains(w);
            let destroys = DESTROYING_VERBS.contains(&base.as_str()) || DESTROYING_PARTICIPLES.contains(w);
            if (active || passive) && (!destroying || destroys) {
                return Some((*w).to_owned());
            }
        }
        if destroying
            && let Some(p) = ["irreversib*", "cannot be undone", "can t be undone"].iter().find(|p| {
                let words: Vec<&str> = words_of(s).collect();
                has(&words, p)
            })
        {
            return Some(p.trim_end_matches('*').replace("can t", "can't"));
        }
    }
    None
}

fn has(words: &[&str], phrase: &str) -> bool {
    let parts: Vec<&str> = phrase.split(' ').collect();
    words.windows(parts.len()).any(|w| {
        w.iter().zip(&parts).all(|(a, p)| match p.strip_suffix('*') {
            Some(prefix) => a.starts_with(prefix),
            None => a == p,
        })
    })
}

/// `deletes` -> `delete`, `pushes` -> `push`, `copies` -> `copy`.
fn verb_base(w: &str) -> String {
    if WRITE_VERBS.contains(&w) {
        return w.to_owned();
    }
    let s = stem(w);
    if WRITE_VERBS.contains(&s.as_str()) {
        return s;
    }
    w.strip_suffix('s').unwrap_or(w).to_owned()
}

/// Why the description or name contradicts a declared annotation hint, if it does.
pub fn contradiction(e: &Evidence) -> Option<String> {
    let read_only = e.hint("readOnlyHint");
    let destructive = e.hint("destructiveHint");
    let idempotent = e.hint("idempotentHint");
    let open_world = e.hint("openWorldHint");
    let name_verb = e.name_verb.as_ref();
    let name_writes = name_verb.filter(|v| v.class.writes()).map(|v| v.word.clone());
    let name_destroys =
        name_verb.filter(|v| DESTROYING_VERBS.contains(&stem(&v.word).as_str())).map(|v| v.word.clone());
    let quoted = |p: &str| format!("'{}'", p.trim_end_matches('*').replace(" t ", "'t "));

    // Declared safe, described or named as changing state.
    if read_only == Some(true) {
        if let Some(w) = name_writes.clone() {
            return Some(format!("readOnlyHint: true is declared, but the name says the tool will '{w}'."));
        }
        if let Some(w) = action(e, false) {
            return Some(format!("readOnlyHint: true is declared, but the description says the tool '{w}'."));
        }
    }
    if destructive == Some(false) {
        if let Some(w) = name_destroys {
            return Some(format!("destructiveHint: false is declared, but the name says the tool will '{w}'."));
        }
        if let Some(w) = action(e, true) {
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
        if let Some(p) = denied(e, &["idempotent"]) {
            return Some(format!("idempotentHint: true is declared, but the description says it is not {p}."));
        }
    }
    if open_world == Some(false)
        && let Some(p) = claimed(e, OPEN_WORLD)
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
        && let Some(p) = claimed(e, READ_ONLY_CLAIMS).or_else(|| claimed(e, NON_DESTRUCTIVE_CLAIMS))
    {
        return Some(format!("{hint} is declared, but the description claims {}.", quoted(p)));
    }
    if destructive == Some(true) {
        if let Some(p) = claimed(e, REVERSIBLE_CLAIMS) {
            return Some(format!("destructiveHint: true is declared, but the description calls it {}.", quoted(p)));
        }
        if let Some(v) = name_verb.filter(|v| v.class.reads())
            && action(e, false).is_none()
        {
            return Some(format!(
                "destructiveHint: true is declared, but the name reads ('{}') and the description changes nothing.",
                v.word
            ));
        }
    }
    if idempotent == Some(false)
        && let Some(p) = claimed(e, IDEMPOTENT_CLAIMS)
    {
        return Some(format!("idempotentHint: false is declared, but the description claims {}.", quoted(p)));
    }
    if open_world == Some(true)
        && let Some(p) = claimed(e, LOCAL_CLAIMS)
    {
        return Some(format!("openWorldHint: true is declared, but the description claims {}.", quoted(p)));
    }
    None
}
