//! The listener over HTTPS (rustls, a certificate made for the test), and the 2026-07-28
//! routing headers: `Mcp-Method`/`Mcp-Name` must agree with the body, which is what the policy
//! reads. A small JSON upstream of our own on loopback.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};

use tdqs_gateway::config::Config;
use tdqs_gateway::scoring::service::ScoringService;
use tdqs_gateway::server::{App, serve};

use crate::support::scratch::Scratch;

/// Answers every POST with a fixed tools/list-or-call result and counts what it received.
async fn upstream(seen: Arc<AtomicUsize>) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { continue };
            let seen = seen.clone();
            tokio::spawn(async move {
                let svc = service_fn(move |req: Request<hyper::body::Incoming>| {
                    let seen = seen.clone();
                    async move {
                        seen.fetch_add(1, Ordering::SeqCst);
                        let body = req.into_body().collect().await.unwrap().to_bytes();
                        let msg: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                        let result = if msg["method"] == "tools/list" {
                            json!({"tools": [
                                {"name": "lookup", "description": "Lookup."},
                                {"name": "search_orders", "description": "Search orders by customer, newest first. Read-only; use get_order for one order by id.", "inputSchema": {"type":"object","properties":{"customer":{"type":"string","description":"Customer id"}},"required":["customer"]}, "annotations": {"readOnlyHint": true}}
                            ], "ttlMs": 60000, "cacheScope": "public"})
                        } else {
                            json!({"content": [{"type": "text", "text": "ok"}]})
                        };
                        let out = json!({"jsonrpc": "2.0", "id": msg["id"], "result": result}).to_string();
                        Ok::<_, Infallible>(
                            Response::builder()
                                .header("content-type", "application/json")
                                .body(Full::new(Bytes::from(out)))
                                .unwrap(),
                        )
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), svc).await;
            });
        }
    });
    addr
}

async fn gateway(extra_listen: &str, up: SocketAddr) -> SocketAddr {
    let text = format!(
        "[listen]\naddr = \"127.0.0.1:0\"\n{extra_listen}\n[store]\nurl = \"memory\"\n[policy]\nmode = \"enforce\"\nmin_tier = \"B\"\n[[upstream]]\nname = \"shop\"\nurl = \"http://{up}/mcp\"\n"
    );
    let cfg = Config::parse(&text).unwrap();
    cfg.validate().unwrap();
    let gw = App::new(cfg, ScoringService::new(tdqs_gateway::judge::Judge::Heuristic, 1000)).unwrap();
    serve(gw).await.unwrap().local_addr
}

