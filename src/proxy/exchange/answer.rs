//! The exchange's other direction: what the gateway does to a message from an upstream, for
//! every transport. A JSON body, an SSE event (HTTP, legacy SSE) and a line (stdio sessions,
//! `wrap`) are each read once, strictly, by [`AnswerReading::inspect`]: a `tools/list` answer
//! is scored and rewritten by the catalogue, and its telemetry recorded here from the
//! verdicts the catalogue returns with it; anything else passes as it came, and what cannot
//! be read the way a client could read it is [`Inspected::Uninspectable`]. The transports
//! differ only in how they frame bytes and in whom an error goes to; the decision (fail closed
//! under enforce, else pass and count) and the error itself (`uninspected::error_for`) are the
//! same everywhere.

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::auth::Principal;
use crate::catalog::UpstreamTools;
use crate::mcp::message::{IdKey, id_key, names_method};
use crate::mcp::spliced::Spliced;
use crate::policy::uninspected::{self, Reason};
use crate::scoring::service::ScoringService;

/// What inspecting one message (or batch) found.
#[derive(Debug)]
pub enum Inspected<'a> {
    /// Nothing to change: pass the bytes on.
    Same,
    /// The message rewritten: pieces of the bytes inspected around new text.
    Rewritten(Spliced<'a>),
    /// The gateway cannot read it the way a client could.
    Uninspectable(Reason),
}

/// The fields that say what a message answers.
#[derive(Deserialize)]
struct Head<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    method: Option<&'a RawValue>,
    #[serde(borrow, default)]
    result: Option<&'a RawValue>,
    #[serde(borrow, default)]
    error: Option<&'a RawValue>,
}

/// The id (by value) a message answers, if it is a response; `Err` when it is not strict JSON.
fn answered_id(bytes: &[u8]) -> Result<Option<IdKey>, ()> {
    match serde_json::from_slice::<Head>(bytes) {
        Ok(h)
            if !h.method.is_some_and(|m| names_method(m.get().as_bytes()))
                && (h.result.is_some() || h.error.is_some()) =>
        {
            Ok(h.id.and_then(|i| id_key(i.get())))
        }
        Ok(_) => Ok(None),
        // Valid JSON of another shape (a repeated key, not an object) answers nothing.
        Err(_) => serde_json::from_slice::<serde::de::IgnoredAny>(bytes).map(|_| None).map_err(|_| ()),
    }
}

/// An upstream's messages as the exchange reads them: whose tools, scored by what, for whom
/// (named in the audit line of a filtered list).
pub struct AnswerReading<'a> {
    pub tools: &'a UpstreamTools,
    pub scoring: &'a std::sync::Arc<ScoringService>,
    pub caller: Option<&'a Principal>,
}

impl AnswerReading<'_> {
    /// Reads a message or batch strictly; `is_list` says whether an answer with the id (its
    /// JSON text) answers a list request; `answered` gains the ids (by value) of the responses
    /// in it.
    pub async fn inspect<'a>(
        &self,
        bytes: &'a [u8],
        is_list: &(dyn Fn(&str) -> bool + Sync),
        answered: &mut Vec<IdKey>,
    ) -> Inspected<'a> {
        // serde skips the strings it does not keep without checking them: UTF-8 is checked
        // here, once, for the whole text (with SIMD: a list answer is tens of KB, and std's
        // check was the largest part of answering a cached one).
        if simdutf8::basic::from_utf8(bytes).is_err() {
            return Inspected::Uninspectable(Reason::Malformed);
        }
        if bytes.trim_ascii_start().first() != Some(&b'[') {
            return match self.inspect_one(bytes, is_list, answered).await {
                Ok(Some(new)) => Inspected::Rewritten(new),
                Ok(None) => Inspected::Same,
                Err(r) => Inspected::Uninspectable(r),
            };
        }
        let Ok(items) = serde_json::from_slice::<Vec<Box<RawValue>>>(bytes) else {
            return Inspected::Uninspectable(Reason::Malformed);
        };
        let mut changed = false;
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            // A batch's item is a copy split out of the batch: its rewrite is joined here.
            let new = match self.inspect_one(item.get().as_bytes(), is_list, answered).await {
                Ok(new) => new.map(|n| n.to_vec()),
                Err(r) => return Inspected::Uninspectable(r),
            };
            match new {
                Some(new) => {
                    changed = true;
                    match String::from_utf8(new).ok().and_then(|s| RawValue::from_string(s).ok()) {
                        Some(raw) => out.push(raw),
                        None => return Inspected::Uninspectable(Reason::Malformed),
                    }
                }
                None => out.push(item),
            }
        }
        match serde_json::to_vec(&out) {
            Ok(new) if changed => Inspected::Rewritten(Spliced::from(new)),
            _ => Inspected::Same,
        }
    }

    async fn inspect_one<'a>(
        &self,
        bytes: &'a [u8],
        is_list: &(dyn Fn(&str) -> bool + Sync),
        answered: &mut Vec<IdKey>,
    ) -> Result<Option<Spliced<'a>>, Reason> {
        // One read of the envelope answers both "is it a list answer?" and "what is in it?".
        // Under enforce every answer shaped as a list (or a server's self-description) is read
        // as one, whatever id it carries: clients match answers more loosely than ids compare
        // (a string "1" for 1, any answer on a list request's stream), and an upstream that
        // knows it can dress a list as an answer to something else.
        let by_shape = uninspected::fails_closed(&self.tools.policy);
        let seen = parking_lot::Mutex::new(None);
        let wanted = |id: &str| {
            let wanted = by_shape || is_list(id);
            if wanted {
                *seen.lock() = id_key(id);
            }
            wanted
        };
        match self.tools.inspect_answer(self.scoring, bytes, wanted).await {
            Some((out, verdicts)) => {
                // The catalogue answered and kept its state; the telemetry of the answer is
                // recorded here, before the answer goes on.
                if let Some(verdicts) = verdicts {
                    crate::record::list_answered(&self.tools.name, verdicts, self.scoring);
                }
                answered.extend(seen.into_inner());
                if out.is_some()
                    && let Some(p) = self.caller
                {
                    self.tools.audit_list(p);
                }
                Ok(out)
            }
            None => {
                answered.extend(answered_id(bytes).map_err(|()| Reason::Malformed)?);
                Ok(None)
            }
        }
    }
}

