//! `wrap` tells its client to list again when a model's score changes what the client may see:
//! a 2025-era client (after `initialize`) gets a plain `notifications/tools/list_changed`; a
//! 2026-07-28 client that listens (`subscriptions/listen`) gets it naming its subscription, as
//! the servers' own notices do. Real processes: `tdqs-gateway wrap` around the SDK 2.x Python
//! stdio server, a loopback model that hides `create_issue` once it answers.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::model_server::{ModelServer, tool_answer};
use crate::support::rig::{Rig, python2, require_sdk2, rig_dir};
use crate::support::wrap::Wrap;

/// How long a message may take to come (scaled).
const WAIT: Duration = Duration::from_secs(30);

/// `wrap` under enforce at tier B, judged by `model`, around the SDK 2.x Python stdio server.
fn start_wrap(rig: &Rig, model: &ModelServer) -> Wrap {
    let config = rig.path("wrap.toml");
    let text = format!(
        "[judge]\nkind = \"openai\"\nbase_url = \"{}\"\nmodel = \"scripted-model\"\n\n\
         [policy]\nmode = \"enforce\"\nmin_tier = \"B\"\n",
        model.base_url()
    );
    std::fs::write(&config, text).unwrap();
    let args = ["--store".into(), "memory".into(), "--config".into(), config.display().to_string()];
    let server =
        [python2().display().to_string(), rig_dir().join("py2_server.py").display().to_string(), "--stdio".into()];
    Wrap::start(&rig.dir, "wrap", &args, &server)
}

fn is_list_changed(v: &Value) -> bool {
    v["method"] == "notifications/tools/list_changed"
}

fn scripted_model() -> ModelServer {
    let model = ModelServer::start();
    model.set_tool_answer("search_issues", tool_answer([5, 5, 5, 5, 5, 5], false, "scripted"));
    model.set_tool_answer("create_issue", tool_answer([2, 2, 2, 2, 2, 2], false, "scripted"));
    model.set_canned_delay(Duration::from_millis(500));
    model
}

#[test]
fn a_2025_client_through_wrap_hears_list_changed_when_a_score_hides_a_tool() {
    require_sdk2();
    let rig = Rig::new("wrap-list-changed-2025");
    let model = scripted_model();
    let mut wrap = start_wrap(&rig, &model);
    wrap.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}));
    wrap.until("initialize answered", WAIT, |v| v["id"] == 1);
    wrap.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    wrap.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}));
    let seen = wrap.until("the gateway's list_changed", WAIT, is_list_changed);
    let notice = seen.iter().find(|v| is_list_changed(v)).unwrap();
    assert!(notice.get("params").is_none(), "plain for a 2025 client: {notice}");
    wrap.send(&json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {}}));
    let answer = wrap.until("the second list", WAIT, |v| v["id"] == 3).pop().unwrap();
    let names: Vec<&str> =
        answer["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["search_issues"], "the model's 2 hides create_issue: {answer}");
}

#[test]
fn a_2026_client_listening_through_wrap_hears_list_changed_for_its_subscription() {
    require_sdk2();
    let rig = Rig::new("wrap-list-changed-2026");
    let model = scripted_model();
    let mut wrap = start_wrap(&rig, &model);
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    wrap.send(&json!({"jsonrpc": "2.0", "id": "sub-1", "method": "subscriptions/listen", "params": {
        "notifications": {"toolsListChanged": true}, "_meta": meta}}));
    wrap.until("the server acknowledges", WAIT, |v| v["method"] == "notifications/subscriptions/acknowledged");
    wrap.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta}}));
    let seen = wrap.until("the gateway's list_changed", WAIT, is_list_changed);
    let notice = seen.iter().find(|v| is_list_changed(v)).unwrap();
    assert_eq!(notice["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "sub-1", "{notice}");
}
