//! The one raw MCP client of the tests: Streamable HTTP spoken by hand (reqwest, no MCP
//! library), exactly the bytes and headers a test wants, and the answers as they came (status,
//! headers, body, SSE events with their ids, GET streams read event by event).

use std::collections::VecDeque;
use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::{Value, json};

use super::patience::scaled;

pub const ACCEPT_BOTH: &str = "application/json, text/event-stream";

/// One server-sent event: its fields and its exact text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub id: Option<String>,
    pub event: Option<String>,
    /// The `data:` lines joined by `\n`; `None` without any `data:` line.
    pub data: Option<String>,
    pub retry: Option<String>,
    /// The event's text through its terminating blank line.
    pub raw: String,
}

impl Event {
    /// The event's data as JSON, when it has any.
    pub fn json(&self) -> Option<Value> {
        self.data.as_deref().filter(|d| !d.is_empty()).map(|d| serde_json::from_str(d).expect("SSE data is JSON"))
    }
}

/// Splits complete events off the front of `buf` (LF or CRLF line ends).
pub fn take_events(buf: &mut String) -> Vec<Event> {
    let mut events = Vec::new();
    loop {
        let lf = buf.find("\n\n").map(|i| i + 2);
        let crlf = buf.find("\r\n\r\n").map(|i| i + 4);
        let end = match (lf, crlf) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => match a.or(b) {
                Some(e) => e,
                None => break,
            },
        };
        let raw: String = buf.drain(..end).collect();
        let mut ev = Event { id: None, event: None, data: None, retry: None, raw: raw.clone() };
        for line in raw.lines() {
            if line.is_empty() || line.starts_with(':') {
                continue;
            }
            let (name, value) = line.split_once(':').map_or((line, ""), |(n, v)| (n, v.strip_prefix(' ').unwrap_or(v)));
            match name {
                "id" => ev.id = Some(value.to_owned()),
                "event" => ev.event = Some(value.to_owned()),
                "retry" => ev.retry = Some(value.to_owned()),
                "data" => {
                    ev.data = Some(match ev.data.take() {
                        Some(d) => format!("{d}\n{value}"),
                        None => value.to_owned(),
                    })
                }
                _ => {}
            }
        }
        events.push(ev);
    }
    events
}

/// Parses a whole SSE body whose last event may lack its blank line (a stream cut short).
pub fn parse_events_lenient(body: &[u8]) -> Vec<Event> {
    let mut text = String::from_utf8_lossy(body).into_owned();
    let mut events = take_events(&mut text);
    if !text.trim().is_empty() {
        text.push_str("\n\n");
        events.extend(take_events(&mut text));
    }
    events
}

/// Parses a whole SSE body.
pub fn parse_events(body: &[u8]) -> Vec<Event> {
    let mut text = String::from_utf8(body.to_vec()).expect("SSE body is UTF-8");
    let events = take_events(&mut text);
    assert!(text.trim().is_empty(), "unterminated SSE event at the end: {text:?}");
    events
}

/// An HTTP answer, read whole.
#[derive(Clone, Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    pub fn content_type(&self) -> &str {
        self.header("content-type").unwrap_or("")
    }

    pub fn is_sse(&self) -> bool {
        self.content_type().starts_with("text/event-stream")
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn events(&self) -> Vec<Event> {
        assert!(self.is_sse(), "not an SSE answer ({} {}): {}", self.status, self.content_type(), self.text());
        parse_events(&self.body)
    }

    /// The body as one JSON value (a JSON answer).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    /// Every JSON-RPC message of the answer, whether a JSON body (object or batch array) or an
    /// SSE stream (events with non-empty data; arrays flattened).
    pub fn messages(&self) -> Vec<Value> {
        let values: Vec<Value> = if self.is_sse() {
            self.events().iter().filter_map(Event::json).collect()
        } else if self.body.is_empty() {
            vec![]
        } else {
            vec![self.json()]
        };
        values
            .into_iter()
            .flat_map(|v| match v {
                Value::Array(items) => items,
                other => vec![other],
            })
            .collect()
    }

    /// The message answering request `id`.
    pub fn answer(&self, id: &Value) -> Value {
        self.messages()
            .into_iter()
            .find(|m| m.get("id") == Some(id) && (m.get("result").is_some() || m.get("error").is_some()))
            .unwrap_or_else(|| panic!("no answer to id {id} in ({}): {}", self.status, self.text()))
    }
}

