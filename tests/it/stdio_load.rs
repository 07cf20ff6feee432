//! Many sessions on one stdio upstream: the `max_sessions` cap holds under 50 concurrent
//! clients (never more than 20 live children, a clear 503 for the rest, which succeed when they
//! retry), everything is reaped after the clients DELETE their sessions, and the idle reaper ends
//! abandoned sessions.

use crate::support::stdio as support;

use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::http::{self, call_request, open_session, post, request};
use support::{Gateway, Guarded, Scratch, procs, python, rig};

fn bad_server(flags: &[&str]) -> String {
    let mut v = vec![python().display().to_string(), rig("bad_server.py").display().to_string()];
    v.extend(flags.iter().map(|f| f.to_string()));
    serde_json::to_string(&v).unwrap()
}

/// What sampling the gateway's children saw.
#[derive(Debug, Default)]
struct Samples {
    count: usize,
    max_live: usize,
    max_total: usize,
    /// The process list at the worst moment.
    worst: Vec<procs::ProcInfo>,
}

impl Samples {
    fn take(&mut self, gw: &Gateway) {
        let kids = gw.children();
        let live = kids.iter().filter(|p| p.state != 'Z').count();
        self.count += 1;
        self.max_total = self.max_total.max(kids.len());
        if live > self.max_live {
            self.max_live = live;
            self.worst = kids;
        }
    }
}

/// Most sessions open at once as the clients saw them: each client's span from its initialize
/// answer to its DELETE lies inside the gateway's own lifetime of that session.
fn max_overlap(clients: &[Value]) -> usize {
    let mut edges: Vec<(f64, i32)> = clients
        .iter()
        .filter_map(|c| Some([(c["opened"].as_f64()?, 1), (c["closing"].as_f64()?, -1)]))
        .flatten()
        .collect();
    edges.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let (mut open, mut most) = (0i32, 0i32);
    for (_, d) in edges {
        open += d;
        most = most.max(open);
    }
    most as usize
}

/// Runs 50 clients at once (initialize, list, call, DELETE) on an upstream capped at 20
/// sessions, sampling the gateway's children meanwhile.
async fn fifty_clients(test: &str) -> (Gateway, Vec<Value>, Samples, Scratch) {
    let scratch = Scratch::new(test);
    let config = format!("[[upstream]]\nname = \"capped\"\ncommand = {}\nmax_sessions = 20\n", bad_server(&[]));
    let gw = Gateway::start_in(&scratch, "gateway", &config).await;

    let mut cmd = Command::new(python());
    cmd.arg(rig("load_client.py"))
        .arg(gw.mcp_url("capped"))
        .arg("50")
        .args(["--call-ms", "300", "--deadline", "90"])
        .envs(scratch.envs())
        .current_dir(support::root());
    let mut load = Guarded::spawn(&scratch.dir, "load-client", cmd, None);
    let mut samples = Samples::default();
    let deadline = Instant::now() + Duration::from_secs(150);
    let status = loop {
        samples.take(&gw);
        if let Some(s) = load.exited() {
            break s;
        }
        assert!(Instant::now() < deadline, "the load client did not finish\n{}", load.logs());
        tokio::time::sleep(Duration::from_millis(3)).await;
    };
    assert!(status.success(), "load client failed: {status}\n{}", load.logs());
    let text = std::fs::read_to_string(&load.out).unwrap();
    let out: Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"));
    let clients = out["clients"].as_array().cloned().unwrap();
    eprintln!(
        "{test}: {} samples, at most {} live children ({} with zombies), {} sessions open at once, {} s",
        samples.count,
        samples.max_live,
        samples.max_total,
        max_overlap(&clients),
        out["seconds"]
    );
    (gw, clients, samples, scratch)
}

