//! The gateway with a model judge: heuristic scores served at once (provisional), one model
//! call per definition however many clients list at once, and, when the refined scores change
//! what a client may see, `notifications/tools/list_changed` on its listening stream. Real
//! sockets throughout: a loopback model server, a small MCP upstream of our own, the gateway.

use crate::support::model_server;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt;
use http_body_util::{BodyExt, Full, StreamBody};
use hyper::body::Frame;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};

use model_server::{Behaviour, ModelServer, tool_answer};
use tdqs_gateway::config::Config;
use tdqs_gateway::scoring::service::ScoringService;
use tdqs_gateway::server::{App, serve};

/// A terse description the heuristic rates low but our scripted model rates 5 everywhere.
const TOOLS: &str = r#"[
  {"name":"lookup","description":"Lookup.","inputSchema":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}},
  {"name":"fetch_invoice","description":"Fetch one invoice by id, with its line items and payment status. Read-only; use list_invoices to search.","inputSchema":{"type":"object","properties":{"id":{"type":"string","description":"Invoice id, e.g. INV-1042"}},"required":["id"]},"annotations":{"readOnlyHint":true}}
]"#;

type Body = http_body_util::combinators::BoxBody<Bytes, Infallible>;

/// A minimal MCP upstream: JSON answers to POST, a GET stream that stays open, counts calls.
async fn upstream(calls: Arc<AtomicUsize>) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { continue };
            let calls = calls.clone();
            tokio::spawn(async move {
                let svc = service_fn(move |req: Request<hyper::body::Incoming>| {
                    let calls = calls.clone();
                    async move { Ok::<_, Infallible>(answer(req, &calls).await) }
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), svc).await;
            });
        }
    });
    addr
}

async fn answer(req: Request<hyper::body::Incoming>, calls: &AtomicUsize) -> Response<Body> {
    if req.method() == hyper::Method::GET {
        // Open and silent until the client leaves.
        let stream = futures_util::stream::iter([Ok::<_, Infallible>(Frame::data(Bytes::from_static(b": open\n\n")))])
            .chain(futures_util::stream::pending());
        return Response::builder()
            .header("content-type", "text/event-stream")
            .body(BodyExt::boxed(StreamBody::new(stream)))
            .unwrap();
    }
    let body = req.into_body().collect().await.unwrap().to_bytes();
    let msg: Value = serde_json::from_slice(&body).unwrap();
    if msg["method"] == "subscriptions/listen" {
        // 2026-07-28: a long-lived POST stream for list changes; open and silent here.
        let stream =
            futures_util::stream::iter([Ok::<_, Infallible>(Frame::data(Bytes::from_static(b": listening\n\n")))])
                .chain(futures_util::stream::pending());
        return Response::builder()
            .header("content-type", "text/event-stream")
            .body(BodyExt::boxed(StreamBody::new(stream)))
            .unwrap();
    }
    let result = match msg["method"].as_str() {
        Some("tools/list") => json!({ "tools": serde_json::from_str::<Value>(TOOLS).unwrap() }),
        Some("tools/call") => {
            calls.fetch_add(1, Ordering::SeqCst);
            json!({ "content": [{ "type": "text", "text": "ok" }] })
        }
        _ => json!({}),
    };
    let out = json!({ "jsonrpc": "2.0", "id": msg["id"], "result": result });
    Response::builder()
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(out.to_string())).boxed())
        .unwrap()
}

async fn gateway(model: &ModelServer, up: SocketAddr, policy: &str) -> SocketAddr {
    let text = format!(
        r#"
        [listen]
        addr = "127.0.0.1:0"
        [judge]
        kind = "openai"
        base_url = "{}"
        model = "scripted-model"
        timeout_ms = 5000
        [policy]
        {policy}
        [[upstream]]
        name = "billing"
        url = "http://{up}/mcp"
        "#,
        model.base_url()
    );
    let cfg = Config::parse(&text).unwrap();
    cfg.validate().unwrap();
    let judge = tdqs_gateway::judge::Judge::Model {
        client: tdqs_gateway::judge::ModelClient::new({
            let mut s = tdqs_gateway::judge::ModelSettings::new(model.base_url(), "scripted-model");
            s.backoff = Duration::from_millis(5);
            s.max_attempts = 2;
            s
        })
        .unwrap(),
        prompts: tdqs_gateway::judge::Prompts::builtin(),
    };
    let gw = App::new(cfg, ScoringService::new(judge, 1000)).unwrap();
    serve(gw).await.unwrap().local_addr
}

