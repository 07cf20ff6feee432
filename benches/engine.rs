//! Criterion benchmarks of the deterministic TDQS stages over the fixed corpus
//! `benches/corpus/tools.json` (1,000 tools: 20 servers of 50, see `scripts/make_bench_corpus.py`).
//! Throughput is reported in tools.
//!
//! - `stages12`: stage 1 (context signals) + stage 2 (hard gates) per tool, definitions already
//!   parsed; also each stage alone.
//! - `lint_tools`: the whole lint of each server of 50 tools.
//! - `parse`: bytes of a `tools/list` result of 50 tools to validated definitions.
//! - `threats`: the threat analysis per tool (`analyze_tool`, and with `cross_server` against
//!   its siblings) over the same corpus, over the real definitions of the threat corpus
//!   (`tests/data/threats/benign-real.json`), and over the poisoned ones; and the first sighting
//!   of one list of 100 tools (each tool analysed and checked against the list's names and a
//!   second upstream's 100).
//! - `heuristic`: the heuristic judge per tool (`judge_tool`, each tool with its server's other
//!   names as siblings, context signals included).
//!
//! Run: `cargo bench --bench engine`. For the ratio against the reference Python package, see
//! `scripts/bench-engine.sh`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tdqs_gateway::judge::heuristic::judge_tool;
use tdqs_gateway::tdqs::canonical::to_sorted_compact;
use tdqs_gateway::tdqs::definition::{ToolDefinition, parse_tools};
use tdqs_gateway::tdqs::gates::evaluate_gates;
use tdqs_gateway::tdqs::json::{self, JsString, JsValue};
use tdqs_gateway::tdqs::lint::lint_tools;
use tdqs_gateway::tdqs::signals::context_signals;
use tdqs_gateway::tdqs::threat::report::tool_json;
use tdqs_gateway::tdqs::threat::{CleanStrings, CrossNames, analyze_listed, analyze_tool, cross_server_with};

const CORPUS: &[u8] = include_bytes!("corpus/tools.json");
const REAL: &str = include_str!("../tests/data/threats/benign-real.json");
const POISONED: &str = include_str!("../tests/data/threats/poisoned.json");
const SERVER_SIZE: usize = 50;

struct Fixture {
    /// One `tools/list` result per server, as bytes.
    documents: Vec<Vec<u8>>,
    /// The same servers, parsed and validated.
    servers: Vec<Vec<ToolDefinition>>,
    tools: u64,
}

fn fixture() -> Fixture {
    let doc = json::parse(CORPUS).expect("the corpus is valid JSON");
    let items = doc.as_array().expect("the corpus is a JSON array");
    let documents: Vec<Vec<u8>> = items
        .chunks(SERVER_SIZE)
        .enumerate()
        .map(|(i, chunk)| {
            let mut d = format!("{{\"serverName\":\"bench-{i:02}\",\"tools\":").into_bytes();
            d.extend_from_slice(&to_sorted_compact(&JsValue::Array(chunk.to_vec())));
            d.push(b'}');
            d
        })
        .collect();
    let servers: Vec<Vec<ToolDefinition>> = documents
        .iter()
        .map(|d| parse_tools(&json::parse(d).expect("a server parses")).expect("a server validates").tools)
        .collect();
    let tools = servers.iter().map(Vec::len).sum::<usize>() as u64;
    Fixture { documents, servers, tools }
}

fn stages12(c: &mut Criterion) {
    let f = fixture();
    let tools: Vec<&ToolDefinition> = f.servers.iter().flatten().collect();
    let mut g = c.benchmark_group("stages12");
    g.throughput(Throughput::Elements(f.tools));
    g.bench_function("signals+gates", |b| {
        b.iter(|| {
            for t in &tools {
                black_box(context_signals(black_box(t)));
                black_box(evaluate_gates(black_box(t)));
            }
        })
    });
    g.bench_function("signals", |b| {
        b.iter(|| {
            for t in &tools {
                black_box(context_signals(black_box(t)));
            }
        })
    });
    g.bench_function("gates", |b| {
        b.iter(|| {
            for t in &tools {
                black_box(evaluate_gates(black_box(t)));
            }
        })
    });
    g.finish();
}

fn lint(c: &mut Criterion) {
    let f = fixture();
    let mut g = c.benchmark_group("lint_tools");
    g.throughput(Throughput::Elements(f.tools));
    g.bench_function("servers_of_50", |b| {
        b.iter(|| {
            for s in &f.servers {
                black_box(lint_tools(black_box(s)));
            }
        })
    });
    g.finish();
}

