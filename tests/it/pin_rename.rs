//! A tool renamed on a pinned upstream, after the gateway restarted: the name is new, so it is
//! held, and the approval views compare it with the definition approved under the old name,
//! which no list carries any more. Both views read that definition from the store: the admin
//! API's approvals (on SQLite and on PostgreSQL) and `tdqs-gateway approve`, which shows the
//! same diff (on stderr) before it approves (`--dry-run`) and when it does.

use crate::support::admin;
use crate::support::pg as pg_support;
use crate::support::rig as support;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use admin::{AdminClient, MutableServer};
use pg_support::PgServer;
use serde_json::{Value, json};
use support::http::Mcp;
use support::{Gateway, Rig};
use tdqs_gateway::store::approved::latest_approved;
use tdqs_gateway::store::{self, Store, StoreUrl};

const VERSION: &str = "2025-06-18";
const WAIT: Duration = Duration::from_secs(30);
const READ: &str = "Reads one file from the workspace and returns its text. Use list_dir to find a path first.";
const ADDED: &str = "Also returns hidden files.";

fn definition(name: &str, description: &str) -> Value {
    json!({
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string", "description": "A path in the workspace."}}}
    })
}

fn list_dir() -> Value {
    definition("list_dir", "Lists the files of one workspace folder, names only, sorted.")
}

fn names(list: &Value) -> Vec<String> {
    let tools = list["result"]["tools"].as_array().unwrap_or_else(|| panic!("not a list: {list}"));
    let mut names: Vec<String> = tools.iter().map(|t| t["name"].as_str().unwrap_or_default().to_owned()).collect();
    names.sort();
    names
}

async fn list(gw: &Gateway) -> Value {
    let mut c = Mcp::new(gw.url("m"));
    c.initialize(VERSION, json!({})).await;
    c.call("tools/list", json!({})).await
}

/// `tdqs-gateway approve` on upstream `m`: exit success, stdout, stderr.
fn approve(cfg: &Path, tool: &str, extra: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tdqs-gateway"))
        .args(["approve", "--config"])
        .arg(cfg)
        .args(["--upstream", "m", "--tool", tool])
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

async fn a_rename_after_a_restart_is_shown_against_the_old_name(rig: &Rig, store_url: &str) {
    let server = MutableServer::start(rig, &[definition("read_file", READ), list_dir()]).await;
    let cfg = format!(
        "[store]\nurl = \"{store_url}\"\n\n[policy]\nmode = \"enforce\"\nmin_score = 0.0\npin = true\n\n\
         [[upstream]]\nname = \"m\"\nurl = \"{}\"\n",
        server.url()
    );
    let url = StoreUrl::parse(store_url, &rig.dir).unwrap();
    let store: Arc<dyn Store> = store::open(&url).unwrap();

    let mut first = Gateway::start(rig, "", &cfg).await;
    assert_eq!(names(&list(&first).await), ["list_dir", "read_file"], "first listing: trusted");
    support::eventually_async("both approved definitions kept in the store", WAIT, async || {
        let kept = latest_approved(&*store, "m").unwrap();
        (kept.iter().map(|(t, _, _)| t.as_str()).collect::<Vec<_>>() == ["list_dir", "read_file"]).then_some(())
    })
    .await;
    first.proc.stop();

    // While no gateway runs, the upstream renames the tool and changes what it says.
    server.set(&[definition("read_file_v2", &format!("{READ} {ADDED}")), list_dir()]);
    let second = Gateway::start(rig, "", &cfg).await;
    assert_eq!(names(&list(&second).await), ["list_dir"], "a new name after a restart is held too");

    let api = AdminClient::new(second.base(), None);
    let approvals = api.get_ok("approvals").await;
    let held = approvals["approvals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["tool"] == "read_file_v2")
        .unwrap_or_else(|| panic!("not awaiting approval: {approvals}"))
        .clone();
    assert_eq!(held["pin"], "new", "{held}");
    assert_eq!(held["nearestApproved"]["tool"], "read_file", "the old name, read from the store: {held}");
    let diff = held["nearestApproved"]["diff"].as_str().unwrap();
    assert!(diff.contains("-  \"name\": \"read_file\"") && diff.contains("+  \"name\": \"read_file_v2\""), "{diff}");
    assert!(diff.contains(ADDED), "{diff}");

    // The CLI shows the same comparison, first without approving anything.
    let cfg_path = second.config.clone();
    let mut shown = String::new();
    support::eventually_async("the CLI sees the held definition", WAIT, async || {
        let (ok, out, err) = approve(&cfg_path, "read_file_v2", &["--dry-run"]);
        shown = format!("{out}{err}");
        (ok && err.contains("nearest approved definition: read_file ")).then_some(())
    })
    .await;
    assert!(shown.contains("m/read_file_v2 ") && shown.contains("a name new to this upstream"), "{shown}");
    assert!(shown.contains("+  \"name\": \"read_file_v2\"") && shown.contains(ADDED), "{shown}");
    assert!(shown.starts_with("would approve: m/read_file_v2 "), "stdout first: {shown}");
    assert!(store.pins().unwrap().iter().all(|p| p.tool != "read_file_v2"), "a dry run approves nothing");

    let (ok, out, err) = approve(&cfg_path, "read_file_v2", &[]);
    assert!(ok, "{err}");
    assert!(err.contains("nearest approved definition: read_file ") && err.contains(ADDED), "{err}");
    assert_eq!(out.lines().collect::<Vec<_>>().len(), 1, "stdout: one line per tool: {out}");
    assert!(out.starts_with("approved: m/read_file_v2 "), "{out}");
    support::eventually_async("the approved tool is listed", WAIT, async || {
        (names(&list(&second).await) == ["list_dir", "read_file_v2"]).then_some(())
    })
    .await;
    // Once approved, the tool's own approved definition is what a later change is shown against.
    let (ok, out, _) = approve(&cfg_path, "read_file_v2", &["--dry-run"]);
    assert!(ok && out.contains("already approved: m/read_file_v2 "), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn on_sqlite() {
    let rig = Rig::new("pin-rename-sqlite");
    let db = rig.path("pins.db");
    a_rename_after_a_restart_is_shown_against_the_old_name(&rig, &format!("sqlite://{}", db.display())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn on_postgres() {
    let rig = Rig::new("pin-rename-pg");
    let pg = PgServer::start();
    a_rename_after_a_restart_is_shown_against_the_old_name(&rig, &pg.url()).await;
}
