//! `GET /metrics` scraped by a real Prometheus server (Debian's `prometheus`, started by the
//! test on a free loopback port): the TDQS series arrive with their labels and the values the
//! gateway annotated, under Prometheus' conventional names.

use crate::support::rig as support;
use crate::support::telemetry;

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{Value, json};
use support::http::Mcp;
use support::{Gateway, Rig, Upstream};
use telemetry::Prometheus;

const WAIT: Duration = Duration::from_secs(30);

fn value_of(sample: &Value) -> f64 {
    sample["value"][1].as_str().and_then(|v| v.parse().ok()).unwrap_or(f64::NAN)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prometheus_scrapes_tool_scores_with_their_labels() {
    let rig = Rig::new("prometheus-scrape");
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let config = format!(
        "[store]\nurl = \"memory\"\n[policy]\nmode = \"annotate\"\n\n[[upstream]]\nname = \"issues\"\nurl = \"{}\"\n",
        upstream.url()
    );
    let gw = Gateway::start(&rig, "", &config).await;

    let mut client = Mcp::new(gw.url("issues"));
    client.initialize("2025-11-25", json!({})).await;
    let answer = client.call("tools/list", Value::Null).await;
    let annotated: BTreeMap<String, (f64, String)> = answer["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| {
            let s = &t["_meta"]["tdqs-gateway/score"];
            (
                t["name"].as_str().unwrap().to_owned(),
                (s["tdqs"].as_f64().unwrap(), s["tier"].as_str().unwrap().to_owned()),
            )
        })
        .collect();
    assert_eq!(annotated.len(), 6, "{answer}");

    // The exposition itself: conventional names and types.
    let text = reqwest::get(format!("{}/metrics", gw.base())).await.unwrap().text().await.unwrap();
    for line in [
        "# TYPE tdqs_tool_score gauge",
        "# TYPE tdqs_tools_listed_total counter",
        "# TYPE tdqs_cache_lookups_total counter",
        "# TYPE mcp_gateway_request_duration_seconds histogram",
        "# TYPE mcp_gateway_sessions gauge",
    ] {
        assert!(text.contains(line), "/metrics lacks {line:?}:\n{text}");
    }

    let prom = Prometheus::start(&rig.dir, gw.addr).await;
    let query = "tdqs_tool_score{server=\"issues\"}";
    let every_tool = support::poll_async(WAIT, async || {
        let s = prom.query_until(query, WAIT).await;
        (s.len() == annotated.len()).then_some(s)
    });
    let series = every_tool.await.unwrap_or_else(|| panic!("Prometheus never had a score series per tool ({query})"));
    for s in &series {
        let m = &s["metric"];
        let tool = m["tool"].as_str().expect("tool label");
        let (tdqs, tier) = annotated.get(tool).unwrap_or_else(|| panic!("unexpected tool label {tool}: {s}"));
        assert_eq!(m["tier"], tier.as_str(), "{s}");
        assert_eq!(m["judge"], "heuristic-9", "{s}");
        assert_eq!(m["provisional"], "false", "{s}");
        assert_eq!(m["job"], "tdqs-gateway", "{s}");
        assert!((value_of(s) - tdqs).abs() < 1e-9, "{tool}: scraped {} vs annotated {tdqs}", value_of(s));
    }

    let listed = prom.query_until("tdqs_tools_listed_total{server=\"issues\"}", WAIT).await;
    assert!(value_of(&listed[0]) >= 6.0, "{listed:?}");
    let lists = prom
        .query_until("mcp_gateway_request_duration_seconds_count{server=\"issues\",method=\"tools/list\"}", WAIT)
        .await;
    assert!(value_of(&lists[0]) >= 1.0, "{lists:?}");
    let overall = prom.query_until("tdqs_server_score{server=\"issues\",component=\"overall\"}", WAIT).await;
    assert!((0.0..=5.0).contains(&value_of(&overall[0])), "{overall:?}");

    // The Grafana dashboard's queries are valid PromQL over these names.
    let dashboard: Value = serde_json::from_str(
        &std::fs::read_to_string(support::root().join("deploy/grafana/tdqs-gateway.json")).unwrap(),
    )
    .expect("dashboard JSON");
    let exprs: Vec<String> = dashboard["panels"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["targets"].as_array().cloned().unwrap_or_default())
        .filter_map(|t| t["expr"].as_str().map(str::to_owned))
        .collect();
    assert!(exprs.len() >= 12, "{exprs:?}");
    for expr in &exprs {
        for name in expr.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if name.starts_with("tdqs_") || name.starts_with("mcp_gateway_") {
                let base = ["_bucket", "_count", "_sum"].iter().fold(name, |n, s| n.strip_suffix(s).unwrap_or(n));
                assert!(PROMETHEUS_NAMES.contains(&base), "dashboard names an unknown metric {name} in {expr}");
            }
        }
        let query = expr.replace("$server", ".*").replace("$__rate_interval", "1m");
        prom.query(&query).await; // asserts status success
    }
}

/// Every instrument of DESIGN.md under its Prometheus name.
const PROMETHEUS_NAMES: [&str; 10] = [
    "tdqs_tool_score",
    "tdqs_server_score",
    "tdqs_tools_listed_total",
    "tdqs_tools_hidden_total",
    "tdqs_calls_blocked_total",
    "tdqs_cache_lookups_total",
    "tdqs_judge_duration_seconds",
    "tdqs_judge_errors_total",
    "mcp_gateway_request_duration_seconds",
    "mcp_gateway_sessions",
];
