//! Order within a session (issue 17, "order kept"). A client opens its GET stream and calls a
//! tool at once, without waiting for the stream (the TypeScript SDK client does so right after
//! `notifications/initialized`); the rig's TypeScript SDK server (`tests/rig/ts_order_server.mjs`)
//! answers the call by sending a sampling or elicitation request that is not tied to the call,
//! so it goes on the GET stream, and the SDK drops it when that stream is not open yet.
//! - directly, a call made while no GET stream is open loses its server request, and one made
//!   after the GET stream opened gets it on that stream (the mechanism, shown deterministically);
//! - through a gateway with the ordering turned off (`stream_open_wait_ms = 0`), the TypeScript
//!   SDK client's call overtakes its GET within a few sessions (the race);
//! - through gateways in observe, annotate and enforce mode with the default ordering, 100 fresh
//!   sessions each, every one calling both tools at once (100 sampling and 100 elicitation round
//!   trips a mode), all get their server requests.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::patience::scaled;
use crate::support::rig::{Gateway, Rig, Upstream, eventually, http, node, rig_dir, run_client};

const SERVER: &str = "ts_order_server.mjs";

async fn order_server(rig: &Rig) -> Upstream {
    Upstream::node(rig, "ts-order-server", SERVER, &[]).await
}

/// A gateway in `mode` in front of `upstream` as `order`; `wait_ms` sets `stream_open_wait_ms`.
async fn gateway(rig: &Rig, upstream: &Upstream, mode: &str, wait_ms: Option<u64>) -> Gateway {
    let wait = wait_ms.map(|ms| format!("stream_open_wait_ms = {ms}\n")).unwrap_or_default();
    // The grace for a session's first GET, scaled like every wait of the harness: several
    // hundred Node clients and three gateways share this machine with the rest of the suite.
    let first = crate::support::patience::scaled(std::time::Duration::from_millis(500)).as_millis();
    let config = format!(
        "[policy]\nmode = \"{mode}\"\n\n[[upstream]]\nname = \"order\"\nurl = \"{}\"\n{wait}stream_first_wait_ms = {first}\n",
        upstream.url()
    );
    Gateway::start(rig, "", &config).await
}

/// `tests/rig/ts_order_client.mjs URL ROUNDS TIMEOUT_MS [first-failure]`: fresh TypeScript SDK
/// client sessions, each connecting and calling both tools at once; what it printed.
async fn ts_rounds(url: &str, rounds: usize, timeout_ms: u64, first_failure: bool) -> Value {
    let mut cmd = tokio::process::Command::new(node());
    cmd.arg(rig_dir().join("ts_order_client.mjs")).arg(url).arg(rounds.to_string()).arg(timeout_ms.to_string());
    if first_failure {
        cmd.arg("first-failure");
    }
    run_client(cmd, &format!("ts_order_client {url}")).await
}

/// What the order server's tool reported: `{outcome, answer, getFirst}`, and `isError`.
fn report(answer: &Value) -> (Value, bool) {
    let result = &answer["result"];
    let text = result["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no tool result: {answer}"));
    (serde_json::from_str(text).expect("the tool's JSON report"), result["isError"] == true)
}

#[tokio::test]
async fn directly_a_server_request_is_dropped_while_no_get_stream_is_open_and_delivered_once_it_is() {
    let rig = Rig::new("order-direct");
    let up = order_server(&rig).await;
    let mut c = http::Mcp::new(up.url());
    c.initialize("2025-06-18", json!({"sampling": {}, "elicitation": {"form": {}}})).await;

    // No GET stream yet: the server has nowhere to send its request and waits out its timeout.
    let answer = c.call("tools/call", json!({"name": "ask_sampling", "arguments": {"timeoutMs": 300}})).await;
    let (seen, is_error) = report(&answer);
    assert!(is_error, "{answer}");
    assert_eq!((seen["outcome"].as_str(), seen["getFirst"].as_bool()), (Some("unanswered"), Some(false)), "{seen}");

    // The GET stream open (its head is in) before the call: the request arrives on it.
    let mut get = c.get_stream(None).await;
    assert_eq!(get.status, 200);
    let call = {
        let mut c = c.clone();
        tokio::spawn(async move {
            c.call("tools/call", json!({"name": "ask_elicitation", "arguments": {"timeoutMs": 20000}})).await
        })
    };
    let is_elicitation = |e: &http::Event| e.json().is_some_and(|m| m["method"] == "elicitation/create");
    let events = get.until(Duration::from_secs(20), "elicitation/create on the GET stream", is_elicitation).await;
    let request = events.last().and_then(http::Event::json).unwrap();
    let reply = c
        .post(&json!({"jsonrpc": "2.0", "id": request["id"], "result": {"action": "accept", "content": {"answer": "direct"}}}))
        .await;
    assert_eq!(reply.status, 202, "{}", reply.text());
    let answer = call.await.unwrap();
    let (seen, is_error) = report(&answer);
    assert!(!is_error, "{answer}");
    assert_eq!(seen, json!({"outcome": "answered", "answer": "accept:direct", "getFirst": true}));
}

