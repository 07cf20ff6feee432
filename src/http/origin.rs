//! Who the listener answers to, one rule for the MCP routes and the admin API: `Host` must be a
//! loopback name, in `listen.allowed_hosts`, or anything when bound beyond loopback with no list
//! (DNS-rebinding protection); a browser `Origin` must be a loopback one or in
//! `listen.allowed_origins`. The listener's settings apply these in `ListenConfig`.

use std::net::IpAddr;

use http::{Request, header};

pub fn is_loopback_host(host: &str) -> bool {
    let h = host.trim_start_matches('[').trim_end_matches(']');
    // The names every local client sends, known without parsing an address (every request's
    // `Host` comes here).
    h == "127.0.0.1"
        || h == "::1"
        || h.eq_ignore_ascii_case("localhost")
        || h.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// The host part of a `Host` header or an origin's authority (port and brackets handled).
pub fn host_of(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    authority.rsplit_once(':').map_or(authority, |(h, _)| h)
}

/// The `Host` header, or the request target's authority (HTTP/2).
pub fn request_host<B>(req: &Request<B>) -> Option<&str> {
    req.headers().get(header::HOST).and_then(|h| h.to_str().ok()).or_else(|| req.uri().authority().map(|a| a.as_str()))
}

/// Whether a listener with `allowed_hosts`, bound to a loopback address or not, answers to
/// `host` (a `Host` header value).
pub fn host_allowed(allowed_hosts: &[String], bound_to_loopback: bool, host: &str) -> bool {
    let name = host_of(host);
    let explicitly = allowed_hosts.iter().any(|h| h.eq_ignore_ascii_case(name));
    let open = allowed_hosts.is_empty() && !bound_to_loopback;
    is_loopback_host(name) || explicitly || open
}

/// Whether a browser page from `origin` may call a listener that lists `allowed_origins`.
pub fn origin_allowed(allowed_origins: &[String], origin: &str) -> bool {
    let authority = origin.split_once("://").map_or("", |(_, a)| a);
    (origin != "null" && is_loopback_host(host_of(authority)))
        || allowed_origins.iter().any(|o| o.trim_end_matches('/') == origin)
}
