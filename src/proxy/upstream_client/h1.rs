//! Plain-HTTP upstreams: HTTP/1.1 spoken by the gateway itself, on the task of the request it
//! proxies. hyper's client connection is a task of its own that every request and answer
//! crosses to reach the socket (a channel and a wake-up each way, a body channel per answer);
//! here the request's task writes the request to the socket and reads the answer's head from
//! it, and the answer's body reads the socket as its consumer polls it. HTTPS upstreams, which
//! may negotiate HTTP/2, stay on hyper-util (`upstream_client.rs`).
//!
//! What is spoken (RFC 9112): a request in origin form with `Host`, its whole body with
//! `Content-Length` (none for an empty GET, HEAD or CONNECT); answers framed as section 6 says:
//! no body after HEAD or for 1xx, 204 and 304; chunked when `Transfer-Encoding` ends in it
//! (chunk extensions ignored, trailers given as a trailers frame); `Content-Length`, whose
//! repeated values must agree; otherwise until the upstream closes. Interim answers (100, 103)
//! are skipped; 101 is an error (the gateway upgrades nothing). A head is at most `MAX_HEAD`
//! bytes and `MAX_HEADERS` fields.
//!
//! A pool is a short list of idle connections per serving thread (`POOL_SLOT`): with
//! `--runtime per-core` a thread only ever takes from and returns to its own list, so the lock
//! is never contended. A connection goes back to its list only when its answer was read to the
//! end with nothing after it and neither side said `close`; a body dropped half-read closes it.
//! Idle longer than `POOL_IDLE`, or closed by the upstream while idle (seen without a system
//! call: the reactor has marked it readable), it is not reused.
//!
//! The keep-alive race: an upstream may close an idle connection at the moment a request is
//! written on it. A request on a reused connection that met the close (a failed write, an end
//! or a reset) before any byte of its answer was read never reached the upstream's application,
//! and is sent once more on a new connection, as browsers and reverse proxies do. A request
//! that got any byte of answer (an interim `102` or `103` too) is never sent again.
//!
//! The response timeout (the answer's head within `response_timeout_ms`) is a timer the
//! connection keeps: each exchange moves its deadline later, which tokio does without touching
//! its timer wheel while the deadline it registered has not passed. A timer made and dropped
//! per request (`tokio::time::timeout`) takes the driver's lock twice and a wheel slot each
//! time (`benches/PROFILE.md`, session 32).
//! Long: the pool, the request's writing, the head's reading and the body's framing are one
//! conversation with one socket; its unit tests follow it.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::{Duration, Instant};

use bytes::{Buf, Bytes, BytesMut};
use futures_util::FutureExt;
use http::uri::Authority;
use http::{HeaderMap, HeaderName, HeaderValue, Method, Request, Response, StatusCode, Version, header};
use http_body::{Body, Frame, SizeHint};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use parking_lot::Mutex;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use super::{POOL_IDLE, POOL_SLOTS, SendError, pool_slot};

/// Idle connections kept per thread and upstream; past it the oldest is closed.
const MAX_IDLE: usize = 128;
/// The most an answer's head may take, status line and fields together (hyper's own buffer
/// stops at about 400 KB).
const MAX_HEAD: usize = 256 * 1024;
/// Fields in an answer's head (hyper's default is 100).
const MAX_HEADERS: usize = 128;
/// A chunk-size line, or the trailer section, past which a chunked body is refused.
const MAX_CHUNK_LINE: usize = 4 * 1024;
const MAX_TRAILERS: usize = 64 * 1024;
/// Room made in the read buffer before each read: a read that fills less than it tells the
/// reactor the socket is drained, so the next read waits without a system call. A connection
/// whose last answer was longer makes room for that much (up to `MAX_ROOM`), so that a
/// repeated answer (a list) arrives in one read, head and body together.
const READ_ROOM: usize = 16 * 1024;
const MAX_ROOM: usize = 256 * 1024;
/// A body of declared length up to this is given as one chunk when it arrives as fast as it is
/// read: a reader that wants it whole (the list path) keeps that chunk instead of a copy.
const GATHER: u64 = 1 << 20;
/// A request body up to this size is written in one buffer with its head.
const INLINE_BODY: usize = 16 * 1024;

/// One upstream connection: the socket, what was read from it and not yet used, and how many
/// exchanges it has begun.
struct Conn {
    tcp: TcpStream,
    buf: BytesMut,
    exchanges: u32,
    /// Room to make before a read (see `READ_ROOM`).
    room: usize,
    /// The response timeout's timer, kept from one exchange to the next (made on first use),
    /// and the thread it was made on (see [`Clock`]).
    clock: Option<Clock>,
}

/// A timer kept by a connection. A timer belongs to the runtime it was made in, and polling
/// it once that runtime has shut down panics: it is used again only on the thread that made
/// it, whose runtime outlives the connections it serves (a connection taken on another thread
/// makes its own).
struct Clock {
    sleep: Pin<Box<tokio::time::Sleep>>,
    thread: usize,
}

/// The calling thread, as a number no other thread of the process has had.
fn this_thread() -> usize {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local!(static THIS: usize = NEXT.fetch_add(1, Ordering::Relaxed));
    THIS.with(|t| *t)
}

impl Conn {
    /// Reads what the socket has into the buffer; 0 at the end of the stream.
    fn poll_fill(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        self.buf.reserve(self.room);
        self.poll_read_into(cx)
    }

    /// Reads into the room the buffer has (at least a byte's).
    fn poll_read_into(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        tokio_util::io::poll_read_buf(Pin::new(&mut self.tcp), cx, &mut self.buf)
    }

    async fn fill(&mut self) -> io::Result<usize> {
        std::future::poll_fn(|cx| self.poll_fill(cx)).await
    }

    /// Whether the upstream left the idle connection alone: nothing to read, no end, no
    /// error. No system call unless the reactor saw the socket become readable.
    fn still_open(&self) -> bool {
        let mut probe = [0u8; 1];
        matches!(self.tcp.try_read(&mut probe), Err(e) if e.kind() == io::ErrorKind::WouldBlock)
    }
}

/// One idle connection, where it goes, and since when it has been idle.
struct Idle {
    conn: Conn,
    authority: Authority,
    since: Instant,
}

