//! Fuzzing the threat analysis (`tdqs_gateway::tdqs::threat`) on the stable toolchain: tool
//! definitions are generated as JSON values whose strings are hostile (invisible characters,
//! tag-block text, bidi controls, ANSI escapes, huge runs, base64 and hex blobs, chat-template
//! tokens, lookalike letters), placed wherever a model reads (name, title, description, schema
//! keys, descriptions, defaults, enums, examples, annotations) and where it does not (`_meta`).
//! For every definition:
//!
//! - no analysis panics: `analyze_tool`, `cross_server`, `analyze_instructions`, and the
//!   `scan` report over the definition read by the engine's own parser;
//! - each is deterministic: the same input (or the same JSON read again) gives the same report;
//! - the report is bounded (at most 200 findings), each finding of a documented kind with a
//!   JSON pointer;
//! - the time per definition is bounded: no input takes more than `SLOW` (scaled by
//!   `TDQS_TEST_PATIENCE`) plus `SLOW_PER_KB` per KB of its text: work linear in the size.

use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};
use tdqs_gateway::tdqs::definition::parse_tools;
use tdqs_gateway::tdqs::threat::report::ScanReport;
use tdqs_gateway::tdqs::threat::{Finding, analyze_instructions, analyze_tool, cross_server};

use crate::support::fuzz::{Budget, Tally, hostile_string};
use crate::support::patience::scaled;
use crate::support::rng::Rng;

/// The kinds the threat module documents.
const KINDS: &[&str] = &[
    "instruction-override",
    "priority-hijack",
    "concealment",
    "exfiltration",
    "evaluator-address",
    "fake-system-message",
    "model-address",
    "unicode-tags",
    "zero-width",
    "bidi-control",
    "ansi-escape",
    "control-character",
    "whitespace-padding",
    "html-comment",
    "hidden-html",
    "encoded-payload",
    "obfuscated-text",
    "variation-selectors",
    "deceptive-name",
    "deceptive-link",
    "harmful-action",
    "foreign-tool-reference",
    "tool-name-collision",
];

/// Longest time the analysis of one definition (`analyze_tool` and `cross_server`, once each)
/// may take, in a debug build on a shared machine: a fixed allowance plus a cost per KB of its
/// JSON text (linear work, as the module promises). Dense hostile text (tag-block runs,
/// zero-width bits, base64 in every field) was seen to cost about 17 ms per KB.
const SLOW: Duration = Duration::from_secs(2);
const SLOW_PER_KB: Duration = Duration::from_millis(60);

fn text(rng: &mut Rng) -> String {
    // Now and then a huge run (up to 100,000 characters), usually modest ones.
    let max_run = if rng.percent(2) { 100_000 } else { 64 };
    hostile_string(rng, max_run)
}

fn schema(rng: &mut Rng, depth: usize) -> Value {
    let mut s = Map::new();
    s.insert("type".into(), json!(rng.pick_str(&["object", "string", "array", "integer"])));
    if rng.percent(60) {
        s.insert("description".into(), text(rng).into());
    }
    if depth > 0 && rng.percent(70) {
        let props: Map<String, Value> = (0..rng.below(4)).map(|_| (text(rng), schema(rng, depth - 1))).collect();
        s.insert("properties".into(), Value::Object(props));
    }
    if depth > 0 && rng.percent(20) {
        s.insert("items".into(), schema(rng, depth - 1));
    }
    for key in ["default", "enum", "examples", "const", "pattern", "format", "x-note", "title"] {
        if rng.percent(10) {
            let v = match key {
                "enum" | "examples" => Value::Array((0..rng.below(4)).map(|_| text(rng).into()).collect()),
                _ => text(rng).into(),
            };
            s.insert(key.into(), v);
        }
    }
    if rng.percent(5) {
        s.insert("required".into(), json!([text(rng), 3, null]));
    }
    Value::Object(s)
}

fn definition(rng: &mut Rng) -> Value {
    let mut t = Map::new();
    let name = match rng.below(4) {
        0 => text(rng),
        1 => rng.pick_str(&["read_file", "r\u{0435}ad_file", "get_secret", "send_email", "ｇｅｔ"]).to_owned(),
        _ => format!("tool_{}", rng.below(100)),
    };
    if rng.percent(97) {
        t.insert("name".into(), name.into());
    } else {
        t.insert("name".into(), json!([1, {"x": "y"}]));
    }
    if rng.percent(40) {
        t.insert("title".into(), text(rng).into());
    }
    if rng.percent(90) {
        t.insert("description".into(), text(rng).into());
    }
    if rng.percent(80) {
        t.insert("inputSchema".into(), schema(rng, 3));
    }
    if rng.percent(20) {
        t.insert("outputSchema".into(), schema(rng, 2));
    }
    if rng.percent(30) {
        let mut a = Map::new();
        a.insert("readOnlyHint".into(), json!(rng.percent(50)));
        a.insert("title".into(), text(rng).into());
        t.insert("annotations".into(), Value::Object(a));
    }
    if rng.percent(20) {
        t.insert("_meta".into(), json!({"note": text(rng)}));
    }
    if rng.percent(5) {
        // Nesting past the walk's depth limit (64), within serde's (127) for the re-read.
        let mut v = json!(text(rng));
        for _ in 0..rng.below(60) {
            v = json!({"properties": {"p": v}});
        }
        t.insert("inputSchema".into(), v);
    }
    Value::Object(t)
}

