//! One client request through to a Streamable HTTP upstream and its answer back: POST (the
//! body through the exchange first: strict reading, learning, refusals, batches included), GET
//! streams, DELETE, and whatever status the upstream chose, with its content type kept.

use std::sync::Arc;

use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue, Method, Response, StatusCode, header};

use futures_util::future::BoxFuture;

use super::body::{full, join_array, json_response, sse_event};
use super::exchange::{self, Admitted};
use super::headers::{into_upstream_request, strip_hop_by_hop};
use super::json_answer::{self, JsonAnswer};
use super::stream::{Rewriter, sse_body};
use super::upstream_client::{SendError, UpstreamResponse};
use super::watch::Watch;
use super::{Body, Gateway};
use crate::catalog::UpstreamTools;
use crate::http::error::GatewayError;
use crate::mcp::message::{Message, Payload, parse_body};
use crate::mcp::read;

use super::headers::{MCP_METHOD, MCP_NAME, SESSION_HEADER};
const SSE_TYPE: &[u8] = b"text/event-stream";

/// A request on its way to an upstream.
pub struct Outbound {
    pub method: Method,
    pub headers: HeaderMap,
    pub query: Option<String>,
    pub body: Bytes,
    /// The authenticated caller (with `[auth]` on); `None` for the gateway's own requests.
    pub principal: Option<Arc<crate::auth::Principal>>,
}

/// Handles `/mcp/{upstream}` once the request passed the listener's checks. A POST body is
/// read here, once: the request's span, its place in the session's order and the exchange all
/// work from that one reading.
pub async fn mcp(gw: &Arc<Gateway>, upstream: &str, mut req: Outbound) -> Response<Body> {
    use tracing::Instrument;
    let Some(tools) = gw.tools_for(upstream, req.principal.as_deref()) else {
        return GatewayError::UnknownUpstream(upstream.to_owned()).into_response(None);
    };
    let body = req.body.clone();
    let reading =
        (req.method == Method::POST).then(|| read::read_sent(&body, super::headers::content_encoding(&req.headers)));
    let parsed = reading.as_ref().and_then(|r| read::payload_of(r, &body));
    let watch = Watch::start(upstream, &mut req, parsed.as_ref());
    let resp = forward_checked(gw, tools, upstream, req, parsed, reading).instrument(watch.span.clone()).await;
    watch.finish(resp)
}

/// Runs `serve` on a request to a configured upstream inside the request's span (see [`Watch`]).
pub async fn observed<F, Fut>(upstream: &str, mut req: Outbound, serve: F) -> Response<Body>
where
    F: FnOnce(Outbound) -> Fut,
    Fut: std::future::Future<Output = Response<Body>>,
{
    use tracing::Instrument;
    let parsed = if req.method == Method::POST { parse_body(&req.body) } else { None };
    let watch = Watch::start(upstream, &mut req, parsed.as_ref());
    let resp = serve(req).instrument(watch.span.clone()).await;
    watch.finish(resp)
}

