//! The stdio tests' request helpers: free functions over a shared `reqwest::Client`, thin
//! wrappers over the one raw client, [`super::super::mcp`], whose answers they give as a
//! [`TextReply`] (each SSE event's data as text, read leniently).

use std::time::Duration;

use serde_json::{Value, json};

use super::super::mcp::{self, Mcp, parse_events_lenient};

/// An answer of the raw client ([`mcp::Reply`]) as text, read leniently: a body cut short is
/// empty, and a last SSE event without its blank line still counts.
#[derive(Debug)]
pub struct TextReply {
    pub status: u16,
    pub content_type: String,
    pub session: Option<String>,
    /// The body as text.
    pub raw: String,
    /// SSE: each event's data; JSON: the whole body once.
    pub events: Vec<String>,
}

impl TextReply {
    /// The view of an answer of the raw client (an empty body when it was cut short).
    fn from_raw(reply: &mcp::Reply) -> TextReply {
        let content_type = reply.content_type().to_owned();
        let raw = reply.text();
        let events = if reply.is_sse() {
            parse_events_lenient(&reply.body).into_iter().filter_map(|e| e.data).collect()
        } else if raw.trim().is_empty() {
            vec![]
        } else {
            vec![raw.clone()]
        };
        TextReply {
            status: reply.status,
            content_type,
            session: reply.header("mcp-session-id").map(str::to_owned),
            raw,
            events,
        }
    }

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

/// The raw client on `url` with `http`'s connections, in `session` (at 2025-06-18).
fn raw(http: &reqwest::Client, url: &str, session: Option<&str>) -> Mcp {
    let mut m = Mcp::with_client(http.clone(), url);
    if let Some(s) = session {
        m.session = Some(s.to_owned());
        m.version = Some("2025-06-18".to_owned());
    }
    m
}

/// POSTs `body`; `sse` says whether the client accepts an SSE answer (JSON is always accepted).
pub async fn post(http: &reqwest::Client, url: &str, session: Option<&str>, body: &Value, sse: bool) -> TextReply {
    let mut m = raw(http, url, session);
    if !sse {
        m = m.with_header("accept", "application/json");
    }
    let resp = m.send_post(serde_json::to_vec(body).unwrap()).await;
    // A body cut short reads as empty (the tests look at the status then).
    let (reply, _cut) = mcp::try_read_reply(resp.unwrap_or_else(|e| panic!("POST {url}: {e}"))).await;
    TextReply::from_raw(&reply)
}

pub async fn delete(http: &reqwest::Client, url: &str, session: &str) -> u16 {
    let mut m = raw(http, url, Some(session));
    m.version = None;
    m.delete().await.status
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
