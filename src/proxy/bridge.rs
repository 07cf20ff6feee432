//! Old (2024-11-05) clients in front of new upstreams: `GET /sse/{upstream}` on a Streamable
//! HTTP or stdio upstream opens a bridge. Each message POSTed to `/messages/{upstream}` is
//! passed through the gateway's own `/mcp/{upstream}` handling (so scoring, refusals and the
//! session all work as for a new client) and every message of the answer goes out on the
//! client's SSE stream; the POST itself gets 202, as the old transport expects.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use futures_util::StreamExt;
use http::{HeaderMap, HeaderValue, Method, Response, StatusCode, header};
use http_body_util::BodyStream;
use tokio::sync::mpsc;

use super::body::{channel_body, full, sse_event, sse_response};
use super::forward::{Outbound, mcp};
use super::headers::SESSION_HEADER;
use super::{Body, Gateway};
use crate::http::error::GatewayError;
use crate::mcp::sse;

/// One old client's bridge: its stream, and the new-style session it stands for.
struct Bridge {
    upstream: String,
    out: mpsc::Sender<Bytes>,
    /// `Mcp-Session-Id` and `MCP-Protocol-Version` learned from the upstream's answers.
    session: Mutex<HeaderMap>,
    /// The principal that opened the stream (with `[auth]` on): only it may post to it.
    owner: Option<String>,
}

/// Open bridges by the session id the gateway gave the old client.
#[derive(Default)]
pub struct Bridges(Mutex<HashMap<String, Arc<Bridge>>>);

/// `GET /sse/{upstream}` for an upstream that is not itself legacy.
pub fn open(gw: Arc<Gateway>, upstream: &str, owner: Option<String>) -> Response<Body> {
    let id = uuid::Uuid::new_v4().simple().to_string();
    let (tx, mut rx) = mpsc::channel::<Bytes>(64);
    let bridge =
        Arc::new(Bridge { upstream: upstream.to_owned(), out: tx, session: Mutex::new(HeaderMap::new()), owner });
    gw.bridges.0.lock().unwrap_or_else(|e| e.into_inner()).insert(id.clone(), bridge.clone());
    let endpoint = Bytes::from(format!("event: endpoint\ndata: /messages/{upstream}?session_id={id}\n\n"));
    let (frames_tx, body) = channel_body();
    let gw2 = gw.clone();
    tokio::spawn(async move {
        if frames_tx.send(Ok(http_body::Frame::data(endpoint))).await.is_err() {
            return close(&gw2, &id, &bridge).await;
        }
        loop {
            tokio::select! {
                msg = rx.recv() => match msg {
                    Some(m) => {
                        if frames_tx.send(Ok(http_body::Frame::data(sse_event(&m)))).await.is_err() {
                            break;
                        }
                    }
                    None => break,
                },
                _ = frames_tx.closed() => break,
            }
        }
        close(&gw2, &id, &bridge).await;
    });
    sse_response(body)
}

/// The old client left: forget the bridge and end the new-style session upstream.
async fn close(gw: &Arc<Gateway>, id: &str, bridge: &Bridge) {
    gw.bridges.0.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
    let headers = bridge.session.lock().map(|h| h.clone()).unwrap_or_default();
    if headers.contains_key(SESSION_HEADER) {
        let out = Outbound { method: Method::DELETE, headers, query: None, body: Bytes::new(), principal: None };
        let _ = mcp(gw, &bridge.upstream, out).await;
    }
}

/// `POST /messages/{upstream}?session_id=...` on a bridge.
pub async fn message(gw: Arc<Gateway>, session_id: &str, req: Outbound) -> Response<Body> {
    let bridge = gw.bridges.0.lock().ok().and_then(|m| m.get(session_id).cloned());
    let Some(bridge) = bridge else { return GatewayError::NotFound.into_response(None) };
    let owns = match (&req.principal, &bridge.owner) {
        (Some(p), Some(owner)) => p.is_bound_as(owner),
        (None, None) => true,
        _ => false,
    };
    if !owns {
        return crate::auth::Auth::not_your_session();
    }
    let mut headers = super::headers::end_to_end(&req.headers);
    headers.insert(header::ACCEPT, HeaderValue::from_static("application/json, text/event-stream"));
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    if let Ok(known) = bridge.session.lock() {
        for (k, v) in known.iter() {
            headers.insert(k.clone(), v.clone());
        }
    }
    let out = Outbound { method: Method::POST, headers, query: None, body: req.body, principal: req.principal };
    // Answer the POST at once; the answers travel on the stream.
    tokio::spawn(async move {
        let resp = mcp(&gw, &bridge.upstream, out).await;
        relay(&bridge, resp).await;
    });
    let mut resp = Response::new(full(Bytes::from_static(b"Accepted")));
    *resp.status_mut() = StatusCode::ACCEPTED;
    resp
}

/// Every message of a new-style answer onto the old client's stream; the session id and
/// protocol version are kept for the next POSTs.
async fn relay(bridge: &Bridge, resp: Response<Body>) {
    // Copied: an answer's values share the upstream connection's read buffer, which a bridge
    // that lives as long as its client must not hold.
    let sid = resp.headers().get(SESSION_HEADER).and_then(|v| HeaderValue::from_bytes(v.as_bytes()).ok());
    if let (Some(sid), Ok(mut known)) = (sid, bridge.session.lock()) {
        known.insert("mcp-session-id", sid);
    }
    let is_sse = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.starts_with("text/event-stream"));
    let mut body = BodyStream::new(resp.into_body());
    let mut parser = sse::Parser::new();
    let mut whole = Vec::new();
    while let Some(Ok(frame)) = body.next().await {
        let Ok(chunk) = frame.into_data() else { continue };
        if !is_sse {
            whole.extend_from_slice(&chunk);
            continue;
        }
        let Ok(events) = parser.push(&chunk) else { return };
        for ev in events {
            if let Some(d) = ev.data.filter(|d| !d.is_empty()) {
                remember_version(bridge, d.as_bytes());
                let _ = bridge.out.send(Bytes::from(d)).await;
            }
        }
    }
    if !whole.is_empty() {
        // A JSON answer: one message, or a batch to split.
        let messages: Vec<Bytes> = match serde_json::from_slice::<Vec<Box<serde_json::value::RawValue>>>(&whole) {
            Ok(items) => items.into_iter().map(|r| Bytes::from(r.get().to_owned())).collect(),
            Err(_) => vec![Bytes::from(whole)],
        };
        for m in messages {
            remember_version(bridge, &m);
            let _ = bridge.out.send(m).await;
        }
    }
}

/// Learns the negotiated protocol version from an initialize answer.
fn remember_version(bridge: &Bridge, msg: &[u8]) {
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(msg) else { return };
    if let Some(version) = v.pointer("/result/protocolVersion").and_then(|p| p.as_str())
        && v.pointer("/result/capabilities").is_some()
        && let (Ok(value), Ok(mut known)) = (HeaderValue::from_str(version), bridge.session.lock())
    {
        known.insert("mcp-protocol-version", value);
    }
}
