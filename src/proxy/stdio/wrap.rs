//! `wrap`: the gateway as a stdio MCP server in front of a stdio MCP server, for desktop
//! clients that only launch commands. Client lines go through the exchange to the child (calls
//! to hidden tools, batched or not, are answered here instead); child lines come back through
//! the exchange's reading of answers (`tools/list` answers scored and rewritten; under enforce,
//! a line that cannot be inspected becomes an error for its request). stdout carries MCP
//! messages only; logs go to stderr.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncWriteExt, BufReader};
use tokio::sync::Mutex as AsyncMutex;
use tokio::sync::oneshot;

use super::child::{self, ChildProcess, LineRead, describe_exit, next_line, read_line};
use crate::config::UpstreamConfig;
use futures_util::future::BoxFuture;

use crate::catalog::UpstreamTools;
use crate::mcp::message::{IdKey, Kind, classify, id_key};
use crate::policy::uninspected::fails_closed;
use crate::proxy::exchange::answer::{self, AnswerReading, Line, Settled};
use crate::proxy::exchange::{self, Lister};
use crate::scoring::service::ScoringService;

/// The ids of the client's open `subscriptions/listen` requests (2026-07-28): the gateway's
/// own `list_changed` names each of them; with none open it goes out plain, as 2025 clients
/// expect it. A listen ends when the server answers it.
type Listens = Arc<Mutex<Vec<IdKey>>>;

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

/// The gateway's own list requests, by id, waiting for their answers.
type OwnRequests = Arc<Mutex<HashMap<IdKey, oneshot::Sender<Vec<u8>>>>>;

/// The gateway's own `tools/list` requests to the wrapped server: written to its stdin, their
/// answers taken off its stdout by the pump (never shown to the client).
struct WrapLister {
    child: Arc<ChildProcess>,
    own: OwnRequests,
}

impl Lister for WrapLister {
    fn list_page<'a>(&'a self, id: &'a str, request: Vec<u8>) -> BoxFuture<'a, Result<Vec<u8>, String>> {
        Box::pin(async move {
            let key = id_key(&serde_json::Value::from(id).to_string()).unwrap_or_default();
            let (tx, rx) = oneshot::channel();
            if let Ok(mut own) = self.own.lock() {
                own.retain(|_, waiting| !waiting.is_closed());
                own.insert(key, tx);
            }
            self.child.send(&request).await.map_err(|e| format!("cannot write to the wrapped server: {e}"))?;
            rx.await.map_err(|_| "the wrapped server ended before answering".to_owned())
        })
    }
}

