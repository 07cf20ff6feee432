//! Routing and the listener's own guards: `/mcp/{upstream}` behind Origin and Host checks
//! (DNS-rebinding protection, as an MCP server must have), `/healthz`, `/readyz`, `/metrics`.

use std::sync::Arc;
use std::time::Duration;

use http::{Method, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;

use super::body::json_response;
use super::error::GatewayError;
use super::forward::{Outbound, mcp};
use super::{Body, Gateway, guard};
use super::{bridge, legacy};

pub async fn handle(gw: Arc<Gateway>, req: Request<Incoming>) -> Response<Body> {
    if let Err(e) = guard::one_target(&req) {
        tracing::info!(error = %e, "request refused");
        return e.into_response(None);
    }
    let path = req.uri().path().to_owned();
    match (req.method(), path.as_str()) {
        (&Method::GET, "/healthz") => json_response(StatusCode::OK, br#"{"status":"ok"}"#.to_vec()),
        (&Method::GET, "/readyz") => readyz(&gw).await,
        (&Method::GET, "/metrics") => metrics(),
        (_, p) if crate::admin::on_main_listener(&gw, p) => crate::admin::handle(gw, req).await,
        (&Method::GET, p) if gw.auth.is_some() && crate::auth::metadata::route_of(p).is_some() => {
            protected_resource_metadata(&gw, p)
        }
        (_, p) if p.starts_with("/mcp/") || p.starts_with("/sse/") || p.starts_with("/messages/") => {
            let (route, rest) = p[1..].split_once('/').unwrap_or(("", ""));
            let upstream = rest.trim_end_matches('/').to_owned();
            if let Err(e) = check_origin_and_host(&gw, &req) {
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
            let (parts, body) = req.into_parts();
            let limit = gw.config.listen.max_body_bytes;
            let within = Duration::from_millis(gw.config.listen.body_read_timeout_ms);
            let body = match tokio::time::timeout(within, Limited::new(body, limit).collect()).await {
                Ok(Ok(b)) => b.to_bytes(),
                Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => {
                    return GatewayError::BodyTooLarge(limit).into_response(None);
                }
                Ok(Err(e)) => return GatewayError::BadBody(e.to_string()).into_response(None),
                Err(_) => return GatewayError::SlowRequest(gw.config.listen.body_read_timeout_ms).into_response(None),
            };
            let out = Outbound {
                method: parts.method,
                headers: parts.headers,
                query: parts.uri.query().map(str::to_owned),
                body,
                principal,
            };
            let sse_url = gw.config.upstream(&upstream).and_then(|u| u.sse_url.clone());
            match (route, sse_url, &out.method) {
                ("mcp", None, _) => mcp(gw, &upstream, out).await,
                ("sse", Some(url), &Method::GET) => legacy::open(gw, &upstream, &url, out).await,
                ("messages", Some(_), &Method::POST) => {
                    let sid = session_query(out.query.as_deref()).to_owned();
                    super::forward::observed(&upstream, out, |out, _| legacy::message(gw, &upstream, &sid, out)).await
                }
                ("mcp", Some(_), _) => GatewayError::WrongTransport(upstream, "/sse/").into_response(None),
                // Old clients in front of new upstreams: a bridge.
                ("sse", None, &Method::GET) if gw.upstreams.contains_key(&upstream) => {
                    bridge::open(gw, &upstream, out.principal.as_ref().map(|p| p.binding()))
                }
                ("messages", None, &Method::POST) if gw.upstreams.contains_key(&upstream) => {
                    let sid = session_query(out.query.as_deref()).to_owned();
                    bridge::message(gw, &sid, out).await
                }
                (_, None, _) if gw.config.upstream(&upstream).is_some() => {
                    GatewayError::WrongTransport(upstream, "/mcp/").into_response(None)
                }
                (_, None, _) => GatewayError::UnknownUpstream(upstream).into_response(None),
                _ => GatewayError::MethodNotAllowed.into_response(None),
            }
        }
        _ => GatewayError::NotFound.into_response(None),
    }
}

/// RFC 9728 metadata for the gateway or one of its routes; 404 for a route to no upstream.
fn protected_resource_metadata(gw: &Gateway, path: &str) -> Response<Body> {
    let (Some(auth), Some(route)) = (&gw.auth, crate::auth::metadata::route_of(path)) else {
        return GatewayError::NotFound.into_response(None);
    };
    let upstream = route.rsplit('/').next().unwrap_or("");
    if !route.is_empty() && gw.config.upstream(upstream).is_none() {
        return GatewayError::NotFound.into_response(None);
    }
    json_response(StatusCode::OK, serde_json::to_vec(&auth.metadata(route)).unwrap_or_default())
}

/// `session_id` from a query string.
fn session_query(q: Option<&str>) -> &str {
    q.and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("session_id="))).unwrap_or("")
}

fn check_origin_and_host(gw: &Gateway, req: &Request<Incoming>) -> Result<(), GatewayError> {
    let listen = &gw.config.listen;
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

/// The Prometheus exposition; 404 when `telemetry.prometheus` is off.
fn metrics() -> Response<Body> {
    match crate::telemetry::prometheus::render() {
        None => GatewayError::NotFound.into_response(None),
        Some(Ok(text)) => {
            let mut resp = Response::new(super::body::full(bytes::Bytes::from(text)));
            resp.headers_mut().insert(
                header::CONTENT_TYPE,
                http::HeaderValue::from_static(crate::telemetry::prometheus::CONTENT_TYPE),
            );
            resp
        }
        Some(Err(e)) => {
            tracing::warn!(error = %e, "cannot render the metrics");
            let mut resp = Response::new(super::body::full(bytes::Bytes::from(e)));
            *resp.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
            resp
        }
    }
}

/// Ready while the gateway can serve something: unready (503) only when every network
/// upstream refuses a TCP connection (within a second). Some upstreams down, or the store down,
/// is `degraded` with a 200: taking every replica out of a load balancer for one broken
/// upstream (or a database outage) would break the healthy upstreams too; the body says what is
/// wrong.
async fn readyz(gw: &Gateway) -> Response<Body> {
    let mut down = Vec::new();
    let mut checked = 0;
    for u in &gw.config.upstreams {
        let Some(Ok(url)) = u.url.as_deref().or(u.sse_url.as_deref()).map(reqwest::Url::parse) else { continue };
        checked += 1;
        let addr = format!("{}:{}", url.host_str().unwrap_or(""), url.port_or_known_default().unwrap_or(80));
        let ok = tokio::time::timeout(Duration::from_secs(1), tokio::net::TcpStream::connect(&addr)).await;
        if !matches!(ok, Ok(Ok(_))) {
            down.push(u.name.clone());
        }
    }
    let store = store_status(gw).await;
    let store_ok = store["status"] == "ok" || store["status"] == "none";
    let (status, state) = if checked > 0 && down.len() == checked {
        (StatusCode::SERVICE_UNAVAILABLE, "unready")
    } else if down.is_empty() && store_ok {
        (StatusCode::OK, "ready")
    } else {
        (StatusCode::OK, "degraded")
    };
    let body = serde_json::json!({ "status": state, "unreachableUpstreams": down, "store": store });
    json_response(status, serde_json::to_vec(&body).unwrap_or_default())
}

/// The store's state: `none`, `ok`, or `failing` with the last error (a probe within two
/// seconds, and the background writer's own failures).
async fn store_status(gw: &Gateway) -> serde_json::Value {
    let Some(store) = gw.scoring.store().cloned() else { return serde_json::json!({"status": "none"}) };
    let probe = tokio::time::timeout(Duration::from_secs(2), tokio::task::spawn_blocking(move || store.ping())).await;
    let probe_error = match probe {
        Ok(Ok(Ok(()))) => None,
        Ok(Ok(Err(e))) => Some(e.to_string()),
        Ok(Err(e)) => Some(e.to_string()),
        Err(_) => Some("the store did not answer within 2 s".to_owned()),
    };
    let writer = gw.scoring.store_health().filter(|h| h.is_failing()).map(|h| h.last_error().unwrap_or_default());
    match probe_error.or(writer) {
        None => serde_json::json!({"status": "ok"}),
        Some(error) => serde_json::json!({"status": "failing", "error": error}),
    }
}