/// The idle connections of one upstream client, a list per serving thread.
pub(super) struct Pools {
    slots: Box<[Arc<Slot>]>,
    connect_timeout: Duration,
}

/// One serving thread's idle list, alone on its cache lines and with a count of its own (a
/// connection out holds its slot to come back to): two lists side by side (32 bytes each)
/// shared a line, and each thread's lock then took the line from the other core on every
/// request (`perf annotate` put a tenth of `send`'s samples on that `lock cmpxchg`), as did
/// the count of the one `Pools` each answer held.
#[repr(align(128))]
struct Slot(Mutex<Vec<Idle>>);

/// Why an exchange failed: `lost` when it met a closing reused connection before any byte of
/// answer (it may be sent again).
struct Failure {
    lost: bool,
    /// The deadline passed first.
    timed_out: bool,
    why: String,
}

impl Failure {
    fn new(lost: bool, why: String) -> Failure {
        Failure { lost, timed_out: false, why }
    }
}

impl From<Failure> for SendError {
    fn from(f: Failure) -> SendError {
        if f.timed_out { SendError::ResponseTimeout } else { SendError::Failed(f.why) }
    }
}

impl Pools {
    pub(super) fn new(connect_timeout: Duration) -> Arc<Pools> {
        let slots = (0..POOL_SLOTS).map(|_| Arc::new(Slot(Mutex::new(Vec::new())))).collect();
        Arc::new(Pools { slots, connect_timeout })
    }

    fn slot(&self) -> &Arc<Slot> {
        &self.slots[pool_slot()]
    }

    /// An idle connection to `authority`, the most recently used first; stale and closed
    /// ones met on the way are dropped.
    fn checkout(&self, authority: &Authority) -> Option<Conn> {
        let mut list = self.slot().0.lock();
        while let Some(i) = list.iter().rposition(|idle| idle.authority == *authority) {
            let idle = list.remove(i);
            if idle.since.elapsed() <= POOL_IDLE && idle.conn.still_open() {
                return Some(idle.conn);
            }
        }
        None
    }
}

impl Slot {
    fn checkin(&self, mut conn: Conn, authority: Authority) {
        // An empty buffer still holds the allocation a long answer was read into (up to
        // `GATHER` bytes): an idle connection keeps none of it. The next read makes its room.
        if conn.room > READ_ROOM {
            conn.buf = BytesMut::new();
        }
        let mut list = self.0.lock();
        // Stale ones go as traffic passes (there is no reaper task): a list that sees no more
        // traffic keeps at most `MAX_IDLE` connections open until the upstream closes them.
        let now = Instant::now();
        list.retain(|i| now.saturating_duration_since(i.since) <= POOL_IDLE);
        if list.len() >= MAX_IDLE {
            list.remove(0);
        }
        list.push(Idle { conn, authority, since: now });
    }
}

impl Pools {
    /// A new connection to `authority`, TCP up within the connect timeout.
    async fn connect(&self, authority: &Authority) -> Result<Conn, SendError> {
        let host = authority.host().trim_start_matches('[').trim_end_matches(']');
        let port = authority.port_u16().unwrap_or(80);
        match tokio::time::timeout(self.connect_timeout, TcpStream::connect((host, port))).await {
            Ok(Ok(tcp)) => {
                let _ = tcp.set_nodelay(true);
                let keepalive = socket2::TcpKeepalive::new()
                    .with_time(Duration::from_secs(15))
                    .with_interval(Duration::from_secs(15))
                    .with_retries(3);
                let _ = socket2::SockRef::from(&tcp).set_tcp_keepalive(&keepalive);
                Ok(Conn { tcp, buf: BytesMut::new(), exchanges: 0, room: READ_ROOM, clock: None })
            }
            Ok(Err(e)) => Err(SendError::Failed(format!("client error (Connect): tcp connect error: {e}"))),
            Err(_) => Err(SendError::ConnectTimeout),
        }
    }

    /// [`Pools::send_until`] without a deadline.
    #[cfg(test)]
    pub(super) async fn send(self: &Arc<Self>, req: Request<Full<Bytes>>) -> Result<Response<UpstreamBody>, SendError> {
        self.send_until(req, None).await
    }

    /// Sends `req` (absolute `http://` URI) on an idle connection or a new one, and reads the
    /// answer's head, by `until` (`SendError::ResponseTimeout`). A request lost on a reused
    /// connection before any byte of its answer came back is sent once more on a new
    /// connection, by the same deadline.
    pub(super) async fn send_until(
        self: &Arc<Self>,
        req: Request<Full<Bytes>>,
        until: Option<tokio::time::Instant>,
    ) -> Result<Response<UpstreamBody>, SendError> {
        let authority =
            req.uri().authority().cloned().ok_or_else(|| SendError::Failed("no authority in the URI".into()))?;
        let (parts, body) = req.into_parts();
        // A `Full` body is ready at once.
        let body = body.collect().now_or_never().and_then(Result::ok).map(|c| c.to_bytes()).unwrap_or_default();
        let (head, rest) = encode(&parts, &authority, body);
        let no_body = parts.method == Method::HEAD;
        if let Some(conn) = self.checkout(&authority) {
            match self.exchange(conn, &head, &rest, no_body, &authority, until).await {
                Ok(resp) => return Ok(resp),
                Err(f) if f.lost => {
                    tracing::debug!(error = %f.why, "a reused upstream connection closed under a request; sent once more");
                }
                Err(f) => return Err(f.into()),
            }
        }
        // A new connection (rare: the pool had none) is made within the same deadline; the
        // exchange on it keeps that deadline with the connection's own clock.
        let conn = match until {
            None => self.connect(&authority).await?,
            Some(until) => tokio::time::timeout_at(until, self.connect(&authority))
                .await
                .unwrap_or(Err(SendError::ResponseTimeout))?,
        };
        self.exchange(conn, &head, &rest, no_body, &authority, until).await.map_err(SendError::from)
    }

