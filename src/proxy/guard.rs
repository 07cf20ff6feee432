//! One unambiguous target per request (the MCP routes' first check). Which `Host` and
//! `Origin` the listener answers to is `ListenConfig::allows_host` / `allows_origin`.

use http::{Request, Version, header};

use crate::http::error::GatewayError;

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
        use crate::config::ListenConfig;
        use crate::http::origin::{host_of, is_loopback_host};
        assert_eq!(host_of("localhost:8080"), "localhost");
        assert_eq!(host_of("[::1]:80"), "::1");
        assert_eq!(host_of("example.com"), "example.com");
        assert!(is_loopback_host("127.0.0.1") && is_loopback_host("::1") && is_loopback_host("LOCALHOST"));
        assert!(!is_loopback_host("evil.example"));
        let listen = ListenConfig::default();
        assert!(listen.allows_host("localhost:8080") && !listen.allows_host("evil.example"));
        assert!(listen.allows_origin("http://127.0.0.1:3000") && !listen.allows_origin("null"));
        assert!(!listen.allows_origin("https://evil.example"));
    }
}
