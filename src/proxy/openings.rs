//! Session-opening requests in flight, per upstream, so that an answer on a session the
//! gateway has not seen issued can wait until every issue that could name it has been read.
//!
//! Why: an upstream with guessable session ids issues `seq-2` to Alice's `initialize` and may
//! serve Bob's request sent ahead on `seq-2` before the gateway has read the header that
//! issued it. The upstream cannot serve a session before issuing it, so the issuing request
//! was already on its way when Bob's answer arrived: waiting for the openings in flight at
//! that moment (and only those) is enough to know whose session it is. Only answers on
//! sessions not seen issued wait (after a gateway restart, or a guess); everyone else pays a
//! lock per session-opening request under `[auth]`.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Longest an answer waits for openings in flight; past it the answer is withheld.
const SETTLE_LIMIT: Duration = Duration::from_secs(30);

#[derive(Default)]
struct Openings {
    /// The next ticket, and the tickets of openings whose answer has not been read yet.
    state: Mutex<(u64, BTreeSet<u64>)>,
    closed: tokio::sync::Notify,
}

/// Openings in flight, by upstream.
#[derive(Default)]
pub struct OpeningsInFlight {
    by_upstream: Mutex<HashMap<String, Arc<Openings>>>,
}

/// An opening in flight: dropped once the answer's headers were read (and its session bound).
pub struct Opening {
    of: Arc<Openings>,
    ticket: u64,
}

impl Drop for Opening {
    fn drop(&mut self) {
        self.of.state.lock().unwrap_or_else(PoisonError::into_inner).1.remove(&self.ticket);
        self.of.closed.notify_waiters();
    }
}

impl OpeningsInFlight {
    fn of(&self, upstream: &str) -> Arc<Openings> {
        let mut map = self.by_upstream.lock().unwrap_or_else(PoisonError::into_inner);
        match map.get(upstream) {
            Some(o) => o.clone(),
            None => map.entry(upstream.to_owned()).or_default().clone(),
        }
    }

    /// A request that may open a session (it carries none) is on its way to `upstream`.
    pub fn open(&self, upstream: &str) -> Opening {
        let of = self.of(upstream);
        let ticket = {
            let mut state = of.state.lock().unwrap_or_else(PoisonError::into_inner);
            let t = state.0;
            state.0 += 1;
            state.1.insert(t);
            t
        };
        Opening { of, ticket }
    }

    /// Waits until every opening to `upstream` in flight now (when this is called, not when
    /// the wait is polled) has been read; false when that took longer than [`SETTLE_LIMIT`].
    pub fn settled(&self, upstream: &str) -> impl std::future::Future<Output = bool> + use<> {
        let of = self.of(upstream);
        let before = of.state.lock().unwrap_or_else(PoisonError::into_inner).0;
        let wait = async move {
            loop {
                let closed = of.closed.notified();
                tokio::pin!(closed);
                closed.as_mut().enable();
                let open = of.state.lock().unwrap_or_else(PoisonError::into_inner).1.first().copied();
                if open.is_none_or(|t| t >= before) {
                    return;
                }
                closed.await;
            }
        };
        async move { tokio::time::timeout(SETTLE_LIMIT, wait).await.is_ok() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_answer_waits_for_the_openings_in_flight_when_it_arrived_and_no_others() {
        let inflight = Arc::new(OpeningsInFlight::default());
        assert!(inflight.settled("u").await, "nothing in flight");
        let first = inflight.open("u");
        let other = inflight.open("v");
        let waiting = tokio::spawn(inflight.settled("u"));
        // An opening begun after the answer arrived is not waited for.
        let later = inflight.open("u");
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "the opening in flight is waited for");
        drop(first);
        assert!(waiting.await.unwrap());
        drop((later, other));
    }
}
