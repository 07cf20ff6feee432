//! What the gateway remembers per client session stays bounded: a session is forgotten after
//! `listen.session_idle_ms` without a request, and at once when the upstream answers 404 for
//! it (it expired or was ended there). Read from the `mcp_gateway_sessions` gauge on
//! `/metrics`, against the rig's stateful FastMCP server.

use crate::support::rig as support;

use std::time::Duration;

use serde_json::json;
use support::http::Mcp;
use support::{Gateway, Rig, Upstream};

/// The `mcp_gateway_sessions` value for `server`, 0 when it has no series.
async fn sessions(gw: &Gateway, server: &str) -> f64 {
    let text = reqwest::get(format!("{}/metrics", gw.base())).await.unwrap().text().await.unwrap();
    let label = format!("server=\"{server}\"");
    text.lines()
        .filter(|l| l.starts_with("mcp_gateway_sessions{") && l.contains(&label))
        .filter_map(|l| l.rsplit(' ').next()?.parse().ok())
        .next()
        .unwrap_or(0.0)
}

/// Polls the gauge until it reads `want` (10 s at most, scaled).
async fn expect_sessions(gw: &Gateway, server: &str, want: f64, why: &str) {
    if support::poll_async(Duration::from_secs(10), async || (sessions(gw, server).await == want).then_some(()))
        .await
        .is_none()
    {
        let last = sessions(gw, server).await;
        panic!("{why}: mcp_gateway_sessions{{server={server:?}}} is {last}, expected {want}");
    }
}

fn config(url: &str) -> String {
    format!("[store]\nurl = \"memory\"\n[policy]\nmode = \"annotate\"\n\n[[upstream]]\nname = \"s\"\nurl = \"{url}\"\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_session_is_forgotten() {
    let rig = Rig::new("sessions-idle");
    let upstream = Upstream::fastmcp(&rig, &[]).await;
    let gw = Gateway::start(&rig, "session_idle_ms = 1500", &config(&upstream.url())).await;
    let mut busy = Mcp::new(gw.url("s"));
    busy.initialize("2025-06-18", json!({})).await;
    let mut idle = Mcp::new(gw.url("s"));
    idle.initialize("2025-06-18", json!({})).await;
    expect_sessions(&gw, "s", 2.0, "two sessions open").await;
    // One keeps talking (a list at every check), the other says nothing, until the gateway
    // forgets one; the busy one's calls keep working throughout, so it is the silent one.
    let forgotten = support::poll_async(Duration::from_secs(20), async || {
        let answer = busy.call("tools/list", serde_json::Value::Null).await;
        assert!(answer.get("result").is_some(), "the busy session still works: {answer}");
        (sessions(&gw, "s").await == 1.0).then_some(())
    });
    assert!(forgotten.await.is_some(), "the silent session is forgotten: {} open", sessions(&gw, "s").await);
    let answer = busy.call("tools/list", serde_json::Value::Null).await;
    assert!(answer.get("result").is_some(), "the busy session is the one kept: {answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_the_upstream_no_longer_knows_is_forgotten() {
    let rig = Rig::new("sessions-404");
    let upstream = Upstream::fastmcp(&rig, &[]).await;
    let gw = Gateway::start(&rig, "", &config(&upstream.url())).await;
    let mut client = Mcp::new(gw.url("s"));
    client.initialize("2025-06-18", json!({})).await;
    expect_sessions(&gw, "s", 1.0, "session open").await;
    // The session ends at the upstream behind the gateway's back.
    let sid = client.session.clone().expect("a session id");
    let ended = reqwest::Client::new()
        .delete(upstream.url())
        .header("mcp-session-id", &sid)
        .header("mcp-protocol-version", "2025-06-18")
        .send()
        .await
        .unwrap();
    assert!(ended.status().is_success(), "DELETE at the upstream: {}", ended.status());
    let reply = client.post(&json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list"})).await;
    assert_eq!(reply.status, 404, "the upstream's 404 reaches the client: {}", reply.text());
    expect_sessions(&gw, "s", 0.0, "forgotten on the upstream's 404").await;
}
