//! Order within a session where the upstream depends on it: a GET stream the client opened is
//! open upstream before a later request of the same session is forwarded.
//!
//! Why: a client opens its GET stream and then, without waiting for it, calls a tool (the
//! TypeScript SDK client does exactly this right after `notifications/initialized`, the Python
//! one too). A server that sends a request not tied to the call (`sampling/createMessage`,
//! `elicitation/create`) puts it on the GET stream, and TypeScript SDK servers drop it when that
//! stream is not open yet; the call then hangs. A server reached directly sees the GET first in
//! practice: it is sent first, and the server's own handling of a call takes longer than of a
//! GET.
//! Through the gateway the two travel on separate connections, are handled on separate worker
//! threads and are forwarded on separate upstream connections, so either can come first.
//!
//! So the gateway keeps the order itself:
//! - a GET takes a ticket when it is handled and gives it back once the upstream has answered
//!   its head or failed (refused, 405, unreachable, the client gone);
//! - any other request of the session, when it is ready to go upstream, first lets the runtime
//!   run once (a GET whose bytes came in with it is then handled too), then waits until every
//!   GET that took a ticket by then has given it back;
//! - before the session's first GET, a request (not a notification or a response) also waits
//!   up to a grace (the upstream's `stream_first_wait_ms`, 50 ms by default) for that GET to
//!   arrive: clients open it right after initializing,
//!   concurrently with their first requests, and on a busy machine the thread handling the GET
//!   can start milliseconds after the one handling the request. A session whose GET does not
//!   come within the grace is not waited for again.
//!
//! Every wait is bounded by the upstream's `stream_open_wait_ms` (zero turns all of it off);
//! other sessions never wait on this one, and GETs never wait at all.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use http::Method;
use tokio::sync::watch;
use tokio::time::Instant;

use crate::mcp::message::Payload;

/// What a limit past the clock's range stands for.
const FOREVER: Duration = Duration::from_secs(30 * 365 * 86_400);

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
    /// A request already waited the grace for the first GET, in vain.
    grace_spent: bool,
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
    /// Any other request; `request` when the body holds a request (not only notifications or
    /// responses).
    After { order: Order, request: bool },
}

impl Turn {
    /// Takes the turn of a request (`method`, and its body read as JSON-RPC) in `session`.
    pub fn take(session: Option<&super::session::Session>, method: &Method, body: Option<&Payload>) -> Turn {
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
        let is_request = |m: &crate::mcp::message::Message| m.method().is_some() && m.request_id().is_some();
        let request = match body {
            Some(Payload::Single(m)) => is_request(m),
            Some(Payload::Batch(ms)) => ms.iter().any(is_request),
            None => false,
        };
        Turn::After { order, request }
    }

