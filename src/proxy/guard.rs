//! Who the listener answers to, one rule for the MCP routes and the admin API: `Host` must be a
//! loopback name, in `listen.allowed_hosts`, or anything when bound beyond loopback with no list
//! (DNS-rebinding protection); a browser `Origin` must be a loopback one or in
//! `listen.allowed_origins`.

use std::net::IpAddr;

use http::{Request, Version, header};

use super::error::GatewayError;
use crate::config::ListenConfig;

/// One unambiguous target per request: a single `Host` and a single `Origin` (two would let
/// the check read one and the application another), no absolute-form target on HTTP/1 (its
/// authority would compete with `Host`), and on HTTP/2 a `Host` that names the `:authority`.
pub fn one_target<B>(req: &Request<B>) -> Result<(), GatewayError> {
    for (name, label) in [(header::HOST, "Host"), (header::ORIGIN, "Origin")] {
        if req.headers().get_all(&name).iter().nth(1).is_some() {
            return Err(GatewayError::RepeatedHeader(label));
        }
    }
    let authority = req.uri().authority().map(|a| a.as_str());
    if req.version() < Version::HTTP_2 {
        if authority.is_some() || req.uri().scheme().is_some() {
            return Err(GatewayError::AbsoluteTarget);
        }
    } else if let (Some(a), Some(h)) = (authority, req.headers().get(header::HOST))
        && !h.as_bytes().eq_ignore_ascii_case(a.as_bytes())
    {
        return Err(GatewayError::RepeatedHeader("Host (its :authority differs)"));
    }
    Ok(())
}

pub fn is_loopback_host(host: &str) -> bool {
    let h = host.trim_start_matches('[').trim_end_matches(']');
    h.eq_ignore_ascii_case("localhost") || h.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
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

/// Whether the listener answers to `host` (a `Host` header value).
pub fn host_allowed(listen: &ListenConfig, host: &str) -> bool {
    let name = host_of(host);
    let explicitly = listen.allowed_hosts.iter().any(|h| h.eq_ignore_ascii_case(name));
    let open = listen.allowed_hosts.is_empty() && !listen.addr.ip().is_loopback();
    is_loopback_host(name) || explicitly || open
}

/// Whether a browser page from `origin` may call the listener.
pub fn origin_allowed(listen: &ListenConfig, origin: &str) -> bool {
    let authority = origin.split_once("://").map_or("", |(_, a)| a);
    (origin != "null" && is_loopback_host(host_of(authority)))
        || listen.allowed_origins.iter().any(|o| o.trim_end_matches('/') == origin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_host_one_origin_no_absolute_target() {
        let ok = Request::get("/mcp/x").header("host", "localhost").body(()).unwrap();
        assert!(one_target(&ok).is_ok());
        let two = Request::get("/mcp/x").header("host", "localhost").header("host", "evil").body(()).unwrap();
        assert!(matches!(one_target(&two), Err(GatewayError::RepeatedHeader("Host"))));
        let origins = Request::get("/").header("origin", "http://localhost").header("origin", "http://e").body(());
        assert!(matches!(one_target(&origins.unwrap()), Err(GatewayError::RepeatedHeader("Origin"))));
        let absolute = Request::get("http://evil.example/mcp/x").header("host", "localhost").body(()).unwrap();
        assert!(matches!(one_target(&absolute), Err(GatewayError::AbsoluteTarget)));
        let h2 = Request::get("https://localhost/mcp/x").version(Version::HTTP_2).body(()).unwrap();
        assert!(one_target(&h2).is_ok());
        let h2_mismatch =
            Request::get("https://localhost/mcp/x").version(Version::HTTP_2).header("host", "evil").body(()).unwrap();
        assert!(one_target(&h2_mismatch).is_err());
    }

    #[test]
    fn hosts() {
        assert_eq!(host_of("localhost:8080"), "localhost");
        assert_eq!(host_of("[::1]:80"), "::1");
        assert_eq!(host_of("example.com"), "example.com");
        assert!(is_loopback_host("127.0.0.1") && is_loopback_host("::1") && is_loopback_host("LOCALHOST"));
        assert!(!is_loopback_host("evil.example"));
        let listen = ListenConfig::default();
        assert!(host_allowed(&listen, "localhost:8080") && !host_allowed(&listen, "evil.example"));
        assert!(origin_allowed(&listen, "http://127.0.0.1:3000") && !origin_allowed(&listen, "null"));
        assert!(!origin_allowed(&listen, "https://evil.example"));
    }
}
