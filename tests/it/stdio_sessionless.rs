//! Session-less 2026-07-28 requests on a stdio upstream (`src/proxy/stdio/pool.rs`): each request
//! borrows a child process of its caller's for as long as its answer lasts. Concurrent requests
//! with the same id get their own answers; no answer names a session; enforce decides every call
//! (learning the tools in the caller's revision) and a refused call never reaches the server;
//! children are reused, never shared between callers, and stay under `max_sessions`.

use std::time::Duration;

use crate::support::holes::lenient_command;
use crate::support::rig::http::Mcp;
use crate::support::rig::{Gateway, Rig};
use serde_json::{Value, json};

const ENFORCE: &str = "mode = \"enforce\"\nmin_tier = \"B\"";

/// A 2026-07-28 request: no session, the envelope in `params._meta`.
fn modern(id: Value, method: &str, mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "sessionless-test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn call(id: Value, tool: &str, order: &str) -> Value {
    modern(id, "tools/call", json!({"name": tool, "arguments": {"order_id": order}}))
}

/// The lines of the lenient server's record (every message any of its processes read).
fn record_of(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap_or_default().lines().filter_map(|l| serde_json::from_str(l).ok()).collect()
}

async fn gateway(rig: &Rig, extra: &str, record: &std::path::Path) -> Gateway {
    let command = serde_json::to_string(&lenient_command(record, &[])).unwrap();
    let config = format!("[policy]\n{ENFORCE}\n\n[[upstream]]\nname = \"lenient\"\ncommand = {command}\n{extra}");
    Gateway::start(rig, "", &config).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_sessionless_calls_with_one_id_each_get_their_own_answer_and_enforce_holds() {
    let rig = Rig::new("sessionless-stdio");
    let record = rig.path("record.jsonl");
    let gw = gateway(&rig, "max_sessions = 4\n", &record).await;
    let client = Mcp::new(gw.url("lenient"));

    // What the gateway answers itself (here a call it cannot read: a key twice in its
    // arguments) neither starts a process nor reaches one.
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}"#;
    let twice = format!(
        r#"{{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{{"name":"lookup_order","arguments":{{"order_id":"A-1","order_id":"A-2"}},{meta}}}}}"#
    );
    let reply = client.post_raw(twice).await;
    assert!(reply.json()["error"]["code"].is_i64(), "refused: {}", reply.text());
    assert!(gw.live_children().is_empty(), "no process for a refused request: {:?}", gw.live_children());
    assert!(record_of(&record).is_empty(), "nothing reached a server");

    // Twelve callers at once, all with id 1, through at most four children.
    let replies = futures_util::future::join_all((0..12).map(|i| {
        let c = &client;
        async move { (i, c.post(&call(json!(1), "lookup_order", &format!("A-{i}"))).await) }
    }))
    .await;
    let mut served = 0;
    for (i, reply) in &replies {
        assert!(
            reply.header("mcp-session-id").is_none(),
            "a session-less answer names no session: {:?}",
            reply.headers
        );
        if reply.status == 503 {
            continue; // every child was busy: refused for this request only, clearly
        }
        assert_eq!(reply.status, 200, "{}", reply.text());
        let answer = reply.answer(&json!(1));
        let text = answer["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("{answer}"));
        let echoed: Value = serde_json::from_str(text).unwrap();
        assert_eq!(echoed["args"]["order_id"], format!("A-{i}"), "caller {i} got its own answer: {answer}");
        served += 1;
    }
    assert!(served >= 4, "at least one request per child is served: {served}");
    assert!(gw.live_children().len() <= 4, "max_sessions bounds the children: {:?}", gw.live_children());

    // A poor tool is refused (decided by a listing in the caller's revision) and never arrives.
    let refused = client.post(&call(json!("x"), "misc", "A-1")).await.answer(&json!("x"));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let lists = record_of(&record).iter().filter(|e| e["method"] == "tools/list").count();
    assert!(lists >= 1, "the gateway listed the server before deciding");
    let calls: Vec<String> = record_of(&record)
        .iter()
        .filter(|e| e["method"] == "tools/call")
        .map(|e| e["tool"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert!(calls.iter().all(|t| t == "lookup_order"), "no refused call reached the server: {calls:?}");
    assert_eq!(calls.len(), served, "each served call reached the server once");

    // A list the caller reads is filtered as for a session.
    let list = client.post(&modern(json!(7), "tools/list", json!({}))).await.answer(&json!(7));
    let names: Vec<&str> =
        list["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["lookup_order"], "{list}");

    // Without the envelope a request still needs a session, as before 2026-07-28.
    let old = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {}});
    let reply = client.post(&old).await;
    assert_eq!(reply.status, 400, "{}", reply.text());
}

/// Sequential requests of one caller meet the same child; another caller gets a child of its
/// own, so nothing one caller's process holds or writes can reach the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_caller_gets_children_of_its_own_and_reuses_them() {
    let rig = Rig::new("sessionless-owners");
    let record = rig.path("record.jsonl");
    let auth = "[auth]\nresource = \"{{GATEWAY}}\"\n[[auth.api_key]]\nname = \"alice\"\nkey_env = \"ALICE_KEY\"\n\
                [[auth.api_key]]\nname = \"bob\"\nkey_env = \"BOB_KEY\"\n\n";
    let command = serde_json::to_string(&lenient_command(&record, &[])).unwrap();
    let config = format!("{auth}[policy]\n{ENFORCE}\n\n[[upstream]]\nname = \"lenient\"\ncommand = {command}\n");
    let (alice, bob) = ("alice-key-0123456789abcdef", "bob-key-0123456789abcdef");
    let gw = Gateway::start_with_env(&rig, "", &config, &[("ALICE_KEY", alice), ("BOB_KEY", bob)]).await;
    let as_ = |key: &str| Mcp::new(gw.url("lenient")).with_header("authorization", &format!("Bearer {key}"));
    let (a, b) = (as_(alice), as_(bob));
    for n in 0..3 {
        let reply = a.post(&call(json!(n), "lookup_order", "A-1")).await;
        assert_eq!(reply.status, 200, "{}", reply.text());
    }
    gw.expect_children(1, Duration::from_secs(30), "alice's requests share one child").await;
    let reply = b.post(&call(json!(1), "lookup_order", "B-1")).await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    gw.expect_children(2, Duration::from_secs(30), "bob does not borrow alice's child").await;
    let reply = a.post(&call(json!(4), "lookup_order", "A-2")).await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    gw.expect_children(2, Duration::from_secs(30), "alice's child is reused").await;
    let anonymous = Mcp::new(gw.url("lenient")).post(&call(json!(1), "lookup_order", "A-1")).await;
    assert_eq!(anonymous.status, 401, "no token, no child: {}", anonymous.text());
}

/// A caller that leaves before its answer takes nothing with it and leaves nothing behind: the
/// child it held is ended rather than lent to the next request, which could otherwise read the
/// answer meant for the one that left.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_child_whose_caller_left_mid_request_is_ended_not_lent_again() {
    let rig = Rig::new("sessionless-abandoned");
    let record = rig.path("record.jsonl");
    // `--silent-learn`: a `tools/list` with a string id is never answered.
    let command = serde_json::to_string(&lenient_command(&record, &["--silent-learn"])).unwrap();
    let config = format!("[policy]\nmode = \"observe\"\n\n[[upstream]]\nname = \"lenient\"\ncommand = {command}\n");
    let gw = Gateway::start(&rig, "", &config).await;
    let client = Mcp::new(gw.url("lenient"));
    let first = client.post(&call(json!(1), "lookup_order", "A-1")).await;
    assert_eq!(first.status, 200, "{}", first.text());
    gw.expect_children(1, Duration::from_secs(30), "the first request's child stays for the next").await;

    let body = serde_json::to_vec(&modern(json!("never"), "tools/list", json!({}))).unwrap();
    let pending = client.send_post(body).await.expect("the stream opens");
    assert_eq!(pending.status(), 200);
    drop(pending); // the caller leaves before the server answers
    gw.expect_children(0, Duration::from_secs(30), "the abandoned child is ended").await;

    let next = client.post(&call(json!("never"), "lookup_order", "A-2")).await;
    let answer = next.answer(&json!("never"));
    let text = answer["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("{answer}"));
    assert!(text.contains("A-2"), "the next caller gets its own answer on a new child: {answer}");
}

/// A session-less `subscriptions/listen` holds its child for as long as it listens, and gets
/// the gateway's own `list_changed` (naming the subscription) when a model's score changes what
/// the caller may see, as on HTTP upstreams.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sessionless_listen_on_a_stdio_upstream_hears_the_gateways_list_changed() {
    use crate::support::model_server::{ModelServer, tool_answer};
    crate::support::rig::require_sdk2();
    let rig = Rig::new("sessionless-listen");
    let model = ModelServer::start();
    model.set_tool_answer("search_issues", tool_answer([5, 5, 5, 5, 5, 5], false, "scripted"));
    model.set_tool_answer("create_issue", tool_answer([2, 2, 2, 2, 2, 2], false, "scripted"));
    model.set_canned_delay(Duration::from_millis(500));
    let server = crate::support::rig::rig_dir().join("py2_server.py");
    let config = format!(
        "[store]\nurl = \"memory\"\n[judge]\nkind = \"openai\"\nbase_url = \"{}\"\nmodel = \"scripted-model\"\n\n\
         [policy]\n{ENFORCE}\n\n[[upstream]]\nname = \"py2\"\ncommand = [{:?}, {:?}, \"--stdio\"]\n",
        model.base_url(),
        crate::support::rig::python2().display().to_string(),
        server.display().to_string()
    );
    let gw = Gateway::start(&rig, "", &config).await;
    let client = Mcp::new(gw.url("py2"));
    let listen = modern(json!(9), "subscriptions/listen", json!({"notifications": {"toolsListChanged": true}}));
    let resp = client.send_post(serde_json::to_vec(&listen).unwrap()).await.expect("listen");
    assert!(resp.headers().get("mcp-session-id").is_none(), "{:?}", resp.headers());
    let mut stream = crate::support::rig::http::SseStream::new(resp);
    stream.until(Duration::from_secs(30), "the server acknowledges", |e| e.raw.contains("acknowledged")).await;

    // Provisional (heuristic) scores first; the model's answers then hide `create_issue`.
    let list = client.post(&modern(json!(1), "tools/list", json!({}))).await.answer(&json!(1));
    assert!(list["result"]["tools"].as_array().is_some(), "{list}");
    let seen = stream
        .until(Duration::from_secs(30), "the gateway's list_changed", |e| e.raw.contains("tools/list_changed"))
        .await;
    let notice = seen.iter().find(|e| e.raw.contains("tools/list_changed")).expect("a notice");
    assert!(notice.raw.contains(r#""io.modelcontextprotocol/subscriptionId":9"#), "{}", notice.raw);
    crate::support::rig::eventually_async("create_issue hidden", Duration::from_secs(30), async || {
        let list = client.post(&modern(json!(2), "tools/list", json!({}))).await.answer(&json!(2));
        let names: Vec<String> = list["result"]["tools"]
            .as_array()?
            .iter()
            .map(|t| t["name"].as_str().unwrap_or_default().to_owned())
            .collect();
        (names == ["search_issues"]).then_some(())
    })
    .await;
}