    /// One request on one connection, up to the answer's head.
    async fn exchange(
        self: &Arc<Self>,
        mut conn: Conn,
        head: &[u8],
        rest: &[u8],
        no_body: bool,
        authority: &Authority,
        until: Option<tokio::time::Instant>,
    ) -> Result<Response<UpstreamBody>, Failure> {
        let answer = match until {
            None => Self::until_head(&mut conn, head, rest).await?,
            Some(until) => {
                let thread = this_thread();
                let mut clock = match conn.clock.take() {
                    Some(mut c) if c.thread == thread => {
                        // Later than the deadline it holds: no work in tokio's timer wheel.
                        c.sleep.as_mut().reset(until);
                        c
                    }
                    _ => Clock { sleep: Box::pin(tokio::time::sleep_until(until)), thread },
                };
                let answer = tokio::select! {
                    biased;
                    answer = Self::until_head(&mut conn, head, rest) => answer?,
                    () = clock.sleep.as_mut() => return Err(Failure { lost: false, timed_out: true, why: String::new() }),
                };
                conn.clock = Some(clock);
                answer
            }
        };
        if answer.status == StatusCode::SWITCHING_PROTOCOLS {
            return Err(Failure::new(false, "the upstream switched protocols (101): not supported".to_owned()));
        }
        let framing = framing(&answer, no_body).map_err(|why| Failure::new(false, why))?;
        // An answer framed two ways (a transfer coding and a length) is read by its coding, and
        // its connection is not trusted with another exchange.
        let ambiguous = answer.headers.contains_key(header::TRANSFER_ENCODING)
            && answer.headers.contains_key(header::CONTENT_LENGTH);
        let keep = answer.keep_alive && !ambiguous && !matches!(framing, Framing::UntilClose);
        if let Framing::Sized(n) = framing {
            let whole = usize::try_from(n).unwrap_or(usize::MAX).saturating_add(answer.head_len + 1);
            conn.room = whole.clamp(READ_ROOM, MAX_ROOM);
        }
        let mut resp = Response::new(UpstreamBody::Wire(Box::new(Wire {
            conn: Some(conn),
            framing,
            keep,
            back: Some((self.slot().clone(), authority.clone())),
        })));
        *resp.status_mut() = answer.status;
        *resp.version_mut() = answer.version;
        *resp.headers_mut() = answer.headers;
        // An answer without a body (a 202, a 204, `Content-Length: 0`) is read already.
        if let UpstreamBody::Wire(w) = resp.body_mut() {
            w.finish_if_done();
        }
        Ok(resp)
    }
}

impl Pools {
    /// Writes the request on `conn` and reads its answer's head (interim answers skipped).
    async fn until_head(conn: &mut Conn, head: &[u8], rest: &[u8]) -> Result<Answer, Failure> {
        conn.exchanges += 1;
        let reused = conn.exchanges > 1;
        // Anything read before a request is written is not its answer.
        conn.buf.clear();
        let written = async {
            conn.tcp.write_all(head).await?;
            if !rest.is_empty() {
                conn.tcp.write_all(rest).await?;
            }
            Ok::<(), io::Error>(())
        };
        if let Err(e) = written.await {
            return Err(Failure::new(reused, format!("error sending request: {e}")));
        }
        // An interim answer read is a byte of answer: the request reached the upstream's
        // application, which may have acted on it, and is not sent again.
        let mut interim = false;
        loop {
            match read_head(conn).await {
                Ok(Some(answer))
                    if answer.status.is_informational() && answer.status != StatusCode::SWITCHING_PROTOCOLS =>
                {
                    interim = true;
                    continue;
                }
                Ok(Some(answer)) => return Ok(answer),
                Ok(None) => {
                    let lost = reused && !interim && conn.buf.is_empty();
                    return Err(Failure::new(lost, "connection closed before message completed".to_owned()));
                }
                Err(HeadError::Io(e)) => {
                    let lost = reused && !interim && conn.buf.is_empty() && closed(&e);
                    return Err(Failure::new(lost, format!("error reading the answer: {e}")));
                }
                Err(HeadError::Invalid(why)) => return Err(Failure::new(false, why)),
            }
        }
    }
}

/// Whether an I/O error says the peer closed or reset the connection.
fn closed(e: &io::Error) -> bool {
    use io::ErrorKind::*;
    matches!(e.kind(), ConnectionReset | ConnectionAborted | BrokenPipe | UnexpectedEof)
}

/// The request as written: its head (and its body, when small, in the same buffer), and the
/// body to write after the head otherwise.
fn encode(parts: &http::request::Parts, authority: &Authority, body: Bytes) -> (Vec<u8>, Bytes) {
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let fields: usize = parts.headers.iter().map(|(n, v)| n.as_str().len() + v.len() + 4).sum();
    let inline = body.len() <= INLINE_BODY;
    let mut out = Vec::with_capacity(64 + path.len() + fields + if inline { body.len() } else { 0 });
    out.extend_from_slice(parts.method.as_str().as_bytes());
    out.push(b' ');
    out.extend_from_slice(path.as_bytes());
    out.extend_from_slice(b" HTTP/1.1\r\n");
    if !parts.headers.contains_key(header::HOST) {
        field(&mut out, "host", authority.as_str().as_bytes());
    }
    for (name, value) in &parts.headers {
        // The length is the body's, written below; the body is sent whole, never chunked.
        if name == header::CONTENT_LENGTH || name == header::TRANSFER_ENCODING {
            continue;
        }
        field(&mut out, name.as_str(), value.as_bytes());
    }
    let bodiless = matches!(parts.method, Method::GET | Method::HEAD | Method::CONNECT);
    if !body.is_empty() || !bodiless {
        // Written in place: no `String` and no formatter a request for the number.
        field(&mut out, "content-length", itoa::Buffer::new().format(body.len()).as_bytes());
    }
    out.extend_from_slice(b"\r\n");
    if inline {
        out.extend_from_slice(&body);
        (out, Bytes::new())
    } else {
        (out, body)
    }
}

fn field(out: &mut Vec<u8>, name: &str, value: &[u8]) {
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b": ");
    out.extend_from_slice(value);
    out.extend_from_slice(b"\r\n");
}

/// An answer's head as read.
struct Answer {
    status: StatusCode,
    version: Version,
    headers: HeaderMap,
    /// HTTP/1.1 without `Connection: close`, or HTTP/1.0 with `Connection: keep-alive`.
    keep_alive: bool,
    /// Bytes the head took.
    head_len: usize,
}

