//! Legacy HTTP+SSE (2024-11-05) upstreams, for clients that speak it: `GET /sse/{upstream}`
//! opens the upstream's stream, whose `endpoint` event is rewritten to
//! `/messages/{upstream}?session_id=...` on the gateway; `POST /messages/{upstream}` goes to
//! the upstream's real endpoint, through the exchange like every transport's messages. Every
//! answer arrives on the stream, so `tools/list` results are rewritten there, a refused
//! `tools/call` is answered on the stream too, and the gateway's own listings (to decide on a
//! call to a tool nobody listed) are answered there and kept from the client.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use futures_util::StreamExt;
use http::{Method, Response, StatusCode};
use tokio::sync::mpsc;

use super::body::{FrameSender, channel_body, full, sse_event, sse_response};
use super::forward::Outbound;
use super::headers::{end_to_end, upstream_request};
use super::session::Session;
use super::stream::{Inspected, Rewriter};
use super::uninspected;
use super::{Body, Gateway};
use crate::http::error::GatewayError;
use futures_util::future::BoxFuture;
use tokio::sync::oneshot;

use super::exchange::{self, Lister};
use crate::mcp::message::{IdKey, classify, id_key};
use crate::mcp::sse;

/// The gateway's own list requests on one legacy stream, by id, waiting for their answers.
type OwnRequests = Arc<Mutex<HashMap<IdKey, oneshot::Sender<Vec<u8>>>>>;

/// One open legacy stream: where its messages really go, and how to add a message to it.
struct Link {
    endpoint: reqwest::Url,
    inject: mpsc::Sender<Bytes>,
    own: OwnRequests,
}

/// Open legacy streams by the session id the gateway gave them.
#[derive(Default)]
pub struct LegacyLinks(Mutex<HashMap<String, Link>>);

fn endpoint_event(upstream: &str, session: &str) -> Bytes {
    Bytes::from(format!("event: endpoint\ndata: /messages/{upstream}?session_id={session}\n\n"))
}

fn is_endpoint_event(ev: &sse::Event) -> bool {
    String::from_utf8_lossy(&ev.raw).lines().any(|l| matches!(l.trim(), "event: endpoint" | "event:endpoint"))
}

/// `GET /sse/{upstream}`.
pub async fn open(gw: Arc<Gateway>, upstream: &str, sse_url: &str, req: Outbound) -> Response<Body> {
    let Some(tools) = gw.tools_for(upstream, req.principal.as_deref()) else {
        return GatewayError::UnknownUpstream(upstream.to_owned()).into_response(None);
    };
    let mut headers = upstream_request(&req.headers);
    if let Err(e) = gw.upstream_credentials(upstream, &mut headers).await {
        return e.into_response(None);
    }
    let resp = match gw.http.get(sse_url).headers(headers).header("accept", "text/event-stream").send().await {
        Ok(r) => r,
        Err(e) => {
            return GatewayError::Upstream { upstream: upstream.into(), reason: e.to_string() }.into_response(None);
        }
    };
    if !resp.status().is_success() {
        let status = resp.status();
        let mut out = Response::new(full(resp.bytes().await.unwrap_or_default()));
        *out.status_mut() = status;
        return out;
    }
    // A stream in another charset or compressed is read otherwise by the client than by the
    // gateway's UTF-8 event parser: under enforce it is refused, as an HTTP answer is.
    if let Some(reason) = super::headers::unreadable_answer(resp.headers()) {
        let refused = super::uninspected::fails_closed(&tools.policy);
        super::uninspected::note(upstream, reason, refused);
        if refused {
            let reason = format!("its event stream cannot be inspected ({})", reason.as_str());
            return GatewayError::Upstream { upstream: upstream.into(), reason }.into_response(None);
        }
    }
    let session_id = uuid::Uuid::new_v4().simple().to_string();
    let session = gw.sessions.get(upstream, &session_id);
    if let Some(p) = &req.principal {
        session.issued_to(p);
    }
    let (inject_tx, inject_rx) = mpsc::channel::<Bytes>(64);
    let (tx, body) = channel_body();
    // One stream carries every answer: any list-shaped answer on it is inspected.
    let rw =
        Rewriter { listening: true, caller: req.principal.clone(), ..Rewriter::new(gw.clone(), tools, Some(session)) };
    let base = reqwest::Url::parse(sse_url).ok();
    let link = Pending { session_id, inject_tx, own: OwnRequests::default() };
    tokio::spawn(pump(gw.clone(), resp, rw, base, link, inject_rx, tx));
    sse_response(body)
}

