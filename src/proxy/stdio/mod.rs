//! stdio upstreams served as Streamable HTTP: `initialize` starts a child process and a
//! session (`Mcp-Session-Id`), later POSTs write to its stdin and stream its answers back,
//! GET opens the stream for server-initiated messages, DELETE ends the child. A session-less
//! 2026-07-28 request borrows a child of its caller's for its own duration (`pool.rs`). A cap
//! on children, and a reaper for idle ones.

pub use crate::mcp::child;
pub mod pool;
mod session;
pub mod wrap;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderValue, Method, Response, StatusCode, header};
use http_body_util::{BodyExt, StreamBody};

use super::body::{full, join_array, json_response, sse_event};
use super::exchange::Admitted;
use super::forward::Outbound;
use super::{Body, Gateway};
use crate::catalog::UpstreamTools;
use crate::config::UpstreamConfig;
use crate::http::error::GatewayError;
use crate::mcp::message::IdKey;
pub use session::StdioSession;

use super::headers::SESSION_HEADER;

/// The sessions (and so the children) of one stdio upstream.
pub struct StdioUpstream {
    pub config: UpstreamConfig,
    /// How each child is started, its `env` expanded once (see [`child::Launch::new`]).
    launch: child::Launch,
    /// Every child: a session's, or a pooled one (see `pool.rs`) under an id no client is told.
    sessions: Mutex<HashMap<String, Arc<StdioSession>>>,
    /// Pooled children nobody holds now, least recently given back first.
    idle: Mutex<Vec<Arc<StdioSession>>>,
    /// Woken when a pooled child is given back (a request may wait for one at the cap).
    given_back: tokio::sync::Notify,
}

impl StdioUpstream {
    /// The upstream's launch settled (its `cwd` against `base_dir`, its `env` expanded); `Err`
    /// names the upstream and the `env` key whose variable is not set.
    pub fn new(config: UpstreamConfig, base_dir: &std::path::Path) -> Result<Arc<Self>, String> {
        let command = config.transport().command().unwrap_or_default().to_vec();
        let cwd = config.cwd.as_ref().map(|c| if c.is_absolute() { c.clone() } else { base_dir.join(c) });
        let launch =
            child::Launch::new(command, &config.env, cwd).map_err(|e| format!("upstream \"{}\": {e}", config.name))?;
        let up = Arc::new(StdioUpstream {
            config,
            launch,
            sessions: Mutex::new(HashMap::new()),
            idle: Mutex::new(Vec::new()),
            given_back: tokio::sync::Notify::new(),
        });
        reap_idle(Arc::downgrade(&up));
        Ok(up)
    }

    /// Children running now.
    pub fn session_count(&self) -> usize {
        self.sessions.lock().map(|s| s.len()).unwrap_or(0)
    }

    /// A live session by id; `None` once it ended (its id then gets 404).
    pub fn session(&self, id: &str) -> Option<Arc<StdioSession>> {
        self.get(id)
    }

    /// A session's child by its id; pooled children are nobody's session.
    fn get(&self, id: &str) -> Option<Arc<StdioSession>> {
        self.sessions.lock().ok()?.get(id).filter(|s| !s.is_ended() && s.owner.is_none()).cloned()
    }

    /// Forgets a child whose process is gone; a request waiting for room may then start one.
    fn remove(&self, id: &str) -> Option<Arc<StdioSession>> {
        let removed = self.sessions.lock().ok()?.remove(id);
        self.given_back.notify_waiters();
        removed
    }

    /// Starts a child for a new session, or for the pool when `owner` is set, unless the cap
    /// is reached (an idle pooled child is stopped to make room before that).
    fn start(
        self: &Arc<Self>,
        gw: &Gateway,
        tools: Arc<UpstreamTools>,
        owner: Option<String>,
    ) -> Result<Arc<StdioSession>, Refused> {
        let poisoned = || Refused::Failed("session table poisoned".to_owned());
        let mut sessions = self.sessions.lock().map_err(|_| poisoned())?;
        // Ended sessions count until their process is reaped: the cap is on processes.
        sessions.retain(|_, s| !s.is_reaped());
        if sessions.len() >= self.config.max_sessions
            && let Some(spare) = self.idle.lock().ok().and_then(|mut idle| (!idle.is_empty()).then(|| idle.remove(0)))
        {
            sessions.remove(&spare.id);
            tokio::spawn(async move { spare.end(Some("its place was needed".into())).await });
        }
        if sessions.len() >= self.config.max_sessions {
            return Err(Refused::Full(format!(
                "upstream \"{}\" already runs {} sessions (max_sessions); end one or try again later",
                self.config.name, self.config.max_sessions
            )));
        }
        let spawned = child::spawn(&self.config.name, &self.launch).map_err(|e| Refused::Failed(e.to_string()))?;
        let id = uuid::Uuid::new_v4().simple().to_string();
        tracing::debug!(upstream = %self.config.name, session = %id, pid = ?spawned.process.pid, "stdio server started");
        let max_answer = self.config.max_answer_bytes;
        let session =
            Arc::new(StdioSession::new(id.clone(), tools, gw.scoring.clone(), spawned.process, max_answer, owner));
        let (s, weak) = (session.clone(), Arc::downgrade(self));
        tokio::spawn(async move {
            s.clone().pump(spawned.stdout).await;
            if let Some(up) = weak.upgrade() {
                up.remove(&s.id);
            }
        });
        sessions.insert(id, session.clone());
        Ok(session)
    }
}

