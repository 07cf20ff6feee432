//! Legacy HTTP+SSE (2024-11-05) upstreams: server-everything in `sse` mode as an `sse_url`
//! upstream, used by the Python SDK's `sse_client` through `/sse/{upstream}`: the list is
//! rewritten on the stream (scores in `_meta`), calls work, an enforce refusal arrives on the
//! stream; and the `lint` command on live servers: `--url` with the legacy fallback (directly
//! and through the gateway), `--command` on server-everything in stdio mode.

use crate::support::stdio as support;

use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use support::{Gateway, Guarded, Scratch, assert_scored, everything_js, listed, score_of, steps, tool_names};

/// server-everything in legacy SSE mode on a free port.
struct SseServer {
    proc: Guarded,
    port: u16,
}

impl SseServer {
    async fn start(scratch: &Scratch) -> SseServer {
        for attempt in 0..3 {
            let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).unwrap().port();
            let mut cmd = Command::new(support::node());
            cmd.arg(everything_js()).arg("sse").env("PORT", port.to_string()).stdin(Stdio::null());
            let mut proc = Guarded::spawn(&scratch.dir, &format!("everything-sse-{attempt}"), cmd, None);
            let err = proc.err.clone();
            let ready = support::poll(support::READY_TIMEOUT, || {
                if proc.exited().is_some() {
                    return Some(false);
                }
                let log = std::fs::read_to_string(&err).unwrap_or_default();
                log.contains(&format!("running on port {port}")).then_some(true)
            })
            .await;
            if ready == Some(true) {
                return SseServer { proc, port };
            }
            eprintln!("server-everything sse did not start on {port}; retrying\n{}", proc.logs());
        }
        panic!("server-everything sse would not start");
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/sse", self.port)
    }

    /// How many legacy sessions it saw open and close (from its log).
    fn connections(&self) -> (usize, usize) {
        let log = std::fs::read_to_string(&self.proc.err).unwrap_or_default();
        (log.matches("Client Connected").count(), log.matches("Client Disconnected").count())
    }
}

fn call(out: &Value, i: usize) -> Value {
    steps(out, "call").get(i).map(|v| (*v).clone()).unwrap_or_else(|| panic!("no call step {i}: {out}"))
}

