//! Real stdio MCP servers behind `tdqs-gateway serve` (`[[upstream]] command = [...]`), driven
//! by real SDK clients over Streamable HTTP: mcp-server-time, mcp-server-git (on a scratch git
//! repository) and server-everything in stdio mode. Each client initializes, lists (scores in
//! `_meta`), calls a tool and checks the answer, meets enforce (hidden tools absent, calls to them
//! refused with -32602), and closes its session with DELETE, after which the gateway has no child
//! process left. A raw HTTP test checks the session rules the SDKs hide (one GET stream, 404
//! after DELETE, the child gone, JSON answers for JSON-only clients).

use crate::support::stdio as support;

use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};
use support::http::{self, call_request, open_session, post, request};
use support::{
    GIT_MIN_SCORE, Gateway, Scratch, assert_scored, everything_js, listed, score_of, steps, tool_names, venv_bin,
};

/// A scratch git repository with one commit and one unstaged change holding `marker`.
fn git_repo(scratch: &Scratch, marker: &str) -> std::path::PathBuf {
    let repo = scratch.path("repo");
    std::fs::create_dir_all(&repo).unwrap();
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args([
                "-c",
                "user.name=Stdio Tests",
                "-c",
                "user.email=stdio@tests.invalid",
                "-c",
                "init.defaultBranch=main",
            ])
            .args(args)
            .current_dir(&repo)
            .output()
            .expect("run git");
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    git(&["init", "-q"]);
    std::fs::write(repo.join("README.md"), "first line\n").unwrap();
    git(&["add", "README.md"]);
    git(&["commit", "-q", "-m", "initial commit"]);
    std::fs::write(repo.join("README.md"), format!("first line\nsecond line {marker}\n")).unwrap();
    repo
}

fn toml_list(items: &[String]) -> String {
    serde_json::to_string(items).unwrap()
}

/// The gateway in front of the three servers: annotate upstreams, and enforce twins of git
/// (default minimum, tier B) and server-everything (minimum tier A).
async fn start_gateway(scratch: &Scratch, repo: &std::path::Path) -> Gateway {
    let time = toml_list(&[venv_bin("mcp-server-time").display().to_string(), "--local-timezone".into(), "UTC".into()]);
    let git = toml_list(&[
        venv_bin("mcp-server-git").display().to_string(),
        "--repository".into(),
        repo.display().to_string(),
    ]);
    let everything = toml_list(&["node".into(), everything_js().display().to_string(), "stdio".into()]);
    let config = format!(
        r#"
[[upstream]]
name = "time"
command = {time}

[[upstream]]
name = "git"
command = {git}

[[upstream]]
name = "git_enforce"
command = {git}
[upstream.policy]
mode = "enforce"
min_score = {GIT_MIN_SCORE}

[[upstream]]
name = "everything"
command = {everything}

[[upstream]]
name = "everything_enforce"
command = {everything}
[upstream.policy]
mode = "enforce"
min_tier = "A"
"#
    );
    Gateway::start_in(scratch, "gateway", &config).await
}

#[derive(Clone, Copy, Debug)]
enum Sdk {
    Python,
    TypeScript,
}

async fn run_client(scratch: &Scratch, sdk: Sdk, name: &str, url: String, plan: Value) -> Value {
    let args = vec!["http".to_owned(), url, plan.to_string()];
    let out = match sdk {
        Sdk::Python => support::py_client(scratch, name, args).await,
        Sdk::TypeScript => support::ts_client(scratch, name, args).await,
    };
    let session = out["sessionId"].as_str().unwrap_or("");
    assert!(!session.is_empty(), "{name}: the gateway gave no Mcp-Session-Id: {out}");
    out
}

fn call_step(out: &Value, i: usize) -> Value {
    steps(out, "call").get(i).map(|v| (*v).clone()).unwrap_or_else(|| panic!("no call step {i}: {out}"))
}

fn ok_text(step: &Value, what: &str) -> String {
    assert!(step["ok"] == true && step["isError"] == false, "{what}: {step}");
    step["text"].as_str().unwrap_or_default().to_owned()
}

/// A tool's score from its `_meta`.
fn tdqs(tool: &Value) -> f64 {
    score_of(tool).and_then(|s| s["tdqs"].as_f64()).unwrap_or_else(|| panic!("no score: {tool}"))
}

