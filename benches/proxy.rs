//! In-process cost of what the gateway does to one `tools/list` answer of 100 tools (the same
//! tools `examples/bench_upstream.rs` serves to `scripts/bench-proxy.sh`), stage by stage, with
//! every score already cached, as on every list after the first:
//!
//! - `rewrite_list/annotate` and `rewrite_list/observe`: the whole interception
//!   (`UpstreamTools::rewrite_list`), as the proxy calls it for each list answer;
//! - `stages/*`: its parts, each alone: splitting the answer (`ListResult::parse`), turning each
//!   tool's JSON into a definition, building each tool's sibling names, the cached score lookup
//!   (which recomputes each definition's input hash), the `_meta` objects, and re-serializing
//!   the annotated answer (`ListResult::render`), and reading the answer as one SSE event.
//!
//! `cargo bench --bench proxy`; no network, no load generator, so these numbers are stable where
//! the HTTP benchmark's are not, and they say where a list's time goes.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use tdqs_gateway::catalog::{UpstreamTools, score_meta};
use tdqs_gateway::config::Config;
use tdqs_gateway::judge::Judge;
use tdqs_gateway::mcp::tools_list::{ListResult, ToolAction};
use tdqs_gateway::scoring::service::{Scored, ScoringService};
use tdqs_gateway::scoring::siblings::Siblings;
use tdqs_gateway::tdqs::definition::{ToolDefinition, tool_from_object};
use tdqs_gateway::tdqs::json::{self as js, JsString};

#[path = "proxy/tools.rs"]
mod tools;

const TOOLS: usize = 100;

/// The upstream's answer to a `tools/list`, byte for byte as bench_upstream sends it.
fn list_answer() -> Vec<u8> {
    let result = serde_json::json!({ "tools": tools::tool_definitions(TOOLS) });
    let mut out = br#"{"jsonrpc":"2.0","id":"t1-1","result":"#.to_vec();
    out.extend_from_slice(&serde_json::to_vec(&result).expect("serializable"));
    out.push(b'}');
    out
}

fn upstream(mode: &str) -> UpstreamTools {
    let cfg = Config::parse(&format!(
        "[policy]\nmode = \"{mode}\"\n\n[[upstream]]\nname = \"bench\"\nurl = \"http://127.0.0.1:1/mcp\"\n"
    ))
    .expect("bench config");
    UpstreamTools::new("bench".to_owned(), cfg.effective_policy(&cfg.upstreams[0]))
}

fn definitions(list: &ListResult) -> Vec<ToolDefinition> {
    list.tools()
        .iter()
        .enumerate()
        .filter_map(|(i, raw)| {
            let v = js::parse(raw.get().as_bytes()).ok()?;
            tool_from_object(v.as_object()?, i + 1).ok()
        })
        .collect()
}

fn siblings(defs: &[ToolDefinition]) -> Vec<Siblings> {
    let names: std::sync::Arc<[JsString]> = defs.iter().map(|t| t.name.clone()).collect();
    defs.iter().map(|d| Siblings::new(names.clone(), d.name.clone())).collect()
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let answer = list_answer();
    let scoring = ScoringService::new(Judge::Heuristic, 100_000);
    let annotate = upstream("annotate");
    let observe = upstream("observe");
    // The first list scores every tool; every later one finds the scores cached.
    let first = rt.block_on(annotate.rewrite_list(&scoring, &answer)).expect("an annotated list");
    assert!(first.len() > answer.len());
    assert!(rt.block_on(observe.rewrite_list(&scoring, &answer)).is_none(), "observe changes nothing");

    let mut g = c.benchmark_group("rewrite_list");
    g.throughput(Throughput::Elements(TOOLS as u64));
    g.bench_function("annotate", |b| b.iter(|| rt.block_on(annotate.rewrite_list(&scoring, black_box(&answer)))));
    g.bench_function("observe", |b| b.iter(|| rt.block_on(observe.rewrite_list(&scoring, black_box(&answer)))));
    g.finish();

    let list = ListResult::parse(&answer).expect("a list answer");
    let defs = definitions(&list);
    assert_eq!(defs.len(), TOOLS);
    let sibs = siblings(&defs);
    let scored: Vec<Scored> = defs.iter().zip(&sibs).map(|(d, s)| scoring.score("bench", d, s)).collect();
    let actions: Vec<ToolAction> = scored.iter().map(|s| ToolAction::Annotate(score_meta(s, None))).collect();

    let mut g = c.benchmark_group("stages");
    g.throughput(Throughput::Elements(TOOLS as u64));
    g.bench_function("list_parse", |b| b.iter(|| ListResult::parse(black_box(&answer))));
    g.bench_function("definitions", |b| b.iter(|| definitions(black_box(&list))));
    g.bench_function("siblings", |b| b.iter(|| siblings(black_box(&defs))));
    g.bench_function("score_cached", |b| {
        b.iter(|| defs.iter().zip(&sibs).map(|(d, s)| scoring.score("bench", d, s)).collect::<Vec<_>>())
    });
    g.bench_function("score_meta", |b| b.iter(|| scored.iter().map(|s| score_meta(s, None)).collect::<Vec<_>>()));
    g.bench_function("render", |b| {
        b.iter_batched(
            || ListResult::parse(&answer).expect("a list answer"),
            |l| l.render(black_box(&actions), None),
            BatchSize::SmallInput,
        )
    });
    // The same answer as one SSE event (server-everything answers everything on SSE), arriving
    // in 16 KiB reads: finding the event's end and its data.
    let mut event = b"event: message\nid: 1\ndata: ".to_vec();
    event.extend_from_slice(&answer);
    event.extend_from_slice(b"\n\n");
    g.bench_function("sse_event", |b| {
        b.iter(|| {
            let mut parser = tdqs_gateway::mcp::sse::Parser::new();
            let events: Vec<_> = event.chunks(16 * 1024).flat_map(|c| parser.push(c).expect("small event")).collect();
            assert_eq!(events.len(), 1);
            events
        })
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_millis(500))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench
}
criterion_main!(benches);