fn parse(c: &mut Criterion) {
    let f = fixture();
    let mut g = c.benchmark_group("parse");
    g.throughput(Throughput::Elements(f.tools));
    g.bench_function("json+validate/servers_of_50", |b| {
        b.iter(|| {
            for d in &f.documents {
                let v = json::parse(black_box(d)).expect("a server parses");
                black_box(parse_tools(&v).expect("a server validates"));
            }
        })
    });
    g.bench_function("json_only/servers_of_50", |b| {
        b.iter(|| {
            for d in &f.documents {
                black_box(json::parse(black_box(d)).expect("a server parses"));
            }
        })
    });
    g.finish();
}

/// Tools grouped by server, as the JSON objects the gateway holds.
fn threat_fixtures(f: &Fixture) -> [(&'static str, Vec<Vec<serde_json::Value>>); 3] {
    let bench = f.servers.iter().map(|s| s.iter().map(tool_json).collect()).collect();
    let real: serde_json::Value = serde_json::from_str(REAL).expect("real corpus");
    let real = real["servers"].as_array().unwrap().iter().map(|s| s["tools"].as_array().unwrap().clone()).collect();
    let poisoned: serde_json::Value = serde_json::from_str(POISONED).expect("poisoned corpus");
    let poisoned = vec![poisoned["cases"].as_array().unwrap().iter().filter_map(|c| c.get("tool").cloned()).collect()];
    [("bench_corpus", bench), ("real", real), ("poisoned", poisoned)]
}

fn threats(c: &mut Criterion) {
    let f = fixture();
    let mut g = c.benchmark_group("threats");
    for (label, servers) in threat_fixtures(&f) {
        let count = servers.iter().map(Vec::len).sum::<usize>() as u64;
        g.throughput(Throughput::Elements(count));
        g.bench_function(format!("analyze_tool/{label}"), |b| {
            b.iter(|| {
                for t in servers.iter().flatten() {
                    black_box(analyze_tool(black_box(t)));
                }
            })
        });
        g.bench_function(format!("with_cross_server/{label}"), |b| {
            b.iter(|| {
                for s in &servers {
                    let own: Vec<&str> = s.iter().filter_map(|t| t["name"].as_str()).collect();
                    let names = CrossNames::new(&own, &[]);
                    for t in s {
                        black_box(analyze_tool(black_box(t)));
                        black_box(cross_server_with(black_box(t), &names, &|_| false));
                    }
                }
            })
        });
    }
    g.finish();
}

/// The threat analysis a gateway runs when it first sees a `tools/list` of 100 tools while
/// another upstream lists 100 more: every tool analysed, and checked against its own list's
/// names and the other upstream's.
fn first_sighting(c: &mut Criterion) {
    let f = fixture();
    let tools: Vec<serde_json::Value> = f.servers.iter().flatten().map(tool_json).collect();
    let (list, other) = (&tools[..100], &tools[100..200]);
    let own: Vec<&str> = list.iter().filter_map(|t| t["name"].as_str()).collect();
    let others: Vec<(&str, &str)> = other.iter().filter_map(|t| t["name"].as_str()).map(|n| ("other", n)).collect();
    let mut g = c.benchmark_group("threats");
    g.throughput(Throughput::Elements(1));
    g.bench_function("first_sighting/list_of_100", |b| {
        b.iter(|| {
            // The names are indexed once per list and each new definition walked once, its clean
            // strings remembered for the list, as the gateway does.
            let names = CrossNames::new(&own, &others);
            let mut clean = CleanStrings::new();
            for t in list {
                black_box(analyze_listed(black_box(t), Some((&names, &|_| false)), &mut clean));
            }
        })
    });
    g.finish();
}

fn heuristic(c: &mut Criterion) {
    let f = fixture();
    let mut g = c.benchmark_group("heuristic");
    g.throughput(Throughput::Elements(f.tools));
    g.bench_function("judge_tool/servers_of_50", |b| {
        b.iter(|| {
            for s in &f.servers {
                let names: Vec<JsString> = s.iter().map(|t| t.name.clone()).collect();
                for t in s {
                    let signals = context_signals(t);
                    let siblings: Vec<JsString> = names.iter().filter(|n| **n != t.name).cloned().collect();
                    black_box(judge_tool(black_box(t), &signals, &siblings));
                }
            }
        })
    });
    g.finish();
}

criterion_group!(benches, stages12, lint, parse, threats, first_sighting, heuristic);
criterion_main!(benches);
