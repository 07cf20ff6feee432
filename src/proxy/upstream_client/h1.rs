//! Plain-HTTP upstreams on hyper's own HTTP/1 connections, pooled here rather than by
//! hyper-util's client, whose per-request machinery (a shared pool behind a mutex keyed by
//! SipHash of scheme and authority three times a request, a checkout future, a task spawned per
//! request to put the connection back once its answer is read) was a tenth of a proxied call
//! (benches/PROFILE.md). HTTPS upstreams, which may negotiate HTTP/2, stay on hyper-util.
//!
//! A pool is a short list of idle connections per serving thread (`POOL_SLOT`): with
//! `--runtime per-core` a thread only ever takes from and returns to its own list, so the lock
//! is never contended, and a connection's task runs on the thread that uses it. A connection
//! goes back to its list only when its answer's body has been read to the end (see
//! [`UpstreamBody`]): a body dropped half-read leaves it out, and hyper closes it. Idle longer
//! than `POOL_IDLE`, it is closed instead of reused.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures_util::FutureExt;
use http::uri::{Authority, PathAndQuery};
use http::{HeaderValue, Request, Response, Uri, header};
use http_body::{Body, Frame, SizeHint};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::client::conn::http1;
use parking_lot::Mutex;
use tokio::net::TcpStream;

use super::watched::{Watch, WatchedIo, connection_lost};
use super::{POOL_IDLE, POOL_SLOTS, SendError, describe, pool_slot};

/// Idle connections kept per thread and upstream; past it the oldest is closed.
const MAX_IDLE: usize = 128;

type Sender = http1::SendRequest<Full<Bytes>>;

/// One idle connection: its sender, its watch (for the keep-alive resend), where it goes, and
/// since when it has been idle.
struct Idle {
    sender: Sender,
    watch: Watch,
    authority: Authority,
    since: Instant,
}

/// The idle connections of one upstream client, a list per serving thread.
pub(super) struct Pools {
    slots: Box<[Mutex<Vec<Idle>>]>,
    connect_timeout: Duration,
}

impl Pools {
    pub(super) fn new(connect_timeout: Duration) -> Arc<Pools> {
        let slots = (0..POOL_SLOTS).map(|_| Mutex::new(Vec::new())).collect();
        Arc::new(Pools { slots, connect_timeout })
    }

    fn slot(&self) -> &Mutex<Vec<Idle>> {
        &self.slots[pool_slot()]
    }

    /// A ready idle connection to `authority`, the most recently used first; closed, stale and
    /// not-yet-ready ones are dropped or left where they are.
    fn checkout(&self, authority: &Authority) -> Option<Idle> {
        let mut list = self.slot().lock();
        let mut i = list.len();
        while i > 0 {
            i -= 1;
            let idle = &mut list[i];
            if idle.authority != *authority {
                continue;
            }
            if idle.sender.is_closed() || idle.since.elapsed() > POOL_IDLE {
                drop(list.remove(i));
                continue;
            }
            // Its last answer was read to the end; the connection's task may not have run since.
            match idle.sender.ready().now_or_never() {
                Some(Ok(())) => return Some(list.remove(i)),
                Some(Err(_)) => drop(list.remove(i)),
                None => {}
            }
        }
        None
    }

    fn checkin(&self, idle: Idle) {
        let mut list = self.slot().lock();
        // Stale and closed ones go as traffic passes (there is no reaper task): a list that
        // sees no more traffic keeps at most `MAX_IDLE` connections open until the upstream
        // closes them.
        let now = idle.since; // just set by the body that gave it back
        list.retain(|i| !i.sender.is_closed() && now.saturating_duration_since(i.since) <= POOL_IDLE);
        if list.len() >= MAX_IDLE {
            list.remove(0);
        }
        list.push(idle);
    }

    /// A new connection to `authority`, TCP up within the connect timeout.
    async fn connect(&self, authority: &Authority) -> Result<Idle, SendError> {
        let host = authority.host().trim_start_matches('[').trim_end_matches(']').to_owned();
        let port = authority.port_u16().unwrap_or(80);
        let connecting = async {
            let tcp = TcpStream::connect((host.as_str(), port)).await.map_err(|e| format!("tcp connect error: {e}"))?;
            let _ = tcp.set_nodelay(true);
            let keepalive = socket2::TcpKeepalive::new()
                .with_time(Duration::from_secs(15))
                .with_interval(Duration::from_secs(15))
                .with_retries(3);
            let _ = socket2::SockRef::from(&tcp).set_tcp_keepalive(&keepalive);
            let (io, watch) = WatchedIo::over(tcp);
            let (sender, conn) = http1::Builder::new().handshake(io).await.map_err(|e| describe(&e))?;
            tokio::spawn(async move {
                if let Err(e) = conn.await {
                    tracing::debug!(error = %e, "upstream connection ended with an error");
                }
            });
            Ok::<_, String>(Idle { sender, watch, authority: authority.clone(), since: Instant::now() })
        };
        match tokio::time::timeout(self.connect_timeout, connecting).await {
            Ok(Ok(idle)) => Ok(idle),
            Ok(Err(why)) => Err(SendError::Failed(format!("client error (Connect): {why}"))),
            Err(_) => Err(SendError::ConnectTimeout),
        }
    }

