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

/// The message answering `id` in a JSON or SSE response, reading at most `limit` bytes of a
/// JSON body (or of one SSE event) and taking at most [`STEP_TIMEOUT`] in all: a server that
/// answers without end, or never finishes, gets an error instead of the reader's memory.
pub async fn read_answer(resp: reqwest::Response, id: &Value, limit: usize) -> Result<Value, FetchError> {
    tokio::time::timeout(STEP_TIMEOUT, read_within(resp, id, limit))
        .await
        .map_err(|_| FetchError::Timeout("request".into()))?
}

async fn read_within(resp: reqwest::Response, id: &Value, limit: usize) -> Result<Value, FetchError> {
    let status = resp.status();
    let is_sse = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.starts_with("text/event-stream"));
    let mut stream = resp.bytes_stream();
    if !status.is_success() {
        let body = whole_body(&mut stream, 4096).await.unwrap_or_else(|(partial, _)| partial);
        let text = String::from_utf8_lossy(&body);
        return Err(io(format!("the server answered {status}: {}", text.chars().take(300).collect::<String>())));
    }
    let find = |v: Value| -> Option<Value> {
        match v {
            Value::Array(items) => items.into_iter().find(|m| m.get("id") == Some(id) && m.get("method").is_none()),
            m if m.get("id") == Some(id) && m.get("method").is_none() => Some(m),
            _ => None,
        }
    };
    if !is_sse {
        let body = whole_body(&mut stream, limit).await.map_err(|(_, e)| e)?;
        let v: Value = serde_json::from_slice(&body).map_err(io)?;
        return find(v)
            .ok_or_else(|| FetchError::Protocol { method: "request".into(), detail: "no answer with our id".into() });
    }
    let mut parser = sse::Parser::with_max(limit);
    while let Some(chunk) = stream.next().await {
        for ev in parser.push(&chunk.map_err(io)?).map_err(io)? {
            if let Some(found) = ev.data.and_then(|d| serde_json::from_str(&d).ok()).and_then(find) {
                return Ok(found);
            }
        }
    }
    Err(io("the stream ended without an answer"))
}

/// A body of at most `limit` bytes; past it, or on a broken stream, what was read and why not.
async fn whole_body(
    stream: &mut (impl futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Unpin),
    limit: usize,
) -> Result<Vec<u8>, (Vec<u8>, FetchError)> {
    let mut body = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = match chunk {
            Ok(c) => c,
            Err(e) => return Err((body, io(e))),
        };
        if body.len() + chunk.len() > limit {
            let room = limit - body.len();
            body.extend_from_slice(&chunk[..room]);
            return Err((body, io(format!("the answer is over {limit} bytes"))));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(content_type: &str, body: Vec<u8>) -> reqwest::Response {
        let mut r = http::Response::new(reqwest::Body::from(body));
        r.headers_mut().insert("content-type", content_type.parse().unwrap());
        reqwest::Response::from(r)
    }

    #[tokio::test]
    async fn an_answer_over_the_limit_is_an_error_in_json_and_in_sse() {
        let id = Value::from(7);
        let small = br#"{"jsonrpc":"2.0","id":7,"result":{}}"#.to_vec();
        assert!(read_answer(response("application/json", small.clone()), &id, 1024).await.is_ok());
        let e = read_answer(response("application/json", small), &id, 10).await.unwrap_err();
        assert!(e.to_string().contains("over 10 bytes"), "{e}");
        let padded = format!(r#"{{"jsonrpc":"2.0","id":7,"result":{{"pad":"{}"}}}}"#, "x".repeat(5000));
        let event = format!("event: message\ndata: {padded}\n\n").into_bytes();
        assert!(read_answer(response("text/event-stream", event.clone()), &id, 1 << 20).await.is_ok());
        // The SSE parser bounds what it holds of an unfinished event: the same event arriving in
        // pieces is refused once the held part passes the limit.
        let pieces: Vec<Result<bytes::Bytes, std::io::Error>> =
            event.chunks(512).map(|c| Ok(bytes::Bytes::copy_from_slice(c))).collect();
        let mut r = http::Response::new(reqwest::Body::wrap_stream(futures_util::stream::iter(pieces)));
        r.headers_mut().insert("content-type", "text/event-stream".parse().unwrap());
        assert!(read_answer(reqwest::Response::from(r), &id, 1024).await.is_err());
    }
}