enum HeadError {
    Io(io::Error),
    Invalid(String),
}

/// Reads one answer head from the connection; `None` when the upstream closed first.
async fn read_head(conn: &mut Conn) -> Result<Option<Answer>, HeadError> {
    loop {
        if !conn.buf.is_empty() {
            if let Some((answer, len)) = parse_head(&conn.buf)? {
                conn.buf.advance(len);
                return Ok(Some(answer));
            }
            if conn.buf.len() > MAX_HEAD {
                return Err(HeadError::Invalid(format!("the answer's head is over {MAX_HEAD} bytes")));
            }
        }
        if conn.fill().await.map_err(HeadError::Io)? == 0 {
            return match conn.buf.is_empty() {
                true => Ok(None),
                false => Err(HeadError::Invalid("connection closed before message completed".to_owned())),
            };
        }
    }
}

/// The head at the start of `buf` and its length, when it is all there.
fn parse_head(buf: &[u8]) -> Result<Option<(Answer, usize)>, HeadError> {
    let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut parsed = httparse::Response::new(&mut fields);
    let len = match parsed.parse(buf) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(e) => return Err(HeadError::Invalid(format!("invalid answer head: {e}"))),
    };
    let invalid = |what: &str| HeadError::Invalid(format!("invalid answer head: {what}"));
    let status = parsed.code.and_then(|c| StatusCode::from_u16(c).ok()).ok_or_else(|| invalid("status"))?;
    let version = if parsed.version == Some(0) { Version::HTTP_10 } else { Version::HTTP_11 };
    let mut headers = HeaderMap::with_capacity(parsed.headers.len());
    let (mut close, mut keep_alive) = (false, false);
    // The head copied once, each value a slice of that copy: a value copied on its own is an
    // allocation a field (`benches/PROFILE.md`, session 33).
    let head = Bytes::copy_from_slice(&buf[..len]);
    for f in parsed.headers.iter() {
        let name = crate::http::field_name::of(f.name).ok_or_else(|| invalid("field name"))?;
        let at = f.value.as_ptr() as usize - buf.as_ptr() as usize;
        let value =
            HeaderValue::from_maybe_shared(head.slice(at..at + f.value.len())).map_err(|_| invalid("field value"))?;
        if name == header::CONNECTION {
            for token in crate::http::connection::options(f.value) {
                close |= token.eq_ignore_ascii_case(b"close");
                keep_alive |= token.eq_ignore_ascii_case(b"keep-alive");
            }
        }
        headers.append(name, value);
    }
    let keep_alive = !close && (version == Version::HTTP_11 || keep_alive);
    Ok(Some((Answer { status, version, headers, keep_alive, head_len: len }, len)))
}

/// How an answer's body ends.
#[derive(Debug)]
enum Framing {
    /// This many bytes are left.
    Sized(u64),
    Chunked(Chunk),
    /// Until the upstream closes the connection.
    UntilClose,
    /// Read to its end.
    Done,
}

/// Where a chunked body's reading is.
#[derive(Debug)]
enum Chunk {
    /// A chunk-size line is next.
    Size,
    /// This many bytes of the current chunk are left.
    Data(u64),
    /// The CRLF after a chunk's data.
    DataEnd,
    /// The trailer section (after the last chunk), up to its empty line.
    Trailers,
}

fn framing(answer: &Answer, no_body: bool) -> Result<Framing, String> {
    let s = answer.status.as_u16();
    if no_body || answer.status.is_informational() || s == 204 || s == 304 {
        return Ok(Framing::Sized(0));
    }
    if let Some(last) = answer.headers.get_all(header::TRANSFER_ENCODING).iter().next_back() {
        // HTTP/1.0 has no transfer codings: such an answer runs to the close.
        if answer.version == Version::HTTP_10 {
            return Ok(Framing::UntilClose);
        }
        let chunked = last
            .as_bytes()
            .rsplit(|b| *b == b',')
            .next()
            .is_some_and(|coding| coding.trim_ascii().eq_ignore_ascii_case(b"chunked"));
        // Otherwise the body runs to the close (RFC 9112 6.3); a `Content-Length` beside a
        // transfer coding is ignored.
        return Ok(if chunked { Framing::Chunked(Chunk::Size) } else { Framing::UntilClose });
    }
    let mut length: Option<u64> = None;
    for value in answer.headers.get_all(header::CONTENT_LENGTH) {
        for part in value.as_bytes().split(|b| *b == b',') {
            let part = part.trim_ascii();
            let n = std::str::from_utf8(part)
                .ok()
                .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|t| t.parse::<u64>().ok())
                .ok_or_else(|| "invalid content-length in the answer".to_owned())?;
            if length.is_some_and(|l| l != n) {
                return Err("the answer's content-length values disagree".to_owned());
            }
            length = Some(n);
        }
    }
    Ok(length.map_or(Framing::UntilClose, Framing::Sized))
}

/// An answer's body read from the gateway's own HTTP/1 connection.
pub struct Wire {
    /// `None` once the body is read to its end (the connection given back or closed).
    conn: Option<Conn>,
    framing: Framing,
    /// Whether the connection may carry another exchange once this body is read.
    keep: bool,
    back: Option<(Arc<Slot>, Authority)>,
}

impl std::fmt::Debug for Wire {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Wire").field("framing", &self.framing).field("keep", &self.keep).finish()
    }
}

impl Wire {
    /// Gives the connection back (or closes it) when the body is read to its end.
    fn finish_if_done(&mut self) {
        if !matches!(self.framing, Framing::Sized(0) | Framing::Done) {
            return;
        }
        self.framing = Framing::Done;
        let Some(conn) = self.conn.take() else { return };
        // Bytes after the answer were not asked for: the connection is not in a known state.
        if self.keep
            && conn.buf.is_empty()
            && let Some((slot, authority)) = self.back.take()
        {
            slot.checkin(conn, authority);
        }
    }

