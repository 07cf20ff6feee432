//! What the gateway's first sighting of a large `tools/list` costs until it answers: parsing
//! every definition, the heuristic judge on each (with the list's other names as siblings), the
//! threat analysis, the decisions and the rendering. Cost must grow linearly with the list: ten
//! times the tools, about ten times the work.
//!
//! The server report built in the background after the answer (the coherence of the whole
//! set, with its shadow candidates) is measured on its own, the same way: its disambiguation
//! judges only the pairs of tools that share something (an index over resources and words),
//! and the threat checks read the names indexed once per list.
//!
//! Two runs side by side on the same machine, a 1,000-tool list and a 10,000-tool list built
//! from the bench corpus, compared as a ratio (no absolute time: the machine may be slow, but it
//! is the same machine for both runs). A quadratic step makes the ratio about 100; linear work
//! gives about 10. Each run is measured in the CPU time the test's process used, not in wall
//! time: on a shared machine another process took the cores for part of the long run and the
//! wall-time ratio of linear work read 15.4 (10.3 on a quiet machine).
//!
//! `TDQS_LIST_COST=500,1000,2000` runs the ignored measurement and prints the time of each.

use std::sync::Arc;
use std::time::Duration;

use crate::support::procs::cpu_used;

use tdqs_gateway::catalog::UpstreamTools;
use tdqs_gateway::config::Config;
use tdqs_gateway::judge::Judge;
use tdqs_gateway::policy::settings::Mode;
use tdqs_gateway::scoring::service::ScoringService;

/// A `tools/list` answer of `n` tools: the bench corpus's 1,000 definitions, repeated with a
/// suffix on the name past the first thousand so every name is distinct.
fn list_answer(n: usize) -> Vec<u8> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/corpus/tools.json");
    let corpus: Vec<serde_json::Value> = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let tools: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let mut t = corpus[i % corpus.len()].clone();
            let round = i / corpus.len();
            if round > 0 {
                let name = format!("{}_{round}", t["name"].as_str().unwrap());
                t["name"] = name.into();
            }
            t
        })
        .collect();
    let answer = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}});
    serde_json::to_vec(&answer).unwrap()
}

/// A hostile list of `n` tools whose names all begin with the same words and whose
/// descriptions all use them: every question about siblings ("is `get` a part of a sibling's
/// name?", "which siblings does this description name?") has thousands of answers to count.
fn shared_words_answer(n: usize) -> Vec<u8> {
    let tools: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            serde_json::json!({
                "name": format!("get_item_by_key_{i}"),
                "description": format!("Get item by key {i} from the store. Use get item by key {} for the next one; \
                    get_item_by_key_{} is the one before. Get the item, get the key.", i + 1, i.max(1) - 1),
                "inputSchema": {"type": "object", "properties": {"key": {"type": "string", "description": "The item's key."}}},
            })
        })
        .collect();
    serde_json::to_vec(&serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}})).unwrap()
}

/// The CPU time from the answer arriving to the rewritten answer, for a gateway that has seen none
/// of the tools before (a fresh scoring service).
async fn first_sighting(n: usize) -> Duration {
    sighting_of(list_answer(n), n).await
}

