//! The cost of the threat analysis per tool, for counting instructions under callgrind:
//!
//!     valgrind --tool=callgrind target/release/examples/threat_cost 1
//!     valgrind --tool=callgrind target/release/examples/threat_cost 6
//!
//! The difference of the two totals over 5 passes and the tools per pass is the instructions
//! per tool, setup excluded. Each pass runs `analyze_tool` and `cross_server` (siblings as the
//! server's own tools) over the real definitions of the threat corpus and the bench corpus.
//!
//! With a second argument `list-of-100`, each pass is instead the first sighting of one list of
//! 100 tools (the bench corpus' first 100) while a second upstream lists the next 100: every tool
//! analysed and checked against both name sets (indexed once per list, as the gateway does), as
//! `threats/first_sighting` in the engine bench. With `real-lists`, each pass is the first
//! sighting of every real server's list of the threat corpus (one upstream, its own findings).

use std::hint::black_box;

use tdqs_engine::definition::parse_tools;
use tdqs_engine::json;
use tdqs_engine::threat::report::tool_json;
use tdqs_engine::threat::{CleanStrings, CrossNames, analyze_listed, analyze_tool, cross_server_with, warm_up};

fn main() {
    let passes: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let real: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("tests/data/threats/benign-real.json").unwrap()).unwrap();
    let mut servers: Vec<Vec<serde_json::Value>> =
        real["servers"].as_array().unwrap().iter().map(|s| s["tools"].as_array().unwrap().clone()).collect();
    let bench = json::parse(&std::fs::read("benches/corpus/tools.json").unwrap()).unwrap();
    for chunk in bench.as_array().unwrap().chunks(50) {
        let tools = parse_tools(&json::JsValue::Array(chunk.to_vec())).unwrap().tools;
        servers.push(tools.iter().map(tool_json).collect());
    }
    if std::env::args().nth(2).as_deref() == Some("list-of-100") {
        let all: Vec<serde_json::Value> = servers.drain(..).rev().take(20).rev().flatten().collect();
        let (list, other) = (&all[..100], &all[100..200]);
        let own: Vec<&str> = list.iter().filter_map(|t| t["name"].as_str()).collect();
        let others: Vec<(&str, &str)> = other.iter().filter_map(|t| t["name"].as_str()).map(|n| ("other", n)).collect();
        let two_walks = std::env::args().nth(3).as_deref() == Some("two-walks");
        warm_up();
        // The rules' lazy automata learn their states on the first texts they read; a gateway
        // that has run a while has them. Read the list once outside `analyze_listed` so that a
        // profile toggled on it (`--toggle-collect='*analyze_listed*'`) counts the steady state.
        let warm_names = CrossNames::new(&own, &others);
        for t in list {
            black_box(analyze_tool(t));
            black_box(cross_server_with(t, &warm_names, &|_| false));
        }
        let start = std::time::Instant::now();
        let mut found = 0;
        for _ in 0..passes {
            // As the gateway does: the names indexed once per list, then each new definition
            // in one walk, the strings found clean remembered for the list (`two-walks` as a
            // third argument: its own and its cross-server findings one after the other, each
            // string read every time, as before).
            let names = CrossNames::new(&own, &others);
            let mut clean = CleanStrings::new();
            for t in list {
                if two_walks {
                    found += black_box(analyze_tool(black_box(t))).len();
                    found += black_box(cross_server_with(black_box(t), &names, &|_| false)).len();
                } else {
                    let (a, b) = black_box(analyze_listed(black_box(t), Some((&names, &|_| false)), &mut clean));
                    found += a.len() + b.len();
                }
            }
        }
        let per_list = start.elapsed().as_secs_f64() * 1e3 / passes as f64;
        println!(
            "list of 100 beside 100 others, {passes} passes, {found} findings, {per_list:.2} ms per list (wall clock)"
        );
        return;
    }
    if std::env::args().nth(2).as_deref() == Some("real-lists") {
        // Each real server's list first seen by a gateway in front of it alone: its own
        // findings, each string read (`plain` as a third argument) or the list's clean strings
        // remembered (as `serve` does).
        let plain = std::env::args().nth(3).as_deref() == Some("plain");
        let real = &servers[..real["servers"].as_array().unwrap().len()];
        warm_up();
        let mut found = 0;
        for _ in 0..passes {
            for s in real {
                let mut clean = CleanStrings::new();
                for t in s {
                    found += if plain {
                        black_box(analyze_tool(black_box(t))).len()
                    } else {
                        black_box(analyze_listed(black_box(t), None, &mut clean)).0.len()
                    };
                }
            }
        }
        let tools: usize = real.iter().map(Vec::len).sum();
        println!("{} real lists, {tools} tools, {passes} passes, {found} findings", real.len());
        return;
    }
    warm_up();
    let tools: usize = servers.iter().map(Vec::len).sum();
    let start = std::time::Instant::now();
    let mut found = 0;
    for _ in 0..passes {
        for s in &servers {
            let own: Vec<&str> = s.iter().filter_map(|t| t["name"].as_str()).collect();
            let names = CrossNames::new(&own, &[]);
            for t in s {
                found += black_box(analyze_tool(black_box(t))).len();
                found += black_box(cross_server_with(black_box(t), &names, &|_| false)).len();
            }
        }
    }
    let per_tool = start.elapsed().as_secs_f64() * 1e6 / (passes * tools) as f64;
    println!("{tools} tools, {passes} passes, {found} findings, {per_tool:.2} µs per tool (wall clock)");
}