/// Checks an enforce list against the annotate list of the same server: exactly the tools that
/// `hidden` selects are gone, the rest are there with their scores. Returns the hidden names.
fn check_enforce_list(
    annotate: &[Value],
    enforce: &[Value],
    hidden: impl Fn(&Value) -> bool,
    what: &str,
) -> Vec<String> {
    let expected_hidden: Vec<String> = tool_names(&annotate.iter().filter(|t| hidden(t)).cloned().collect::<Vec<_>>());
    let expected_visible: Vec<String> =
        tool_names(&annotate.iter().filter(|t| !hidden(t)).cloned().collect::<Vec<_>>());
    assert!(
        !expected_hidden.is_empty() && !expected_visible.is_empty(),
        "{what}: the policy should hide some tools and keep others (scores moved?): {:?}",
        annotate.iter().map(|t| (t["name"].clone(), score_of(t).cloned())).collect::<Vec<_>>()
    );
    let got = tool_names(enforce);
    assert_eq!(got, expected_visible, "{what}: the enforce list should be the annotate list minus {expected_hidden:?}");
    assert_scored(enforce, what);
    for t in enforce {
        assert!(!hidden(t), "{what}: {} is listed but below the minimum: {t}", t["name"]);
    }
    expected_hidden
}

fn assert_refused(step: &Value, tool: &str, what: &str) {
    assert_eq!(step["ok"], false, "{what}: the call to hidden {tool} went through: {step}");
    assert_eq!(step["code"], -32602, "{what}: {step}");
    let message = step["message"].as_str().unwrap_or_default();
    assert!(message.contains(tool) && message.contains("tdqs-gateway"), "{what}: refusal message: {message}");
    assert_eq!(step["data"]["tool"], tool, "{what}: refusal data: {step}");
    assert_eq!(step["data"]["reason"], "below_minimum", "{what}: refusal data: {step}");
}

