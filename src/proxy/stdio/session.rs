//! One client session on a stdio upstream: one child process, and the routing of what it
//! writes. An answer goes to the POST stream that asked for it; a server request or
//! notification goes to the newest open POST stream, else to the GET stream, else waits in a
//! bounded backlog until a GET stream opens. Every line goes through the exchange's reading of
//! answers, as for HTTP upstreams: a `tools/list` answer is scored and rewritten, and under
//! enforce a line that cannot be inspected becomes an error for the request it answers.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use serde_json::value::RawValue;
use tokio::io::BufReader;
use tokio::process::ChildStdout;
use tokio::sync::mpsc;

use super::child::{ChildProcess, LineRead, MAX_LINE_BYTES, describe_exit, next_line};
use crate::catalog::UpstreamTools;
use crate::mcp::message::{IdKey, Kind, classify, id_key};
use crate::mcp::rpc_error::RpcError;
use crate::policy::uninspected::fails_closed;
use crate::proxy::exchange::answer::{self, AnswerReading, Line, Settled};
use crate::scoring::service::ScoringService;

/// Server messages kept for a GET stream that is not open yet.
const BACKLOG: usize = 1024;

type StreamId = u64;

/// Answers to timed-out requests remembered (to drop them when they come late).
const EXPIRED_IDS: usize = 1024;

/// Who reads a POST stream: an SSE client takes anything related; a JSON client and the
/// gateway's own requests take only their answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    Sse,
    Json,
    Gateway,
}

struct Stream {
    id: StreamId,
    tx: mpsc::Sender<Bytes>,
    /// Answers it still waits for.
    waiting: usize,
    reader: Reader,
}

#[derive(Default)]
struct Routing {
    pending: HashMap<IdKey, StreamId>,
    list_ids: HashSet<IdKey>,
    /// Open POST streams, oldest first.
    streams: Vec<Stream>,
    listener: Option<mpsc::Sender<Bytes>>,
    backlog: VecDeque<Bytes>,
    next_stream: StreamId,
    expired: VecDeque<IdKey>,
}

pub struct StdioSession {
    pub id: String,
    pub(super) tools: Arc<UpstreamTools>,
    scoring: Arc<ScoringService>,
    process: ChildProcess,
    routing: Mutex<Routing>,
    last_active: Mutex<Instant>,
    ended: AtomicBool,
    /// Set once the process is gone; until then the session counts against `max_sessions`.
    reaped: tokio::sync::watch::Sender<bool>,
    /// The upstream's `max_answer_bytes`: the longest line inspected.
    max_answer: usize,
    /// For a pooled child (session-less requests, `pool.rs`), whose it is; `None` for a session.
    pub(super) owner: Option<String>,
}

/// The gateway's own list requests go through the session like a client's, and their answers
/// come back on a stream only the gateway reads (the exchange scores them).
impl crate::proxy::exchange::Lister for StdioSession {
    fn list_page<'a>(
        &'a self,
        id: &'a str,
        request: Vec<u8>,
    ) -> futures_util::future::BoxFuture<'a, Result<Vec<u8>, String>> {
        Box::pin(async move {
            let key = id_key(&serde_json::Value::from(id).to_string()).unwrap_or_default();
            let (_, mut rx) = self.open_stream(std::slice::from_ref(&key), &[], Reader::Gateway);
            self.send(&request).await.map_err(|e| format!("cannot write to the server: {e}"))?;
            rx.recv().await.map(|b| b.to_vec()).ok_or_else(|| "the session ended before the answer".to_owned())
        })
    }
}

/// Where a message from the server goes.
enum Route {
    Stream(mpsc::Sender<Bytes>),
    Backlog,
    Drop,
}

impl StdioSession {
    pub fn new(
        id: String,
        tools: Arc<UpstreamTools>,
        scoring: Arc<ScoringService>,
        process: ChildProcess,
        max_answer: usize,
        owner: Option<String>,
    ) -> Self {
        StdioSession {
            id,
            tools,
            scoring,
            process,
            routing: Mutex::new(Routing::default()),
            last_active: Mutex::new(Instant::now()),
            ended: AtomicBool::new(false),
            reaped: tokio::sync::watch::Sender::new(false),
            max_answer,
            owner,
        }
    }

    pub fn touch(&self) {
        if let Ok(mut t) = self.last_active.lock() {
            *t = Instant::now();
        }
    }

    /// How long nothing happened; zero while a request is waiting for its answer.
    pub fn idle_for(&self) -> Duration {
        if self.routing.lock().map(|r| !r.pending.is_empty()).unwrap_or(false) {
            return Duration::ZERO;
        }
        self.last_active.lock().map(|t| t.elapsed()).unwrap_or_default()
    }

    /// Whether a request sent to the process still waits for its answer.
    pub fn has_pending(&self) -> bool {
        self.routing.lock().map(|r| !r.pending.is_empty()).unwrap_or(true)
    }

    /// Forgets server messages kept for nobody (a pooled child's, before its next holder).
    pub fn clear_backlog(&self) {
        if let Ok(mut r) = self.routing.lock() {
            r.backlog.clear();
            r.streams.retain(|s| !s.tx.is_closed());
        }
    }

