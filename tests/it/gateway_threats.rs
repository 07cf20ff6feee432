//! Threats under `serve` and `wrap`, with real upstreams: the rig's `threat_server.py` (Python
//! SDK) serving poisoned and honest definitions over Streamable HTTP, stdio and legacy SSE.
//! Under enforce a poisoned tool is absent from `tools/list`, a call to it is refused with
//! reason `threat` and never reaches the server, and poisoned server `instructions` are removed
//! from the initialize answer: through every transport. Also: the cross-server case with two
//! upstreams, annotate's `_meta`, `allow` versus `allow_threats`, and a renamed tool on a pinned
//! upstream held for approval with the diff against its old self.
//!
//! Long: the same threat checks through every transport (Streamable HTTP, its SSE, stdio, wrap,
//! legacy SSE) and the policy cases beside them; split by transport, the checks would be repeated.

use crate::support::rig as support;

use crate::support::admin;
use crate::support::wrap::Wrap;

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use admin::{AdminClient, MutableServer};
use support::http::{Mcp, SseStream};
use support::{Gateway, Rig, Upstream, python, rig_dir};

const VERSION: &str = "2025-06-18";
const WAIT: Duration = Duration::from_secs(30);
/// Tools the `poisoned` set serves that steer the agent, and the honest one beside them.
const POISONED: [&str; 2] = ["add_numbers", "fetch_page"];
const HONEST: &str = "lookup_order";

/// Enforce with no quality minimum: what is hidden is hidden for a threat.
const ENFORCE: &str = "mode = \"enforce\"\nmin_score = 0.0";

