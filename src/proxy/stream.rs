//! Answers on their way back: a JSON body is read whole (within bounds) and rewritten if it
//! holds a `tools/list` result; an SSE stream is relayed event by event as events arrive (never
//! buffered whole), with list results rewritten in place and, on listening streams,
//! `notifications/tools/list_changed` added when the visible tool set changes. What cannot be
//! inspected fails closed under enforce (see `uninspected.rs`).

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt;
use http_body::Frame;
use tokio::sync::broadcast;

use super::body::{FrameSender, channel_body, sse_event};
pub use super::exchange::answer::Inspected;
use super::exchange::answer::{AnswerReading, meant_for};
use super::session::Session;
use super::uninspected::{self, Reason};
use super::{Body, Gateway};
use crate::catalog::UpstreamTools;
use crate::mcp::message::{IdKey, id_key};
use crate::mcp::sse;

/// Knows which answers are `tools/list` results and rewrites them.
#[derive(Clone)]
pub struct Rewriter {
    pub gw: Arc<Gateway>,
    pub tools: Arc<UpstreamTools>,
    /// Ids of list requests in the body this answer belongs to.
    pub local_ids: Vec<IdKey>,
    /// The session, whose remembered ids cover replays on a GET stream.
    pub session: Option<Arc<Session>>,
    /// Ids of every request in the body this answer belongs to: under enforce, the ones an
    /// uninspectable answer leaves unanswered get an error each.
    pub request_ids: Vec<IdKey>,
    /// A listening stream (GET, legacy SSE): any response carrying a `tools` array is taken
    /// for a list answer, whether or not the gateway knows its id (a server without sessions,
    /// a session the gateway forgot).
    pub listening: bool,
    /// The most bytes one answer (JSON body or SSE event) is read to.
    pub max_bytes: usize,
    /// The longest silence within an answer.
    pub idle: Duration,
    /// Who the answer is for (with `[auth]` on), named in the audit line of a filtered list.
    pub caller: Option<Arc<crate::auth::Principal>>,
}

impl Rewriter {
    /// A rewriter for `tools` with the upstream's answer limits and nothing expected yet.
    pub fn new(gw: Arc<Gateway>, tools: Arc<UpstreamTools>, session: Option<Arc<Session>>) -> Self {
        let cfg = gw.serve.upstream(&tools.name);
        let max_bytes = cfg.map_or_else(crate::config::limits::max_answer_bytes, |u| u.max_answer_bytes);
        let idle = cfg.map_or_else(crate::config::limits::read_idle_timeout_ms, |u| u.read_idle_timeout_ms);
        Rewriter {
            gw,
            tools,
            local_ids: Vec::new(),
            session,
            request_ids: Vec::new(),
            listening: false,
            max_bytes,
            idle: Duration::from_millis(idle),
            caller: None,
        }
    }

    /// Whether an answer whose id is the JSON text `id` answers a list request (compared by
    /// value: `1.0` answers `1`).
    fn is_list_answer(&self, id: &str) -> bool {
        if self.listening || self.fails_closed() {
            return true;
        }
        let Some(id) = id_key(id) else { return false };
        self.local_ids.contains(&id) || self.session.as_ref().is_some_and(|s| s.is_list_id(&id))
    }

    /// Whether any answer could need rewriting at all. Under enforce every one could: a client
    /// takes a list answer from wherever it comes (the Python SDK 2.x takes any answer on a list
    /// request's stream for the list, whatever its id; the TypeScript SDK matches an answer by
    /// id on any stream), so what a list looks like decides, not the id it carries.
    pub fn watching(&self) -> bool {
        self.listening || self.fails_closed() || !self.local_ids.is_empty() || self.session.is_some()
    }

    /// Whether what cannot be inspected is refused.
    pub fn fails_closed(&self) -> bool {
        uninspected::fails_closed(&self.tools.policy)
    }

    /// Reads a message or batch strictly (the exchange's one reading of answers); `answered`
    /// gains the ids (by value) of the responses in it.
    pub async fn inspect<'a>(&self, bytes: &'a [u8], answered: &mut Vec<IdKey>) -> Inspected<'a> {
        let reading = AnswerReading { tools: &self.tools, scoring: &self.gw.scoring, caller: self.caller.as_deref() };
        reading.inspect(bytes, &|id| self.is_list_answer(id), answered).await
    }

    /// Error answers, one per request still waiting in `pending` that an uninspectable message
    /// may have been meant for: the only one, or else every list request (the answers that
    /// matter). They leave `pending`.
    pub fn errors_for_pending(&self, pending: &mut Vec<IdKey>, reason: Reason) -> Vec<Vec<u8>> {
        let targets = meant_for(pending, |p| self.local_ids.contains(p));
        pending.retain(|p| !targets.contains(p));
        targets.iter().map(|id| uninspected::error_for(id, &self.tools.name, reason)).collect()
    }
}

/// Relays an SSE answer event by event. `listen` makes it a listening stream (GET, or
/// `subscriptions/listen`) that also carries list-changed notifications for this upstream.
pub fn sse_body(
    resp: super::upstream_client::UpstreamResponse,
    rw: Rewriter,
    listen: Option<broadcast::Receiver<Arc<str>>>,
) -> Body {
    use tracing::Instrument;
    let (tx, body) = channel_body();
    // The request's span lasts as long as its stream, and list rewrites in it are its children.
    tokio::spawn(pump(resp, rw, listen, tx).instrument(tracing::Span::current()));
    body
}

