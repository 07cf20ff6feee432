//! Answers on their way back: a JSON body is read whole and rewritten if it holds a
//! `tools/list` result; an SSE stream is relayed event by event as events arrive (never
//! buffered whole), with list results rewritten in place and, on listening streams,
//! `notifications/tools/list_changed` added when the visible tool set changes.

use std::sync::Arc;

use bytes::Bytes;
use futures_util::StreamExt;
use http_body::Frame;
use serde_json::value::RawValue;
use tokio::sync::broadcast;

use super::body::{FrameSender, channel_body};
use super::intercept::UpstreamTools;
use super::session::Session;
use super::{Body, BoxError, Gateway};
use crate::mcp::message::IdKey;
use crate::mcp::sse;

/// The notification a client gets when the tools it may see changed.
const LIST_CHANGED_EVENT: &[u8] =
    b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n";

/// Knows which answers are `tools/list` results and rewrites them.
#[derive(Clone)]
pub struct Rewriter {
    pub gw: Arc<Gateway>,
    pub tools: Arc<UpstreamTools>,
    /// Ids of list requests in the body this answer belongs to.
    pub local_ids: Vec<IdKey>,
    /// The session, whose remembered ids cover replays on a GET stream.
    pub session: Option<Arc<Session>>,
    /// Who the answer is for (with `[auth]` on), named in the audit line of a filtered list.
    pub caller: Option<Arc<crate::auth::Principal>>,
}

impl Rewriter {
    /// Whether an answer whose id is the JSON text `id` answers a list request (compared by
    /// value: `1.0` answers `1`).
    fn is_list_answer(&self, id: &str) -> bool {
        let Some(id) = crate::mcp::message::id_key(id) else { return false };
        self.local_ids.contains(&id) || self.session.as_ref().is_some_and(|s| s.is_list_id(&id))
    }

    /// Whether any answer could need rewriting at all.
    pub fn watching(&self) -> bool {
        !self.local_ids.is_empty() || self.session.is_some()
    }

    /// The rewritten message or batch, or `None` to pass the bytes on unchanged.
    pub async fn rewrite(&self, bytes: &[u8]) -> Option<Vec<u8>> {
        if bytes.trim_ascii_start().first() == Some(&b'[') {
            let items: Vec<Box<RawValue>> = serde_json::from_slice(bytes).ok()?;
            let mut changed = false;
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                match self.rewrite_one(item.get().as_bytes()).await {
                    Some(new) => {
                        changed = true;
                        out.push(RawValue::from_string(String::from_utf8(new).ok()?).ok()?);
                    }
                    None => out.push(item),
                }
            }
            return if changed { serde_json::to_vec(&out).ok() } else { None };
        }
        self.rewrite_one(bytes).await
    }

    async fn rewrite_one(&self, bytes: &[u8]) -> Option<Vec<u8>> {
        // One read of the envelope answers both "is it a list answer?" and "what is in it?".
        let out = self.tools.rewrite_answer(&self.gw.scoring, bytes, |id| self.is_list_answer(id)).await;
        if out.is_some()
            && let Some(p) = &self.caller
        {
            self.tools.audit_list(p);
        }
        out
    }
}

/// Largest JSON answer read whole for inspection; a bigger one passes through unchanged.
const MAX_JSON_BYTES: usize = 32 * 1024 * 1024;

/// Reads a JSON answer whole and rewrites it. The boolean says whether it changed.
pub async fn json_body(resp: reqwest::Response, rw: &Rewriter) -> Result<(Bytes, bool), BoxError> {
    if resp.content_length().is_some_and(|n| n as usize > MAX_JSON_BYTES) {
        return Ok((resp.bytes().await?, false));
    }
    let bytes = resp.bytes().await?;
    if bytes.len() > MAX_JSON_BYTES {
        return Ok((bytes, false));
    }
    match rw.rewrite(&bytes).await {
        Some(new) => Ok((Bytes::from(new), true)),
        None => Ok((bytes, false)),
    }
}

/// Relays an SSE answer event by event. `listen` makes it a listening stream (GET, or
/// `subscriptions/listen`) that also carries list-changed notifications for this upstream.
pub fn sse_body(resp: reqwest::Response, rw: Rewriter, listen: Option<broadcast::Receiver<Arc<str>>>) -> Body {
    use tracing::Instrument;
    let (tx, body) = channel_body();
    // The request's span lasts as long as its stream, and list rewrites in it are its children.
    tokio::spawn(pump(resp, rw, listen, tx).instrument(tracing::Span::current()));
    body
}

async fn pump(
    resp: reqwest::Response,
    rw: Rewriter,
    mut listen: Option<broadcast::Receiver<Arc<str>>>,
    tx: FrameSender,
) {
    let upstream_name = rw.tools.name.clone();
    let mut upstream = resp.bytes_stream();
    let mut parser = sse::Parser::new();
    loop {
        let changed = async {
            match listen.as_mut() {
                Some(rx) => rx.recv().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            chunk = upstream.next() => match chunk {
                Some(Ok(bytes)) => {
                    let events = match parser.push(&bytes) {
                        Ok(events) => events,
                        Err(e) => {
                            tracing::warn!(upstream = %upstream_name, error = %e, "SSE stream ended");
                            let _ = tx.send(Err(Box::new(e))).await;
                            return;
                        }
                    };
                    for ev in events {
                        let out = match &ev.data {
                            Some(data) if rw.watching() && !data.is_empty() => match rw.rewrite(data.as_bytes()).await {
                                Some(new) => ev.with_data(&String::from_utf8_lossy(&new)),
                                None => ev.raw,
                            },
                            _ => ev.raw,
                        };
                        if tx.send(Ok(Frame::data(out))).await.is_err() {
                            return; // the client left; dropping the upstream response closes it
                        }
                    }
                }
                Some(Err(e)) => {
                    tracing::debug!(upstream = %upstream_name, error = %e, "upstream SSE stream broke off");
                    let _ = tx.send(Err(Box::new(e))).await;
                    return;
                }
                None => {
                    let rest = parser.remainder();
                    if !rest.is_empty() {
                        let _ = tx.send(Ok(Frame::data(Bytes::copy_from_slice(rest)))).await;
                    }
                    return;
                }
            },
            upstream_changed = changed => match upstream_changed {
                Ok(name) if *name == *upstream_name => {
                    if tx.send(Ok(Frame::data(Bytes::from_static(LIST_CHANGED_EVENT)))).await.is_err() {
                        return;
                    }
                }
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => listen = None,
            },
        }
    }
}
