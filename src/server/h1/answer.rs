//! Writing an answer on the listener's own HTTP/1.1 server, framed as hyper frames its own
//! (RFC 9112 section 6): no body for 1xx, 204 and 304; `Content-Length` when the body knows its
//! exact size (a `Content-Length` field a route set is replaced); chunked otherwise, every frame sent as
//! it comes (an SSE stream's events are not held back). Field names are written lower-case,
//! `Date` is added, and `Connection: close` when the connection ends after this answer. A body
//! that errs, or gives more or fewer bytes than its length, ends the connection (the client
//! sees a cut answer, never a wrong one).
//!
//! The head and the first part of the body go out in one vectored write; a body that is all
//! there (a JSON answer) is one write in all.

use std::io;
use std::time::{SystemTime, UNIX_EPOCH};

use bytes::{Buf, Bytes};
use futures_util::FutureExt;
use http::{HeaderMap, Response, StatusCode, header};
use http_body::Body as _;
use http_body_util::BodyExt;
use smallvec::SmallVec;
use tokio::io::{AsyncWrite, AsyncWriteExt};

use crate::http::Body;

/// Bytes queued before they are written even though more of the body is ready.
const FLUSH_AT: usize = 256 * 1024;

/// How the body goes on the wire.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Framing {
    None,
    Length(u64),
    Chunked,
}

/// The connection an answer is written to, which is also read while the answer waits for its
/// body: the client going away ends the answer.
pub(super) trait Link {
    type Io: AsyncWrite + Unpin;
    fn io(&mut self) -> &mut Self::Io;
    /// Resolves when the client has closed its side or the socket failed; reads (and keeps)
    /// what the client sends meanwhile.
    fn gone(&mut self) -> impl std::future::Future<Output = ()>;
}

/// Why an answer was not written whole.
#[derive(Debug)]
pub(super) enum Cut {
    Io(io::Error),
    ClientGone,
    Body(String),
}

impl std::fmt::Display for Cut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cut::Io(e) => write!(f, "writing to the client failed: {e}"),
            Cut::ClientGone => f.write_str("the client went away"),
            Cut::Body(e) => write!(f, "the answer's body failed: {e}"),
        }
    }
}

/// Writes `resp` to the connection, saying `Connection: close` unless `keep`.
pub(super) async fn write<L: Link>(link: &mut L, resp: Response<Body>, keep: bool) -> Result<(), Cut> {
    let (parts, mut body) = resp.into_parts();
    let framing = framing(parts.status, body.size_hint().exact());
    let mut out = Outgoing::default();
    out.push(Bytes::from(head(parts.status, &parts.headers, framing, keep)));
    let mut sent: u64 = 0;
    loop {
        let frame = match body.frame().now_or_never() {
            Some(frame) => frame,
            None => {
                // Nothing more yet: what is queued goes out before waiting.
                out.flush(link.io()).await.map_err(Cut::Io)?;
                tokio::select! {
                    biased;
                    frame = body.frame() => frame,
                    () = link.gone() => return Err(Cut::ClientGone),
                }
            }
        };
        let data = match frame {
            None => break,
            Some(Err(e)) => return Err(Cut::Body(e.to_string())),
            // Trailers are not sent (no client asked for them with `TE: trailers` here).
            Some(Ok(frame)) => match frame.into_data() {
                Ok(data) if !data.is_empty() => data,
                _ => continue,
            },
        };
        sent += data.len() as u64;
        match framing {
            Framing::None => {}
            Framing::Length(n) if sent > n => return Err(Cut::Body(format!("the body is longer than its {n} bytes"))),
            Framing::Length(_) => out.push(data),
            Framing::Chunked => {
                out.push(Bytes::from(format!("{:x}\r\n", data.len())));
                out.push(data);
                out.push(Bytes::from_static(b"\r\n"));
            }
        }
        if out.queued >= FLUSH_AT {
            out.flush(link.io()).await.map_err(Cut::Io)?;
        }
    }
    match framing {
        Framing::Length(n) if sent < n => return Err(Cut::Body(format!("the body ended at {sent} of its {n} bytes"))),
        Framing::Chunked => out.push(Bytes::from_static(b"0\r\n\r\n")),
        _ => {}
    }
    out.flush(link.io()).await.map_err(Cut::Io)
}

