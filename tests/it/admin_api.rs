//! The admin API over real sockets: the gateway binary in front of the rig's MCP servers (and
//! a loopback model judge), asked through `/admin/api/` with reqwest.
//!
//! - the bearer token: 401 without it or with a wrong one, 200 with it, never logged;
//! - refusing to start beyond loopback without a token; the separate admin listener;
//! - tools paginated weakest first, server reports in JSON and markdown, history, refusals;
//! - a pinned upstream whose definition changes: hidden, approved through the API, visible;
//! - re-scoring with the model judge (counted on the model server);
//! - after a restart, the server report (JSON and markdown) from the store before any list.
//!
//! Long: each test walks one area of `/admin/api/` end to end over the same rig, token and listing
//! helpers; together they read as a tour of the API.

use crate::support::rig as support;

use crate::support::admin;
use crate::support::gateway;
use crate::support::model_server;
use crate::support::process::run_to_exit;

use std::time::Duration;

use serde_json::{Value, json};

use admin::{AdminClient, MutableServer, first_tools, tool};
use model_server::{ModelServer, coherence_answer, tool_answer};
use support::http::{Mcp, SseStream};
use support::{Gateway, Rig, Upstream, free_port};

const TOKEN: &str = "adm-7f3c9e1b5a2d4e6f8091a2b3c4d5e6f7";

fn names(tools: &Value) -> Vec<String> {
    tools.as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_owned()).collect()
}

/// `tools/list` through the gateway (a fresh session), as tool names.
async fn list_names(gw: &Gateway, upstream: &str) -> Vec<String> {
    let mut client = Mcp::new(gw.url(upstream));
    client.initialize("2025-11-25", json!({})).await;
    let answer = client.call("tools/list", json!({})).await;
    names(&answer["result"]["tools"])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bearer_token_is_required_and_never_logged() {
    let rig = Rig::new("admin-token");
    let up = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let config = format!("[[upstream]]\nname = \"issues\"\nurl = \"{}\"\n", up.url());
    let gw = Gateway::start_with_env(&rig, "", &config, &[("TDQS_ADMIN_TOKEN", TOKEN)]).await;

    let anonymous = AdminClient::new(gw.base(), None);
    let a = anonymous.get("upstreams").await;
    assert_eq!(a.status, 401, "{}", a.text);
    assert!(a.header("www-authenticate").starts_with("Bearer"), "{:?}", a.headers);
    assert!(a.json()["error"].as_str().unwrap().contains("bearer token"));

    let wrong = AdminClient::new(gw.base(), Some("adm-not-the-token"));
    assert_eq!(wrong.get("upstreams").await.status, 401);
    let almost = AdminClient::new(gw.base(), Some(&TOKEN[..TOKEN.len() - 1]));
    assert_eq!(almost.get("upstreams").await.status, 401);
    // POSTs too: no token, no approval.
    assert_eq!(anonymous.post("servers/issues/rescore", json!({})).await.status, 401);

    let ok = AdminClient::new(gw.base(), Some(TOKEN));
    let v = ok.get_ok("upstreams").await;
    assert_eq!(v["upstreams"][0]["name"], "issues");
    assert_eq!(v["upstreams"][0]["transport"], "streamable_http");
    assert_eq!(v["upstreams"][0]["status"]["reachable"], true);

    // The page itself holds no data and loads without the token (it asks for it).
    let page = reqwest::get(format!("{}/admin/", gw.base())).await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.headers()["content-security-policy"].to_str().unwrap().contains("default-src 'none'"));
    assert!(page.text().await.unwrap().contains("Admin token"));

    // Errors are JSON with the right status.
    let a = ok.get("servers/nope/report").await;
    assert_eq!((a.status, a.json()["error"].as_str().unwrap().contains("nope")), (404, true));
    let a = ok.get("no/such/route").await;
    assert_eq!(a.status, 404);
    let a = ok.send(ok.request(reqwest::Method::DELETE, "upstreams")).await;
    assert_eq!((a.status, a.header("allow")), (405, "GET, HEAD"));
    let a = ok.send(ok.request(reqwest::Method::GET, "servers/issues/rescore")).await;
    assert_eq!((a.status, a.header("allow")), (405, "POST"));
    let a = ok.get("servers/issues/tools?limit=lots").await;
    assert_eq!(a.status, 400);
    assert!(a.json()["error"].as_str().unwrap().contains("limit"));
    // A form post (what a cross-site page could send without a preflight) is refused.
    let form = ok.request(reqwest::Method::POST, "servers/issues/rescore").header("content-type", "text/plain");
    assert_eq!(ok.send(form).await.status, 415);

    assert!(!gw.logs().contains(TOKEN), "the admin token appears in the gateway's logs");
}

