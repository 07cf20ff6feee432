//! The defaults of every bound the gateway puts on its peers, and why each is what it is.
//! Clients and upstreams are not trusted to be quick, small or finite: each read has a byte
//! cap and a time bound, and each resource a client can hold (connections, streams) a cap.

/// A client gets this long to send a request's headers from their first byte, and a new
/// connection this long to send its first request (slowloris).
pub fn header_read_timeout_ms() -> u64 {
    10_000
}
/// A client gets this long to send a request body once the headers are in (bodies are at most
/// `max_body_bytes`; a real client sends one in milliseconds).
pub fn body_read_timeout_ms() -> u64 {
    30_000
}
/// A TLS client gets this long to finish its handshake.
pub fn tls_handshake_timeout_ms() -> u64 {
    10_000
}
/// A kept-alive connection idle this long after its last response ended is closed (no clock
/// runs while a response, such as a listening GET stream, is still streaming).
pub fn keep_alive_timeout_ms() -> u64 {
    60_000
}
/// Client connections open at once; past it the gateway stops accepting until one closes
/// (the kernel's backlog holds the rest). Every listening client holds one; keep the process's
/// file descriptor limit above twice this.
pub fn max_connections() -> usize {
    4096
}
/// Concurrent HTTP/2 streams a client may open on one connection.
pub fn max_streams_per_connection() -> u32 {
    100
}
/// On SIGTERM the gateway stops accepting, lets requests in flight finish for this long, then
/// closes what is left (listening streams never finish on their own).
pub fn shutdown_grace_ms() -> u64 {
    10_000
}

/// Connecting to an upstream (TCP and TLS) may take this long.
pub fn connect_timeout_ms() -> u64 {
    10_000
}
/// An upstream must begin its answer (the response head) within this long. SDK servers
/// answering with SSE (the default of the Python and TypeScript SDKs) send the head at once;
/// one answering with a JSON body sends it when the call is done, so raise this for slow tools
/// behind such a server.
pub fn response_timeout_ms() -> u64 {
    60_000
}
/// Once an answer to a POST has begun, the upstream may fall silent this long between bytes
/// (a long tool call without progress notifications); no total bound.
pub fn read_idle_timeout_ms() -> u64 {
    300_000
}
/// A listening stream (GET, `subscriptions/listen`) may be silent this long before the
/// gateway ends it; clients open a new one.
pub fn stream_idle_timeout_ms() -> u64 {
    60 * 60 * 1000
}
/// A request waits at most this long for a GET stream its session opened before it to be open
/// upstream (see `proxy/order.rs`); then it is forwarded anyway. An upstream answers a GET's
/// head in milliseconds (SDK servers at once, or 405 when they have no GET stream), so the wait
/// is normally that short; the bound is for a GET that stalls, and 2 s keeps such a session
/// usable while leaving room for a busy upstream. Zero turns the ordering off.
pub fn stream_open_wait_ms() -> u64 {
    2_000
}
/// Within [`stream_open_wait_ms`], before a session's first GET, a request waits at most this
/// long for that GET to arrive. Clients that open one send it right after initializing (the
/// SDKs do), so it comes within a few milliseconds even on a crowded machine; a client that
/// never opens one pays this once per session, so it stays short. Zero: no such wait.
pub fn stream_first_wait_ms() -> u64 {
    50
}
/// The largest answer (a JSON body, or one SSE event) read for inspection.
pub fn max_answer_bytes() -> usize {
    32 * 1024 * 1024
}
/// The most tools one `tools/list` answer may carry; a longer list is refused under enforce
/// (and passed on unscored otherwise). Scoring is linear in the list: 10,000 tools take a few
/// seconds and tens of megabytes the first time, and nothing after.
pub fn max_list_tools() -> usize {
    10_000
}