#[tokio::test]
async fn without_the_ordering_a_call_through_the_gateway_overtakes_its_get_stream() {
    let rig = Rig::new("order-race");
    let up = order_server(&rig).await;
    let gw = gateway(&rig, &up, "observe", Some(0)).await;
    // Sessions until the first in which a server request was dropped (that one costs 1 s).
    let out = ts_rounds(&gw.url("order"), 300, 1000, true).await;
    let failures = out["failures"].as_array().unwrap();
    assert!(!failures.is_empty(), "no call overtook its GET stream in {} sessions: {out}", out["played"]);
    let f = &failures[0];
    assert_eq!(f["outcome"], "unanswered", "{f}");
    assert_eq!(f["getFirst"], false, "the call reached the server after the GET and still went unanswered: {f}");
    eprintln!("the race showed in session {} of {}", out["played"], out["rounds"]);
}

#[tokio::test]
async fn sampling_and_elicitation_pass_through_the_gateway_100_times_in_a_row_in_every_mode() {
    let rig = Rig::new("order-kept");
    let up = order_server(&rig).await;
    let (observe, annotate, enforce) = (
        gateway(&rig, &up, "observe", None).await,
        gateway(&rig, &up, "annotate", None).await,
        gateway(&rig, &up, "enforce", None).await,
    );
    // 100 fresh sessions per mode, each calling both tools at once: 100 sampling and 100
    // elicitation round trips, every one racing the session's GET stream.
    let runs =
        [("observe", observe.url("order")), ("annotate", annotate.url("order")), ("enforce", enforce.url("order"))];
    let (o, a, e) = tokio::join!(
        ts_rounds(&runs[0].1, 100, 5000, false),
        ts_rounds(&runs[1].1, 100, 5000, false),
        ts_rounds(&runs[2].1, 100, 5000, false),
    );
    for ((mode, _), out) in runs.iter().zip([o, a, e]) {
        assert_eq!(out["failures"], json!([]), "{mode}: {out}");
        assert_eq!((out["played"].as_u64(), out["answered"].as_u64()), (Some(100), Some(200)), "{mode}: {out}");
    }
}

#[tokio::test]
async fn a_get_the_upstream_refuses_or_never_answers_holds_later_requests_no_longer_than_the_limit() {
    let rig = Rig::new("order-get-fails");
    let refusing = Upstream::node(&rig, "ts-order-405", SERVER, &["--get=405"]).await;
    let stalling = Upstream::node(&rig, "ts-order-stall", SERVER, &["--get=stall"]).await;
    let config = format!(
        "[[upstream]]\nname = \"refusing\"\nurl = \"{}\"\nstream_open_wait_ms = 60000\n\n\
         [[upstream]]\nname = \"stalling\"\nurl = \"{}\"\nstream_open_wait_ms = 300\n",
        refusing.url(),
        stalling.url()
    );
    let gw = Gateway::start(&rig, "", &config).await;
    let caps = json!({"sampling": {}, "elicitation": {"form": {}}});
    let answered_soon = Duration::from_secs(15);

    // A GET answered 405 (no GET streams) has given its turn back: with a 60 s limit, a request
    // still waiting on it would not be answered within the bound.
    let mut c = http::Mcp::new(gw.url("refusing"));
    c.initialize("2025-06-18", caps.clone()).await;
    assert_eq!(c.get_stream(None).await.status, 405);
    let listed = tokio::time::timeout(scaled(answered_soon), c.call("tools/list", json!({})))
        .await
        .expect("a request after a refused GET is forwarded at once");
    assert_eq!(listed["result"]["tools"].as_array().map(Vec::len), Some(2), "{listed}");

    // A GET the upstream holds without an answer: the request after it waits 300 ms, then goes.
    let mut s = http::Mcp::new(gw.url("stalling"));
    s.initialize("2025-06-18", caps).await;
    let sid = s.session.clone().expect("a session id");
    let get = tokio::spawn({
        let s = s.clone();
        async move { s.get_stream(None).await.status }
    });
    let stalled = format!("GET STALLED {sid}");
    eventually("the stalling server holds the session's GET", Duration::from_secs(20), || {
        stalling.proc.stdout_text().contains(&stalled).then_some(())
    })
    .await;
    let listed = tokio::time::timeout(scaled(answered_soon), s.call("tools/list", json!({})))
        .await
        .expect("a request after a stalled GET is forwarded once the limit is up");
    assert_eq!(listed["result"]["tools"].as_array().map(Vec::len), Some(2), "{listed}");
    eventually("the gateway says it stopped waiting for the GET", Duration::from_secs(10), || {
        gw.log_text().contains("still opening upstream").then_some(())
    })
    .await;
    assert!(!get.is_finished(), "the stalled GET was answered");
    get.abort();
}