/// Runs `tdqs-gateway ARGS` to completion; returns (exit code, stdout, stderr).
async fn gateway_cli(scratch: &Scratch, name: &str, args: &[String]) -> (i32, String, String) {
    let mut cmd = Command::new(support::gateway_bin());
    cmd.args(args).envs(scratch.envs()).stdin(Stdio::null()).current_dir(&scratch.dir);
    let mut p = Guarded::spawn(&scratch.dir, name, cmd, None);
    let status = support::poll(Duration::from_secs(90), || p.exited()).await;
    let status = status.unwrap_or_else(|| panic!("{name} did not finish\n{}", p.logs()));
    let read = |f: &std::path::Path| std::fs::read_to_string(f).unwrap_or_default();
    (status.code().unwrap_or(-1), read(&p.out), read(&p.err))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sse_client_through_the_gateway() {
    let scratch = Scratch::new("legacy-sdk");
    let upstream = SseServer::start(&scratch).await;
    let config = format!(
        r#"
[[upstream]]
name = "everything"
sse_url = "{url}"

[[upstream]]
name = "everything_enforce"
sse_url = "{url}"
[upstream.policy]
mode = "enforce"
min_tier = "A"
"#,
        url = upstream.url()
    );
    let gw = Gateway::start_in(&scratch, "gateway", &config).await;

    // Annotate: the list comes back on the stream with scores; calls are answered on it.
    let plan = json!([
        {"op": "list"},
        {"op": "call", "tool": "echo", "args": {"message": "over legacy SSE"}},
        {"op": "call", "tool": "get-sum", "args": {"a": 20, "b": 22}},
    ]);
    let args = vec!["sse".to_owned(), gw.sse_url("everything"), plan.to_string()];
    let out = support::py_client(&scratch, "py-sse", args).await;
    let tools = listed(&out, 0);
    assert_eq!(tools.len(), 13, "{:?}", tool_names(&tools));
    assert_scored(&tools, "legacy everything");
    assert_eq!(call(&out, 0)["text"], "Echo: over legacy SSE", "{out}");
    assert!(call(&out, 1)["text"].as_str().unwrap_or_default().contains("42"), "{out}");
    assert_eq!(out["exceptions"], json!([]), "{out}");

    // Enforce (tier A): exactly the tier-A tools remain; a call to a hidden one is refused, and
    // the refusal arrives on the SSE stream (the only place a legacy client reads answers).
    let hidden: Vec<String> = tool_names(
        &tools
            .iter()
            .filter(|t| score_of(t).and_then(|s| s["tier"].as_str()) != Some("A"))
            .cloned()
            .collect::<Vec<_>>(),
    );
    let visible: Vec<String> = tool_names(&tools).into_iter().filter(|n| !hidden.contains(n)).collect();
    assert!(!hidden.is_empty() && !visible.is_empty(), "{tools:?}");
    let victim = if hidden.iter().any(|h| h == "echo") { "echo".to_owned() } else { hidden[0].clone() };
    let plan = json!([
        {"op": "list"},
        {"op": "call", "tool": victim, "args": {"message": "should not pass"}},
        {"op": "call", "tool": "get-env", "args": {}},
        {"op": "ping"},
    ]);
    let args = vec!["sse".to_owned(), gw.sse_url("everything_enforce"), plan.to_string()];
    let enf = support::py_client(&scratch, "py-sse-enforce", args).await;
    assert_eq!(tool_names(&listed(&enf, 0)), visible);
    assert_scored(&listed(&enf, 0), "legacy enforce");
    let refused = call(&enf, 0);
    assert_eq!(refused["ok"], false, "{enf}");
    assert_eq!(refused["code"], -32602, "{refused}");
    assert_eq!(refused["data"]["tool"], victim.as_str(), "{refused}");
    assert!(refused["message"].as_str().unwrap_or_default().contains("tdqs-gateway"), "{refused}");
    assert!(call(&enf, 1)["text"].as_str().unwrap_or_default().contains("PATH"), "{enf}");
    assert_eq!(steps(&enf, "ping").len(), 1, "the session goes on after the refusal");

    // A message for a session the gateway does not know: 404.
    let r = support::http::client()
        .post(format!("http://{}/messages/everything?session_id=nope", gw.addr))
        .header("content-type", "application/json")
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
    // And the Streamable HTTP route of a legacy upstream says where to go instead.
    let r = support::http::post(
        &support::http::client(),
        &gw.mcp_url("everything"),
        None,
        &support::http::initialize_request(0),
        true,
    )
    .await;
    assert!((400..500).contains(&r.status) && r.raw.contains("/sse/"), "{r:#?}");
}

/// When a legacy client goes away, the gateway closes its stream to the upstream too (or the
/// upstream keeps a session, and a server, per client that ever connected).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_disconnect_closes_the_upstream_stream() {
    let scratch = Scratch::new("legacy-disconnect");
    let upstream = SseServer::start(&scratch).await;
    let config = format!("[[upstream]]\nname = \"everything\"\nsse_url = \"{}\"\n", upstream.url());
    let gw = Gateway::start_in(&scratch, "gateway", &config).await;
    let plan = json!([{"op": "list"}]);
    let out =
        support::py_client(&scratch, "py-sse", vec!["sse".into(), gw.sse_url("everything"), plan.to_string()]).await;
    assert_eq!(listed(&out, 0).len(), 13);
    let closed = support::poll(Duration::from_secs(10), || {
        let (opened, closed) = upstream.connections();
        (opened >= 1 && closed == opened).then_some(())
    })
    .await;
    assert!(closed.is_some(), "upstream sessions (opened, closed): {:?}", upstream.connections());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lint_on_live_servers() {
    let scratch = Scratch::new("legacy-lint");
    let upstream = SseServer::start(&scratch).await;
    let config = format!("[[upstream]]\nname = \"everything\"\nsse_url = \"{}\"\n", upstream.url());
    let gw = Gateway::start_in(&scratch, "gateway", &config).await;
    let lint = |source: &[&str], format: &str| {
        let mut a: Vec<String> = vec!["lint".into()];
        a.extend(source.iter().map(|s| s.to_string()));
        a.extend(["--format".into(), format.into(), "--fail-on".into(), "never".into()]);
        a
    };
    // The extra argument (ignored by server-everything) marks this test's server processes.
    let marker = support::marker("legacy-lint");
    let everything_stdio = format!("node {} stdio {marker}", everything_js().display());

    // --url on the legacy server itself: the initialize POST gets 404, the legacy transport
    // takes over, and the report covers all 13 tools.
    let (code, text, err) = gateway_cli(&scratch, "lint-url", &lint(&["--url", &upstream.url()], "text")).await;
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("13 tools"), "{text}");
    assert!(text.contains("echo") && text.contains("get-sum"), "{text}");

    // --url through the gateway's legacy route (its POST refusal is a 4xx too), as JSON.
    let (code, json_text, err) =
        gateway_cli(&scratch, "lint-url-gw", &lint(&["--url", &gw.sse_url("everything")], "json")).await;
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&json_text).unwrap_or_else(|e| panic!("{e}: {json_text}"));
    assert_eq!(report["tools"].as_array().map(Vec::len), Some(13), "{report}");

    // --command on server-everything over stdio.
    let (code, text, err) =
        gateway_cli(&scratch, "lint-command", &lint(&["--command", &everything_stdio], "text")).await;
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("13 tools") && text.contains("mcp-servers/everything"), "{text}");
    let (code, json_text, err) =
        gateway_cli(&scratch, "lint-command-json", &lint(&["--command", &everything_stdio], "json")).await;
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&json_text).unwrap();
    let names: Vec<&str> = report["tools"].as_array().unwrap().iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names.len(), 13, "{names:?}");
    for t in ["echo", "get-sum", "get-env", "trigger-long-running-operation"] {
        assert!(names.contains(&t), "{t} in {names:?}");
    }
    // Nothing of the server is left running after --command.
    let left = support::procs::with_marker(&marker);
    assert!(left.is_empty(), "lint --command left its server running: {left:#?}");
}