/// The cap as clients see it: 503 with a clear JSON-RPC error past 20 sessions, every client
/// through on retry, never more than 20 sessions open at once, nothing left after the DELETEs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_clients_against_a_cap_of_twenty() {
    let (gw, clients, samples, _scratch) = fifty_clients("load-cap").await;

    // Every client got through in the end, with a scored list and the right answer.
    assert_eq!(clients.len(), 50);
    let failed: Vec<&Value> = clients.iter().filter(|c| c["ok"] != true).collect();
    assert!(failed.is_empty(), "clients that failed: {failed:#?}");
    assert!(clients.iter().all(|c| c["tools"] == 4 && c["scored"] == true), "{clients:#?}");

    // Past the cap: 503 with a JSON-RPC error saying why.
    let rejected: i64 = clients.iter().map(|c| c["rejected"].as_i64().unwrap_or(0)).sum();
    assert!(rejected > 0, "50 clients at once on a cap of 20: some must have been turned away");
    let rejection = clients.iter().find_map(|c| c.get("rejection")).unwrap();
    assert_eq!(rejection["status"], 503);
    let message = rejection["body"]["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("\"capped\"") && message.contains("20") && message.contains("max_sessions"),
        "a clear 503: {rejection}"
    );
    assert_eq!(rejection["body"]["jsonrpc"], "2.0", "{rejection}");

    // The cap held (sessions) and was used (sessions and processes).
    let overlap = max_overlap(&clients);
    assert!(overlap <= 20, "clients saw {overlap} sessions open at once");
    assert!(overlap >= 10 && samples.max_live >= 10, "the load never ran many sessions at once: {samples:?}");

    // All DELETEd: no child left, no zombie.
    gw.expect_children(0, Duration::from_secs(10), "after all 50 clients deleted their sessions").await;
}

/// The same load, counting processes: the gateway never has more than 20 live children.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_clients_never_more_than_twenty_children() {
    let (gw, _clients, samples, _scratch) = fifty_clients("load-cap-procs").await;
    assert!(samples.max_live <= 20, "more than 20 live children at once: {:#?}", samples.worst);
    gw.expect_children(0, Duration::from_secs(10), "after all 50 clients deleted their sessions").await;
}

/// A server slow to exit (1.5 s after its stdin closes): while a DELETEd session's process is
/// still shutting down it is a live child of the gateway, so it must still count against
/// `max_sessions`: with a cap of 1, no second process may start until the first is gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cap_counts_processes_still_shutting_down() {
    cap_holds_while_a_process_shuts_down("load-cap-slow-exit", &["--exit-delay-ms", "1500"]).await;
}

/// The same with a server that closes its output first and exits 1.5 s later: the end of
/// its output must not free its place under the cap while the process still runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cap_counts_processes_whose_output_ended() {
    let args = ["--close-stdout-first", "--exit-delay-ms", "1500"];
    cap_holds_while_a_process_shuts_down("load-cap-stdout-closed", &args).await;
}

async fn cap_holds_while_a_process_shuts_down(name: &str, server_args: &[&str]) {
    let scratch = Scratch::new(name);
    let config =
        format!("[[upstream]]\nname = \"slowexit\"\ncommand = {}\nmax_sessions = 1\n", bad_server(server_args));
    let gw = Gateway::start_in(&scratch, "gateway", &config).await;
    let url = gw.mcp_url("slowexit");
    let c = http::client();
    let a = open_session(&c, &url).await;
    gw.expect_children(1, Duration::from_secs(5), "session a").await;

    let (c2, url2, a2) = (c.clone(), url.clone(), a.clone());
    let deleting = tokio::spawn(async move { http::delete(&c2, &url2, &a2).await });
    // The DELETE is in progress once the server has seen its stdin end.
    let ending =
        support::poll(Duration::from_secs(10), || gw.log_text().contains("bad_server: end of stdin").then_some(()));
    assert!(ending.await.is_some(), "the DELETE closed the server's stdin\n{}", gw.logs());
    let r = post(&c, &url, None, &http::initialize_request(0), true).await;
    let live = gw.live_children();
    assert_eq!(deleting.await.unwrap(), 200);
    assert!(
        r.status == 503 || live.len() <= 1,
        "a second process started while the first still runs (cap 1): status {}, children {live:#?}",
        r.status
    );
}

