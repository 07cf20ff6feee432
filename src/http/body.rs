//! Response bodies the gateway makes itself: whole JSON buffers, JSON arrays of messages, SSE
//! events.

use bytes::Bytes;
use http::{HeaderValue, Response, StatusCode, header};
use http_body_util::{BodyExt, Full, StreamBody};
use tokio::sync::mpsc;

use super::{Body, BoxError};

/// Frames sent into a channel, as a body that ends when the sender is dropped.
pub type FrameSender = mpsc::Sender<Result<http_body::Frame<Bytes>, BoxError>>;

/// A body fed by a channel (16 frames deep) and the sender that feeds it.
pub fn channel_body() -> (FrameSender, Body) {
    let (tx, rx) = mpsc::channel(16);
    let stream = futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|item| (item, rx)) });
    (tx, BodyExt::boxed(StreamBody::new(stream)))
}

/// A `text/event-stream` response that no intermediary should buffer or cache.
pub fn sse_response(body: Body) -> Response<Body> {
    let mut resp = Response::new(body);
    let h = resp.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert("x-accel-buffering", HeaderValue::from_static("no"));
    resp
}

pub fn full(bytes: impl Into<Bytes>) -> Body {
    Full::new(bytes.into()).map_err(|never| match never {}).boxed()
}

pub fn json_response(status: StatusCode, body: Vec<u8>) -> Response<Body> {
    let mut resp = Response::new(full(body));
    *resp.status_mut() = status;
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    resp
}

/// Messages as one JSON array.
pub fn join_array(parts: &[Vec<u8>]) -> Vec<u8> {
    let mut out = vec![b'['];
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(p);
    }
    out.push(b']');
    out
}

/// One message as an SSE `message` event.
pub fn sse_event(data: &[u8]) -> Bytes {
    let mut e = Vec::with_capacity(data.len() + 24);
    e.extend_from_slice(b"event: message\ndata: ");
    e.extend_from_slice(data);
    e.extend_from_slice(b"\n\n");
    Bytes::from(e)
}
