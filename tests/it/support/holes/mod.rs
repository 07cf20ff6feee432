//! The four ways a client reaches an upstream through the gateway, behind one interface for
//! the enforcement tests (`tests/it/gateway_holes.rs`): Streamable HTTP to an HTTP upstream, the same
//! to a stdio upstream (a session, a child per client), `wrap` (the gateway as a stdio server),
//! and legacy HTTP+SSE (`/sse/`, `/messages/`). Each sends exact bytes, collects every message the
//! client gets back, and says which calls the upstream read, the way the most lenient reader
//! (Python's `json.loads`, last key wins) reads them.

pub mod traffic;

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Value, json};

use super::rig::http::{ACCEPT_BOTH, Mcp, SseStream, read_reply};
pub use super::rig::python;
use super::rig::{Gateway, Rig, Upstream};
use super::wrap::Wrap;
use traffic::Body;

const WAIT: Duration = Duration::from_secs(60);

/// The lenient stdio server of the rig (`tests/rig/lenient_stdio_server.py`) as a command.
pub fn lenient_command(record: &std::path::Path, flags: &[&str]) -> Vec<String> {
    let mut v = vec![
        python().display().to_string(),
        super::rig::rig_dir().join("lenient_stdio_server.py").display().to_string(),
        record.display().to_string(),
    ];
    v.extend(flags.iter().map(|f| f.to_string()));
    v
}

/// What the upstream read, and where it keeps the record.
pub enum Record {
    /// A rig HTTP server's `Recorder`.
    Rig(Upstream),
    /// The lenient stdio server's record file.
    File(PathBuf),
}

impl Record {
    /// The tool of every `tools/call` the upstream read (notifications and batches included).
    pub async fn calls(&self) -> Vec<String> {
        match self {
            Record::Rig(u) => u.calls_received().await,
            Record::File(_) => self
                .file_entries()
                .iter()
                .filter(|e| e["method"] == "tools/call")
                .map(|e| e["tool"].as_str().unwrap_or("(not a string)").to_owned())
                .collect(),
        }
    }

    /// Bodies that reached the upstream and that even its lenient reader could not read.
    pub async fn unreadable(&self) -> usize {
        match self {
            Record::Rig(u) => u.received().await.iter().filter(|e| e["unparsable"] == true).count(),
            Record::File(_) => self.file_entries().iter().filter(|e| e["unreadable"] == true).count(),
        }
    }

    /// `tools/list` requests the upstream read, with their ids.
    pub async fn list_ids(&self) -> Vec<Value> {
        match self {
            Record::Rig(u) => u
                .received()
                .await
                .iter()
                .flat_map(|e| e["messages"].as_array().cloned().unwrap_or_default())
                .filter(|m| m["method"] == "tools/list")
                .map(|m| m["id"].clone())
                .collect(),
            Record::File(_) => self
                .file_entries()
                .into_iter()
                .filter(|e| e["method"] == "tools/list")
                .map(|e| e["id"].clone())
                .collect(),
        }
    }

    fn file_entries(&self) -> Vec<Value> {
        let Record::File(path) = self else { return vec![] };
        let text = std::fs::read_to_string(path).unwrap_or_default();
        // Python writes NaN as a bare word; the test only needs the fields around it.
        text.lines().filter_map(|l| serde_json::from_str(&l.replace("NaN", "null")).ok()).collect()
    }
}

/// How the client side talks.
pub enum Link {
    /// Streamable HTTP through `/mcp/{upstream}` (to an HTTP or a stdio upstream).
    Http(Mcp),
    Wrap(WrapSession),
    Legacy(Legacy),
}

/// One transport under test.
pub struct Side {
    pub name: &'static str,
    pub link: Link,
    pub record: Record,
    /// Every message the client received, in order.
    pub received: Vec<Value>,
    barriers: u64,
    /// The gateway in front of it (`wrap` is its own).
    pub gateway: Option<Gateway>,
}

impl Side {
    pub fn new(name: &'static str, link: Link, record: Record) -> Side {
        Side { name, link, record, received: vec![], barriers: 0, gateway: None }
    }

    /// Sends `body`; returns the messages received for it (by the time the upstream has dealt
    /// with everything sent before a `ping` that follows it).
    pub async fn send(&mut self, body: &Body) -> Vec<Value> {
        self.barriers += 1;
        let barrier = json!(format!("barrier-{}", self.barriers));
        let got = match &mut self.link {
            Link::Http(mcp) => {
                let mut got = http_post(mcp, body).await;
                // A stdio child writes its record before answering the ping after this body.
                let ping = json!({"jsonrpc": "2.0", "id": barrier, "method": "ping"});
                let _ = mcp.post(&ping).await;
                got.retain(|m| m["id"] != barrier);
                got
            }
            Link::Wrap(w) => w.send(body, &barrier),
            Link::Legacy(l) => l.send(body, &barrier).await,
        };
        self.received.extend(got.iter().cloned());
        got
    }

    pub async fn send_json(&mut self, v: &Value) -> Vec<Value> {
        self.send(&Body::json(v)).await
    }

