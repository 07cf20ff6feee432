//! The heuristic judge's full answers (scores, contradiction flag, every justification, the
//! summary, and the coherence answers) over every corpus we hold, compared with the answers
//! recorded in `tests/data/heuristic/golden.jsonl`. It exists so that work on the judge's speed
//! cannot change what it says: any difference, in any word, fails here, with the cases named.
//!
//! The corpora: the Glama calibration set (each tool with its listed siblings, each server's
//! names for coherence), our honest corpus with information-free and fact-removing variants
//! and with its annotation hints turned round both ways (the contradiction reader), and the
//! engine bench corpus in servers of 50, judged both one tool at a time (`judge_tool`) and
//! through one sibling index per server (`judge_tool_in`), which must agree.
//!
//! When a change of the judge's answers is intended (a new judge identity), record them again
//! with `HEURISTIC_GOLDEN_WRITE=1 cargo nextest run --test it heuristic_golden::` and review the
//! diff of the file.

use serde_json::{Value, json};
use tdqs_gateway::judge::heuristic::{SiblingIndex, coherence_from_names, judge_coherence, judge_tool, judge_tool_in};
use tdqs_gateway::tdqs::answer::{CoherenceJudgement, Justified, ToolJudgement};
use tdqs_gateway::tdqs::definition::{ToolDefinition, parse_tools};
use tdqs_gateway::tdqs::json::{self, JsString, JsValue};
use tdqs_gateway::tdqs::prompt::coherence_inputs;
use tdqs_gateway::tdqs::signals::context_signals;

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/heuristic/golden.jsonl");

fn definitions(tools: &[Value]) -> Vec<ToolDefinition> {
    let text = serde_json::to_string(tools).unwrap();
    parse_tools(&json::parse(text.as_bytes()).unwrap()).unwrap().tools
}

fn strings(v: &Value) -> Vec<JsString> {
    v.as_array().unwrap().iter().map(|s| JsString::from(s.as_str().unwrap())).collect()
}

fn justified(j: &[Justified]) -> Value {
    j.iter().map(|d| json!([d.score, d.justification])).collect()
}

fn tool_line(case: &str, j: &ToolJudgement) -> String {
    let v = json!({
        "case": case,
        "dimensions": justified(&j.dimensions),
        "annotation_contradiction": j.annotation_contradiction,
        "summary": j.summary,
    });
    v.to_string()
}

fn coherence_line(case: &str, c: &CoherenceJudgement) -> String {
    let risks: Vec<Value> =
        c.shadowing_risks.iter().map(|r| json!([r.tool, r.cheaper_sibling, r.justification])).collect();
    json!({"case": case, "coherence": justified(&c.dimensions), "shadowing": risks, "summary": c.summary}).to_string()
}

fn judged(t: &ToolDefinition, siblings: &[JsString]) -> ToolJudgement {
    judge_tool(t, &context_signals(t), siblings)
}

