//! Answers the gateway could not inspect. Under enforce an answer the gateway cannot read is
//! not passed on: the requests it would have answered get a JSON-RPC error each instead, since
//! what a client would have read in it (a list with hidden tools) is unknown. Under observe and
//! annotate it passes on as it came. Either way it is counted (`tdqs.answers.uninspected`) and
//! logged.

use super::settings::{Mode, Policy};
use crate::mcp::rpc_error::RpcError;

/// Why an answer could not be inspected (the `reason` label).
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Reason {
    /// A `Content-Encoding` other than identity (gzip, br, ...).
    Encoded,
    /// A `Content-Type` charset other than UTF-8 (a client decodes it, the gateway reads UTF-8).
    Charset,
    /// Not strict UTF-8 JSON (a BOM, another encoding, `NaN`, a repeated top-level key, ...).
    Malformed,
    /// Over `max_answer_bytes`.
    TooLarge,
    /// A `tools/list` answer with more than `max_list_tools` tools.
    TooManyTools,
    /// The upstream fell silent past `read_idle_timeout_ms`.
    Timeout,
    /// The upstream's connection broke mid-answer.
    Broken,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    fn describe(self) -> &'static str {
        match self {
            Reason::Encoded => "it is compressed",
            Reason::Charset => "it declares a character set other than UTF-8",
            Reason::Malformed => "it is not valid UTF-8 JSON",
            Reason::TooLarge => "it exceeds the gateway's size limit (upstream max_answer_bytes)",
            Reason::TooManyTools => "it lists more tools than the gateway's limit (upstream max_list_tools)",
            Reason::Timeout => "the upstream stopped sending it (upstream read_idle_timeout_ms)",
            Reason::Broken => "the upstream's connection broke off",
        }
    }
}

/// Whether the policy refuses what it cannot inspect.
pub fn fails_closed(policy: &Policy) -> bool {
    policy.mode == Mode::Enforce && !policy.dry_run
}

/// Counts and logs one uninspectable answer.
pub fn note(upstream: &str, reason: Reason, refused: bool) {
    crate::telemetry::metrics().answer_uninspected(upstream, reason.as_str());
    tracing::warn!(
        name: "tdqs.answer_uninspected",
        upstream,
        reason = reason.as_str(),
        refused,
        "an upstream answer could not be inspected{}",
        if refused { "; answered with an error instead" } else { "; passed on as it came" }
    );
}

/// The error a request gets instead of an answer that could not be inspected; `id` is the
/// request's id (its JSON text).
pub fn error_for(id: &str, upstream: &str, reason: Reason) -> Vec<u8> {
    RpcError::Uninspected { upstream, reason: reason.as_str(), why: reason.describe() }.answer(id)
}
