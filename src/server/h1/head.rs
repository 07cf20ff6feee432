//! Which requests the listener's own HTTP/1.1 server takes, and the `http::Request` it makes
//! of them. It takes the common shape of an MCP exchange: HTTP/1.1, a method other than HEAD
//! and CONNECT, a target in origin form, at most `MAX_FIELDS` fields that the `http` types
//! accept, no `Transfer-Encoding`, `Expect` or `Upgrade`, a `Connection` of `keep-alive` or
//! `close` only, and a body of one `Content-Length` up to `MAX_BODY` bytes. Anything else is
//! declined before a byte of it is used, and hyper gets the connection with every byte read so
//! far: the rest of HTTP/1 (and HTTP/2) keeps hyper's reading and its answers to bad requests.

use std::ops::Range;

use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue, Method, Request, Uri, Version, header};
use smallvec::SmallVec;

use crate::http::request_body::ClientBody;

/// The longest head taken; a longer one goes to hyper (whose own limit is about 400 KB).
pub(super) const MAX_HEAD: usize = 64 * 1024;
/// The most fields a taken head may have.
const MAX_FIELDS: usize = 64;
/// The longest body taken. Bodies are read whole before the route runs, so this bounds what a
/// connection holds for a request that will not be authenticated; longer ones go to hyper,
/// whose routes read them under the listener's `max_body_bytes`.
pub(super) const MAX_BODY: usize = 64 * 1024;

