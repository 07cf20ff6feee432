//! Observe mode scores but changes nothing: what the client receives is byte for byte what the
//! upstream sent, for JSON answers and for SSE streams (ids, priming events, `retry:` and all).

use crate::support::rig as support;

use serde_json::{Value, json};
use support::http::Mcp;
use support::tap::Tap;
use support::{Gateway, Rig, Upstream};

#[track_caller]
fn assert_same_bytes(actual: &[u8], expected: &[u8], what: &str) {
    if actual != expected {
        let at = actual.iter().zip(expected).position(|(a, b)| a != b).unwrap_or(actual.len().min(expected.len()));
        let show = |b: &[u8]| String::from_utf8_lossy(&b[at.saturating_sub(60)..(at + 60).min(b.len())]).into_owned();
        panic!(
            "{what}: bytes differ at {at} (lengths {} and {})\nactual:   …{}…\nexpected: …{}…",
            actual.len(),
            expected.len(),
            show(actual),
            show(expected)
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_answers_pass_byte_for_byte() {
    let rig = Rig::new("observe-json");
    let upstream = Upstream::paginated(&rig, &["--json"]).await;
    let tap = Tap::start(&upstream.base()).await;
    let gw = Gateway::single(&rig, "pages", &tap.url("/mcp"), "mode = \"observe\"").await;

    let mut direct = Mcp::new(upstream.url());
    direct.initialize("2025-11-25", json!({})).await;
    let mut through = Mcp::new(gw.url("pages"));
    through.initialize("2025-11-25", json!({})).await;

    // Every page, directly and through the gateway: the same bytes (the server is deterministic).
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let params = cursor.as_ref().map_or(Value::Null, |c| json!({"cursor": c}));
        let msg = json!({"jsonrpc": "2.0", "id": 40 + pages, "method": "tools/list", "params": params});
        let (d, t) = (direct.post(&msg).await, through.post(&msg).await);
        assert_eq!((d.status, t.status), (200, 200), "{}", t.text());
        assert_eq!(t.content_type(), d.content_type());
        assert_same_bytes(&t.body, &d.body, &format!("page {}", pages + 1));
        let tapped = tap.find("tools/list", &json!(40 + pages)).response_bytes();
        assert_same_bytes(&t.body, &tapped, "vs the tapped upstream answer");
        pages += 1;
        match t.json()["result"]["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    assert_eq!(pages, 3);

    // A call answer too.
    let call = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
        "params": {"name": "convert_units", "arguments": {"value": 3, "from_unit": "mi", "to_unit": "km"}}});
    let (d, t) = (direct.post(&call).await, through.post(&call).await);
    assert_same_bytes(&t.body, &d.body, "tools/call answer");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sse_streams_pass_byte_for_byte() {
    let rig = Rig::new("observe-sse");
    let upstream = Upstream::everything(&rig).await;
    let tap = Tap::start(&upstream.base()).await;
    let gw = Gateway::single(&rig, "everything", &tap.url("/mcp"), "mode = \"observe\"").await;

    let mut client = Mcp::new(gw.url("everything"));
    let init = client.initialize_only("2025-11-25", json!({"sampling": {}})).await;
    let init_tapped = tap.find("initialize", &json!(1)).response_bytes();
    assert_same_bytes(&init.body, &init_tapped, "initialize answer");
    client.notify("notifications/initialized").await;

    let (id, reply) = client.request("tools/list", Value::Null).await;
    assert!(reply.is_sse());
    let tapped = tap.find("tools/list", &id).response_bytes();
    assert_same_bytes(&reply.body, &tapped, "tools/list SSE stream");
    let events = reply.events();
    assert!(events.iter().all(|e| e.id.is_some()), "server-everything's events all carry ids");

    // A stream with progress notifications before the answer.
    let (id, reply) = client
        .request(
            "tools/call",
            json!({"name": "trigger-long-running-operation", "arguments": {"duration": 0.2, "steps": 2},
                   "_meta": {"progressToken": "p1"}}),
        )
        .await;
    let tapped = tap.find("tools/call", &id).response_bytes();
    assert_same_bytes(&reply.body, &tapped, "tools/call SSE stream with progress");
    let methods: Vec<Value> = reply.messages().iter().map(|m| m["method"].clone()).collect();
    assert_eq!(methods.iter().filter(|m| **m == "notifications/progress").count(), 2, "{methods:?}");
}
