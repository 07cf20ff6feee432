//! The current SDKs through the gateway: the Python SDK 2.x (`mcp` 2.3.0, whose client probes
//! `server/discover` and speaks 2026-07-28) and the TypeScript SDK 2.x
//! (`@modelcontextprotocol/server` and `client` 2.4.0, whose client uses the 2025 handshake
//! unless told to negotiate) beside the 1.x ones, as clients and as servers, in every mode.
//!
//! One run of each client (Python and TypeScript 1.x, Python 2.x, TypeScript 2.x by default and
//! negotiating), all at once, through one gateway in front of the 2.x servers
//! (`tests/rig/py2_server.py`, `ts2_server.mjs`) and, for the 2.x clients, the 1.x FastMCP
//! server, with an upstream per client, server and mode. Each connection calls a well described
//! tool and the deliberately poor `do_thing` before listing anything (an enforcing upstream has
//! to learn its tools from the call, in the caller's revision), then lists, then calls
//! `do_thing` again.
//!
//! Long: one matrix of clients, servers and modes with each cell's expectations beside it; the
//! three single cases reuse its servers and checks.

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

/// The clients: the SDK 1.x ones, and the 2.x ones (the TypeScript client both by default and
/// negotiating).
const CLIENTS: [&str; 5] = ["py1", "ts1", "py2", "ts2", "ts2-auto"];

/// The (server, mode) cells `client` goes through, in order: every mode of the 2.x servers, and
/// for the 2.x clients of the 1.x server too (1.x with 1.x is the other modules' business).
fn cells<'a>(servers: &'a [Server], client: &'a str) -> impl Iterator<Item = (&'a Server, &'static str)> + 'a {
    servers.iter().filter(move |s| meets(client, s)).flat_map(|s| MODES.iter().map(move |m| (s, *m)))
}

fn meets(client: &str, server: &Server) -> bool {
    server.modern() || !matches!(client, "py1" | "ts1")
}

/// The servers, and one gateway with an upstream `<client>-<server>-<mode>` for each client,
/// server and mode, so that every client meets enforcing upstreams nothing has listed yet.
/// Every upstream URL carries `?mode=<mode>&client=<client>`, which the servers record.
struct Matrix {
    /// The scratch folder of configs and logs, kept when the test fails.
    _rig: Rig,
    servers: Vec<Server>,
    gw: Gateway,
}

impl Matrix {
    async fn start(test: &str) -> Matrix {
        let rig = Rig::new(test);
        support::require_sdk2();
        let (py2, ts2, py1) = tokio::join!(Upstream::py2(&rig, &[]), Upstream::ts2(&rig), Upstream::fastmcp(&rig, &[]));
        let servers = vec![
            Server { label: "py2", upstream: py2 },
            Server { label: "ts2", upstream: ts2 },
            Server { label: "py1", upstream: py1 },
        ];
        let mut config = String::from("[store]\nurl = \"memory\"\n\n[policy]\nmin_tier = \"B\"\n");
        for client in CLIENTS {
            for (s, mode) in cells(&servers, client) {
                config.push_str(&format!(
                    "\n[[upstream]]\nname = \"{client}-{}-{mode}\"\nurl = \"{}?mode={mode}&client={client}\"\n\
                     [upstream.policy]\nmode = \"{mode}\"\n",
                    s.label,
                    s.upstream.url()
                ));
            }
        }
        let gw = Gateway::start(&rig, "", &config).await;
        Matrix { _rig: rig, servers, gw }
    }

    /// Runs `client` once over all its cells and returns what it printed.
    async fn run(&self, client: &str) -> Value {
        let urls: Vec<String> = cells(&self.servers, client)
            .map(|(s, mode)| self.gw.url(&format!("{client}-{}-{mode}", s.label)))
            .collect();
        let mut args = vec!["tour"];
        if client == "ts2-auto" {
            args.extend(["--negotiate", "auto"]);
        }
        args.extend(urls.iter().map(String::as_str));
        match client {
            "py1" => support::py_client(&args).await,
            "ts1" => support::ts_client(&args).await,
            "py2" => support::py2_client(&args).await,
            _ => support::ts2_client(&args).await,
        }
    }

