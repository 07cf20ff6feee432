//! The store seen through a running gateway, on real databases:
//! - PostgreSQL stopped mid-run: proxying goes on (scored, annotated), `/readyz` says the store
//!   is failing, and the scores written meanwhile reach the database once it is back;
//! - a restart on PostgreSQL judges nothing again (tool scores and coherence come back from it);
//! - a gateway on PostgreSQL over TLS (`sslmode=verify-full` with a private CA) stores its
//!   scores over encrypted connections, and a bad `sslmode` stops `serve`, naming it;
//! - pinning: a changed definition is hidden and its calls refused until `tdqs-gateway approve`,
//!   and a definition that goes back to an approved one needs nothing;
//! - two gateways writing one SQLite file at once, with the CLI approving beside them;
//! - a SQLite file that is not a database, or cannot be written, stops `serve` with a clear
//!   error naming it.

use crate::support::gateway;
use crate::support::model_server;
use crate::support::pg as pg_support;
use crate::support::process::run_to_exit;
use crate::support::rig as support;

use std::path::Path;
use std::process::ExitStatus;
use std::time::{Duration, Instant};

use model_server::{ModelServer, coherence_answer, tool_answer};
use pg_support::{Hba, PgServer};
use serde_json::{Value, json};
use support::http::Mcp;
use support::{Gateway, Rig, Scratch, Upstream, eventually_async};

async fn list(gw: &Gateway, upstream: &str) -> Vec<Value> {
    let reply = Mcp::new(gw.url(upstream)).post(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})).await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()["result"]["tools"].as_array().cloned().unwrap_or_default()
}

fn names(tools: &[Value]) -> Vec<String> {
    tools.iter().map(|t| t["name"].as_str().unwrap_or_default().to_owned()).collect()
}

async fn readyz(gw: &Gateway) -> (u16, Value) {
    let r = reqwest::get(format!("{}/readyz", gw.base())).await.unwrap();
    (r.status().as_u16(), r.json().await.unwrap())
}

/// The judge of the coherence in `gw`'s report on `upstream`, once it has a report.
async fn coherence_judge(gw: &Gateway, upstream: &str) -> Option<String> {
    let body: Value = reqwest::get(format!("{}/admin/api/upstreams", gw.base())).await.ok()?.json().await.ok()?;
    let list = body["upstreams"].as_array()?;
    let u = list.iter().find(|u| u["name"] == upstream)?;
    u["report"]["coherenceJudge"].as_str().map(str::to_owned)
}

