//! A fleet on one real PostgreSQL: three gateway processes in front of one upstream with 50
//! new tools, a model judge on loopback that counts its calls.
//!
//! - 100 clients spread over the replicas list the same 50 tools at once: exactly 50 tool
//!   judge calls and 1 coherence call, and every replica ends with every score final.
//! - The replica holding the claims is killed mid-call: the others take the claims over once
//!   the lease runs out and finish; the only repeated calls are the ones the dead replica had
//!   in flight, each repeated once, and never before its lease ran out.

use crate::support::model_server;
use crate::support::pg as pg_support;
use crate::support::rig as support;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use model_server::{ModelServer, coherence_answer, tool_answer};
use pg_support::PgServer;
use serde_json::{Value, json};
use support::{Gateway, Rig, Upstream, poll, poll_async};

const TOOLS: usize = 50;
const LEASE_MS: u64 = 3_000;

/// The claims still in the store, with how long past (negative) or before their expiry.
const CLAIMS_LEFT: &str = "SELECT key || ' ' || owner || ' expires in ' || \
    (expires_at - (extract(epoch from clock_timestamp()) * 1000)::bigint) || ' ms' FROM claims";

fn model_for(prefix: &str, delay: Duration) -> ModelServer {
    let model = ModelServer::start();
    for i in 0..TOOLS {
        model.set_tool_answer(&format!("{prefix}_{i:02}"), tool_answer([4, 4, 3, 4, 4, 3], false, "fine"));
    }
    model.set_coherence_answer("catalog", coherence_answer([4, 4, 4, 3], &[], "coherent"));
    model.set_canned_delay(delay);
    model
}

fn config(model: &ModelServer, pg: &PgServer, upstream: &Upstream) -> String {
    format!(
        "[judge]\nkind = \"openai\"\nbase_url = \"{}\"\nmodel = \"fleet-model\"\nconcurrency = 8\n\
         timeout_ms = 60000\nmax_attempts = 1\n\n[store]\nurl = \"{}\"\nlease_ms = {LEASE_MS}\n\n\
         [policy]\nmode = \"annotate\"\n\n[[upstream]]\nname = \"catalog\"\nurl = \"{}\"\n",
        model.base_url(),
        pg.url(),
        upstream.url()
    )
}

async fn list(http: &reqwest::Client, gw: &Gateway) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let reply = http
        .post(gw.url("catalog"))
        .header("accept", "application/json, text/event-stream")
        .json(&body)
        .send()
        .await
        .expect("list through the gateway");
    let status = reply.status();
    let text = reply.text().await.expect("an answer body");
    assert_eq!(status, 200, "list through {}: {text}", gw.base());
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("JSON answer ({e}): {text}"))
}

