//! The current SDKs through the gateway: the Python SDK 2.x (`mcp` 2.3.0, whose client probes
//! `server/discover` and speaks 2026-07-28) and the TypeScript SDK 2.x
//! (`@modelcontextprotocol/server` and `client` 2.4.0, whose client uses the 2025 handshake
//! unless told to negotiate) beside the 1.x ones, as clients and as servers, in every mode.
//!
//! One test per client: it starts the 2.x servers (`tests/rig/py2_server.py`,
//! `ts2_server.mjs`; for the 2.x clients also the 1.x FastMCP server), one gateway with an
//! upstream per server and mode, and runs the client once over all of them. Each connection
//! calls a well described tool and the deliberately poor `do_thing` before listing anything
//! (on a fresh gateway, an enforcing upstream has to learn its tools from the call), then lists,
//! then calls `do_thing` again. Every upstream URL carries `?mode=<mode>`, which the servers
//! record, so what reached each server is told apart by mode.

use crate::support::rig as support;

use serde_json::Value;
use support::meta::{META_KEY, checked_score, score};
use support::{Gateway, Rig, Upstream};

const MODES: [&str; 3] = ["observe", "annotate", "enforce"];

/// The well described tool every rig server has, and what its answer contains.
const VISIBLE: &str = "search_issues";
const VISIBLE_ANSWER: &str = "Crash when the config file is empty";
/// The deliberately poor tool, below tier B on every server.
const POOR: &str = "do_thing";

/// A server of the matrix: its label in upstream names, and what it lists.
struct Server {
    label: &'static str,
    upstream: Upstream,
}

impl Server {
    fn name(&self) -> &'static str {
        match self.label {
            "py2" => "rig-py2",
            "ts2" => "rig-ts2",
            _ => "rig-fastmcp",
        }
    }

    /// Every tool it lists, in order, and those enforce hides.
    fn tools(&self) -> (Vec<&'static str>, Vec<&'static str>) {
        match self.label {
            "py1" => (
                vec!["search_issues", "create_issue", "count_to", "do_thing", "get_data", "process"],
                vec!["do_thing", "get_data", "process"],
            ),
            _ => (vec!["search_issues", "create_issue", "do_thing"], vec!["do_thing"]),
        }
    }

    /// Whether it speaks 2026-07-28 (the 1.x server does not).
    fn modern(&self) -> bool {
        self.label != "py1"
    }
}

/// The servers, and one gateway with an upstream `<label>-<mode>` for each server and mode.
struct Matrix {
    /// The scratch folder of configs and logs, kept when the test fails.
    _rig: Rig,
    servers: Vec<Server>,
    gw: Gateway,
}

impl Matrix {
    async fn start(test: &str, with_v1_server: bool) -> Matrix {
        let rig = Rig::new(test);
        support::require_sdk2();
        let (py2, ts2) = tokio::join!(Upstream::py2(&rig, &[]), Upstream::ts2(&rig));
        let mut servers = vec![Server { label: "py2", upstream: py2 }, Server { label: "ts2", upstream: ts2 }];
        if with_v1_server {
            servers.push(Server { label: "py1", upstream: Upstream::fastmcp(&rig, &[]).await });
        }
        let mut config = String::from("[store]\nurl = \"memory\"\n\n[policy]\nmin_tier = \"B\"\n");
        for s in &servers {
            for mode in MODES {
                config.push_str(&format!(
                    "\n[[upstream]]\nname = \"{}-{mode}\"\nurl = \"{}?mode={mode}\"\n[upstream.policy]\nmode = \"{mode}\"\n",
                    s.label,
                    s.upstream.url()
                ));
            }
        }
        let gw = Gateway::start(&rig, "", &config).await;
        Matrix { _rig: rig, servers, gw }
    }

    /// The gateway URL of every (server, mode), in order.
    fn urls(&self) -> Vec<String> {
        self.cells().map(|(s, mode)| self.gw.url(&format!("{}-{mode}", s.label))).collect()
    }

    fn cells(&self) -> impl Iterator<Item = (&Server, &'static str)> {
        self.servers.iter().flat_map(|s| MODES.iter().map(move |m| (s, *m)))
    }

    /// Checks a client's runs, one per [`cells`](Self::cells), then what reached each server.
    async fn check(&self, client: &str, out: &Value) {
        let runs = out["runs"].as_array().unwrap_or_else(|| panic!("{client}: no runs: {out}"));
        assert_eq!(runs.len(), self.servers.len() * MODES.len(), "{client}: a run per server and mode");
        for ((server, mode), run) in self.cells().zip(runs) {
            check_run(client, server, mode, run);
        }
        for server in &self.servers {
            self.check_learned(client, server).await;
            let calls = calls_by_mode(&server.upstream).await;
            for mode in MODES {
                let poor = calls.iter().filter(|(m, t)| m == mode && t == POOR).count();
                let visible = calls.iter().filter(|(m, t)| m == mode && t == VISIBLE).count();
                let what = format!("{client} -> {}-{mode}", server.label);
                assert_eq!(visible, 1, "{what}: the visible call reached the server once: {calls:?}");
                let expected = if mode == "enforce" { 0 } else { 2 };
                assert_eq!(poor, expected, "{what}: calls to {POOR} that reached the server: {calls:?}");
            }
        }
    }
}