async fn forward_checked(
    gw: &Arc<Gateway>,
    tools: Arc<UpstreamTools>,
    upstream: &str,
    mut req: Outbound,
    parsed: Option<Payload>,
    reading: Option<Result<read::BodyReading<'_>, read::Unreadable>>,
) -> Response<Body> {
    let session_id = req.headers.get(SESSION_HEADER).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let session = session_id.as_deref().map(|s| gw.sessions.get(upstream, s));
    // Its place in the session's order, taken on arrival (see `order.rs`).
    let turn = super::order::Turn::take(session.as_deref(), &req.method, parsed.as_ref());
    if let (Some(s), Some(p)) = (&session, &req.principal)
        && !s.bind(p)
    {
        tracing::warn!(upstream, subject = %p.subject, "request on another principal's session refused");
        return crate::auth::Auth::not_your_session();
    }
    let single_id = match &parsed {
        Some(Payload::Single(m)) => m.request_id().cloned(),
        _ => None,
    };
    if let Some(Payload::Single(m)) = &parsed
        && let Err(e) = check_method_headers(&req.headers, m)
    {
        return e.into_response(single_id.as_deref());
    }
    let stdio = gw.stdio.get(upstream).cloned();

    // The exchange reads the body, learns and refuses; what is left goes upstream. A session-less
    // request to a stdio upstream borrows a child when its listing or its forwarding needs one.
    let mut borrowing = None;
    let admitted = if let Some(reading) = reading {
        match &stdio {
            None => {
                let lister = HttpLister { gw, upstream, req: &req };
                exchange::admit_read(&tools, &gw.scoring, &req.body, reading, Some(&lister), req.principal.as_deref())
                    .await
            }
            Some(up) => {
                if session_id.is_none() && super::stdio::pool::is_sessionless(parsed.as_ref(), &req.body) {
                    let owner = super::stdio::pool::owner_of(req.principal.as_deref());
                    borrowing = Some(super::stdio::pool::Borrowing::new(up, gw, &tools, owner));
                }
                let s = session_id.as_deref().and_then(|id| up.session(id));
                let lister = match &borrowing {
                    Some(b) => Some(b as &dyn exchange::Lister),
                    None => s.as_deref().map(|s| s as &dyn exchange::Lister),
                };
                exchange::admit_read(&tools, &gw.scoring, &req.body, reading, lister, req.principal.as_deref()).await
            }
        }
    } else {
        Admitted { forward: Some(req.body.clone()), ..Admitted::default() }
    };
    let Some(body) = admitted.forward.clone() else {
        // Nothing left to send: every message was answered here (or dropped).
        let span = tracing::Span::current();
        return match admitted.answer_body() {
            Some(answer) if admitted.unreadable => GatewayError::Unreadable(answer).into_response(None),
            Some(answer) => {
                crate::telemetry::traces::finish_request(&span, 200, Some("tool_refused"));
                json_response(StatusCode::OK, answer)
            }
            None => {
                let mut r = Response::new(full(Bytes::new()));
                *r.status_mut() = StatusCode::ACCEPTED;
                r
            }
        };
    };
    let refusals = admitted.answers.clone();
    let local_ids = admitted.list_ids();
    if let Some(s) = &session {
        local_ids.iter().for_each(|id| s.remember_list_id(id));
    }
    let pooled = match borrowing {
        Some(b) => match b.into_lease().await {
            Ok(lease) => Some(lease),
            Err(e) => return GatewayError::Unavailable(e).into_response(single_id.as_deref()),
        },
        None => None,
    };
    if let Some(up) = stdio {
        // stdio has no headers: the trace context travels in each message's `params._meta`.
        let body = crate::telemetry::traces::stamp_meta(&tracing::Span::current(), &body).map_or(body, Bytes::from);
        let principal = req.principal.clone();
        let resp = super::stdio::serve_session(gw.clone(), up, tools, req, admitted, body, pooled).await;
        gw.sessions.bind_issued(upstream, session_id.as_deref(), resp.headers(), principal.as_deref());
        return resp;
    }
    let listening = req.method == Method::GET || admitted.has_method("subscriptions/listen");
    let (request_ids, batch) = (admitted.request_ids(), admitted.batch);

    turn.ready_for(gw, upstream).await;
    // Under `[auth]`, a request without a session may open one: held open until its issue is
    // read, for answers on sessions not seen issued to wait for (see `openings.rs`).
    let opening = (session_id.is_none() && req.principal.is_some()).then(|| gw.sessions.openings.open(upstream));
    // The client's headers are not needed past here: they go upstream as they are, less the
    // hop-by-hop ones, without a copy.
    let headers = std::mem::take(&mut req.headers);
    let resp = match send(gw, upstream, req.method.clone(), headers, req.query.as_deref(), body).await {
        Ok(r) => r,
        Err(e) => return e.into_response(single_id.as_deref()),
    };
    drop(turn);
    // A session ends on its DELETE, or when the upstream says it no longer knows it.
    let ended = (req.method == Method::DELETE && resp.status().is_success()) || resp.status() == StatusCode::NOT_FOUND;
    if ended && let Some(s) = &session_id {
        gw.sessions.end(upstream, s);
    }
    gw.sessions.bind_issued(upstream, session_id.as_deref(), resp.headers(), req.principal.as_deref());
    drop(opening);
    // The id was issued to someone else while this request was on its way (it was sent ahead
    // of the issue, a guess): what the upstream answered from that session is not this
    // caller's to read. A session not seen issued waits for the openings in flight, one of
    // which may be issuing it right now.
    if let (Some(s), Some(p)) = (&session, &req.principal)
        && !s.seen_issued()
        && !gw.sessions.openings.settled(upstream).await
    {
        tracing::warn!(upstream, subject = %p.subject, "answer withheld: a session opening in flight did not finish");
        return crate::auth::Auth::not_your_session();
    }
    if let (Some(s), Some(p)) = (&session, &req.principal)
        && !s.belongs_to(p)
    {
        tracing::warn!(upstream, subject = %p.subject, "answer from a session issued to another principal withheld");
        return crate::auth::Auth::not_your_session();
    }
    let mut rw = Rewriter::new(gw.clone(), tools, session);
    rw.caller = req.principal.clone();
    (rw.local_ids, rw.listening) = (local_ids, req.method == Method::GET);
    // Only the forwarded requests are owed by the upstream (refused ones were answered here).
    rw.request_ids = request_ids;
    relay(resp, rw, listening.then(|| gw.catalog.list_changes()), refusals, batch).await
}