    /// Checks a client's runs, one per cell, then what reached each server from it.
    async fn check(&self, client: &str, out: &Value) {
        let runs = out["runs"].as_array().unwrap_or_else(|| panic!("{client}: no runs: {out}"));
        assert_eq!(runs.len(), cells(&self.servers, client).count(), "{client}: a run per server and mode");
        for ((server, mode), run) in cells(&self.servers, client).zip(runs) {
            check_run(client, server, mode, run);
        }
        for server in self.servers.iter().filter(|s| meets(client, s)) {
            let received = server.upstream.received().await;
            let mine: Vec<&Value> = received.iter().filter(|e| query(e, "client") == client).collect();
            check_learned(client, server, &mine);
            for mode in MODES {
                let calls = calls(mine.iter().copied().filter(|e| query(e, "mode") == mode));
                let what = format!("{client} -> {}-{mode}", server.label);
                let count = |tool: &str| calls.iter().filter(|t| *t == tool).count();
                assert_eq!(count(VISIBLE), 1, "{what}: the visible call reached the server once: {calls:?}");
                let expected = if mode == "enforce" { 0 } else { 2 };
                assert_eq!(count(POOR), expected, "{what}: calls to {POOR} that reached the server: {calls:?}");
            }
        }
    }
}

/// The value of `key` in the query string a rig server recorded for a request.
fn query<'a>(entry: &'a Value, key: &str) -> &'a str {
    let q = entry["query"].as_str().unwrap_or_default();
    q.split('&').find_map(|kv| kv.strip_prefix(key)?.strip_prefix('=')).unwrap_or_default()
}

