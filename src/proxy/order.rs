//! Order within a session where the upstream depends on it: a GET stream the client opened is
//! open upstream before a later request of the same session is forwarded.
//!
//! Why: a client opens its GET stream and then, without waiting for it, calls a tool (the
//! TypeScript SDK client does exactly this right after `notifications/initialized`, the Python
//! one too). A server that sends a request not tied to the call (`sampling/createMessage`,
//! `elicitation/create`) puts it on the GET stream, and TypeScript SDK servers drop it when that
//! stream is not open yet; the call then hangs. A server reached directly sees the GET first
//! because it is sent first and a server's own handling of a call is slower than of a GET.
//! Through the gateway the two travel on separate connections, are handled on separate worker
//! threads and are forwarded on separate upstream connections, so either can come first.
//!
//! So the gateway keeps the order itself:
//! - a GET takes a ticket when it is handled and gives it back once the upstream has answered
//!   its head or failed (refused, 405, unreachable, the client gone);
//! - any other request of the session, when it is ready to go upstream, first lets the runtime
//!   run once (a GET whose bytes came in with it is then handled too), then waits until every
//!   GET that took a ticket by then has given it back;
//! - right after `notifications/initialized` was answered, before the session's first GET,
//!   such a request also waits up to [`GRACE`] for that GET to arrive: clients open it at that
//!   moment, concurrently with their first call, and on a busy machine the thread handling the
//!   GET can start a millisecond or more after the one handling the call.
//!
//! Every wait is bounded by the upstream's `stream_open_wait_ms` (zero turns all of it off);
//! other sessions never wait on this one, and GETs never wait at all.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use http::Method;
use tokio::sync::watch;
use tokio::time::Instant;

use crate::mcp::message::Body as RpcBody;

/// How long after `notifications/initialized` was answered a request waits for the session's
/// first GET to arrive. A client that opens one sends it at that moment (the SDKs do), so it
/// arrives within a few milliseconds even on a crowded machine; a client that never opens one
/// pays this once per session, on a request sent this soon after initializing.
pub const GRACE: Duration = Duration::from_millis(25);

/// One session's GETs whose upstream answer has not begun yet, by ticket.
#[derive(Clone)]
pub struct Order {
    state: Arc<watch::Sender<Opening>>,
}

#[derive(Default)]
struct Opening {
    /// The ticket the next GET gets (so also the number of GETs seen).
    next: u64,
    /// Tickets of GETs not yet answered upstream.
    pending: BTreeSet<u64>,
    /// When the upstream answered the session's `notifications/initialized`.
    initialized: Option<Instant>,
}

impl Default for Order {
    fn default() -> Self {
        Order { state: Arc::new(watch::Sender::new(Opening::default())) }
    }
}

/// A request's place in its session's order, taken when the request arrives and dropped once
/// the upstream has answered its head.
pub enum Turn {
    /// No session: nothing to keep in order.
    Free,
    /// A GET stream being opened: its ticket goes back when this is dropped.
    Opening { order: Order, ticket: u64 },
    /// Any other request; `initialized` when it carries `notifications/initialized`.
    After { order: Order, initialized: bool },
}

impl Turn {
    /// Takes the turn of a request (`method`, and its body read as JSON-RPC) in `session`.
    pub fn take(session: Option<&super::session::Session>, method: &Method, body: Option<&RpcBody>) -> Turn {
        let Some(order) = session.map(|s| s.order.clone()) else {
            return Turn::Free;
        };
        if method == Method::GET {
            let mut ticket = 0;
            order.state.send_modify(|s| {
                ticket = s.next;
                s.next += 1;
                s.pending.insert(ticket);
            });
            return Turn::Opening { order, ticket };
        }
        let is_initialized = |m: &crate::mcp::message::Message| m.method() == Some("notifications/initialized");
        let initialized = match body {
            Some(RpcBody::Single(m)) => is_initialized(m),
            Some(RpcBody::Batch(ms)) => ms.iter().any(is_initialized),
            None => false,
        };
        Turn::After { order, initialized }
    }

    /// Waits until this request may go upstream (see the module's doc), for at most `limit`
    /// (zero: no wait). True when it did not have to give up.
    pub async fn ready(&self, limit: Duration) -> bool {
        let Turn::After { order, .. } = self else {
            return true;
        };
        if limit.is_zero() {
            return true;
        }
        let deadline = Instant::now() + limit;
        tokio::task::yield_now().await;
        let mut rx = order.state.subscribe();
        let (seen, initialized) = {
            let s = rx.borrow();
            (s.next, s.initialized)
        };
        if seen == 0
            && let Some(end) = initialized.map(|t| t + GRACE)
            && Instant::now() < end
        {
            // The session's first GET may be on its way; an upstream answer ends the wait early.
            let _ = tokio::time::timeout_at(end.min(deadline), rx.wait_for(|s| s.next > 0)).await;
        }
        let before = rx.borrow().next;
        let earlier_open = |s: &Opening| s.pending.first().is_none_or(|t| *t >= before);
        match tokio::time::timeout_at(deadline, rx.wait_for(earlier_open)).await {
            Ok(_) => true,
            Err(_) => {
                tracing::warn!(
                    limit_ms = limit.as_millis() as u64,
                    "a GET stream of this session was still opening upstream; forwarding the request anyway"
                );
                false
            }
        }
    }