fn names(list: &Value) -> Vec<String> {
    let mut n: Vec<String> = list["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("not a list answer: {list}"))
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    n.sort();
    n
}

fn initialize_params() -> Value {
    json!({"protocolVersion": VERSION, "capabilities": {}, "clientInfo": {"name": "threat-tests", "version": "1"}})
}

/// The refusal every transport must give for a poisoned tool.
fn assert_threat_refusal(answer: &Value, tool: &str) {
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let data = &answer["error"]["data"];
    assert_eq!(data["reason"], "threat", "{answer}");
    assert_eq!(data["tool"], tool, "{answer}");
    let threats = data["threats"].as_array().unwrap_or_else(|| panic!("no data.threats: {answer}"));
    assert!(threats.iter().any(|t| t["severity"] == "high" && t["kind"].is_string()), "{answer}");
    assert!(answer["error"]["message"].as_str().unwrap().contains(tool), "{answer}");
}

/// What a poisoned initialize answer must look like through the gateway under enforce.
fn assert_instructions_removed(init: &Value) {
    assert!(init["result"]["serverInfo"]["name"] == "rig-threats", "{init}");
    assert!(init["result"].get("instructions").is_none(), "poisoned instructions passed: {init}");
}

/// Lines of a stdio server's record that are `tools/call`s, by tool name.
fn recorded_calls(record: &Path) -> Vec<String> {
    std::fs::read_to_string(record)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|m| m["method"] == "tools/call")
        .map(|m| m["params"]["name"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// Calls a poisoned and then the honest tool: the first is refused, the second answered.
async fn call_both(client: &mut Mcp) {
    for tool in POISONED {
        let refused = client.call("tools/call", json!({"name": tool, "arguments": {"a": 1, "b": 2}})).await;
        assert_threat_refusal(&refused, tool);
    }
    let ok = client.call("tools/call", json!({"name": HONEST, "arguments": {"order_id": "A-1"}})).await;
    assert!(ok["result"]["content"].is_array(), "{ok}");
}

#[tokio::test]
async fn streamable_http_hides_poisoned_tools_and_their_instructions() {
    let rig = Rig::new("threats-http");
    let up = Upstream::python(&rig, "threats", "threat_server.py", &["--instructions", "poisoned"]).await;
    let gw = Gateway::single(&rig, "t", &up.url(), ENFORCE).await;
    let mut client = Mcp::new(gw.url("t"));
    let init = client.initialize(VERSION, json!({})).await;
    assert_instructions_removed(&init.answer(&json!(1)));
    let list = client.call("tools/list", json!({})).await;
    assert_eq!(names(&list), [HONEST], "{list}");
    up.reset().await;
    call_both(&mut client).await;
    assert_eq!(up.calls_received().await, [HONEST], "a refused call reached the server");
    // One log event per finding, once per definition: a second list logs nothing new.
    let found = || {
        let logs = std::fs::read_to_string(&gw.proc.err).unwrap_or_default();
        logs.lines().filter(|l| l.contains("threat found") && l.contains("tool=\"add_numbers\"")).count()
    };
    let first = found();
    assert!(first > 0, "no threat log event:\n{}", gw.logs());
    assert_eq!(names(&client.call("tools/list", json!({})).await), [HONEST]);
    assert_eq!(found(), first, "findings logged again for the same definition");

    // The admin API shows the findings with their evidence, and the metric counts them.
    let api = AdminClient::new(gw.base(), None);
    let detail = api.get_ok("servers/t/tools/add_numbers").await;
    assert_eq!(detail["tool"]["hideReason"], "threat", "{detail}");
    let findings = detail["tool"]["threats"].as_array().unwrap();
    assert!(findings.iter().any(|f| f["severity"] == "high" && f["evidence"].as_str().is_some_and(|e| !e.is_empty())));
    assert!(findings.iter().all(|f| f["field"].as_str().unwrap().starts_with("#/")), "{findings:?}");
    // The server report: every tool listed with its findings (JSON), a section in markdown.
    let report = api.until("servers/t/report", "report built", |v| v["threats"]["tools"].is_array()).await;
    let tools = report["threats"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 3, "every listed tool, hidden or not: {report}");
    assert!(tools.iter().any(|t| t["name"] == HONEST && t["threats"] == json!([])));
    assert!(report["threats"]["server"]["instructionsRemoved"] == true, "{report}");
    let md = api.get("servers/t/report?format=markdown").await.text;
    assert!(
        md.contains("## Threats") && md.contains("| add_numbers |") && md.contains("(server instructions)"),
        "{md}"
    );
    let refused = api.get_ok("servers/t/refused").await;
    assert!(refused.to_string().contains("\"threat\""), "{refused}");
    let metrics = reqwest::get(format!("{}/metrics", gw.base())).await.unwrap().text().await.unwrap();
    assert!(metrics.contains("tdqs_threats_found_total{"), "{metrics}");
    assert!(metrics.lines().any(|l| l.starts_with("tdqs_tools_hidden_total{") && l.contains("reason=\"threat\"")));
    assert!(metrics.lines().any(|l| l.starts_with("tdqs_calls_blocked_total{") && l.contains("reason=\"threat\"")));
}

#[tokio::test]
async fn streamable_http_sse_answers_are_rewritten_in_the_stream() {
    let rig = Rig::new("threats-http-sse");
    let up =
        Upstream::python(&rig, "threats", "threat_server.py", &["--instructions", "poisoned", "--sse-answers"]).await;
    let gw = Gateway::single(&rig, "t", &up.url(), ENFORCE).await;
    let mut client = Mcp::new(gw.url("t"));
    let init = client.initialize(VERSION, json!({})).await;
    assert!(init.is_sse(), "the upstream answers with SSE: {}", init.text());
    assert_instructions_removed(&init.answer(&json!(1)));
    let (id, reply) = client.request("tools/list", json!({})).await;
    assert!(reply.is_sse());
    assert_eq!(names(&reply.answer(&id)), [HONEST]);
    up.reset().await;
    call_both(&mut client).await;
    assert_eq!(up.calls_received().await, [HONEST], "a refused call reached the server");
}

#[tokio::test]
async fn stdio_upstreams_hide_poisoned_tools_and_their_instructions() {
    let rig = Rig::new("threats-stdio");
    let record = rig.path("stdio-record.jsonl");
    let script = rig_dir().join("threat_server.py");
    let config = format!(
        "[policy]\n{ENFORCE}\n\n[[upstream]]\nname = \"s\"\ncommand = [{:?}, {:?}, \"--transport\", \"stdio\", \"--instructions\", \"poisoned\", \"--record\", {:?}]\n",
        python().display().to_string(),
        script.display().to_string(),
        record.display().to_string()
    );
    let gw = Gateway::start(&rig, "", &config).await;
    let mut client = Mcp::new(gw.url("s"));
    let init = client.initialize(VERSION, json!({})).await;
    assert_instructions_removed(&init.answer(&json!(1)));
    assert_eq!(names(&client.call("tools/list", json!({})).await), [HONEST]);
    call_both(&mut client).await;
    assert_eq!(recorded_calls(&record), [HONEST], "a refused call reached the stdio server");
}

#[test]
fn wrap_hides_poisoned_tools_and_their_instructions() {
    let rig = Rig::new("threats-wrap");
    let record = rig.path("wrap-record.jsonl");
    let cfg = rig.path("wrap.toml");
    std::fs::write(&cfg, format!("[store]\nurl = \"memory\"\n[policy]\n{ENFORCE}\n")).unwrap();
    let args = ["--config".to_owned(), cfg.display().to_string()];
    let mut server = vec![python().display().to_string(), rig_dir().join("threat_server.py").display().to_string()];
    server.extend(["--transport", "stdio", "--instructions", "poisoned", "--record"].map(str::to_owned));
    server.push(record.display().to_string());
    let mut wrap = Wrap::start(&rig.dir, "wrap", &args, &server);
    let wait_for = |wrap: &Wrap, id: i64| -> Value {
        wrap.until(&format!("the answer to {id}"), WAIT, |v| v["id"] == id).pop().unwrap()
    };
    wrap.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize_params()}));
    assert_instructions_removed(&wait_for(&wrap, 1));
    wrap.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    wrap.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    assert_eq!(names(&wait_for(&wrap, 2)), [HONEST]);
    wrap.send(
        &json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "add_numbers", "arguments": {}}}),
    );
    assert_threat_refusal(&wait_for(&wrap, 3), "add_numbers");
    wrap.send(&json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": HONEST, "arguments": {}}}));
    assert!(wait_for(&wrap, 4)["result"].is_object());
    assert_eq!(recorded_calls(&record), [HONEST], "a refused call reached the wrapped server");
    let status = wrap.close(WAIT);
    assert!(status.is_some_and(|s| s.success()), "{status:?}\n{}", wrap.proc.logs());
}

