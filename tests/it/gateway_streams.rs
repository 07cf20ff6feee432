//! The Streamable HTTP details the gateway must carry, spoken by hand to server-everything
//! through the gateway: the GET stream (list_changed, server requests), resumption with
//! `Last-Event-ID` (a replayed `tools/list` answer is rewritten like the original), DELETE, and
//! 2025-03-26 batches mixing a list, a refused call and other requests.

use crate::support::rig as support;

use std::time::Duration;

use serde_json::{Value, json};
use support::http::{Event, Mcp};
use support::meta::{self, assert_same_json, checked_score, strip, without};
use support::tap::Tap;
use support::{Gateway, Rig, Upstream, below, cli_scores};

fn full_capabilities() -> Value {
    json!({"roots": {"listChanged": true}, "sampling": {}, "elicitation": {"form": {}, "url": {}}})
}

fn two_policies(url: &str) -> String {
    format!(
        "[[upstream]]\nname = \"annotated\"\nurl = \"{url}\"\n[upstream.policy]\nmode = \"annotate\"\n\n\
         [[upstream]]\nname = \"enforced\"\nurl = \"{url}\"\n[upstream.policy]\nmode = \"enforce\"\nmin_tier = \"A\"\n"
    )
}

fn is_method(ev: &Event, method: &str) -> bool {
    ev.json().is_some_and(|m| m["method"] == method)
}