/// Why no child was started.
#[derive(Debug)]
enum Refused {
    /// `max_sessions` children run already.
    Full(String),
    /// The process could not be started.
    Failed(String),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Full(why) | Refused::Failed(why) => f.write_str(why),
        }
    }
}

/// Ends sessions idle past `idle_timeout_ms`, checking every few seconds.
fn reap_idle(up: Weak<StdioUpstream>) {
    tokio::spawn(async move {
        loop {
            let Some(u) = up.upgrade() else { return };
            let idle = Duration::from_millis(u.config.idle_timeout_ms);
            let tick = (idle / 4).clamp(Duration::from_millis(50), Duration::from_secs(30));
            let stale: Vec<Arc<StdioSession>> = u
                .sessions
                .lock()
                .map(|s| s.values().filter(|s| s.idle_for() >= idle).cloned().collect())
                .unwrap_or_default();
            for s in stale {
                tracing::info!(upstream = %u.config.name, session = %s.id, "idle stdio session reaped");
                let weak = Arc::downgrade(&u);
                tokio::spawn(async move {
                    s.end(Some("idle".into())).await;
                    if let Some(u) = weak.upgrade() {
                        u.remove(&s.id);
                    }
                });
            }
            drop(u);
            tokio::time::sleep(tick).await;
        }
    });
}