    fn poll_next(&mut self, cx: &mut Context<'_>) -> Poll<Option<io::Result<Frame<Bytes>>>> {
        loop {
            let Some(conn) = self.conn.as_mut() else { return Poll::Ready(None) };
            match &mut self.framing {
                Framing::Done | Framing::Sized(0) => {
                    self.finish_if_done();
                    return Poll::Ready(None);
                }
                Framing::Sized(left) => {
                    if *left <= GATHER && (conn.buf.len() as u64) < *left {
                        // One more byte of room than the rest, so that a read of the whole rest
                        // still tells the reactor the socket is drained.
                        conn.buf.reserve(*left as usize - conn.buf.len() + 1);
                        while (conn.buf.len() as u64) < *left {
                            match conn.poll_read_into(cx) {
                                Poll::Ready(Ok(0)) => return Poll::Ready(Some(Err(cut("the body")))),
                                Poll::Ready(Ok(_)) => {}
                                Poll::Ready(Err(e)) => return Poll::Ready(Some(Err(e))),
                                // What has come so far goes on now.
                                Poll::Pending => break,
                            }
                        }
                    }
                    if !conn.buf.is_empty() {
                        let n = conn.buf.len().min(usize::try_from(*left).unwrap_or(usize::MAX));
                        let data = conn.buf.split_to(n).freeze();
                        *left -= n as u64;
                        self.finish_if_done();
                        return Poll::Ready(Some(Ok(Frame::data(data))));
                    }
                    if ready!(conn.poll_fill(cx))? == 0 {
                        return Poll::Ready(Some(Err(cut("the body"))));
                    }
                }
                Framing::UntilClose => {
                    if !conn.buf.is_empty() {
                        return Poll::Ready(Some(Ok(Frame::data(conn.buf.split().freeze()))));
                    }
                    if ready!(conn.poll_fill(cx))? == 0 {
                        self.framing = Framing::Done;
                        self.conn = None;
                        return Poll::Ready(None);
                    }
                }
                Framing::Chunked(chunk) => match step(chunk, &mut conn.buf)? {
                    Step::Data(data) => return Poll::Ready(Some(Ok(Frame::data(data)))),
                    Step::Moved => {}
                    Step::End(trailers) => {
                        self.framing = Framing::Done;
                        self.finish_if_done();
                        if let Some(t) = trailers {
                            return Poll::Ready(Some(Ok(Frame::trailers(t))));
                        }
                        return Poll::Ready(None);
                    }
                    Step::More => {
                        if ready!(conn.poll_fill(cx))? == 0 {
                            return Poll::Ready(Some(Err(cut("the chunked body"))));
                        }
                    }
                },
            }
        }
    }
}

fn cut(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, format!("the upstream closed the connection before the end of {what}"))
}

fn bad_chunk(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("invalid chunked body: {what}"))
}

/// What one step of a chunked body's reading did.
enum Step {
    Data(Bytes),
    /// A boundary was read; go on.
    Moved,
    /// The body ended, with its trailers if it had any.
    End(Option<HeaderMap>),
    /// The buffer holds too little: read more.
    More,
}

fn step(chunk: &mut Chunk, buf: &mut BytesMut) -> io::Result<Step> {
    match chunk {
        Chunk::Size => {
            let Some(eol) = buf.iter().position(|b| *b == b'\n') else {
                return if buf.len() > MAX_CHUNK_LINE { Err(bad_chunk("size line too long")) } else { Ok(Step::More) };
            };
            let line = &buf[..eol];
            let line = line.strip_suffix(b"\r").ok_or_else(|| bad_chunk("size line without CRLF"))?;
            // Extensions after `;` are ignored, as is whitespace before them.
            let digits = line.split(|b| *b == b';').next().unwrap_or_default().trim_ascii();
            if digits.is_empty() || digits.len() > 16 || !digits.iter().all(u8::is_ascii_hexdigit) {
                return Err(bad_chunk("size"));
            }
            let size =
                u64::from_str_radix(std::str::from_utf8(digits).unwrap_or("x"), 16).map_err(|_| bad_chunk("size"))?;
            buf.advance(eol + 1);
            *chunk = if size == 0 { Chunk::Trailers } else { Chunk::Data(size) };
            Ok(Step::Moved)
        }
        Chunk::Data(left) => {
            if buf.is_empty() {
                return Ok(Step::More);
            }
            let n = buf.len().min(usize::try_from(*left).unwrap_or(usize::MAX));
            let data = buf.split_to(n).freeze();
            *left -= n as u64;
            if *left == 0 {
                *chunk = Chunk::DataEnd;
            }
            Ok(Step::Data(data))
        }
        Chunk::DataEnd => {
            if buf.len() < 2 {
                return Ok(Step::More);
            }
            if &buf[..2] != b"\r\n" {
                return Err(bad_chunk("data not followed by CRLF"));
            }
            buf.advance(2);
            *chunk = Chunk::Size;
            Ok(Step::Moved)
        }
        Chunk::Trailers => {
            // The section ends at its first empty line; nothing but that line: no trailers.
            if buf.starts_with(b"\r\n") {
                buf.advance(2);
                return Ok(Step::End(None));
            }
            let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
                return if buf.len() > MAX_TRAILERS { Err(bad_chunk("trailers too long")) } else { Ok(Step::More) };
            };
            let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
            let parsed = httparse::parse_headers(&buf[..end + 4], &mut fields).map_err(|_| bad_chunk("trailers"))?;
            let httparse::Status::Complete((_, fields)) = parsed else { return Err(bad_chunk("trailers")) };
            let mut trailers = HeaderMap::with_capacity(fields.len());
            for f in fields {
                let name = HeaderName::from_bytes(f.name.as_bytes()).map_err(|_| bad_chunk("trailer name"))?;
                let value = HeaderValue::from_bytes(f.value).map_err(|_| bad_chunk("trailer value"))?;
                trailers.append(name, value);
            }
            buf.advance(end + 4);
            Ok(Step::End(Some(trailers)))
        }
    }
}

/// An upstream's answer body: read from the gateway's own HTTP/1 connection, or hyper's body
/// for an HTTPS upstream.
pub enum UpstreamBody {
    Wire(Box<Wire>),
    Hyper(Incoming),
}

