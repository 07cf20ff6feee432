//! A response body of a few buffers known in advance (a spliced list answer): sent one frame
//! each, which hyper writes with one vectored write instead of the gateway copying them into
//! one buffer first. Its length is exact, so the answer carries the same `Content-Length` a
//! single buffer would.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Frame, SizeHint};
use http_body_util::BodyExt;

use super::Body;

/// The buffers still to send, and their total length.
struct Frames {
    parts: std::vec::IntoIter<Bytes>,
    left: u64,
}

impl http_body::Body for Frames {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        Poll::Ready(this.parts.next().map(|b| {
            this.left -= b.len() as u64;
            Ok(Frame::data(b))
        }))
    }

    fn is_end_stream(&self) -> bool {
        self.left == 0
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.left)
    }
}

/// A body that sends `parts` in order, empty ones left out.
pub fn frames(mut parts: Vec<Bytes>) -> Body {
    parts.retain(|b| !b.is_empty());
    let left = parts.iter().map(|b| b.len() as u64).sum();
    Frames { parts: parts.into_iter(), left }.map_err(|never| match never {}).boxed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body::Body as _;

    #[tokio::test]
    async fn the_length_is_exact_and_the_bytes_are_the_parts() {
        let parts =
            [Bytes::from_static(b"{\"a\":"), Bytes::new(), Bytes::from_static(b"[1,2]"), Bytes::from_static(b"}")];
        let body = frames(parts.to_vec());
        assert_eq!(body.size_hint().exact(), Some(11));
        assert!(!body.is_end_stream());
        let collected = body.collect().await.unwrap().to_bytes();
        assert_eq!(&collected[..], b"{\"a\":[1,2]}");
        let empty = frames(vec![Bytes::new()]);
        assert!(empty.is_end_stream());
        assert_eq!(empty.size_hint().exact(), Some(0));
    }
}