/// Runs until the client closes stdin or the child exits; returns the child's exit code.
pub async fn run(upstream: UpstreamConfig, tools: Arc<UpstreamTools>, scoring: Arc<ScoringService>) -> i32 {
    let command = upstream.transport().command().unwrap_or_default().to_vec();
    // `wrap` starts its server once: its environment is expanded here, as a gateway's stdio
    // upstream's is when the upstream is set up.
    let launched = child::Launch::new(command, &upstream.env, upstream.cwd.clone())
        .and_then(|launch| child::spawn(&upstream.name, &launch).map_err(|e| e.to_string()));
    let spawned = match launched {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(upstream = %upstream.name, error = %e, "cannot start the wrapped server");
            return 2;
        }
    };
    let process = Arc::new(spawned.process);
    let out = Arc::new(Out(AsyncMutex::new(tokio::io::stdout())));
    let list_ids: Arc<Mutex<HashSet<IdKey>>> = Arc::default();
    let listens: Listens = Arc::default();

    // Refined scores that change what the client may see: ask it to list again.
    let (mut changes, name, out_changes, tools_changes, scoring_changes) =
        (scoring.subscribe(), upstream.name.clone(), out.clone(), tools.clone(), scoring.clone());
    let listening = listens.clone();
    tokio::spawn(async move {
        while let Ok(changed) = changes.recv().await {
            if *changed == *name && crate::record::refreshed(&name, &tools_changes.refresh(&scoring_changes)) {
                let open: Vec<IdKey> = listening.lock().map(|l| l.clone()).unwrap_or_default();
                if open.is_empty() {
                    out_changes.line(&crate::mcp::envelope::list_changed(None)).await;
                }
                for id in &open {
                    out_changes.line(&crate::mcp::envelope::list_changed(Some(id))).await;
                }
            }
        }
    });

    // The gateway's own list requests (to learn a tool a client calls without listing), by id.
    let own: OwnRequests = Arc::default();

    // Client -> child, each line through the exchange (batches too).
    let (ids_in, out_in, tools_in, scoring_in) = (list_ids.clone(), out.clone(), tools.clone(), scoring.clone());
    let listens_in = listens.clone();
    let lister = WrapLister { child: process.clone(), own: own.clone() };
    let client = tokio::spawn(async move {
        let mut stdin = BufReader::new(tokio::io::stdin());
        let mut line = Vec::new();
        while let Ok(Some(())) = read_line(&mut stdin, &mut line).await {
            let msg = line.trim_ascii();
            if msg.is_empty() {
                continue;
            }
            let body = bytes::Bytes::copy_from_slice(msg);
            let admitted = exchange::admit(&tools_in, &scoring_in, &body, None, Some(&lister)).await;
            // One line per answer: stdio clients read messages, not batches.
            for answer in &admitted.answers {
                out_in.line(answer).await;
            }
            let Some(forward) = admitted.forward.as_ref() else { continue };
            if let Ok(mut ids) = ids_in.lock() {
                ids.extend(admitted.list_ids());
            }
            if admitted.has_method("subscriptions/listen")
                && let Ok(mut open) = listens_in.lock()
            {
                let listen = admitted.forwarded.iter().filter(|m| m.method() == Some("subscriptions/listen"));
                open.extend(listen.filter_map(|m| m.request_id().cloned()));
            }
            if let Err(e) = lister.child.send(forward).await {
                tracing::warn!(error = %e, "cannot write to the wrapped server");
                break;
            }
        }
    });

    // Child -> client, each line through the exchange's reading of answers.
    let mut stdout = spawned.stdout;
    let mut line = Vec::new();
    let max_answer = upstream.max_answer_bytes;
    let pump = async {
        let reading = AnswerReading { tools: &tools, scoring: &scoring, caller: None };
        loop {
            let cap = if fails_closed(&tools.policy) { max_answer } else { max_answer.max(child::MAX_LINE_BYTES) };
            let read = match next_line(&mut stdout, &mut line, cap).await {
                Ok(LineRead::Line) => Line::Read(&line),
                Ok(LineRead::TooLong) => Line::TooLong,
                Ok(LineRead::End) | Err(_) => break,
            };
            if let Line::Read(l) = &read
                && let Kind::Response { id } = classify(l.trim_ascii()).kind
                && let Some(waiter) = own.lock().ok().and_then(|mut own| own.remove(&id))
            {
                // The gateway's own list: the exchange scores it; the client never sees it.
                let _ = waiter.send(l.trim_ascii().to_vec());
                continue;
            }
            let is_list = |id: &IdKey| list_ids.lock().is_ok_and(|ids| ids.contains(id));
            let pending = || list_ids.lock().map(|ids| ids.iter().cloned().collect()).unwrap_or_default();
            let blank = matches!(&read, Line::Read(l) if l.trim_ascii().is_empty());
            match answer::settle_line(&reading, read, max_answer, &is_list, pending).await {
                Settled::Pass(msg) => {
                    let answered = answer::lenient_ids(&msg);
                    if let Ok(mut ids) = list_ids.lock() {
                        answered.iter().for_each(|id| {
                            ids.remove(id);
                        });
                    }
                    if let Kind::Response { id } = classify(&msg).kind
                        && let Ok(mut open) = listens.lock()
                    {
                        open.retain(|listen| *listen != id);
                    }
                    out.line(&msg).await;
                }
                Settled::Answered(errors) => {
                    for (id, error) in errors {
                        if let Ok(mut ids) = list_ids.lock() {
                            ids.remove(&id);
                        }
                        out.line(&error).await;
                    }
                }
                Settled::Dropped if !blank => {
                    tracing::warn!(upstream = %upstream.name, "the wrapped server wrote a line that is not JSON-RPC; dropped");
                }
                Settled::Dropped => {}
            }
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
