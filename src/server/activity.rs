//! What one client connection is doing, for its deadlines: requests in flight, when it last
//! went idle, and when the bytes of its next request began to arrive.
//!
//! Two limits apply to a connection between requests and they must not blur: an idle one may
//! stay `keep_alive_timeout_ms`, and one that has started sending a request must finish its
//! headers within `header_read_timeout_ms` (slowloris). hyper's own header-read timer starts
//! when the connection becomes ready for the next request, so it also closes idle connections
//! at the header-read limit, abruptly, racing clients that reuse them; the listener does not use
//! it and keeps both clocks here instead. "Idle" starts when the last response has been written
//! (its body dropped), not when its request arrived: a long call does not eat its connection's
//! keep-alive.
//!
//! On HTTP/2 the header clock does not run between requests (a client's pings and window
//! updates are not the start of a request); its streams are bounded per connection instead.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body::{Body as HttpBody, Frame, SizeHint};

use crate::http::observed::{Observed, Observer};

/// Shared between a connection's reader, its requests and its deadline loop.
pub struct Activity {
    started: Instant,
    in_flight: AtomicUsize,
    /// Milliseconds after `started`, plus one, of the moment the connection last became idle
    /// (0: it has not served a request yet).
    idle_since: AtomicU64,
    /// Milliseconds after `started`, plus one, of the first byte read while idle (0: none since
    /// the last request began).
    head_started: AtomicU64,
    /// The client opened with the whole HTTP/2 preface.
    h2: AtomicBool,
}

/// The limits a connection's deadline is made of.
#[derive(Clone, Copy)]
pub struct Limits {
    pub header_read: Duration,
    pub keep_alive: Duration,
}

impl Activity {
    pub fn new() -> Arc<Self> {
        Arc::new(Activity {
            started: Instant::now(),
            in_flight: AtomicUsize::new(0),
            idle_since: AtomicU64::new(0),
            head_started: AtomicU64::new(0),
            h2: AtomicBool::new(false),
        })
    }

    fn now_mark(&self) -> u64 {
        self.started.elapsed().as_millis() as u64 + 1
    }

    /// A request has arrived (its headers are in); the guard marks it finished when dropped.
    pub fn begin(self: &Arc<Self>) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        self.head_started.store(0, Ordering::Release);
        InFlight(self.clone())
    }

    /// When to look at the connection next: its deadline if nothing changes, but never later
    /// than one header-read limit from `now` while no request has begun, since a request that
    /// begins after `now` has its deadline at least that far away; so the bytes of a request
    /// need not wake anyone and the header limit is still kept exactly. While a request is in
    /// flight, one header-read limit (or the keep-alive one, if shorter) from `now`.
    pub fn next_look(&self, limits: Limits, now: Instant) -> Instant {
        let step = now + limits.header_read.min(limits.keep_alive);
        match self.deadline(limits) {
            None => step,
            Some(deadline) if self.head_started.load(Ordering::Acquire) == 0 => deadline.min(step),
            Some(deadline) => deadline,
        }
    }

    /// When the connection must be closed if nothing changes, or `None` while a request is in
    /// flight (no idle or header clock runs then; the body has its own).
    pub fn deadline(&self, limits: Limits) -> Option<Instant> {
        if self.in_flight.load(Ordering::Acquire) > 0 {
            return None;
        }
        let at = |mark: u64| self.started + Duration::from_millis(mark - 1);
        let since = self.idle_since.load(Ordering::Acquire);
        let head = self.head_started.load(Ordering::Acquire);
        Some(match since {
            // A new connection gets the header-read limit for its first request.
            0 => self.started + limits.header_read,
            _ if head >= since => at(head) + limits.header_read,
            _ => at(since) + limits.keep_alive,
        })
    }

    /// Whether the connection speaks HTTP/2 (known once the preface's 24 bytes are in).
    pub fn is_h2(&self) -> bool {
        self.h2.load(Ordering::Acquire)
    }

    /// Bytes arrived (a reader that does not go through [`watched`] says so itself).
    pub fn bytes_read(&self) {
        if self.is_h2() {
            return;
        }
        if self.in_flight.load(Ordering::Acquire) == 0 && self.head_started.load(Ordering::Acquire) == 0 {
            let mark = self.now_mark();
            let _ = self.head_started.compare_exchange(0, mark, Ordering::AcqRel, Ordering::Acquire);
        }
    }
}

/// One request in flight on a connection; dropping it (with the response body, or with the
/// request's future when the client goes away) makes the connection idle again if it was the
/// last.
pub struct InFlight(Arc<Activity>);

impl Drop for InFlight {
    fn drop(&mut self) {
        let a = &self.0;
        if a.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            a.head_started.store(0, Ordering::Release);
            a.idle_since.store(a.now_mark(), Ordering::Release);
        }
    }
}

/// A response body that holds its request's [`InFlight`] until it has been sent or dropped.
pub struct Tracked<B> {
    body: B,
    _in_flight: InFlight,
}

impl<B> Tracked<B> {
    pub fn new(body: B, in_flight: InFlight) -> Self {
        Tracked { body, _in_flight: in_flight }
    }
}

