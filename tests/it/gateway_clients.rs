//! Two independent SDK clients (Python `mcp` 1.30 and the TypeScript SDK 1.32) drive real
//! servers through the gateway, and see what they see directly: server-everything's full tour
//! (roots, sampling and elicitation declared, so 17 tools; progress on the POST stream; sampling,
//! elicitation and roots requests answered by the client on separate POSTs; logging on the GET
//! stream; DELETE ending the session), and the FastMCP server's progress and log notifications
//! on the POST stream of a call.

use crate::support::rig as support;

use serde_json::{Value, json};
use support::http::Mcp;
use support::meta::checked_score;
use support::{Gateway, Rig, Upstream};

/// Progress as numbers (Python prints `1.0`, JavaScript `1`).
fn progress(out: &Value) -> Vec<(f64, f64)> {
    let pairs = out["progress"].as_array().unwrap_or_else(|| panic!("no progress: {out}"));
    pairs.iter().map(|p| (p[0].as_f64().unwrap(), p[1].as_f64().unwrap())).collect()
}

fn names(out: &Value) -> Vec<String> {
    out["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_owned()).collect()
}

/// What a tour saw, minus what legitimately differs between runs (session ids, log levels).
fn comparable(out: &Value) -> Value {
    json!({
        "protocolVersion": out["protocolVersion"],
        "serverName": out["serverName"],
        "tools": names(out),
        "echo": out["echo"],
        "longRunning": out["longRunning"],
        "progress": format!("{:?}", progress(out)),
        "sampling": out["sampling"],
        "elicitation": out["elicitation"]["requests"],
        "roots": out["roots"]["result"],
    })
}

async fn tour(client: &str, url: &str) -> Value {
    match client {
        "python" => support::py_client(&["everything", url]).await,
        _ => support::ts_client(&["everything", url]).await,
    }
}

async fn everything_tour(client: &str) {
    let rig = Rig::new(&format!("clients-{client}"));
    let upstream = Upstream::everything(&rig).await;
    let gw = Gateway::single(&rig, "everything", &upstream.url(), "mode = \"annotate\"").await;

    let through = tour(client, &gw.url("everything")).await;
    let direct = tour(client, &upstream.url()).await;
    assert_eq!(comparable(&through), comparable(&direct), "{client}: the same tour through the gateway and directly");

    assert_eq!(through["protocolVersion"], "2025-11-25");
    let tools = through["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 17, "{client}: roots, sampling and elicitation declared: {:?}", names(&through));
    tools.iter().for_each(|t| {
        checked_score(t);
    });
    assert_eq!(through["echo"]["text"], "Echo: hello through the gateway");
    assert_eq!(progress(&through), [(1.0, 4.0), (2.0, 4.0), (3.0, 4.0), (4.0, 4.0)], "{client}: progress");
    assert!(through["longRunning"]["text"].as_str().unwrap().contains("completed"), "{through}");

    let sampling = &through["sampling"];
    assert_eq!(sampling["requests"].as_array().map(Vec::len), Some(1), "{client}: one sampling request: {sampling}");
    assert!(sampling["requests"][0]["prompt"].as_str().unwrap().contains("say hi"));
    assert!(sampling["result"]["text"].as_str().unwrap().contains("sampled answer from the rig client"), "{sampling}");

    let elicitation = &through["elicitation"];
    assert_eq!(elicitation["requests"].as_array().map(Vec::len), Some(1), "{client}: {elicitation}");
    assert!(elicitation["result"]["text"].as_str().unwrap().contains("Rig Client"), "{elicitation}");

    let roots = &through["roots"];
    assert!(roots["requests"].as_u64().unwrap() >= 1, "{client}: roots/list reached the client: {roots}");
    assert!(roots["result"]["text"].as_str().unwrap().contains("file:///rig/root"), "{roots}");

    // Simulated logging is sent outside any request: it comes on the GET stream.
    let session = through["sessionId"].as_str().expect("session id").to_owned();
    let logs = through["logs"].as_array().unwrap();
    assert!(
        logs.iter().any(|l| l["data"].as_str().is_some_and(|d| d.contains(&format!("SessionId {session}")))),
        "{client}: a simulated log message for this session: {logs:?}"
    );

    // The client ended its session with DELETE through the gateway: the upstream forgot it.
    let mut old = Mcp::new(gw.url("everything"));
    old.session = Some(session);
    old.version = Some("2025-11-25".into());
    let (_, reply) = old.request("tools/list", Value::Null).await;
    assert!(
        matches!(reply.status, 400 | 404),
        "{client}: a DELETEd session is gone: {} {}",
        reply.status,
        reply.text()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_client_tour_of_server_everything() {
    everything_tour("python").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typescript_sdk_client_tour_of_server_everything() {
    everything_tour("typescript").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_and_logs_on_the_post_stream() {
    let rig = Rig::new("clients-post-stream");
    let upstream = Upstream::fastmcp(&rig, &[]).await;
    let gw = Gateway::single(&rig, "rig", &upstream.url(), "mode = \"enforce\"\nmin_tier = \"B\"").await;
    let args = r#"{"n": 5, "delay_ms": 20}"#;
    let expected_progress = [(1.0, 5.0), (2.0, 5.0), (3.0, 5.0), (4.0, 5.0), (5.0, 5.0)];
    let expected_logs: Vec<Value> = (1..=5).map(|i| json!({"level": "info", "data": format!("count {i}")})).collect();

    for client in ["python", "typescript"] {
        let out = match client {
            "python" => support::py_client(&["call", &gw.url("rig"), "count_to", args]).await,
            _ => support::ts_client(&["call", &gw.url("rig"), "count_to", args]).await,
        };
        assert_eq!(out["result"]["text"], "counted to 5", "{client}: {out}");
        assert_eq!(progress(&out), expected_progress, "{client}: progress");
        assert_eq!(out["logs"], json!(expected_logs), "{client}: log messages, in order");
    }

    // Raw: the notifications come on the call's own SSE stream, before the answer, in order.
    let mut raw = Mcp::new(gw.url("rig"));
    raw.initialize("2025-06-18", json!({})).await;
    let (id, reply) = raw
        .request(
            "tools/call",
            json!({"name": "count_to", "arguments": {"n": 3, "delay_ms": 0}, "_meta": {"progressToken": 77}}),
        )
        .await;
    assert!(reply.is_sse());
    let kinds: Vec<String> = reply
        .messages()
        .iter()
        .map(|m| m["method"].as_str().map_or_else(|| format!("answer {}", m["id"]), str::to_owned))
        .collect();
    assert_eq!(
        kinds,
        [
            "notifications/message",
            "notifications/progress",
            "notifications/message",
            "notifications/progress",
            "notifications/message",
            "notifications/progress",
            &format!("answer {id}"),
        ]
    );
    let progress: Vec<Value> = reply
        .messages()
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .map(|m| m["params"]["progressToken"].clone())
        .collect();
    assert_eq!(progress, [json!(77), json!(77), json!(77)], "progress tokens keep their type and value");
}
