//! A paginated `tools/list` (the rig's low-level Python server: three pages, opaque cursors with
//! characters a careless proxy would mangle) through the gateway: every page is rewritten, each
//! `nextCursor` comes back exactly as the upstream wrote it, the cursor the client sends back
//! reaches the upstream unchanged, and SDK clients that follow cursors see the same pages. The
//! same server sits behind two upstream entries, one annotated and one enforced.

use crate::support::rig as support;

use serde_json::{Value, json};
use support::http::Mcp;
use support::meta::{self, assert_same_json, checked_score, strip, without};
use support::{Gateway, Rig, Upstream, below, cli_scores};

const ALL_PAGES: [[&str; 3]; 3] = [
    ["get_forecast", "thing", "get_current_weather"],
    ["get_stuff", "convert_units", "run"],
    ["list_stations", "helper", "misc"],
];

fn config(url: &str) -> String {
    format!(
        "[[upstream]]\nname = \"annotated\"\nurl = \"{url}\"\n[upstream.policy]\nmode = \"annotate\"\n\n\
         [[upstream]]\nname = \"enforced\"\nurl = \"{url}\"\n[upstream.policy]\nmode = \"enforce\"\nmin_tier = \"B\"\n"
    )
}

/// Lists every page with `client`, returning the answers.
async fn pages(client: &mut Mcp) -> Vec<Value> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let params = cursor.as_ref().map_or(Value::Null, |c| json!({"cursor": c}));
        let answer = client.call("tools/list", params).await;
        assert!(answer.get("result").is_some(), "{answer}");
        cursor = answer["result"]["nextCursor"].as_str().map(str::to_owned);
        out.push(answer);
        if cursor.is_none() || out.len() > 5 {
            return out;
        }
    }
}

async fn check_pages(rig: &Rig, upstream: &Upstream, gw: &Gateway) {
    let mut direct = Mcp::new(upstream.url());
    direct.initialize("2025-11-25", json!({})).await;
    let direct_pages = pages(&mut direct).await;
    assert_eq!(direct_pages.len(), 3);
    for (page, names) in direct_pages.iter().zip(ALL_PAGES) {
        assert_eq!(meta::names(page), names);
    }
    let all_tools: Vec<Value> = direct_pages.iter().flat_map(|p| meta::tools(p).clone()).collect();
    let cli = cli_scores(rig, &json!({"tools": all_tools}));
    let hidden = below(&cli, 3.0);
    let hidden: Vec<&str> = hidden.iter().map(String::as_str).collect();
    for bad in ["thing", "get_stuff", "run", "helper", "misc"] {
        assert!(hidden.contains(&bad), "{bad} is below B: {}", cli[bad]["tdqs"]);
    }

    for (upstream_name, enforced) in [("annotated", false), ("enforced", true)] {
        let mut client = Mcp::new(gw.url(upstream_name));
        client.initialize("2025-11-25", json!({})).await;
        upstream.reset().await;
        let through_pages = pages(&mut client).await;
        assert_eq!(through_pages.len(), 3, "{upstream_name}: the gateway follows no cursor of its own");
        for (i, (t, d)) in through_pages.iter().zip(&direct_pages).enumerate() {
            let what = format!("{upstream_name} page {}", i + 1);
            assert_eq!(t["result"]["nextCursor"], d["result"]["nextCursor"], "{what}: nextCursor unchanged");
            for tool in meta::tools(t) {
                checked_score(tool);
            }
            let mut expected = if enforced { without(d, &hidden) } else { d.clone() };
            expected["id"] = t["id"].clone();
            assert_same_json(&strip(t, d), &expected, &what);
        }
        // The cursors the upstream got back are the ones it wrote.
        let sent: Vec<Value> = upstream
            .received()
            .await
            .iter()
            .flat_map(|e| e["messages"].as_array().cloned().unwrap_or_default())
            .filter(|m| m["method"] == "tools/list")
            .map(|m| m.get("cursor").cloned().unwrap_or(Value::Null))
            .collect();
        let written: Vec<Value> = std::iter::once(Value::Null)
            .chain(direct_pages.iter().take(2).map(|p| p["result"]["nextCursor"].clone()))
            .collect();
        assert_eq!(sent, written, "{upstream_name}: cursors reached the upstream unchanged");
    }

    // An invalid cursor: the upstream's own error passes through.
    let mut client = Mcp::new(gw.url("annotated"));
    client.initialize("2025-11-25", json!({})).await;
    let answer = client.call("tools/list", json!({"cursor": "not-a-cursor"})).await;
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_is_rewritten_json_answers() {
    let rig = Rig::new("pages-json");
    let upstream = Upstream::paginated(&rig, &["--json"]).await;
    let gw = Gateway::start(&rig, "", &config(&upstream.url())).await;
    check_pages(&rig, &upstream, &gw).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_is_rewritten_sse_answers() {
    let rig = Rig::new("pages-sse");
    let upstream = Upstream::paginated(&rig, &[]).await;
    let gw = Gateway::start(&rig, "", &config(&upstream.url())).await;
    let mut probe = Mcp::new(upstream.url());
    probe.initialize("2025-11-25", json!({})).await;
    assert!(probe.request("tools/list", Value::Null).await.1.is_sse(), "this variant answers with SSE");
    check_pages(&rig, &upstream, &gw).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sdk_clients_follow_cursors_through_the_gateway() {
    let rig = Rig::new("pages-sdk");
    let upstream = Upstream::paginated(&rig, &[]).await;
    let gw = Gateway::start(&rig, "", &config(&upstream.url())).await;

    let direct = support::py_client(&["list", &upstream.url()]).await;
    assert_eq!(direct["pages"], json!(ALL_PAGES));
    let wrap = |tools: &Value| json!({"result": {"tools": tools}});
    for (client, annotated, enforced) in [
        (
            "python",
            support::py_client(&["list", &gw.url("annotated")]).await,
            support::py_client(&["list", &gw.url("enforced")]).await,
        ),
        (
            "typescript",
            support::ts_client(&["list", &gw.url("annotated")]).await,
            support::ts_client(&["list", &gw.url("enforced")]).await,
        ),
    ] {
        assert_eq!(annotated["pages"], direct["pages"], "{client}: same pages");
        assert_eq!(annotated["nextCursors"], direct["nextCursors"], "{client}: same cursors");
        let (a, d) = (wrap(&annotated["tools"]), wrap(&direct["tools"]));
        meta::tools(&a).iter().for_each(|t| {
            checked_score(t);
        });
        if client == "python" {
            // Both parsed by the same SDK: identical apart from the scores.
            assert_same_json(&strip(&a, &d), &d, "python: annotated tools");
        } else {
            assert_eq!(meta::names(&a), meta::names(&d));
        }
        assert_eq!(
            enforced["pages"],
            json!([["get_forecast", "get_current_weather"], ["convert_units"], ["list_stations"]]),
            "{client}: each page filtered, none merged or dropped"
        );
        assert_eq!(enforced["nextCursors"], direct["nextCursors"], "{client}: cursors kept on filtered pages");
    }
}