async fn post(gw: SocketAddr, body: Value) -> Value {
    let resp = reqwest::Client::new()
        .post(format!("http://{gw}/mcp/billing"))
        .header("accept", "application/json, text/event-stream")
        .json(&body)
        .send()
        .await
        .unwrap();
    resp.json().await.unwrap()
}

async fn list(gw: SocketAddr) -> Vec<Value> {
    let v = post(gw, json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})).await;
    v["result"]["tools"].as_array().unwrap().clone()
}

fn meta(tool: &Value) -> &Value {
    &tool["_meta"]["tdqs-gateway/score"]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn provisional_then_refined_with_list_changed_and_one_call_per_definition() {
    let model = ModelServer::start();
    model.set_tool_answer("lookup", tool_answer([5, 5, 5, 5, 5, 5], false, "scripted"));
    model.set_tool_answer("fetch_invoice", tool_answer([2, 2, 2, 2, 2, 2], false, "scripted"));
    model.set_canned_delay(Duration::from_millis(2_000));
    let calls = Arc::new(AtomicUsize::new(0));
    let up = upstream(calls.clone()).await;
    let gw = gateway(&model, up, "mode = \"enforce\"\nmin_tier = \"A\"\npending = \"provisional\"").await;

    // A listening stream, opened before anything is scored.
    let listen = reqwest::Client::new()
        .get(format!("http://{gw}/mcp/billing"))
        .header("accept", "text/event-stream")
        .send()
        .await
        .unwrap();
    assert_eq!(listen.headers()["content-type"], "text/event-stream");
    let mut events = listen.bytes_stream();

    // Ten clients list at once: everyone gets heuristic scores now.
    let lists = futures_util::future::join_all((0..10).map(|_| list(gw))).await;
    for tools in &lists {
        let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["fetch_invoice"], "the heuristic rates the terse tool below A");
        assert_eq!(meta(&tools[0])["provisional"], true);
        assert_eq!(meta(&tools[0])["judge"], "heuristic-9");
    }
    // A refused call never reaches the upstream.
    let refused = post(
        gw,
        json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lookup","arguments":{"q":"x"}}}),
    )
    .await;
    assert_eq!(refused["error"]["code"], -32602);
    assert_eq!(calls.load(Ordering::SeqCst), 0);

    // The model's answers land; the visible set flips and the listening client hears of it.
    let notice = tokio::time::timeout(Duration::from_secs(10), async {
        let mut seen = String::new();
        while let Some(chunk) = events.next().await {
            seen.push_str(&String::from_utf8_lossy(&chunk.unwrap()));
            if seen.contains("notifications/tools/list_changed") {
                return seen;
            }
        }
        seen
    })
    .await
    .expect("list_changed within 10 s");
    assert!(notice.contains("\"method\":\"notifications/tools/list_changed\""));

    let tools = list(gw).await;
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["lookup"], "refined: the model rates lookup A and fetch_invoice D");
    assert_eq!(meta(&tools[0])["provisional"], false);
    assert_eq!(meta(&tools[0])["judge"], "scripted-model");
    assert_eq!(meta(&tools[0])["tdqs"], 5.0);

    // One judge call per definition, however many clients asked.
    assert_eq!(model.requests_for("TOOL NAME: lookup").len(), 1);
    assert_eq!(model.requests_for("TOOL NAME: fetch_invoice").len(), 1);
    let ok = post(
        gw,
        json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup","arguments":{"q":"x"}}}),
    )
    .await;
    assert_eq!(ok["result"]["content"][0]["text"], "ok");
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pending_hide_and_wait() {
    let model = ModelServer::start();
    model.set_tool_answer("lookup", tool_answer([5, 5, 5, 5, 5, 5], false, "scripted"));
    model.set_tool_answer("fetch_invoice", tool_answer([5, 4, 4, 4, 4, 4], false, "scripted"));
    model.set_canned_delay(Duration::from_millis(300));
    let up = upstream(Arc::new(AtomicUsize::new(0))).await;

    let hide = gateway(&model, up, "mode = \"enforce\"\nmin_tier = \"B\"\npending = \"hide\"").await;
    assert!(list(hide).await.is_empty(), "nothing is shown before its score is in");

    let wait = gateway(&model, up, "mode = \"enforce\"\nmin_tier = \"B\"\npending = \"wait\"\nwait_ms = 5000").await;
    let tools = list(wait).await;
    assert_eq!(tools.len(), 2, "waiting long enough gives final scores for both");
    assert!(tools.iter().all(|t| meta(t)["provisional"] == false));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_judge_fails_in_the_configured_direction() {
    let model = ModelServer::start();
    // Every model request fails.
    model.push((0..100).map(|_| Behaviour::Status(500, "down".into())));
    let up = upstream(Arc::new(AtomicUsize::new(0))).await;
    let open = gateway(&model, up, "mode = \"enforce\"\nmin_tier = \"D\"\nfail = \"open\"").await;
    let closed = gateway(&model, up, "mode = \"enforce\"\nmin_tier = \"D\"\nfail = \"closed\"").await;
    // Wait for the background calls to fail: then fail closed hides what is unjudged.
    list(open).await;
    list(closed).await;
    crate::support::patience::eventually_async(
        "fail closed: nothing unjudged is shown",
        Duration::from_secs(20),
        || async { list(closed).await.is_empty().then_some(()) },
    )
    .await;
    let open_tools = list(open).await;
    assert_eq!(open_tools.len(), 2, "fail open: heuristic scores stand in");
    assert!(open_tools.iter().all(|t| meta(t)["judge"] == "heuristic-9"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_changed_reaches_a_subscriptions_listen_stream() {
    let model = ModelServer::start();
    model.set_tool_answer("lookup", tool_answer([5, 5, 5, 5, 5, 5], false, "scripted"));
    model.set_tool_answer("fetch_invoice", tool_answer([2, 2, 2, 2, 2, 2], false, "scripted"));
    model.set_canned_delay(Duration::from_millis(500));
    let up = upstream(Arc::new(AtomicUsize::new(0))).await;
    let gw = gateway(&model, up, "mode = \"enforce\"\nmin_tier = \"A\"").await;
    let listen = reqwest::Client::new()
        .post(format!("http://{gw}/mcp/billing"))
        .header("accept", "application/json, text/event-stream")
        .json(&json!({"jsonrpc": "2.0", "id": 9, "method": "subscriptions/listen", "params": {}}))
        .send()
        .await
        .unwrap();
    assert_eq!(listen.headers()["content-type"], "text/event-stream");
    let mut events = listen.bytes_stream();
    list(gw).await; // provisional scores; the model's answers flip the visible set
    let seen = tokio::time::timeout(Duration::from_secs(10), async {
        let mut seen = String::new();
        while let Some(chunk) = events.next().await {
            seen.push_str(&String::from_utf8_lossy(&chunk.unwrap()));
            if seen.contains("notifications/tools/list_changed") {
                break;
            }
        }
        seen
    })
    .await
    .expect("list_changed on the subscriptions/listen stream within 10 s");
    assert!(seen.contains(": listening"), "the upstream's own stream is relayed: {seen}");
    assert!(
        seen.contains(r#""io.modelcontextprotocol/subscriptionId":9"#),
        "the notice names its subscription, the listen request's id, as servers' own do: {seen}"
    );
}
