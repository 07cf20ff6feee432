//! The MCP routes: `/mcp/{upstream}` (Streamable HTTP), and the legacy `/sse/{upstream}` and
//! `/messages/{upstream}` (HTTP+SSE, proxied to a legacy upstream or bridged to a new one),
//! behind the Origin and Host checks an MCP server must make (DNS-rebinding protection) and,
//! with `[auth]` on, the caller's token.

use std::sync::Arc;
use std::time::Duration;

use http::{Method, Response, header};

use super::forward::{Outbound, mcp};
use super::{Body, Gateway};
use super::{bridge, legacy};
use crate::http::error::GatewayError;
use crate::http::request_body::{ClientRequest, RequestBody};

/// Whether `path` is one of the MCP routes.
pub fn is_mcp_path(path: &str) -> bool {
    path.starts_with("/mcp/") || path.starts_with("/sse/") || path.starts_with("/messages/")
}

/// A request to an MCP route (see [`is_mcp_path`]).
pub async fn serve_mcp(gw: &Arc<Gateway>, req: ClientRequest, read: &RequestBody) -> Response<Body> {
    let path = req.uri().path().to_owned();
    let p = path.as_str();
    let (route, rest) = p[1..].split_once('/').unwrap_or(("", ""));
    let upstream = rest.trim_end_matches('/').to_owned();
    if let Err(e) = check_origin_and_host(gw, &req) {
        tracing::info!(error = %e, "request refused");
        return e.into_response(None);
    }
    if !matches!(*req.method(), Method::POST | Method::GET | Method::DELETE) {
        return GatewayError::MethodNotAllowed.into_response(None);
    }
    // With `[auth]` on, nothing reaches an upstream (or is read) without a valid token.
    let principal = match &gw.auth {
        None => None,
        Some(auth) => match auth.authenticate(req.headers(), &upstream).await {
            Ok(p) => Some(p),
            Err(e) => {
                tracing::info!(upstream = %upstream, error = ?e, "request not authenticated");
                return auth.challenge(&format!("/{route}/{upstream}"), &e);
            }
        },
    };
    // Without `[auth]`, an upstream's own OAuth challenge is pointed at the gateway (below); the
    // host it needs is kept and the rest worked out only for an answer that challenges, not for
    // every request.
    let challenge_host =
        gw.auth.is_none().then(|| crate::http::origin::request_host(&req).map(str::to_owned)).flatten();
    let (parts, body) = req.into_parts();
    let limit = gw.serve.listen.max_body_bytes;
    let within = Duration::from_millis(gw.serve.listen.body_read_timeout_ms);
    let body = match read.read_all(body, limit, within).await {
        Ok(b) => b,
        Err(e) => return e.into_response(None),
    };
    let out = Outbound {
        method: parts.method,
        headers: parts.headers,
        query: parts.uri.query().map(str::to_owned),
        body,
        principal,
    };
    let sse_url = gw.serve.upstream(&upstream).and_then(|u| u.transport().sse_url());
    // With `[auth]` on, what goes upstream are the gateway's own credentials (kept for an
    // answer that refuses them: the body, a cheap copy, gives that answer its id).
    let fronted = gw.auth.is_some().then(|| (out.body.clone(), upstream.clone()));
    let mut resp = match (route, sse_url, &out.method) {
        ("mcp", None, _) => mcp(gw, &upstream, out).await,
        ("sse", Some(url), &Method::GET) => legacy::open(gw.clone(), &upstream, url, out).await,
        ("messages", Some(_), &Method::POST) => {
            let sid = session_query(out.query.as_deref()).to_owned();
            super::forward::observed(&upstream, out, |out| legacy::message(gw.clone(), &upstream, &sid, out)).await
        }
        ("mcp", Some(_), _) => GatewayError::WrongTransport(upstream.clone(), "/sse/").into_response(None),
        // Old clients in front of new upstreams: a bridge.
        ("sse", None, &Method::GET) if gw.catalog.upstreams.contains_key(&upstream) => {
            bridge::open(gw.clone(), &upstream, out.principal.as_ref().map(|p| p.binding()))
        }
        ("messages", None, &Method::POST) if gw.catalog.upstreams.contains_key(&upstream) => {
            let sid = session_query(out.query.as_deref()).to_owned();
            bridge::message(gw.clone(), &sid, out).await
        }
        (_, None, _) if gw.serve.upstream(&upstream).is_some() => {
            GatewayError::WrongTransport(upstream.clone(), "/mcp/").into_response(None)
        }
        (_, None, _) => GatewayError::UnknownUpstream(upstream.clone()).into_response(None),
        _ => GatewayError::MethodNotAllowed.into_response(None),
    };
    if let Some(host) = challenge_host.as_deref()
        && matches!(resp.status().as_u16(), 401 | 403)
        && let Some(url) = gw.serve.upstream(&upstream).and_then(|u| u.transport().http_url())
    {
        let base = crate::auth::passthrough::gateway_base(
            gw.serve.resource.as_deref(),
            gw.serve.listen.tls_cert.is_some(),
            host,
        );
        gw.upstream_oauth.rewrite_challenges(resp.headers_mut(), &base, &format!("/{route}/{upstream}"), url);
    }
    if let Some((body, upstream)) = fronted
        && refuses_credentials(&resp)
    {
        return gateway_credentials_refused(resp.status(), &body, upstream);
    }
    resp
}

/// An upstream's 401, or 403 with a Bearer challenge: its answer to the credentials.
fn refuses_credentials(resp: &Response<Body>) -> bool {
    let bearer = || {
        resp.headers().get_all(header::WWW_AUTHENTICATE).iter().any(|v| {
            v.to_str().is_ok_and(|v| v.trim_start().get(..6).is_some_and(|s| s.eq_ignore_ascii_case("bearer")))
        })
    };
    resp.status() == http::StatusCode::UNAUTHORIZED || (resp.status() == http::StatusCode::FORBIDDEN && bearer())
}

/// With `[auth]` on, an upstream refusing the gateway's credentials is the gateway's problem
/// (its `[upstream.oauth]` or `headers`), never the caller's: passing the upstream's challenge
/// on would send the client to sign in at the upstream's authorization server with a token the
/// gateway never forwards. The caller gets a 502 naming the upstream, its request's id kept.
fn gateway_credentials_refused(status: http::StatusCode, body: &bytes::Bytes, upstream: String) -> Response<Body> {
    tracing::warn!(upstream = %upstream, status = status.as_u16(), "the upstream refused the gateway's credentials");
    let id = match crate::mcp::message::parse_body(body) {
        Some(crate::mcp::message::Payload::Single(m)) => m.request_id().cloned(),
        _ => None,
    };
    let reason = format!("it answered {} to the gateway's own credentials", status.as_u16());
    GatewayError::Upstream { upstream, reason }.into_response(id.as_deref())
}

/// `session_id` from a query string.
fn session_query(q: Option<&str>) -> &str {
    q.and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("session_id="))).unwrap_or("")
}

fn check_origin_and_host(gw: &Gateway, req: &ClientRequest) -> Result<(), GatewayError> {
    let listen = &gw.serve.listen;
    if let Some(origin) = req.headers().get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        if !listen.allows_origin(origin) {
            return Err(GatewayError::ForbiddenOrigin(origin.to_owned()));
        }
    }
    match crate::http::origin::request_host(req) {
        Some(host) if !listen.allows_host(host) => Err(GatewayError::ForbiddenHost(host.to_owned())),
        _ => Ok(()),
    }
}