/// The tool names of the `tools/call` requests among recorded requests.
fn calls<'a>(entries: impl Iterator<Item = &'a Value>) -> Vec<String> {
    entries
        .flat_map(|e| e["messages"].as_array().into_iter().flatten())
        .filter(|m| m["method"] == "tools/call")
        .map(|m| m["tool"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// The enforcing upstream was first called before anything listed it: the gateway listed it
/// itself (its own ids are strings; the SDK clients number theirs) in the caller's revision,
/// 2026-07-28 requests with their `Mcp-Method` header.
fn check_learned(client: &str, server: &Server, received: &[&Value]) {
    let what = format!("{client} -> {}-enforce", server.label);
    let modern = expected_version(client, server) == "2026-07-28";
    let own_lists: Vec<&&Value> = received
        .iter()
        .filter(|e| query(e, "mode") == "enforce")
        .filter(|e| {
            e["messages"].as_array().into_iter().flatten().any(|m| m["method"] == "tools/list" && m["id"].is_string())
        })
        .collect();
    assert!(!own_lists.is_empty(), "{what}: the gateway listed the server to decide on the first call: {received:?}");
    for e in own_lists {
        let version = e["headers"]["mcp-protocol-version"].as_str().unwrap_or_default();
        assert_eq!(version == "2026-07-28", modern, "{what}: the gateway's list speaks the caller's revision: {e}");
        if modern {
            assert_eq!(e["headers"]["mcp-method"], "tools/list", "{what}: the gateway's list: {e}");
        }
    }
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

/// Every client, at once, through every mode of every server it meets.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_client_through_every_mode_of_every_server() {
    let m = Matrix::start("sdk2-matrix").await;
    let outs = futures_util::future::join_all(CLIENTS.map(|c| m.run(c))).await;
    for (client, out) in CLIENTS.iter().zip(&outs) {
        m.check(client, out).await;
    }
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
    let received = server.received().await;
    let late: Vec<&str> = MODES
        .into_iter()
        .filter(|mode| calls(received.iter().filter(|e| query(e, "mode") == *mode)).iter().any(|t| t == "late_thing"))
        .collect();
    assert_eq!(late, ["observe", "annotate"], "where calls to the new tool reached the server");
}

/// In front of a stdio server the gateway runs a process per session, and lends a process to
/// each session-less 2026-07-28 request (`src/proxy/stdio/pool.rs`): the Python SDK 2.x
/// client's `server/discover` is answered by the SDK 2.x stdio servers (Python and TypeScript),
/// so the client speaks 2026-07-28 through the gateway, and enforce holds; in front of a 1.x
/// stdio server the probe gets that server's error and the client falls back to the handshake.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_python_sdk2_client_in_front_of_stdio_servers_speaks_their_revision() {
    let rig = Rig::new("sdk2-stdio");
    support::require_sdk2();
    let (py2, ts2) = (support::rig_dir().join("py2_server.py"), support::rig_dir().join("ts2_server.mjs"));
    let threat = support::rig_dir().join("threat_server.py");
    let config = format!(
        "[store]\nurl = \"memory\"\n\n[policy]\nmode = \"enforce\"\nmin_tier = \"B\"\n\n\
         [[upstream]]\nname = \"py2\"\ncommand = [{:?}, {:?}, \"--stdio\"]\n\n\
         [[upstream]]\nname = \"ts2\"\ncommand = [{:?}, {:?}, \"--stdio\"]\n\n\
         [[upstream]]\nname = \"py1\"\ncommand = [{:?}, {:?}, \"--set\", \"mail\", \"--transport\", \"stdio\"]\n",
        support::python2().display().to_string(),
        py2.display().to_string(),
        support::node().display().to_string(),
        ts2.display().to_string(),
        support::python().display().to_string(),
        threat.display().to_string(),
    );
    let gw = Gateway::start(&rig, "", &config).await;
    for upstream in ["py2", "ts2"] {
        let out = support::py2_client(&["tour", &gw.url(upstream)]).await;
        let run = &out["runs"][0];
        assert!(run.get("fatal").is_none(), "{upstream}: the connection failed: {}\n{}", run["fatal"], gw.logs());
        assert_eq!(run["protocolVersion"], "2026-07-28", "{upstream}: no handshake needed: {run}");
        let names: Vec<&str> = run["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["search_issues", "create_issue"], "{upstream}: {run}");
        assert!(run["visible"]["result"]["text"].as_str().is_some_and(|t| t.contains(VISIBLE_ANSWER)), "{run}");
        for key in ["poor", "poorAgain"] {
            assert_eq!(run[key]["error"]["code"], -32602, "{upstream}: {key}: {POOR} is refused: {run}");
        }
    }
    let out = support::py2_client(&["tour", &gw.url("py1")]).await;
    let run = &out["runs"][0];
    assert!(run.get("fatal").is_none(), "py1: the connection failed: {}", run["fatal"]);
    assert_eq!(run["protocolVersion"], "2025-11-25", "py1: the client fell back to the handshake: {run}");
}

/// Over stdio the Python SDK 2.x client also probes `server/discover`, and SDK 2.x stdio
/// servers (Python and TypeScript) answer it: through `tdqs-gateway wrap` each pair speaks
/// 2026-07-28, and the calls made before any list are decided by a listing that carries the
/// caller's envelope.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_python_sdk2_client_through_wrap_to_sdk2_stdio_servers_speaks_2026_and_enforce_holds() {
    let rig = Rig::new("sdk2-wrap");
    support::require_sdk2();
    let config = rig.path("wrap.toml");
    std::fs::write(&config, "[policy]\nmode = \"enforce\"\nmin_tier = \"B\"\n").unwrap();
    let config = config.display().to_string();
    let gateway = env!("CARGO_BIN_EXE_tdqs-gateway").to_owned();
    let servers = [
        ("py2", support::python2().display().to_string(), "py2_server.py"),
        ("ts2", support::node().display().to_string(), "ts2_server.mjs"),
    ];
    let runs = servers.iter().map(|(label, program, script)| {
        let log = rig.path(&format!("wrap-{label}.log")).display().to_string();
        let script = support::rig_dir().join(script).display().to_string();
        let args: Vec<String> = [
            "tour-stdio",
            &gateway,
            "wrap",
            "--config",
            &config,
            "--store",
            "memory",
            "--log-file",
            &log,
            "--",
            program,
            &script,
            "--stdio",
        ]
        .map(str::to_owned)
        .into();
        async move {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            (support::py2_client(&args).await, log)
        }
    });
    for ((label, ..), (out, log)) in servers.iter().zip(futures_util::future::join_all(runs).await) {
        let run = &out["runs"][0];
        let logs = std::fs::read_to_string(&log).unwrap_or_default();
        assert!(run.get("fatal").is_none(), "{label}: the connection failed: {}\n{logs}", run["fatal"]);
        assert_eq!(run["protocolVersion"], "2026-07-28", "{label}: {run}");
        let names: Vec<&str> = run["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["search_issues", "create_issue"], "{label}: {run}");
        let visible = &run["visible"];
        let text = visible["result"]["text"].as_str();
        assert!(text.is_some_and(|t| t.contains(VISIBLE_ANSWER)), "{label}: {visible}\n{logs}");
        for key in ["poor", "poorAgain"] {
            let message = run[key]["error"]["message"].as_str().unwrap_or_default();
            assert!(
                message.contains("(tier D)") || message.contains("(tier F)"),
                "{label}: {key}: refused for its score: {run}"
            );
        }
    }
}
