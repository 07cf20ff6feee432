//! The listener's own HTTP/1.1 server, for the requests an MCP client sends most: a request
//! whose head and body are whole in the connection's buffer is read, routed and answered on the
//! connection's task, with no dispatcher, body channel or second buffer between the socket and
//! the route (hyper's server side was a fifth of a proxied call's instructions,
//! `benches/PROFILE.md`). The first request it does not take (`head.rs` says which) hands the
//! connection, with every byte read so far, to hyper, which serves the rest of it: HTTP/2,
//! chunked or long bodies, `Expect`, HEAD, HTTP/1.0 and every malformed request keep hyper's
//! reading and answers.
//!
//! The connection's clocks are the listener's (`activity.rs`): the header-read limit from a
//! request's first byte, the keep-alive limit while idle, none while a request is in flight.
//! While a route runs, or its answer streams, the socket is still read: a client that goes away
//! cancels its request (as hyper does), and what it sends meanwhile (a pipelined request) waits
//! in the buffer. On shutdown an idle connection closes at once, a busy one after its answer.

mod answer;
mod head;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use http::header;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::watch;

use super::App;
use super::activity::{Activity, Limits};
use super::routes::{Role, answer as route};
use crate::http::request_body::RequestBody;
use head::Head;

/// Room made in the buffer before a read: a read that fills less than it leaves the reactor
/// knowing the socket is drained, so the next wait makes no system call. hyper's first read
/// buffer is as large: an idle connection holds no more than it did under hyper.
const READ_ROOM: usize = 8 * 1024;
/// The longest request copied out of the connection's buffer rather than cut from it (see
/// `Inbox::take`).
const COPY_UP_TO: usize = 16 * 1024;
/// What is read ahead (pipelined) while a request is served; past it the socket waits.
const READ_AHEAD: usize = head::MAX_HEAD + head::MAX_BODY;
/// How long a body that did not come with its head is waited for before hyper takes the
/// connection (and with it the listener's body deadline and its answer).
const BODY_GRACE: Duration = Duration::from_millis(50);

/// How a connection left this server.
pub(super) enum Outcome<S> {
    /// It is over (closed by either side, timed out, or shut down).
    Closed,
    /// A request this server does not take: hyper serves the connection from these bytes on;
    /// `served` when this server answered a request on it first (the connection is HTTP/1.1).
    HandOff { io: S, read: Bytes, served: bool },
}

/// One connection's settings and state, as the listener gives them.
pub(super) struct Conn {
    pub app: Arc<App>,
    pub role: Role,
    pub limits: Limits,
    pub activity: Arc<Activity>,
    pub stopped: watch::Receiver<bool>,
    pub peer: SocketAddr,
}

/// Serves `io` until it closes or a request for hyper comes.
pub(super) async fn serve<S>(mut io: S, mut c: Conn) -> Outcome<S>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut inbox = Inbox { buf: BytesMut::with_capacity(READ_ROOM), ahead: head::MAX_HEAD };
    // The connection's one timer, woken only at its deadline or a header-read limit apart.
    let sleep = tokio::time::sleep(c.limits.header_read);
    tokio::pin!(sleep);
    let mut closing = false;
    let mut fields = head::Fields::new();
    let mut served = false;
    loop {
        // A whole request, under the connection's clocks.
        let taken = loop {
            match head::read(&inbox.buf, &mut fields) {
                Head::Taken(taken) => break taken,
                Head::Declined(why) => {
                    tracing::trace!(peer = %c.peer, why, "request handed to hyper");
                    return Outcome::HandOff { io, read: inbox.buf.freeze(), served };
                }
                Head::BodyPending { needed } => {
                    if wait_for_body(&mut io, &mut inbox, needed).await {
                        continue;
                    }
                    // The body lags its head: hyper reads it, under the listener's body deadline.
                    return Outcome::HandOff { io, read: inbox.buf.freeze(), served };
                }
                Head::Partial => {}
            }
            let idle = inbox.buf.is_empty();
            let read = tokio::select! {
                biased;
                r = inbox.read(&mut io) => r,
                () = &mut sleep => {
                    if c.activity.deadline(c.limits).is_some_and(|d| d <= Instant::now()) {
                        tracing::debug!(peer = %c.peer, "connection closed: idle, or a request's headers came too late");
                        return Outcome::Closed;
                    }
                    sleep.as_mut().reset(c.activity.next_look(c.limits, Instant::now()).into());
                    continue;
                }
                Ok(()) = c.stopped.changed(), if !closing => {
                    if idle {
                        return Outcome::Closed;
                    }
                    closing = true;
                    continue;
                }
            };
            if !matches!(read, Ok(n) if n > 0) {
                return Outcome::Closed;
            }
            c.activity.bytes_read();
        };
        let close = taken.close;
        served = true;
        let bytes = inbox.take(taken.head_len + taken.body_len);
        let req = taken.request(bytes, &mut fields);
        let in_flight = c.activity.begin();
        let read = RequestBody::of(&req);
        let handling = route(&c.app, c.role, req, &read);
        tokio::pin!(handling);
        inbox.ahead = READ_AHEAD;
        let resp = tokio::select! {
            biased;
            resp = &mut handling => resp,
            // The client went away: the request is cancelled with the connection.
            () = inbox.gone(&mut io) => return Outcome::Closed,
        };
        let resp = read.close_if_unread(resp);
        closing |= *c.stopped.borrow();
        let keep = !close && !closing && !says_close(resp.headers());
        let written = answer::write(&mut Watching { io: &mut io, inbox: &mut inbox }, resp, keep).await;
        drop(in_flight);
        inbox.ahead = head::MAX_HEAD;
        if let Err(e) = written {
            tracing::debug!(peer = %c.peer, error = %e, "answer cut");
            return Outcome::Closed;
        }
        if !keep {
            let _ = io.shutdown().await;
            return Outcome::Closed;
        }
        if !inbox.buf.is_empty() {
            // A request read ahead: its header clock runs from now.
            c.activity.bytes_read();
        }
    }
}

