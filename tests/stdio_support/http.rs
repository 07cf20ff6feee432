//! A raw Streamable HTTP client for what the SDK clients hide: status codes, headers, every SSE
//! event as sent, JSON versus SSE answers, DELETE.

use std::time::Duration;

use serde_json::{Value, json};

/// What one request got back.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub session: Option<String>,
    /// The body as text.
    pub raw: String,
    /// SSE: each event's data; JSON: the whole body once.
    pub events: Vec<String>,
}

impl Reply {
    /// Every event parsed as JSON (an array body gives its items); panics on one that is not.
    pub fn messages(&self) -> Vec<Value> {
        let mut out = Vec::new();
        for e in &self.events {
            match serde_json::from_str::<Value>(e) {
                Ok(Value::Array(items)) => out.extend(items),
                Ok(v) => out.push(v),
                Err(err) => panic!("an event is not JSON ({err}): {e:?}\nwhole reply: {}", self.raw),
            }
        }
        out
    }

    /// The answer (result or error) to request `id`.
    pub fn answer(&self, id: &Value) -> Option<Value> {
        self.messages().into_iter().find(|m| m.get("id") == Some(id) && m.get("method").is_none())
    }

    /// The `error` object of the answer to `id`; panics when the answer is missing or a result.
    pub fn error_of(&self, id: &Value) -> Value {
        let a = self.answer(id).unwrap_or_else(|| panic!("no answer to id {id}: {self:#?}"));
        a.get("error").cloned().unwrap_or_else(|| panic!("expected an error for id {id}, got {a}"))
    }
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder().timeout(Duration::from_secs(60)).build().expect("http client")
}

fn parse_sse(body: &str) -> Vec<String> {
    let mut events = Vec::new();
    for block in body.replace("\r\n", "\n").split("\n\n") {
        let data: Vec<&str> =
            block.lines().filter_map(|l| l.strip_prefix("data:")).map(|d| d.strip_prefix(' ').unwrap_or(d)).collect();
        if !data.is_empty() {
            events.push(data.join("\n"));
        }
    }
    events
}

async fn reply(resp: reqwest::Response) -> Reply {
    let status = resp.status().as_u16();
    let header = |n: &str| resp.headers().get(n).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let content_type = header("content-type").unwrap_or_default();
    let session = header("mcp-session-id");
    let raw = resp.text().await.unwrap_or_default();
    let events = if content_type.starts_with("text/event-stream") {
        parse_sse(&raw)
    } else if raw.trim().is_empty() {
        vec![]
    } else {
        vec![raw.clone()]
    };
    Reply { status, content_type, session, raw, events }
}

/// POSTs `body`; `sse` says whether the client accepts an SSE answer (JSON is always accepted).
pub async fn post(http: &reqwest::Client, url: &str, session: Option<&str>, body: &Value, sse: bool) -> Reply {
    let accept = if sse { "application/json, text/event-stream" } else { "application/json" };
    let mut req = http.post(url).header("content-type", "application/json").header("accept", accept).json(body);
    if let Some(s) = session {
        req = req.header("mcp-session-id", s).header("mcp-protocol-version", "2025-06-18");
    }
    reply(req.send().await.unwrap_or_else(|e| panic!("POST {url}: {e}"))).await
}

pub async fn delete(http: &reqwest::Client, url: &str, session: &str) -> u16 {
    let resp = http.delete(url).header("mcp-session-id", session).send().await;
    resp.unwrap_or_else(|e| panic!("DELETE {url}: {e}")).status().as_u16()
}

pub fn initialize_request(id: i64) -> Value {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "stdio-tests-raw", "version": "1.0.0"}
        }
    })
}

pub fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

pub fn call_request(id: i64, tool: &str, args: Value) -> Value {
    request(id, "tools/call", json!({"name": tool, "arguments": args}))
}

/// initialize + notifications/initialized; returns the session id.
pub async fn open_session(http: &reqwest::Client, url: &str) -> String {
    let r = post(http, url, None, &initialize_request(0), true).await;
    assert_eq!(r.status, 200, "initialize at {url}: {r:#?}");
    let session = r.session.clone().unwrap_or_else(|| panic!("no Mcp-Session-Id from {url}: {r:#?}"));
    let result = r.answer(&json!(0)).and_then(|a| a.get("result").cloned());
    assert!(result.is_some(), "initialize answer at {url}: {r:#?}");
    let ack =
        post(http, url, Some(&session), &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}), true).await;
    assert_eq!(ack.status, 202, "notifications/initialized: {ack:#?}");
    session
}