/// A stream's link before its `endpoint` event arrived.
struct Pending {
    session_id: String,
    inject_tx: mpsc::Sender<Bytes>,
    own: OwnRequests,
}

async fn pump(
    gw: Arc<Gateway>,
    resp: reqwest::Response,
    rw: Rewriter,
    base: Option<reqwest::Url>,
    link: Pending,
    mut inject_rx: mpsc::Receiver<Bytes>,
    tx: FrameSender,
) {
    let upstream = rw.tools.name.clone();
    let mut stream = resp.bytes_stream();
    let mut parser = sse::Parser::new();
    let Pending { session_id, inject_tx, own } = link;
    let mut inject_tx = Some(inject_tx);
    loop {
        let out: Vec<Bytes> = tokio::select! {
            chunk = stream.next() => {
                let Some(Ok(chunk)) = chunk else { break };
                let Ok(events) = parser.push(&chunk) else { break };
                let mut out = Vec::with_capacity(events.len());
                for ev in events {
                    if is_endpoint_event(&ev) {
                        // The endpoint stays on the stream's origin (scheme, host, port), as the
                        // SDKs' own SSE clients require: an upstream cannot send the client's
                        // messages, the gateway's listings and its configured credentials to
                        // another host.
                        let target = ev.data.as_deref().and_then(|d| {
                            let base = base.as_ref()?;
                            base.join(d.trim()).ok().filter(|t| t.origin() == base.origin())
                        });
                        if target.is_none() {
                            tracing::warn!(name: "tdqs.legacy_endpoint_refused", upstream = %upstream, "a legacy upstream's endpoint event names another origin than its stream's; its messages are refused");
                        }
                        if let (Some(endpoint), Some(inject)) = (target, inject_tx.take()) {
                            let link = Link { endpoint, inject, own: own.clone() };
                            gw.legacy.0.lock().unwrap_or_else(|e| e.into_inner()).insert(session_id.clone(), link);
                        }
                        out.push(endpoint_event(&upstream, &session_id));
                        continue;
                    }
                    let answered = ev.data.as_deref().and_then(|d| classify(d.as_bytes()).answer_id());
                    if let Some(waiter) = answered.and_then(|id| own.lock().ok()?.remove(&id)) {
                        // The gateway's own list: the exchange scores it; the client never sees it.
                        let _ = waiter.send(ev.data.unwrap_or_default().into_bytes());
                        continue;
                    }
                    out.push(match &ev.data {
                        Some(d) if !d.is_empty() => match rw.inspect(d.as_bytes(), &mut Vec::new()).await {
                            Inspected::Rewritten(new) => ev.with_data(&String::from_utf8_lossy(&new.to_vec())),
                            Inspected::Same => ev.raw,
                            Inspected::Uninspectable(reason) => {
                                // Under enforce an answer that cannot be read is not passed on.
                                uninspected::note(&upstream, reason, rw.fails_closed());
                                if rw.fails_closed() {
                                    continue;
                                }
                                ev.raw
                            }
                        },
                        _ => ev.raw,
                    });
                }
                out
            }
            injected = inject_rx.recv() => match injected {
                Some(m) => vec![sse_event(&m)],
                None => continue,
            },
            // The client left: close the upstream stream too, so the server ends its session.
            _ = tx.closed() => break,
        };
        for b in out {
            if tx.send(Ok(http_body::Frame::data(b))).await.is_err() {
                gw.legacy.0.lock().unwrap_or_else(|e| e.into_inner()).remove(&session_id);
                return;
            }
        }
    }
    gw.legacy.0.lock().unwrap_or_else(|e| e.into_inner()).remove(&session_id);
    gw.sessions.end(&upstream, &session_id);
}

