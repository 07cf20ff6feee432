//! `wrap`: the gateway as a stdio MCP server in front of a stdio MCP server, for desktop
//! clients that only launch commands. Client lines go to the child (calls to hidden tools are
//! answered here instead), child lines come back with `tools/list` answers scored and
//! rewritten. stdout carries MCP messages only; logs go to stderr.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncWriteExt, BufReader};
use tokio::sync::Mutex as AsyncMutex;

use super::child::{self, describe_exit, read_line};
use crate::config::UpstreamConfig;
use crate::mcp::message::{Kind, classify};
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

    // Client -> child.
    let (to_child, ids_in, out_in, tools_in) = (process.clone(), list_ids.clone(), out.clone(), tools.clone());
    let client = tokio::spawn(async move {
        let mut stdin = BufReader::new(tokio::io::stdin());
        let mut line = Vec::new();
        while let Ok(Some(())) = read_line(&mut stdin, &mut line).await {
            let msg = line.trim_ascii();
            if msg.is_empty() {
                continue;
            }
            let m = classify(msg);
            if let Some(r) = tools_in.refuse_call(&m) {
                out_in.line(&r.body).await;
                continue;
            }
            if let (Some("tools/list"), Some(id)) = (m.method(), m.request_id())
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
            let is_list = match classify(msg).kind {
                Kind::Response { id } => list_ids.lock().map(|mut ids| ids.remove(&id)).unwrap_or(false),
                _ => false,
            };
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