/// Which of the requests still waiting an answer that cannot be read (and names none) may have
/// been meant for: the only one, or else every list request (the answers that matter).
pub fn meant_for(pending: &[IdKey], is_list: impl Fn(&IdKey) -> bool) -> Vec<IdKey> {
    match pending {
        [one] => vec![one.clone()],
        all => all.iter().filter(|id| is_list(id)).cloned().collect(),
    }
}

/// What a line from a stdio upstream (a session's child, or `wrap`'s) becomes.
#[derive(Debug)]
pub enum Settled {
    /// These bytes go to the client: the line as read, or rewritten.
    Pass(Vec<u8>),
    /// The line is not passed on; these answers are, one per request it was meant for.
    Answered(Vec<(IdKey, Vec<u8>)>),
    /// Nothing goes on: not an MCP message (a log line on stdout), or blank.
    Dropped,
}

/// A line from a stdio upstream, or the fact that it was longer than the upstream's
/// `max_answer_bytes` (and so not kept).
pub enum Line<'a> {
    Read(&'a [u8]),
    TooLong,
}

/// Settles one line from a stdio upstream. `is_list` says whether an id answers a list
/// request; `pending` is what the session still waits for (for an error that names no id).
pub async fn settle_line(
    reading: &AnswerReading<'_>,
    line: Line<'_>,
    max_bytes: usize,
    is_list: &(dyn Fn(&IdKey) -> bool + Sync),
    pending: impl FnOnce() -> Vec<IdKey>,
) -> Settled {
    let upstream = reading.tools.name.as_str();
    let (raw, reason) = match line {
        Line::TooLong => (None, Reason::TooLarge),
        Line::Read(l) => {
            let l = l.trim_ascii();
            if l.is_empty() || !looks_like_json(l) {
                return Settled::Dropped;
            }
            if l.len() > max_bytes {
                (Some(l), Reason::TooLarge)
            } else {
                let by_text = |id: &str| id_key(id).is_some_and(|k| is_list(&k));
                match reading.inspect(l, &by_text, &mut Vec::new()).await {
                    Inspected::Rewritten(new) => return Settled::Pass(new.to_vec()),
                    Inspected::Same if is_jsonrpc(l) => return Settled::Pass(l.to_vec()),
                    // Valid JSON that is no MCP message: what servers print to stdout by mistake.
                    Inspected::Same => return Settled::Dropped,
                    Inspected::Uninspectable(r) => (Some(l), r),
                }
            }
        }
    };
    // What even a lenient reading cannot take for a message (a truncated object, say) is no
    // answer to anybody: a stray line, dropped as any other.
    let lenient = match raw {
        Some(l) => match lenient_message(l) {
            Some(v) => Some((l, v)),
            None => return Settled::Dropped,
        },
        None => None,
    };
    let refused = uninspected::fails_closed(&reading.tools.policy) || lenient.is_none();
    uninspected::note(upstream, reason, refused);
    let targets = match lenient {
        Some((l, _)) if !refused => return Settled::Pass(l.to_vec()),
        Some((_, v)) => response_ids(&v),
        // Nothing of it was kept: the requests it may have been meant for.
        None => meant_for(&pending(), is_list),
    };
    Settled::Answered(
        targets.into_iter().map(|id| (id.clone(), uninspected::error_for(&id, upstream, reason))).collect(),
    )
}