/// The body's own exact size decides, never a `Content-Length` field: no route sets one (an
/// upstream's is dropped with the other hop-by-hop fields, `proxy/headers.rs`), and one that
/// did cannot then frame a body other than it is.
fn framing(status: StatusCode, exact: Option<u64>) -> Framing {
    if status.is_informational() || status == StatusCode::NO_CONTENT || status == StatusCode::NOT_MODIFIED {
        return Framing::None;
    }
    exact.map_or(Framing::Chunked, Framing::Length)
}

/// The status line and fields, framing, `Date` and `Connection` as the answer needs them.
fn head(status: StatusCode, headers: &HeaderMap, framing: Framing, keep: bool) -> Vec<u8> {
    let mut h = Vec::with_capacity(96 + headers.len() * 48);
    if status == StatusCode::OK {
        h.extend_from_slice(b"HTTP/1.1 200 OK\r\n");
    } else {
        h.extend_from_slice(b"HTTP/1.1 ");
        h.extend_from_slice(status.as_str().as_bytes());
        h.push(b' ');
        h.extend_from_slice(status.canonical_reason().unwrap_or("<none>").as_bytes());
        h.extend_from_slice(b"\r\n");
    }
    let mut dated = false;
    for (name, value) in headers {
        match *name {
            header::CONTENT_LENGTH | header::TRANSFER_ENCODING => continue,
            header::CONNECTION if !keep => continue,
            header::DATE => dated = true,
            _ => {}
        }
        h.extend_from_slice(name.as_str().as_bytes());
        h.extend_from_slice(b": ");
        h.extend_from_slice(value.as_bytes());
        h.extend_from_slice(b"\r\n");
    }
    match framing {
        Framing::Length(n) => {
            h.extend_from_slice(b"content-length: ");
            h.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
            h.extend_from_slice(b"\r\n");
        }
        Framing::Chunked => h.extend_from_slice(b"transfer-encoding: chunked\r\n"),
        Framing::None => {}
    }
    if !keep {
        h.extend_from_slice(b"connection: close\r\n");
    }
    if !dated {
        h.extend_from_slice(b"date: ");
        date(&mut h);
        h.extend_from_slice(b"\r\n");
    }
    h.extend_from_slice(b"\r\n");
    h
}

thread_local! {
    /// The `Date` value of the current second, formatted once a second per thread.
    static DATE: std::cell::RefCell<(u64, String)> = const { std::cell::RefCell::new((u64::MAX, String::new())) };
}

fn date(h: &mut Vec<u8>) {
    let now = SystemTime::now();
    let second = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    DATE.with_borrow_mut(|(at, text)| {
        if *at != second {
            *at = second;
            *text = httpdate::fmt_http_date(now);
        }
        h.extend_from_slice(text.as_bytes());
    });
}

/// Bytes queued for one vectored write (a head and a whole body need no allocation here).
#[derive(Default)]
struct Outgoing {
    parts: SmallVec<[Bytes; 4]>,
    /// The first part not yet written whole.
    first: usize,
    queued: usize,
}

impl Outgoing {
    fn push(&mut self, b: Bytes) {
        self.queued += b.len();
        self.parts.push(b);
    }