async fn sighting_of(answer: Vec<u8>, n: usize) -> Duration {
    let mut policy = Config::default().effective_policy(&Default::default());
    policy.mode = Mode::Annotate;
    // Through a rule, so no server report is started (see above).
    let upstream = UpstreamTools::for_rule("big".into(), policy, "all").with_max_list_tools(n);
    let scoring: Arc<ScoringService> = ScoringService::new(Judge::Heuristic, 4 * n as u64);
    let started = cpu_used();
    let out = upstream.rewrite_list(&scoring, &answer).await.expect("an annotated list");
    let took = cpu_used() - started;
    assert!(upstream.report().is_none(), "no server report was built");
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["result"]["tools"].as_array().unwrap().len(), n, "every tool annotated, none lost");
    took
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_times_the_tools_cost_at_most_fifteen_times_as_much() {
    // A warm-up, so the first of the two measured runs does not pay for compiling the
    // phrase rules and filling the allocator.
    first_sighting(100).await;
    // Each size twice, alternated, and the faster of each kept: the cost of the work, less
    // what other processes on a shared machine took from one of the runs.
    let (mut small, mut large) = (Duration::MAX, Duration::MAX);
    for _ in 0..2 {
        small = small.min(first_sighting(1_000).await);
        large = large.min(first_sighting(10_000).await);
    }
    let ratio = large.as_secs_f64() / small.as_secs_f64();
    eprintln!("list_cost: 1,000 tools {small:.2?}, 10,000 tools {large:.2?}, ratio {ratio:.1}");
    assert!(ratio < 15.0, "10,000 tools took {ratio:.1} times as long as 1,000 ({small:.2?} against {large:.2?})");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_that_share_their_words_cost_no_more_per_tool_in_a_longer_list() {
    sighting_of(shared_words_answer(100), 100).await;
    let (mut small, mut large) = (Duration::MAX, Duration::MAX);
    for _ in 0..2 {
        small = small.min(sighting_of(shared_words_answer(1_000), 1_000).await);
        large = large.min(sighting_of(shared_words_answer(4_000), 4_000).await);
    }
    let ratio = large.as_secs_f64() / small.as_secs_f64();
    eprintln!("list_cost: shared words, 1,000 tools {small:.2?}, 4,000 tools {large:.2?}, ratio {ratio:.1}");
    // Linear work gives about 4; counting every sibling that shares a word, about 16.
    assert!(ratio < 7.0, "4,000 tools took {ratio:.1} times as long as 1,000 ({small:.2?} against {large:.2?})");
}

/// The time to build a server report's coherence for the first `n` tools of the list answer
/// (the heuristic judge's, as the report falls back to), and the threat report of the set.
async fn report_of(n: usize) -> Duration {
    use tdqs_gateway::tdqs::threat::report::ScanReport;
    let answer: serde_json::Value = serde_json::from_slice(&list_answer(n)).unwrap();
    // One at a time: a document for the engine holds at most 500 tools; the gateway has no
    // such limit.
    let tools: Vec<_> = answer["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let doc = serde_json::json!({ "tools": [t] }).to_string();
            let parsed = tdqs_gateway::tdqs::json::parse(doc.as_bytes()).unwrap();
            tdqs_gateway::tdqs::definition::parse_tools(&parsed).unwrap().tools.remove(0)
        })
        .collect();
    let scoring: Arc<ScoringService> = ScoringService::new(Judge::Heuristic, 16);
    let started = cpu_used();
    let coherence = scoring.coherence("big", &tools).await;
    let threats = ScanReport::new("big".into(), &tools, None);
    let took = cpu_used() - started;
    assert_eq!(coherence.judgement.dimensions.len(), 4);
    assert_eq!(threats.tools.len(), n);
    took
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_report_of_four_times_the_tools_costs_at_most_eight_times_as_much() {
    report_of(100).await;
    let small = report_of(1_000).await;
    let large = report_of(4_000).await;
    let ratio = large.as_secs_f64() / small.as_secs_f64();
    eprintln!("list_cost: report of 1,000 tools {small:.2?}, of 4,000 tools {large:.2?}, ratio {ratio:.1}");
    // Linear work gives about 4; comparing every pair, about 16.
    assert!(ratio < 8.0, "4,000 tools took {ratio:.1} times as long as 1,000 ({small:.2?} against {large:.2?})");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement; set TDQS_LIST_COST=500,1000,... and run with --ignored"]
async fn measure() {
    let sizes = std::env::var("TDQS_LIST_COST").unwrap_or_else(|_| "500,1000,2000".into());
    first_sighting(100).await;
    for n in sizes.split(',').map(|s| s.trim().parse::<usize>().unwrap()) {
        let took = first_sighting(n).await;
        eprintln!("list_cost: {n} tools {took:.2?} ({:.2?} per tool)", took / n as u32);
    }
}
