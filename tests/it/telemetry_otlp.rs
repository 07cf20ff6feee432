//! OpenTelemetry export against a real OTLP receiver (`support::telemetry`): a scripted
//! session through the gateway binary produces the DESIGN.md metrics with their attributes,
//! spans whose parent is the client's span and which the upstream sees as its parent (HTTP
//! `traceparent` header; `params._meta` for stdio), and the decision log events, over
//! HTTP/protobuf and over gRPC. A receiver that is down or hangs never slows proxying.
//!
//! Long: every export path (HTTP/protobuf, gRPC, stdio trace context, judge calls, a collector that
//! fails) read from the one receiver with the same span and metric lookups.

use crate::support::model_server;
use crate::support::rig as support;
use crate::support::telemetry;

use std::time::{Duration, Instant};

use opentelemetry_proto::tonic::trace::v1::Span;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use serde_json::{Value, json};
use support::http::Mcp;
use support::tap::Tap;
use support::{Gateway, Rig, Upstream};
use telemetry::{OtlpReceiver, Received, attr, client_traceparent, hex, value_text};

const WAIT: Duration = Duration::from_secs(20);

fn telemetry_toml(endpoint: &str, protocol: &str) -> String {
    format!(
        "[telemetry]\notlp_endpoint = \"{endpoint}\"\notlp_protocol = \"{protocol}\"\nexport_interval_ms = 200\n\
         service_name = \"tdqs-under-test\"\n\n[store]\nurl = \"memory\"\n"
    )
}

/// Enforce with minimum B in front of the rig's FastMCP server (three good tools, three bad).
async fn enforcing_gateway(rig: &Rig, telemetry: &str, url: &str) -> Gateway {
    let config = format!(
        "{telemetry}\n[policy]\nmode = \"enforce\"\nmin_tier = \"B\"\n\n[[upstream]]\nname = \"issues\"\nurl = \"{url}\"\n"
    );
    Gateway::start(rig, "", &config).await
}

fn span_attr(s: &Span, key: &str) -> Option<String> {
    attr(&s.attributes, key)
}