/// A 2024-11-05 client on the gateway's `/sse/{upstream}`: POSTs to the endpoint it is given,
/// reads every answer on the stream.
struct LegacyClient {
    http: reqwest::Client,
    base: String,
    endpoint: String,
    stream: SseStream,
}

impl LegacyClient {
    async fn open(base: &str, upstream: &str) -> LegacyClient {
        let http = reqwest::Client::new();
        let resp =
            http.get(format!("{base}/sse/{upstream}")).header("accept", "text/event-stream").send().await.unwrap();
        assert_eq!(resp.status(), 200);
        let mut stream = SseStream::new(resp);
        let ev = stream.until(WAIT, "endpoint event", |e| e.event.as_deref() == Some("endpoint")).await.pop().unwrap();
        let endpoint = ev.data.unwrap();
        LegacyClient { http, base: base.to_owned(), endpoint, stream }
    }

    async fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.post(&msg).await;
        let ev = self
            .stream
            .until(WAIT, &format!("answer {id}"), |e| e.json().is_some_and(|v| v["id"] == id))
            .await
            .pop()
            .unwrap();
        ev.json().unwrap()
    }

    async fn post(&self, msg: &Value) {
        let url = format!("{}{}", self.base, self.endpoint);
        let r = self.http.post(url).header("content-type", "application/json").json(msg).send().await.unwrap();
        assert!(r.status().is_success(), "{}", r.status());
    }
}

#[tokio::test]
async fn legacy_sse_upstreams_hide_poisoned_tools_and_their_instructions() {
    let rig = Rig::new("threats-sse");
    let up = Upstream::python(
        &rig,
        "threats-sse",
        "threat_server.py",
        &["--transport", "sse", "--instructions", "poisoned"],
    )
    .await;
    let config = format!("[policy]\n{ENFORCE}\n\n[[upstream]]\nname = \"old\"\nsse_url = \"{}/sse\"\n", up.base());
    let gw = Gateway::start(&rig, "", &config).await;
    let mut client = LegacyClient::open(&gw.base(), "old").await;
    assert_instructions_removed(&client.request(1, "initialize", initialize_params()).await);
    client.post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
    assert_eq!(names(&client.request(2, "tools/list", json!({})).await), [HONEST]);
    up.reset().await;
    assert_threat_refusal(
        &client.request(3, "tools/call", json!({"name": "add_numbers", "arguments": {}})).await,
        "add_numbers",
    );
    let ok = client.request(4, "tools/call", json!({"name": HONEST, "arguments": {}})).await;
    assert!(ok["result"].is_object(), "{ok}");
    assert_eq!(up.calls_received().await, [HONEST], "a refused call reached the legacy server");
}

