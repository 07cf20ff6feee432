//! `serve --runtime per-core`: each connection runs whole on one of the serving threads, each
//! with its own upstream pool. Against the rig's real Python server under enforce, through
//! many connections at once (spread over both threads): every connection gets the enforced
//! list, every call to a hidden tool is refused there and never reaches the upstream, every
//! allowed call is answered, answers keep their ids; and SIGTERM still ends the process
//! within its grace period.

use std::collections::HashSet;

use serde_json::{Value, json};

use crate::support::rig as support;
use support::http::Mcp;
use support::meta;
use support::{Gateway, Rig, Upstream, below, cli_scores};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn per_core_serving_enforces_on_every_connection_and_stops_on_sigterm() {
    let rig = Rig::new("runtime-per-core");
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let config = format!(
        "[policy]\nmode = \"enforce\"\nmin_tier = \"B\"\n\n[[upstream]]\nname = \"rig\"\nurl = \"{}\"\n",
        upstream.url()
    );
    let mut gw =
        Gateway::start_with_env(&rig, "", &config, &[("TDQS_RUNTIME", "per-core"), ("TDQS_WORKER_THREADS", "2")]).await;
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
    assert_eq!(threads, 2, "two serving threads");
    assert!(gw.proc.stop_within(std::time::Duration::from_secs(30)), "ended on SIGTERM:\n{}", gw.logs());
}
