//! Enforce mode against real upstreams and clients: tools below the minimum disappear from
//! `tools/list`, a `tools/call` naming one gets JSON-RPC -32602 saying which tool, its score and
//! tier and the minimum (in the message and in `data`), and the upstream never receives that call
//! (the rig's Python server records every request it gets). Allowed tools stay callable; `allow`,
//! `deny` and `dry_run` behave as documented. Which tools should go is worked out independently,
//! with `tdqs-gateway score` on the upstream's own list.

use crate::support::rig as support;

use serde_json::{Map, Value, json};
use support::http::Mcp;
use support::meta::{self, assert_same_json, checked_score, strip, without};
use support::{Gateway, Rig, Upstream, below, cli_scores};

const GOOD: [&str; 3] = ["search_issues", "create_issue", "count_to"];
const BAD: [&str; 3] = ["do_thing", "get_data", "process"];

async fn direct_list(upstream: &Upstream) -> Value {
    Mcp::new(upstream.url()).post(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})).await.json()
}

fn call_msg(id: Value, tool: &str, args: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": args}})
}

fn args_for(tool: &str) -> Value {
    match tool {
        "search_issues" => json!({"query": "crash"}),
        "create_issue" => json!({"title": "t", "body": "b"}),
        "count_to" => json!({"n": 2, "delay_ms": 0}),
        "do_thing" => json!({"a": "x", "b": 1}),
        "get_data" => json!({"x": "y"}),
        "process" => json!({"input": "i", "mode": "m"}),
        _ => json!({}),
    }
}

