//! Which headers cross the gateway: everything end to end (sessions, protocol version,
//! `Last-Event-ID`, `Authorization`, trace context, unknown headers), minus hop-by-hop headers
//! and `Host`, which the gateway sets for each side.

use http::HeaderMap;
use http::header::{self, HeaderName};

/// RFC 9110 hop-by-hop headers, plus `Host` and `Content-Length` (recomputed per side).
const DROPPED: [HeaderName; 10] = [
    header::CONNECTION,
    header::HOST,
    header::CONTENT_LENGTH,
    header::PROXY_AUTHENTICATE,
    header::PROXY_AUTHORIZATION,
    header::TE,
    header::TRAILER,
    header::TRANSFER_ENCODING,
    header::UPGRADE,
    HeaderName::from_static("keep-alive"),
];

/// Headers for a request to an upstream: end to end, with `Accept-Encoding: identity` in
/// place of the client's (answers must arrive uncompressed for the gateway to read them; one
/// that comes compressed anyway is not inspected, see `uninspected.rs`) and without `Origin`
/// (the gateway validated it; forwarding it would make the upstream's own DNS-rebinding check
/// refuse origins the operator allowed).
pub fn upstream_request(from: &HeaderMap) -> HeaderMap {
    let mut h = end_to_end(from);
    h.insert(header::ACCEPT_ENCODING, http::HeaderValue::from_static("identity"));
    h.remove(header::ORIGIN);
    h
}

/// A copy of `from` without hop-by-hop headers, including any named by `Connection`.
pub fn end_to_end(from: &HeaderMap) -> HeaderMap {
    let named: Vec<String> = from
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(',').map(|s| s.trim().to_ascii_lowercase()))
        .collect();
    let mut out = HeaderMap::with_capacity(from.len());
    for (name, value) in from {
        if DROPPED.contains(name) || named.iter().any(|n| n == name.as_str()) {
            continue;
        }
        out.append(name.clone(), value.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_hop_by_hop_keeps_mcp_headers() {
        let mut h = HeaderMap::new();
        for (k, v) in [
            ("connection", "keep-alive, x-private"),
            ("x-private", "1"),
            ("host", "gateway:8080"),
            ("transfer-encoding", "chunked"),
            ("mcp-session-id", "abc"),
            ("mcp-protocol-version", "2025-06-18"),
            ("last-event-id", "42"),
            ("authorization", "Bearer t"),
            ("x-custom", "kept"),
        ] {
            h.append(HeaderName::from_static(k), v.parse().unwrap());
        }
        let out = end_to_end(&h);
        let names: Vec<&str> = out.keys().map(|k| k.as_str()).collect();
        assert_eq!(names, ["mcp-session-id", "mcp-protocol-version", "last-event-id", "authorization", "x-custom"]);
    }
}
