//! Response bodies the gateway makes itself: whole JSON buffers, JSON arrays of messages, SSE
//! events.

use bytes::Bytes;
use http::{HeaderValue, Response, StatusCode, header};
use http_body_util::{BodyExt, Full};

use super::Body;

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
