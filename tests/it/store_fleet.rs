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
use support::{Gateway, Rig, Upstream};

const TOOLS: usize = 50;
const LEASE_MS: u64 = 3_000;

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
    assert_eq!(reply.status(), 200);
    reply.json().await.expect("JSON answer")
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
    let deadline = Instant::now() + Duration::from_secs(120);
    for gw in gws {
        loop {
            let pending = provisional(&list(http, gw).await);
            if pending.is_empty() {
                break;
            }
            assert!(Instant::now() < deadline, "still provisional on {}: {pending:?}\n{}", gw.base(), gw.logs());
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    }
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
    // Server reports (and their coherence call) follow the lists; give them a moment to land.
    let deadline = Instant::now() + Duration::from_secs(30);
    while judge_calls(&model).1 == 0 {
        assert!(Instant::now() < deadline, "no coherence call");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_millis(1_500)).await;

    let (tools, coherence) = judge_calls(&model);
    let repeated: Vec<(&String, usize)> = tools.iter().map(|(k, v)| (k, v.len())).filter(|(_, n)| *n > 1).collect();
    assert_eq!(tools.len(), TOOLS, "every tool judged");
    assert!(repeated.is_empty(), "judged more than once: {repeated:?}");
    assert_eq!(coherence, 1, "one coherence call for the fleet");

    assert_eq!(pg.count("SELECT count(*) FROM tool_scores"), TOOLS as i64);
    // The last claims (the coherence call's) are released just after their answers land.
    let released =
        support::poll(Duration::from_secs(10), || (pg.count("SELECT count(*) FROM claims") == 0).then_some(()));
    assert!(released.await.is_some(), "every claim released: {} left", pg.count("SELECT count(*) FROM claims"));
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
    let deadline = Instant::now() + Duration::from_secs(20);
    while model.requests().is_empty() {
        assert!(Instant::now() < deadline, "A never called the model\n{}", a.logs());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (b, c) = tokio::join!(Gateway::start(&rig, "", &cfg), Gateway::start(&rig, "", &cfg));
    list(&http, &b).await;
    list(&http, &c).await;
    tokio::time::sleep(Duration::from_millis(300)).await;

    // Kill A mid-call (no chance to release anything). What A had asked the model and not
    // yet stored is what it had in flight.
    let first_config = a.config.clone();
    let asked: Vec<String> = judge_calls(&model).0.into_keys().collect();
    let stored_names = pg.strings("SELECT report->>'name' FROM tool_scores");
    let killed_at = Instant::now();
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(gateway_pid(&first_config)), nix::sys::signal::Signal::SIGKILL)
        .expect("kill A");
    let in_flight: Vec<&String> = asked.iter().filter(|n| !stored_names.contains(n)).collect();
    assert!(!in_flight.is_empty(), "A had calls in flight");

    until_final(&http, &[&b, &c]).await;
    let (tools, _) = judge_calls(&model);
    assert_eq!(tools.len(), TOOLS, "every tool judged");
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
    assert!(
        !repeated.is_empty() && repeated.len() <= 8,
        "only A's calls in flight (at most its concurrency) repeat: {repeated:?}"
    );
    assert_eq!(pg.count("SELECT count(*) FROM tool_scores"), TOOLS as i64);
}