    /// Sends `req` (absolute `http://` URI) on an idle connection or a new one. A request lost
    /// on a reused connection before any byte of its answer came back is sent once more on a
    /// new connection (`watched.rs` says why that is safe).
    pub(super) async fn send(self: &Arc<Self>, req: Request<Full<Bytes>>) -> Result<Response<UpstreamBody>, SendError> {
        let authority =
            req.uri().authority().cloned().ok_or_else(|| SendError::Failed("no authority in the URI".into()))?;
        let req = origin_form(req, &authority);
        let (idle, reused) = match self.checkout(&authority) {
            Some(idle) => (idle, true),
            None => (self.connect(&authority).await?, false),
        };
        let again = reused.then(|| super::copy(&req));
        let failed = match self.exchange(idle, req).await {
            Ok(resp) => return Ok(resp),
            Err(failed) => failed,
        };
        let (watch, error, unsent) = failed;
        let resend = match (again, unsent) {
            // Never written: hyper gave it back.
            (_, Some(req)) => Some(req),
            (Some(req), None) if watch.reused_and_unanswered() && connection_lost(&error) => Some(req),
            _ => None,
        };
        let Some(req) = resend else { return Err(SendError::Failed(describe(&error))) };
        tracing::debug!(error = %describe(&error), "a reused upstream connection closed under a request; sent once more");
        let fresh = self.connect(&authority).await?;
        self.exchange(fresh, req).await.map_err(|(_, e, _)| SendError::Failed(describe(&e)))
    }

    /// One request on one connection; on failure, the connection's watch, the error, and the
    /// request when hyper did not write it.
    async fn exchange(
        self: &Arc<Self>,
        mut idle: Idle,
        req: Request<Full<Bytes>>,
    ) -> Result<Response<UpstreamBody>, (Watch, hyper::Error, Option<Request<Full<Bytes>>>)> {
        match idle.sender.try_send_request(req).await {
            Ok(resp) => {
                let (parts, inner) = resp.into_parts();
                let back = Some((self.clone(), idle));
                let mut body = UpstreamBody { inner, back };
                // An answer without a body (a 202, a 204, `Content-Length: 0`) is read already.
                body.give_back(false);
                Ok(Response::from_parts(parts, body))
            }
            Err(mut e) => {
                let unsent = e.take_message();
                Err((idle.watch, e.into_error(), unsent))
            }
        }
    }
}

/// The request as HTTP/1 writes it to an origin server: the path and query only, with `Host`.
fn origin_form(mut req: Request<Full<Bytes>>, authority: &Authority) -> Request<Full<Bytes>> {
    if !req.headers().contains_key(header::HOST)
        && let Ok(host) = HeaderValue::from_str(authority.as_str())
    {
        req.headers_mut().insert(header::HOST, host);
    }
    let path = req.uri().path_and_query().cloned().unwrap_or_else(|| PathAndQuery::from_static("/"));
    *req.uri_mut() = Uri::from(path);
    req
}

/// An upstream's answer body. From a pooled HTTP/1 connection, the connection goes back to its
/// pool once the body has been read to the end; otherwise it is hyper's body as it came.
pub struct UpstreamBody {
    inner: Incoming,
    back: Option<(Arc<Pools>, Idle)>,
}

impl UpstreamBody {
    /// Its connection back to the pool when the body has been read to its end: `ended` when
    /// the body said so by ending, else when its declared length has been read.
    fn give_back(&mut self, ended: bool) {
        if (ended || self.inner.is_end_stream())
            && let Some((pools, mut idle)) = self.back.take()
        {
            idle.since = Instant::now();
            pools.checkin(idle);
        }
    }
}

impl From<Incoming> for UpstreamBody {
    fn from(inner: Incoming) -> UpstreamBody {
        UpstreamBody { inner, back: None }
    }
}