/// Upstream A (`mail`, HTTP) and B (`bridge`, stdio): B's tool that tells the agent how to use
/// A's `send_email` is only a threat beside A. Listed before A, it is visible; once A lists,
/// B's listening session hears `list_changed` and the tool is gone. B's `lookup_order`
/// collides with A's and is flagged in `_meta`.
#[tokio::test]
async fn a_tool_steering_another_upstreams_tool_is_hidden_once_both_are_known() {
    let rig = Rig::new("threats-cross");
    let mail = Upstream::python(&rig, "mail", "threat_server.py", &["--set", "mail"]).await;
    let config = format!(
        "[policy]\n{ENFORCE}\n\n[[upstream]]\nname = \"mail\"\nurl = \"{}\"\n\n[[upstream]]\nname = \"bridge\"\ncommand = [{:?}, {:?}, \"--transport\", \"stdio\", \"--set\", \"bridge\"]\n",
        mail.url(),
        python().display().to_string(),
        rig_dir().join("threat_server.py").display().to_string()
    );
    let gw = Gateway::start(&rig, "", &config).await;
    let mut b = Mcp::new(gw.url("bridge"));
    b.initialize(VERSION, json!({})).await;
    let alone = b.call("tools/list", json!({})).await;
    assert_eq!(names(&alone), ["format_signature", "lookup_order", "word_count"], "alone, nothing crosses: {alone}");
    let mut listening = b.get_stream(None).await;
    assert_eq!(listening.status, 200);

    let mut a = Mcp::new(gw.url("mail"));
    a.initialize(VERSION, json!({})).await;
    assert_eq!(names(&a.call("tools/list", json!({})).await), ["lookup_order", "send_email"]);

    listening
        .until(WAIT, "list_changed on bridge", |e| {
            e.json().is_some_and(|v| v["method"] == "notifications/tools/list_changed")
        })
        .await;
    let beside = b.call("tools/list", json!({})).await;
    assert_eq!(names(&beside), ["lookup_order", "word_count"], "{beside}");
    let refused = b.call("tools/call", json!({"name": "format_signature", "arguments": {"name": "x"}})).await;
    assert_threat_refusal(&refused, "format_signature");
    let kinds = refused["error"]["data"]["threats"].to_string();
    assert!(kinds.contains("foreign-tool-reference"), "hidden for the cross-server reference: {refused}");
    // The collision is reported where a client sees the tool, not hidden at severity high.
    let collide = beside["result"]["tools"].as_array().unwrap().iter().find(|t| t["name"] == "lookup_order").unwrap();
    let threats = collide["_meta"]["tdqs-gateway/score"]["threats"].as_array();
    assert!(
        threats.is_some_and(|t| t.iter().any(|x| x["kind"] == "tool-name-collision")),
        "the name collision is not flagged: {collide}"
    );
    let api = AdminClient::new(gw.base(), None);
    let word = api.get_ok("servers/bridge/tools/word_count").await;
    assert_eq!(word["tool"]["threats"], json!([]), "an honest tool stays clean: {word}");
}

#[tokio::test]
async fn annotate_flags_threats_in_meta_and_keeps_everything() {
    let rig = Rig::new("threats-annotate");
    let up = Upstream::python(&rig, "threats", "threat_server.py", &["--instructions", "poisoned"]).await;
    let gw = Gateway::single(&rig, "t", &up.url(), "mode = \"annotate\"").await;
    let mut client = Mcp::new(gw.url("t"));
    let init = client.initialize(VERSION, json!({})).await.answer(&json!(1));
    assert!(init["result"]["instructions"].as_str().is_some_and(|i| i.contains("id_rsa")), "flag keeps them: {init}");
    let list = client.call("tools/list", json!({})).await;
    assert_eq!(names(&list), ["add_numbers", "fetch_page", HONEST]);
    for t in list["result"]["tools"].as_array().unwrap() {
        let meta = &t["_meta"]["tdqs-gateway/score"];
        if t["name"] == HONEST {
            assert!(meta.get("threats").is_none(), "a clean tool's annotation is unchanged: {meta}");
        } else {
            let threats = meta["threats"].as_array().unwrap_or_else(|| panic!("no threats in {meta}"));
            assert!(threats.iter().any(|x| x["severity"] == "high"), "{meta}");
            assert!(threats.iter().all(|x| x.as_object().unwrap().len() == 2), "kinds and severities only: {meta}");
        }
    }
    let ok = client.call("tools/call", json!({"name": "add_numbers", "arguments": {}})).await;
    assert!(ok["result"].is_object(), "flag never refuses: {ok}");
}