async fn catalog(rig: &Rig, name: &str, args: &[&str]) -> Upstream {
    Upstream::python(rig, name, "catalog_server.py", args).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_postgres_outage_mid_run_degrades_and_catches_up() {
    let rig = Rig::new("pg-outage");
    let mut pg = PgServer::start();
    let (a, b) = tokio::join!(
        catalog(&rig, "cat-a", &["--count", "20", "--prefix", "a"]),
        catalog(&rig, "cat-b", &["--count", "20", "--prefix", "b"])
    );
    let cfg = format!(
        "[store]\nurl = \"{}\"\n\n[policy]\nmode = \"annotate\"\n\n[[upstream]]\nname = \"a\"\nurl = \"{}\"\n\n\
         [[upstream]]\nname = \"b\"\nurl = \"{}\"\n",
        pg.url(),
        a.url(),
        b.url()
    );
    let gw = Gateway::start(&rig, "", &cfg).await;
    assert_eq!(list(&gw, "a").await.len(), 20);
    eventually_async("a's scores stored", Duration::from_secs(20), async || {
        (pg.count("SELECT count(*) FROM tool_scores") == 20).then_some(())
    })
    .await;
    assert_eq!(readyz(&gw).await.1["store"]["status"], "ok");

    pg.stop();
    let started = Instant::now();
    let tools = list(&gw, "b").await;
    assert_eq!(tools.len(), 20, "proxying goes on without the store");
    assert!(tools.iter().all(|t| support::meta::score(t).is_some()), "and scoring too");
    assert!(started.elapsed() < Duration::from_secs(5), "the list did not wait on the database");
    let (status, body) = readyz(&gw).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("degraded")), "{body}");
    assert_eq!(body["store"]["status"], "failing", "{body}");
    let err_log = gw.proc.err.clone();
    eventually_async("the writer noticed the outage", Duration::from_secs(20), async || {
        std::fs::read_to_string(&err_log).unwrap_or_default().contains("store write failed").then_some(())
    })
    .await;

    pg.resume();
    eventually_async("b's scores caught up", Duration::from_secs(45), async || {
        (pg.count("SELECT count(*) FROM tool_scores") == 40).then_some(())
    })
    .await;
    eventually_async("/readyz sees the store again", Duration::from_secs(20), async || {
        (readyz(&gw).await.1["store"]["status"] == "ok").then_some(())
    })
    .await;
    assert!(std::fs::read_to_string(&gw.proc.err).unwrap().contains("store is back"), "{}", gw.logs());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_restart_on_postgres_judges_nothing_again() {
    let rig = Rig::new("pg-restart");
    let pg = PgServer::start();
    let model = ModelServer::start();
    for i in 0..10 {
        model.set_tool_answer(&format!("r_{i:02}"), tool_answer([4, 4, 4, 4, 4, 4], false, "fine"));
    }
    model.set_coherence_answer("catalog", coherence_answer([4, 4, 4, 4], &[], "coherent"));
    let upstream = catalog(&rig, "catalog", &["--count", "10", "--prefix", "r"]).await;
    let cfg = format!(
        "[judge]\nkind = \"openai\"\nbase_url = \"{}\"\nmodel = \"m\"\nmax_attempts = 1\n\n[store]\nurl = \"{}\"\n\n\
         [policy]\nmode = \"annotate\"\n\n[[upstream]]\nname = \"catalog\"\nurl = \"{}\"\n",
        model.base_url(),
        pg.url(),
        upstream.url()
    );
    let final_ = |tools: &[Value]| tools.iter().all(|t| t["_meta"]["tdqs-gateway/score"]["provisional"] == false);
    let mut first = Gateway::start(&rig, "", &cfg).await;
    eventually_async("final scores", Duration::from_secs(30), async || {
        final_(&list(&first, "catalog").await).then_some(())
    })
    .await;
    eventually_async("coherence judged and stored", Duration::from_secs(30), async || {
        (pg.count("SELECT count(*) FROM coherence") == 1).then_some(())
    })
    .await;
    let calls = model.requests().len();
    assert_eq!(calls, 11, "10 tools and 1 coherence");
    first.proc.stop();

    let second = Gateway::start(&rig, "", &cfg).await;
    assert!(final_(&list(&second, "catalog").await), "final on the first list after the restart");
    // The report is rebuilt after the list; once it has the model's coherence, that came from
    // the store or from a new call, which the count below would show.
    eventually_async("the report rebuilt with the model's coherence", Duration::from_secs(30), async || {
        (coherence_judge(&second, "catalog").await.as_deref() == Some("m")).then_some(())
    })
    .await;
    assert_eq!(model.requests().len(), calls, "nothing judged again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_gateway_stores_scores_over_tls() {
    let rig = Rig::new("pg-tls");
    let pg = PgServer::start_tls(Hba::Any);
    let upstream = catalog(&rig, "catalog", &["--count", "12", "--prefix", "t"]).await;
    // The CA file beside the config, named relative to it.
    std::fs::copy(pg.ca_file(), rig.path("db-ca.pem")).unwrap();
    let url = pg.tls_url("sslmode=verify-full&sslrootcert=db-ca.pem");
    let cfg = format!(
        "[store]\nurl = \"{url}\"\n\n[policy]\nmode = \"annotate\"\n\n[[upstream]]\nname = \"catalog\"\nurl = \"{}\"\n",
        upstream.url()
    );
    let gw = Gateway::start(&rig, "", &cfg).await;
    assert_eq!(list(&gw, "catalog").await.len(), 12);
    eventually_async("scores stored", Duration::from_secs(20), async || {
        (pg.count("SELECT count(*) FROM tool_scores") == 12).then_some(())
    })
    .await;
    let plaintext = pg.count(
        "SELECT count(*) FROM pg_stat_ssl JOIN pg_stat_activity USING (pid)
         WHERE application_name = 'tdqs-gateway' AND NOT ssl",
    );
    let encrypted = pg.count(
        "SELECT count(*) FROM pg_stat_ssl JOIN pg_stat_activity USING (pid)
         WHERE application_name = 'tdqs-gateway' AND ssl",
    );
    assert!(encrypted >= 1 && plaintext == 0, "{encrypted} encrypted, {plaintext} plaintext connections");
    assert_eq!(readyz(&gw).await.1["store"]["status"], "ok");

    // A mistyped sslmode is a start-up error that names it (and not the password).
    let bad = rig.path("bad-sslmode.toml");
    let url = pg.tls_url("sslmode=verify_full").replace("tdqs@", "tdqs:s3cret@");
    let text = format!(
        "[listen]\naddr = \"127.0.0.1:0\"\n[store]\nurl = \"{url}\"\n[[upstream]]\nname = \"u\"\nurl = \"http://127.0.0.1:9/mcp\"\n"
    );
    std::fs::write(&bad, text).unwrap();
    let (code, err) = serve_once(&rig.dir, "serve-bad-sslmode", &bad);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("store.url") && err.contains("sslmode=\"verify_full\""), "{err}");
    assert!(!err.contains("s3cret"), "{err}");
}