impl Body for UpstreamBody {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        match &polled {
            Poll::Ready(None) => self.give_back(true),
            Poll::Ready(Some(Ok(_))) => self.give_back(false),
            // A body that failed leaves its connection out of the pool.
            Poll::Ready(Some(Err(_))) => self.back = None,
            Poll::Pending => {}
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for UpstreamBody {
    fn drop(&mut self) {
        // A reader that stopped at the end without asking again still read it all.
        self.give_back(false);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use http_body_util::BodyExt;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use super::*;

    /// An upstream on loopback that answers every request on a connection with the next of
    /// `answers` (cycling), counting the connections it accepted.
    async fn upstream(answers: &'static [&'static str]) -> (Uri, Arc<AtomicUsize>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let uri: Uri = format!("http://{}/mcp", listener.local_addr().unwrap()).parse().unwrap();
        let accepted = Arc::new(AtomicUsize::new(0));
        let count = accepted.clone();
        tokio::spawn(async move {
            loop {
                let (mut s, _) = listener.accept().await.unwrap();
                count.fetch_add(1, Ordering::SeqCst);
                tokio::spawn(async move {
                    let mut buf = vec![0; 8192];
                    let mut next = 0;
                    // One read per request: the tests' requests are small and not pipelined.
                    while let Ok(n) = s.read(&mut buf).await {
                        if n == 0 || s.write_all(answers[next % answers.len()].as_bytes()).await.is_err() {
                            return;
                        }
                        next += 1;
                    }
                });
            }
        });
        (uri, accepted)
    }

    fn request(uri: &Uri) -> Request<Full<Bytes>> {
        let mut r = Request::new(Full::new(Bytes::from_static(b"{}")));
        *r.method_mut() = http::Method::POST;
        *r.uri_mut() = uri.clone();
        r
    }

    const SIZED: &str = "HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello";
    const CHUNKED: &str = "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n";
    const EMPTY: &str = "HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n";

    #[tokio::test]
    async fn answers_read_to_the_end_give_their_connection_back() {
        for answers in [&[SIZED][..], &[CHUNKED][..], &[EMPTY][..], &[SIZED, CHUNKED, EMPTY][..]] {
            let (uri, accepted) = upstream(answers).await;
            let pools = Pools::new(Duration::from_secs(5));
            for _ in 0..6 {
                let resp = pools.send(request(&uri)).await.unwrap();
                let body = resp.into_body().collect().await.unwrap().to_bytes();
                assert!(body.is_empty() || &body[..] == b"hello", "{body:?}");
            }
            assert_eq!(accepted.load(Ordering::SeqCst), 1, "six requests on one connection: {answers:?}");
        }
    }

    #[tokio::test]
    async fn a_body_dropped_half_read_leaves_its_connection_out() {
        let (uri, accepted) = upstream(&["HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nhello"]).await;
        let pools = Pools::new(Duration::from_secs(5));
        let resp = pools.send(request(&uri)).await.unwrap();
        drop(resp);
        // The next request cannot go on a connection whose answer is still owed 95 bytes.
        let next = pools.send(request(&uri));
        let resp = tokio::time::timeout(Duration::from_secs(5), next).await.expect("not stuck").unwrap();
        assert_eq!(resp.status(), 200);
        assert_eq!(accepted.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn concurrent_requests_each_get_a_connection_and_all_come_back() {
        let (uri, accepted) = upstream(&[SIZED]).await;
        let pools = Pools::new(Duration::from_secs(5));
        // Heads first, bodies after: the eight are in flight together.
        let mut heads = Vec::new();
        for _ in 0..8 {
            heads.push(pools.send(request(&uri)).await.unwrap());
        }
        let mut open = 0;
        for resp in heads {
            open += 1;
            let body = resp.into_body().collect().await.unwrap().to_bytes();
            assert_eq!(&body[..], b"hello");
        }
        let first = accepted.load(Ordering::SeqCst);
        assert!(first >= 1 && first <= open);
        for _ in 0..8 {
            let resp = pools.send(request(&uri)).await.unwrap();
            resp.into_body().collect().await.unwrap();
        }
        assert_eq!(accepted.load(Ordering::SeqCst), first, "later requests reuse what came back");
        assert!(pools.slot().lock().len() <= first);
    }

    #[tokio::test]
    async fn a_closed_connection_is_not_reused_and_the_request_is_not_lost() {
        // The upstream closes after each answer (`Connection: close`).
        let (uri, accepted) =
            upstream(&["HTTP/1.1 200 OK\r\ncontent-length: 5\r\nconnection: close\r\n\r\nhello"]).await;
        let pools = Pools::new(Duration::from_secs(5));
        for _ in 0..3 {
            let resp = pools.send(request(&uri)).await.unwrap();
            assert_eq!(&resp.into_body().collect().await.unwrap().to_bytes()[..], b"hello");
        }
        assert_eq!(accepted.load(Ordering::SeqCst), 3);
    }
}
