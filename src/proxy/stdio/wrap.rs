//! `wrap`: the gateway as a stdio MCP server in front of a stdio MCP server, for desktop
//! clients that only launch commands. Client lines go to the child (calls to hidden tools are
//! answered here instead), child lines come back with `tools/list` answers scored and
//! rewritten. stdout carries MCP messages only; logs go to stderr.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncWriteExt, BufReader};
use tokio::sync::Mutex as AsyncMutex;
use tokio::sync::oneshot;

use super::child::{self, ChildProcess, describe_exit, read_line};
use crate::config::UpstreamConfig;
use crate::mcp::message::{Kind, classify, list_request, own_list_id};
use crate::proxy::intercept::UpstreamTools;
use crate::scoring::service::ScoringService;

const LIST_CHANGED: &[u8] = br#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;

/// Our stdout, one whole line at a time.
struct Out(AsyncMutex<tokio::io::Stdout>);

impl Out {
    async fn line(&self, msg: &[u8]) {
        let mut out = self.0.lock().await;
        let mut line: Vec<u8> = msg.iter().map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b }).collect();
        line.push(b'\n');
        if out.write_all(&line).await.is_err() || out.flush().await.is_err() {
            tracing::warn!("cannot write to stdout; the client is gone");
        }
    }
}

/// Lists every page of the wrapped server's tools with the gateway's own request ids; the pump
/// scores the answers and hands back each next cursor.
async fn learn(child: &ChildProcess, own: &Mutex<HashMap<String, oneshot::Sender<Option<String>>>>) {
    let mut cursor: Option<String> = None;
    for page in 0..100 {
        let id = own_list_id(page);
        let (tx, rx) = oneshot::channel();
        if let Ok(mut own) = own.lock() {
            own.insert(format!("\"{id}\""), tx);
        }
        let msg = list_request(id, cursor.as_deref());
        if child.send(msg.to_string().as_bytes()).await.is_err() {
            return;
        }
        match tokio::time::timeout(std::time::Duration::from_secs(10), rx).await {
            Ok(Ok(Some(next))) => cursor = Some(next),
            _ => return,
        }
    }
}

/// Runs until the client closes stdin or the child exits; returns the child's exit code.
pub async fn run(upstream: UpstreamConfig, tools: Arc<UpstreamTools>, scoring: Arc<ScoringService>) -> i32 {
    let command = upstream.command.clone().unwrap_or_default();
    let spawned = match child::spawn(&upstream.name, &command, &upstream.env, upstream.cwd.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(upstream = %upstream.name, error = %e, "cannot start the wrapped server");
            return 2;
        }
    };
    let process = Arc::new(spawned.process);
    let out = Arc::new(Out(AsyncMutex::new(tokio::io::stdout())));
    let list_ids: Arc<Mutex<HashSet<String>>> = Arc::default();

    // Refined scores that change what the client may see: ask it to list again.
    let (mut changes, name, out_changes, tools_changes, scoring_changes) =
        (scoring.subscribe(), upstream.name.clone(), out.clone(), tools.clone(), scoring.clone());
    tokio::spawn(async move {
        while let Ok(changed) = changes.recv().await {
            if *changed == *name && tools_changes.refresh(&scoring_changes) {
                out_changes.line(LIST_CHANGED).await;
            }
        }
    });

    // The gateway's own list requests (to learn a tool a client calls without listing), by id.
    let own: Arc<Mutex<HashMap<String, oneshot::Sender<Option<String>>>>> = Arc::default();

    // Client -> child.
    let (to_child, ids_in, out_in, tools_in, own_in) =
        (process.clone(), list_ids.clone(), out.clone(), tools.clone(), own.clone());
    let client = tokio::spawn(async move {
        let mut stdin = BufReader::new(tokio::io::stdin());
        let mut line = Vec::new();
        while let Ok(Some(())) = read_line(&mut stdin, &mut line).await {
            let msg = line.trim_ascii();
            if msg.is_empty() {
                continue;
            }
            let m = classify(msg);
            if let Some(tool) = &m.tool_name
                && tools_in.should_learn(tool)
            {
                learn(&to_child, &own_in).await;
            }
            if let Some(r) = tools_in.refuse_call(&m) {
                out_in.line(&r.body).await;
                continue;
            }
            if let (true, Some(id)) = (crate::mcp::instructions::is_watched_method(m.method()), m.request_id())
                && let Ok(mut ids) = ids_in.lock()
            {
                ids.insert(id.clone());
            }
            if let Err(e) = to_child.send(msg).await {
                tracing::warn!(error = %e, "cannot write to the wrapped server");
                break;
            }
        }
    });

    // Child -> client.
    let mut stdout = spawned.stdout;
    let mut line = Vec::new();
    let pump = async {
        while let Ok(Some(())) = read_line(&mut stdout, &mut line).await {
            let msg = line.trim_ascii();
            if msg.is_empty() {
                continue;
            }
            if !super::session::is_jsonrpc_line(msg) {
                tracing::warn!(upstream = %upstream.name, "the wrapped server wrote a line that is not JSON-RPC; dropped");
                continue;
            }
            let answered = match classify(msg).kind {
                Kind::Response { id } => Some(id),
                _ => None,
            };
            if let Some(waiter) = answered.as_ref().and_then(|id| own.lock().ok()?.remove(id)) {
                // The gateway's own list: score it, keep it from the client.
                tools.rewrite_list(&scoring, msg).await;
                let next = serde_json::from_slice::<serde_json::Value>(msg)
                    .ok()
                    .and_then(|v| v.pointer("/result/nextCursor").and_then(|c| c.as_str()).map(str::to_owned));
                let _ = waiter.send(next);
                continue;
            }
            let is_list = answered.is_some_and(|id| list_ids.lock().map(|mut ids| ids.remove(&id)).unwrap_or(false));
            let rewritten = if is_list { tools.rewrite_list(&scoring, msg).await } else { None };
            out.line(rewritten.as_deref().unwrap_or(msg)).await;
        }
    };
    tokio::select! {
        _ = pump => {}
        _ = client => {} // the client closed stdin: stop the server
    }
    let status = process.shutdown().await;
    tracing::info!(upstream = %upstream.name, "wrapped server ended: {}", describe_exit(status));
    status.and_then(|s| s.code()).unwrap_or(0)
}