/// Checks a refusal: -32602, the tool, its score and tier, the minimum, in message and data.
#[track_caller]
fn assert_refusal(answer: &Value, id: &Value, tool: &str, cli: &Map<String, Value>, min: f64, reason: &str) {
    assert_eq!(answer["id"], *id, "the refusal answers the request's id: {answer}");
    assert!(answer.get("result").is_none(), "refused, not answered: {answer}");
    let err = &answer["error"];
    assert_eq!(err["code"], -32602, "{answer}");
    let message = err["message"].as_str().unwrap();
    assert!(message.contains(&format!("\"{tool}\"")), "message names the tool: {message}");
    let data = &err["data"];
    assert_eq!(data["tool"], tool, "{data}");
    assert_eq!(data["reason"], reason, "{data}");
    let tdqs = cli[tool]["tdqs"].as_f64().unwrap();
    let tier = cli[tool]["tier"].as_str().unwrap();
    assert_eq!(data["tdqs"].as_f64(), Some(tdqs), "data.tdqs: {data}");
    assert_eq!(data["tier"], tier, "data.tier: {data}");
    assert_eq!(data["minimum"].as_f64(), Some(min), "data.minimum: {data}");
    assert_eq!(data["minimumTier"], meta::tier_of(min), "data.minimumTier: {data}");
    if reason == "below_minimum" {
        for part in
            [format!("{tdqs:.1}"), format!("tier {tier}"), format!("{min:.1}"), format!("tier {}", meta::tier_of(min))]
        {
            assert!(message.contains(&part), "message says {part:?}: {message}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn low_tools_disappear_and_their_calls_never_reach_the_upstream() {
    let rig = Rig::new("enforce-basic");
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let gw = Gateway::single(&rig, "rig", &upstream.url(), "mode = \"enforce\"\nmin_tier = \"B\"").await;

    let direct = direct_list(&upstream).await;
    let cli = cli_scores(&rig, &direct["result"]);
    let hidden = below(&cli, 3.0);
    for bad in BAD {
        assert!(hidden.iter().any(|h| h == bad), "{bad} scores below B: {}", cli[bad]["tdqs"]);
    }
    for good in GOOD {
        assert!(!hidden.iter().any(|h| h == good), "{good} scores B or better: {}", cli[good]["tdqs"]);
    }

    let mut client = Mcp::new(gw.url("rig"));
    let listed = client.call("tools/list", Value::Null).await;
    let hidden_refs: Vec<&str> = hidden.iter().map(String::as_str).collect();
    let mut expected = without(&direct, &hidden_refs);
    expected["id"] = listed["id"].clone();
    meta::tools(&listed).iter().for_each(|t| {
        checked_score(t);
    });
    assert_same_json(&strip(&listed, &direct), &expected, "enforced list: the upstream's minus hidden tools");

    upstream.reset().await;
    for (i, tool) in hidden.iter().enumerate() {
        for id in [json!(100 + i), json!(format!("call-{tool}"))] {
            let reply = client.post(&call_msg(id.clone(), tool, args_for(tool))).await;
            assert_eq!(reply.status, 200, "{}", reply.text());
            assert_refusal(&reply.answer(&id), &id, tool, &cli, 3.0, "below_minimum");
        }
    }
    let id = json!(7);
    let reply = client.post(&call_msg(id.clone(), "search_issues", args_for("search_issues"))).await;
    let answer = reply.answer(&id);
    assert_eq!(answer["result"]["structuredContent"]["total"], 1, "an allowed tool still works: {answer}");
    assert_eq!(upstream.calls_received().await, ["search_issues"], "the upstream saw only the allowed call");

    // The Python SDK client gets the refusal as an MCP error, and can call allowed tools.
    let out = support::py_client(&["call", &gw.url("rig"), "get_data", r#"{"x": "y"}"#]).await;
    assert_eq!(out["error"]["code"], -32602, "{out}");
    assert!(out["error"]["message"].as_str().unwrap().contains("get_data"), "{out}");
    let names: Vec<&Value> = out["list"]["tools"].as_array().unwrap().iter().map(|t| &t["name"]).collect();
    assert!(!names.contains(&&json!("get_data")), "the SDK client does not see get_data: {names:?}");
    let out = support::py_client(&["call", &gw.url("rig"), "search_issues", r#"{"query": ""}"#]).await;
    assert_eq!(out["result"]["structuredContent"]["total"], 2, "{out}");
    assert_eq!(upstream.calls_received().await, ["search_issues", "search_issues"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allow_and_deny_lists_override_scores() {
    let rig = Rig::new("enforce-lists");
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let config = format!(
        "[policy]\nmode = \"enforce\"\nmin_tier = \"B\"\n\n[[upstream]]\nname = \"rig\"\nurl = \"{}\"\n\
         [upstream.policy]\nallow = [\"get_data\"]\ndeny = [\"search_issues\"]\n",
        upstream.url()
    );
    let gw = Gateway::start(&rig, "", &config).await;
    let cli = cli_scores(&rig, &direct_list(&upstream).await["result"]);

    let mut client = Mcp::new(gw.url("rig"));
    let listed = client.call("tools/list", Value::Null).await;
    let mut names = meta::names(&listed);
    names.sort();
    assert_eq!(names, ["count_to", "create_issue", "get_data"], "allowed low tool in, denied good tool out");

    upstream.reset().await;
    let id = json!("deny-1");
    let answer = client.post(&call_msg(id.clone(), "search_issues", args_for("search_issues"))).await.answer(&id);
    assert_refusal(&answer, &id, "search_issues", &cli, 3.0, "denied");
    assert!(answer["error"]["message"].as_str().unwrap().contains("denied"), "{answer}");
    let id = json!(5);
    let answer = client.post(&call_msg(id.clone(), "get_data", args_for("get_data"))).await.answer(&id);
    assert_eq!(answer["result"]["isError"], false, "an allow-listed tool is callable whatever its score: {answer}");
    assert_eq!(upstream.calls_received().await, ["get_data"]);
}

/// "This client sees these tools and nothing else": `deny = ["*"]` with the few names in
/// `allow`; and a pattern in `deny` (`create_*`) hides every tool it names.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wildcard_lists_show_only_the_tools_named() {
    let rig = Rig::new("enforce-wildcards");
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let config = format!(
        "[policy]\nmode = \"enforce\"\nmin_tier = \"B\"\n\n[[upstream]]\nname = \"only\"\nurl = \"{url}\"\n\
         [upstream.policy]\ndeny = [\"*\"]\nallow = [\"get_data\", \"search_*\"]\n\n\
         [[upstream]]\nname = \"pattern\"\nurl = \"{url}\"\n[upstream.policy]\ndeny = [\"create_*\"]\n",
        url = upstream.url()
    );
    let gw = Gateway::start(&rig, "", &config).await;
    let cli = cli_scores(&rig, &direct_list(&upstream).await["result"]);

    let mut only = Mcp::new(gw.url("only"));
    let mut names = meta::names(&only.call("tools/list", Value::Null).await);
    names.sort();
    assert_eq!(names, ["get_data", "search_issues"], "only the named tools, whatever their scores");
    upstream.reset().await;
    let id = json!("not-named");
    let answer = only.post(&call_msg(id.clone(), "count_to", args_for("count_to"))).await.answer(&id);
    assert_refusal(&answer, &id, "count_to", &cli, 3.0, "denied");
    let id = json!(2);
    let answer = only.post(&call_msg(id.clone(), "get_data", args_for("get_data"))).await.answer(&id);
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_eq!(upstream.calls_received().await, ["get_data"], "the refused call never arrived");

    let mut pattern = Mcp::new(gw.url("pattern"));
    let names = meta::names(&pattern.call("tools/list", Value::Null).await);
    assert!(!names.iter().any(|n| n.starts_with("create_")), "create_* hidden: {names:?}");
    assert!(names.contains(&"search_issues".to_owned()), "{names:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dry_run_hides_nothing_and_blocks_nothing() {
    let rig = Rig::new("enforce-dry-run");
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let gw =
        Gateway::single(&rig, "rig", &upstream.url(), "mode = \"enforce\"\nmin_tier = \"A\"\ndry_run = true").await;
    let direct = direct_list(&upstream).await;

    let mut client = Mcp::new(gw.url("rig"));
    let listed = client.call("tools/list", Value::Null).await;
    let mut expected = direct.clone();
    expected["id"] = listed["id"].clone();
    assert_same_json(&strip(&listed, &direct), &expected, "dry run: every tool stays");
    meta::tools(&listed).iter().for_each(|t| {
        checked_score(t);
    });

    upstream.reset().await;
    for (i, tool) in BAD.iter().enumerate() {
        let id = json!(i + 1);
        let answer = client.post(&call_msg(id.clone(), tool, args_for(tool))).await.answer(&id);
        assert!(answer.get("result").is_some(), "dry run lets {tool} through: {answer}");
    }
    assert_eq!(upstream.calls_received().await, BAD);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn min_score_threshold_between_two_good_tools() {
    let rig = Rig::new("enforce-min-score");
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let cli = cli_scores(&rig, &direct_list(&upstream).await["result"]);
    // Just above the weakest good tool: it goes, the others stay.
    let weakest = GOOD.iter().min_by(|a, b| cli[**a]["tdqs"].as_f64().partial_cmp(&cli[**b]["tdqs"].as_f64()).unwrap());
    let weakest = *weakest.unwrap();
    let min = cli[weakest]["tdqs"].as_f64().unwrap() + 0.1;
    let gw = Gateway::single(&rig, "rig", &upstream.url(), &format!("mode = \"enforce\"\nmin_score = {min:.1}")).await;

    let mut client = Mcp::new(gw.url("rig"));
    let names = meta::names(&client.call("tools/list", Value::Null).await);
    let mut expected: Vec<String> =
        cli.keys().filter(|n| cli[*n]["tdqs"].as_f64().unwrap() >= min - 1e-9).cloned().collect();
    expected.sort();
    let mut got = names.clone();
    got.sort();
    assert_eq!(got, expected, "visible tools at min_score {min:.1}");
    assert!(!names.contains(&weakest.to_owned()));

    upstream.reset().await;
    let id = json!(3);
    let answer = client.post(&call_msg(id.clone(), weakest, args_for(weakest))).await.answer(&id);
    let min = (min * 10.0).round() / 10.0;
    assert_refusal(&answer, &id, weakest, &cli, min, "below_minimum");
    assert!(upstream.calls_received().await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_sdk_clients_see_the_filtered_list_and_the_refusal_on_an_sse_server() {
    let rig = Rig::new("enforce-sdk");
    let upstream = Upstream::everything(&rig).await;
    let tap = support::tap::Tap::start(&upstream.base()).await;
    let gw = Gateway::single(&rig, "everything", &tap.url("/mcp"), "mode = \"enforce\"\nmin_tier = \"A\"").await;

    let mut direct = Mcp::new(upstream.url());
    direct.initialize("2025-11-25", json!({})).await;
    let direct_list = direct.call("tools/list", Value::Null).await;
    let cli = cli_scores(&rig, &direct_list["result"]);
    let hidden = below(&cli, 3.5);
    assert!(hidden.contains(&"echo".to_owned()), "echo is below A: {}", cli["echo"]["tdqs"]);
    let allowed = "get-env";
    assert!(!hidden.contains(&allowed.to_owned()), "{allowed} is A: {}", cli[allowed]["tdqs"]);

    let py = support::py_client(&["call", &gw.url("everything"), "echo", r#"{"message": "hi"}"#]).await;
    let ts = support::ts_client(&["call", &gw.url("everything"), "echo", r#"{"message": "hi"}"#]).await;
    for (client, out) in [("python", &py), ("typescript", &ts)] {
        let names: Vec<String> =
            out["list"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_owned()).collect();
        for h in &hidden {
            assert!(!names.contains(h), "{client}: {h} is hidden: {names:?}");
        }
        assert!(names.contains(&allowed.to_owned()), "{client}: {names:?}");
        assert_eq!(out["error"]["code"], -32602, "{client}: {out}");
        let message = out["error"]["message"].as_str().unwrap();
        assert!(message.contains("\"echo\"") && message.contains("3.5"), "{client}: {message}");
    }
    assert!(!tap.exchanges().iter().any(|e| e.calls_tool("echo")), "the upstream never received a call to echo");

    let py = support::py_client(&["call", &gw.url("everything"), allowed, "{}"]).await;
    let ts = support::ts_client(&["call", &gw.url("everything"), allowed, "{}"]).await;
    for out in [&py, &ts] {
        assert_eq!(out["result"]["isError"], false, "{out}");
    }
    assert_eq!(tap.exchanges().iter().filter(|e| e.calls_tool(allowed)).count(), 2);
}

/// A client may call a tool it never listed (it remembers the name, or it is a script): the
/// policy must hold all the same. Here the gateway has not listed the upstream's tools yet.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_are_refused_even_before_any_list() {
    let rig = Rig::new("enforce-no-list");
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let config = format!(
        "[policy]\nmode = \"enforce\"\nmin_tier = \"B\"\n\n[[upstream]]\nname = \"rig\"\nurl = \"{}\"\n\
         [upstream.policy]\ndeny = [\"search_issues\"]\n",
        upstream.url()
    );
    let gw = Gateway::start(&rig, "", &config).await;
    let client = Mcp::new(gw.url("rig"));
    for (id, tool) in [(1, "search_issues"), (2, "get_data")] {
        let answer = client.post(&call_msg(json!(id), tool, args_for(tool))).await.answer(&json!(id));
        assert_eq!(answer["error"]["code"], -32602, "{tool} must be refused without a prior list: {answer}");
    }
    assert_eq!(upstream.calls_received().await, Vec::<String>::new(), "the upstream received calls the policy forbids");
}

/// Upstreams behind a compressing proxy gzip their answers when the client accepts it, and the
/// Python SDK client (httpx) always does. The gateway must still see and rewrite the list.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compressed_answers_are_still_filtered_and_annotated() {
    let rig = Rig::new("enforce-gzip");
    let upstream = Upstream::fastmcp(&rig, &["--stateless", "--gzip"]).await;
    let gw = Gateway::single(&rig, "rig", &upstream.url(), "mode = \"enforce\"\nmin_tier = \"B\"").await;

    let out = support::py_client(&["list", &gw.url("rig")]).await;
    let tools = out["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    for bad in BAD {
        assert!(!names.contains(&bad), "{bad} must be hidden from a client that accepts gzip: {names:?}");
    }
    for t in tools {
        checked_score(t);
    }
}
