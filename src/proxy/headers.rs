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

/// The Streamable HTTP session header, as every part of the proxy reads and writes it. Names
/// the proxy looks up on every request are `HeaderName` constants: a lookup by `&str` parses
/// and lower-cases the name first, about half of what the lookup costs (callgrind: 172 of 340
/// instructions).
pub const SESSION_HEADER: HeaderName = HeaderName::from_static("mcp-session-id");
/// 2026-07-28 routing headers, checked against the body.
pub const MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");
pub const MCP_NAME: HeaderName = HeaderName::from_static("mcp-name");

/// A client body's `Content-Encoding` as the exchange takes it: a value that is not text is
/// still an encoding (and so a body the gateway does not read), never no encoding. A body
/// whose `Content-Type` names a character set other than UTF-8 is encoded too: a server's body
/// parser decodes it (express's does, `charset=utf-7` included) where the gateway reads UTF-8.
pub fn content_encoding(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::CONTENT_ENCODING)
        .map(|v| v.to_str().unwrap_or("(not text)"))
        .or_else(|| foreign_charset(headers))
}

/// Why an upstream answer's bytes are not to be read as UTF-8 JSON or events: compressed, or in
/// a charset a client reads otherwise (see [`foreign_charset`]).
pub fn unreadable_answer(headers: &HeaderMap) -> Option<crate::policy::uninspected::Reason> {
    use crate::policy::uninspected::Reason;
    if super::capped::is_encoded(headers) {
        Some(Reason::Encoded)
    } else {
        foreign_charset(headers).map(|_| Reason::Charset)
    }
}

/// The `charset` of a `Content-Type` when a client could read the bytes otherwise than as the
/// gateway's UTF-8 reading does, as written. UTF-8, ASCII and the 8-bit sets whose first 128
/// codes are ASCII (ISO-8859-*, Windows-125*: Java servlet containers name ISO-8859-1 by
/// default) keep JSON's structure byte for byte; UTF-16 and -32, UTF-7 (`+AHQ-` is a `t`),
/// EBCDIC and the multi-byte Asian sets (a second byte can be a quote or a backslash) do not.
pub fn foreign_charset(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::CONTENT_TYPE)?;
    let Ok(text) = value.to_str() else { return Some("(not text)") };
    if !text.as_bytes().contains(&b';') {
        // No parameters (`application/json`, every request and answer of the common case).
        return None;
    }
    text.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let charset = value.trim().trim_matches('"');
        let lower = charset.to_ascii_lowercase();
        let same_structure = ["utf-8", "utf8", "us-ascii", "ascii", "latin1", "l1"].contains(&lower.as_str())
            || ["iso-8859-", "iso8859-", "windows-125", "cp125"].iter().any(|p| lower.starts_with(p));
        (!same_structure).then_some(charset)
    })
}

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

/// [`upstream_request`] on a map the caller is done with: the same headers, changed in place
/// instead of copied.
pub fn into_upstream_request(mut h: HeaderMap) -> HeaderMap {
    strip_hop_by_hop(&mut h);
    h.insert(header::ACCEPT_ENCODING, http::HeaderValue::from_static("identity"));
    h.remove(header::ORIGIN);
    h
}

/// Removes hop-by-hop headers from `h` in place, including any named by `Connection`: what
/// [`end_to_end`] leaves, without a copy of the rest. One pass finds the few that are there
/// (usually `Host` and `Content-Length`), so only those are looked up again to be removed.
pub fn strip_hop_by_hop(h: &mut HeaderMap) {
    let mut found: smallvec::SmallVec<[HeaderName; 4]> = smallvec::SmallVec::new();
    for name in h.keys() {
        if DROPPED.contains(name) {
            found.push(name.clone());
        }
    }
    if found.contains(&header::CONNECTION) {
        let named = h
            .get_all(header::CONNECTION)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|n| HeaderName::from_bytes(n.trim().as_bytes()).ok());
        found.extend(named.collect::<Vec<_>>());
    }
    for name in found {
        h.remove(name);
    }
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
    fn a_charset_that_reads_json_otherwise_is_foreign() {
        let of = |ct: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::CONTENT_TYPE, ct.parse().unwrap());
            foreign_charset(&h).map(str::to_owned)
        };
        for same in [
            "application/json",
            "application/json; charset=utf-8",
            "application/json;charset=\"UTF-8\"",
            "text/event-stream; charset=ISO-8859-1",
            "application/json; charset=windows-1252",
        ] {
            assert_eq!(of(same), None, "{same}");
        }
        for other in [
            "application/json; charset=utf-7",
            "text/event-stream; charset=utf-16le",
            "application/json; charset=UTF-32",
            "application/json; charset=cp500",
            "application/json; charset=shift_jis",
        ] {
            assert!(of(other).is_some(), "{other}");
        }
        let mut h = HeaderMap::new();
        h.insert(header::CONTENT_TYPE, "application/json; charset=utf-7".parse().unwrap());
        assert_eq!(content_encoding(&h), Some("utf-7"), "a request in it is not read");
    }

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

    /// Stripping in place leaves exactly what the copy keeps, repeated values included.
    #[test]
    fn stripping_in_place_matches_the_copy() {
        let mut h = HeaderMap::new();
        for (k, v) in [
            ("connection", "Keep-Alive, X-Private"),
            ("connection", "x-other"),
            ("x-private", "1"),
            ("x-other", "2"),
            ("keep-alive", "timeout=5"),
            ("host", "gateway:8080"),
            ("content-length", "12"),
            ("te", "trailers"),
            ("upgrade", "h2c"),
            ("proxy-authorization", "Basic x"),
            ("mcp-session-id", "abc"),
            ("set-cookie", "a=1"),
            ("set-cookie", "b=2"),
            ("origin", "http://localhost"),
            ("accept-encoding", "gzip"),
        ] {
            h.append(HeaderName::from_static(k), v.parse().unwrap());
        }
        let copied = end_to_end(&h);
        let mut stripped = h.clone();
        strip_hop_by_hop(&mut stripped);
        assert_eq!(stripped, copied);
        let cookies: Vec<_> = stripped.get_all("set-cookie").iter().collect();
        assert_eq!(cookies, ["a=1", "b=2"]);
        assert!(!stripped.contains_key("x-private") && !stripped.contains_key("x-other"));
        assert_eq!(into_upstream_request(h.clone()), upstream_request(&h));
        let up = into_upstream_request(h);
        assert_eq!(up["accept-encoding"], "identity");
        assert!(!up.contains_key("origin"));
    }
}