    /// Waits until this request may go upstream (see the module's doc), for at most `limit`
    /// (zero: no wait), of which at most `grace` for the session's first GET to arrive. True
    /// when it did not have to give up.
    pub async fn ready(&self, limit: Duration, grace: Duration) -> bool {
        let Turn::After { order, request } = self else {
            return true;
        };
        if limit.is_zero() {
            return true;
        }
        // A limit too large to add to the clock means no limit (decades).
        let deadline = Instant::now().checked_add(limit).unwrap_or_else(|| Instant::now() + FOREVER);
        tokio::task::yield_now().await;
        let mut rx = order.state.subscribe();
        let first_get_due = {
            let s = rx.borrow();
            *request && s.next == 0 && !s.grace_spent && !grace.is_zero()
        };
        if first_get_due {
            // The session's first GET may be on its way; its arrival ends the wait early.
            let end = Instant::now().checked_add(grace).map_or(deadline, |e| e.min(deadline));
            let arrived = tokio::time::timeout_at(end, rx.wait_for(|s| s.next > 0)).await.is_ok();
            if !arrived {
                tracing::debug!("no GET stream within the grace; this session's requests no longer wait for one");
                order.state.send_modify(|s| s.grace_spent = true);
            }
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

    /// [`ready`](Self::ready) with `upstream`'s `stream_open_wait_ms` and `stream_first_wait_ms`.
    pub async fn ready_for(&self, gw: &super::Gateway, upstream: &str) -> bool {
        use crate::config::limits;
        let (limit, grace) = gw.serve.upstream(upstream).map_or_else(
            || (limits::stream_open_wait_ms(), limits::stream_first_wait_ms()),
            |u| (u.stream_open_wait_ms, u.stream_first_wait_ms),
        );
        self.ready(Duration::from_millis(limit), Duration::from_millis(grace)).await
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        if let Turn::Opening { order, ticket } = self {
            order.state.send_modify(|s| {
                s.pending.remove(ticket);
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proxy::session::Session;
    use futures_util::FutureExt;

    const LONG: Duration = Duration::from_secs(30);
    /// The default wait for a session's first GET.
    const GRACE: Duration = Duration::from_millis(50);

    /// A turn for a body without requests (a notification, say).
    fn take(s: &Session, method: Method) -> Turn {
        Turn::take(Some(s), &method, None)
    }

    /// A turn for a `tools/call`.
    fn call(s: &Session) -> Turn {
        let body = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t"}}"#;
        Turn::take(Some(s), &Method::POST, crate::mcp::message::parse_body(body).as_ref())
    }

    /// Polls `f` a few times (past the runtime yield at its start): true while it stays pending.
    fn pending<F: std::future::Future + Unpin>(f: &mut F) -> bool {
        (0..4).all(|_| f.now_or_never().is_none())
    }

    #[tokio::test]
    async fn a_request_waits_for_the_get_before_it_and_goes_once_it_is_open() {
        let s = Session::default();
        let get = take(&s, Method::GET);
        let post = take(&s, Method::POST);
        let mut waiting = std::pin::pin!(post.ready(LONG, GRACE));
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
        let mut waiting = std::pin::pin!(post.ready(LONG, GRACE));
        drop(first);
        assert!(pending(&mut waiting), "the POST went before the second GET was open");
        drop(second);
        assert!(waiting.await);
    }

    #[tokio::test]
    async fn gets_never_wait_and_other_sessions_are_not_held_up() {
        let (a, b) = (Session::default(), Session::default());
        let _a_get = take(&a, Method::GET);
        assert!(take(&a, Method::GET).ready(LONG, GRACE).await);
        assert!(tokio::time::timeout(LONG, take(&b, Method::POST).ready(LONG, GRACE)).await.unwrap());
        assert!(Turn::take(None, &Method::POST, None).ready(LONG, GRACE).await);
        // A limit past the clock's range is no limit, not a panic.
        assert!(take(&b, Method::POST).ready(Duration::MAX, GRACE).await);
    }

    #[tokio::test(start_paused = true)]
    async fn the_wait_is_bounded_when_the_get_never_opens() {
        let s = Session::default();
        let _stuck = take(&s, Method::GET);
        let started = Instant::now();
        assert!(!take(&s, Method::DELETE).ready(Duration::from_millis(2000), GRACE).await);
        assert!(started.elapsed() >= Duration::from_millis(2000));
        // A zero limit turns the wait off.
        assert!(take(&s, Method::POST).ready(Duration::ZERO, GRACE).await);
    }

    #[tokio::test(start_paused = true)]
    async fn before_the_first_get_a_request_waits_for_it_to_arrive_and_open() {
        let s = Session::default();
        let post = call(&s);
        let mut waiting = std::pin::pin!(post.ready(LONG, GRACE));
        assert!(pending(&mut waiting), "the call went before the first GET arrived");
        let get = take(&s, Method::GET);
        assert!(pending(&mut waiting), "the call went before the first GET was open");
        drop(get);
        let started = Instant::now();
        assert!(waiting.await);
        assert!(started.elapsed() < GRACE, "the open GET did not end the wait");
    }

    #[tokio::test(start_paused = true)]
    async fn a_client_that_opens_no_get_waits_the_grace_once_and_notifications_never() {
        let s = Session::default();
        let t = Instant::now();
        assert!(take(&s, Method::POST).ready(LONG, GRACE).await);
        assert_eq!(t.elapsed(), Duration::ZERO, "a notification waited for a GET");
        assert!(call(&s).ready(LONG, GRACE).await);
        assert!(t.elapsed() >= GRACE, "the first call did not wait for a GET");
        let again = Instant::now();
        assert!(call(&s).ready(LONG, GRACE).await);
        assert_eq!(again.elapsed(), Duration::ZERO, "a call after the grace waited again");
    }

    #[tokio::test(start_paused = true)]
    async fn a_zero_grace_sends_the_first_call_without_waiting_for_a_get() {
        let s = Session::default();
        let t = Instant::now();
        assert!(call(&s).ready(LONG, Duration::ZERO).await);
        assert_eq!(t.elapsed(), Duration::ZERO, "the first call waited for a GET with no grace");
    }
}