/// Runs `tdqs-gateway serve` on `config` and waits for it to exit (it should refuse to start).
fn serve_expecting_refusal(rig: &Rig, config: &str) -> (bool, String) {
    let path = rig.path("refused.toml");
    std::fs::write(&path, config).unwrap();
    let mut cmd = gateway::command();
    cmd.args(["serve", "--config"]).arg(&path).env_remove("TDQS_ADMIN_TOKEN");
    let (status, err) = run_to_exit(&rig.dir, "serve-refused", cmd, Duration::from_secs(30));
    (status.success(), err)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_token_beyond_loopback_is_refused_at_start_and_admin_can_listen_apart() {
    let rig = Rig::new("admin-bind");
    let upstream = "[[upstream]]\nname = \"a\"\nurl = \"http://127.0.0.1:9/mcp\"\n";

    let (ok, err) = serve_expecting_refusal(&rig, &format!("[listen]\naddr = \"0.0.0.0:{}\"\n{upstream}", free_port()));
    assert!(!ok, "exit status should say failure");
    assert!(err.contains("admin.token_env") && err.contains("TDQS_ADMIN_TOKEN"), "stderr: {err}");
    assert!(err.contains("non-loopback"), "stderr: {err}");
    let (ok, err) = serve_expecting_refusal(
        &rig,
        &format!(
            "[listen]\naddr = \"127.0.0.1:{}\"\n[admin]\naddr = \"0.0.0.0:{}\"\n{upstream}",
            free_port(),
            free_port()
        ),
    );
    assert!(!ok && err.contains("admin.token_env"), "stderr: {err}");

    // A separate loopback admin listener: the API is there and not on the main listener.
    let admin_port = free_port();
    let gw = Gateway::start(&rig, &format!("\n[admin]\naddr = \"127.0.0.1:{admin_port}\""), upstream).await;
    let apart = AdminClient::new(format!("http://127.0.0.1:{admin_port}"), None);
    assert_eq!(apart.get_ok("upstreams").await["upstreams"][0]["name"], "a");
    assert_eq!(apart.get_ok("upstreams").await["upstreams"][0]["status"]["reachable"], false);
    let main = AdminClient::new(gw.base(), None);
    assert_eq!(main.get("upstreams").await.status, 404);
    let health = reqwest::get(format!("http://127.0.0.1:{admin_port}/healthz")).await.unwrap();
    assert_eq!(health.status(), 404, "the admin listener serves /admin/ only");
    // DNS rebinding: a foreign Host is refused even on loopback.
    let foreign = apart.request(reqwest::Method::GET, "upstreams").header("host", "evil.example");
    assert_eq!(apart.send(foreign).await.status, 403);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_paginated_weakest_first_reports_history_and_refusals() {
    let rig = Rig::new("admin-pages");
    let up = Upstream::paginated(&rig, &["--json"]).await;
    let config = format!(
        "[policy]\nmode = \"enforce\"\nmin_tier = \"B\"\n\n[[upstream]]\nname = \"weather\"\nurl = \"{}\"\n",
        up.url()
    );
    let gw = Gateway::start(&rig, "", &config).await;
    let api = AdminClient::new(gw.base(), None);
    assert!(api.get_ok("upstreams").await["upstreams"][0]["report"].is_null(), "nothing listed yet");
    assert_eq!(api.get("servers/weather/report").await.status, 404);

    // A client lists every page through the gateway.
    let mut client = Mcp::new(gw.url("weather"));
    client.initialize("2025-11-25", json!({})).await;
    let mut cursor = Value::Null;
    let mut visible = Vec::new();
    loop {
        let params = if cursor.is_null() { json!({}) } else { json!({ "cursor": cursor }) };
        let page = client.call("tools/list", params).await;
        visible.extend(names(&page["result"]["tools"]));
        cursor = page["result"]["nextCursor"].clone();
        if cursor.is_null() {
            break;
        }
    }

    let all = api.until("servers/weather/tools?limit=500", "nine tools listed", |v| v["total"] == 9).await;
    let weakest: Vec<f64> =
        all["tools"].as_array().unwrap().iter().map(|t| t["score"]["tdqs"].as_f64().unwrap()).collect();
    assert!(weakest.windows(2).all(|w| w[0] <= w[1]), "weakest first: {weakest:?}");
    let hidden: Vec<String> = all["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["visible"] == false)
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    assert!(!hidden.is_empty() && !visible.is_empty());
    assert!(hidden.iter().all(|h| !visible.contains(h)), "hidden {hidden:?} but listed {visible:?}");
    assert_eq!(hidden.len() + visible.len(), 9);

    // Pages of four: 4, 4, 1, in the same order as the whole list.
    let mut paged = Vec::new();
    let mut offset = Some(0);
    let mut sizes = Vec::new();
    while let Some(o) = offset {
        let page = api.get_ok(&format!("servers/weather/tools?offset={o}&limit=4")).await;
        assert_eq!((page["total"].as_u64(), page["sort"].as_str()), (Some(9), Some("weakest")));
        sizes.push(page["tools"].as_array().unwrap().len());
        paged.extend(names(&page["tools"]));
        offset = page["nextOffset"].as_u64();
    }
    assert_eq!(sizes, [4, 4, 1]);
    assert_eq!(paged, names(&all["tools"]));
    let by_name = api.get_ok("servers/weather/tools?sort=name&limit=3&offset=3").await;
    let mut sorted = names(&all["tools"]);
    sorted.sort();
    assert_eq!(names(&by_name["tools"]), sorted[3..6]);
    assert_eq!(api.get_ok("servers/weather/tools?offset=50").await["tools"], json!([]));
    assert_eq!(api.get("servers/weather/tools?limit=0").await.status, 400);
    assert_eq!(api.get("servers/weather/tools?sort=best").await.status, 400);
    // A tool's details carry every dimension's justification.
    let first = &all["tools"][0];
    for dim in model_server::TOOL_DIMENSIONS {
        assert!(
            first["score"]["justifications"][dim]["justification"].as_str().is_some_and(|j| !j.is_empty()),
            "{dim}"
        );
    }

    // The server report: the same JSON shape as `score`, and markdown for people.
    let report = api
        .until("servers/weather/report", "report built", |v| v["tools"].as_array().is_some_and(|t| t.len() == 9))
        .await;
    assert_eq!(report["server"]["name"], "weather");
    assert!(report["serverScore"]["overallTier"].is_string());
    let summary = api.get_ok("upstreams").await;
    let u = &summary["upstreams"][0];
    assert_eq!(u["report"]["overall"]["tier"], report["serverScore"]["overallTier"]);
    assert_eq!(u["tools"]["listed"], 9);
    assert_eq!(u["tools"]["hidden"].as_u64(), Some(hidden.len() as u64));
    let histogram: u64 = u["tierHistogram"].as_object().unwrap().values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(histogram, 9);
    let md = api.get("servers/weather/report?format=markdown").await;
    assert_eq!(md.status, 200);
    assert!(md.header("content-type").starts_with("text/markdown"), "{:?}", md.headers);
    for name in names(&all["tools"]) {
        assert!(md.text.contains(&name), "markdown lacks {name}:\n{}", md.text);
    }
    assert!(md.text.contains("weather"));
    assert_eq!(api.get("servers/weather/report?format=pdf").await.status, 400);

    // Definition history (from the store) for the upstream and one tool.
    let tool_name = all["tools"][0]["name"].as_str().unwrap().to_owned();
    let detail = api
        .until(&format!("servers/weather/tools/{tool_name}"), "a sighting stored", |v| {
            v["history"].as_array().is_some_and(|h| !h.is_empty())
        })
        .await;
    assert_eq!(detail["history"][0]["inputHash"], all["tools"][0]["score"]["contextSignals"]["inputHash"]);
    assert_eq!(detail["tool"]["name"], tool_name.as_str());
    assert!(detail["pins"].is_null(), "the upstream does not pin");
    let history = api
        .until("servers/weather/history", "nine sightings", |v| v["sightings"].as_array().is_some_and(|s| s.len() == 9))
        .await;
    assert_eq!(history["upstream"], "weather");
    assert_eq!(api.get("servers/weather/tools/no_such_tool").await.status, 404);

    // A call to a hidden tool is refused, and the refusal shows.
    assert!(api.get_ok("servers/weather/refused").await["refused"].as_array().unwrap().is_empty());
    let refused = client.call("tools/call", json!({"name": hidden[0], "arguments": {}})).await;
    assert_eq!(refused["error"]["code"], -32602);
    let r = api.get_ok("servers/weather/refused").await;
    assert_eq!(r["refused"][0]["tool"], hidden[0].as_str());
    assert_eq!(r["refused"][0]["reason"], "below_minimum");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changed_pinned_definition_is_hidden_until_approved() {
    let rig = Rig::new("admin-approve");
    let server = MutableServer::start(&rig, &first_tools()).await;
    let config = format!(
        "[policy]\nmode = \"enforce\"\nmin_score = 0.0\npin = true\n\n\
         [[upstream]]\nname = \"shop\"\nurl = \"{url}\"\n\n\
         [[upstream]]\nname = \"unpinned\"\nurl = \"{url}\"\n[upstream.policy]\npin = false\n",
        url = server.url()
    );
    let gw = Gateway::start(&rig, "", &config).await;
    let api = AdminClient::new(gw.base(), None);

    assert_eq!(list_names(&gw, "shop").await, ["lookup_order", "list_orders"]);
    assert_eq!(api.get_ok("approvals").await["approvals"], json!([]));
    // The dashboard's event stream, open before anything changes.
    let events = api.send_raw(api.request(reqwest::Method::GET, "events")).await;
    assert_eq!(events.headers()["content-type"], "text/event-stream");
    let mut events = SseStream::new(events);
    events.until(Duration::from_secs(10), "hello", |e| e.event.as_deref() == Some("hello")).await;

    // The server changes a tool's description (a rug pull): the tool disappears. The new text
    // is no threat the analysis names (a poisoned one is hidden for that reason first): only
    // the pin holds it.
    let mut changed = first_tools();
    changed[0] =
        tool("lookup_order", "Look up an order by its id. Now also returns the shipping address and the carrier.");
    server.set(&changed);
    assert_eq!(list_names(&gw, "shop").await, ["list_orders"]);
    // The dashboard hears that something changed (within the stream's one-second check).
    events
        .until(Duration::from_secs(30), "a change event", |e| matches!(e.event.as_deref(), Some("changed" | "scores")))
        .await;
    let approvals = api.get_ok("approvals").await["approvals"].clone();
    assert_eq!(approvals.as_array().unwrap().len(), 1, "{approvals:#}");
    let pending = &approvals[0];
    assert_eq!((pending["upstream"].as_str(), pending["tool"].as_str()), (Some("shop"), Some("lookup_order")));
    assert_eq!((pending["visible"].as_bool(), pending["hideReason"].as_str()), (Some(false), Some("pin_changed")));
    let new_hash = pending["currentHash"].as_str().unwrap().to_owned();
    assert_eq!(pending["approvedHashes"].as_array().unwrap().len(), 1);
    assert_ne!(pending["approvedHashes"][0], new_hash.as_str());

    // Refused: approving a definition other than the one looked at, a cross-site POST, an
    // upstream that does not pin, a tool never listed.
    let stale = api.post("servers/shop/tools/lookup_order/approve", json!({"hash": "0000"})).await;
    assert_eq!(stale.status, 409, "{}", stale.text);
    let cross = api
        .request(reqwest::Method::POST, "servers/shop/tools/lookup_order/approve")
        .header("content-type", "application/json")
        .header("origin", "https://evil.example")
        .body("{}");
    assert_eq!(api.send(cross).await.status, 403);
    let a = api.post("servers/unpinned/approve", json!({})).await;
    assert_eq!(a.status, 400, "{}", a.text);
    assert_eq!(api.post("servers/shop/tools/nothing/approve", json!({})).await.status, 404);
    assert_eq!(list_names(&gw, "shop").await, ["list_orders"], "still hidden");

    let ok = api.post("servers/shop/tools/lookup_order/approve", json!({"hash": new_hash})).await;
    assert_eq!(ok.status, 200, "{}", ok.text);
    assert_eq!(ok.json()["approved"], json!([{"tool": "lookup_order", "hash": new_hash}]));
    assert_eq!(list_names(&gw, "shop").await, ["lookup_order", "list_orders"], "visible again");
    assert_eq!(api.get_ok("approvals").await["approvals"], json!([]));
    let detail = api
        .until("servers/shop/tools/lookup_order", "two definitions in the history", |v| {
            v["history"].as_array().is_some_and(|h| h.len() == 2)
        })
        .await;
    assert_eq!(detail["pins"]["status"], "approved");
    assert_eq!(detail["pins"]["approvedHashes"].as_array().unwrap().len(), 2);

    // Approve-all approves every changed tool at once.
    changed[0] = tool("lookup_order", "Look up an order (v3).");
    changed[1] = tool("list_orders", "List orders (v3).");
    server.set(&changed);
    assert!(list_names(&gw, "shop").await.is_empty());
    let all = api.post("servers/shop/approve", json!({})).await;
    assert_eq!(all.status, 200, "{}", all.text);
    assert_eq!(all.json()["approved"].as_array().unwrap().len(), 2);
    assert_eq!(list_names(&gw, "shop").await, ["lookup_order", "list_orders"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rescore_calls_the_model_judge_again() {
    let rig = Rig::new("admin-rescore");
    let model = ModelServer::start();
    model.set_tool_answer("lookup_order", tool_answer([4, 4, 4, 4, 4, 4], false, "first answer"));
    model.set_tool_answer("list_orders", tool_answer([3, 3, 3, 3, 3, 3], false, "first answer"));
    model.set_coherence_answer("shop", coherence_answer([4, 4, 4, 4], &[], "coherent"));
    let server = MutableServer::start(&rig, &first_tools()).await;
    let config = format!(
        "[judge]\nkind = \"openai\"\nbase_url = \"{}\"\nmodel = \"scripted-model\"\ntimeout_ms = 10000\n\n\
         [[upstream]]\nname = \"shop\"\nurl = \"{}\"\n",
        model.base_url(),
        server.url()
    );
    let gw = Gateway::start(&rig, "", &config).await;
    let api = AdminClient::new(gw.base(), None);
    list_names(&gw, "shop").await;
    let finals = api
        .until("servers/shop/tools", "model answers in", |v| {
            v["total"] == 2 && v["tools"].as_array().unwrap().iter().all(|t| t["state"] == "final")
        })
        .await;
    assert!(finals["tools"].as_array().unwrap().iter().all(|t| t["judge"] == "scripted-model"));
    let calls = |tool: &str| model.requests_for(&format!("TOOL NAME: {tool}")).len();
    assert_eq!((calls("lookup_order"), calls("list_orders")), (1, 1));

    // The model now answers differently; re-scoring one tool asks it once more, for that tool.
    model.set_tool_answer("lookup_order", tool_answer([2, 2, 2, 2, 2, 2], false, "second answer"));
    let a = api.post("servers/shop/tools/lookup_order/rescore", json!({})).await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json()["rescored"], 1);
    assert_eq!((calls("lookup_order"), calls("list_orders")), (2, 1));
    let detail = api.get_ok("servers/shop/tools/lookup_order").await;
    assert_eq!(detail["tool"]["score"]["summary"], "second answer");
    assert_eq!(detail["tool"]["score"]["scores"]["purpose_clarity"], 2);

    // The whole server: every tool once more.
    let a = api.post("servers/shop/rescore", json!({})).await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json()["rescored"], 2);
    assert_eq!((calls("lookup_order"), calls("list_orders")), (3, 2));
    assert_eq!(api.post("servers/shop/tools/unknown/rescore", json!({})).await.status, 404);

    // A judge that fails: 502 with the reason, and the stored score stays.
    model.set_tool_answer("list_orders", "not a verdict".to_owned());
    let a = api.post("servers/shop/tools/list_orders/rescore", json!({})).await;
    assert_eq!(a.status, 502, "{}", a.text);
    assert!(a.json()["error"].as_str().unwrap().contains("re-scoring failed"));
    let detail = api.get_ok("servers/shop/tools/list_orders").await;
    assert_eq!(detail["tool"]["score"]["scores"]["purpose_clarity"], 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_the_report_comes_from_the_store_in_markdown_too() {
    let rig = Rig::new("admin-restart-report");
    let up = Upstream::paginated(&rig, &["--json"]).await;
    let config = format!("[[upstream]]\nname = \"weather\"\nurl = \"{}\"\n", up.url());
    let mut first = Gateway::start(&rig, "", &config).await;
    let api = AdminClient::new(first.base(), None);
    let mut client = Mcp::new(first.url("weather"));
    client.initialize("2025-11-25", json!({})).await;
    client.call("tools/list", json!({})).await;
    let report = api.until("servers/weather/report", "report built", |v| v["tools"].as_array().is_some()).await;
    let markdown = api.get("servers/weather/report?format=markdown").await;
    assert_eq!(markdown.status, 200, "{}", markdown.text);
    // The store (SQLite beside the config) holds that very report before the gateway stops.
    let db = rig.path("data/scores.db");
    let stored = support::poll(Duration::from_secs(20), || {
        let stored: Option<String> = rusqlite::Connection::open(&db).ok().and_then(|c| {
            c.query_row("SELECT report FROM server_reports WHERE upstream = 'weather'", [], |r| r.get(0)).ok()
        });
        stored.is_some_and(|s| serde_json::from_str::<Value>(&s).ok() == Some(report.clone())).then_some(())
    });
    assert!(stored.await.is_some(), "the report never reached {}", db.display());
    first.proc.stop();

    // Restarted on the same file, asked before any client lists: the stored report, rendered.
    let second = Gateway::start(&rig, "", &config).await;
    let api = AdminClient::new(second.base(), None);
    assert!(api.get_ok("servers/weather/tools").await["tools"].as_array().unwrap().is_empty(), "nothing listed");
    let md = api.get("servers/weather/report?format=markdown").await;
    assert_eq!(md.status, 200, "{}", md.text);
    assert!(md.header("content-type").starts_with("text/markdown"), "{:?}", md.headers);
    assert_eq!(md.text, markdown.text, "the same markdown as before the restart");
    assert_eq!(api.get_ok("servers/weather/report").await, report);
}
