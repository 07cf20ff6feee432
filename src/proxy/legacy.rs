//! Legacy HTTP+SSE (2024-11-05) upstreams, for clients that speak it: `GET /sse/{upstream}`
//! opens the upstream's stream, whose `endpoint` event is rewritten to
//! `/messages/{upstream}?session_id=...` on the gateway; `POST /messages/{upstream}` goes to
//! the upstream's real endpoint. Every answer arrives on the stream, so `tools/list` results
//! are rewritten there, and a refused `tools/call` is answered on the stream too.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use futures_util::StreamExt;
use http::{Method, Response, StatusCode};
use tokio::sync::mpsc;

use super::body::{FrameSender, channel_body, full, sse_event, sse_response};
use super::error::GatewayError;
use super::forward::Outbound;
use super::headers::{end_to_end, upstream_request};
use super::session::Session;
use super::stream::Rewriter;
use super::{Body, Gateway};
use crate::mcp::message::{Body as RpcBody, parse_body};
use crate::mcp::sse;

/// One open legacy stream: where its messages really go, and how to add a message to it.
struct Link {
    endpoint: reqwest::Url,
    inject: mpsc::Sender<Bytes>,
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
    let session_id = uuid::Uuid::new_v4().simple().to_string();
    let session = gw.sessions.get(upstream, &session_id);
    if let Some(p) = &req.principal {
        session.bind(p);
    }
    let (inject_tx, inject_rx) = mpsc::channel::<Bytes>(64);
    let (tx, body) = channel_body();
    let rw =
        Rewriter { gw: gw.clone(), tools, local_ids: vec![], session: Some(session), caller: req.principal.clone() };
    let base = reqwest::Url::parse(sse_url).ok();
    tokio::spawn(pump(gw.clone(), resp, rw, base, session_id, inject_tx, inject_rx, tx));
    sse_response(body)
}

#[allow(clippy::too_many_arguments)]
async fn pump(
    gw: Arc<Gateway>,
    resp: reqwest::Response,
    rw: Rewriter,
    base: Option<reqwest::Url>,
    session_id: String,
    inject_tx: mpsc::Sender<Bytes>,
    mut inject_rx: mpsc::Receiver<Bytes>,
    tx: FrameSender,
) {
    let upstream = rw.tools.name.clone();
    let mut stream = resp.bytes_stream();
    let mut parser = sse::Parser::new();
    let mut inject_tx = Some(inject_tx);
    loop {
        let out: Vec<Bytes> = tokio::select! {
            chunk = stream.next() => {
                let Some(Ok(chunk)) = chunk else { break };
                let Ok(events) = parser.push(&chunk) else { break };
                let mut out = Vec::with_capacity(events.len());
                for ev in events {
                    if is_endpoint_event(&ev) {
                        let target = ev.data.as_deref().and_then(|d| base.as_ref()?.join(d.trim()).ok());
                        if let (Some(endpoint), Some(inject)) = (target, inject_tx.take()) {
                            gw.legacy.0.lock().unwrap_or_else(|e| e.into_inner()).insert(session_id.clone(), Link { endpoint, inject });
                        }
                        out.push(endpoint_event(&upstream, &session_id));
                        continue;
                    }
                    out.push(match &ev.data {
                        Some(d) if !d.is_empty() => match rw.rewrite(d.as_bytes()).await {
                            Some(new) => ev.with_data(&String::from_utf8_lossy(&new)),
                            None => ev.raw,
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

/// `POST /messages/{upstream}?session_id=...`.
pub async fn message(gw: Arc<Gateway>, upstream: &str, session_id: &str, req: Outbound) -> Response<Body> {
    let Some(tools) = gw.tools_for(upstream, req.principal.as_deref()) else {
        return GatewayError::UnknownUpstream(upstream.to_owned()).into_response(None);
    };
    let link = gw.legacy.0.lock().ok().and_then(|m| m.get(session_id).map(|l| (l.endpoint.clone(), l.inject.clone())));
    let Some((endpoint, inject)) = link else {
        return GatewayError::NotFound.into_response(None);
    };
    let session: Arc<Session> = gw.sessions.get(upstream, session_id);
    if let Some(p) = &req.principal
        && !session.bind(p)
    {
        tracing::warn!(upstream, subject = %p.subject, "message on another principal's legacy session refused");
        return crate::auth::Auth::not_your_session();
    }
    if let Some(RpcBody::Single(m)) = parse_body(&req.body) {
        if let Some(r) = tools.refuse_call_by(&m, req.principal.as_deref()) {
            crate::telemetry::traces::finish_request(&tracing::Span::current(), 202, Some("tool_refused"));
            let _ = inject.send(Bytes::from(r.body)).await;
            let mut resp = Response::new(full(Bytes::from_static(b"Accepted")));
            *resp.status_mut() = StatusCode::ACCEPTED;
            return resp;
        }
        if let (Some("tools/list"), Some(id)) = (m.method(), m.request_id()) {
            session.remember_list_id(id);
        }
    }
    let mut headers = upstream_request(&req.headers);
    if let Err(e) = gw.upstream_credentials(upstream, &mut headers).await {
        return e.into_response(None);
    }
    let sent = gw.http.request(Method::POST, endpoint).headers(headers).body(req.body).send().await;
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
