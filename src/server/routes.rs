//! The top-level router: the listener's one-target check, then the gateway's own endpoints
//! (`/healthz`, `/readyz`, `/metrics`, protected resource metadata), the admin API when it
//! shares the main listener, and the MCP routes (the proxy's).

use std::sync::Arc;
use std::time::Duration;

use http::{Method, Response, StatusCode, header};

use super::App;
use crate::http::Body;
use crate::http::body::json_response;
use crate::http::error::GatewayError;
use crate::http::request_body::{ClientRequest, RequestBody};
use crate::proxy::{Gateway, guard};

/// Which routes a listener serves.
#[derive(Clone, Copy)]
pub(super) enum Role {
    /// The gateway's listener: everything below.
    Main,
    /// `admin.addr`'s listener: the admin API alone.
    Admin,
}

/// The answer to one request on a listener of `role`, whichever HTTP server read it.
pub(super) async fn answer(app: &Arc<App>, role: Role, req: ClientRequest, body: &RequestBody) -> Response<Body> {
    match (role, &app.console) {
        (Role::Main, _) => route(app, req, body).await,
        (Role::Admin, Some(console)) => crate::admin::serve_admin_listener(console.clone(), req, body).await,
        (Role::Admin, None) => GatewayError::NotFound.into_response(None),
    }
}

pub async fn route(app: &Arc<App>, req: ClientRequest, body: &RequestBody) -> Response<Body> {
    if let Err(e) = guard::one_target(&req) {
        tracing::info!(error = %e, "request refused");
        return e.into_response(None);
    }
    let gw = &app.gateway;
    let path = req.uri().path().to_owned();
    match (req.method(), path.as_str()) {
        (&Method::GET, "/healthz") => json_response(StatusCode::OK, br#"{"status":"ok"}"#.to_vec()),
        (&Method::GET, "/readyz") => readyz(gw).await,
        (&Method::GET, "/metrics") => metrics(),
        (_, p) if app.console.as_ref().is_some_and(|c| c.on_main_listener(p)) => {
            let console = app.console.clone().expect("checked above");
            crate::admin::serve_admin(console, req, body).await
        }
        (&Method::GET, p) if gw.auth.is_some() && crate::auth::metadata::route_of(p).is_some() => {
            protected_resource_metadata(gw, p)
        }
        (&Method::GET, p) if crate::auth::metadata::route_of(p).is_some_and(|r| !r.is_empty()) => {
            upstream_resource_metadata(gw, &req, p).await
        }
        (_, p) if crate::proxy::routes::is_mcp_path(p) => crate::proxy::routes::serve_mcp(gw, req, body).await,
        _ => GatewayError::NotFound.into_response(None),
    }
}

/// RFC 9728 metadata for the gateway or one of its routes; 404 for a route to no upstream.
fn protected_resource_metadata(gw: &Gateway, path: &str) -> Response<Body> {
    let (Some(auth), Some(route)) = (&gw.auth, crate::auth::metadata::route_of(path)) else {
        return GatewayError::NotFound.into_response(None);
    };
    let upstream = route.rsplit('/').next().unwrap_or("");
    if !route.is_empty() && gw.serve.upstream(upstream).is_none() {
        return GatewayError::NotFound.into_response(None);
    }
    json_response(StatusCode::OK, serde_json::to_vec(&auth.metadata(route)).unwrap_or_default())
}

/// Without `[auth]`: a route's metadata is its upstream's own, with the route as `resource`
/// (see `auth::passthrough`); 404 for a route to no network upstream.
async fn upstream_resource_metadata(gw: &Gateway, req: &ClientRequest, path: &str) -> Response<Body> {
    let route = crate::auth::metadata::route_of(path).unwrap_or_default();
    let upstream = route.rsplit('/').next().unwrap_or("");
    let url = gw.serve.upstream(upstream).and_then(|u| u.transport().http_url().map(str::to_owned));
    let host = crate::http::origin::request_host(req);
    let (Some(url), Some(host)) = (url, host) else { return GatewayError::NotFound.into_response(None) };
    // The host becomes the document's `resource`: only one the listener answers to.
    if !gw.serve.listen.allows_host(host) {
        return GatewayError::ForbiddenHost(host.to_owned()).into_response(None);
    }
    let base =
        crate::auth::passthrough::gateway_base(gw.serve.resource.as_deref(), gw.serve.listen.tls_cert.is_some(), host);
    gw.upstream_oauth.metadata(&base, route, &url).await
}

/// The Prometheus exposition; 404 when `telemetry.prometheus` is off.
fn metrics() -> Response<Body> {
    match crate::telemetry::prometheus::render() {
        None => GatewayError::NotFound.into_response(None),
        Some(Ok(text)) => {
            let mut resp = Response::new(crate::http::body::full(bytes::Bytes::from(text)));
            resp.headers_mut().insert(
                header::CONTENT_TYPE,
                http::HeaderValue::from_static(crate::telemetry::prometheus::CONTENT_TYPE),
            );
            resp
        }
        Some(Err(e)) => {
            tracing::warn!(error = %e, "cannot render the metrics");
            crate::http::error::GatewayError::Internal(format!("cannot render the metrics: {e}")).into_response(None)
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
    for u in gw.serve.upstreams() {
        let Some(Ok(url)) = u.transport().http_url().map(reqwest::Url::parse) else { continue };
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