/// The upstream's own list (a direct session with the same capabilities) and the tools below A.
async fn direct_list(rig: &Rig, upstream: &Upstream, version: &str) -> (Value, Vec<String>) {
    let mut direct = Mcp::new(upstream.url());
    direct.initialize(version, full_capabilities()).await;
    let list = direct.call("tools/list", Value::Null).await;
    let hidden = below(&cli_scores(rig, &list["result"]), 3.5);
    assert!(hidden.contains(&"echo".to_owned()), "echo is below A");
    (list, hidden)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_stream_carries_list_changed_and_server_requests() {
    let rig = Rig::new("streams-get");
    let upstream = Upstream::everything(&rig).await;
    let gw = Gateway::start(&rig, "", &two_policies(&upstream.url())).await;

    let mut client = Mcp::new(gw.url("annotated"));
    client.initialize_only("2025-11-25", full_capabilities()).await;
    let mut stream = client.get_stream(None).await;
    assert_eq!(stream.status, 200);
    assert!(stream.headers.get("content-type").is_some_and(|v| v.to_str().unwrap().starts_with("text/event-stream")));
    // server-everything registers its capability-dependent tools once initialized, and says so.
    assert_eq!(client.notify("notifications/initialized").await.status, 202);
    let seen = stream
        .until(Duration::from_secs(10), "tools/list_changed on the GET stream", |e| {
            is_method(e, "notifications/tools/list_changed")
        })
        .await;
    assert!(seen.iter().all(|e| e.id.is_some() || e.data.as_deref() == Some("")), "{seen:#?}");

    // ... then asks the client for its roots on the same stream; the answer is a separate POST.
    let seen = stream.until(Duration::from_secs(10), "roots/list request", |e| is_method(e, "roots/list")).await;
    let request = seen.last().unwrap().json().unwrap();
    let answer =
        json!({"jsonrpc": "2.0", "id": request["id"], "result": {"roots": [{"uri": "file:///raw", "name": "raw"}]}});
    assert_eq!(client.post(&answer).await.status, 202, "a client response is accepted");
    let seen =
        stream.until(Duration::from_secs(10), "log about the roots", |e| is_method(e, "notifications/message")).await;
    let log = seen.last().unwrap().json().unwrap();
    assert!(log["params"]["data"].as_str().unwrap_or_default().contains("1 root"), "{log}");

    let list = client.call("tools/list", Value::Null).await;
    assert_eq!(meta::tools(&list).len(), 17);
    meta::tools(&list).iter().for_each(|t| {
        checked_score(t);
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resumption_replays_a_rewritten_list_answer() {
    let rig = Rig::new("streams-resume");
    let upstream = Upstream::everything(&rig).await;
    let gw = Gateway::start(&rig, "", &two_policies(&upstream.url())).await;
    let (direct, hidden) = direct_list(&rig, &upstream, "2025-11-25").await;
    let hidden: Vec<&str> = hidden.iter().map(String::as_str).collect();

    for (name, enforced) in [("annotated", false), ("enforced", true)] {
        let mut client = Mcp::new(gw.url(name));
        client.initialize("2025-11-25", full_capabilities()).await;
        let (id, reply) = client.request("tools/list", Value::Null).await;
        let events = reply.events();
        let priming = events.first().expect("events");
        assert_eq!(priming.data.as_deref(), Some(""), "{name}: a priming event first: {events:#?}");
        let original = events.iter().find(|e| e.json().is_some_and(|m| m["id"] == id)).expect("the list answer");
        let original_json = original.json().unwrap();

        // Resume after the priming event: the answer is replayed, on a GET.
        let mut stream = client.get_stream(priming.id.as_deref()).await;
        assert_eq!(stream.status, 200, "{name}: resumption is accepted");
        let seen = stream
            .until(Duration::from_secs(10), "the replayed list answer", |e| e.json().is_some_and(|m| m["id"] == id))
            .await;
        let replayed = seen.last().unwrap();
        assert_eq!(replayed.id, original.id, "{name}: the replay carries the original event id");
        let replayed_json = replayed.json().unwrap();
        assert_same_json(&replayed_json, &original_json, &format!("{name}: replayed answer vs original"));

        meta::tools(&replayed_json).iter().for_each(|t| {
            checked_score(t);
        });
        let mut expected = if enforced { without(&direct, &hidden) } else { direct.clone() };
        expected["id"] = id.clone();
        assert_same_json(&strip(&replayed_json, &direct), &expected, &format!("{name}: replayed answer vs upstream"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delete_ends_the_session() {
    let rig = Rig::new("streams-delete");
    let upstream = Upstream::everything(&rig).await;
    let gw = Gateway::start(&rig, "", &two_policies(&upstream.url())).await;

    let mut client = Mcp::new(gw.url("annotated"));
    client.initialize("2025-11-25", json!({})).await;
    let (_, before) = client.request("tools/list", Value::Null).await;
    assert_eq!(before.status, 200);
    let deleted = client.delete().await;
    assert_eq!(deleted.status, 200, "DELETE reaches the upstream: {}", deleted.text());
    let (_, after) = client.request("tools/list", Value::Null).await;
    assert!(matches!(after.status, 400 | 404), "the session is gone: {} {}", after.status, after.text());
    let again = client.delete().await;
    assert!(matches!(again.status, 400 | 404), "a second DELETE finds nothing: {}", again.status);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_with_a_list_a_refused_call_and_more() {
    let rig = Rig::new("streams-batch");
    let upstream = Upstream::everything(&rig).await;
    let tap = Tap::start(&upstream.base()).await;
    let gw = Gateway::start(&rig, "", &two_policies(&tap.url("/mcp"))).await;
    let (direct, hidden) = direct_list(&rig, &upstream, "2025-03-26").await;
    let hidden: Vec<&str> = hidden.iter().map(String::as_str).collect();

    let mut client = Mcp::new(gw.url("enforced"));
    client.initialize("2025-03-26", full_capabilities()).await;
    client.call("tools/list", Value::Null).await;
    tap.clear();
    let batch = json!([
        {"jsonrpc": "2.0", "id": 11, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 12, "method": "tools/call", "params": {"name": "echo", "arguments": {"message": "x"}}},
        {"jsonrpc": "2.0", "id": 13, "method": "tools/call", "params": {"name": "get-env", "arguments": {}}},
        {"jsonrpc": "2.0", "id": 14, "method": "ping"},
    ]);
    let reply = client.post(&batch).await;
    assert_eq!(reply.status, 200, "{}", reply.text());

    let list = reply.answer(&json!(11));
    meta::tools(&list).iter().for_each(|t| {
        checked_score(t);
    });
    let mut expected = without(&direct, &hidden);
    expected["id"] = json!(11);
    assert_same_json(&strip(&list, &direct), &expected, "the list inside the batch is rewritten");

    let refused = reply.answer(&json!(12));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(refused["error"]["data"]["tool"], "echo");
    assert!(refused["error"]["message"].as_str().unwrap().contains("\"echo\""));
    assert!(reply.answer(&json!(13))["result"]["content"].is_array(), "an allowed call in the batch is answered");
    assert_eq!(reply.answer(&json!(14))["result"], json!({}), "ping is answered");
    assert_eq!(reply.messages().len(), 4, "one answer per request");

    let sent: Vec<Value> = tap.exchanges().iter().filter_map(|e| e.request_json()).collect();
    assert_eq!(sent.len(), 1, "one POST upstream: {sent:?}");
    let ids: Vec<&Value> = sent[0].as_array().expect("still a batch").iter().map(|m| &m["id"]).collect();
    assert_eq!(ids, [&json!(11), &json!(13), &json!(14)], "the refused call was taken out of the batch");
}

/// A batch whose only request is refused, sent with a notification: the upstream answers the
/// rest with 202 and no body, but the client still needs the answer to its request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_whose_only_request_is_refused_still_gets_its_answer() {
    let rig = Rig::new("streams-batch-202");
    let upstream = Upstream::everything(&rig).await;
    let tap = Tap::start(&upstream.base()).await;
    let gw = Gateway::start(&rig, "", &two_policies(&tap.url("/mcp"))).await;

    let mut client = Mcp::new(gw.url("enforced"));
    client.initialize("2025-03-26", full_capabilities()).await;
    client.call("tools/list", Value::Null).await;

    // Only the refused call: the gateway answers the batch itself.
    let reply = client
        .post(
            &json!([{"jsonrpc": "2.0", "id": 21, "method": "tools/call", "params": {"name": "echo", "arguments": {}}}]),
        )
        .await;
    assert_eq!(reply.answer(&json!(21))["error"]["code"], -32602, "{}", reply.text());

    // The refused call plus a notification.
    let reply = client
        .post(&json!([
            {"jsonrpc": "2.0", "id": 22, "method": "tools/call", "params": {"name": "echo", "arguments": {}}},
            {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"},
        ]))
        .await;
    assert!(
        reply.messages().iter().any(|m| m["id"] == 22 && m["error"]["code"] == -32602),
        "the refusal must reach the client; got {} {:?}",
        reply.status,
        reply.text()
    );
    assert!(!tap.exchanges().iter().any(|e| e.calls_tool("echo")), "echo never reached the upstream");
}