/// The upstream's answer back to the client, rewritten where it holds list results.
async fn relay(
    mut resp: UpstreamResponse,
    rw: Rewriter,
    listen: Option<tokio::sync::broadcast::Receiver<Arc<str>>>,
    refusals: Vec<Vec<u8>>,
    batch: bool,
) -> Response<Body> {
    let status = resp.status();
    // Bytes the gateway cannot read as the client will: compressed, or in another charset.
    let unreadable = super::headers::unreadable_answer(resp.headers());
    // The answer's headers go to the client less the hop-by-hop ones, moved, not copied.
    let mut headers = std::mem::take(&mut resp.headers);
    strip_hop_by_hop(&mut headers);
    let is_sse = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.as_bytes().get(..SSE_TYPE.len()))
        .is_some_and(|t| t.eq_ignore_ascii_case(SSE_TYPE));
    if !refusals.is_empty() && (status == StatusCode::ACCEPTED || resp.content_length() == Some(0)) {
        // Only notifications went upstream: the refused requests still need their answers.
        return json_response(StatusCode::OK, join_array(&refusals));
    }
    // A success with a body, on an exchange that may carry a list answer: inspected.
    let inspect = status.is_success() && status != StatusCode::ACCEPTED && (rw.watching() || !refusals.is_empty());
    if inspect && let Some(reason) = unreadable.filter(|_| is_sse || rw.fails_closed()) {
        let chunks = Box::pin(resp.bytes_stream());
        // Compressed or in another charset: never read, only passed on (observe, annotate) or
        // refused (enforce).
        return match json_answer::answer(chunks, None, Some(reason), &rw, &refusals, batch).await {
            JsonAnswer::Body(body) => with_head(status, headers, body),
            JsonAnswer::Replaced(bytes) => replaced(headers, bytes),
        };
    }
    let body = if is_sse {
        // Keep any intermediary (nginx and friends) from buffering the stream.
        headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
        let prefix: Vec<Bytes> = refusals.iter().map(|r| sse_event(r)).collect();
        prepend(prefix, sse_body(resp, rw, listen))
    } else if inspect {
        let declared = resp.content_length();
        let chunks = Box::pin(resp.bytes_stream());
        match json_answer::answer(chunks, declared, unreadable, &rw, &refusals, batch).await {
            JsonAnswer::Body(body) => body,
            JsonAnswer::Replaced(bytes) => return replaced(headers, bytes),
        }
    } else {
        // Passed on as it comes, its length kept (see `into_body`).
        resp.into_body()
    };
    with_head(status, headers, body)
}

fn with_head(status: StatusCode, headers: HeaderMap, body: Body) -> Response<Body> {
    let mut out = Response::new(body);
    *out.status_mut() = status;
    *out.headers_mut() = headers;
    out
}

/// The gateway's own answer in place of the upstream's body: JSON, or 202 when nothing is owed.
/// The upstream's other headers (its session id) stay.
fn replaced(mut headers: HeaderMap, bytes: Option<Vec<u8>>) -> Response<Body> {
    headers.remove(header::CONTENT_ENCODING);
    headers.remove("x-accel-buffering");
    headers.remove(header::CACHE_CONTROL);
    match bytes {
        Some(b) => {
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
            with_head(StatusCode::OK, headers, full(b))
        }
        None => {
            headers.remove(header::CONTENT_TYPE);
            with_head(StatusCode::ACCEPTED, headers, full(Bytes::new()))
        }
    }
}

/// The gateway's own `tools/list` requests over HTTP, with the caller's headers (session,
/// auth), so the listing happens in the caller's context.
struct HttpLister<'a> {
    gw: &'a Arc<Gateway>,
    upstream: &'a str,
    req: &'a Outbound,
}

