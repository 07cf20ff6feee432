//! The cost of the heuristic judge per tool, for counting instructions under callgrind:
//!
//!     valgrind --tool=callgrind target/release/examples/heuristic_cost 1
//!     valgrind --tool=callgrind target/release/examples/heuristic_cost 3
//!
//! The difference of the two totals over the extra passes and the tools per pass (1,000, the
//! engine bench corpus in servers of 50) is the instructions per tool, setup excluded. Each tool
//! is judged with its server's other names as siblings, its context signals computed first, as
//! `tests/it/heuristic_speed.rs` does. It uses only `judge_tool`, whose signature has not changed
//! since `heuristic-1`, so the same file measures an older build.

use std::hint::black_box;

use tdqs_gateway::judge::heuristic::judge_tool;
use tdqs_gateway::tdqs::definition::parse_tools;
use tdqs_gateway::tdqs::json::{self, JsString, JsValue};
use tdqs_gateway::tdqs::signals::context_signals;

fn main() {
    let passes: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let doc = json::parse(&std::fs::read("benches/corpus/tools.json").unwrap()).unwrap();
    let servers: Vec<_> =
        doc.as_array().unwrap().chunks(50).map(|c| parse_tools(&JsValue::Array(c.to_vec())).unwrap().tools).collect();
    let tools: usize = servers.iter().map(Vec::len).sum();
    let start = std::time::Instant::now();
    let mut sum = 0u64;
    for _ in 0..passes {
        for s in &servers {
            let names: Vec<JsString> = s.iter().map(|t| t.name.clone()).collect();
            for t in s {
                let signals = context_signals(t);
                let siblings: Vec<JsString> = names.iter().filter(|n| **n != t.name).cloned().collect();
                let j = black_box(judge_tool(black_box(t), &signals, &siblings));
                sum += j.dimensions.iter().map(|d| u64::from(d.score)).sum::<u64>();
            }
        }
    }
    let per_tool = start.elapsed().as_secs_f64() * 1e6 / (passes * tools) as f64;
    println!("{tools} tools, {passes} passes, score sum {sum}, {per_tool:.2} µs per tool (wall clock)");
}
