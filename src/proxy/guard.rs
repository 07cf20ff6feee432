//! One unambiguous target per request (the listener's first check). Which `Host` and
//! `Origin` the listener answers to is `ListenConfig::allows_host` / `allows_origin`.

use http::{HeaderName, Request, Version, header};

use super::headers::{MCP_METHOD, MCP_NAME, SESSION_HEADER};
use crate::http::error::GatewayError;

/// Headers the gateway decides on and the upstream reads again: two copies would let the
/// gateway read one and the upstream the other (a session bound to one principal used under
/// another id, a body decoded or a method checked one way and run another), so a request
/// carries each at most once.
const ONCE: [(HeaderName, &str); 9] = [
    (header::HOST, "Host"),
    (header::ORIGIN, "Origin"),
    (SESSION_HEADER, "Mcp-Session-Id"),
    (MCP_METHOD, "Mcp-Method"),
    (MCP_NAME, "Mcp-Name"),
    (HeaderName::from_static("mcp-protocol-version"), "Mcp-Protocol-Version"),
    (HeaderName::from_static("last-event-id"), "Last-Event-ID"),
    (header::CONTENT_TYPE, "Content-Type"),
    (header::CONTENT_ENCODING, "Content-Encoding"),
];

/// One unambiguous target per request: each header of [`ONCE`] at most once, a session id
/// the gateway can key its state by (the visible ASCII the MCP specification allows; any
/// other would be forwarded with no session bound to it), no absolute-form target on HTTP/1
/// (its authority would compete with `Host`), and on HTTP/2 a `Host` that names the
/// `:authority`.
pub fn one_target<B>(req: &Request<B>) -> Result<(), GatewayError> {
    // As many values as names: no field repeats at all, and none of these is looked up.
    let repeats = req.headers().len() != req.headers().keys_len();
    for (name, label) in ONCE.iter().filter(|_| repeats) {
        if req.headers().get_all(name).iter().nth(1).is_some() {
            return Err(GatewayError::RepeatedHeader(label));
        }
    }
    if let Some(sid) = req.headers().get(SESSION_HEADER)
        && (sid.is_empty() || !sid.as_bytes().iter().all(|b| (0x21..=0x7e).contains(b)))
    {
        return Err(GatewayError::BadSessionId);
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
    fn headers_the_upstream_reads_again_come_once_and_session_ids_are_visible_ascii() {
        let base = || Request::post("/mcp/x").header("host", "localhost");
        for name in ["mcp-session-id", "Mcp-Method", "mcp-name", "last-event-id", "content-encoding", "content-type"] {
            let two = base().header(name, "a").header(name, "b").body(()).unwrap();
            assert!(matches!(one_target(&two), Err(GatewayError::RepeatedHeader(_))), "{name}");
            assert!(one_target(&base().header(name, "a").body(()).unwrap()).is_ok(), "{name}");
        }
        let sid = |v: &[u8]| base().header("mcp-session-id", http::HeaderValue::from_bytes(v).unwrap()).body(());
        assert!(one_target(&sid(b"a1-B2_c3.~!").unwrap()).is_ok());
        for bad in [&b"caf\xc3\xa9"[..], b"with space", b"tab\there", b"\x80\xff", b""] {
            assert!(matches!(one_target(&sid(bad).unwrap()), Err(GatewayError::BadSessionId)), "{bad:?}");
        }
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
