//! Throughput of the deterministic TDQS stages, for a side-by-side ratio against the reference
//! Python package (`scripts/bench-engine.sh` runs both and divides). Prints one JSON object.
//!
//! Usage: engine_throughput [--corpus PATH] [--reps N] [--min-seconds S] [--only WORKLOAD]
//!
//! `--only` (repeatable) limits the run to the named workloads, e.g. for a profiler.
//!
//! Workloads, each timed as whole passes over the corpus until at least `--min-seconds` have
//! passed, `--reps` times; the median repetition is reported in tools per second:
//! - `stages12`: context signals + hard gates per tool, definitions already parsed;
//! - `lint50`: the whole lint over servers of 50 tools;
//! - `parse50`: JSON bytes of a `tools/list` result of 50 tools to validated definitions.
//!
//! `checksum` fields let the driver confirm both sides computed the same things.

use std::hint::black_box;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::json;
use tdqs_gateway::tdqs::canonical::to_sorted_compact;
use tdqs_gateway::tdqs::definition::{ToolDefinition, parse_tools};
use tdqs_gateway::tdqs::gates::{Gate, evaluate_gates};
use tdqs_gateway::tdqs::json::{self, JsValue};
use tdqs_gateway::tdqs::lint::lint_tools;
use tdqs_gateway::tdqs::signals::context_signals;

const SERVER_SIZE: usize = 50;
const WORKLOADS: [&str; 3] = ["stages12", "lint50", "parse50"];

struct Sample {
    tools_per_second: Vec<f64>,
}

impl Sample {
    fn median(&self) -> f64 {
        let mut v = self.tools_per_second.clone();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
    }
}

/// Runs `pass` (which handles `tools_per_pass` tools) until `min` has elapsed, `reps` times.
fn measure(reps: usize, min: Duration, tools_per_pass: usize, mut pass: impl FnMut()) -> Sample {
    pass(); // warm-up
    let tools_per_second = (0..reps)
        .map(|_| {
            let start = Instant::now();
            let mut passes = 0u64;
            while start.elapsed() < min {
                pass();
                passes += 1;
            }
            (passes as f64 * tools_per_pass as f64) / start.elapsed().as_secs_f64()
        })
        .collect();
    Sample { tools_per_second }
}

/// Each server of the corpus as the bytes of a `tools/list` result.
fn server_documents(corpus: &[JsValue]) -> Vec<Vec<u8>> {
    corpus
        .chunks(SERVER_SIZE)
        .enumerate()
        .map(|(i, chunk)| {
            let mut doc = format!("{{\"serverName\":\"bench-{i:02}\",\"tools\":").into_bytes();
            doc.extend_from_slice(&to_sorted_compact(&JsValue::Array(chunk.to_vec())));
            doc.push(b'}');
            doc
        })
        .collect()
}

fn report(sample: &Sample, checksum: serde_json::Value) -> serde_json::Value {
    json!({
        "toolsPerSecond": sample.median(),
        "samples": sample.tools_per_second,
        "checksum": checksum,
    })
}

fn main() -> Result<()> {
    let mut corpus_path = String::from("benches/corpus/tools.json");
    let mut reps = 5usize;
    let mut min_seconds = 1.0f64;
    let mut only: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--corpus" => corpus_path = value()?,
            "--reps" => reps = value()?.parse()?,
            "--min-seconds" => min_seconds = value()?.parse()?,
            "--only" => only.push(value()?),
            other => bail!("unknown argument {other}"),
        }
    }
    if reps == 0 {
        bail!("--reps must be at least 1");
    }
    if let Some(w) = only.iter().find(|w| !WORKLOADS.contains(&w.as_str())) {
        bail!("unknown workload {w}; expected one of {WORKLOADS:?}");
    }
    let wanted = |w: &str| only.is_empty() || only.iter().any(|o| o == w);
    let min = Duration::from_secs_f64(min_seconds);

    let bytes = std::fs::read(&corpus_path).with_context(|| format!("reading {corpus_path}"))?;
    let doc = json::parse(&bytes).map_err(|e| anyhow::anyhow!("{corpus_path}: {e}"))?;
    let items = doc.as_array().context("the corpus must be a JSON array")?;
    let documents = server_documents(items);
    let servers: Vec<Vec<ToolDefinition>> = documents
        .iter()
        .map(|d| {
            let v = json::parse(d).map_err(|e| anyhow::anyhow!("{e}"))?;
            Ok(parse_tools(&v)?.tools)
        })
        .collect::<Result<_>>()?;
    let tools: Vec<&ToolDefinition> = servers.iter().flatten().collect();
    let n = tools.len();

    // Checksums, computed once outside the timing.
    let cost_sum: u64 = tools.iter().map(|t| u64::from(context_signals(t).invocation_cost)).sum();
    let gated = tools.iter().filter(|t| evaluate_gates(t) != Gate::Pass).count();
    let findings: usize = servers.iter().map(|s| lint_tools(s).findings.len()).sum();

    let mut out = json!({
        "implementation": "tdqs-gateway",
        "tools": n,
        "servers": servers.len(),
        "reps": reps,
        "minSecondsPerRep": min_seconds,
    });
    if wanted("stages12") {
        let sample = measure(reps, min, n, || {
            for t in &tools {
                black_box(context_signals(black_box(t)));
                black_box(evaluate_gates(black_box(t)));
            }
        });
        let checksum = json!({"invocationCostSum": cost_sum, "gatedTools": gated});
        out["stages12"] = report(&sample, checksum);
    }
    if wanted("lint50") {
        let sample = measure(reps, min, n, || {
            for s in &servers {
                black_box(lint_tools(black_box(s)));
            }
        });
        out["lint50"] = report(&sample, json!({"findings": findings}));
    }
    if wanted("parse50") {
        let sample = measure(reps, min, n, || {
            for d in &documents {
                let v = json::parse(black_box(d)).expect("corpus parses");
                black_box(parse_tools(&v).expect("corpus validates"));
            }
        });
        out["parse50"] = report(&sample, json!({"tools": n}));
    }
    println!("{}", serde_json::to_string_pretty(&out)?);
    Ok(())
}