/// The request span of the call to `tool` in trace `trace`.
fn call_span(r: &Received, trace: &str, tool: &str) -> Option<Span> {
    r.spans().into_iter().find(|s| {
        hex(&s.trace_id) == trace
            && span_attr(s, "mcp.method.name").as_deref() == Some("tools/call")
            && span_attr(s, "gen_ai.tool.name").as_deref() == Some(tool)
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_protobuf_export_carries_metrics_spans_and_logs() {
    let rig = Rig::new("otlp-http");
    let rx = OtlpReceiver::http().await;
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let tap = Tap::start(&upstream.base()).await;
    let gw = enforcing_gateway(&rig, &telemetry_toml(&rx.endpoint(), "http/protobuf"), &tap.url("/mcp")).await;

    let (traceparent, trace, client_span) = client_traceparent(0x11);
    let mut client = Mcp::new(gw.url("issues")).with_header("traceparent", &traceparent);
    client.initialize("2025-11-25", json!({})).await;
    let (list_id, list) = client.request("tools/list", Value::Null).await;
    let tools = list.answer(&list_id)["result"]["tools"].as_array().cloned().expect("tools");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert!(names.contains(&"search_issues") && !names.contains(&"get_data"), "enforced list: {names:?}");
    let search_tdqs =
        tools.iter().find(|t| t["name"] == "search_issues").unwrap()["_meta"]["tdqs-gateway/score"]["tdqs"]
            .as_f64()
            .expect("annotated score");

    let refused = client.call("tools/call", json!({"name": "get_data", "arguments": {"x": "1"}})).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let ok = client.call("tools/call", json!({"name": "search_issues", "arguments": {"query": "crash"}})).await;
    assert!(ok.get("result").is_some(), "{ok}");
    let r = &rx.received;

    // Metrics, with the attributes DESIGN.md names.
    let score = r
        .wait_for("tdqs.tool.score for search_issues", WAIT, |r| {
            r.points()
                .into_iter()
                .rev()
                .find(|p| p.metric == "tdqs.tool.score" && p.attr("tool") == Some("search_issues"))
        })
        .await;
    assert_eq!(score.attr("server"), Some("issues"));
    assert_eq!(score.attr("judge"), Some("heuristic-9"));
    assert_eq!(score.attr("provisional"), Some("false"));
    assert!(matches!(score.attr("tier"), Some("A" | "B")), "{score:?}");
    assert!((score.value - search_tdqs).abs() < 1e-9, "gauge {} vs annotated {search_tdqs}", score.value);
    let hidden = r
        .wait_for("tdqs.tools.hidden", WAIT, |r| {
            r.points()
                .into_iter()
                .rev()
                .find(|p| p.metric == "tdqs.tools.hidden" && p.attr("reason") == Some("below_minimum"))
        })
        .await;
    assert_eq!(hidden.attr("server"), Some("issues"));
    assert!(hidden.value >= 3.0, "three bad tools hidden per list: {hidden:?}");
    let blocked = r
        .wait_for("tdqs.calls.blocked", WAIT, |r| {
            r.points().into_iter().rev().find(|p| p.metric == "tdqs.calls.blocked")
        })
        .await;
    assert_eq!(
        (blocked.attr("server"), blocked.attr("reason"), blocked.value),
        (Some("issues"), Some("below_minimum"), 1.0)
    );
    let listed = r
        .wait_for("tdqs.tools.listed", WAIT, |r| r.points().into_iter().rev().find(|p| p.metric == "tdqs.tools.listed"))
        .await;
    assert!(listed.value >= tools.len() as f64 + 3.0, "{listed:?}");
    let calls = r
        .wait_for("request duration of tools/call", WAIT, |r| {
            r.points().into_iter().rev().find(|p| {
                p.metric == "mcp.gateway.request.duration" && p.attr("method") == Some("tools/call") && p.value >= 2.0
            })
        })
        .await;
    assert_eq!(calls.attr("server"), Some("issues"));
    r.wait_for("a cache miss", WAIT, |r| {
        r.points().into_iter().find(|p| p.metric == "tdqs.cache.lookups" && p.attr("result") == Some("miss"))
    })
    .await;
    let overall = r
        .wait_for("the server's overall score", WAIT, |r| {
            r.points().into_iter().find(|p| p.metric == "tdqs.server.score" && p.attr("component") == Some("overall"))
        })
        .await;
    assert!((0.0..=5.0).contains(&overall.value) && overall.attr("server") == Some("issues"), "{overall:?}");
    assert!(r.services().iter().all(|s| s == "tdqs-under-test"), "{:?}", r.services());

    // The call's span: the client's span is its parent, and the upstream saw it as its parent.
    let call = r.wait_for("the tools/call span", WAIT, |r| call_span(r, &trace, "search_issues")).await;
    assert_eq!(hex(&call.parent_span_id), client_span, "the gateway's span continues the client's trace");
    assert_eq!(call.kind, SpanKind::Server as i32);
    assert_eq!(call.name, "tools/call search_issues");
    assert_eq!(span_attr(&call, "server").as_deref(), Some("issues"));
    assert_eq!(span_attr(&call, "http.response.status_code").as_deref(), Some("200"));
    let upstream_saw = tap
        .exchanges()
        .into_iter()
        .find(|e| e.calls_tool("search_issues"))
        .and_then(|e| e.request_headers.get("traceparent").and_then(|v| v.to_str().ok()).map(str::to_owned))
        .expect("the upstream got a traceparent");
    assert_eq!(upstream_saw, format!("00-{trace}-{}-01", hex(&call.span_id)), "upstream's parent is the gateway span");
    assert!(!tap.exchanges().iter().any(|e| e.calls_tool("get_data")), "a refused call never reaches the upstream");
    let refused_span = r.wait_for("the refused call's span", WAIT, |r| call_span(r, &trace, "get_data")).await;
    assert_eq!(span_attr(&refused_span, "error.type").as_deref(), Some("tool_refused"));

    // Scoring spans are children of the tools/list request span.
    let list_span = r
        .wait_for("the tools/list span", WAIT, |r| {
            r.spans()
                .into_iter()
                .find(|s| hex(&s.trace_id) == trace && span_attr(s, "mcp.method.name").as_deref() == Some("tools/list"))
        })
        .await;
    let scoring = r
        .wait_for("scoring spans", WAIT, |r| {
            let v: Vec<Span> = r
                .spans()
                .into_iter()
                .filter(|s| s.name == "tdqs.score" && s.parent_span_id == list_span.span_id)
                .collect();
            (v.len() >= 6).then_some(v)
        })
        .await;
    for s in &scoring {
        let hash = span_attr(s, "tdqs.input_hash").unwrap_or_default();
        assert!(hash.len() >= 16, "input hash on the scoring span: {hash:?}");
        assert!(matches!(span_attr(s, "tdqs.cache").as_deref(), Some("hit" | "miss")));
        assert!(span_attr(s, "tdqs.tier").is_some() && span_attr(s, "tdqs.judge").as_deref() == Some("heuristic-9"));
    }

    // Decision events as log records, inside the request's trace.
    let refusal = r
        .wait_for("the call-refused log record", WAIT, |r| {
            r.logs().into_iter().find(|l| value_text(&l.body) == "call refused")
        })
        .await;
    assert_eq!(attr(&refusal.attributes, "tool").as_deref(), Some("get_data"));
    assert_eq!(attr(&refusal.attributes, "reason").as_deref(), Some("below_minimum"));
    assert_eq!(refusal.event_name, "tdqs.call_refused");
    assert_eq!(hex(&refusal.trace_id), trace, "the record belongs to the request's trace");
    assert_eq!(hex(&refusal.span_id), hex(&refused_span.span_id));
    let hidden_log = r
        .wait_for("tool-hidden log records", WAIT, |r| {
            r.logs().into_iter().find(|l| {
                value_text(&l.body) == "tool hidden by policy"
                    && attr(&l.attributes, "tool").as_deref() == Some("get_data")
            })
        })
        .await;
    assert_eq!(attr(&hidden_log.attributes, "reason").as_deref(), Some("below_minimum"));
    assert!(
        !r.logs().iter().any(|l| l.attributes.iter().any(|kv| kv.key.to_ascii_lowercase().contains("authorization"))),
        "no Authorization values in logs"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grpc_export_carries_metrics_spans_and_logs() {
    let rig = Rig::new("otlp-grpc");
    let rx = OtlpReceiver::grpc().await;
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let tap = Tap::start(&upstream.base()).await;
    let gw = enforcing_gateway(&rig, &telemetry_toml(&rx.endpoint(), "grpc"), &tap.url("/mcp")).await;

    let (traceparent, trace, client_span) = client_traceparent(0x22);
    let mut client = Mcp::new(gw.url("issues")).with_header("traceparent", &traceparent);
    client.initialize("2025-11-25", json!({})).await;
    client.call("tools/list", Value::Null).await;
    let refused = client.call("tools/call", json!({"name": "process", "arguments": {"input": "a", "mode": "b"}})).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let ok = client.call("tools/call", json!({"name": "search_issues", "arguments": {"query": ""}})).await;
    assert!(ok.get("result").is_some(), "{ok}");
    let r = &rx.received;

    let score = r
        .wait_for("tdqs.tool.score over gRPC", WAIT, |r| {
            r.points().into_iter().find(|p| p.metric == "tdqs.tool.score" && p.attr("tool") == Some("process"))
        })
        .await;
    assert!(matches!(score.attr("tier"), Some("C" | "D" | "F")), "process is below B: {score:?}");
    let call = r.wait_for("the tools/call span over gRPC", WAIT, |r| call_span(r, &trace, "search_issues")).await;
    assert_eq!(hex(&call.parent_span_id), client_span);
    let seen = tap.exchanges().into_iter().find(|e| e.calls_tool("search_issues")).expect("call reached the upstream");
    let header = seen.request_headers.get("traceparent").and_then(|v| v.to_str().ok()).unwrap_or_default();
    assert_eq!(header, format!("00-{trace}-{}-01", hex(&call.span_id)));
    let log = r
        .wait_for("the call-refused record over gRPC", WAIT, |r| {
            r.logs().into_iter().find(|l| value_text(&l.body) == "call refused")
        })
        .await;
    assert_eq!(attr(&log.attributes, "tool").as_deref(), Some("process"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_upstreams_get_the_trace_context_in_meta() {
    let rig = Rig::new("otlp-stdio");
    let rx = OtlpReceiver::http().await;
    let record = rig.path("stdio-received.jsonl");
    let script = support::rig_dir().join("stdio_recorder.py");
    let config = format!(
        "{}\n[[upstream]]\nname = \"orders\"\ncommand = [{:?}, {:?}, {:?}]\n",
        telemetry_toml(&rx.endpoint(), "http/protobuf"),
        support::python().display().to_string(),
        script.display().to_string(),
        record.display().to_string()
    );
    let gw = Gateway::start(&rig, "", &config).await;

    let (traceparent, trace, client_span) = client_traceparent(0x33);
    let mut client = Mcp::new(gw.url("orders")).with_header("traceparent", &traceparent);
    let init = client.initialize_only("2025-06-18", json!({})).await;
    let session = init.header("mcp-session-id").expect("a session for the stdio child").to_owned();
    let answer = client.call("tools/call", json!({"name": "lookup_order", "arguments": {"order_id": "A-1"}})).await;
    assert!(answer.get("result").is_some(), "{answer}");

    let r = &rx.received;
    let call = r.wait_for("the stdio tools/call span", WAIT, |r| call_span(r, &trace, "lookup_order")).await;
    assert_eq!(hex(&call.parent_span_id), client_span);
    let hashed = span_attr(&call, "mcp.session.id").expect("the session on the span");
    assert_eq!(hashed.len(), 16, "a hash, not the id: {hashed}");
    assert!(!session.contains(&hashed) && hashed != session, "the raw session id never reaches the backend");

    let lines = std::fs::read_to_string(&record).expect("the stdio server's record");
    let sent: Vec<Value> = lines.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let call_msg = sent.iter().find(|m| m["method"] == "tools/call").expect("the call reached the child");
    assert_eq!(
        call_msg["params"]["_meta"]["traceparent"],
        format!("00-{trace}-{}-01", hex(&call.span_id)),
        "the child sees the gateway's span as parent: {call_msg}"
    );
    assert_eq!(call_msg["params"]["arguments"], json!({"order_id": "A-1"}), "the rest of the message is unchanged");
    // A batch: one span per message under the batch's span, and each message stamped.
    let batch = json!([
        {"jsonrpc": "2.0", "id": "b1", "method": "ping"},
        {"jsonrpc": "2.0", "id": "b2", "method": "tools/call", "params": {"name": "lookup_order", "arguments": {"order_id": "B"}}},
    ]);
    let reply = client.post(&batch).await;
    assert!(reply.answer(&json!("b2")).get("result").is_some(), "{}", reply.text());
    let batch_span = r
        .wait_for("the batch span", WAIT, |r| {
            r.spans().into_iter().find(|s| span_attr(s, "mcp.method.name").as_deref() == Some("batch"))
        })
        .await;
    let children = r
        .wait_for("a span per batch message", WAIT, |r| {
            let v: Vec<Span> = r
                .spans()
                .into_iter()
                .filter(|s| s.parent_span_id == batch_span.span_id && s.name != "tdqs.score")
                .collect();
            (v.len() == 2).then_some(v)
        })
        .await;
    let mut names: Vec<&str> = children.iter().map(|s| s.name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["ping", "tools/call lookup_order"]);
    let lines = std::fs::read_to_string(&record).unwrap();
    let batch_line: Value = lines
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v.is_array())
        .expect("the batch line");
    for m in batch_line.as_array().unwrap() {
        assert_eq!(m["params"]["_meta"]["traceparent"], format!("00-{trace}-{}-01", hex(&batch_span.span_id)), "{m}");
    }

    let init_msg = sent.iter().find(|m| m["method"] == "initialize").expect("initialize reached the child");
    let init_parent = init_msg["params"]["_meta"]["traceparent"].as_str().unwrap_or_default();
    assert!(init_parent.starts_with(&format!("00-{trace}-")), "every request carries the context: {init_msg}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn model_judge_calls_are_timed_traced_and_their_failures_logged() {
    let rig = Rig::new("otlp-judge");
    let rx = OtlpReceiver::http().await;
    let model = model_server::ModelServer::start();
    // The first judge request is refused; the rest get these answers.
    model.push([model_server::Behaviour::Status(400, "no such model".into())]);
    for tool in ["search_issues", "create_issue", "count_to", "do_thing", "get_data", "process"] {
        model.set_tool_answer(tool, model_server::tool_answer([4, 4, 4, 4, 4, 4], false, "scripted"));
    }
    model.set_coherence_answer("issues", model_server::coherence_answer([4, 4, 4, 4], &[], "scripted"));
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let config = format!(
        "{}\n[judge]\nkind = \"openai\"\nbase_url = \"{}\"\nmodel = \"scripted-model\"\nmax_attempts = 1\n\
         timeout_ms = 10000\n\n[[upstream]]\nname = \"issues\"\nurl = \"{}\"\n",
        telemetry_toml(&rx.endpoint(), "http/protobuf"),
        model.base_url(),
        upstream.url()
    );
    let gw = Gateway::start(&rig, "", &config).await;
    let mut client = Mcp::new(gw.url("issues"));
    client.initialize("2025-11-25", json!({})).await;
    let answer = client.call("tools/list", Value::Null).await;
    let first = answer["result"]["tools"].as_array().cloned().unwrap_or_default();
    assert!(first.iter().any(|t| t["_meta"]["tdqs-gateway/score"]["provisional"] == true), "{answer}");

    let r = &rx.received;
    let ok = r
        .wait_for("a timed judge call", WAIT, |r| {
            r.points().into_iter().find(|p| {
                p.metric == "tdqs.judge.duration"
                    && p.attr("judge") == Some("scripted-model")
                    && p.attr("outcome") == Some("ok")
            })
        })
        .await;
    assert!(ok.value >= 1.0, "{ok:?}");
    let failed = r
        .wait_for("a judge error", WAIT, |r| {
            r.points()
                .into_iter()
                .find(|p| p.metric == "tdqs.judge.errors" && p.attr("judge") == Some("scripted-model"))
        })
        .await;
    assert!(matches!(failed.attr("error"), Some("refused" | "exhausted")), "{failed:?}");
    let span = r
        .wait_for("a judge span", WAIT, |r| {
            r.spans().into_iter().find(|s| s.name == "judge tool" && span_attr(s, "error.type").is_none())
        })
        .await;
    assert_eq!(span_attr(&span, "tdqs.judge").as_deref(), Some("scripted-model"));
    assert_eq!(span.kind, SpanKind::Client as i32);
    let log = r
        .wait_for("the judge-failed record", WAIT, |r| {
            // The refused request is whichever judge call came first: a tool's or the server's.
            r.logs().into_iter().find(|l| {
                let body = value_text(&l.body);
                body == "judge failed; the heuristic score stands in"
                    || body == "coherence judge failed; the heuristic stands in"
            })
        })
        .await;
    assert_eq!(attr(&log.attributes, "judge").as_deref(), Some("scripted-model"));
    // A model answer that lands replaces the provisional score: the gauge and the event say so.
    r.wait_for("a final model score on the gauge", WAIT, |r| {
        r.points().into_iter().find(|p| {
            p.metric == "tdqs.tool.score"
                && p.attr("judge") == Some("scripted-model")
                && p.attr("provisional") == Some("false")
        })
    })
    .await;
    let changed = r
        .wait_for("a score-changed record", WAIT, |r| {
            r.logs().into_iter().find(|l| value_text(&l.body) == "tool score changed")
        })
        .await;
    assert_eq!(attr(&changed.attributes, "judge").as_deref(), Some("scripted-model"));
    assert_eq!(changed.event_name, "tdqs.score_changed");
}

/// Requests through a gateway whose collector is `endpoint`: all must succeed, each well
/// under the export timeout (a blocked exporter would hold a request that long).
async fn proxy_promptly(gw: &Gateway, what: &str) {
    let mut client = Mcp::new(gw.url("issues")).with_header("traceparent", &client_traceparent(0x44).0);
    client.initialize("2025-11-25", json!({})).await;
    let started = Instant::now();
    for i in 0..40 {
        let t = Instant::now();
        let (id, reply) = if i % 2 == 0 {
            client.request("tools/list", Value::Null).await
        } else {
            client.request("tools/call", json!({"name": "search_issues", "arguments": {"query": "x"}})).await
        };
        assert_eq!(reply.status, 200, "{what}: request {i}: {}", reply.text());
        assert!(reply.answer(&id).get("result").is_some(), "{what}: request {i}: {}", reply.text());
        assert!(t.elapsed() < Duration::from_secs(3), "{what}: request {i} took {:?}", t.elapsed());
    }
    assert!(started.elapsed() < Duration::from_secs(20), "{what}: 40 requests took {:?}", started.elapsed());
    let metrics = reqwest::get(format!("{}/metrics", gw.base())).await.expect("/metrics");
    assert_eq!(metrics.status(), 200, "{what}: /metrics still serves");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_collector_that_is_down_or_hangs_never_slows_proxying() {
    let rig = Rig::new("otlp-down");
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    // Down: nothing listens on the port.
    let closed = support::free_port();
    // Hanging: accepts connections, never answers; the export timeout is far above the bound
    // on each request.
    let hole = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hole_addr = hole.local_addr().unwrap();
    let held = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let keep = held.clone();
    let accepting = tokio::spawn(async move {
        while let Ok((s, _)) = hole.accept().await {
            keep.lock().unwrap().push(s);
        }
    });
    let slow = "export_timeout_ms = 30000\n";
    for (name, endpoint, protocol) in [
        (
            "http/protobuf, collector down",
            format!("http://{}", std::net::SocketAddr::from(([127, 0, 0, 1], closed))),
            "http/protobuf",
        ),
        ("grpc, collector down", format!("http://127.0.0.1:{closed}"), "grpc"),
        ("http/protobuf, collector hangs", format!("http://{hole_addr}"), "http/protobuf"),
        ("grpc, collector hangs", format!("http://{hole_addr}"), "grpc"),
    ] {
        let telemetry = telemetry_toml(&endpoint, protocol).replace("[store]", &format!("{slow}\n[store]"));
        let gw = enforcing_gateway(&rig, &telemetry, &upstream.url()).await;
        proxy_promptly(&gw, name).await;
    }
    assert!(!held.lock().unwrap().is_empty(), "the hanging collector was tried");
    accepting.abort();
}