impl exchange::Lister for HttpLister<'_> {
    fn list_page<'a>(&'a self, id: &'a str, request: Vec<u8>) -> BoxFuture<'a, Result<Vec<u8>, String>> {
        Box::pin(async move {
            let mut headers = self.req.headers.clone();
            headers.insert(header::ACCEPT, HeaderValue::from_static("application/json, text/event-stream"));
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
            for h in ["mcp-method", "mcp-name", "content-encoding", "content-length"] {
                headers.remove(h);
            }
            if crate::mcp::envelope::of_request(&request).is_some() {
                // 2026-07-28: the method header is required, and must match the body.
                headers.insert("mcp-method", HeaderValue::from_static("tools/list"));
            }
            let query = self.req.query.as_deref();
            let resp = send(self.gw, self.upstream, Method::POST, headers, query, Bytes::from(request))
                .await
                .map_err(|e| e.to_string())?;
            let limit = self
                .gw
                .serve
                .upstream(self.upstream)
                .map_or_else(crate::config::limits::max_answer_bytes, |u| u.max_answer_bytes);
            let answer = crate::mcp::answer::read_answer(resp.into_reqwest(), &serde_json::Value::from(id), limit)
                .await
                .map_err(|e| e.to_string())?;
            serde_json::to_vec(&answer).map_err(|e| e.to_string())
        })
    }
}

/// Sends a request to the upstream: the client's `headers` less the hop-by-hop ones, with what
/// the gateway presents to the upstream, to the URI prepared at start (plus the client's query
/// string). Errors when the upstream cannot be reached or does not begin its answer in time.
async fn send(
    gw: &Gateway,
    upstream: &str,
    method: Method,
    headers: HeaderMap,
    query: Option<&str>,
    body: Bytes,
) -> Result<UpstreamResponse, GatewayError> {
    let target = gw.targets.get(upstream).ok_or_else(|| GatewayError::UnknownUpstream(upstream.to_owned()))?;
    let failed = |reason: String| GatewayError::Upstream { upstream: upstream.to_owned(), reason };
    let mut headers = into_upstream_request(headers);
    if let Some(c) = &target.credentials {
        c.apply(&mut headers).await.map_err(failed)?;
    }
    if let Some(basic) = &target.url_credentials
        && !headers.contains_key(header::AUTHORIZATION)
    {
        headers.insert(header::AUTHORIZATION, basic.clone());
    }
    if let Some(host) = &target.host {
        headers.insert(header::HOST, host.clone());
    }
    let mut out = http::Request::new(http_body_util::Full::new(body));
    *out.method_mut() = method;
    *out.uri_mut() = target.uri(query).map_err(|e| failed(format!("the query string: {e}")))?;
    *out.headers_mut() = headers;
    match target.client.send(out, target.response_timeout).await {
        Ok(resp) => Ok(resp),
        Err(SendError::ConnectTimeout) => Err(GatewayError::UpstreamTimeout {
            upstream: upstream.to_owned(),
            what: "accept a connection",
            ms: target.connect_timeout.as_millis() as u64,
        }),
        Err(SendError::Failed(reason)) => Err(failed(reason)),
        Err(SendError::ResponseTimeout) => Err(GatewayError::UpstreamTimeout {
            upstream: upstream.to_owned(),
            what: "begin its answer (upstream response_timeout_ms)",
            ms: target.response_timeout.as_millis() as u64,
        }),
    }
}

/// 2026-07-28 routing headers must agree with the body; the body is what is enforced.
fn check_method_headers(h: &HeaderMap, m: &Message) -> Result<(), GatewayError> {
    let get = |name: HeaderName| h.get(name).and_then(|v| v.to_str().ok());
    if let (Some(hv), Some(bv)) = (get(MCP_METHOD), m.method())
        && hv != bv
    {
        let (header_value, body_value) = (hv.to_owned(), bv.to_owned());
        return Err(GatewayError::HeaderMismatch { header: "Mcp-Method", header_value, body_value });
    }
    if let (Some(hv), Some(bv)) = (get(MCP_NAME), m.tool_name.as_deref())
        && hv != bv
    {
        let (header_value, body_value) = (hv.to_owned(), bv.to_owned());
        return Err(GatewayError::HeaderMismatch { header: "Mcp-Name", header_value, body_value });
    }
    Ok(())
}

/// A body that sends `prefix` chunks before `rest`.
fn prepend(prefix: Vec<Bytes>, rest: Body) -> Body {
    use futures_util::StreamExt;
    use http_body_util::{BodyExt, BodyStream, StreamBody};
    if prefix.is_empty() {
        return rest;
    }
    let head = futures_util::stream::iter(prefix.into_iter().map(|b| Ok(http_body::Frame::data(b))));
    BodyExt::boxed(StreamBody::new(head.chain(BodyStream::new(rest))))
}