/// The gateway's own `tools/list` requests on a client's legacy session: POSTed to the
/// upstream's message endpoint with the client's headers, answered on the stream (where the
/// pump takes the answer off before the client sees it).
struct LegacyLister<'a> {
    gw: &'a Gateway,
    upstream: &'a str,
    endpoint: &'a reqwest::Url,
    headers: &'a http::HeaderMap,
    own: &'a OwnRequests,
}

impl Lister for LegacyLister<'_> {
    fn list_page<'a>(&'a self, id: &'a str, request: Vec<u8>) -> BoxFuture<'a, Result<Vec<u8>, String>> {
        Box::pin(async move {
            let key = id_key(&serde_json::Value::from(id).to_string()).unwrap_or_default();
            let (tx, rx) = oneshot::channel();
            if let Ok(mut own) = self.own.lock() {
                own.retain(|_, waiting| !waiting.is_closed());
                own.insert(key, tx);
            }
            let mut headers = upstream_request(self.headers);
            headers.insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static("application/json"));
            headers.remove(http::header::CONTENT_ENCODING);
            self.gw.upstream_credentials(self.upstream, &mut headers).await.map_err(|e| e.to_string())?;
            let sent = self.gw.http.post(self.endpoint.clone()).headers(headers).body(request).send().await;
            match sent {
                Ok(r) if r.status().is_success() => {}
                Ok(r) => return Err(format!("the server refused the tools/list POST: {}", r.status())),
                Err(e) => return Err(e.to_string()),
            }
            rx.await.map_err(|_| "the stream ended before the answer".to_owned())
        })
    }
}

/// `POST /messages/{upstream}?session_id=...`: the body through the exchange; what it answers
/// goes on the stream (the only place a legacy client reads answers), the rest upstream.
pub async fn message(gw: Arc<Gateway>, upstream: &str, session_id: &str, req: Outbound) -> Response<Body> {
    let Some(tools) = gw.tools_for(upstream, req.principal.as_deref()) else {
        return GatewayError::UnknownUpstream(upstream.to_owned()).into_response(None);
    };
    let link = gw
        .legacy
        .0
        .lock()
        .ok()
        .and_then(|m| m.get(session_id).map(|l| (l.endpoint.clone(), l.inject.clone(), l.own.clone())));
    let Some((endpoint, inject, own)) = link else {
        return GatewayError::NotFound.into_response(None);
    };
    let session: Arc<Session> = gw.sessions.get(upstream, session_id);
    if let Some(p) = &req.principal
        && !session.bind(p)
    {
        tracing::warn!(upstream, subject = %p.subject, "message on another principal's legacy session refused");
        return crate::auth::Auth::not_your_session();
    }
    let encoding = super::headers::content_encoding(&req.headers);
    let lister = LegacyLister { gw: &gw, upstream, endpoint: &endpoint, headers: &req.headers, own: &own };
    let admitted =
        exchange::admit_as(&tools, &gw.scoring, &req.body, encoding, Some(&lister), req.principal.as_deref()).await;
    if admitted.unreadable {
        let body = admitted.answer_body().unwrap_or_default();
        return crate::http::error::GatewayError::Unreadable(body).into_response(None);
    }
    if !admitted.answers.is_empty() {
        crate::telemetry::traces::finish_request(&tracing::Span::current(), 202, Some("tool_refused"));
    }
    for answer in &admitted.answers {
        let _ = inject.send(Bytes::from(answer.clone())).await;
    }
    admitted.list_ids().iter().for_each(|id| session.remember_list_id(id));
    let Some(forward) = admitted.forward else {
        let mut resp = Response::new(full(Bytes::from_static(b"Accepted")));
        *resp.status_mut() = StatusCode::ACCEPTED;
        return resp;
    };
    let mut headers = upstream_request(&req.headers);
    if let Err(e) = gw.upstream_credentials(upstream, &mut headers).await {
        return e.into_response(None);
    }
    let sent = gw.http.request(Method::POST, endpoint).headers(headers).body(forward).send().await;
    match sent {
        Ok(r) => {
            let status = r.status();
            let headers = end_to_end(r.headers());
            let mut resp = Response::new(full(r.bytes().await.unwrap_or_default()));
            *resp.status_mut() = status;
            *resp.headers_mut() = headers;
            resp
        }
        Err(e) => GatewayError::Upstream { upstream: upstream.into(), reason: e.to_string() }.into_response(None),
    }
}
