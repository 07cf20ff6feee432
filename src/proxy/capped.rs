//! Reading an upstream's answer body within bounds: at most `max_bytes`, and never silent for
//! longer than `idle` between chunks. What went wrong is said, not swallowed, so the caller can
//! fail closed with the request's id.

use std::time::Duration;

use bytes::{Bytes, BytesMut};
use futures_util::{Stream, StreamExt};

use super::uninspected::Reason;

/// The upstream's body as a stream of chunks.
pub type Chunks = std::pin::Pin<Box<dyn Stream<Item = Result<Bytes, hyper::Error>> + Send + Sync>>;

/// What reading a whole answer gave.
pub enum Whole {
    Read(Bytes),
    /// Past the cap: what was read so far and the rest, unread (to pass on as they are).
    TooLarge {
        head: Vec<Bytes>,
        rest: Chunks,
    },
    /// Timed out or broke off mid-body.
    Failed(Reason),
}

/// Reads `chunks` to the end within `max_bytes` and `idle`. A declared `Content-Length` over
/// the cap is known to be too large before anything is read.
pub async fn read_whole(mut chunks: Chunks, declared: Option<u64>, max_bytes: usize, idle: Duration) -> Whole {
    if declared.is_some_and(|n| n > max_bytes as u64) {
        return Whole::TooLarge { head: Vec::new(), rest: chunks };
    }
    // Room for a declared length made once instead of grown into copy by copy; at most 1 MiB
    // ahead of the bytes themselves, whatever the upstream declares.
    let mut buf = BytesMut::with_capacity(declared.map_or(0, |n| n.min(1 << 20) as usize));
    loop {
        match tokio::time::timeout(idle, chunks.next()).await {
            Err(_) => return Whole::Failed(Reason::Timeout),
            Ok(None) => return Whole::Read(buf.freeze()),
            Ok(Some(Err(_))) => return Whole::Failed(Reason::Broken),
            Ok(Some(Ok(chunk))) => {
                if buf.len() + chunk.len() > max_bytes {
                    return Whole::TooLarge { head: vec![buf.freeze(), chunk], rest: chunks };
                }
                buf.extend_from_slice(&chunk);
            }
        }
    }
}

/// Whether a `Content-Encoding` value means the bytes are not the content itself.
pub fn is_encoded(headers: &http::HeaderMap) -> bool {
    headers.get_all(http::header::CONTENT_ENCODING).iter().any(|v| {
        let v = v.to_str().unwrap_or("?");
        v.split(',').map(str::trim).any(|c| !c.is_empty() && !c.eq_ignore_ascii_case("identity"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(parts: &[&'static [u8]]) -> Chunks {
        Box::pin(futures_util::stream::iter(parts.iter().map(|p| Ok(Bytes::from_static(p))).collect::<Vec<_>>()))
    }

    #[tokio::test]
    async fn within_and_past_the_cap() {
        let idle = Duration::from_secs(5);
        assert!(
            matches!(read_whole(chunks(&[b"ab", b"cd"]), None, 4, idle).await, Whole::Read(b) if &b[..] == b"abcd")
        );
        let Whole::TooLarge { head, rest } = read_whole(chunks(&[b"ab", b"cd", b"e"]), None, 3, idle).await else {
            panic!("over the cap")
        };
        assert_eq!(head.concat(), b"abcd");
        assert_eq!(rest.count().await, 1, "the rest is left unread");
        assert!(matches!(read_whole(chunks(&[]), Some(10), 3, idle).await, Whole::TooLarge { .. }));
    }

    #[tokio::test(start_paused = true)]
    async fn silence_is_a_timeout() {
        let silent: Chunks = Box::pin(futures_util::stream::pending());
        assert!(matches!(read_whole(silent, None, 10, Duration::from_secs(1)).await, Whole::Failed(Reason::Timeout)));
    }

    #[test]
    fn encodings() {
        let mut h = http::HeaderMap::new();
        assert!(!is_encoded(&h));
        h.insert(http::header::CONTENT_ENCODING, "identity".parse().unwrap());
        assert!(!is_encoded(&h));
        h.insert(http::header::CONTENT_ENCODING, "gzip".parse().unwrap());
        assert!(is_encoded(&h));
    }
}
