//! A token bucket for requests the gateway makes to the authorization server on behalf of
//! callers it does not know yet: at most `rate` a second on average and `rate` at once, so a
//! client inventing tokens cannot turn each one into a request to the issuer.

use std::time::Instant;

use parking_lot::Mutex;

pub struct Budget {
    rate: f64,
    /// Tokens left, and when they were counted.
    left: Mutex<(f64, Instant)>,
}

impl Budget {
    pub fn per_second(rate: u32) -> Budget {
        let rate = f64::from(rate.max(1));
        Budget { rate, left: Mutex::new((rate, Instant::now())) }
    }

    /// Takes one request's worth; `false` when the budget is spent for now.
    pub fn take(&self) -> bool {
        let mut left = self.left.lock();
        let now = Instant::now();
        let refilled = (left.0 + now.duration_since(left.1).as_secs_f64() * self.rate).min(self.rate);
        let ok = refilled >= 1.0;
        *left = (if ok { refilled - 1.0 } else { refilled }, now);
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_cut_at_the_rate() {
        let b = Budget::per_second(5);
        let taken = (0..100).filter(|_| b.take()).count();
        // Five at once, and what refills while the loop runs (far less than one more).
        assert!((5..=6).contains(&taken), "{taken}");
    }
}