fn rpc(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn https_listener_serves_mcp_with_scores() {
    let scratch = Scratch::new("https-listener");
    let dir = &scratch.dir;
    let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
    std::fs::write(dir.join("cert.pem"), cert.cert.pem()).unwrap();
    std::fs::write(dir.join("key.pem"), cert.signing_key.serialize_pem()).unwrap();
    let up = upstream(Arc::default()).await;
    let tls =
        format!("tls_cert = \"{}\"\ntls_key = \"{}\"", dir.join("cert.pem").display(), dir.join("key.pem").display());
    let gw = gateway(&tls, up).await;

    let client = reqwest::Client::builder()
        .add_root_certificate(reqwest::Certificate::from_pem(cert.cert.pem().as_bytes()).unwrap())
        .build()
        .unwrap();
    let url = format!("https://localhost:{}/mcp/shop", gw.port());
    let resp = client.post(&url).json(&rpc(1, "tools/list", json!({}))).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    let v: Value = resp.json().await.unwrap();
    let tools = v["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1, "the terse tool is hidden under enforce: {v}");
    assert!(tools[0]["_meta"]["tdqs-gateway/score"]["tdqs"].is_number());
    // Plain HTTP to the TLS port gets no MCP answer.
    let plain = reqwest::Client::new().post(format!("http://127.0.0.1:{}/mcp/shop", gw.port())).send().await;
    assert!(plain.is_err() || !plain.unwrap().status().is_success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn routing_headers_must_match_the_body() {
    let seen = Arc::new(AtomicUsize::new(0));
    let up = upstream(seen.clone()).await;
    let gw = gateway("", up).await;
    let client = reqwest::Client::new();
    let url = format!("http://{gw}/mcp/shop");
    // Learn the tools (the terse one is hidden).
    let listed: Value =
        client.post(&url).json(&rpc(1, "tools/list", json!({}))).send().await.unwrap().json().await.unwrap();
    assert_eq!(listed["result"]["ttlMs"], 60000, "final scores leave ttlMs alone");
    assert_eq!(listed["result"]["cacheScope"], "public");
    let before = seen.load(Ordering::SeqCst);

    // A header naming an allowed tool cannot smuggle a call to a hidden one.
    let resp = client
        .post(&url)
        .header("mcp-method", "tools/call")
        .header("mcp-name", "search_orders")
        .json(&rpc(2, "tools/call", json!({"name": "lookup", "arguments": {}})))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 400);
    let v: Value = resp.json().await.unwrap();
    assert_eq!(v["error"]["code"], -32020, "{v}");
    assert_eq!(v["id"], 2);
    let resp = client
        .post(&url)
        .header("mcp-method", "tools/list")
        .json(&rpc(3, "tools/call", json!({"name": "search_orders", "arguments": {"customer": "c1"}})))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 400);
    assert_eq!(seen.load(Ordering::SeqCst), before, "mismatched requests never reach the upstream");

    // Matching headers pass; the body still decides.
    let ok: Value = client
        .post(&url)
        .header("mcp-method", "tools/call")
        .header("mcp-name", "search_orders")
        .json(&rpc(4, "tools/call", json!({"name": "search_orders", "arguments": {"customer": "c1"}})))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(ok["result"]["content"][0]["text"], "ok");
    let refused: Value = client
        .post(&url)
        .header("mcp-method", "tools/call")
        .header("mcp-name", "lookup")
        .json(&rpc(5, "tools/call", json!({"name": "lookup", "arguments": {}})))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(refused["error"]["code"], -32602);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_report_follows_the_listed_definitions() {
    let up = upstream(Arc::default()).await;
    let text = format!(
        "[listen]\naddr = \"127.0.0.1:0\"\n[store]\nurl = \"memory\"\n[policy]\nmode = \"annotate\"\n[[upstream]]\nname = \"shop\"\nurl = \"http://{up}/mcp\"\n"
    );
    let cfg = Config::parse(&text).unwrap();
    let gw = App::new(cfg, ScoringService::new(tdqs_gateway::judge::Judge::Heuristic, 1000)).unwrap();
    let addr = serve(gw.clone()).await.unwrap().local_addr;
    assert!(gw.gateway.catalog.upstreams["shop"].report().is_none(), "no report before anything was listed");
    let listed: Value = reqwest::Client::new()
        .post(format!("http://{addr}/mcp/shop"))
        .json(&rpc(1, "tools/list", json!({})))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let tdqs: Vec<f64> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["_meta"]["tdqs-gateway/score"]["tdqs"].as_f64().unwrap())
        .collect();
    let report = crate::support::patience::eventually("a report", std::time::Duration::from_secs(2), || {
        gw.gateway.catalog.upstreams["shop"].report()
    })
    .await;
    let s = serde_json::to_value(&report.report.server_score).unwrap();
    assert_eq!(s["toolCount"], 2);
    assert_eq!(s["scoredToolCount"], 2);
    // The report's numbers are the rollup of the scores the client saw.
    let min = tdqs.iter().cloned().fold(f64::MAX, f64::min);
    assert_eq!(s["minTdqs"].as_f64().unwrap(), min);
    assert!(s["overallTier"].is_string() && s["coherenceScore"].is_number());
    assert_eq!(report.coherence_judge, "heuristic-9");
}

/// Reads SSE events from a byte stream until `want` data events arrived (or 5 s passed).
async fn sse_events(
    stream: &mut (impl futures_util::Stream<Item = reqwest::Result<Bytes>> + Unpin),
    want: usize,
) -> Vec<(String, String)> {
    use futures_util::StreamExt;
    let mut parser = tdqs_gateway::mcp::sse::Parser::new();
    let mut out = Vec::new();
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
    while out.len() < want {
        let Ok(Some(Ok(chunk))) = tokio::time::timeout_at(deadline, stream.next()).await else { break };
        for ev in parser.push(&chunk).unwrap() {
            let raw = String::from_utf8_lossy(&ev.raw).to_string();
            let name = raw.lines().find_map(|l| l.strip_prefix("event: ")).unwrap_or("message").to_owned();
            out.push((name, ev.data.unwrap_or_default()));
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn old_clients_reach_new_upstreams_through_a_bridge() {
    let seen = Arc::new(AtomicUsize::new(0));
    let up = upstream(seen.clone()).await;
    let gw = gateway("", up).await;
    let client = reqwest::Client::new();
    let resp = client.get(format!("http://{gw}/sse/shop")).send().await.unwrap();
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    let mut stream = resp.bytes_stream();
    let first = sse_events(&mut stream, 1).await;
    assert_eq!(first[0].0, "endpoint");
    let endpoint = first[0].1.clone();
    assert!(endpoint.starts_with("/messages/shop?session_id="), "{endpoint}");
    let post = |body: Value| {
        let (client, url) = (client.clone(), format!("http://{gw}{endpoint}"));
        async move { client.post(url).json(&body).send().await.unwrap().status() }
    };
    // One after the other: the bridge handles POSTs concurrently, as a server would.
    assert_eq!(post(rpc(1, "tools/list", json!({}))).await, 202);
    let mut events = sse_events(&mut stream, 1).await;
    assert_eq!(post(rpc(2, "tools/call", json!({"name": "lookup", "arguments": {}}))).await, 202);
    events.extend(sse_events(&mut stream, 1).await);
    let msgs: Vec<Value> = events.iter().map(|(_, d)| serde_json::from_str(d).unwrap()).collect();
    let list = msgs.iter().find(|m| m["id"] == 1).expect("the list answer on the stream");
    let names: Vec<&str> =
        list["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["search_orders"], "filtered by the policy");
    let refused = msgs.iter().find(|m| m["id"] == 2).expect("the refusal on the stream");
    assert_eq!(refused["error"]["code"], -32602);
    assert_eq!(seen.load(Ordering::SeqCst), 1, "only the list reached the upstream");
    assert_eq!(
        client
            .post(format!("http://{gw}/messages/shop?session_id=nope"))
            .json(&rpc(3, "ping", json!({})))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
}
