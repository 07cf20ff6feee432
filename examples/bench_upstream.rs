//! A fast MCP upstream for load tests of the proxy (`scripts/bench-proxy.sh`): a small hyper
//! server answering stateless Streamable HTTP POSTs with `application/json`, no sessions.
//!
//! Usage: bench_upstream [--listen ADDR] [--threads N] [--delay-ms MS] [--tools N]
//!        bench_upstream --dump-tools [--tools N]
//!
//! - `tools/list` returns N (default 100) realistic tool definitions, generated
//!   deterministically (the same bytes on every run and every machine), varied in names,
//!   description quality and length, schema shapes, titles, annotations and output schemas;
//! - `bench/tools_raw` returns the same result under a method the gateway does not intercept,
//!   so a run with it measures moving the bytes alone;
//! - `tools/call` returns a small text result naming the tool;
//! - `initialize` and `ping` get minimal answers; notifications and responses get 202;
//!   anything else gets `-32601`.
//!
//! `--delay-ms` holds every answer that long, to stand in for a server that does real work.
//! `--dump-tools` prints the tools as a JSON array (for the stdio server the peer proxies front)
//! and exits. Once listening, the bound address is printed on stdout as `listening on ADDR`.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use bytes::Bytes;
use http::{Method, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use serde::Deserialize;
use serde_json::json;
use serde_json::value::RawValue;
use tokio::net::TcpListener;

#[path = "../benches/proxy/tools.rs"]
mod tools;
use tools::tool_definitions;

struct Options {
    listen: SocketAddr,
    threads: usize,
    delay: Duration,
    tools: usize,
    dump: bool,
}

fn parse_args() -> Result<Options> {
    let mut o = Options { listen: "127.0.0.1:0".parse()?, threads: 2, delay: Duration::ZERO, tools: 100, dump: false };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--listen" => o.listen = value()?.parse().context("--listen")?,
            "--threads" => o.threads = value()?.parse().context("--threads")?,
            "--delay-ms" => o.delay = Duration::from_millis(value()?.parse().context("--delay-ms")?),
            "--tools" => o.tools = value()?.parse().context("--tools")?,
            "--dump-tools" => o.dump = true,
            "-h" | "--help" => {
                println!("bench_upstream [--listen ADDR] [--threads N] [--delay-ms MS] [--tools N] [--dump-tools]");
                std::process::exit(0);
            }
            other => bail!("unknown argument {other:?}"),
        }
    }
    Ok(o)
}

/// What the server answers with; the list result is serialized once, and each response is the
/// request's id spliced into canned text.
struct Answers {
    list_result: Bytes,
    delay: Duration,
}

#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(default)]
    method: Option<&'a str>,
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct CallParams<'a> {
    #[serde(default)]
    name: &'a str,
}

fn response(id: &str, result: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(40 + id.len() + result.len());
    out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    out.extend_from_slice(id.as_bytes());
    out.extend_from_slice(b",\"result\":");
    out.extend_from_slice(result);
    out.push(b'}');
    out
}

fn error(id: &str, code: i32, message: &str) -> Vec<u8> {
    let e = json!({"code": code, "message": message});
    let mut out = b"{\"jsonrpc\":\"2.0\",\"id\":".to_vec();
    out.extend_from_slice(id.as_bytes());
    out.extend_from_slice(b",\"error\":");
    out.extend_from_slice(e.to_string().as_bytes());
    out.push(b'}');
    out
}

fn reply(status: StatusCode, body: Vec<u8>) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from(body)));
    *r.status_mut() = status;
    if status != StatusCode::ACCEPTED {
        r.headers_mut().insert(header::CONTENT_TYPE, http::HeaderValue::from_static("application/json"));
    }
    r
}