    async fn flush<S: AsyncWrite + Unpin>(&mut self, io: &mut S) -> io::Result<()> {
        if self.queued == 0 {
            return Ok(());
        }
        while self.queued > 0 {
            let mut n = {
                let mut slices: SmallVec<[io::IoSlice<'_>; 8]> = SmallVec::new();
                slices.extend(self.parts[self.first..].iter().take(64).map(|b| io::IoSlice::new(b)));
                io.write_vectored(&slices).await?
            };
            if n == 0 {
                return Err(io::ErrorKind::WriteZero.into());
            }
            self.queued -= n;
            while n > 0 {
                let front = &mut self.parts[self.first];
                let take = n.min(front.len());
                front.advance(take);
                n -= take;
                if front.is_empty() {
                    self.first += 1;
                }
            }
        }
        self.parts.clear();
        self.first = 0;
        io.flush().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    /// A client that stays.
    struct Stays(Vec<u8>);
    impl Link for Stays {
        type Io = Vec<u8>;
        fn io(&mut self) -> &mut Vec<u8> {
            &mut self.0
        }
        async fn gone(&mut self) {
            std::future::pending::<()>().await;
        }
    }

    async fn written(resp: Response<Body>, keep: bool) -> (String, Result<(), String>) {
        let mut link = Stays(Vec::new());
        let r = write(&mut link, resp, keep).await.map_err(|e| e.to_string());
        (String::from_utf8(link.0).unwrap(), r)
    }

    fn without_date(s: &str) -> String {
        s.lines().filter(|l| !l.starts_with("date: ")).collect::<Vec<_>>().join("\n")
    }

    #[tokio::test]
    async fn a_whole_body_gets_its_length_and_a_stream_is_chunked() {
        let mut resp = crate::http::body::json_response(StatusCode::OK, b"{}".to_vec());
        resp.headers_mut().insert(header::CONTENT_LENGTH, HeaderValue::from_static("2"));
        let (text, r) = written(resp, true).await;
        r.unwrap();
        assert_eq!(without_date(&text), "HTTP/1.1 200 OK\ncontent-type: application/json\ncontent-length: 2\n\n{}");
        assert!(text.contains("\r\ndate: ") && text.ends_with("\r\n\r\n{}"), "{text}");

        let (tx, body) = crate::http::body::channel_body();
        tx.send(Ok(http_body::Frame::data(Bytes::from_static(b"event: message\n\n")))).await.unwrap();
        drop(tx);
        let (text, r) = written(crate::http::body::sse_response(body), false).await;
        r.unwrap();
        assert!(text.contains("transfer-encoding: chunked\r\nconnection: close\r\n"), "{text}");
        assert!(text.ends_with("\r\n\r\n10\r\nevent: message\n\n\r\n0\r\n\r\n"), "{text}");
    }

    #[tokio::test]
    async fn bodiless_statuses_and_errors() {
        let mut resp = Response::new(crate::http::body::full("ignored"));
        *resp.status_mut() = StatusCode::NO_CONTENT;
        let (text, r) = written(resp, true).await;
        r.unwrap();
        assert!(text.starts_with("HTTP/1.1 204 No Content\r\n") && text.ends_with("\r\n\r\n"), "{text}");
        assert!(!text.contains("content-length") && !text.contains("ignored"), "{text}");

        // A length field is not believed: a whole body is framed by its size, a stream by chunks.
        let mut resp = Response::new(crate::http::body::full("longer than two"));
        resp.headers_mut().insert(header::CONTENT_LENGTH, HeaderValue::from_static("2"));
        let (text, r) = written(resp, true).await;
        assert!(r.is_ok(), "the exact size wins over a wrong header");
        assert!(text.contains("content-length: 15\r\n") && !text.contains("content-length: 2\r\n"), "{text}");
        let (tx, body) = crate::http::body::channel_body();
        drop(tx);
        let mut resp = Response::new(body);
        resp.headers_mut().insert(header::CONTENT_LENGTH, HeaderValue::from_static("2"));
        let (text, r) = written(resp, true).await;
        r.unwrap();
        assert!(text.contains("transfer-encoding: chunked\r\n") && !text.contains("content-length"), "{text}");
        // A body that errs cuts the answer.
        let stream =
            futures_util::stream::iter([Err::<http_body::Frame<Bytes>, crate::http::BoxError>("broken".into())]);
        let resp = Response::new(BodyExt::boxed(http_body_util::StreamBody::new(stream)));
        let (_, r) = written(resp, true).await;
        assert!(r.unwrap_err().contains("broken"));
    }

    #[test]
    fn statuses_other_than_ok_keep_their_reason() {
        let h = head(StatusCode::from_u16(404).unwrap(), &HeaderMap::new(), Framing::Length(0), true);
        assert!(h.starts_with(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\ndate: "));
        let mut fields = HeaderMap::new();
        fields.insert(header::CONNECTION, HeaderValue::from_static("keep-alive"));
        let h = String::from_utf8(head(StatusCode::OK, &fields, Framing::Chunked, false)).unwrap();
        assert_eq!(h.matches("connection").count(), 1, "{h}");
        assert!(h.contains("connection: close"), "{h}");
    }
}
