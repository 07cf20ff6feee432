//! Whether a request's body was read before its answer, and what the listener does when not.
//!
//! hyper cannot reuse an HTTP/1 connection whose request body was left unread: once the answer
//! is written it closes the connection. When it notices the unread body only after writing the
//! answer's head, the head still promises keep-alive, and a client that sends its next request
//! on that connection (the retry with a token after a 401, the next call after a 404 or a 413)
//! loses it as the connection closes ("server disconnected without sending a response"). Every
//! answer to such a request therefore says `Connection: close`, decided here for every route:
//! a body is read through [`RequestBody::read_all`], which marks it read, and the listener
//! (`server/listener.rs`) does the rest.

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderValue, Request, Response, Version, header};
use http_body::{Frame, SizeHint};
use http_body_util::{BodyExt, Limited};

use super::error::GatewayError;

/// A request's body as the listener hands it to a route: still arriving through hyper, or
/// already read whole by the listener's own HTTP/1 server (`server/h1/`), which takes only
/// requests whose body is complete in its buffer.
#[derive(Debug)]
pub enum ClientBody {
    Hyper(hyper::body::Incoming),
    Whole(Option<Bytes>),
}

/// A request as every route receives it.
pub type ClientRequest = Request<ClientBody>;

impl From<hyper::body::Incoming> for ClientBody {
    fn from(body: hyper::body::Incoming) -> ClientBody {
        ClientBody::Hyper(body)
    }
}

impl http_body::Body for ClientBody {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        match self.get_mut() {
            ClientBody::Hyper(b) => Pin::new(b).poll_frame(cx),
            ClientBody::Whole(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
        }
    }
    fn is_end_stream(&self) -> bool {
        match self {
            ClientBody::Hyper(b) => b.is_end_stream(),
            ClientBody::Whole(b) => b.is_none(),
        }
    }
    fn size_hint(&self) -> SizeHint {
        match self {
            ClientBody::Hyper(b) => b.size_hint(),
            ClientBody::Whole(b) => SizeHint::with_exact(b.as_ref().map_or(0, |b| b.len() as u64)),
        }
    }
}

/// One request's body, as the listener follows it.
#[derive(Debug)]
pub struct RequestBody {
    /// An HTTP/1 request that announced a body (a length other than zero, or chunks). HTTP/2
    /// streams end on their own and may not carry `Connection`.
    unread_matters: bool,
    read: AtomicBool,
}

impl RequestBody {
    pub fn of<B>(req: &Request<B>) -> RequestBody {
        let h = req.headers();
        let announced =
            h.get(header::CONTENT_LENGTH).map_or(h.contains_key(header::TRANSFER_ENCODING), |v| v.as_bytes() != b"0");
        RequestBody { unread_matters: announced && req.version() < Version::HTTP_2, read: AtomicBool::new(false) }
    }

    /// The whole body, at most `limit` bytes, arriving within `within`: the one way a route
    /// reads a request's body, so that what was read is always known and no route reads one
    /// without both bounds. A longer, slower or broken body is an error and stays unread.
    pub async fn read_all(&self, body: ClientBody, limit: usize, within: Duration) -> Result<Bytes, GatewayError> {
        let body = match body {
            ClientBody::Whole(whole) => {
                let whole = whole.unwrap_or_default();
                if whole.len() > limit {
                    return Err(GatewayError::BodyTooLarge(limit));
                }
                self.mark_read();
                return Ok(whole);
            }
            ClientBody::Hyper(body) => body,
        };
        let bytes = match tokio::time::timeout(within, Limited::new(body, limit).collect()).await {
            Ok(Ok(b)) => b.to_bytes(),
            Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => return Err(GatewayError::BodyTooLarge(limit)),
            Ok(Err(e)) => return Err(GatewayError::BadBody(e.to_string())),
            Err(_) => return Err(GatewayError::SlowRequest(within.as_millis() as u64)),
        };
        self.mark_read();
        Ok(bytes)
    }

    fn mark_read(&self) {
        self.read.store(true, Ordering::Relaxed);
    }

    /// `resp`, saying `Connection: close` when the body it answers was left unread.
    pub fn close_if_unread<B>(&self, mut resp: Response<B>) -> Response<B> {
        if self.unread_matters && !self.read.load(Ordering::Relaxed) {
            resp.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        resp
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(version: Version, headers: &[(&str, &str)]) -> Request<()> {
        let mut b = Request::builder().method("POST").uri("/mcp/x").version(version);
        for (k, v) in headers {
            b = b.header(*k, *v);
        }
        b.body(()).unwrap()
    }

    fn closes(body: &RequestBody) -> bool {
        body.close_if_unread(Response::new(())).headers().get(header::CONNECTION).is_some_and(|v| v == "close")
    }

    #[test]
    fn an_unread_http1_body_closes_the_connection() {
        for headers in [&[("content-length", "5")][..], &[("transfer-encoding", "chunked")]] {
            let body = RequestBody::of(&req(Version::HTTP_11, headers));
            assert!(closes(&body), "{headers:?}");
            body.mark_read();
            assert!(!closes(&body), "read to its end: {headers:?}");
        }
    }

    #[test]
    fn no_body_and_http2_keep_the_connection() {
        assert!(!closes(&RequestBody::of(&req(Version::HTTP_11, &[]))));
        assert!(!closes(&RequestBody::of(&req(Version::HTTP_11, &[("content-length", "0")]))));
        assert!(!closes(&RequestBody::of(&req(Version::HTTP_2, &[("content-length", "5")]))));
    }
}