async fn sdk_tour(sdk: Sdk) {
    let test = format!("servers-{sdk:?}").to_lowercase();
    let scratch = Scratch::new(&test);
    let marker = support::marker(&test);
    let repo = git_repo(&scratch, &marker);
    let gw = start_gateway(&scratch, &repo).await;
    let repo_path = repo.display().to_string();

    // Phase 1, three clients at once: time, git and server-everything under annotate.
    let time_plan = json!([
        {"op": "list"},
        {"op": "call", "tool": "convert_time",
         "args": {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Kolkata"}},
        {"op": "call", "tool": "get_current_time", "args": {"timezone": "Europe/London"}},
    ]);
    let git_plan = json!([
        {"op": "list"},
        {"op": "call", "tool": "git_status", "args": {"repo_path": repo_path}},
        {"op": "call", "tool": "git_diff_unstaged", "args": {"repo_path": repo_path}},
    ]);
    let everything_plan = json!([
        {"op": "list"},
        {"op": "call", "tool": "echo", "args": {"message": marker}},
        {"op": "call", "tool": "get-sum", "args": {"a": 19, "b": 23}},
    ]);
    let (time, git, everything) = tokio::join!(
        run_client(&scratch, sdk, "time-client", gw.mcp_url("time"), time_plan),
        run_client(&scratch, sdk, "git-client", gw.mcp_url("git"), git_plan),
        run_client(&scratch, sdk, "everything-client", gw.mcp_url("everything"), everything_plan),
    );

    // mcp-server-time: scored list, and a conversion with the right answer.
    assert_eq!(time["serverName"], "mcp-time", "{time}");
    let time_tools = listed(&time, 0);
    assert_eq!(tool_names(&time_tools), ["get_current_time", "convert_time"], "{time}");
    assert_scored(&time_tools, "time");
    let converted: Value = serde_json::from_str(&ok_text(&call_step(&time, 0), "convert_time")).expect("JSON answer");
    let target = converted["target"]["datetime"].as_str().unwrap_or_default();
    assert!(target.ends_with("T17:30:00+05:30"), "12:00 UTC is 17:30 in Kolkata: {converted}");
    assert_eq!(converted["target"]["timezone"], "Asia/Kolkata");
    assert_eq!(converted["time_difference"], "+5.5h", "{converted}");
    let now: Value = serde_json::from_str(&ok_text(&call_step(&time, 1), "get_current_time")).expect("JSON answer");
    assert_eq!(now["timezone"], "Europe/London", "{now}");

    // mcp-server-git on the scratch repository.
    let git_tools = listed(&git, 0);
    assert_scored(&git_tools, "git");
    for t in ["git_status", "git_diff_unstaged", "git_log", "git_checkout"] {
        assert!(tool_names(&git_tools).iter().any(|n| n == t), "git lists {t}: {:?}", tool_names(&git_tools));
    }
    let status = ok_text(&call_step(&git, 0), "git_status");
    assert!(status.contains("README.md") && status.contains("main"), "git status of the scratch repo: {status}");
    let diff = ok_text(&call_step(&git, 1), "git_diff_unstaged");
    assert!(diff.contains(&format!("+second line {marker}")), "the unstaged change: {diff}");

    // server-everything: all 13 tools of a capability-less client, scored; echo and get-sum work.
    let ev_tools = listed(&everything, 0);
    assert_eq!(ev_tools.len(), 13, "server-everything lists 13 tools: {:?}", tool_names(&ev_tools));
    assert_scored(&ev_tools, "everything");
    assert_eq!(ok_text(&call_step(&everything, 0), "echo"), format!("Echo: {marker}"));
    assert!(ok_text(&call_step(&everything, 1), "get-sum").contains("42"), "{everything}");

    // Phase 2: the enforce twins, checked against the annotate lists.
    let git_hidden_by = |t: &Value| tdqs(t) < GIT_MIN_SCORE;
    let lowest_git = git_tools
        .iter()
        .filter(|t| git_hidden_by(t))
        .min_by(|a, b| tdqs(a).total_cmp(&tdqs(b)))
        .map(|t| t["name"].as_str().unwrap_or_default().to_owned())
        .expect("a git tool below 3.0");
    let ev_hidden_by = |t: &Value| score_of(t).and_then(|s| s["tier"].as_str()) != Some("A");
    let ev_hidden: Vec<String> = tool_names(&ev_tools.iter().filter(|t| ev_hidden_by(t)).cloned().collect::<Vec<_>>());
    let first_ev_hidden = ev_hidden.first().cloned().expect("a server-everything tool below tier A");
    let git_enforce_plan = json!([
        {"op": "list"},
        {"op": "call", "tool": lowest_git, "args": {"repo_path": repo_path, "branch_name": "main"}},
        {"op": "call", "tool": "git_status", "args": {"repo_path": repo_path}},
    ]);
    let ev_enforce_plan = json!([
        {"op": "list"},
        {"op": "call", "tool": first_ev_hidden, "args": {}},
        {"op": "call", "tool": "get-env", "args": {}},
    ]);
    let (git_enf, ev_enf) = tokio::join!(
        run_client(&scratch, sdk, "git-enforce-client", gw.mcp_url("git_enforce"), git_enforce_plan),
        run_client(&scratch, sdk, "everything-enforce-client", gw.mcp_url("everything_enforce"), ev_enforce_plan),
    );

    let hidden = check_enforce_list(&git_tools, &listed(&git_enf, 0), git_hidden_by, "git_enforce");
    assert!(hidden.contains(&lowest_git));
    assert_refused(&call_step(&git_enf, 0), &lowest_git, "git_enforce");
    let status = call_step(&git_enf, 1);
    if hidden.iter().any(|h| h == "git_status") {
        assert_refused(&status, "git_status", "git_enforce");
    } else {
        assert!(ok_text(&status, "git_status under enforce").contains("README.md"));
    }

    let hidden = check_enforce_list(&ev_tools, &listed(&ev_enf, 0), ev_hidden_by, "everything_enforce");
    assert_eq!(hidden, ev_hidden);
    assert_refused(&call_step(&ev_enf, 0), &first_ev_hidden, "everything_enforce");
    let env_text = ok_text(&call_step(&ev_enf, 1), "get-env (tier A, visible)");
    assert!(env_text.contains("PATH"), "get-env answers the server's environment: {env_text:.200}");

    // Every client closed its session with DELETE: no server process is left, and the gateway
    // says each one was ended by its client.
    gw.expect_children(0, Duration::from_secs(10), "after every client closed its session").await;
    let ended = gw.log_text().matches("ended by the client").count();
    assert_eq!(ended, 5, "five sessions ended by DELETE; gateway log:\n{}", support::tail(&gw.proc.err, 40));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_through_serve() {
    sdk_tour(Sdk::Python).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typescript_sdk_through_serve() {
    sdk_tour(Sdk::TypeScript).await;
}

/// The session rules by hand: the child lives exactly as long as the session, one GET stream,
/// DELETE ends the child and closes the GET stream, the ended session is 404, JSON-only clients
/// get JSON.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raw_session_lifecycle_and_delete() {
    let scratch = Scratch::new("servers-raw");
    let repo = git_repo(&scratch, "raw");
    let gw = start_gateway(&scratch, &repo).await;
    let url = gw.mcp_url("time");
    let c = http::client();
    assert!(gw.children().is_empty(), "no child before any session: {:#?}", gw.children());

    // No session, not an initialize: 400. A made-up session: 404.
    let r = post(&c, &url, None, &request(1, "tools/list", json!({})), true).await;
    assert_eq!(r.status, 400, "{r:#?}");
    let r = post(&c, &url, Some("no-such-session"), &request(1, "tools/list", json!({})), true).await;
    assert_eq!(r.status, 404, "{r:#?}");
    assert!(gw.children().is_empty(), "refused requests start nothing: {:#?}", gw.children());

    let session = open_session(&c, &url).await;
    let kids = gw.live_children();
    assert_eq!(kids.len(), 1, "one mcp-server-time per session: {kids:#?}");
    assert!(kids[0].cmdline.contains("mcp-server-time"), "{kids:#?}");
    let child_pid = kids[0].pid;

    // A JSON-only client gets one JSON object, scored.
    let r = post(&c, &url, Some(&session), &request(2, "tools/list", json!({})), false).await;
    assert_eq!((r.status, r.content_type.as_str()), (200, "application/json"), "{r:#?}");
    let tools = r.answer(&json!(2)).unwrap()["result"]["tools"].as_array().cloned().unwrap();
    assert_scored(&tools, "time (JSON answer)");
    let r = post(
        &c,
        &url,
        Some(&session),
        &call_request(
            3,
            "convert_time",
            json!({"source_timezone": "UTC", "time": "00:30", "target_timezone": "America/New_York"}),
        ),
        false,
    )
    .await;
    let text = r.answer(&json!(3)).unwrap()["result"]["content"][0]["text"].as_str().unwrap_or_default().to_owned();
    assert!(text.contains("America/New_York") && (text.contains("-5.0h") || text.contains("-4.0h")), "{text}");

    // One GET stream per session.
    let get = |s: &str| c.get(&url).header("accept", "text/event-stream").header("mcp-session-id", s.to_owned()).send();
    let stream = get(&session).await.expect("GET");
    assert_eq!(stream.status(), 200);
    assert!(stream.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
    let second = get(&session).await.expect("second GET");
    assert_eq!(second.status(), 409, "a second GET stream on one session");

    // DELETE: 200, the child is gone (reaped: no zombie), the GET stream ends, the session is 404.
    assert_eq!(http::delete(&c, &url, &session).await, 200);
    gw.expect_children(0, Duration::from_secs(10), "after DELETE").await;
    assert!(!support::procs::alive(child_pid), "the mcp-server-time process {child_pid} is gone");
    let rest = tokio::time::timeout(Duration::from_secs(10), stream.bytes()).await;
    assert!(matches!(rest, Ok(Ok(_))), "the GET stream ends with its session: {rest:?}");
    let r = post(&c, &url, Some(&session), &request(4, "tools/list", json!({})), true).await;
    assert_eq!(r.status, 404, "{r:#?}");
    assert_eq!(r.error_of(&json!(4))["code"], -32001, "{r:#?}");
    assert_eq!(http::delete(&c, &url, &session).await, 404, "DELETE of an ended session");
    let log = gw.log_text();
    assert!(log.contains("ended by the client"), "{log}");
}

/// Enforce must hold for a client that calls a low-scoring tool by name without listing first
/// (HTTP upstreams list the upstream themselves in that case): the call is refused, not run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enforce_refuses_an_unlisted_low_scoring_tool() {
    let scratch = Scratch::new("servers-unlisted");
    let repo = git_repo(&scratch, "unlisted");
    let gw = start_gateway(&scratch, &repo).await;
    let c = http::client();

    // The scores, from the annotate twin (its own tool table: git_enforce has seen no list).
    let s = open_session(&c, &gw.mcp_url("git")).await;
    let r = post(&c, &gw.mcp_url("git"), Some(&s), &request(1, "tools/list", json!({})), true).await;
    let tools = r.answer(&json!(1)).unwrap()["result"]["tools"].as_array().cloned().unwrap();
    let lowest = tools.iter().min_by(|a, b| tdqs(a).total_cmp(&tdqs(b))).unwrap();
    let name = lowest["name"].as_str().unwrap().to_owned();
    assert!(tdqs(lowest) < 3.0, "{lowest}");

    let url = gw.mcp_url("git_enforce");
    let s = open_session(&c, &url).await;
    let args = json!({"repo_path": repo.display().to_string(), "branch_name": "main"});
    let r = post(&c, &url, Some(&s), &call_request(2, &name, args), true).await;
    let answer = r.answer(&json!(2)).unwrap_or_else(|| panic!("{r:#?}"));
    assert_eq!(answer["error"]["code"], -32602, "{name} (tdqs {}) ran under enforce: {answer}", tdqs(lowest));
}
