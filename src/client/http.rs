//! Fetching tools over HTTP: Streamable HTTP first (answers as JSON or SSE, the session id
//! and protocol version sent back on every later request, DELETE at the end); when the
//! initialize POST gets a 4xx, the legacy HTTP+SSE transport (GET the stream, follow its
//! `endpoint` event, POST there, read answers from the stream).

use futures_util::StreamExt;
use http::HeaderMap;
use serde_json::Value;
use tokio::sync::mpsc;

use super::{FetchError, Fetched, initialize_request, initialized_notification, list_request, result_of, take_page};
use crate::mcp::sse;

use crate::config::limits::max_answer_bytes;
use crate::mcp::answer::{STEP_TIMEOUT, io, read_answer as answer};

fn base_headers(extra: &[(String, String)]) -> Result<HeaderMap, FetchError> {
    let mut h = HeaderMap::new();
    for (k, v) in extra {
        let name = http::HeaderName::try_from(k.as_str()).map_err(|e| io(format!("header {k}: {e}")))?;
        h.insert(name, v.parse().map_err(|e| io(format!("header {k}: {e}")))?);
    }
    Ok(h)
}

/// Lists every tool of the server at `url`. `headers` go on every request (e.g. auth).
pub async fn fetch_url(url: &str, headers: &[(String, String)]) -> Result<Fetched, FetchError> {
    let client = reqwest::Client::builder().build().map_err(io)?;
    let base = base_headers(headers)?;
    let first = post(&client, url, &base, &initialize_request()).await?;
    if first.status().is_client_error() {
        tracing::debug!(status = %first.status(), "initialize POST refused; trying the legacy HTTP+SSE transport");
        return legacy(&client, url, &base).await;
    }
    let mut headers = base.clone();
    if let Some(sid) = first.headers().get("mcp-session-id") {
        headers.insert("mcp-session-id", sid.clone());
    }
    let init = result_of("initialize", answer(first, &Value::from(0), max_answer_bytes()).await?)?;
    if let Some(v) = init.get("protocolVersion").and_then(Value::as_str).and_then(|v| v.parse().ok()) {
        headers.insert("mcp-protocol-version", v);
    }
    let ack = post(&client, url, &headers, &initialized_notification()).await?;
    if !ack.status().is_success() {
        return Err(io(format!("the server answered notifications/initialized with {}", ack.status())));
    }
    let mut tools = Vec::new();
    let mut cursor = None;
    for page in 0.. {
        let req = list_request(page as u64 + 1, cursor.as_deref());
        let resp = post(&client, url, &headers, &req).await?;
        cursor = take_page(answer(resp, &req["id"], max_answer_bytes()).await?, &mut tools, page)?;
        if cursor.is_none() {
            break;
        }
    }
    if headers.contains_key("mcp-session-id") {
        let _ = client.delete(url).headers(headers).send().await;
    }
    Ok(Fetched::new(&init, tools))
}

async fn post(
    client: &reqwest::Client,
    url: &str,
    headers: &HeaderMap,
    body: &Value,
) -> Result<reqwest::Response, FetchError> {
    client
        .post(url)
        .headers(headers.clone())
        .header("accept", "application/json, text/event-stream")
        .json(body)
        .timeout(STEP_TIMEOUT)
        .send()
        .await
        .map_err(|e| io(format!("cannot reach {url}: {e}")))
}

/// The 2024-11-05 transport.
async fn legacy(client: &reqwest::Client, url: &str, headers: &HeaderMap) -> Result<Fetched, FetchError> {
    let resp = client
        .get(url)
        .headers(headers.clone())
        .header("accept", "text/event-stream")
        .send()
        .await
        .map_err(|e| io(format!("cannot reach {url}: {e}")))?;
    if !resp.status().is_success() {
        return Err(io(format!("{url} refused both transports (legacy GET answered {})", resp.status())));
    }
    let (tx, mut rx) = mpsc::channel::<sse::Event>(64);
    let reader = tokio::spawn(async move {
        let mut stream = resp.bytes_stream();
        let mut parser = sse::Parser::new();
        while let Some(Ok(chunk)) = stream.next().await {
            let Ok(events) = parser.push(&chunk) else { return };
            for ev in events {
                if tx.send(ev).await.is_err() {
                    return;
                }
            }
        }
    });
    let outcome = async {
        let endpoint = loop {
            let ev = tokio::time::timeout(STEP_TIMEOUT, rx.recv())
                .await
                .map_err(|_| FetchError::Timeout("endpoint".into()))?;
            let ev = ev.ok_or_else(|| io("the SSE stream ended before its endpoint event"))?;
            if String::from_utf8_lossy(&ev.raw)
                .lines()
                .any(|l| l.trim() == "event: endpoint" || l.trim() == "event:endpoint")
            {
                break ev.data.unwrap_or_default();
            }
        };
        let post_url = reqwest::Url::parse(url).and_then(|u| u.join(endpoint.trim())).map_err(io)?;
        let mut ask = async |req: Value| -> Result<Value, FetchError> {
            let id = req["id"].clone();
            let sent = client.post(post_url.clone()).headers(headers.clone()).json(&req).send().await.map_err(io)?;
            if !sent.status().is_success() {
                return Err(io(format!("the message endpoint answered {}", sent.status())));
            }
            loop {
                let ev = tokio::time::timeout(STEP_TIMEOUT, rx.recv())
                    .await
                    .map_err(|_| FetchError::Timeout("request".into()))?;
                let ev = ev.ok_or_else(|| io("the SSE stream ended"))?;
                let Some(msg) = ev.data.and_then(|d| serde_json::from_str::<Value>(&d).ok()) else { continue };
                if msg.get("id") == Some(&id) && msg.get("method").is_none() {
                    return Ok(msg);
                }
            }
        };
        let init = result_of("initialize", ask(initialize_request()).await?)?;
        client
            .post(post_url.clone())
            .headers(headers.clone())
            .json(&initialized_notification())
            .send()
            .await
            .map_err(io)?;
        let mut tools = Vec::new();
        let mut cursor = None;
        for page in 0.. {
            cursor = take_page(ask(list_request(page as u64 + 1, cursor.as_deref())).await?, &mut tools, page)?;
            if cursor.is_none() {
                break;
            }
        }
        Ok(Fetched::new(&init, tools))
    }
    .await;
    reader.abort();
    outcome
}