/// What a buffer's first bytes are.
pub(super) enum Head {
    /// A request this server takes.
    Taken(Taken),
    /// The head is not whole yet.
    Partial,
    /// The head is whole but the body is not: `needed` bytes in all are.
    BodyPending { needed: usize },
    /// A request for hyper, and why (for the debug log).
    Declined(&'static str),
}

/// Where a head's field values are in the buffer, by name: filled by [`read`], emptied by
/// [`Taken::request`] (kept by the connection, so that neither moves it).
pub(super) type Fields = SmallVec<[(HeaderName, Range<usize>); 12]>;

/// A request read and checked in the buffer: the request is made from the buffer's bytes
/// once they are cut from it (`request`), the fields' values sharing them rather than copied.
pub(super) struct Taken {
    method: Method,
    uri: Uri,
    pub head_len: usize,
    pub body_len: usize,
    /// The client asked to close the connection after this request.
    pub close: bool,
}

/// Reads the head at the start of `buf`, its fields into `fields`.
pub(super) fn read(buf: &[u8], fields: &mut Fields) -> Head {
    fields.clear();
    if buf.is_empty() {
        return Head::Partial;
    }
    // httparse fills the fields it finds; the array is not written first.
    let mut raw = [const { std::mem::MaybeUninit::<httparse::Header<'_>>::uninit() }; MAX_FIELDS];
    let mut parsed = httparse::Request::new(&mut []);
    let head_len = match parsed.parse_with_uninit_headers(buf, &mut raw) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) if buf.len() > MAX_HEAD => return Head::Declined("a long head"),
        Ok(httparse::Status::Partial) => return Head::Partial,
        Err(_) => return Head::Declined("a head httparse does not read"),
    };
    if parsed.version != Some(1) {
        return Head::Declined("not HTTP/1.1");
    }
    let Ok(method) = Method::from_bytes(parsed.method.unwrap_or("").as_bytes()) else {
        return Head::Declined("a method");
    };
    if method == Method::HEAD || method == Method::CONNECT {
        return Head::Declined("HEAD or CONNECT");
    }
    let target = parsed.path.unwrap_or("");
    let uri = match Uri::try_from(target) {
        Ok(uri) if target.starts_with('/') => uri,
        _ => return Head::Declined("a target not in origin form"),
    };
    // Where a value is in the buffer (httparse's slices point into it).
    let at = |piece: &[u8]| {
        let start = piece.as_ptr() as usize - buf.as_ptr() as usize;
        start..start + piece.len()
    };
    let mut length: Option<usize> = None;
    let mut close = false;
    for field in parsed.headers.iter() {
        let Some(name) = crate::http::field_name::of(field.name) else { return Head::Declined("a field name") };
        // The value's bytes are `HeaderValue`'s already: httparse takes a field value of HTAB,
        // SP, visible ASCII and obs-text, which is the `http` crate's rule.
        match name {
            header::CONTENT_LENGTH => match (length, decimal(field.value)) {
                (None, Some(n)) => length = Some(n),
                _ => return Head::Declined("a repeated or unreadable Content-Length"),
            },
            header::TRANSFER_ENCODING | header::EXPECT | header::UPGRADE => {
                return Head::Declined("Transfer-Encoding, Expect or Upgrade");
            }
            header::CONNECTION => {
                for token in crate::http::connection::options(field.value) {
                    if token.eq_ignore_ascii_case(b"close") {
                        close = true;
                    } else if !token.eq_ignore_ascii_case(b"keep-alive") {
                        return Head::Declined("a Connection option");
                    }
                }
            }
            _ => {}
        }
        fields.push((name, at(field.value)));
    }
    let body_len = length.unwrap_or(0);
    if body_len > MAX_BODY {
        return Head::Declined("a long body");
    }
    if buf.len() < head_len + body_len {
        return Head::BodyPending { needed: head_len + body_len };
    }
    Head::Taken(Taken { method, uri, head_len, body_len, close })
}

impl Taken {
    /// The request, from `bytes`: the buffer's first `head_len + body_len` bytes, cut from it.
    pub(super) fn request(self, bytes: Bytes, fields: &mut Fields) -> Request<ClientBody> {
        let mut headers = HeaderMap::with_capacity(fields.len());
        for (name, value) in fields.drain(..) {
            let value = HeaderValue::from_maybe_shared(bytes.slice(value.clone()))
                .unwrap_or_else(|_| HeaderValue::from_bytes(&bytes[value]).expect("checked when read"));
            headers.append(name, value);
        }
        let body = (self.body_len > 0).then(|| bytes.slice(self.head_len..self.head_len + self.body_len));
        let mut req = Request::new(ClientBody::Whole(body));
        *req.method_mut() = self.method;
        *req.uri_mut() = self.uri;
        *req.version_mut() = Version::HTTP_11;
        *req.headers_mut() = headers;
        req
    }
}

/// A `Content-Length` value: digits only, no sign, no list, at most 18 of them.
fn decimal(value: &[u8]) -> Option<usize> {
    if value.is_empty() || value.len() > 18 || !value.iter().all(u8::is_ascii_digit) {
        return None;
    }
    value.iter().try_fold(0usize, |n, d| n.checked_mul(10)?.checked_add(usize::from(d - b'0')))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taken(raw: &str) -> (http::request::Parts, usize, usize, bool) {
        let mut fields = Fields::new();
        match read(raw.as_bytes(), &mut fields) {
            Head::Taken(t) => {
                let (head_len, body_len, close) = (t.head_len, t.body_len, t.close);
                let (parts, body) = t.request(Bytes::copy_from_slice(raw.as_bytes()), &mut fields).into_parts();
                let ClientBody::Whole(body) = body else { panic!("a whole body") };
                assert_eq!(body.map_or(0, |b| b.len()), body_len);
                (parts, head_len, body_len, close)
            }
            Head::Declined(why) => panic!("declined ({why}): {raw:?}"),
            Head::Partial | Head::BodyPending { .. } => panic!("not whole: {raw:?}"),
        }
    }

    fn declined(raw: &[u8]) -> bool {
        matches!(read(raw, &mut Fields::new()), Head::Declined(_))
    }

    #[test]
    fn an_mcp_post_is_taken_with_its_fields_in_order_and_repeats_kept() {
        let raw = "POST /mcp/x?a=1 HTTP/1.1\r\nHost: a\r\nHost: b\r\nContent-Type: application/json\r\n\
                   Content-Length: 2\r\nConnection: keep-alive\r\n\r\n{}";
        let (parts, head_len, body_len, close) = taken(raw);
        assert_eq!((parts.method, parts.version), (Method::POST, Version::HTTP_11));
        assert_eq!((parts.uri.path(), parts.uri.query()), ("/mcp/x", Some("a=1")));
        let hosts: Vec<_> = parts.headers.get_all(header::HOST).iter().collect();
        assert_eq!(hosts, ["a", "b"], "a repeated Host is kept for the guard to refuse");
        assert_eq!((head_len + body_len, body_len, close), (raw.len(), 2, false));
        assert!(taken("GET /healthz HTTP/1.1\r\nConnection: Close\r\n\r\n").3, "close is read");
        let (parts, ..) = taken("GET /mcp/x HTTP/1.1\r\nMCP-Protocol-Version: 2025-06-18\r\nMcp-Session-Id: s\r\n\r\n");
        assert_eq!(parts.headers["mcp-protocol-version"], "2025-06-18");
        assert_eq!(parts.headers["mcp-session-id"], "s");
        assert_eq!(taken("DELETE /mcp/x HTTP/1.1\r\n\r\n").2, 0);
    }

    #[test]
    fn what_hyper_should_read_is_declined() {
        let cases: [&[u8]; 15] = [
            b"POST /mcp/x HTTP/1.0\r\nContent-Length: 0\r\n\r\n",
            b"HEAD /healthz HTTP/1.1\r\n\r\n",
            b"CONNECT a:443 HTTP/1.1\r\n\r\n",
            b"POST http://a/mcp/x HTTP/1.1\r\n\r\n",
            b"OPTIONS * HTTP/1.1\r\n\r\n",
            b"POST /mcp/x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            b"POST /mcp/x HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n",
            b"GET /mcp/x HTTP/1.1\r\nUpgrade: websocket\r\nConnection: upgrade\r\n\r\n",
            b"GET /mcp/x HTTP/1.1\r\nConnection: keep-alive, te\r\n\r\n",
            b"POST /mcp/x HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}",
            b"POST /mcp/x HTTP/1.1\r\nContent-Length: +2\r\n\r\n{}",
            b"POST /mcp/x HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n",
            b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
            b"POST /mcp/x HTTP/1.1\r\nBad Name: 1\r\n\r\n",
            b"POST /mcp/x HTTP/1.1\r\nX-Bell: a\x07b\r\n\r\n",
        ];
        for raw in cases {
            assert!(declined(raw), "{}", String::from_utf8_lossy(raw));
        }
        let many: String = (0..MAX_FIELDS + 1).map(|i| format!("X-{i}: 1\r\n")).collect();
        assert!(declined(format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes()), "more fields than taken");
        let long = format!("GET / HTTP/1.1\r\nX-Long: {}", "a".repeat(MAX_HEAD));
        assert!(declined(long.as_bytes()), "a head longer than taken");
    }

    #[test]
    fn a_head_or_body_still_arriving_waits() {
        let raw = b"POST /mcp/x HTTP/1.1\r\nContent-Length: 10\r\n\r\n{\"a\":1}";
        for cut in 1..raw.len() {
            let head_done = raw[..cut].windows(4).any(|w| w == b"\r\n\r\n");
            match read(&raw[..cut], &mut Fields::new()) {
                Head::Partial => assert!(!head_done, "{cut}"),
                Head::BodyPending { needed } => assert!(head_done && needed == raw.len() + 3, "{cut}"),
                _ => panic!("{cut}: taken or declined before the request is whole"),
            }
        }
    }
}
