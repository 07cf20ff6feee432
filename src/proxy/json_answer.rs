//! An answer that is not a stream (a JSON body, or a body of another type on an exchange the
//! gateway watches), read whole within the upstream's bounds, inspected, and passed on,
//! rewritten, or (under enforce, when it cannot be inspected) replaced by errors for the
//! requests it answers.

use bytes::Bytes;
use futures_util::StreamExt;
use serde_json::value::RawValue;

use super::body::{full, join_array};
use super::capped::{Chunks, Whole, read_whole};
use super::stream::{Inspected, Rewriter};
use super::uninspected::{self, Reason};
use super::{Body, BoxError};
use crate::http::frames::frames;

/// What the client gets instead of (or as) the upstream's body.
pub enum JsonAnswer {
    /// The upstream's bytes, or a rewriting of them.
    Body(Body),
    /// The gateway's own JSON: errors (and refusals); `None` when nothing is owed (the POST held
    /// only notifications), which is answered 202.
    Replaced(Option<Vec<u8>>),
}

/// Reads and inspects one answer. `unreadable` says why the bytes are not to be read (a
/// `Content-Encoding`, a charset other than UTF-8);
/// `refusals` are the gateway's answers to requests it kept from the upstream; `batch` whether
/// the client sent an array.
pub async fn answer(
    chunks: Chunks,
    declared: Option<u64>,
    unreadable: Option<Reason>,
    rw: &Rewriter,
    refusals: &[Vec<u8>],
    batch: bool,
) -> JsonAnswer {
    let upstream = rw.tools.name.as_str();
    let refused = rw.fails_closed();
    let fail = |reason: Reason| {
        uninspected::note(upstream, reason, true);
        let mut pending = rw.request_ids.clone();
        let mut parts: Vec<Vec<u8>> =
            pending.drain(..).map(|id| uninspected::error_for(&id, upstream, reason)).collect();
        parts.extend(refusals.iter().cloned());
        JsonAnswer::Replaced(match parts.len() {
            0 => None,
            1 if !batch => parts.pop(),
            _ => Some(join_array(&parts)),
        })
    };
    if let Some(reason) = unreadable {
        if refused {
            return fail(reason);
        }
        uninspected::note(upstream, reason, false);
        return JsonAnswer::Body(stream_body(Vec::new(), chunks));
    }
    let bytes = match read_whole(chunks, declared, rw.max_bytes, rw.idle).await {
        Whole::Read(b) => b,
        Whole::TooLarge { head, rest } => {
            if refused {
                return fail(Reason::TooLarge);
            }
            uninspected::note(upstream, Reason::TooLarge, false);
            return JsonAnswer::Body(stream_body(head, rest));
        }
        // Nothing whole to pass on, whatever the mode: the requests get errors.
        Whole::Failed(reason) => return fail(reason),
    };
    if bytes.trim_ascii().is_empty() && refusals.is_empty() {
        return JsonAnswer::Body(full(bytes));
    }
    let rewritten = match rw.inspect(&bytes, &mut Vec::new()).await {
        Inspected::Same => None,
        Inspected::Rewritten(new) => Some(new),
        Inspected::Uninspectable(reason) if refused => return fail(reason),
        Inspected::Uninspectable(reason) => {
            uninspected::note(upstream, reason, false);
            None
        }
    };
    if !refusals.is_empty() {
        let merged = match &rewritten {
            Some(new) => merge_answers(&new.to_vec(), refusals),
            None => merge_answers(&bytes, refusals),
        };
        return JsonAnswer::Replaced(Some(merged));
    }
    JsonAnswer::Body(match rewritten {
        // The rewritten answer goes out as its pieces: the upstream's bytes around the edits
        // sliced out of `bytes`, the rendered array shared with the cache; nothing copied.
        Some(new) => frames(new.into_frames(&bytes)),
        None => full(bytes.clone()),
    })
}

fn stream_body(head: Vec<Bytes>, rest: Chunks) -> Body {
    use futures_util::TryStreamExt;
    use http_body_util::BodyExt;
    let head = futures_util::stream::iter(head.into_iter().map(Ok));
    let stream = head.chain(rest).map_ok(http_body::Frame::data).map_err(|e| Box::new(e) as BoxError);
    BodyExt::boxed(http_body_util::StreamBody::new(stream))
}

/// The upstream's JSON answer to a filtered batch plus our refusals, as one array.
fn merge_answers(upstream: &[u8], refusals: &[Vec<u8>]) -> Vec<u8> {
    let mut parts: Vec<Vec<u8>> = match serde_json::from_slice::<Vec<Box<RawValue>>>(upstream) {
        Ok(items) => items.into_iter().map(|r| r.get().as_bytes().to_vec()).collect(),
        Err(_) if upstream.trim_ascii().is_empty() => vec![],
        Err(_) => vec![upstream.to_vec()],
    };
    parts.extend(refusals.iter().cloned());
    join_array(&parts)
}
