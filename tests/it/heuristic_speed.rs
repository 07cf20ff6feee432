//! The heuristic judge over the engine bench corpus (`benches/corpus/tools.json`, 1,000 tools in
//! servers of 50, each tool judged with its server's other names as siblings). Ignored by
//! default: it is a measurement, not a check. Count instructions per tool with
//!
//! ```text
//! valgrind --tool=callgrind --toggle-collect='*judge_tool*' \
//!     target/debug/deps/it-<hash> --ignored --exact heuristic_speed::judge_the_bench_corpus
//! ```
//!
//! (the instruction total over 1,000 judged tools), or read the wall time it prints.

use tdqs_gateway::judge::heuristic::judge_tool;
use tdqs_gateway::tdqs::definition::parse_tools;
use tdqs_gateway::tdqs::json::{JsString, parse};
use tdqs_gateway::tdqs::signals::context_signals;

#[test]
#[ignore = "a measurement; run with --ignored"]
fn judge_the_bench_corpus() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/corpus/tools.json");
    let doc = parse(&std::fs::read(path).unwrap()).unwrap();
    let all = doc.as_array().unwrap();
    let mut judged = 0;
    let started = std::time::Instant::now();
    for chunk in all.chunks(50) {
        let tools = parse_tools(&tdqs_gateway::tdqs::json::JsValue::Array(chunk.to_vec())).unwrap().tools;
        let names: Vec<JsString> = tools.iter().map(|t| t.name.clone()).collect();
        for t in &tools {
            let signals = context_signals(t);
            let siblings: Vec<JsString> = names.iter().filter(|n| **n != t.name).cloned().collect();
            std::hint::black_box(judge_tool(t, &signals, &siblings));
            judged += 1;
        }
    }
    let per_tool = started.elapsed() / judged;
    println!("{judged} tools judged, {per_tool:?} per tool (this build, this machine)");
    assert_eq!(judged, 1000);
}
