//! Annotate mode against real upstreams: every tool of a `tools/list` answer gains
//! `_meta["tdqs-gateway/score"]` with the documented keys, and nothing else changes. Each test
//! puts a recording tap between the gateway and the upstream, so the client's answer is compared
//! with exactly what the upstream said for the same request (for SSE: the same events, ids and
//! priming events included), and also with the same list fetched directly from the upstream.

use crate::support::rig as support;

use serde_json::{Value, json};
use support::http::{Mcp, parse_events};
use support::meta::{self, assert_same_json, checked_score, strip};
use support::tap::Tap;
use support::{Gateway, Rig, Upstream};

/// Capabilities that make server-everything expose all 17 tools.
fn full_capabilities() -> Value {
    json!({"roots": {"listChanged": true}, "sampling": {}, "elicitation": {"form": {}, "url": {}}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_answers_gain_scores_and_nothing_else() {
    let rig = Rig::new("annotate-json");
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let tap = Tap::start(&upstream.base()).await;
    let gw = Gateway::single(&rig, "rig", &tap.url("/mcp"), "mode = \"annotate\"").await;

    let list = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list"});
    let direct = Mcp::new(upstream.url()).post(&list).await;
    let through = Mcp::new(gw.url("rig")).post(&list).await;
    assert_eq!((direct.status, through.status), (200, 200), "{}", through.text());
    assert!(direct.content_type().starts_with("application/json"), "the stateless server answers JSON");
    assert_eq!(through.content_type(), direct.content_type(), "the gateway keeps the upstream's content type");
    let (direct, through_json) = (direct.json(), through.json());

    assert_eq!(meta::names(&through_json), meta::names(&direct), "annotate hides nothing");
    for tool in meta::tools(&through_json) {
        let s = checked_score(tool);
        assert_eq!(s["provisional"], false, "the heuristic judge's score is final: {tool}");
        assert!(s["judge"].as_str().unwrap().contains("heuristic"), "{s:?}");
    }
    assert_same_json(&strip(&through_json, &direct), &direct, "gateway answer without its scores vs direct answer");

    // Exactly the upstream's answer to this very request, scores aside.
    let upstream_said: Value = serde_json::from_slice(&tap.find("tools/list", &json!(7)).response_bytes()).unwrap();
    assert_same_json(&strip(&through_json, &upstream_said), &upstream_said, "vs the tapped upstream answer");

    // The scores agree with the score command on the same definitions.
    let cli = support::cli_scores(&rig, &direct["result"]);
    for tool in meta::tools(&through_json) {
        let name = tool["name"].as_str().unwrap();
        let (s, c) = (checked_score(tool), &cli[name]);
        assert_eq!(s["tdqs"], c["tdqs"], "{name}: tdqs");
        assert_eq!(s["tier"], c["tier"], "{name}: tier");
        assert_eq!(s["flags"], c["flags"], "{name}: flags");
        assert_eq!(s["smells"], c["smells"], "{name}: smells");
        assert_eq!(s["inputHash"], c["contextSignals"]["inputHash"], "{name}: inputHash");
    }

    // The deliberately bad tools are scored as bad, the good ones as good.
    let tier = |name: &str| {
        let t = meta::tools(&through_json).iter().find(|t| t["name"] == name).unwrap();
        checked_score(t)["tier"].as_str().unwrap().to_owned()
    };
    for good in ["search_issues", "create_issue", "count_to"] {
        assert!(matches!(tier(good).as_str(), "A" | "B"), "{good} is well described: tier {}", tier(good));
    }
    for bad in ["do_thing", "get_data", "process"] {
        assert!(matches!(tier(bad).as_str(), "D" | "F"), "{bad} is badly described: tier {}", tier(bad));
    }
    let no_desc = meta::tools(&through_json).iter().find(|t| t["name"] == "do_thing").unwrap();
    assert!(checked_score(no_desc)["flags"].as_array().unwrap().contains(&json!("No Description")));

    // A string id comes back as the same string.
    let list = json!({"jsonrpc": "2.0", "id": "list-\u{e9}-1", "method": "tools/list", "params": {}});
    let answer = Mcp::new(gw.url("rig")).post(&list).await.json();
    assert_eq!(answer["id"], json!("list-\u{e9}-1"));
    assert_eq!(meta::tools(&answer).len(), 6);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sse_answers_keep_every_event_and_id() {
    let rig = Rig::new("annotate-sse");
    let upstream = Upstream::everything(&rig).await;
    let tap = Tap::start(&upstream.base()).await;
    let gw = Gateway::single(&rig, "everything", &tap.url("/mcp"), "mode = \"annotate\"").await;

    let mut client = Mcp::new(gw.url("everything"));
    client.initialize("2025-11-25", full_capabilities()).await;
    let session = client.session.clone().expect("server-everything is stateful");
    let (id, reply) = client.request("tools/list", Value::Null).await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert!(reply.is_sse(), "server-everything answers with SSE: {}", reply.content_type());
    assert_eq!(reply.header("mcp-session-id"), Some(session.as_str()));

    let exchange = tap.find("tools/list", &id);
    let upstream_events = parse_events(&exchange.response_bytes());
    let client_events = reply.events();
    assert_eq!(
        client_events.len(),
        upstream_events.len(),
        "same number of events\nclient: {client_events:#?}\nupstream: {upstream_events:#?}"
    );
    assert!(upstream_events.len() >= 2, "a priming event, then the answer: {upstream_events:#?}");
    assert_eq!(upstream_events[0].data.as_deref(), Some(""), "2025-11-25 priming event");
    assert_eq!(client_events[0].raw, upstream_events[0].raw, "the priming event passes byte for byte");
    let mut answered = false;
    for (c, u) in client_events.iter().zip(&upstream_events) {
        assert!(u.id.is_some(), "server-everything gives every event an id");
        assert_eq!(c.id, u.id, "event ids are preserved");
        assert_eq!(c.event, u.event, "event types are preserved");
        assert_eq!(c.retry, u.retry, "retry is preserved");
        match (c.json(), u.json()) {
            (Some(cj), Some(uj)) if uj["id"] == id => {
                answered = true;
                assert_eq!(meta::tools(&cj).len(), 17, "every tool, conditional ones included");
                meta::tools(&cj).iter().for_each(|t| {
                    checked_score(t);
                });
                assert_same_json(&strip(&cj, &uj), &uj, "annotated answer without scores vs upstream's");
            }
            (cj, uj) => assert_eq!(cj, uj, "other events pass unchanged"),
        }
    }
    assert!(answered, "the list answer was among the events");

    // The same list fetched directly (another session, same capabilities) matches too.
    let mut direct = Mcp::new(upstream.url());
    direct.initialize("2025-11-25", full_capabilities()).await;
    let direct_answer = direct.call("tools/list", Value::Null).await;
    let through_answer = reply.answer(&id);
    let mut stripped = strip(&through_answer, &direct_answer);
    stripped["id"] = direct_answer["id"].clone();
    assert_same_json(&stripped, &direct_answer, "through the gateway vs directly");

    for h in ["cache-control", "content-type"] {
        assert_eq!(reply.header(h), exchange.response_headers.get(h).and_then(|v| v.to_str().ok()), "header {h}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_client_sees_scores_on_a_stateful_server() {
    let rig = Rig::new("annotate-pyclient");
    let upstream = Upstream::fastmcp(&rig, &[]).await;
    let gw = Gateway::single(&rig, "rig", &upstream.url(), "mode = \"annotate\"").await;

    let direct = support::py_client(&["list", &upstream.url()]).await;
    let through = support::py_client(&["list", &gw.url("rig")]).await;
    assert_eq!(through["pages"], direct["pages"]);
    let (dt, tt) = (direct["tools"].as_array().unwrap(), through["tools"].as_array().unwrap());
    assert_eq!(tt.len(), 6);
    for (d, t) in dt.iter().zip(tt) {
        checked_score(t);
        let wrap = |tools: Vec<Value>| json!({"result": {"tools": tools}});
        let (d1, t1) = (wrap(vec![d.clone()]), wrap(vec![t.clone()]));
        assert_same_json(&strip(&t1, &d1), &d1, "a tool as the SDK client parsed it");
    }

    // A raw list on the stateful (SSE) server: same answer as directly, scores aside.
    let mut raw = Mcp::new(gw.url("rig"));
    raw.initialize("2025-06-18", json!({})).await;
    let (id, reply) = raw.request("tools/list", Value::Null).await;
    assert!(reply.is_sse(), "the stateful FastMCP server answers with SSE");
    let through = reply.answer(&id);
    let mut direct_client = Mcp::new(upstream.url());
    direct_client.initialize("2025-06-18", json!({})).await;
    let mut direct = direct_client.call("tools/list", Value::Null).await;
    direct["id"] = id;
    assert_same_json(&strip(&through, &direct), &direct, "stateful SSE list");
}
