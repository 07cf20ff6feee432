//! The upstream side of the proxy alone: N POSTs to an MCP upstream (`examples/bench_upstream`)
//! through reqwest as `forward.rs` sent them before (the URL string parsed per request, the
//! builder, `send`), or through the gateway's hyper-util client (`proxy/upstream_client.rs`,
//! `proxy/upstream_target.rs`: URL split once, pooled hyper client), each answer read whole.
//! Run it under callgrind for instructions per request (benches/PROFILE.md), or side by side
//! for a throughput ratio.
//!
//! Usage: upstream_client_bench --url URL --client reqwest|hyper [--requests N] [--tasks T]
//!        [--method tools/call|tools/list]
//! Prints `CLIENT requests N seconds S rps R`.

use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Method, header};
use http_body_util::BodyExt;
use tdqs_gateway::proxy::upstream_target::UpstreamTarget;

struct Options {
    url: String,
    client: String,
    requests: usize,
    tasks: usize,
    method: String,
}

fn parse_args() -> Result<Options> {
    let mut o =
        Options { url: String::new(), client: "hyper".into(), requests: 10_000, tasks: 1, method: "tools/call".into() };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--url" => o.url = value()?,
            "--client" => o.client = value()?,
            "--requests" => o.requests = value()?.parse()?,
            "--tasks" => o.tasks = value()?.parse()?,
            "--method" => o.method = value()?,
            other => bail!("unknown argument {other:?}"),
        }
    }
    if o.url.is_empty() {
        bail!("--url is required");
    }
    Ok(o)
}

/// The headers a client sends through the gateway, as `headers::upstream_request` leaves them.
fn client_headers() -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    h.insert(header::ACCEPT, HeaderValue::from_static("application/json, text/event-stream"));
    h.insert("mcp-protocol-version", HeaderValue::from_static("2025-06-18"));
    h.insert(header::USER_AGENT, HeaderValue::from_static("bench"));
    h
}

// One value per run, behind an Arc: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
enum Sender {
    Reqwest(reqwest::Client, String),
    Hyper(UpstreamTarget),
}

impl Sender {
    async fn one(&self, body: Bytes) -> Result<usize> {
        let headers = client_headers();
        match self {
            Sender::Reqwest(client, url) => {
                // As forward::send: a fresh String URL per request, parsed by reqwest.
                let url = url.clone();
                let resp = client.request(Method::POST, &url).headers(headers).body(body).send().await?;
                Ok(resp.bytes().await?.len())
            }
            Sender::Hyper(target) => {
                let mut req = http::Request::new(http_body_util::Full::new(body));
                *req.method_mut() = Method::POST;
                *req.uri_mut() = target.uri(None)?;
                *req.headers_mut() = headers;
                let resp =
                    target.client.send(req, target.response_timeout).await.map_err(|e| anyhow::anyhow!("{e}"))?;
                Ok(resp.body.collect().await?.to_bytes().len())
            }
        }
    }
}

fn main() -> Result<()> {
    let o = parse_args()?;
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(o.tasks.clamp(1, 2)).enable_all().build()?;
    runtime.block_on(async move {
        let sender = Arc::new(match o.client.as_str() {
            "reqwest" => Sender::Reqwest(
                reqwest::Client::builder()
                    .pool_idle_timeout(std::time::Duration::from_secs(90))
                    .redirect(reqwest::redirect::Policy::none())
                    .build()?,
                o.url.clone(),
            ),
            "hyper" => Sender::Hyper(
                UpstreamTarget::for_url(&o.url, std::time::Duration::from_secs(10)).map_err(anyhow::Error::msg)?,
            ),
            other => bail!("--client reqwest|hyper, not {other:?}"),
        });
        let params =
            if o.method == "tools/call" { r#"{"name":"search_issues","arguments":{"query":"x"}}"# } else { "{}" };
        let body = Bytes::from(format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{}","params":{params}}}"#, o.method));
        sender.one(body.clone()).await?; // the connection, before the clock starts
        let started = Instant::now();
        let per_task = o.requests / o.tasks.max(1);
        let mut handles = Vec::new();
        for _ in 0..o.tasks.max(1) {
            let (sender, body) = (sender.clone(), body.clone());
            handles.push(tokio::spawn(async move {
                for _ in 0..per_task {
                    sender.one(body.clone()).await?;
                }
                Ok::<_, anyhow::Error>(())
            }));
        }
        for h in handles {
            h.await??;
        }
        let secs = started.elapsed().as_secs_f64();
        let n = per_task * o.tasks.max(1);
        println!("{} requests {n} seconds {secs:.3} rps {:.0}", o.client, n as f64 / secs);
        Ok(())
    })
}