impl Matrix {
    /// The enforcing upstream was first called before anything listed it: the gateway listed it
    /// itself (its own ids are strings; the SDK clients number theirs) in the caller's revision,
    /// 2026-07-28 requests with their `Mcp-Method` header.
    async fn check_learned(&self, client: &str, server: &Server) {
        let what = format!("{client} -> {}-enforce", server.label);
        let modern = expected_version(client, server) == "2026-07-28";
        let received = server.upstream.received().await;
        let own_lists: Vec<&Value> = received
            .iter()
            .filter(|e| e["query"] == "mode=enforce")
            .filter(|e| {
                e["messages"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|m| m["method"] == "tools/list" && m["id"].is_string())
            })
            .collect();
        assert!(
            !own_lists.is_empty(),
            "{what}: the gateway listed the server to decide on the first call: {received:?}"
        );
        for e in own_lists {
            let version = e["headers"]["mcp-protocol-version"].as_str().unwrap_or_default();
            assert_eq!(version == "2026-07-28", modern, "{what}: the gateway's list speaks the caller's revision: {e}");
            if modern {
                assert_eq!(e["headers"]["mcp-method"], "tools/list", "{what}: the gateway's list: {e}");
            }
        }
    }
}

/// Every `tools/call` a rig server received, as (the `mode` of its URL, tool name).
async fn calls_by_mode(upstream: &Upstream) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in upstream.received().await {
        let mode = entry["query"].as_str().unwrap_or_default().strip_prefix("mode=").unwrap_or_default().to_owned();
        for m in entry["messages"].as_array().into_iter().flatten() {
            if m["method"] == "tools/call" {
                out.push((mode.clone(), m["tool"].as_str().unwrap_or_default().to_owned()));
            }
        }
    }
    out
}

/// The tier of a listed tool's score, checked against the documented shape. The matrix puts
/// one server behind several upstream names and two servers with the same tool names behind one
/// gateway, so a score may also carry cross-server name-collision findings; nothing else.
fn tier_of(what: &str, tool: &Value) -> String {
    let mut tool = tool.clone();
    let name = tool["name"].as_str().unwrap_or_default().to_owned();
    if let Some(s) = tool.pointer_mut(&format!("/_meta/{}", META_KEY.replace('/', "~1"))).and_then(Value::as_object_mut)
        && let Some(threats) = s.remove("threats")
    {
        let kinds: Vec<&str> = threats.as_array().into_iter().flatten().filter_map(|f| f["kind"].as_str()).collect();
        assert!(
            !kinds.is_empty() && kinds.iter().all(|k| *k == "tool-name-collision"),
            "{what}: {name}: findings other than name collisions: {threats}"
        );
    }
    checked_score(&tool)["tier"].as_str().unwrap_or_default().to_owned()
}

/// The protocol revision `client` ends up on with `server`.
fn expected_version(client: &str, server: &Server) -> &'static str {
    let negotiates = matches!(client, "py2" | "ts2-auto");
    if negotiates && server.modern() { "2026-07-28" } else { "2025-11-25" }
}

