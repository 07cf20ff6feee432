//! Reading the answer to a request the gateway or the CLI sent itself (a learn's `tools/list`,
//! `score`'s initialize): the message with our id in a JSON body or an SSE stream, bounded in
//! time.

use std::time::Duration;

use futures_util::StreamExt;
use serde_json::Value;

use super::sse;

/// How long one step of a conversation of our own may take.
pub const STEP_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error("{0}")]
    Io(String),
    #[error("the server answered {method} with an error: {error}")]
    Rpc { method: String, error: String },
    #[error("the server did not answer {0} in time")]
    Timeout(String),
    #[error("unexpected answer to {method}: {detail}")]
    Protocol { method: String, detail: String },
}

pub fn io(e: impl std::fmt::Display) -> FetchError {
    FetchError::Io(e.to_string())
}

/// The message answering `id` in a JSON or SSE response.
pub async fn read_answer(resp: reqwest::Response, id: &Value) -> Result<Value, FetchError> {
    let status = resp.status();
    if !status.is_success() {
        let body = resp.text().await.unwrap_or_default();
        return Err(io(format!("the server answered {status}: {}", body.chars().take(300).collect::<String>())));
    }
    let is_sse = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.starts_with("text/event-stream"));
    let find = |v: Value| -> Option<Value> {
        match v {
            Value::Array(items) => items.into_iter().find(|m| m.get("id") == Some(id) && m.get("method").is_none()),
            m if m.get("id") == Some(id) && m.get("method").is_none() => Some(m),
            _ => None,
        }
    };
    if !is_sse {
        let v: Value = resp.json().await.map_err(io)?;
        return find(v)
            .ok_or_else(|| FetchError::Protocol { method: "request".into(), detail: "no answer with our id".into() });
    }
    let mut stream = resp.bytes_stream();
    let mut parser = sse::Parser::new();
    let read = async {
        while let Some(chunk) = stream.next().await {
            for ev in parser.push(&chunk.map_err(io)?).map_err(io)? {
                if let Some(found) = ev.data.and_then(|d| serde_json::from_str(&d).ok()).and_then(find) {
                    return Ok(found);
                }
            }
        }
        Err(io("the stream ended without an answer"))
    };
    tokio::time::timeout(STEP_TIMEOUT, read).await.map_err(|_| FetchError::Timeout("request".into()))?
}