fn well_formed(findings: &[Finding]) -> Result<(), String> {
    if findings.len() > 200 {
        return Err(format!("{} findings", findings.len()));
    }
    for f in findings {
        if !KINDS.contains(&f.kind.as_str()) || !f.field.starts_with('#') {
            return Err(format!("an undocumented finding: {f:?}"));
        }
    }
    Ok(())
}

fn check(
    tool: &Value,
    own: &[&str],
    others: &[(&str, &str)],
    found: &mut u64,
    largest: &mut u64,
) -> Result<(), String> {
    let started = Instant::now();
    let first = analyze_tool(tool);
    let cross = cross_server(tool, own, others);
    // One analysis of each kind is timed (the checks below repeat them).
    let took = started.elapsed();
    well_formed(&first)?;
    *found += first.len() as u64;
    if analyze_tool(tool) != first {
        return Err("analyze_tool gave two reports".into());
    }
    let text = serde_json::to_string(tool).map_err(|e| e.to_string())?;
    let again: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    if analyze_tool(&again) != first {
        return Err("analyze_tool reads the same JSON read again differently".into());
    }
    well_formed(&cross)?;
    if cross_server(&again, own, others) != cross {
        return Err("cross_server gave two reports".into());
    }
    if let Some(d) = tool.get("description").and_then(Value::as_str) {
        let i = analyze_instructions(d);
        well_formed(&i)?;
        if analyze_instructions(d) != i {
            return Err("analyze_instructions gave two reports".into());
        }
    }
    // The `scan` command's path: the engine's parser, its definitions, the report.
    let doc = tdqs_gateway::tdqs::json::parse(format!("[{text}]").as_bytes()).map_err(|e| e.to_string())?;
    if let Ok(parsed) = parse_tools(&doc) {
        let report = ScanReport::new("fuzz".into(), &parsed.tools, tool.get("description").and_then(Value::as_str));
        if ScanReport::new("fuzz".into(), &parsed.tools, tool.get("description").and_then(Value::as_str)) != report {
            return Err("the scan report differs between two runs".into());
        }
    }
    if took > scaled(SLOW + SLOW_PER_KB * (text.len() / 1024) as u32) {
        return Err(format!("took {took:?} for {} bytes", text.len()));
    }
    *largest = (*largest).max(text.len() as u64);
    Ok(())
}

#[test]
fn the_threat_analysis_is_total_deterministic_and_bounded_on_hostile_definitions() {
    let budget = Budget::from_env(30.0, 0x7e7);
    let mut rng = Rng::new(budget.seed);
    let mut tally = Tally::new("fuzz_threat");
    let (mut found, mut bytes, mut largest) = (0u64, 0u64, 0u64);
    tdqs_gateway::tdqs::threat::warm_up();
    while budget.more(tally.runs) {
        let tool = definition(&mut rng);
        let own: Vec<String> = (0..rng.below(4)).map(|_| text(&mut rng)).chain(["tool_1".to_owned()]).collect();
        let others: Vec<(String, String)> =
            (0..rng.below(4)).map(|_| (format!("up{}", rng.below(3)), text(&mut rng))).collect();
        let own: Vec<&str> = own.iter().map(String::as_str).collect();
        let others: Vec<(&str, &str)> = others.iter().map(|(u, n)| (u.as_str(), n.as_str())).collect();
        bytes += tool.to_string().len() as u64;
        tally.run(
            || {
                let t = tool.to_string();
                if t.len() > 2000 {
                    format!("{}... ({} bytes)", t.chars().take(2000).collect::<String>(), t.len())
                } else {
                    t
                }
            },
            || check(&tool, &own, &others, &mut found, &mut largest),
        );
    }
    tally.add("findings", found);
    tally.add("bytes analysed", bytes);
    tally.add("bytes in the largest definition", largest);
    assert!(found > tally.runs, "hostile definitions should give findings ({found} in {} runs)", tally.runs);
    tally.finish(&budget);
}

/// Replays the input of the seed's sequence whose JSON text is `FUZZ_REPLAY_BYTES` long (a
/// failure's figures name its size), timing each analysis.
#[test]
#[ignore = "a replay; set FUZZ_REPLAY_BYTES (and FUZZ_SEED) and run with --ignored"]
fn replay() {
    let want: usize = std::env::var("FUZZ_REPLAY_BYTES").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    let budget = Budget::from_env(600.0, 0x7e7);
    let mut rng = Rng::new(budget.seed);
    for run in 0..1_000_000u64 {
        let tool = definition(&mut rng);
        let own: Vec<String> = (0..rng.below(4)).map(|_| text(&mut rng)).chain(["tool_1".to_owned()]).collect();
        let others: Vec<(String, String)> =
            (0..rng.below(4)).map(|_| (format!("up{}", rng.below(3)), text(&mut rng))).collect();
        if tool.to_string().len() != want {
            continue;
        }
        let own: Vec<&str> = own.iter().map(String::as_str).collect();
        let others: Vec<(&str, &str)> = others.iter().map(|(u, n)| (u.as_str(), n.as_str())).collect();
        let t = Instant::now();
        let _ = analyze_tool(&tool);
        let a = t.elapsed();
        let t = Instant::now();
        let _ = cross_server(&tool, &own, &others);
        eprintln!("replay: run {run}, analyze_tool {a:.2?}, cross_server {:.2?}", t.elapsed());
        return;
    }
}