impl<B: HttpBody<Data = Bytes> + Unpin> HttpBody for Tracked<B> {
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }
    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }
    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// A client stream that tells its [`Activity`] when bytes arrive while the connection is idle,
/// and whether its first bytes are the HTTP/2 preface.
pub type Watched<S> = Observed<S, ClientReads>;

/// `stream`, watched for `activity`.
pub fn watched<S>(stream: S, activity: Arc<Activity>) -> Watched<S> {
    Observed { stream, observer: ClientReads { activity, opening: [0; PREFACE.len()], opened: 0 } }
}

/// What an HTTP/2 client sends first. The whole of it, as hyper-util's protocol detection
/// reads it: an HTTP/1 request that only opens with "PRI " must not escape the header clock.
const PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// What a client connection's reads tell its [`Activity`].
pub struct ClientReads {
    activity: Arc<Activity>,
    /// The connection's first bytes, until the preface's length is in.
    opening: [u8; PREFACE.len()],
    opened: usize,
}

impl ClientReads {
    fn opening(&mut self, bytes: &[u8]) {
        let take = bytes.len().min(PREFACE.len() - self.opened);
        self.opening[self.opened..self.opened + take].copy_from_slice(&bytes[..take]);
        self.opened += take;
        if self.opened == PREFACE.len() && &self.opening == PREFACE {
            self.activity.h2.store(true, Ordering::Release);
        }
    }
}

impl Observer for ClientReads {
    fn read(&mut self, bytes: &[u8]) {
        if self.opened < PREFACE.len() {
            self.opening(bytes);
        }
        self.activity.bytes_read();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits { header_read: Duration::from_secs(10), keep_alive: Duration::from_secs(60) };

    #[test]
    fn a_new_connection_gets_the_header_limit_for_its_first_request() {
        let a = Activity::new();
        assert_eq!(a.deadline(LIMITS), Some(a.started + LIMITS.header_read));
        a.bytes_read();
        assert_eq!(a.deadline(LIMITS), Some(a.started + LIMITS.header_read));
    }

    #[test]
    fn no_clock_runs_while_a_request_is_in_flight_and_idle_counts_from_its_end() {
        let a = Activity::new();
        let call = a.begin();
        a.bytes_read(); // the request's body: not the start of another request
        assert_eq!(a.deadline(LIMITS), None);
        std::thread::sleep(Duration::from_millis(5));
        drop(call);
        let idle = a.deadline(LIMITS).unwrap();
        assert!(idle >= a.started + Duration::from_millis(5) + LIMITS.keep_alive, "idle counts from the response");
    }

    #[test]
    fn bytes_of_the_next_request_bring_the_header_limit_back() {
        let a = Activity::new();
        drop(a.begin());
        let idle = a.deadline(LIMITS).unwrap();
        a.bytes_read();
        let head = a.deadline(LIMITS).unwrap();
        assert!(head < idle, "a started request has the header limit, not the idle one");
        assert!(head >= a.started + LIMITS.header_read);
        // The request's headers complete: no clock until it has been answered.
        let next = a.begin();
        assert_eq!(a.deadline(LIMITS), None);
        drop(next);
        assert!(a.deadline(LIMITS).unwrap() >= idle);
    }

    #[test]
    fn http2_is_known_by_its_preface_however_it_is_split() {
        for split in 1..30 {
            let a = Activity::new();
            let mut w = watched(tokio::io::empty(), a.clone()).observer;
            for chunk in PREFACE.chunks(split) {
                w.read(chunk);
            }
            assert!(a.is_h2(), "split {split}");
        }
        // An HTTP/1 request, or one that only opens like the preface (a method "PRI" and a
        // stalled head), keeps the header clock.
        for opening in [&b"POST /mcp/x HTTP/1.1\r\nHost: a\r\n"[..], b"PRI /mcp/x HTTP/1.1\r\nHost: a\r\nX-Pad: 1"] {
            let a = Activity::new();
            let mut w = watched(tokio::io::empty(), a.clone()).observer;
            w.read(&opening[..1]);
            w.read(&opening[1..]);
            assert!(!a.is_h2(), "{}", String::from_utf8_lossy(opening));
        }
    }

    #[test]
    fn an_idle_connection_is_looked_at_often_enough_to_keep_the_header_limit() {
        let a = Activity::new();
        drop(a.begin());
        let now = Instant::now();
        // Idle: the keep-alive deadline is far, but the next look is one header limit away.
        assert!(a.next_look(LIMITS, now) <= now + LIMITS.header_read);
        // A request begins: its header deadline is no earlier than that look.
        a.bytes_read();
        assert!(a.deadline(LIMITS).unwrap() >= now + LIMITS.header_read - Duration::from_millis(1));
        assert_eq!(a.next_look(LIMITS, Instant::now()), a.deadline(LIMITS).unwrap());
    }

    #[test]
    fn concurrent_streams_keep_the_connection_busy_until_the_last_ends() {
        let a = Activity::new();
        let (one, two) = (a.begin(), a.begin());
        drop(one);
        assert_eq!(a.deadline(LIMITS), None);
        drop(two);
        assert!(a.deadline(LIMITS).is_some());
    }
}