/// Names of the listed tools whose annotation is still provisional.
fn provisional(answer: &Value) -> Vec<String> {
    let tools = answer["result"]["tools"].as_array().cloned().unwrap_or_default();
    assert_eq!(tools.len(), TOOLS, "every tool is listed: {answer}");
    tools
        .iter()
        .filter(|t| t["_meta"]["tdqs-gateway/score"]["provisional"] != json!(false))
        .map(|t| t["name"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// Lists through every replica until all scores are final there.
async fn until_final(http: &reqwest::Client, gws: &[&Gateway]) {
    for gw in gws {
        let done = poll_async(Duration::from_secs(120), || async {
            provisional(&list(http, gw).await).is_empty().then_some(())
        })
        .await;
        let pending = provisional(&list(http, gw).await);
        assert!(done.is_some(), "still provisional on {}: {pending:?}\n{}", gw.base(), gw.logs());
    }
}

/// The judge of the coherence in `gw`'s server report, once it has one.
async fn coherence_judge(http: &reqwest::Client, gw: &Gateway) -> Option<String> {
    let url = format!("{}/admin/api/upstreams", gw.base());
    let body: Value = http.get(url).send().await.ok()?.json().await.ok()?;
    body["upstreams"][0]["report"]["coherenceJudge"].as_str().map(str::to_owned)
}

/// What the replicas said about the store and their claims.
fn fleet_logs(gws: &[&Gateway]) -> String {
    gws.iter()
        .flat_map(|g| {
            g.log_text()
                .lines()
                .filter(|l| l.contains("claim") || l.contains("store"))
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Tool judge requests by tool name, and the number of coherence requests.
fn judge_calls(model: &ModelServer) -> (HashMap<String, Vec<Instant>>, usize) {
    let mut tools: HashMap<String, Vec<Instant>> = HashMap::new();
    let mut coherence = 0;
    for r in model.requests() {
        let key = r.key();
        if let Some(name) = key.strip_prefix("TOOL NAME: ") {
            tools.entry(name.trim().to_owned()).or_default().push(r.received);
        } else if key.starts_with("SERVER NAME: ") {
            coherence += 1;
        }
    }
    (tools, coherence)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_hundred_clients_on_three_replicas_cause_fifty_judge_calls_and_one_coherence_call() {
    let rig = Rig::new("fleet-once");
    let pg = PgServer::start();
    let model = model_for("cat", Duration::from_millis(400));
    let upstream = Upstream::python(&rig, "catalog", "catalog_server.py", &["--count", "50", "--prefix", "cat"]).await;
    let cfg = config(&model, &pg, &upstream);
    let (a, b, c) =
        tokio::join!(Gateway::start(&rig, "", &cfg), Gateway::start(&rig, "", &cfg), Gateway::start(&rig, "", &cfg));
    let replicas = [&a, &b, &c];

    let http = reqwest::Client::new();
    let clients = (0..100).map(|i| {
        let (http, gw) = (http.clone(), replicas[i % 3]);
        async move { list(&http, gw).await }
    });
    let answers = futures_util::future::join_all(clients).await;
    assert!(answers.iter().all(|a| a["result"]["tools"].as_array().map(Vec::len) == Some(TOOLS)));

    until_final(&http, &replicas).await;
    // Server reports (and their coherence call) follow the lists. Once every replica's report
    // has the model's coherence, each has had its answer (judged or from the store) and keeps
    // it: no replica asks again, so the count below is the last one.
    for gw in replicas {
        let judged = poll_async(Duration::from_secs(30), || async {
            (coherence_judge(&http, gw).await.as_deref() == Some("fleet-model")).then_some(())
        });
        assert!(judged.await.is_some(), "no model coherence on {}: {:?}", gw.base(), coherence_judge(&http, gw).await);
    }

    let (tools, coherence) = judge_calls(&model);
    let repeated: Vec<(&String, usize)> = tools.iter().map(|(k, v)| (k, v.len())).filter(|(_, n)| *n > 1).collect();
    assert_eq!(tools.len(), TOOLS, "every tool judged");
    assert!(repeated.is_empty(), "judged more than once: {repeated:?}\n{}", fleet_logs(&replicas));
    assert_eq!(coherence, 1, "one coherence call for the fleet");

    assert_eq!(pg.count("SELECT count(*) FROM tool_scores"), TOOLS as i64);
    // The last claims (the coherence call's) are released just after their answers land.
    let released =
        support::poll(Duration::from_secs(10), || (pg.count("SELECT count(*) FROM claims") == 0).then_some(()));
    assert!(released.await.is_some(), "every claim released; left: {:?}", pg.strings(CLAIMS_LEFT));
}

/// The process id of the gateway started with `config` (not its reaper).
fn gateway_pid(config: &std::path::Path) -> i32 {
    let wanted = config.display().to_string();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else { continue };
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let args: Vec<String> = cmdline.split(|b| *b == 0).map(|a| String::from_utf8_lossy(a).into_owned()).collect();
        let is_gateway = args.first().is_some_and(|a| a.ends_with("tdqs-gateway"));
        if is_gateway && args.contains(&wanted) {
            return pid;
        }
    }
    panic!("no gateway process for {wanted}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn killing_the_replica_holding_the_claims_costs_only_its_calls_in_flight() {
    let rig = Rig::new("fleet-kill");
    let pg = PgServer::start();
    let model = model_for("kill", Duration::from_millis(2_500));
    let upstream = Upstream::python(&rig, "catalog", "catalog_server.py", &["--count", "50", "--prefix", "kill"]).await;
    let cfg = config(&model, &pg, &upstream);
    let a = Gateway::start(&rig, "", &cfg).await;
    let http = reqwest::Client::new();

    // A lists first: it claims every key and starts judging (8 at a time).
    list(&http, &a).await;
    let called = poll(Duration::from_secs(20), || (!model.requests().is_empty()).then_some(()));
    assert!(called.await.is_some(), "A never called the model\n{}", a.logs());
    let (b, c) = tokio::join!(Gateway::start(&rig, "", &cfg), Gateway::start(&rig, "", &cfg));
    list(&http, &b).await;
    list(&http, &c).await;

    // Kill A mid-call (no chance to release anything). What A had asked the model and not
    // stored is what it had in flight. Both are read after the kill, when A can neither ask
    // nor store any more, and before B or C may take a claim over (A renewed its leases
    // until it died).
    let first_config = a.config.clone();
    let killed_at = Instant::now();
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(gateway_pid(&first_config)), nix::sys::signal::Signal::SIGKILL)
        .expect("kill A");
    let takeover = killed_at + Duration::from_millis(LEASE_MS * 2 / 3 - 200);
    let stored_names = pg.strings("SELECT report->>'name' FROM tool_scores");

    until_final(&http, &[&b, &c]).await;
    let (tools, _) = judge_calls(&model);
    assert_eq!(tools.len(), TOOLS, "every tool judged");
    let asked_by_a = tools.iter().filter(|(_, at)| at[0] < takeover).map(|(n, _)| n);
    let in_flight: Vec<&String> = asked_by_a.filter(|n| !stored_names.contains(n)).collect();
    assert!(!in_flight.is_empty(), "A had calls in flight");
    let mut repeated = Vec::new();
    for (name, arrivals) in &tools {
        assert!(arrivals.len() <= 2, "{name} judged {} times", arrivals.len());
        if arrivals.len() == 2 {
            assert!(in_flight.contains(&name), "{name} repeated but A was not judging it: {in_flight:?}");
            // The take-over waited for A's lease (renewed until the kill) to run out.
            let gap = arrivals[1].saturating_duration_since(killed_at);
            assert!(gap >= Duration::from_millis(LEASE_MS * 2 / 3 - 200), "{name} re-judged {gap:?} after the kill");
            repeated.push(name.clone());
        }
    }
    // Not "at most its concurrency": a call whose answer had come back but was not stored
    // yet had already left its judge slot.
    assert!(!repeated.is_empty(), "A's calls in flight were made again");
    assert_eq!(pg.count("SELECT count(*) FROM tool_scores"), TOOLS as i64);
}
