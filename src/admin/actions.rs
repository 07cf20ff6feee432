//! What an operator can change: approve a pinned tool's changed definition (one tool, or every
//! changed one of an upstream), and judge tools again now.

use http::Response;
use serde_json::{Value, json};

use super::Console;
use super::{AdminError, json_ok};
use crate::catalog::UpstreamTools;
use crate::http::Body;
use crate::http::request_body::{ClientRequest, RequestBody};
use crate::scoring::pins::PinStatus;

/// Largest POST body the admin API reads.
const MAX_BODY: usize = 64 * 1024;

/// The optional JSON object of a POST (`{}` when the body is empty).
async fn body_object(
    console: &Console,
    req: ClientRequest,
    body: &RequestBody,
) -> Result<serde_json::Map<String, Value>, AdminError> {
    let within = std::time::Duration::from_millis(console.serve.listen.body_read_timeout_ms);
    let bytes = body
        .read_all(req.into_body(), MAX_BODY, within)
        .await
        .map_err(|e| AdminError::BadRequest(format!("cannot read the request body: {e}")))?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Default::default());
    }
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(AdminError::BadRequest("the request body must be a JSON object".into())),
        Err(e) => Err(AdminError::BadRequest(format!("the request body is not JSON: {e}"))),
    }
}

/// Approves the current definition of `tool` (or of every tool whose pinned definition
/// changed). A body `{"hash": "..."}` makes the approval conditional: it is refused (409) when
/// the tool's definition is no longer the one the operator looked at.
pub async fn approve(
    console: &Console,
    up: &UpstreamTools,
    tool: Option<&str>,
    req: ClientRequest,
    read: &RequestBody,
) -> Result<Response<Body>, AdminError> {
    let body = body_object(console, req, read).await?;
    if !up.policy.pin {
        return Err(AdminError::BadRequest(format!(
            "upstream {:?} does not pin tool definitions (its policy has pin = false)",
            up.name
        )));
    }
    let views = up.snapshot();
    let targets: Vec<(String, String, String)> = match tool {
        Some(t) => {
            let view = views.iter().find(|v| v.name == t).ok_or_else(|| {
                AdminError::NotFound(format!("upstream {:?} has listed no tool named {t:?}", up.name))
            })?;
            let hash = view
                .score
                .as_ref()
                .map(|s| s.context_signals.input_hash.clone())
                .ok_or_else(|| AdminError::Conflict(format!("tool {t:?} has no scorable definition to approve")))?;
            if let Some(expected) = body.get("hash")
                && expected.as_str() != Some(hash.as_str())
            {
                return Err(AdminError::Conflict(format!(
                    "tool {t:?} changed again: its current definition hash is {hash}, not {expected}"
                )));
            }
            vec![(up.name.clone(), t.to_owned(), hash)]
        }
        None => views
            .iter()
            .filter(|v| v.pin.is_some_and(PinStatus::awaits_approval))
            .filter_map(|v| {
                Some((up.name.clone(), v.name.clone(), v.score.as_ref()?.context_signals.input_hash.clone()))
            })
            .collect(),
    };
    if !targets.is_empty() {
        let pins = console.scoring.pins().clone();
        let approvals = targets.clone();
        tokio::task::spawn_blocking(move || pins.approve(&approvals, "admin"))
            .await
            .map_err(|e| AdminError::Internal(format!("approval task failed: {e}")))?
            .map_err(|e| AdminError::Internal(format!("cannot record the approval: {e}")))?;
        for (upstream, tool, hash) in &targets {
            tracing::info!(upstream, tool, hash, "definition approved through the admin API");
        }
        // Decisions are recomputed and listening sessions hear `list_changed`.
        console.scoring.decisions_changed(&up.name);
    }
    let approved: Vec<Value> = targets.iter().map(|(_, t, h)| json!({ "tool": t, "hash": h })).collect();
    Ok(json_ok(&json!({ "upstream": up.name, "approved": approved })))
}

/// Judges one tool (or every listed tool) again now and waits for the answers.
pub async fn rescore(console: &Console, up: &UpstreamTools, tool: Option<&str>) -> Result<Response<Body>, AdminError> {
    if let Some(t) = tool {
        match up.snapshot().iter().find(|v| v.name == t) {
            None => return Err(AdminError::NotFound(format!("upstream {:?} has listed no tool named {t:?}", up.name))),
            Some(v) if v.score.is_none() => {
                return Err(AdminError::Conflict(format!("tool {t:?} has no scorable definition")));
            }
            Some(_) => {}
        }
    }
    match up.rescore(&console.scoring, tool).await {
        Ok(done) => {
            let n = done.judged;
            crate::record::refreshed(&up.name, &done.refreshed);
            if let Some(job) = done.report {
                crate::record::report(job, &console.scoring);
            }
            tracing::info!(upstream = %up.name, tool = tool.unwrap_or("*"), tools = n, "re-scored through the admin API");
            Ok(json_ok(&json!({ "upstream": up.name, "rescored": n, "judge": console.scoring.judge().identity() })))
        }
        Err(e) => Err(AdminError::Judge(format!("re-scoring failed: {e}"))),
    }
}