/// Each message from `rx` as an SSE event, after the ready-made `prefix` events. `holding` (a
/// pooled child's lease) lives as long as the stream; `changes`, on a `subscriptions/listen`
/// stream, adds the gateway's own list-changed notices for `upstream`.
fn sse_stream(
    rx: tokio::sync::mpsc::Receiver<Bytes>,
    prefix: Vec<Bytes>,
    holding: Option<pool::Lease>,
    changes: Option<Changes>,
) -> Body {
    use futures_util::StreamExt;
    use tokio::sync::broadcast::error::RecvError;
    let head = futures_util::stream::iter(prefix.into_iter().map(Ok));
    let tail = futures_util::stream::unfold((rx, changes, holding), |(mut rx, mut changes, holding)| async move {
        loop {
            let notice = async {
                match changes.as_mut() {
                    Some((c, _, _)) => c.recv().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                m = rx.recv() => return m.map(|m| (Ok::<_, super::BoxError>(sse_event(&m)), (rx, changes, holding))),
                changed = notice => match changed {
                    Ok(name) if changes.as_ref().is_some_and(|(_, up, _)| *up == name) => {
                        let listen_id = changes.as_ref().map(|(_, _, id)| id.as_str());
                        let event = sse_event(&crate::mcp::envelope::list_changed(listen_id));
                        return Some((Ok(event), (rx, changes, holding)));
                    }
                    Ok(_) | Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => changes = None,
                },
            }
        }
    });
    let frames = head.chain(tail).map(|r| r.map(http_body::Frame::data));
    BodyExt::boxed(StreamBody::new(frames))
}

/// An SSE response for a session's stream, carrying the session id (none for a pooled child:
/// a session-less caller is never told one).
fn session_stream(body: Body, session: Option<&str>) -> Response<Body> {
    let mut resp = super::body::sse_response(body);
    if let Some(v) = session.and_then(|s| HeaderValue::from_str(s).ok()) {
        resp.headers_mut().insert(SESSION_HEADER, v);
    }
    resp
}

/// Handles `/mcp/{upstream}` for a stdio upstream. `admitted` is what the exchange left of a
/// POST body (`body` is its `forward`, stamped with the trace context); `pooled` holds the child
/// of a session-less request.
pub async fn serve_session(
    gw: Arc<Gateway>,
    up: Arc<StdioUpstream>,
    tools: Arc<UpstreamTools>,
    req: Outbound,
    admitted: Admitted,
    body: Bytes,
    pooled: Option<pool::Lease>,
) -> Response<Body> {
    if let Some(lease) = pooled {
        let listen_id = match admitted.has_method("subscriptions/listen") {
            true => admitted.request_ids().into_iter().next(),
            false => None,
        };
        let changes = listen_id.map(|id| (gw.catalog.list_changes(), Arc::from(tools.name.as_str()), id));
        let session = lease.session().clone();
        let held = Held { lease: Some(lease), changes };
        return post(&session, &req, admitted, body, up.config.request_timeout_ms, held).await;
    }
    let sid = req.headers.get(SESSION_HEADER).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let single_id = match (admitted.batch, admitted.forwarded.as_slice()) {
        (false, [m]) => m.request_id().cloned(),
        _ => None,
    };
    let existing = sid.as_deref().map(|s| up.get(s));
    match (&req.method, existing) {
        (&Method::DELETE, Some(Some(s))) => {
            s.end(Some("ended by the client".into())).await;
            up.remove(&s.id);
            Response::new(full(Bytes::new()))
        }
        (_, Some(None)) => GatewayError::UnknownSession.into_response(single_id.as_deref()),
        (&Method::GET, Some(Some(s))) => match s.open_listener() {
            None => GatewayError::StreamTaken.into_response(None),
            Some(rx) => {
                let mut changes = gw.catalog.list_changes();
                let (tx_name, weak) = (tools.name.clone(), Arc::downgrade(&s));
                let notify = s.clone();
                tokio::spawn(async move {
                    while let Ok(name) = changes.recv().await {
                        let Some(_alive) = weak.upgrade() else { return };
                        if *name == *tx_name {
                            notify.notify_list_changed().await;
                        }
                    }
                });
                session_stream(sse_stream(rx, vec![], None, None), Some(&s.id))
            }
        },
        (&Method::GET | &Method::DELETE, None) => GatewayError::SessionRequired.into_response(None),
        (_, found) => {
            if admitted.forwarded.is_empty() {
                return GatewayError::NotJson.into_response(None);
            }
            let session = match found {
                Some(Some(s)) => s,
                _ if admitted.has_method("initialize") => match up.start(&gw, tools.clone(), None) {
                    Ok(s) => s,
                    Err(e) => return GatewayError::Unavailable(e.to_string()).into_response(single_id.as_deref()),
                },
                _ => {
                    return GatewayError::SessionRequired.into_response(single_id.as_deref());
                }
            };
            post(&session, &req, admitted, body, up.config.request_timeout_ms, Held::default()).await
        }
    }
}

/// The gateway's list-changed notices for a `subscriptions/listen` stream: the catalog's
/// announcements, the upstream they must name, and the listen request's id.
type Changes = (tokio::sync::broadcast::Receiver<Arc<str>>, Arc<str>, IdKey);

/// What a POST on a pooled child keeps for as long as its answer lasts.
#[derive(Default)]
struct Held {
    lease: Option<pool::Lease>,
    /// For `subscriptions/listen`: the gateway's list-changed notices to add to its stream.
    changes: Option<Changes>,
}

async fn post(
    session: &Arc<StdioSession>,
    req: &Outbound,
    admitted: Admitted,
    body: Bytes,
    timeout_ms: u64,
    held: Held,
) -> Response<Body> {
    // A session-less caller is never told the id of the child it borrowed.
    let session_id = held.lease.is_none().then_some(session.id.as_str());
    let ids: Vec<IdKey> = admitted.request_ids();
    let list_ids: Vec<IdKey> = admitted.list_ids();
    let batch = admitted.batch;
    let refusals = admitted.answers;
    if ids.is_empty() {
        if !refusals.is_empty() {
            return json_response(StatusCode::OK, join_array(&refusals));
        }
        if let Err(e) = session.send(&body).await {
            return write_failed(session, e, None);
        }
        let mut r = Response::new(full(Bytes::new()));
        *r.status_mut() = StatusCode::ACCEPTED;
        return r;
    }
    let accepts_sse =
        req.headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|a| a.contains("text/event-stream"));
    let reader = if accepts_sse { session::Reader::Sse } else { session::Reader::Json };
    let (stream, mut rx) = session.open_stream(&ids, &list_ids, reader);
    if let Err(e) = session.send(&body).await {
        return write_failed(session, e, ids.first().map(String::as_str));
    }
    // A `subscriptions/listen` is answered only when it ends: it has no time limit.
    if held.changes.is_none() {
        let expiring = session.clone();
        tokio::spawn(async move { expiring.expire(stream, Duration::from_millis(timeout_ms)).await });
    }
    if accepts_sse {
        let prefix = refusals.iter().map(|r| sse_event(r)).collect();
        return session_stream(sse_stream(rx, prefix, held.lease, held.changes), session_id);
    }
    // JSON: only this body's answers come here; anything else goes to an SSE stream or GET.
    let mut answers = refusals;
    while let Some(m) = rx.recv().await {
        if crate::mcp::message::classify(&m).answer_id().is_some() {
            answers.push(m.to_vec());
        }
    }
    let body = if answers.len() == 1 && !batch { answers.remove(0) } else { join_array(&answers) };
    let mut resp = json_response(StatusCode::OK, body);
    if let Some(v) = session_id.and_then(|s| HeaderValue::from_str(s).ok()) {
        resp.headers_mut().insert(SESSION_HEADER, v);
    }
    drop(held); // the child goes back to the pool only now that its answers are in
    resp
}

/// 502 for a message the server's stdin would not take.
fn write_failed(session: &StdioSession, e: impl std::fmt::Display, id: Option<&str>) -> Response<Body> {
    let reason = format!("cannot write to the server: {e}");
    GatewayError::Upstream { upstream: session.tools.name.clone(), reason }.into_response(id)
}
