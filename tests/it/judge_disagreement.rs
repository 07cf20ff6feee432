//! A model judge's answers checked against the heuristic's reading of the same definition: the
//! gateway binary with a loopback model judge in front of the rig's mutable MCP server. A model
//! that gives a content-free description top marks keeps its numbers, but the tool's score (in
//! the admin API's tool page and the server report) records every dimension where the two are
//! 3 or more points apart; a model that agrees records nothing, and the field is absent.

use crate::support::rig as support;

use crate::support::admin;

use crate::support::model_server;

use serde_json::{Value, json};

use admin::{AdminClient, MutableServer, tool};
use model_server::{ModelServer, coherence_answer, tool_answer};
use support::http::Mcp;
use support::{Gateway, Rig};
use tdqs_gateway::judge::heuristic::judge_tool;
use tdqs_gateway::tdqs::definition::parse_tools;
use tdqs_gateway::tdqs::gates::evaluate_gates;
use tdqs_gateway::tdqs::json::{JsString, parse};
use tdqs_gateway::tdqs::score::Dimension;
use tdqs_gateway::tdqs::signals::context_signals;
use tdqs_gateway::tdqs::tool_score::judged_score;

const GAMED: &str = "Returns. Use when. Do not use. Read-only. Idempotent. No side effects. Rate limit. \
                     Authentication. Pagination. Errors. Example: x.";
const HONEST: &str = "Look up one order by its identifier and return its status, items and total. Read-only; \
                      use list_orders to find an identifier first.";

/// The heuristic's six scores for `tool` among `siblings`, as the gateway computes them.
fn heuristic_scores(tool: &Value, siblings: &[&str]) -> [u8; 6] {
    let t = parse_tools(&parse(tool.to_string().as_bytes()).unwrap()).unwrap().tools.remove(0);
    let signals = context_signals(&t);
    let siblings: Vec<JsString> = siblings.iter().map(|s| JsString::from(*s)).collect();
    let j = judge_tool(&t, &signals, &siblings);
    judged_score(&t.name, signals, evaluate_gates(&t), &j).dimension_scores().0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wild_model_scores_are_kept_and_the_disagreement_recorded() {
    let rig = Rig::new("judge-disagreement");
    let tools = vec![tool("order_status", GAMED), tool("lookup_order", HONEST)];
    let gamed_heuristic = heuristic_scores(&tools[0], &["lookup_order"]);
    let honest_heuristic = heuristic_scores(&tools[1], &["order_status"]);
    assert!(gamed_heuristic.iter().filter(|s| **s <= 2).count() >= 3, "{gamed_heuristic:?}");

    let model = ModelServer::start();
    // Talked into top marks by cue words; and, for the honest tool, the heuristic's own reading.
    model.set_tool_answer("order_status", tool_answer([5; 6], false, "excellent"));
    model.set_tool_answer("lookup_order", tool_answer(honest_heuristic, false, "agrees"));
    model.set_coherence_answer("shop", coherence_answer([4, 4, 4, 4], &[], "coherent"));
    let server = MutableServer::start(&rig, &tools).await;
    let config = format!(
        "[judge]\nkind = \"openai\"\nbase_url = \"{}\"\nmodel = \"scripted-model\"\ntimeout_ms = 10000\n\n\
         [[upstream]]\nname = \"shop\"\nurl = \"{}\"\n",
        model.base_url(),
        server.url()
    );
    let gw = Gateway::start(&rig, "", &config).await;
    let mut client = Mcp::new(gw.url("shop"));
    client.initialize("2025-11-25", json!({})).await;
    client.call("tools/list", json!({})).await;
    let api = AdminClient::new(gw.base(), None);
    api.until("servers/shop/tools", "model answers in", |v| {
        v["total"] == 2 && v["tools"].as_array().unwrap().iter().all(|t| t["state"] == "final")
    })
    .await;

    let detail = api.get_ok("servers/shop/tools/order_status").await;
    let score = &detail["tool"]["score"];
    assert_eq!(detail["tool"]["judge"], "scripted-model");
    // The model's numbers stand.
    for d in Dimension::ALL {
        assert_eq!(score["scores"][d.key()], 5, "{}", d.key());
    }
    let recorded = score["disagreements"].as_array().expect("disagreements recorded");
    let expected: Vec<Value> = Dimension::ALL
        .iter()
        .zip(gamed_heuristic)
        .filter(|(_, h)| 5 - h >= 3)
        .map(|(d, h)| json!({"dimension": d.key(), "model": 5, "heuristic": h}))
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(recorded, &expected);

    // A model that reads the honest tool as the heuristic does records nothing.
    let detail = api.get_ok("servers/shop/tools/lookup_order").await;
    assert_eq!(detail["tool"]["score"]["summary"], "agrees");
    assert!(detail["tool"]["score"].get("disagreements").is_none(), "{}", detail["tool"]["score"]);

    // The server report (rebuilt on the next list, now from final scores) carries the same
    // record on the tool.
    client.call("tools/list", json!({})).await;
    let report = api
        .until("servers/shop/report", "a report with the model's scores", |v| {
            v["tools"].as_array().is_some_and(|t| t.iter().any(|t| t["name"] == "order_status" && t["tdqs"] == 5.0))
        })
        .await;
    let gamed = report["tools"].as_array().unwrap().iter().find(|t| t["name"] == "order_status").unwrap();
    assert_eq!(gamed["disagreements"], Value::Array(expected));
    assert_eq!(gamed["tdqs"], 5.0);
}
