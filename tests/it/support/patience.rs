//! Waiting for conditions, never for clocks. Every wait of the harness is scaled by one
//! patience factor, `TDQS_TEST_PATIENCE` (default 1.0; e.g. 3 on a slow or crowded machine),
//! so a slow machine gets longer waits without a test changing.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The patience factor from `TDQS_TEST_PATIENCE` (a positive number; default 1.0).
pub fn patience() -> f64 {
    static FACTOR: OnceLock<f64> = OnceLock::new();
    *FACTOR.get_or_init(|| match std::env::var("TDQS_TEST_PATIENCE") {
        Ok(v) if !v.trim().is_empty() => {
            let f: f64 = v.trim().parse().unwrap_or_else(|_| panic!("TDQS_TEST_PATIENCE={v:?} is not a number"));
            assert!(f > 0.0 && f.is_finite(), "TDQS_TEST_PATIENCE={v:?} must be a positive number");
            f
        }
        _ => 1.0,
    })
}

/// `d` times the patience factor.
pub fn scaled(d: Duration) -> Duration {
    d.mul_f64(patience())
}

/// How often a condition is checked again.
const EVERY: Duration = Duration::from_millis(20);

/// Checks `cond` until it gives `Some`, for up to `timeout` (scaled); panics naming `what`
/// when it never does.
pub async fn eventually<T>(what: &str, timeout: Duration, mut cond: impl FnMut() -> Option<T>) -> T {
    match poll(timeout, &mut cond).await {
        Some(v) => v,
        None => panic!("{what}: not within {:?}", scaled(timeout)),
    }
}

/// Like [`eventually`], with a condition that is itself asynchronous (an HTTP request, ...).
/// An `async ||` closure may borrow what it uses mutably (a client with a session, ...);
/// a closure returning a future works too.
pub async fn eventually_async<T>(what: &str, timeout: Duration, cond: impl AsyncFnMut() -> Option<T>) -> T {
    match poll_async(timeout, cond).await {
        Some(v) => v,
        None => panic!("{what}: not within {:?}", scaled(timeout)),
    }
}

/// Checks `cond` until it gives `Some` or `timeout` (scaled) passes.
pub async fn poll<T>(timeout: Duration, mut cond: impl FnMut() -> Option<T>) -> Option<T> {
    poll_async(timeout, async || cond()).await
}

/// [`poll`] with an asynchronous condition (see [`eventually_async`]).
pub async fn poll_async<T>(timeout: Duration, mut cond: impl AsyncFnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + scaled(timeout);
    loop {
        if let Some(v) = cond().await {
            return Some(v);
        }
        if Instant::now() >= deadline {
            return None;
        }
        tokio::time::sleep(EVERY).await;
    }
}

/// [`poll`] for code outside an async runtime (blocks the thread between checks).
pub fn poll_blocking<T>(timeout: Duration, mut cond: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + scaled(timeout);
    loop {
        if let Some(v) = cond() {
            return Some(v);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(EVERY);
    }
}