fn approve(cfg: &Path, tool: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tdqs-gateway"))
        .args(["approve", "--config"])
        .arg(cfg)
        .args(["--upstream", "catalog", "--tool", tool])
        .output()
        .unwrap();
    assert!(out.status.success(), "approve failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_pinned_tool_that_changes_is_hidden_until_approved() {
    let rig = Rig::new("pins");
    let variant = rig.path("variant.txt");
    std::fs::write(&variant, "").unwrap();
    let upstream =
        catalog(&rig, "catalog", &["--count", "5", "--prefix", "p", "--variant-file", &variant.display().to_string()])
            .await;
    let cfg = format!(
        "[store]\nurl = \"sqlite://scores.db\"\n\n[policy]\nmode = \"enforce\"\nmin_tier = \"D\"\npin = true\n\n\
         [[upstream]]\nname = \"catalog\"\nurl = \"{}\"\n",
        upstream.url()
    );
    let gw = Gateway::start(&rig, "", &cfg).await;
    assert_eq!(names(&list(&gw, "catalog").await), ["p_00", "p_01", "p_02", "p_03", "p_04"]);

    // The first tool's description changes (a rug pull): hidden, and its calls refused.
    std::fs::write(&variant, "Also forwards every record to an external archive.").unwrap();
    assert_eq!(names(&list(&gw, "catalog").await), ["p_01", "p_02", "p_03", "p_04"]);
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "p_00", "arguments": {"id": "x"}}});
    let refused = Mcp::new(gw.url("catalog")).post(&call).await.json();
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(refused["error"]["data"]["reason"], "pin_changed", "{refused}");
    assert!(upstream.calls_received().await.is_empty(), "the upstream never saw the call");
    assert!(std::fs::read_to_string(&gw.proc.err).unwrap().contains("pinned tool definition changed"));
    let metrics = reqwest::get(format!("{}/metrics", gw.base())).await.unwrap().text().await.unwrap();
    let changed = metrics.lines().find(|l| l.starts_with("tdqs_definitions_changed_total{"));
    assert!(changed.is_some_and(|l| l.contains("server=\"catalog\"") && l.ends_with(" 1")), "{changed:?}");

    // An operator approves the new definition; the gateway reads approvals back within seconds.
    let cfg_path = gw.config.clone();
    let said = approve(&cfg_path, "p_00");
    assert!(said.starts_with("approved: catalog/p_00 "), "{said}");
    eventually_async("the approved tool is back", Duration::from_secs(15), async || {
        names(&list(&gw, "catalog").await).contains(&"p_00".to_owned()).then_some(())
    })
    .await;
    let answer = Mcp::new(gw.url("catalog")).post(&call).await.json();
    assert!(answer.get("error").is_none(), "{answer}");
    assert!(approve(&cfg_path, "p_00").starts_with("already approved:"));

    // Back to the original definition: approved before, so visible without a new approval.
    std::fs::write(&variant, "").unwrap();
    assert_eq!(list(&gw, "catalog").await.len(), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_gateways_write_one_sqlite_file_at_once() {
    let rig = Rig::new("sqlite-writers");
    let db = rig.path("shared.db");
    let (a, b) = tokio::join!(
        catalog(&rig, "cat-a", &["--count", "50", "--prefix", "a"]),
        catalog(&rig, "cat-b", &["--count", "50", "--prefix", "b"])
    );
    let cfg = |u: &Upstream| {
        format!(
            "[store]\nurl = \"sqlite://{}\"\n\n[policy]\nmode = \"annotate\"\npin = true\n\n[[upstream]]\n\
             name = \"catalog\"\nurl = \"{}\"\n",
            db.display(),
            u.url()
        )
    };
    let (cfg_a, cfg_b) = (cfg(&a), cfg(&b));
    let (ga, gb) = tokio::join!(Gateway::start(&rig, "", &cfg_a), Gateway::start(&rig, "", &cfg_b));
    let lists = (0..20).map(|i| {
        let gw = if i % 2 == 0 { &ga } else { &gb };
        async move { list(gw, "catalog").await.len() }
    });
    assert!(futures_util::future::join_all(lists).await.iter().all(|n| *n == 50));
    let count = |sql: &'static str| {
        let db = db.clone();
        move || -> i64 { rusqlite::Connection::open(&db).unwrap().query_row(sql, [], |r| r.get(0)).unwrap() }
    };
    eventually_async("both gateways' scores stored", Duration::from_secs(30), async || {
        (count("SELECT count(*) FROM tool_scores")() == 100).then_some(())
    })
    .await;
    eventually_async("both gateways' first-use pins stored", Duration::from_secs(30), async || {
        (count("SELECT count(*) FROM pins")() == 100).then_some(())
    })
    .await;
    assert_eq!(count("SELECT count(*) FROM definitions")(), 100);
    let integrity: String =
        rusqlite::Connection::open(&db).unwrap().query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(integrity, "ok");
    for gw in [&ga, &gb] {
        assert!(!std::fs::read_to_string(&gw.proc.err).unwrap().contains("store write failed"), "{}", gw.logs());
    }
}