    /// Names of the tools in the list answering `id` (sent now, plain).
    pub async fn list(&mut self, id: &str) -> Vec<String> {
        let got =
            self.send(&Body::bytes(format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#).into())).await;
        let answer = match got.into_iter().find(|m| m["result"]["tools"].is_array()) {
            Some(a) => a,
            None => self.answer_later().await,
        };
        tool_names(&answer)
    }

    /// The answer to a request sent before the last barrier, when it came after the barrier's
    /// (legacy servers answer concurrently).
    pub async fn answer_later(&mut self) -> Value {
        let Link::Legacy(l) = &mut self.link else { panic!("{}: no answer", self.name) };
        let ev =
            l.stream.until(WAIT, "a later answer", |e| e.json().is_some_and(|m| m.get("id").is_some())).await.pop();
        let m = ev.and_then(|e| e.json()).unwrap();
        self.received.push(m.clone());
        m
    }
}

pub fn tool_names(answer: &Value) -> Vec<String> {
    answer["result"]["tools"]
        .as_array()
        .map(|t| t.iter().filter_map(|t| t["name"].as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

async fn http_post(mcp: &Mcp, body: &Body) -> Vec<Value> {
    let mut rb = mcp.http.post(&mcp.url).header("content-type", "application/json").header("accept", ACCEPT_BOTH);
    if let Some(s) = &mcp.session {
        rb = rb.header("mcp-session-id", s);
    }
    if let Some(v) = &mcp.version {
        rb = rb.header("mcp-protocol-version", v);
    }
    if body.gzip {
        rb = rb.header("content-encoding", "gzip");
    }
    let reply = read_reply(rb.body(body.bytes.clone()).send().await.expect("POST")).await;
    if reply.body.is_empty() || !(reply.is_sse() || reply.content_type().starts_with("application/json")) {
        return vec![];
    }
    match std::panic::catch_unwind(|| reply.messages()) {
        Ok(m) => m,
        Err(_) => vec![json!({"unparsable_reply": reply.text()})],
    }
}

/// A `wrap` session: [`Wrap`] around a command, initialized, spoken to line by line.
pub struct WrapSession {
    wrap: Wrap,
}

impl WrapSession {
    pub fn start(rig: &Rig, config: &str, server: &[String]) -> WrapSession {
        let cfg = rig.path("wrap.toml");
        std::fs::write(&cfg, config).unwrap();
        let wrap = Wrap::start(&rig.dir, "wrap", &["--config".into(), cfg.display().to_string()], server);
        let mut w = WrapSession { wrap };
        let init = json!({"jsonrpc":"2.0","id":"init","method":"initialize","params":{
            "protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"holes","version":"1"}}});
        let got = w.send(&Body::json(&init), &json!("init-barrier"));
        assert!(got.iter().any(|m| m["id"] == "init" && m["result"].is_object()), "wrap initialize: {got:?}");
        w.wrap.write_line(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        w
    }

    fn send(&mut self, body: &Body, barrier: &Value) -> Vec<Value> {
        self.wrap.write_line(&body.bytes);
        self.wrap.send(&json!({"jsonrpc": "2.0", "id": barrier, "method": "ping"}));
        let mut got = self.wrap.until(&format!("wrap: the answer to {barrier}"), WAIT, |m| m["id"] == *barrier);
        got.pop();
        got
    }
}

/// A legacy HTTP+SSE client session through the gateway's `/sse/{upstream}`.
pub struct Legacy {
    http: reqwest::Client,
    stream: SseStream,
    endpoint: String,
}

impl Legacy {
    pub async fn open(gw: &Gateway, upstream: &str) -> Legacy {
        let http = reqwest::Client::new();
        let resp = http.get(format!("{}/sse/{upstream}", gw.base())).header("accept", "text/event-stream").send().await;
        let mut stream = SseStream::new(resp.expect("GET /sse/"));
        let first =
            stream.until(WAIT, "endpoint event", |e| e.event.as_deref() == Some("endpoint")).await.pop().unwrap();
        let endpoint = format!("{}{}", gw.base(), first.data.unwrap().trim());
        let mut l = Legacy { http, stream, endpoint };
        let init = json!({"jsonrpc":"2.0","id":"init","method":"initialize","params":{
            "protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"holes","version":"1"}}});
        l.post(&Body::json(&init)).await;
        let got = l.stream.until(WAIT, "initialize", |e| e.json().is_some_and(|m| m["id"] == "init")).await;
        assert!(got.last().and_then(|e| e.json()).is_some_and(|m| m["result"].is_object()), "initialize: {got:?}");
        l.post(&Body::json(&json!({"jsonrpc":"2.0","method":"notifications/initialized"}))).await;
        l
    }

    async fn post(&self, body: &Body) -> u16 {
        let mut rb = self.http.post(&self.endpoint).header("content-type", "application/json");
        if body.gzip {
            rb = rb.header("content-encoding", "gzip");
        }
        rb.body(body.bytes.clone()).send().await.expect("POST /messages/").status().as_u16()
    }

    async fn send(&mut self, body: &Body, barrier: &Value) -> Vec<Value> {
        self.post(body).await;
        self.post(&Body::json(&json!({"jsonrpc": "2.0", "id": barrier, "method": "ping"}))).await;
        let events =
            self.stream.until(WAIT, "the barrier's answer", |e| e.json().is_some_and(|m| m["id"] == *barrier)).await;
        events.iter().filter_map(|e| e.json()).filter(|m| m["id"] != *barrier).collect()
    }
}
