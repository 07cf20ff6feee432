//! The one MCP exchange: what the gateway does to a client's body before any upstream sees it,
//! for every transport (Streamable HTTP, stdio sessions, `wrap`, legacy `/messages/`, and the
//! bridge through HTTP). A transport hands over the bytes it framed; the exchange reads them
//! once, strictly ([`crate::mcp::read`]), splits a batch, learns the upstream's tools when a call
//! names one without a verdict ([`learn`]), refuses what the policy forbids (each refusal
//! answering its own request's id), and says what to forward and which ids are `tools/list`
//! requests whose answers the rewrite must catch.
//!
//! Under enforce, what cannot be read is answered with a JSON-RPC error and never forwarded.
//! Under observe and annotate (and in a dry run) it passes through untouched and is counted:
//! those modes promise transparency, and nothing is hidden there anyway.

pub mod answer;
pub mod learn;

use bytes::Bytes;

use crate::catalog::{Refusal, UpstreamTools};
use crate::mcp::message::{self, IdKey, Message};
use crate::mcp::read::{self, Unreadable};
use crate::mcp::rpc_error::RpcError;
use crate::policy::settings::Mode;
use crate::scoring::service::ScoringService;
pub use learn::Lister;

/// What is left of a client's body once the gateway dealt with it.
#[derive(Debug, Default)]
pub struct Admitted {
    /// What goes to the upstream: the body as sent, or a batch without the members answered
    /// here; `None` when nothing does.
    pub forward: Option<Bytes>,
    /// Answers the gateway gives itself (refusals, unreadable members), in body order.
    pub answers: Vec<Vec<u8>>,
    /// The messages in `forward`, as read.
    pub forwarded: Vec<Message>,
    pub batch: bool,
    /// Under enforce, nothing of the body could be read (HTTP answers 400).
    pub unreadable: bool,
}

impl Admitted {
    /// Ids of the requests forwarded (their answers are awaited).
    pub fn request_ids(&self) -> Vec<IdKey> {
        self.forwarded.iter().filter_map(|m| m.request_id().cloned()).collect()
    }

    /// Ids of the requests forwarded whose answers the gateway reads (`tools/list`, and the
    /// server's self-description for its `instructions`): they get scored and rewritten.
    pub fn list_ids(&self) -> Vec<IdKey> {
        self.forwarded
            .iter()
            .filter(|m| crate::mcp::instructions::is_watched_method(m.method()))
            .filter_map(|m| m.request_id().cloned())
            .collect()
    }

    pub fn has_method(&self, method: &str) -> bool {
        self.forwarded.iter().any(|m| m.method() == Some(method))
    }

    /// The gateway's own answers as one body: the answer itself for a single message, an
    /// array for a batch; `None` when there is none (dropped notifications).
    pub fn answer_body(&self) -> Option<Vec<u8>> {
        match (self.batch, self.answers.as_slice()) {
            (_, []) => None,
            (false, [one]) => Some(one.clone()),
            (_, all) => Some(crate::proxy::body::join_array(all)),
        }
    }
}

/// What the upstream's policy asks of the exchange.
fn enforcing(tools: &UpstreamTools) -> bool {
    tools.policy.mode == Mode::Enforce && !tools.policy.dry_run
}

/// Deals with one client body. `encoding` is its `Content-Encoding`, if any; `lister` lists
/// the upstream in the caller's context when a call needs a verdict (`None`: no way to, and an
/// unknown tool is then refused under enforce).
pub async fn admit(
    tools: &UpstreamTools,
    scoring: &std::sync::Arc<ScoringService>,
    body: &Bytes,
    encoding: Option<&str>,
    lister: Option<&dyn Lister>,
) -> Admitted {
    admit_as(tools, scoring, body, encoding, lister, None).await
}

/// [`admit`] for an authenticated caller (with `[auth]` on), whom refusals name in the audit
/// trail; `tools` is the view of the upstream the caller's identity rule chose.
pub async fn admit_as(
    tools: &UpstreamTools,
    scoring: &std::sync::Arc<ScoringService>,
    body: &Bytes,
    encoding: Option<&str>,
    lister: Option<&dyn Lister>,
    caller: Option<&crate::auth::Principal>,
) -> Admitted {
    admit_read(tools, scoring, body, read::read_sent(body, encoding), lister, caller).await
}