fn check_run(client: &str, server: &Server, mode: &str, run: &Value) {
    let what = format!("{client} -> {}-{mode}", server.label);
    assert!(run.get("fatal").is_none(), "{what}: the connection failed: {}", run["fatal"]);
    assert_eq!(run["protocolVersion"], expected_version(client, server), "{what}: negotiated revision");
    assert_eq!(run["serverName"], server.name(), "{what}: server identity");

    // tools/list: observe passes it on, annotate and enforce add scores, enforce hides.
    let (all, poor) = server.tools();
    let tools = run["tools"].as_array().unwrap_or_else(|| panic!("{what}: no tools: {run}"));
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap_or_default()).collect();
    let expected: Vec<&str> = all.iter().copied().filter(|n| mode != "enforce" || !poor.contains(n)).collect();
    assert_eq!(names, expected, "{what}: listed tools");
    for t in tools {
        let name = t["name"].as_str().unwrap_or_default();
        if mode == "observe" {
            assert!(score(t).is_none(), "{what}: observe adds no score to {name}: {t}");
            continue;
        }
        let tier = tier_of(&what, t);
        let below_b = matches!(tier.as_str(), "C" | "D" | "F");
        assert_eq!(below_b, poor.contains(&name), "{what}: {name} scored tier {tier}");
    }
    if run.get("pages").is_some() && expected_version(client, server) == "2026-07-28" {
        // The rewritten 2026-07-28 list keeps its required caching fields as the server set them.
        let (scope, ttl) = if server.label == "py2" { ("public", 60_000) } else { ("private", 0) };
        assert_eq!(run["pages"][0]["cacheScope"], scope, "{what}: cacheScope");
        assert_eq!(run["pages"][0]["ttlMs"], ttl, "{what}: ttlMs");
    }

    // tools/call: the visible tool works everywhere, the poor one only where it is not hidden.
    let visible = &run["visible"]["result"];
    assert_eq!(visible["isError"], false, "{what}: {VISIBLE}: {}", run["visible"]);
    assert!(visible["text"].as_str().is_some_and(|t| t.contains(VISIBLE_ANSWER)), "{what}: {}", run["visible"]);
    for key in ["poor", "poorAgain"] {
        let got = &run[key];
        if mode == "enforce" {
            let err = &got["error"];
            assert_eq!(err["code"], -32602, "{what}: {key}: {POOR} is refused: {got}");
            let message = err["message"].as_str().unwrap_or_default();
            assert!(message.contains(&format!("Tool \"{POOR}\" is hidden by tdqs-gateway")), "{what}: {key}: {got}");
            // Refused for its score, not because the gateway could not find out what it is.
            assert!(message.contains("(tier D)") || message.contains("(tier F)"), "{what}: {key}: {got}");
        } else {
            assert_eq!(got["result"]["text"], "x1", "{what}: {key}: {POOR} works under {mode}: {got}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk2_client_through_every_mode() {
    let m = Matrix::start("sdk2-py2-client", true).await;
    let urls = m.urls();
    let mut args = vec!["tour"];
    args.extend(urls.iter().map(String::as_str));
    let out = support::py2_client(&args).await;
    m.check("py2", &out).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typescript_sdk2_client_through_every_mode() {
    let m = Matrix::start("sdk2-ts2-client", true).await;
    let urls = m.urls();
    let mut args = vec!["tour"];
    args.extend(urls.iter().map(String::as_str));
    let out = support::ts2_client(&args).await;
    m.check("ts2", &out).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typescript_sdk2_client_negotiating_through_every_mode() {
    let m = Matrix::start("sdk2-ts2-auto-client", true).await;
    let urls = m.urls();
    let mut args = vec!["tour", "--negotiate", "auto"];
    args.extend(urls.iter().map(String::as_str));
    let out = support::ts2_client(&args).await;
    m.check("ts2-auto", &out).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk1_client_through_every_mode_of_2x_servers() {
    let m = Matrix::start("sdk2-py1-client", false).await;
    let urls = m.urls();
    let mut args = vec!["tour"];
    args.extend(urls.iter().map(String::as_str));
    let out = support::py_client(&args).await;
    m.check("py1", &out).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typescript_sdk1_client_through_every_mode_of_2x_servers() {
    let m = Matrix::start("sdk2-ts1-client", false).await;
    let urls = m.urls();
    let mut args = vec!["tour"];
    args.extend(urls.iter().map(String::as_str));
    let out = support::ts_client(&args).await;
    m.check("ts1", &out).await;
}

/// 2026-07-28 replaces the GET stream with `subscriptions/listen`, a POST whose SSE answer stays
/// open: a tool added while a client listens reaches it through every mode, and the list it
/// fetches then follows the policy (the new, poorly described tool hidden and refused under
/// enforce, there and callable under observe and annotate).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_added_while_a_2026_client_listens_follows_the_policy() {
    let rig = Rig::new("sdk2-listen");
    support::require_sdk2();
    let server = Upstream::py2(&rig, &[]).await;
    let mut config = String::from("[store]\nurl = \"memory\"\n\n[policy]\nmin_tier = \"B\"\n");
    for mode in MODES {
        config.push_str(&format!(
            "\n[[upstream]]\nname = \"{mode}\"\nurl = \"{}?mode={mode}\"\n[upstream.policy]\nmode = \"{mode}\"\n",
            server.url()
        ));
    }
    let gw = Gateway::start(&rig, "", &config).await;
    let trigger = format!("{}/_rig/add-tool", server.base());
    let urls: Vec<String> = MODES.iter().map(|m| gw.url(m)).collect();
    let mut args = vec!["listen", trigger.as_str()];
    args.extend(urls.iter().map(String::as_str));
    let out = support::py2_client(&args).await;
    let runs = out["runs"].as_array().unwrap_or_else(|| panic!("no runs: {out}"));
    assert_eq!(runs.len(), MODES.len());
    for (mode, run) in MODES.iter().zip(runs) {
        assert_eq!(run["event"], "ToolsListChanged", "{mode}: the change reached the listener: {run}");
        let after: Vec<&str> = run["after"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
        let late = &run["late"];
        if *mode == "enforce" {
            assert_eq!(after, ["search_issues", "create_issue"], "{mode}: {run}");
            assert_eq!(late["error"]["code"], -32602, "{mode}: the new poor tool is refused: {late}");
            let message = late["error"]["message"].as_str().unwrap_or_default();
            assert!(message.contains("Tool \"late_thing\" is hidden by tdqs-gateway"), "{mode}: {late}");
        } else {
            assert_eq!(after, ["search_issues", "create_issue", POOR, "late_thing"], "{mode}: {run}");
            assert_eq!(late["result"]["text"], "y", "{mode}: {late}");
        }
    }
    let calls = calls_by_mode(&server).await;
    let late_calls: Vec<&str> = calls.iter().filter(|(_, t)| t == "late_thing").map(|(m, _)| m.as_str()).collect();
    assert_eq!(late_calls, ["observe", "annotate"], "calls to the new tool that reached the server");
}
