//! Every `serve --runtime`: `per-core` (the default: each connection runs whole on one of the
//! serving threads, each with its own upstream pool), `multi-thread` and `current-thread`
//! (the connections' tasks anywhere, one shared pool). Against the rig's real Python server
//! under enforce, through many connections at once: every connection gets the enforced list,
//! every call to a hidden tool is refused there and never reaches the upstream, every allowed
//! call is answered, answers keep their ids; and SIGTERM still ends the process within its
//! grace period.

use std::collections::HashSet;

use serde_json::{Value, json};

use crate::support::rig as support;
use support::http::Mcp;
use support::meta;
use support::{Gateway, Rig, Upstream, below, cli_scores};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn per_core_serving_enforces_on_every_connection_and_stops_on_sigterm() {
    enforces_on_every_connection("per-core", 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_multi_thread_runtime_enforces_on_every_connection_and_stops_on_sigterm() {
    enforces_on_every_connection("multi-thread", 0).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_current_thread_runtime_enforces_on_every_connection_and_stops_on_sigterm() {
    enforces_on_every_connection("current-thread", 0).await;
}

/// The scenario on `runtime`, which should start `serving_threads` named serving threads.
async fn enforces_on_every_connection(runtime: &str, serving_threads: usize) {
    let rig = Rig::new(&format!("runtime-{runtime}"));
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let config = format!(
        "[policy]\nmode = \"enforce\"\nmin_tier = \"B\"\n\n[[upstream]]\nname = \"rig\"\nurl = \"{}\"\n",
        upstream.url()
    );
    let mut gw =
        Gateway::start_with_env(&rig, "", &config, &[("TDQS_RUNTIME", runtime), ("TDQS_WORKER_THREADS", "2")]).await;
    let direct =
        Mcp::new(upstream.url()).post(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})).await.json();
    let hidden = below(&cli_scores(&rig, &direct["result"]), 3.0);
    assert!(hidden.iter().any(|h| h == "get_data"), "the rig has a tool below B: {hidden:?}");
    let url = gw.url("rig");
    upstream.reset().await;

    // 16 clients at once, each its own connection: the first sighting, then calls.
    let mut tasks = Vec::new();
    for c in 0..16 {
        let (url, hidden) = (url.clone(), hidden.clone());
        tasks.push(tokio::spawn(async move {
            let mut client = Mcp::new(url);
            let listed = client.call("tools/list", Value::Null).await;
            let names: HashSet<String> = meta::names(&listed).into_iter().collect();
            for h in &hidden {
                assert!(!names.contains(h), "client {c} sees hidden {h}: {names:?}");
            }
            assert!(names.contains("search_issues"), "client {c}: {names:?}");
            for round in 0..5 {
                let id = json!(format!("c{c}-r{round}"));
                let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                    "params": {"name": "get_data", "arguments": {"x": "y"}}});
                let answer = client.post(&call).await.answer(&id);
                assert_eq!(answer["error"]["code"], -32602, "client {c}: {answer}");
                let id = json!(1000 * c + round);
                let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                    "params": {"name": "search_issues", "arguments": {"query": "crash"}}});
                let answer = client.post(&call).await.answer(&id);
                assert_eq!(answer["result"]["structuredContent"]["total"], 1, "client {c}: {answer}");
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let received = upstream.calls_received().await;
    assert_eq!(received.len(), 80, "every allowed call, once: {received:?}");
    assert!(received.iter().all(|n| n == "search_issues"), "no refused call reached the upstream: {received:?}");
    let threads = std::fs::read_dir(format!("/proc/{}/task", gw.pid()))
        .unwrap()
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|name| name.starts_with("tdqs-serve-"))
        .count();
    assert_eq!(threads, serving_threads, "{runtime}: its serving threads");
    assert!(gw.proc.stop_within(std::time::Duration::from_secs(30)), "ended on SIGTERM:\n{}", gw.logs());
}
