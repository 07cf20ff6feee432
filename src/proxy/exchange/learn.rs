//! Learning an upstream's tools when a call names one the policy has no verdict on: every page
//! of `tools/list`, asked with random ids (an upstream cannot tell the gateway's listing from a
//! client's), each answer scored as a client's would be, retried once, bounded in pages and
//! time. Each transport only says how to send one list request and get its answer back
//! ([`Lister`]); one learn runs at a time per upstream (see `UpstreamTools::await_verdict`).

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use serde_json::{Map, Value};

use crate::catalog::UpstreamTools;
use crate::mcp::message::{LIST_PAGES, id_key, list_request, own_list_id};
use crate::scoring::service::ScoringService;

/// Listings tried before a call is refused.
pub const ATTEMPTS: usize = 2;
/// Longest wait for one page's answer.
pub const PAGE_WAIT: Duration = Duration::from_secs(10);
/// Longest a call waits for a verdict (its own listing, or one already running).
pub const WAIT: Duration = Duration::from_secs(30);

/// How a transport sends one `tools/list` request of the gateway's own.
pub trait Lister: Send + Sync {
    /// Sends `request` (a whole `tools/list` message whose id is `id`) and returns the bytes of
    /// the message answering it.
    fn list_page<'a>(&'a self, id: &'a str, request: Vec<u8>) -> BoxFuture<'a, Result<Vec<u8>, String>>;
}

/// Lists every page of the upstream's tools and scores them; `Err` says why it failed. With the
/// caller's 2026-07-28 `envelope` (see [`crate::mcp::envelope`]) every list request carries it.
pub async fn learn(
    tools: &UpstreamTools,
    scoring: &Arc<ScoringService>,
    lister: &dyn Lister,
    envelope: Option<&Map<String, Value>>,
) -> Result<(), String> {
    let mut why = String::new();
    for attempt in 0..ATTEMPTS {
        match list_all(tools, scoring, lister, envelope).await {
            Ok(()) => return Ok(()),
            Err(e) => {
                tracing::debug!(upstream = %tools.name, attempt, error = %e, "listing the server failed");
                why = e;
            }
        }
    }
    Err(why)
}

async fn list_all(
    tools: &UpstreamTools,
    scoring: &Arc<ScoringService>,
    lister: &dyn Lister,
    envelope: Option<&Map<String, Value>>,
) -> Result<(), String> {
    let mut cursor: Option<String> = None;
    for _ in 0..LIST_PAGES {
        let id = own_list_id();
        let mut request = list_request(id.clone(), cursor.as_deref());
        if let Some(e) = envelope {
            crate::mcp::envelope::stamp(&mut request, e);
        }
        let request = request.to_string().into_bytes();
        let answer = tokio::time::timeout(PAGE_WAIT, lister.list_page(&id, request))
            .await
            .map_err(|_| format!("no answer to tools/list within {} ms", PAGE_WAIT.as_millis()))??;
        cursor = check_page(&answer, &id)?;
        if let Some((_, Some(verdicts))) = tools.inspect_answer(scoring, &answer, |_| true).await {
            crate::record::list_answered(&tools.name, verdicts, scoring);
        }
        if cursor.is_none() {
            return Ok(());
        }
    }
    Err(format!("the server's tool list runs past {LIST_PAGES} pages"))
}

/// Checks that `answer` answers `id` with a tool list; returns its next cursor.
pub fn check_page(answer: &[u8], id: &str) -> Result<Option<String>, String> {
    let v: Value = serde_json::from_slice(answer).map_err(|e| format!("the tools/list answer is not JSON: {e}"))?;
    let answered = v.get("id").and_then(|i| id_key(&i.to_string()));
    if answered != id_key(&Value::from(id).to_string()) {
        return Err("the tools/list answer carries another id".to_owned());
    }
    if let Some(e) = v.get("error") {
        return Err(format!("the server answered tools/list with an error: {e}"));
    }
    if !v.pointer("/result/tools").is_some_and(Value::is_array) {
        return Err("the tools/list answer has no tools array".to_owned());
    }
    Ok(v.pointer("/result/nextCursor").and_then(Value::as_str).filter(|c| !c.is_empty()).map(str::to_owned))
}
