//! Reading an upstream's answer body within bounds: at most `max_bytes`, and never silent for
//! longer than `idle` between chunks. What went wrong is said, not swallowed, so the caller can
//! fail closed with the request's id.

use std::time::Duration;

use bytes::{Bytes, BytesMut};
use futures_util::{Stream, StreamExt};

use super::uninspected::Reason;

/// The upstream's body as a stream of chunks.
pub type Chunks = std::pin::Pin<Box<dyn Stream<Item = Result<Bytes, std::io::Error>> + Send + Sync>>;

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
/// the cap is known to be too large before anything is read. An answer that arrives as one
/// chunk is that chunk, not a copy of it; only a second chunk makes a buffer to join them in.
pub async fn read_whole(mut chunks: Chunks, declared: Option<u64>, max_bytes: usize, idle: Duration) -> Whole {
    if declared.is_some_and(|n| n > max_bytes as u64) {
        return Whole::TooLarge { head: Vec::new(), rest: chunks };
    }
    let (mut first, mut joined): (Option<Bytes>, Option<BytesMut>) = (None, None);
    let mut len = 0;
    loop {
        let chunk = match tokio::time::timeout(idle, chunks.next()).await {
            Err(_) => return Whole::Failed(Reason::Timeout),
            Ok(None) => return Whole::Read(joined.map(BytesMut::freeze).or(first).unwrap_or_default()),
            Ok(Some(Err(_))) => return Whole::Failed(Reason::Broken),
            Ok(Some(Ok(chunk))) => chunk,
        };
        if len + chunk.len() > max_bytes {
            let head = first.into_iter().chain(joined.map(BytesMut::freeze)).chain([chunk]).collect();
            return Whole::TooLarge { head, rest: chunks };
        }
        len += chunk.len();
        match (&mut joined, first.take()) {
            (Some(buf), _) => buf.extend_from_slice(&chunk),
            (None, None) => first = Some(chunk),
            (None, Some(head)) => {
                // Room for a declared length made once instead of grown into copy by copy; at
                // most 1 MiB ahead of the bytes themselves, whatever the upstream declares.
                let room = declared.map_or(0, |n| n.min(1 << 20) as usize).max(len);
                let mut buf = BytesMut::with_capacity(room);
                buf.extend_from_slice(&head);
                buf.extend_from_slice(&chunk);
                joined = Some(buf);
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
        let Whole::TooLarge { head, .. } = read_whole(chunks(&[b"ab", b"cd"]), None, 3, idle).await else {
            panic!("over the cap at the second chunk")
        };
        assert_eq!(head.concat(), b"abcd");
        assert!(matches!(read_whole(chunks(&[]), None, 3, idle).await, Whole::Read(b) if b.is_empty()));
    }

    #[tokio::test]
    async fn one_chunk_is_kept_as_it_came() {
        let chunk = Bytes::from_static(b"{\"jsonrpc\":\"2.0\"}");
        let one: Chunks = Box::pin(futures_util::stream::iter([Ok(chunk.clone())]));
        let Whole::Read(read) = read_whole(one, Some(chunk.len() as u64), 100, Duration::from_secs(5)).await else {
            panic!("read")
        };
        assert_eq!(read.as_ptr(), chunk.as_ptr(), "the chunk itself, not a copy");
        let three = chunks(&[b"a", b"b", b"c"]);
        assert!(matches!(read_whole(three, None, 3, Duration::from_secs(5)).await, Whole::Read(b) if &b[..] == b"abc"));
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
