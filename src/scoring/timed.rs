//! Judge calls as telemetry sees them: the judge itself knows nothing of telemetry, so its
//! callers here put each call in its span and record its duration and outcome
//! (`tdqs.judge.duration`, `tdqs.judge.errors`).

use std::future::Future;

use tracing::Instrument;

use crate::judge::{Judge, JudgeError};

/// `call` (a call to `judge` about `tool`, or about the whole set when `None`) in its span,
/// its duration and outcome recorded.
pub async fn timed<T>(
    judge: &Judge,
    what: &'static str,
    tool: Option<&str>,
    call: impl Future<Output = Result<T, JudgeError>>,
) -> Result<T, JudgeError> {
    let identity = judge.identity();
    let span = crate::telemetry::traces::judge_span(&identity, what, tool);
    let started = std::time::Instant::now();
    let result = call.instrument(span.clone()).await;
    let error = result.as_ref().err().map(JudgeError::kind);
    if let Some(kind) = error {
        crate::telemetry::traces::judge_failed(&span, kind);
    }
    crate::telemetry::metrics().judge_call(&identity, started.elapsed(), error);
    result
}