/// Opens a session on an upstream with a short idle timeout. On a loaded machine a server can
/// take longer than the timeout to answer `initialize`, and the reaper then ends the session
/// under the request (see `idle_reaper_spares_a_call_in_flight`): try again in that case.
async fn open_idle_session(c: &reqwest::Client, url: &str) -> String {
    for _ in 0..5 {
        let r = post(c, url, None, &http::initialize_request(0), true).await;
        assert_eq!(r.status, 200, "{r:#?}");
        let s = r.session.clone().unwrap();
        let ack = post(c, url, Some(&s), &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}), true).await;
        if ack.status == 202 {
            return s;
        }
        eprintln!("session reaped during initialize ({}); trying again", ack.status);
    }
    panic!("could not open a session on {url}");
}

/// `idle_timeout_ms = 500`: an abandoned session's process is reaped (and the session is 404
/// afterwards); a session in use is not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_session_is_reaped() {
    let scratch = Scratch::new("load-idle");
    let config = format!("[[upstream]]\nname = \"idle\"\ncommand = {}\nidle_timeout_ms = 500\n", bad_server(&[]));
    let gw = Gateway::start_in(&scratch, "gateway", &config).await;
    let url = gw.mcp_url("idle");
    let c = http::client();

    // The abandoned session first: opening the busy one after it means the busy one is never
    // left idle while a second server starts (on a loaded machine that can take longer than
    // the idle timeout).
    let abandoned = open_idle_session(&c, &url).await;
    let opened = Instant::now();
    let abandoned_pid = gw.live_children().first().map(|p| p.pid).expect("the abandoned one's server");
    let busy = open_idle_session(&c, &url).await;
    let busy_pid =
        gw.live_children().into_iter().map(|p| p.pid).find(|p| *p != abandoned_pid).expect("the busy session's server");

    // Keep `busy` in use (a ping at every check) until the abandoned one is reaped, which is
    // past the idle timeout.
    let mut id = 100;
    let reaped = support::poll_async(Duration::from_secs(10), async || {
        let r = post(&c, &url, Some(&busy), &request(id, "ping", json!({})), true).await;
        assert_eq!(r.status, 200, "the busy session answered: {r:#?}");
        id += 1;
        let c = gw.children();
        (c.len() == 1 && c[0].state != 'Z').then_some(())
    });
    assert!(reaped.await.is_some(), "the abandoned session reaped: {:#?}", gw.children());
    assert!(opened.elapsed() >= Duration::from_millis(500), "not before the idle timeout");
    assert_eq!(gw.children()[0].pid, busy_pid, "the busy session's server is the one left");
    assert!(!procs::alive(abandoned_pid), "the idle server's process is gone");
    let r = post(&c, &url, Some(&abandoned), &request(1, "tools/list", json!({})), true).await;
    assert_eq!(r.status, 404, "the reaped session is over: {r:#?}");
    let r = post(&c, &url, Some(&busy), &call_request(2, "echo", json!({"text": "alive"})), true).await;
    assert_eq!(r.answer(&json!(2)).unwrap()["result"]["content"][0]["text"], "echo: alive");
    assert!(gw.log_text().contains("idle stdio session reaped"));

    // Then `busy` goes quiet too and is reaped in turn.
    gw.expect_children(0, Duration::from_secs(5), "the second session reaped once idle").await;
}

/// A session waiting for an answer is not idle: with `idle_timeout_ms = 500`, a call the server
/// answers after 1.5 s must get its answer, not an "exited before answering (idle)" error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_reaper_spares_a_call_in_flight() {
    let scratch = Scratch::new("load-idle-inflight");
    let config = format!("[[upstream]]\nname = \"idle\"\ncommand = {}\nidle_timeout_ms = 500\n", bad_server(&[]));
    let gw = Gateway::start_in(&scratch, "gateway", &config).await;
    let url = gw.mcp_url("idle");
    let c = http::client();
    let s = open_idle_session(&c, &url).await;
    let r = post(&c, &url, Some(&s), &call_request(1, "slow", json!({"ms": 1500})), true).await;
    let answer = r.answer(&json!(1)).unwrap_or_else(|| panic!("{r:#?}"));
    assert_eq!(answer["result"]["content"][0]["text"], "slept 1500", "{answer}");
}