fn glama(out: &mut Vec<String>) {
    let d: Value = serde_json::from_str(include_str!("../data/glama-labelled.json")).unwrap();
    for (i, t) in d["tools"].as_array().unwrap().iter().enumerate() {
        let mut o = serde_json::Map::new();
        for key in ["name", "title", "description", "inputSchema", "annotations"] {
            if let Some(v) = t.get(key).filter(|v| !v.is_null()) {
                o.insert(key.into(), v.clone());
            }
        }
        let def = definitions(&[Value::Object(o)]).remove(0);
        let case = format!("glama/{i}/{}", t["name"].as_str().unwrap());
        out.push(tool_line(&case, &judged(&def, &strings(&t["sibling_tool_names"]))));
    }
    for (i, s) in d["servers"].as_array().unwrap().iter().enumerate() {
        let names: Vec<&str> = s["tool_names"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
        let dims = coherence_from_names(&names, names.len());
        out.push(json!({"case": format!("glama-server/{i}"), "coherence": justified(&dims)}).to_string());
    }
}

/// A deterministic shuffle of words (punctuation travels with its word).
fn shuffled(text: &str, seed: u64) -> String {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    let mut state = seed;
    for i in (1..words.len()).rev() {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        words.swap(i, (state >> 33) as usize % (i + 1));
    }
    words.join(" ")
}

const PADDING: &[(&str, &str)] = &[
    ("cue fragments", "Returns. Use when. Do not use. Read-only. Idempotent. No side effects. Rate limit. Errors."),
    ("keyword list", "\nKeywords: returns, use when, instead, read-only, idempotent, rate limit, auth, errors"),
    ("praise", "This powerful tool is extremely useful and amazing, the best and most seamless solution."),
    ("placeholder", "Lorem ipsum dolor sit amet, returns results, consectetur adipiscing elit, use when."),
    ("boilerplate", "This tool is very useful and works well. Please use it appropriately whenever needed."),
];

/// Hints that deny what honest descriptions usually say, and hints that claim the opposite.
const HINTS: &[(&str, &str)] = &[
    ("unsafe hints", r#"{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false,"openWorldHint":true}"#),
    ("safe hints", r#"{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}"#),
];

fn honest(out: &mut Vec<String>) {
    let records: Vec<Value> = serde_json::from_str(include_str!("../data/heuristic/honest.json")).unwrap();
    for r in &records {
        let tool = &r["tool"];
        let name = tool["name"].as_str().unwrap();
        let d = tool["description"].as_str().unwrap();
        let mut variants: Vec<(String, String)> = vec![
            ("as written".into(), d.into()),
            ("repeated 3x".into(), [d, d, d].join(" ")),
            ("repeated 40x".into(), vec![d; 40].join("\n")),
            ("shuffled".into(), shuffled(d, 7)),
            ("uppercased".into(), d.to_uppercase()),
        ];
        for (what, pad) in PADDING {
            variants.push((format!("{what} appended"), format!("{d} {pad}")));
            variants.push((format!("replaced by {what}"), (*pad).to_owned()));
        }
        for f in r["facts"].as_array().unwrap() {
            let without = d.replace(f["remove"].as_str().unwrap(), "");
            variants.push((format!("without its {}", f["kind"].as_str().unwrap()), without.trim().to_owned()));
        }
        let siblings = strings(&r["siblings"]);
        for (what, text) in variants {
            let mut t = tool.clone();
            t["description"] = json!(text);
            let def = definitions(&[t]).remove(0);
            out.push(tool_line(&format!("honest/{name}/{what}"), &judged(&def, &siblings)));
        }
        for (what, hints) in HINTS {
            let mut t = tool.clone();
            t["annotations"] = serde_json::from_str(hints).unwrap();
            let def = definitions(&[t]).remove(0);
            out.push(tool_line(&format!("honest/{name}/{what}"), &judged(&def, &siblings)));
        }
    }
}

fn bench(out: &mut Vec<String>) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/corpus/tools.json");
    let doc = json::parse(&std::fs::read(path).unwrap()).unwrap();
    for (s, chunk) in doc.as_array().unwrap().chunks(50).enumerate() {
        let tools = parse_tools(&JsValue::Array(chunk.to_vec())).unwrap().tools;
        let names: Vec<JsString> = tools.iter().map(|t| t.name.clone()).collect();
        let index = SiblingIndex::new(&names);
        for (i, t) in tools.iter().enumerate() {
            let signals = context_signals(t);
            let siblings: Vec<JsString> = names.iter().filter(|n| **n != t.name).cloned().collect();
            let alone = judge_tool(t, &signals, &siblings);
            let listed = judge_tool_in(t, &signals, &index, &t.name);
            let case = format!("bench/{s}/{i}/{}", t.name.to_string_lossy());
            let line = tool_line(&case, &alone);
            assert_eq!(line, tool_line(&case, &listed), "judge_tool and judge_tool_in disagree");
            out.push(line);
        }
        let (coherence_tools, candidates) = coherence_inputs(&tools);
        let c = judge_coherence(&format!("bench-{s}"), &coherence_tools, &candidates);
        out.push(coherence_line(&format!("bench-server/{s}"), &c));
    }
}

fn case_of(line: &str) -> String {
    serde_json::from_str::<Value>(line).ok().and_then(|v| v["case"].as_str().map(str::to_owned)).unwrap_or_default()
}

#[test]
fn the_judge_answers_exactly_as_recorded() {
    let mut lines = Vec::new();
    glama(&mut lines);
    honest(&mut lines);
    bench(&mut lines);
    assert!(lines.len() > 2_000, "{} answers", lines.len());
    let now = lines.join("\n") + "\n";
    if std::env::var_os("HEURISTIC_GOLDEN_WRITE").is_some() {
        std::fs::write(GOLDEN, &now).unwrap();
        return;
    }
    let recorded =
        std::fs::read_to_string(GOLDEN).expect("the recorded answers (HEURISTIC_GOLDEN_WRITE=1 records them)");
    let recorded: Vec<&str> = recorded.lines().collect();
    assert_eq!(recorded.len(), lines.len(), "the corpora changed size: record the answers again");
    let changed: Vec<String> = lines
        .iter()
        .zip(&recorded)
        .filter(|(now, was)| now != *was)
        .map(|(now, was)| format!("{}\n  was: {was}\n  now: {now}", case_of(was)))
        .collect();
    let shown: Vec<&str> = changed.iter().take(10).map(String::as_str).collect();
    assert!(changed.is_empty(), "{} of {} answers changed:\n{}", changed.len(), lines.len(), shown.join("\n"));
}