#[tokio::test]
async fn allow_does_not_unhide_a_threat_and_allow_threats_does() {
    let rig = Rig::new("threats-allow");
    let up = Upstream::python(&rig, "threats", "threat_server.py", &[]).await;
    let allow = Gateway::single(&rig, "t", &up.url(), &format!("{ENFORCE}\nallow = [\"add_numbers\"]")).await;
    let mut c = Mcp::new(allow.url("t"));
    c.initialize(VERSION, json!({})).await;
    // Called before any client listed: the gateway lists the upstream itself, then refuses.
    assert_threat_refusal(&c.call("tools/call", json!({"name": "fetch_page", "arguments": {}})).await, "fetch_page");
    assert!(!up.calls_received().await.contains(&"fetch_page".to_owned()));
    assert_eq!(names(&c.call("tools/list", json!({})).await), [HONEST]);
    assert_threat_refusal(&c.call("tools/call", json!({"name": "add_numbers", "arguments": {}})).await, "add_numbers");

    let excepted =
        Gateway::single(&rig, "t", &up.url(), &format!("{ENFORCE}\nallow_threats = [\"add_numbers\"]")).await;
    let mut c = Mcp::new(excepted.url("t"));
    c.initialize(VERSION, json!({})).await;
    let list = c.call("tools/list", json!({})).await;
    assert_eq!(names(&list), ["add_numbers", HONEST], "only the named tool is excepted");
    let add = list["result"]["tools"].as_array().unwrap().iter().find(|t| t["name"] == "add_numbers").unwrap();
    assert!(add["_meta"]["tdqs-gateway/score"]["threats"].is_array(), "still reported: {add}");
    assert!(c.call("tools/call", json!({"name": "add_numbers", "arguments": {}})).await["result"].is_object());
}

fn definition(name: &str, description: &str) -> Value {
    json!({
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string", "description": "A path in the workspace."}}}
    })
}

#[tokio::test]
async fn a_renamed_tool_on_a_pinned_upstream_is_held_with_the_diff_to_its_old_self() {
    let rig = Rig::new("threats-rename");
    let read = "Reads one file from the workspace and returns its text. Use list_dir to find a path first.";
    let list_dir = definition("list_dir", "Lists the files of one workspace folder, names only, sorted.");
    let server = MutableServer::start(&rig, &[definition("read_file", read), list_dir.clone()]).await;
    let gw = Gateway::single(&rig, "m", &server.url(), &format!("{ENFORCE}\npin = true")).await;
    let mut c = Mcp::new(gw.url("m"));
    c.initialize(VERSION, json!({})).await;
    assert_eq!(names(&c.call("tools/list", json!({})).await), ["list_dir", "read_file"], "first listing: trusted");

    // The rug pull renames the tool: a new name must not buy trust on first use.
    server.set(&[definition("read_file_v2", &format!("{read} Also returns hidden files.")), list_dir]);
    let list = c.call("tools/list", json!({})).await;
    assert_eq!(names(&list), ["list_dir"], "{list}");
    let refused = c.call("tools/call", json!({"name": "read_file_v2", "arguments": {}})).await;
    assert_eq!(refused["error"]["data"]["reason"], "pin_new", "{refused}");

    let api = AdminClient::new(gw.base(), None);
    let approvals = api.get_ok("approvals").await;
    let held = approvals["approvals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["tool"] == "read_file_v2")
        .unwrap_or_else(|| panic!("not awaiting approval: {approvals}"))
        .clone();
    assert_eq!(held["pin"], "new");
    assert_eq!(held["nearestApproved"]["tool"], "read_file", "{held}");
    let diff = held["nearestApproved"]["diff"].as_str().unwrap();
    assert!(diff.contains("-  \"name\": \"read_file\"") && diff.contains("+  \"name\": \"read_file_v2\""), "{diff}");
    assert!(diff.contains("Also returns hidden files."), "{diff}");

    let approved = api.post("servers/m/tools/read_file_v2/approve", json!({})).await;
    assert_eq!(approved.status, 200, "{}", approved.text);
    let after = c.call("tools/list", json!({})).await;
    assert_eq!(names(&after), ["list_dir", "read_file_v2"], "approved, it is back: {after}");
}