/// Reads until `needed` bytes are in, for at most `BODY_GRACE`; whether they are.
async fn wait_for_body<S: AsyncRead + Unpin>(io: &mut S, inbox: &mut Inbox, needed: usize) -> bool {
    let until = tokio::time::Instant::now() + BODY_GRACE;
    while inbox.buf.len() < needed {
        match tokio::time::timeout_at(until, inbox.read(io)).await {
            Ok(Ok(n)) if n > 0 => {}
            // An end or an error now is hyper's to see (it answers a cut body its own way).
            _ => return false,
        }
    }
    true
}

fn says_close(headers: &http::HeaderMap) -> bool {
    let close = |option: &[u8]| option.eq_ignore_ascii_case(b"close");
    headers.get_all(header::CONNECTION).iter().any(|v| crate::http::connection::options(v.as_bytes()).any(close))
}

/// What the connection has read and not yet used.
struct Inbox {
    buf: BytesMut,
    /// The most the buffer may hold before reading stops.
    ahead: usize,
}

impl Inbox {
    /// The first `n` bytes, cut from the buffer. A request of a few kilobytes is copied out, so
    /// that the buffer stays the connection's alone: cut off by reference, it would be shared
    /// with the request while the socket is read on (`gone`), and that read would allocate a
    /// new buffer for every request (`benches/PROFILE.md`, session 27).
    fn take(&mut self, n: usize) -> Bytes {
        if n <= COPY_UP_TO {
            let bytes = Bytes::copy_from_slice(&self.buf[..n]);
            bytes::Buf::advance(&mut self.buf, n);
            bytes
        } else {
            self.buf.split_to(n).freeze()
        }
    }

    /// Reads what the socket has; 0 at its end.
    async fn read<S: AsyncRead + Unpin>(&mut self, io: &mut S) -> std::io::Result<usize> {
        self.buf.reserve(READ_ROOM);
        std::future::poll_fn(|cx| tokio_util::io::poll_read_buf(std::pin::Pin::new(&mut *io), cx, &mut self.buf)).await
    }

    /// Resolves when the client has closed or the socket failed, reading ahead meanwhile; once
    /// `ahead` bytes wait unread it stops reading (and never resolves).
    async fn gone<S: AsyncRead + Unpin>(&mut self, io: &mut S) {
        while self.buf.len() < self.ahead {
            match self.read(io).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
        std::future::pending::<()>().await;
    }
}

/// The connection while an answer is written: the socket is read for the client's end.
struct Watching<'a, S> {
    io: &'a mut S,
    inbox: &'a mut Inbox,
}

impl<S: AsyncRead + AsyncWrite + Unpin> answer::Link for Watching<'_, S> {
    type Io = S;
    fn io(&mut self) -> &mut S {
        self.io
    }
    async fn gone(&mut self) {
        self.inbox.gone(self.io).await;
    }
}