impl From<Incoming> for UpstreamBody {
    fn from(inner: Incoming) -> UpstreamBody {
        UpstreamBody::Hyper(inner)
    }
}

impl Body for UpstreamBody {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        match self.get_mut() {
            UpstreamBody::Wire(w) => {
                let polled = w.poll_next(cx);
                if let Poll::Ready(Some(Err(_))) = &polled {
                    // A body that failed leaves its connection out of the pool, closed.
                    w.conn = None;
                    w.framing = Framing::Done;
                }
                polled
            }
            UpstreamBody::Hyper(inner) => Pin::new(inner).poll_frame(cx).map_err(io::Error::other),
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            UpstreamBody::Wire(w) => matches!(w.framing, Framing::Sized(0) | Framing::Done),
            UpstreamBody::Hyper(inner) => inner.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            UpstreamBody::Wire(w) => match w.framing {
                Framing::Sized(n) => SizeHint::with_exact(n),
                Framing::Done => SizeHint::with_exact(0),
                _ => SizeHint::default(),
            },
            UpstreamBody::Hyper(inner) => inner.size_hint(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use http::Uri;
    use http_body_util::BodyExt;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use super::*;

    /// An upstream on loopback that answers every request on a connection with the next of
    /// `answers` (cycling), counting the connections it accepted. Each answer is written
    /// `split` bytes at a time (0: whole). An answer "" closes the connection instead; one
    /// ending in NUL is written without it, then the connection is closed; [`STALL`] reads the
    /// request and answers nothing.
    async fn upstream_split(answers: &'static [&'static str], split: usize) -> (Uri, Arc<AtomicUsize>) {
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
                        let answer = answers[next % answers.len()].as_bytes();
                        if n == 0 || answer.is_empty() {
                            return;
                        }
                        if answer == STALL.as_bytes() {
                            next += 1;
                            continue;
                        }
                        let (answer, close) = match answer.strip_suffix(b"\0") {
                            Some(a) => (a, true),
                            None => (answer, false),
                        };
                        let pieces: Vec<&[u8]> = if split == 0 { vec![answer] } else { answer.chunks(split).collect() };
                        for p in pieces {
                            if s.write_all(p).await.is_err() {
                                return;
                            }
                            if split > 0 {
                                tokio::task::yield_now().await;
                            }
                        }
                        if close {
                            return;
                        }
                        next += 1;
                    }
                });
            }
        });
        (uri, accepted)
    }

    /// An answer [`upstream_split`] never gives: the request is read and left unanswered.
    const STALL: &str = "(stall)";

    async fn upstream(answers: &'static [&'static str]) -> (Uri, Arc<AtomicUsize>) {
        upstream_split(answers, 0).await
    }

    fn request(uri: &Uri) -> Request<Full<Bytes>> {
        let mut r = Request::new(Full::new(Bytes::from_static(b"{}")));
        *r.method_mut() = http::Method::POST;
        *r.uri_mut() = uri.clone();
        r
    }

    /// The body's data and trailers, read to the end.
    async fn read(resp: Response<UpstreamBody>) -> (Bytes, Option<HeaderMap>) {
        let collected = resp.into_body().collect().await.unwrap();
        let trailers = collected.trailers().cloned();
        (collected.to_bytes(), trailers)
    }

    const SIZED: &str = "HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello";
    const CHUNKED: &str = "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n";
    const EMPTY: &str = "HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n";
    const CHUNKED_ODD: &str = "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2;ext=1\r\nhe\r\n3 ; a=\"b\"\r\nllo\r\n0\r\nx-sum: 7\r\nx-more: 8\r\n\r\n";
    const INTERIM: &str = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello";

    #[tokio::test]
    async fn answers_read_to_the_end_give_their_connection_back() {
        for answers in [&[SIZED][..], &[CHUNKED][..], &[EMPTY][..], &[INTERIM][..], &[SIZED, CHUNKED, EMPTY][..]] {
            let (uri, accepted) = upstream(answers).await;
            let pools = Pools::new(Duration::from_secs(5));
            for _ in 0..6 {
                let (body, _) = read(pools.send(request(&uri)).await.unwrap()).await;
                assert!(body.is_empty() || &body[..] == b"hello", "{body:?}");
            }
            assert_eq!(accepted.load(Ordering::SeqCst), 1, "six requests on one connection: {answers:?}");
        }
    }

    #[tokio::test]
    async fn any_split_of_an_answer_reads_the_same() {
        for split in [1, 2, 3, 7] {
            let (uri, accepted) = upstream_split(&[CHUNKED_ODD, SIZED, INTERIM], split).await;
            let pools = Pools::new(Duration::from_secs(5));
            for round in 0..2 {
                let resp = pools.send(request(&uri)).await.unwrap();
                assert_eq!(resp.status(), 200);
                let (body, trailers) = read(resp).await;
                assert_eq!(&body[..], b"hello", "split {split}, round {round}");
                let trailers = trailers.expect("the trailers as a frame");
                assert_eq!(
                    (&trailers["x-sum"], &trailers["x-more"]),
                    (&HeaderValue::from_static("7"), &HeaderValue::from_static("8"))
                );
                for _ in 0..2 {
                    let (body, trailers) = read(pools.send(request(&uri)).await.unwrap()).await;
                    assert_eq!((&body[..], trailers), (&b"hello"[..], None), "split {split}");
                }
            }
            assert_eq!(accepted.load(Ordering::SeqCst), 1, "split {split}: one connection throughout");
        }
    }

    #[tokio::test]
    async fn a_body_until_close_is_read_whole_and_its_connection_not_reused() {
        let (uri, accepted) = upstream_split(&["HTTP/1.1 200 OK\r\n\r\nhello, until the end\0"], 4).await;
        let pools = Pools::new(Duration::from_secs(5));
        for _ in 0..2 {
            let resp = pools.send(request(&uri)).await.unwrap();
            assert_eq!(resp.body().size_hint().exact(), None);
            assert_eq!(&read(resp).await.0[..], b"hello, until the end");
        }
        assert_eq!(accepted.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn heads_that_cannot_be_framed_are_errors() {
        for answer in [
            "HTTP/1.1 200 OK\r\ncontent-length: 5\r\ncontent-length: 6\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\ncontent-length: -5\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\ncontent-length: 5, 6\r\n\r\nhello",
            "HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\n\r\n",
            "HTTP/1.1 2000 Nope\r\n\r\n",
            "NOT HTTP AT ALL\r\n\r\n",
        ] {
            let leaked: &'static str = Box::leak(answer.to_owned().into_boxed_str());
            let (uri, _) = upstream(Box::leak(Box::new([leaked]))).await;
            let pools = Pools::new(Duration::from_secs(5));
            let got = pools.send(request(&uri)).await;
            assert!(matches!(got, Err(SendError::Failed(_))), "{answer:?}: {:?}", got.map(|r| r.status()));
        }
        // Repeated equal lengths are one length.
        let (uri, _) = upstream(&["HTTP/1.1 200 OK\r\ncontent-length: 5\r\ncontent-length: 5, 5\r\n\r\nhello"]).await;
        let pools = Pools::new(Duration::from_secs(5));
        assert_eq!(&read(pools.send(request(&uri)).await.unwrap()).await.0[..], b"hello");
    }

    #[tokio::test]
    async fn bodies_cut_short_or_malformed_are_errors_and_their_connections_closed() {
        for answer in [
            "HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n",
            "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
            "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhelloXX0\r\n\r\n",
        ] {
            // The upstream closes after writing it.
            let leaked: &'static str = Box::leak(format!("{answer}\0").into_boxed_str());
            let (uri, _) = upstream(Box::leak(Box::new([leaked]))).await;
            let pools = Pools::new(Duration::from_secs(5));
            let resp = pools.send(request(&uri)).await.unwrap();
            assert!(resp.into_body().collect().await.is_err(), "{answer:?}");
            assert!(pools.slot().0.lock().is_empty(), "{answer:?}: not pooled");
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
    async fn bytes_after_an_answer_leave_its_connection_out() {
        let (uri, accepted) = upstream(&["HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhelloHTTP/1.1 200 OK\r\n"]).await;
        let pools = Pools::new(Duration::from_secs(5));
        for _ in 0..2 {
            assert_eq!(&read(pools.send(request(&uri)).await.unwrap()).await.0[..], b"hello");
        }
        assert_eq!(accepted.load(Ordering::SeqCst), 2, "a smuggled second answer is never read as the next one's");
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
        // A sized answer whose body came with its head is read already: its connection is
        // back before the body is polled, and the next request may take it.
        for resp in heads {
            assert_eq!(&read(resp).await.0[..], b"hello");
        }
        let first = accepted.load(Ordering::SeqCst);
        assert!((1..=8).contains(&first));
        for _ in 0..8 {
            read(pools.send(request(&uri)).await.unwrap()).await;
        }
        assert_eq!(accepted.load(Ordering::SeqCst), first, "later requests reuse what came back");
        assert!(pools.slot().0.lock().len() <= first);
    }

    #[tokio::test]
    async fn a_closed_connection_is_not_reused_and_the_request_is_not_lost() {
        // The upstream says `Connection: close` and closes after each answer.
        let (uri, accepted) =
            upstream(&["HTTP/1.1 200 OK\r\ncontent-length: 5\r\nconnection: close\r\n\r\nhello", ""]).await;
        let pools = Pools::new(Duration::from_secs(5));
        for _ in 0..3 {
            assert_eq!(&read(pools.send(request(&uri)).await.unwrap()).await.0[..], b"hello");
        }
        assert_eq!(accepted.load(Ordering::SeqCst), 3);
        // HTTP/1.0 without keep-alive is the same.
        let (uri, accepted) = upstream(&["HTTP/1.0 200 OK\r\ncontent-length: 5\r\n\r\nhello", ""]).await;
        for _ in 0..2 {
            assert_eq!(&read(pools.send(request(&uri)).await.unwrap()).await.0[..], b"hello");
        }
        assert_eq!(accepted.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_request_meeting_the_keep_alive_close_is_sent_once_more() {
        // Each connection answers one request, then closes on reading the next without a
        // word: the keep-alive race, every time.
        let (uri, accepted) = upstream(&[SIZED, ""]).await;
        let pools = Pools::new(Duration::from_secs(5));
        for i in 1..=4 {
            assert_eq!(&read(pools.send(request(&uri)).await.unwrap()).await.0[..], b"hello", "request {i}");
        }
        // The first on a new connection; each later one met a closing connection, then was
        // sent on a new one.
        assert_eq!(accepted.load(Ordering::SeqCst), 4);
    }

    #[tokio::test]
    async fn an_idle_connection_keeps_no_buffer_of_a_long_answer() {
        let body = "x".repeat(512 * 1024);
        let answer = format!("HTTP/1.1 200 OK\r\ncontent-length: {}\r\n\r\n{body}", body.len());
        let (uri, _) = upstream(Box::leak(Box::new([&*Box::leak(answer.into_boxed_str())]))).await;
        let pools = Pools::new(Duration::from_secs(5));
        for _ in 0..2 {
            let (got, _) = read(pools.send(request(&uri)).await.unwrap()).await;
            assert_eq!(got.len(), body.len());
            // The answer is gone; its connection waits in the pool.
            drop(got);
            let mut list = pools.slot().0.lock();
            assert_eq!(list.len(), 1);
            // What the idle buffer could take without allocating: not the answer's 512 KiB.
            assert!(!list[0].conn.buf.try_reclaim(64 * 1024), "an idle connection pins the last answer's buffer");
        }
    }

    #[tokio::test]
    async fn a_request_that_got_an_interim_answer_is_not_sent_once_more() {
        // The second request on the connection is met by `102 Processing`, then a close: it
        // reached the application, and is an error, not a resend.
        let (uri, accepted) = upstream(&[SIZED, "HTTP/1.1 102 Processing\r\n\r\n\0"]).await;
        let pools = Pools::new(Duration::from_secs(5));
        assert_eq!(&read(pools.send(request(&uri)).await.unwrap()).await.0[..], b"hello");
        assert!(matches!(pools.send(request(&uri)).await, Err(SendError::Failed(_))));
        assert_eq!(accepted.load(Ordering::SeqCst), 1, "not sent on a second connection");
    }

    #[tokio::test]
    async fn a_fresh_connection_that_closes_unanswered_is_an_error_not_a_resend() {
        let (uri, accepted) = upstream(&[""]).await;
        let pools = Pools::new(Duration::from_secs(5));
        assert!(matches!(pools.send(request(&uri)).await, Err(SendError::Failed(_))));
        assert_eq!(accepted.load(Ordering::SeqCst), 1, "sent once");
    }

    #[tokio::test]
    async fn the_request_goes_in_origin_form_with_host_and_its_length() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let mut heads = Vec::new();
            let (mut s, _) = listener.accept().await.unwrap();
            let mut buf = vec![0; 1 << 16];
            for _ in 0..3 {
                let mut got = Vec::new();
                loop {
                    let n = s.read(&mut buf).await.unwrap();
                    got.extend_from_slice(&buf[..n]);
                    let text = String::from_utf8_lossy(&got).to_string();
                    if let Some(end) = text.find("\r\n\r\n") {
                        let len = text[..end]
                            .lines()
                            .find_map(|l| l.strip_prefix("content-length: "))
                            .map_or(0, |n| n.parse::<usize>().unwrap());
                        if got.len() >= end + 4 + len {
                            break;
                        }
                    }
                }
                heads.push(String::from_utf8_lossy(&got).to_string());
                s.write_all(EMPTY.as_bytes()).await.unwrap();
            }
            heads
        });
        let pools = Pools::new(Duration::from_secs(5));
        let mut post = request(&format!("http://{addr}/mcp?a=1").parse().unwrap());
        // A stale length and a transfer coding from the client are not the body's.
        post.headers_mut().insert(header::CONTENT_LENGTH, HeaderValue::from_static("99"));
        post.headers_mut().insert(header::TRANSFER_ENCODING, HeaderValue::from_static("chunked"));
        post.headers_mut().insert("x-up", HeaderValue::from_static("1"));
        read(pools.send(post).await.unwrap()).await;
        let mut get = Request::new(Full::new(Bytes::new()));
        *get.uri_mut() = format!("http://{addr}/mcp").parse().unwrap();
        read(pools.send(get).await.unwrap()).await;
        let big = Bytes::from(vec![b'x'; INLINE_BODY * 3]);
        let mut large = Request::new(Full::new(big.clone()));
        *large.method_mut() = Method::POST;
        *large.uri_mut() = format!("http://{addr}/mcp").parse().unwrap();
        read(pools.send(large).await.unwrap()).await;
        let heads = server.await.unwrap();
        assert_eq!(
            heads[0],
            format!("POST /mcp?a=1 HTTP/1.1\r\nhost: {addr}\r\nx-up: 1\r\ncontent-length: 2\r\n\r\n{{}}")
        );
        assert_eq!(heads[1], format!("GET /mcp HTTP/1.1\r\nhost: {addr}\r\n\r\n"));
        assert!(
            heads[2].starts_with(&format!(
                "POST /mcp HTTP/1.1\r\nhost: {addr}\r\ncontent-length: {}\r\n\r\nxxx",
                big.len()
            ))
        );
        assert_eq!(heads[2].len(), heads[2].find("\r\n\r\n").unwrap() + 4 + big.len());
    }

    #[tokio::test]
    async fn an_answer_framed_two_ways_is_read_by_its_coding_and_its_connection_not_reused() {
        let (uri, accepted) = upstream(&[
            "HTTP/1.1 200 OK\r\ncontent-length: 3\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        ])
        .await;
        let pools = Pools::new(Duration::from_secs(5));
        for _ in 0..2 {
            assert_eq!(&read(pools.send(request(&uri)).await.unwrap()).await.0[..], b"hello");
        }
        assert_eq!(accepted.load(Ordering::SeqCst), 2);
        // HTTP/1.0 has no chunked coding: the body is what comes until the close.
        let (uri, _) =
            upstream(&["HTTP/1.0 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n\0"]).await;
        let (body, _) = read(pools.send(request(&uri)).await.unwrap()).await;
        assert_eq!(&body[..], b"5\r\nhello\r\n0\r\n\r\n");
    }

    #[tokio::test]
    async fn a_head_request_reads_no_body() {
        let (uri, accepted) = upstream(&["HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n"]).await;
        let pools = Pools::new(Duration::from_secs(5));
        for _ in 0..2 {
            let mut head = request(&uri);
            *head.method_mut() = Method::HEAD;
            let resp = pools.send(head).await.unwrap();
            assert_eq!(resp.headers()["content-length"], "5");
            assert!(read(resp).await.0.is_empty());
        }
        assert_eq!(accepted.load(Ordering::SeqCst), 1);
    }

    /// The response timeout on a kept connection, whose timer it keeps: a timer that fired
    /// while its connection was idle does not cut the next exchange short, and an upstream that
    /// answered and then stalls gives `ResponseTimeout` at the deadline, not before.
    #[tokio::test]
    async fn the_response_timeout_holds_on_a_kept_connection() {
        // Two requests answered, then the next read and never answered.
        const OK: &str = "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok";
        let (uri, accepted) = upstream(&[OK, OK, STALL]).await;
        let pools = Pools::new(Duration::from_secs(5));
        let first = tokio::time::Instant::now() + Duration::from_millis(100);
        assert_eq!(&read(pools.send_until(request(&uri), Some(first)).await.unwrap()).await.0[..], b"ok");
        // The first exchange's deadline passes while its connection waits in the pool.
        tokio::time::sleep_until(first + Duration::from_millis(20)).await;
        let later = tokio::time::Instant::now() + Duration::from_secs(30);
        let resp = pools.send_until(request(&uri), Some(later)).await.expect("not cut short by the fired timer");
        assert_eq!(&read(resp).await.0[..], b"ok");
        let started = tokio::time::Instant::now();
        let deadline = started + Duration::from_millis(300);
        let got = pools.send_until(request(&uri), Some(deadline)).await;
        assert!(matches!(got, Err(SendError::ResponseTimeout)), "{:?}", got.map(|r| r.status()));
        assert!(tokio::time::Instant::now() >= deadline, "not before the deadline");
        assert_eq!(accepted.load(Ordering::SeqCst), 1, "all three on the kept connection");
    }
}