/// `serve` on `config`, which it must refuse: its exit code and stderr (logs in `dir`).
fn serve_once(dir: &Path, name: &str, config: &Path) -> (i32, String) {
    let mut cmd = gateway::command();
    cmd.args(["serve", "--config"]).arg(config);
    code_and_stderr(run_to_exit(dir, name, cmd, Duration::from_secs(20)))
}

fn code_and_stderr((status, err): (ExitStatus, String)) -> (i32, String) {
    (status.code().unwrap_or(-1), err)
}

#[test]
fn a_broken_sqlite_file_stops_serve_with_a_clear_error() {
    let scratch = Scratch::new("broken-store");
    // The store's own folder: made read-only below, while the logs go beside it.
    let dir = scratch.path("store");
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("scores.db");
    std::fs::write(&db, vec![b'x'; 8192]).unwrap();
    let cfg = dir.join("gateway.toml");
    std::fs::write(
        &cfg,
        "[listen]\naddr = \"127.0.0.1:0\"\n[store]\nurl = \"sqlite://scores.db\"\n[[upstream]]\nname = \"u\"\nurl = \"http://127.0.0.1:9/mcp\"\n",
    )
    .unwrap();
    let (code, err) = serve_once(&scratch.dir, "serve-not-a-database", &cfg);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&db.display().to_string()) && err.contains("not a database"), "{err}");
    let untouched = std::fs::read(&db).unwrap();
    assert_eq!(untouched, vec![b'x'; 8192], "the file is left as it was");

    // A database the gateway may read but not write (its folder and file read-only): refused
    // at start, naming the file, rather than failing every write later.
    std::fs::remove_file(&db).unwrap();
    rusqlite::Connection::open(&db).unwrap().execute_batch("CREATE TABLE t (x INTEGER)").unwrap();
    let (code, err) = serve_read_only(&scratch.dir, &cfg, &dir);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&db.display().to_string()) && err.contains("read"), "{err}");
}

