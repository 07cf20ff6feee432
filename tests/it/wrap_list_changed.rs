//! `wrap` tells its client to list again when a model's score changes what the client may see:
//! a 2025-era client (after `initialize`) gets a plain `notifications/tools/list_changed`; a
//! 2026-07-28 client that listens (`subscriptions/listen`) gets it naming its subscription, as
//! the servers' own notices do. Real processes: `tdqs-gateway wrap` around the SDK 2.x Python
//! stdio server, a loopback model that hides `create_issue` once it answers.

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use crate::support::model_server::{ModelServer, tool_answer};
use crate::support::rig::{Rig, python2, require_sdk2, rig_dir};

struct Wrap {
    _child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
}

impl Wrap {
    fn start(rig: &Rig, model: &ModelServer) -> Wrap {
        let config = rig.path("wrap.toml");
        let text = format!(
            "[judge]\nkind = \"openai\"\nbase_url = \"{}\"\nmodel = \"scripted-model\"\n\n\
             [policy]\nmode = \"enforce\"\nmin_tier = \"B\"\n",
            model.base_url()
        );
        std::fs::write(&config, text).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_tdqs-gateway"))
            .args(["wrap", "--store", "memory", "--config"])
            .arg(&config)
            .arg("--")
            .arg(python2())
            .arg(rig_dir().join("py2_server.py"))
            .arg("--stdio")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(rig.path("wrap.err")).unwrap())
            .kill_on_drop(true)
            .spawn()
            .expect("start wrap");
        let stdin = child.stdin.take().unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        Wrap { _child: child, stdin, lines }
    }

    async fn send(&mut self, msg: &Value) {
        let mut line = serde_json::to_vec(msg).unwrap();
        line.push(b'\n');
        self.stdin.write_all(&line).await.unwrap();
        self.stdin.flush().await.unwrap();
    }

    /// Messages until one satisfies `found` (included), within a patient bound.
    async fn until(&mut self, what: &str, found: impl Fn(&Value) -> bool) -> Vec<Value> {
        let wait = crate::support::patience::scaled(Duration::from_secs(30));
        let mut seen = Vec::new();
        let read = async {
            while let Ok(Some(line)) = self.lines.next_line().await {
                let v: Value = serde_json::from_str(&line).unwrap_or_else(|_| json!({ "unparsable": line }));
                let hit = found(&v);
                seen.push(v);
                if hit {
                    return true;
                }
            }
            false
        };
        let hit = tokio::time::timeout(wait, read).await.unwrap_or(false);
        assert!(hit, "{what}: not seen");
        seen
    }
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_client_through_wrap_hears_list_changed_when_a_score_hides_a_tool() {
    require_sdk2();
    let rig = Rig::new("wrap-list-changed-2025");
    let model = scripted_model();
    let mut wrap = Wrap::start(&rig, &model);
    wrap.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}))
        .await;
    wrap.until("initialize answered", |v| v["id"] == 1).await;
    wrap.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
    wrap.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}})).await;
    let seen = wrap.until("the gateway's list_changed", is_list_changed).await;
    let notice = seen.iter().find(|v| is_list_changed(v)).unwrap();
    assert!(notice.get("params").is_none(), "plain for a 2025 client: {notice}");
    wrap.send(&json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {}})).await;
    let answer = wrap.until("the second list", |v| v["id"] == 3).await.pop().unwrap();
    let names: Vec<&str> =
        answer["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["search_issues"], "the model's 2 hides create_issue: {answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2026_client_listening_through_wrap_hears_list_changed_for_its_subscription() {
    require_sdk2();
    let rig = Rig::new("wrap-list-changed-2026");
    let model = scripted_model();
    let mut wrap = Wrap::start(&rig, &model);
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    wrap.send(&json!({"jsonrpc": "2.0", "id": "sub-1", "method": "subscriptions/listen", "params": {
        "notifications": {"toolsListChanged": true}, "_meta": meta}}))
        .await;
    wrap.until("the server acknowledges", |v| v["method"] == "notifications/subscriptions/acknowledged").await;
    wrap.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta}})).await;
    let seen = wrap.until("the gateway's list_changed", is_list_changed).await;
    let notice = seen.iter().find(|v| is_list_changed(v)).unwrap();
    assert_eq!(notice["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "sub-1", "{notice}");
}