    pub fn is_ended(&self) -> bool {
        self.ended.load(Ordering::SeqCst)
    }

    /// True once the process has exited and been reaped.
    pub fn is_reaped(&self) -> bool {
        *self.reaped.borrow()
    }

    /// Opens a POST stream for the answers to `ids` (`list_ids` among them are tools/list).
    pub fn open_stream(&self, ids: &[IdKey], list_ids: &[IdKey], reader: Reader) -> (StreamId, mpsc::Receiver<Bytes>) {
        let (tx, rx) = mpsc::channel(64);
        let mut r = self.routing.lock().unwrap_or_else(|e| e.into_inner());
        let sid = r.next_stream;
        r.next_stream += 1;
        for id in ids {
            r.pending.insert(id.clone(), sid);
        }
        r.list_ids.extend(list_ids.iter().cloned());
        r.streams.push(Stream { id: sid, tx, waiting: ids.len(), reader });
        (sid, rx)
    }

    /// Opens the GET stream; `None` when one is already open. Backlogged messages come first.
    pub fn open_listener(&self) -> Option<mpsc::Receiver<Bytes>> {
        let mut r = self.routing.lock().unwrap_or_else(|e| e.into_inner());
        if r.listener.as_ref().is_some_and(|l| !l.is_closed()) {
            return None;
        }
        let (tx, rx) = mpsc::channel(BACKLOG + 64);
        while let Some(m) = r.backlog.pop_front() {
            let _ = tx.try_send(m);
        }
        r.listener = Some(tx);
        Some(rx)
    }

