//! The Python SDK client's own OAuth support, 1.x (`.venv-mcp`) and 2.x (`.venv-mcp2`), through
//! the gateway with `[auth]` on against the real oidc-provider (`tests/rig/py_oauth_client.py`):
//! the first request's 401 leads the SDK to the route's protected resource metadata, the
//! authorization server, a registration and a sign-in by authorization code with PKCE (or a
//! client-credentials grant), and the token it gets lists through the gateway; two identities
//! see different tool sets of one upstream, and a refused call stays refused. The 2.x client
//! signs in on protocol revision 2026-07-28 too.

use serde_json::Value;

use crate::gateway_auth::{Setup, setup};
use crate::support::oidc::Oidc;
use crate::support::rig::{Gateway, Rig, Upstream, free_port, python, python2, require_sdk2, rig_dir, run_client};

/// Runs the rig's OAuth client under one SDK's Python.
async fn py_oauth(python: std::path::PathBuf, args: &[&str]) -> Value {
    let mut cmd = tokio::process::Command::new(python);
    cmd.arg(rig_dir().join("py_oauth_client.py")).args(args);
    run_client(cmd, &format!("py_oauth_client {}", args.join(" "))).await
}

fn names(run: &Value) -> Vec<String> {
    let mut names: Vec<String> = run["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("no tools: {run}"))
        .iter()
        .map(|t| t.as_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

const ALL: [&str; 6] = ["count_to", "create_issue", "do_thing", "get_data", "process", "search_issues"];
const INTERN: [&str; 4] = ["count_to", "do_thing", "get_data", "search_issues"];

/// One SDK's three sign-ins: alice (finance) and bob (interns) by code with PKCE, and the
/// `bob-app` service (interns) by client credentials.
async fn sign_ins(s: &Setup, python: std::path::PathBuf, sdk: u64) {
    let route = s.route();
    let alice = py_oauth(python.clone(), &["code", &route, "alice", "create_issue"]).await;
    assert_eq!(alice["sdk"], sdk);
    assert_eq!(
        alice["steps"],
        serde_json::json!(["registered", "redirect", "login", "consent", "token"]),
        "SDK {sdk}: {alice}"
    );
    assert_eq!(alice["resource"], route, "SDK {sdk} asks for a token for the route (RFC 8707)");
    assert_eq!(names(&alice), ALL, "SDK {sdk}: no rule matches finance");
    assert!(alice.get("call").is_some(), "SDK {sdk}: alice's call reaches the upstream: {alice}");

    let bob = py_oauth(python.clone(), &["code", &route, "bob", "create_issue"]).await;
    assert_eq!(names(&bob), INTERN, "SDK {sdk}: rule interns: {bob}");
    assert_eq!(bob["callError"]["code"], -32602, "SDK {sdk}: bob's call is refused: {bob}");

    let secret = "bob-app-secret-0123456789";
    let service = py_oauth(python, &["client-credentials", &route, &s.oidc.issuer(), "bob-app", secret]).await;
    assert_eq!(service["steps"], serde_json::json!(["token"]), "SDK {sdk}: {service}");
    assert_eq!(names(&service), INTERN, "SDK {sdk}: the service's group is interns: {service}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_1x_signs_in_from_the_401() {
    let s = setup("auth-py1").await;
    sign_ins(&s, python(), 1).await;
    let created = s.tap.exchanges().into_iter().filter(|e| e.calls_tool("create_issue")).count();
    assert_eq!(created, 1, "only alice's call went upstream");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_2x_signs_in_from_the_401() {
    require_sdk2();
    let s = setup("auth-py2").await;
    sign_ins(&s, python2(), 2).await;
    let created = s.tap.exchanges().into_iter().filter(|e| e.calls_tool("create_issue")).count();
    assert_eq!(created, 1, "only alice's call went upstream");
}

/// The SDK 2.x client on protocol revision 2026-07-28 (no sessions: every request carries the
/// token, and its first, the `server/discover` probe, is the one that meets the 401) in front
/// of the SDK 2.x server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_2x_signs_in_on_2026_07_28() {
    require_sdk2();
    let rig = Rig::new("auth-py2-2026");
    let oidc = Oidc::start(&rig, free_port(), "oidc").await;
    let upstream = Upstream::py2(&rig, &[]).await;
    let config = format!(
        "[auth]\nissuer = \"{}\"\nresource = \"{{{{GATEWAY}}}}\"\nrequired_scopes = [\"mcp\"]\n\n\
         [[upstream]]\nname = \"modern\"\nurl = \"{}\"\n",
        oidc.issuer(),
        upstream.url()
    );
    let gw = Gateway::start(&rig, "", &config).await;
    let run = py_oauth(python2(), &["code", &gw.url("modern"), "alice", "search_issues"]).await;
    assert_eq!(run["steps"], serde_json::json!(["registered", "redirect", "login", "consent", "token"]), "{run}");
    assert_eq!(run["protocolVersion"], "2026-07-28", "{run}");
    assert!(names(&run).contains(&"search_issues".to_owned()), "{run}");
    assert!(run.get("call").is_some(), "{run}");
}