pub async fn read_reply(resp: reqwest::Response) -> Reply {
    match try_read_reply(resp).await {
        (reply, None) => reply,
        (_, Some(e)) => panic!("answer body: {e}"),
    }
}

/// The answer read whole, and the error that cut its body short (then the body is empty).
pub async fn try_read_reply(resp: reqwest::Response) -> (Reply, Option<reqwest::Error>) {
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let body = tokio::time::timeout(scaled(Duration::from_secs(60)), resp.bytes())
        .await
        .expect("answer body within 60 s (times the patience)");
    match body {
        Ok(body) => (Reply { status, headers, body }, None),
        Err(e) => (Reply { status, headers, body: Bytes::new() }, Some(e)),
    }
}

/// An SSE stream read as it arrives (GET streams stay open).
pub struct SseStream {
    pub status: u16,
    pub headers: HeaderMap,
    stream: futures_util::stream::BoxStream<'static, reqwest::Result<Bytes>>,
    buf: String,
    pending: VecDeque<Event>,
    pub ended: bool,
}

impl SseStream {
    pub fn new(resp: reqwest::Response) -> SseStream {
        SseStream {
            status: resp.status().as_u16(),
            headers: resp.headers().clone(),
            stream: resp.bytes_stream().boxed(),
            buf: String::new(),
            pending: VecDeque::new(),
            ended: false,
        }
    }

    /// The next event, or `None` when the stream ended or nothing came within `wait`.
    pub async fn next(&mut self, wait: Duration) -> Option<Event> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Some(ev) = self.pending.pop_front() {
                return Some(ev);
            }
            if self.ended {
                return None;
            }
            match tokio::time::timeout_at(deadline, self.stream.next()).await {
                Err(_) => return None,
                Ok(None) | Ok(Some(Err(_))) => self.ended = true,
                Ok(Some(Ok(chunk))) => {
                    self.buf.push_str(std::str::from_utf8(&chunk).expect("UTF-8 chunk"));
                    self.pending.extend(take_events(&mut self.buf));
                }
            }
        }
    }

    /// Events until one satisfies `found` (included), or panics after `wait`.
    pub async fn until(&mut self, wait: Duration, what: &str, found: impl Fn(&Event) -> bool) -> Vec<Event> {
        let wait = scaled(wait);
        let deadline = tokio::time::Instant::now() + wait;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            match self.next(left).await {
                Some(ev) => {
                    let hit = found(&ev);
                    seen.push(ev);
                    if hit {
                        return seen;
                    }
                }
                None => panic!("{what}: not seen within {wait:?} (stream ended: {}); events: {seen:#?}", self.ended),
            }
        }
    }
}

/// A Streamable HTTP client session, spoken by hand.
#[derive(Clone)]
pub struct Mcp {
    pub http: reqwest::Client,
    pub url: String,
    pub session: Option<String>,
    pub version: Option<String>,
    pub extra: Vec<(String, String)>,
    next_id: i64,
}

impl Mcp {
    pub fn new(url: impl Into<String>) -> Mcp {
        Mcp::with_client(reqwest::Client::new(), url)
    }

    /// A session on `url` sharing `http`'s connections.
    pub fn with_client(http: reqwest::Client, url: impl Into<String>) -> Mcp {
        Mcp { http, url: url.into(), session: None, version: None, extra: vec![], next_id: 1 }
    }