    /// Tells the GET stream's client to list tools again.
    pub async fn notify_list_changed(&self) {
        let tx = self.routing.lock().ok().and_then(|r| r.listener.clone());
        if let Some(tx) = tx {
            let _ =
                tx.send(Bytes::from_static(br#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#)).await;
        }
    }

    /// Sends one message (or batch) to the server.
    pub async fn send(&self, message: &[u8]) -> std::io::Result<()> {
        self.touch();
        self.process.send(message).await
    }

    /// Answers still pending on `stream` after `timeout` get an error; the stream then closes.
    pub async fn expire(&self, stream: StreamId, timeout: Duration) {
        tokio::time::sleep(timeout).await;
        let (ids, tx) = {
            let mut r = self.routing.lock().unwrap_or_else(|e| e.into_inner());
            let ids: Vec<IdKey> = r.pending.iter().filter(|(_, s)| **s == stream).map(|(id, _)| id.clone()).collect();
            ids.iter().for_each(|id| {
                r.pending.remove(id);
            });
            for id in &ids {
                if r.expired.len() == EXPIRED_IDS {
                    r.expired.pop_front();
                }
                r.expired.push_back(id.clone());
            }
            let pos = r.streams.iter().position(|s| s.id == stream);
            (ids, pos.map(|p| r.streams.remove(p).tx))
        };
        if let Some(tx) = tx {
            for id in ids {
                let msg = format!("upstream \"{}\" did not answer within {} ms", self.tools.name, timeout.as_millis());
                let _ = tx.send(Bytes::from(RpcError::Timeout(&msg).answer(&id))).await;
            }
        }
    }

    /// Reads the server's stdout until it closes, routing every message. Under enforce a line
    /// is read to the upstream's `max_answer_bytes`, else to that or [`MAX_LINE_BYTES`],
    /// whichever is larger (what cannot be inspected then passes on as it came).
    pub async fn pump(self: Arc<Self>, mut stdout: BufReader<ChildStdout>) {
        let mut line = Vec::new();
        let end = loop {
            let cap = match fails_closed(&self.tools.policy) {
                true => self.max_answer,
                false => self.max_answer.max(MAX_LINE_BYTES),
            };
            match next_line(&mut stdout, &mut line, cap).await {
                Ok(LineRead::Line) => self.on_line(Line::Read(&line)).await,
                Ok(LineRead::TooLong) => self.on_line(Line::TooLong).await,
                Ok(LineRead::End) => break None,
                Err(e) => break Some(e.to_string()),
            }
        };
        self.end(end).await;
    }

    /// One line through the exchange, then to whoever waits for it.
    async fn on_line(&self, line: Line<'_>) {
        let reading = AnswerReading { tools: &self.tools, scoring: &self.scoring, caller: None };
        let is_list = |id: &IdKey| self.routing.lock().is_ok_and(|r| r.list_ids.contains(id));
        let pending = || self.routing.lock().map(|r| r.pending.keys().cloned().collect()).unwrap_or_default();
        let preview = match &line {
            Line::Read(l) => String::from_utf8_lossy(l.trim_ascii()).chars().take(120).collect(),
            Line::TooLong => String::new(),
        };
        match answer::settle_line(&reading, line, self.max_answer, &is_list, pending).await {
            Settled::Pass(out) if out.first() == Some(&b'[') => {
                match serde_json::from_slice::<Vec<Box<RawValue>>>(&out) {
                    Ok(items) => {
                        for item in items {
                            self.on_message(Bytes::copy_from_slice(item.get().as_bytes())).await;
                        }
                    }
                    Err(_) => self.on_message(Bytes::from(out)).await,
                }
            }
            Settled::Pass(out) => self.on_message(Bytes::from(out)).await,
            Settled::Answered(errors) => {
                for (id, error) in errors {
                    let route = self.route_answer(&id);
                    self.deliver(route, Bytes::from(error)).await;
                }
            }
            Settled::Dropped if !preview.is_empty() => {
                tracing::warn!(upstream = %self.tools.name, session = %self.id, line = %preview, "the server wrote a line that is not JSON-RPC; dropped");
            }
            Settled::Dropped => {}
        }
    }

    /// Routes one message as the exchange settled it (an answer to its request's stream);
    /// a message passed on uninspected goes by the id a lenient reading finds in it.
    async fn on_message(&self, out: Bytes) {
        self.touch();
        let answered = match classify(&out).kind {
            Kind::Response { id } => Some(id),
            _ => answer::lenient_ids(&out).into_iter().next(),
        };
        let route = match &answered {
            Some(id) => self.route_answer(id),
            None => self.route_other(),
        };
        self.deliver(route, out).await;
    }

    fn route_answer(&self, id: &IdKey) -> Route {
        let mut r = self.routing.lock().unwrap_or_else(|e| e.into_inner());
        r.list_ids.remove(id);
        if let Some(pos) = r.expired.iter().position(|e| e == id) {
            // Its request already got a timeout error; a second answer would confuse the client.
            r.expired.remove(pos);
            tracing::debug!(upstream = %self.tools.name, session = %self.id, id = %id, "late answer dropped");
            return Route::Drop;
        }
        let Some(sid) = r.pending.remove(id) else {
            drop(r);
            tracing::debug!(upstream = %self.tools.name, session = %self.id, id = %id, "answer to no pending request");
            return self.route_other();
        };
        let Some(pos) = r.streams.iter().position(|s| s.id == sid) else {
            drop(r);
            return self.route_other();
        };
        let tx = r.streams[pos].tx.clone();
        r.streams[pos].waiting = r.streams[pos].waiting.saturating_sub(1);
        if r.streams[pos].waiting == 0 {
            r.streams.remove(pos); // its last answer: the stream ends after this message
        }
        Route::Stream(tx)
    }

    fn route_other(&self) -> Route {
        let mut r = self.routing.lock().unwrap_or_else(|e| e.into_inner());
        r.streams.retain(|s| !s.tx.is_closed());
        if let Some(s) = r.streams.iter().rev().find(|s| s.reader == Reader::Sse) {
            return Route::Stream(s.tx.clone());
        }
        match &r.listener {
            Some(tx) if !tx.is_closed() => Route::Stream(tx.clone()),
            _ => Route::Backlog,
        }
    }

    async fn deliver(&self, route: Route, msg: Bytes) {
        let undelivered = match route {
            Route::Stream(tx) => tx.send(msg).await.err().map(|e| e.0),
            Route::Backlog => Some(msg),
            Route::Drop => None,
        };
        if let Some(msg) = undelivered {
            let mut r = self.routing.lock().unwrap_or_else(|e| e.into_inner());
            if r.backlog.len() == BACKLOG {
                r.backlog.pop_front();
                tracing::warn!(upstream = %self.tools.name, session = %self.id, "backlog full; oldest server message dropped");
            }
            r.backlog.push_back(msg);
        }
    }

    /// Ends the session: stops the process, answers every pending request with an error
    /// naming the upstream and how the process ended, and closes every stream. Returns once
    /// the process is reaped, whoever ends it (a DELETE, the idle reaper, the process's own
    /// end of output): callers then forget the session, and with it its place under the cap.
    pub async fn end(&self, reason: Option<String>) {
        if self.ended.swap(true, Ordering::SeqCst) {
            let _ = self.reaped.subscribe().wait_for(|reaped| *reaped).await;
            return;
        }
        let status = match self.process.try_status().await {
            Some(s) => Some(s),
            None => self.process.shutdown().await,
        };
        let how = describe_exit(status);
        let why = reason.map(|r| format!(" ({r})")).unwrap_or_default();
        tracing::info!(upstream = %self.tools.name, session = %self.id, pid = ?self.process.pid, "stdio server ended: {how}{why}");
        let (pending, streams) = {
            let mut r = self.routing.lock().unwrap_or_else(|e| e.into_inner());
            r.listener = None;
            let pending: Vec<(IdKey, StreamId)> = r.pending.drain().collect();
            (pending, std::mem::take(&mut r.streams))
        };
        for (id, sid) in pending {
            if let Some(s) = streams.iter().find(|s| s.id == sid) {
                let msg = format!("upstream \"{}\" exited before answering: {how}{why}", self.tools.name);
                let _ = s.tx.send(Bytes::from(RpcError::Gateway(&msg).answer(&id))).await;
            }
        }
        self.reaped.send_replace(true);
    }
}