/// [`admit_as`] for a body its transport already read ([`read::read_sent`]), so that a request
/// is read once from its edge to its exchange.
pub async fn admit_read(
    tools: &UpstreamTools,
    scoring: &std::sync::Arc<ScoringService>,
    body: &Bytes,
    reading: Result<read::BodyReading<'_>, Unreadable>,
    lister: Option<&dyn Lister>,
    caller: Option<&crate::auth::Principal>,
) -> Admitted {
    let enforce = enforcing(tools);
    let reading = match reading {
        Ok(r) => r,
        Err(e) => {
            unreadable(tools, &e, enforce);
            if !enforce {
                return passed_through(body);
            }
            let answer = RpcError::Unreadable(&e).answer("null");
            return Admitted { answers: vec![answer], unreadable: true, ..Admitted::default() };
        }
    };
    let mut out = Admitted { batch: reading.batch, ..Admitted::default() };
    let items = reading.items.len();
    let mut kept: Vec<&[u8]> = Vec::with_capacity(items);
    for item in reading.items {
        let r = match item.read {
            Ok(r) => r,
            Err(e) => {
                unreadable(tools, &e, enforce);
                if enforce {
                    out.answers.push(RpcError::Unreadable(&e).answer("null"));
                    out.unreadable |= !reading.batch;
                } else {
                    kept.push(item.raw);
                    out.forwarded.push(message::classify(item.raw));
                }
                continue;
            }
        };
        if enforce && r.message.method() == Some("tools/list") && r.message.request_id().is_none() {
            // Its answer (a lenient upstream may give one) would carry no id to recognise it by.
            if r.id_text.is_some() {
                out.answers.push(RpcError::Invalid("a tools/list request needs an id").answer("null"));
            }
            continue;
        }
        if r.is_call()
            && let Some(tool) = &r.message.tool_name
            && let Some(refusal) = decide_call(tools, scoring, tool, item.raw, lister, caller).await
        {
            // A call without an id has nobody to answer: dropped. `null` is answered as `null`.
            if let Some(id) = &r.id_text {
                out.answers.push(refusal_answer(id, &refusal));
            }
            continue;
        }
        kept.push(item.raw);
        out.forwarded.push(r.message);
    }
    out.forward = match (kept.len(), items) {
        (0, _) => None,
        (k, n) if k == n => Some(body.clone()),
        _ => Some(Bytes::from(join(&kept))),
    };
    out
}

/// A body under observe or annotate that the strict reading refused: forwarded as it is, with
/// whatever a lenient reading finds in it kept for the bookkeeping.
fn passed_through(body: &Bytes) -> Admitted {
    let parsed = message::parse_body(body);
    Admitted {
        forward: Some(body.clone()),
        batch: matches!(parsed, Some(message::Payload::Batch(_))),
        forwarded: parsed.map(|p| p.messages().to_vec()).unwrap_or_default(),
        ..Admitted::default()
    }
}

/// Whether a call to `tool` (the message `raw`) is refused: after learning the upstream's tools,
/// in the caller's protocol revision, when the policy has no verdict on it yet. A refusal is
/// recorded here, the edge that answers it.
async fn decide_call(
    tools: &UpstreamTools,
    scoring: &std::sync::Arc<ScoringService>,
    tool: &str,
    raw: &[u8],
    lister: Option<&dyn Lister>,
    caller: Option<&crate::auth::Principal>,
) -> Option<Refusal> {
    let mut unlearned = None;
    if tools.needs_verdict(tool) {
        let envelope = crate::mcp::envelope::of_request(raw);
        let learned = match lister {
            Some(l) => {
                tools.await_verdict(tool, learn::WAIT, || learn::learn(tools, scoring, l, envelope.as_ref())).await
            }
            None => Err("no session to list the server in".to_owned()),
        };
        if let Err(why) = learned {
            tracing::info!(upstream = %tools.name, tool, error = %why, "could not list the server to decide on a call");
            unlearned = Some(tools.refuse_unlearned(tool, &why, caller));
        }
    }
    let refusal = unlearned.or_else(|| tools.refuse_call_by(tool, caller))?;
    crate::record::call_refused(&refusal);
    Some(refusal)
}

/// The JSON-RPC error answering a refused call, with the request's id as it was sent.
pub fn refusal_answer(id_text: &str, r: &Refusal) -> Vec<u8> {
    RpcError::Refused { message: &r.message, data: &r.data }.answer(id_text)
}

fn unreadable(tools: &UpstreamTools, e: &Unreadable, enforce: bool) {
    let action = if enforce { "refused" } else { "passed" };
    tracing::info!(name: "tdqs.message_unreadable", upstream = %tools.name, error = %e, action, "a client message the gateway cannot read");
    crate::telemetry::metrics().message_unreadable(&tools.name, action);
}

/// Batch members as one array, each as the client sent it.
fn join(members: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::with_capacity(members.iter().map(|m| m.len() + 1).sum::<usize>() + 2);
    out.push(b'[');
    for (i, m) in members.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(m);
    }
    out.push(b']');
    out
}

#[cfg(test)]
mod tests;