/// Text that means to be JSON: an object or array, possibly behind a byte-order mark. Anything
/// else on a server's stdout is a stray log line.
fn looks_like_json(line: &[u8]) -> bool {
    let line = line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line);
    matches!(line.first(), Some(b'{' | b'['))
}

/// A JSON-RPC 2.0 request, notification or response, or a non-empty batch of them.
pub fn is_jsonrpc(line: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(line).is_ok_and(|v| is_message(&v))
}

fn is_message(v: &serde_json::Value) -> bool {
    fn one(v: &serde_json::Value) -> bool {
        let Some(o) = v.as_object() else { return false };
        o.get("jsonrpc").and_then(|j| j.as_str()) == Some("2.0")
            && (o.contains_key("method")
                || (o.contains_key("id") && (o.contains_key("result") || o.contains_key("error"))))
    }
    match v {
        serde_json::Value::Array(items) => !items.is_empty() && items.iter().all(one),
        v => one(v),
    }
}

/// A message the strict reading refused, read as leniently as a client might (as Python's
/// `json` does: a byte-order mark skipped, `NaN` and `Infinity` accepted, the last of a
/// repeated key kept; invalid UTF-8 replaced); `None` when even so it is no JSON-RPC message.
fn lenient_message(raw: &[u8]) -> Option<serde_json::Value> {
    let text = String::from_utf8_lossy(raw);
    let text = without_non_finite(text.trim_start_matches('\u{feff}'));
    serde_json::from_str::<serde_json::Value>(&text).ok().filter(is_message)
}

/// The ids of the responses in `v` (a message or batch).
fn response_ids(v: &serde_json::Value) -> Vec<IdKey> {
    let id_of = |v: &serde_json::Value| -> Option<IdKey> {
        let o = v.as_object()?;
        if o.get("method").is_some_and(serde_json::Value::is_string) {
            return None;
        }
        id_key(&o.get("id")?.to_string())
    };
    match v {
        serde_json::Value::Array(items) => items.iter().filter_map(id_of).collect(),
        v => id_of(v).into_iter().collect(),
    }
}

/// The ids of the responses in a message, read leniently (see [`lenient_message`]), so that
/// a message passed on uninspected goes to the request it answers.
pub fn lenient_ids(raw: &[u8]) -> Vec<IdKey> {
    lenient_message(raw).map(|v| response_ids(&v)).unwrap_or_default()
}

/// `text` with `NaN`, `Infinity` and `-Infinity` outside strings written as `null`.
fn without_non_finite(text: &str) -> String {
    let (mut out, mut rest) = (String::with_capacity(text.len()), text);
    let (mut in_string, mut escaped) = (false, false);
    while let Some(c) = rest.chars().next() {
        if !in_string && let Some(word) = ["-Infinity", "Infinity", "NaN"].into_iter().find(|w| rest.starts_with(w)) {
            out.push_str("null");
            rest = &rest[word.len()..];
            continue;
        }
        match (in_string, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (_, false, '"') => in_string = !in_string,
            _ => {}
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_found_in_what_the_strict_reading_refuses() {
        assert_eq!(lenient_ids(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"t\":\"\xff\"}}"), vec!["3"]);
        assert_eq!(lenient_ids(br#"{"jsonrpc":"2.0","id":1,"result":{},"id":2.0}"#), vec!["2"]);
        let batch = br#"[{"jsonrpc":"2.0","id":"a","result":{}},{"jsonrpc":"2.0","method":"x","id":9}]"#;
        assert_eq!(lenient_ids(batch), vec![r#""a""#]);
        let odd = br#"{"jsonrpc":"2.0","id":1,"result":{"a":NaN,"b":-Infinity,"c":"NaN \"x"}}"#;
        assert_eq!(lenient_ids(odd), vec!["1"]);
        assert!(lenient_ids(br#"{"jsonrpc":"2.0","id":1,"result":"#).is_empty());
        assert!(lenient_ids(br#"{"level":"info","id":1,"result":2}"#).is_empty(), "not JSON-RPC");
    }

    #[test]
    fn an_error_naming_no_id_goes_to_the_only_request_or_the_lists() {
        let pending = vec!["1".to_owned(), "2".to_owned()];
        assert_eq!(meant_for(&pending[..1], |_| false), vec!["1"]);
        assert_eq!(meant_for(&pending, |id| id == "2"), vec!["2"]);
        assert!(meant_for(&[], |_| true).is_empty());
    }

    #[test]
    fn only_json_looking_lines_are_messages_that_failed() {
        assert!(looks_like_json(b"{\"x\":1}") && looks_like_json(b"[1]") && looks_like_json("\u{feff}{".as_bytes()));
        assert!(!looks_like_json(b"Server started on stdio") && !looks_like_json(b""));
    }
}