/// One SSE stream's bookkeeping: what it still owes the client.
struct Relay {
    rw: Rewriter,
    tx: FrameSender,
    pending: Vec<IdKey>,
}

impl Relay {
    async fn send(&self, bytes: Bytes) -> bool {
        self.tx.send(Ok(Frame::data(bytes))).await.is_ok()
    }

    /// Passes one event on, rewritten, or (under enforce, when it cannot be read) replaced by
    /// errors for the requests it may have answered. False when the client left.
    async fn event(&mut self, ev: sse::Event) -> bool {
        let data = match &ev.data {
            Some(d) if self.rw.watching() && !d.trim().is_empty() => d,
            _ => return self.send(ev.raw).await,
        };
        let mut answered = Vec::new();
        let inspected = if simdutf8::basic::from_utf8(&ev.raw).is_err() {
            Inspected::Uninspectable(Reason::Malformed)
        } else {
            self.rw.inspect(data.as_bytes(), &mut answered).await
        };
        self.pending.retain(|p| !answered.contains(p));
        match inspected {
            Inspected::Same => self.send(ev.raw).await,
            Inspected::Rewritten(new) => self.send(ev.with_data(&String::from_utf8_lossy(&new.to_vec()))).await,
            Inspected::Uninspectable(reason) => {
                let refused = self.rw.fails_closed();
                uninspected::note(&self.rw.tools.name, reason, refused);
                if !refused {
                    return self.send(ev.raw).await;
                }
                self.fail_pending(reason).await;
                true
            }
        }
    }

    /// Under enforce, errors for what the stream still owes, before it ends early. True when
    /// it sent any (the stream then ends cleanly: a broken one could lose them in flight).
    async fn fail_pending(&mut self, reason: Reason) -> bool {
        if !self.rw.fails_closed() {
            return false;
        }
        let errors = self.rw.errors_for_pending(&mut self.pending, reason);
        for e in &errors {
            if !self.send(sse_event(e)).await {
                return false;
            }
        }
        !errors.is_empty()
    }
}

async fn pump(
    resp: super::upstream_client::UpstreamResponse,
    rw: Rewriter,
    mut listen: Option<broadcast::Receiver<Arc<str>>>,
    tx: FrameSender,
) {
    let upstream_name = rw.tools.name.clone();
    let mut upstream = resp.bytes_stream();
    let mut parser = sse::Parser::with_max(rw.max_bytes);
    let idle = if listen.is_some() {
        let cfg = rw.gw.serve.upstream(&upstream_name);
        Duration::from_millis(
            cfg.map_or_else(crate::config::limits::stream_idle_timeout_ms, |u| u.stream_idle_timeout_ms),
        )
    } else {
        rw.idle
    };
    let pending = rw.request_ids.clone();
    // What a client gets when the tools it may see changed; on a `subscriptions/listen` stream
    // (a POST, not a GET) it names the subscription, the listen request's id.
    let listen_id = if rw.listening { None } else { pending.first().map(String::as_str) };
    // Made only for a listening stream: most relays answer one request and never need it.
    let list_changed = listen.as_ref().map(|_| super::body::sse_event(&crate::mcp::envelope::list_changed(listen_id)));
    let mut relay = Relay { rw, tx, pending };
    loop {
        let changed = async {
            match listen.as_mut() {
                Some(rx) => rx.recv().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            chunk = tokio::time::timeout(idle, upstream.next()) => match chunk {
                Ok(Some(Ok(bytes))) => {
                    let events = match parser.push(&bytes) {
                        Ok(events) => events,
                        Err(e) => {
                            tracing::warn!(upstream = %upstream_name, error = %e, "SSE stream ended");
                            uninspected::note(&upstream_name, Reason::TooLarge, relay.rw.fails_closed());
                            if !relay.fail_pending(Reason::TooLarge).await {
                                let _ = relay.tx.send(Err(Box::new(e))).await;
                            }
                            return;
                        }
                    };
                    for ev in events {
                        if !relay.event(ev).await {
                            return; // the client left; dropping the upstream response closes it
                        }
                    }
                }
                Ok(Some(Err(e))) => {
                    tracing::debug!(upstream = %upstream_name, error = %e, "upstream SSE stream broke off");
                    if !relay.pending.is_empty() {
                        uninspected::note(&upstream_name, Reason::Broken, relay.rw.fails_closed());
                    }
                    if !relay.fail_pending(Reason::Broken).await {
                        let _ = relay.tx.send(Err(Box::new(e))).await;
                    }
                    return;
                }
                Ok(None) => {
                    if let Some(last) = parser.finish() {
                        relay.event(last).await;
                    }
                    return;
                }
                Err(_) => {
                    tracing::info!(upstream = %upstream_name, idle_ms = idle.as_millis() as u64, "upstream SSE stream silent too long; ended");
                    if !relay.pending.is_empty() {
                        uninspected::note(&upstream_name, Reason::Timeout, relay.rw.fails_closed());
                    }
                    relay.fail_pending(Reason::Timeout).await;
                    return;
                }
            },
            upstream_changed = changed => match upstream_changed {
                Ok(name) if *name == *upstream_name => {
                    let Some(notice) = list_changed.clone() else { continue };
                    if !relay.send(notice).await {
                        return;
                    }
                }
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => listen = None,
            },
        }
    }
}
