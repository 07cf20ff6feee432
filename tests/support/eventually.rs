//! Waiting for a condition instead of a clock: a test states what it waits for and how long a
//! quiet machine needs at most; `TDQS_TEST_PATIENCE` (a factor, default 1) stretches every
//! such bound on a slow or busy one. The condition is polled; a bound that runs out fails the
//! test with what was awaited.
#![allow(dead_code)]

use std::future::Future;
use std::time::{Duration, Instant};

/// The factor from `TDQS_TEST_PATIENCE` (at least 1).
pub fn patience() -> f64 {
    std::env::var("TDQS_TEST_PATIENCE").ok().and_then(|v| v.parse::<f64>().ok()).filter(|f| *f >= 1.0).unwrap_or(1.0)
}

/// `within`, stretched by the patience factor.
pub fn patient(within: Duration) -> Duration {
    within.mul_f64(patience())
}

const POLL: Duration = Duration::from_millis(25);

/// Polls `condition` until it holds; panics with `what` after `within` (times the patience).
pub async fn eventually(what: &str, within: Duration, mut condition: impl FnMut() -> bool) {
    let deadline = Instant::now() + patient(within);
    while !condition() {
        assert!(Instant::now() < deadline, "waited {:?} for {what}", patient(within));
        tokio::time::sleep(POLL).await;
    }
}

/// [`eventually`] with a condition that is itself asynchronous (a request, a query).
pub async fn eventually_async<F, Fut>(what: &str, within: Duration, mut condition: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let deadline = Instant::now() + patient(within);
    while !condition().await {
        assert!(Instant::now() < deadline, "waited {:?} for {what}", patient(within));
        tokio::time::sleep(POLL).await;
    }
}

/// [`eventually`] for code outside a runtime (a blocking thread).
pub fn eventually_blocking(what: &str, within: Duration, mut condition: impl FnMut() -> bool) {
    let deadline = Instant::now() + patient(within);
    while !condition() {
        assert!(Instant::now() < deadline, "waited {:?} for {what}", patient(within));
        std::thread::sleep(POLL);
    }
}