/// The status and body answering one request body.
fn answer(a: &Answers, body: &[u8]) -> (StatusCode, Vec<u8>) {
    let Ok(env) = serde_json::from_slice::<Envelope>(body) else {
        return (StatusCode::BAD_REQUEST, error("null", -32700, "parse error"));
    };
    let (Some(id), Some(method)) = (env.id, env.method) else {
        // A notification or a response: accepted, nothing to say.
        return (StatusCode::ACCEPTED, Vec::new());
    };
    let id = id.get();
    let body = match method {
        "tools/list" | "bench/tools_raw" => response(id, &a.list_result),
        "tools/call" => {
            let name = env.params.and_then(|p| serde_json::from_str::<CallParams>(p.get()).ok()).map_or("", |p| p.name);
            let result = json!({
                "content": [{"type": "text", "text": format!("{name}: done (bench upstream)")}],
                "isError": false,
            });
            response(id, result.to_string().as_bytes())
        }
        "initialize" => {
            let result = json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {"listChanged": false}},
                "serverInfo": {"name": "bench-upstream", "version": "1.0.0"},
            });
            response(id, result.to_string().as_bytes())
        }
        "ping" => response(id, b"{}"),
        other => error(id, -32601, &format!("method not found: {other}")),
    };
    (StatusCode::OK, body)
}

async fn handle(a: Arc<Answers>, req: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    if req.method() != Method::POST {
        return Ok(reply(StatusCode::METHOD_NOT_ALLOWED, Vec::new()));
    }
    let body = match req.into_body().collect().await {
        Ok(b) => b.to_bytes(),
        Err(_) => return Ok(reply(StatusCode::BAD_REQUEST, Vec::new())),
    };
    if !a.delay.is_zero() {
        tokio::time::sleep(a.delay).await;
    }
    let (status, body) = answer(&a, &body);
    Ok(reply(status, body))
}

fn main() -> Result<()> {
    let o = parse_args()?;
    let tools = tool_definitions(o.tools);
    if o.dump {
        println!("{}", serde_json::to_string_pretty(&tools)?);
        return Ok(());
    }
    let list_result = Bytes::from(serde_json::to_vec(&json!({ "tools": tools }))?);
    let answers = Arc::new(Answers { list_result, delay: o.delay });
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(o.threads.max(1)).enable_all().build()?;
    runtime.block_on(async move {
        let listener = TcpListener::bind(o.listen).await.with_context(|| format!("cannot listen on {}", o.listen))?;
        println!("listening on {}", listener.local_addr()?);
        loop {
            let (stream, _) = listener.accept().await?;
            let _ = stream.set_nodelay(true);
            let a = answers.clone();
            tokio::spawn(async move {
                let service = service_fn(move |req| handle(a.clone(), req));
                let _ = http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
            });
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_are_deterministic_and_varied() {
        let a = tool_definitions(100);
        assert_eq!(a, tool_definitions(100));
        let names: std::collections::HashSet<&str> = a.iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(names.len(), 100, "names are unique");
        assert!(names.contains("search_issues"), "the tool the load script calls");
        assert!(a.iter().any(|t| t.get("description").is_none()));
        assert!(a.iter().any(|t| t.get("outputSchema").is_some()));
        assert!(a.iter().any(|t| t.get("title").is_some()));
    }

    #[test]
    fn answers_echo_the_id() {
        let a = Answers { list_result: Bytes::from_static(b"{\"tools\":[]}"), delay: Duration::ZERO };
        let (status, body) = answer(&a, br#"{"jsonrpc":"2.0","id":"x-7","method":"tools/list"}"#);
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, br#"{"jsonrpc":"2.0","id":"x-7","result":{"tools":[]}}"#);
        let (_, body) = answer(&a, br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_file"}}"#);
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["id"], 3);
        assert_eq!(v["result"]["content"][0]["text"], "get_file: done (bench upstream)");
        let (status, _) = answer(&a, br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        assert_eq!(status, StatusCode::ACCEPTED);
        let (_, body) = answer(&a, br#"{"jsonrpc":"2.0","id":1,"method":"nope"}"#);
        assert!(String::from_utf8(body).unwrap().contains("-32601"));
    }
}