    /// [`ready`](Self::ready) with `upstream`'s `stream_open_wait_ms`.
    pub async fn ready_for(&self, gw: &super::Gateway, upstream: &str) -> bool {
        let ms = gw
            .config
            .upstream(upstream)
            .map_or_else(crate::config::limits::stream_open_wait_ms, |u| u.stream_open_wait_ms);
        self.ready(Duration::from_millis(ms)).await
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        match self {
            Turn::Opening { order, ticket } => order.state.send_modify(|s| {
                s.pending.remove(ticket);
            }),
            Turn::After { order, initialized: true } => order.state.send_modify(|s| {
                s.initialized.get_or_insert_with(Instant::now);
            }),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proxy::session::Session;
    use futures_util::FutureExt;

    const LONG: Duration = Duration::from_secs(30);

    fn take(s: &Session, method: Method) -> Turn {
        Turn::take(Some(s), &method, None)
    }

    /// Polls `f` a few times (past the runtime yield at its start): true while it stays pending.
    fn pending<F: std::future::Future + Unpin>(f: &mut F) -> bool {
        (0..4).all(|_| f.now_or_never().is_none())
    }

    fn initialized(s: &Session) {
        let body = crate::mcp::message::parse_body(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        drop(Turn::take(Some(s), &Method::POST, body.as_ref()));
    }

    #[tokio::test]
    async fn a_request_waits_for_the_get_before_it_and_goes_once_it_is_open() {
        let s = Session::default();
        let get = take(&s, Method::GET);
        let post = take(&s, Method::POST);
        let mut waiting = std::pin::pin!(post.ready(LONG));
        assert!(pending(&mut waiting), "the POST went before the GET was open");
        drop(get);
        assert!(waiting.await, "the POST gave up although the GET opened");
    }

    #[tokio::test]
    async fn a_request_waits_for_every_earlier_get_not_only_the_first() {
        let s = Session::default();
        let first = take(&s, Method::GET);
        let second = take(&s, Method::GET);
        let post = take(&s, Method::POST);
        let mut waiting = std::pin::pin!(post.ready(LONG));
        drop(first);
        assert!(pending(&mut waiting), "the POST went before the second GET was open");
        drop(second);
        assert!(waiting.await);
    }

    #[tokio::test]
    async fn gets_never_wait_and_other_sessions_are_not_held_up() {
        let (a, b) = (Session::default(), Session::default());
        let _a_get = take(&a, Method::GET);
        assert!(take(&a, Method::GET).ready(LONG).await);
        assert!(tokio::time::timeout(LONG, take(&b, Method::POST).ready(LONG)).await.unwrap());
        assert!(Turn::take(None, &Method::POST, None).ready(LONG).await);
    }

    #[tokio::test(start_paused = true)]
    async fn the_wait_is_bounded_when_the_get_never_opens() {
        let s = Session::default();
        let _stuck = take(&s, Method::GET);
        let started = Instant::now();
        assert!(!take(&s, Method::DELETE).ready(Duration::from_millis(2000)).await);
        assert!(started.elapsed() >= Duration::from_millis(2000));
        // A zero limit turns the wait off.
        assert!(take(&s, Method::POST).ready(Duration::ZERO).await);
    }

    #[tokio::test(start_paused = true)]
    async fn right_after_initialized_a_request_waits_for_the_first_get_to_arrive_and_open() {
        let s = Session::default();
        initialized(&s);
        let post = take(&s, Method::POST);
        let mut waiting = std::pin::pin!(post.ready(LONG));
        assert!(pending(&mut waiting), "the call went before the first GET arrived");
        let get = take(&s, Method::GET);
        assert!(pending(&mut waiting), "the call went before the first GET was open");
        drop(get);
        let started = Instant::now();
        assert!(waiting.await);
        assert!(started.elapsed() < GRACE, "the open GET did not end the wait");
    }

    #[tokio::test(start_paused = true)]
    async fn a_client_that_opens_no_get_waits_the_grace_once_and_then_never() {
        let s = Session::default();
        initialized(&s);
        let started = Instant::now();
        assert!(take(&s, Method::POST).ready(LONG).await);
        assert!(started.elapsed() >= GRACE);
        let again = Instant::now();
        assert!(take(&s, Method::POST).ready(LONG).await);
        assert!(again.elapsed() < GRACE, "a request after the grace waited again");
        // No grace at all for a session whose initialized the gateway did not see.
        let other = Session::default();
        let t = Instant::now();
        assert!(take(&other, Method::POST).ready(LONG).await);
        assert_eq!(t.elapsed(), Duration::ZERO);
    }
}