/// Runs `serve` where it cannot write `dir`: as an unprivileged user when the tests run as
/// root (root writes anything), else with the folder's write permission removed. Its logs go
/// to `logs`.
fn serve_read_only(logs: &Path, cfg: &Path, dir: &Path) -> (i32, String) {
    use std::os::unix::fs::PermissionsExt;
    let root = pg_support::is_root();
    for p in [dir.to_path_buf(), dir.join("scores.db"), cfg.to_path_buf()] {
        let mode = if p.is_dir() { 0o555 } else { 0o444 };
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    let result = if root {
        let mut cmd = std::process::Command::new("runuser");
        cmd.args(["-u", "nobody", "--", env!("CARGO_BIN_EXE_tdqs-gateway"), "serve", "--config"]).arg(cfg);
        code_and_stderr(run_to_exit(logs, "serve-read-only", cmd, Duration::from_secs(20)))
    } else {
        serve_once(logs, "serve-read-only", cfg)
    };
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    result
}

/// A gateway stopped the way a container runtime stops it (SIGTERM) writes what it had queued
/// and folds SQLite's write-ahead log into the database: the `.db` file alone, copied
/// elsewhere, holds every score.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_gateway_leaves_the_database_file_complete() {
    let rig = Rig::new("sqlite-stop");
    let upstream = catalog(&rig, "catalog", &["--count", "8", "--prefix", "s"]).await;
    let cfg = format!(
        "[store]\nurl = \"sqlite://scores.db\"\n\n[policy]\nmode = \"annotate\"\n\n[[upstream]]\nname = \"catalog\"\nurl = \"{}\"\n",
        upstream.url()
    );
    let mut gw = Gateway::start(&rig, "", &cfg).await;
    assert_eq!(list(&gw, "catalog").await.len(), 8);
    // SIGTERM to the gateway, as a container runtime sends it. Its own bound (the grace period,
    // then at most 5 s to flush the store) is what it must keep, not the harness's usual 4 s.
    let ended = gw.proc.stop_within(std::time::Duration::from_secs(30));
    assert!(ended, "the gateway ended on SIGTERM by itself:\n{}", gw.logs());
    let wal = rig.path("scores.db-wal");
    assert!(std::fs::metadata(&wal).map_or(true, |m| m.len() == 0), "the log is folded in: {wal:?}");
    let copy = rig.path("copy.db");
    std::fs::copy(rig.path("scores.db"), &copy).unwrap();
    let db = rusqlite::Connection::open(&copy).unwrap();
    let scores: i64 = db.query_row("SELECT count(*) FROM tool_scores", [], |r| r.get(0)).unwrap();
    assert_eq!(scores, 8, "every score in the database file alone");
    assert!(
        std::fs::read_to_string(&gw.proc.err).unwrap().contains("shutting down"),
        "stopped by the signal, not killed"
    );
}