    /// Adds a header to every request.
    pub fn with_header(mut self, name: &str, value: &str) -> Mcp {
        self.extra.push((name.to_owned(), value.to_owned()));
        self
    }

    fn headers(&self) -> HeaderMap {
        let mut h = HeaderMap::new();
        let mut put = |k: &str, v: &str| {
            h.insert(HeaderName::try_from(k).unwrap(), HeaderValue::try_from(v).unwrap());
        };
        if let Some(s) = &self.session {
            put("mcp-session-id", s);
        }
        if let Some(v) = &self.version {
            put("mcp-protocol-version", v);
        }
        for (k, v) in &self.extra {
            put(k, v);
        }
        h
    }

    /// POSTs `body` as it is.
    pub async fn post_raw(&self, body: impl Into<reqwest::Body>) -> Reply {
        let resp = self.send_post(body).await.unwrap_or_else(|e| panic!("POST {}: {e}", self.url));
        read_reply(resp).await
    }

    /// POSTs `body` as it is and returns the response before its body is read.
    pub async fn send_post(&self, body: impl Into<reqwest::Body>) -> reqwest::Result<reqwest::Response> {
        self.http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", ACCEPT_BOTH)
            .headers(self.headers())
            .body(body)
            .send()
            .await
    }

    pub async fn post(&self, msg: &Value) -> Reply {
        self.post_raw(serde_json::to_vec(msg).unwrap()).await
    }

    pub fn next_id(&mut self) -> Value {
        self.next_id += 1;
        json!(self.next_id)
    }

    /// Sends a request with a fresh numeric id; returns the id and the reply.
    pub async fn request(&mut self, method: &str, params: Value) -> (Value, Reply) {
        let id = self.next_id();
        let mut msg = json!({"jsonrpc": "2.0", "id": id, "method": method});
        if !params.is_null() {
            msg["params"] = params;
        }
        let reply = self.post(&msg).await;
        (id, reply)
    }

    /// Sends a request and returns the message answering it.
    pub async fn call(&mut self, method: &str, params: Value) -> Value {
        let (id, reply) = self.request(method, params).await;
        reply.answer(&id)
    }

    pub async fn notify(&self, method: &str) -> Reply {
        self.post(&json!({"jsonrpc": "2.0", "method": method})).await
    }

    /// `initialize` at `version` with client `capabilities`; keeps the session id and version.
    pub async fn initialize_only(&mut self, version: &str, capabilities: Value) -> Reply {
        let msg = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": version,
            "capabilities": capabilities,
            "clientInfo": {"name": "gateway-tests-raw", "version": "1.0.0"},
        }});
        let reply = self.post(&msg).await;
        assert_eq!(reply.status, 200, "initialize: {}", reply.text());
        let answer = reply.answer(&json!(1));
        assert!(answer.get("result").is_some(), "initialize failed: {answer}");
        self.session = reply.header("mcp-session-id").map(str::to_owned);
        self.version = Some(version.to_owned());
        reply
    }

    /// `initialize` then `notifications/initialized`.
    pub async fn initialize(&mut self, version: &str, capabilities: Value) -> Reply {
        let reply = self.initialize_only(version, capabilities).await;
        let ack = self.notify("notifications/initialized").await;
        assert_eq!(ack.status, 202, "initialized: {}", ack.text());
        reply
    }

    /// Opens a GET stream (optionally resuming after `last_event_id`).
    pub async fn get_stream(&self, last_event_id: Option<&str>) -> SseStream {
        let mut rb = self.http.get(&self.url).header("accept", "text/event-stream").headers(self.headers());
        if let Some(id) = last_event_id {
            rb = rb.header("last-event-id", id);
        }
        let resp = rb.send().await.unwrap_or_else(|e| panic!("GET {}: {e}", self.url));
        SseStream::new(resp)
    }

    pub async fn delete(&self) -> Reply {
        let resp = self.http.delete(&self.url).headers(self.headers()).send().await.expect("DELETE");
        read_reply(resp).await
    }
}
