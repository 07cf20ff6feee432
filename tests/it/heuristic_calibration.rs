//! Measures the heuristic judge against Glama's published TDQS scores in
//! `tests/data/glama-labelled.json` and fails when held-out error regresses.
//!
//! Split: FNV-1a (64-bit) of the tool name (servers: of the server label); `hash % 10 < 7` is
//! the calibration part (tuned on), the rest is held out. Identical names land on the same side,
//! so re-scored copies of one definition never straddle the split.
//!
//! Glama's pages do not show Purpose Clarity or Usage Guidelines, so per-dimension error covers
//! the other four. Tier agreement is reported two ways: (a) our full six-dimension tier against
//! the tier Glama shows next to a tool, and (b) a partial score over the four visible dimensions,
//! `round1(20*BT + 15*PS + 10*CS + 10*CC, 55)` banded with the TDQS tier thresholds, for tools
//! whose four scores are all published. Coherence is judged from tool names alone (the pages show
//! no descriptions), with the published tool count; most pages list only some of the names, so a
//! second table keeps the servers whose full name list is known. Run with `--nocapture` for the
//! tables;
//! `HEURISTIC_CALIBRATION_VERBOSE=1` adds one row per tool.
//!
//! Long: the split, the error tables and the tests that print them share one labelled data set and
//! one way of scoring it.

use serde_json::{Map, Value, json};
use tdqs_gateway::judge::heuristic::{coherence_from_names, judge_coherence, judge_tool};
use tdqs_gateway::tdqs::answer::{CoherenceDimension, parse_tool_answer};
use tdqs_gateway::tdqs::cost::invocation_cost;
use tdqs_gateway::tdqs::definition::{ToolDefinition, parse_tools};
use tdqs_gateway::tdqs::gates::{Gate, evaluate_gates};
use tdqs_gateway::tdqs::json::{JsString, parse};
use tdqs_gateway::tdqs::prompt::CoherenceTool;
use tdqs_gateway::tdqs::score::{Dimension, Tier, round1};
use tdqs_gateway::tdqs::signals::context_signals;
use tdqs_gateway::tdqs::tool_score::{ToolScore, judged_score, no_description_score};

const DATA: &str = include_str!("../data/glama-labelled.json");

/// The four tool dimensions Glama publishes, with their TDQS weights.
const TOOL_DIMS: [(Dimension, u64); 4] = [
    (Dimension::BehavioralTransparency, 20),
    (Dimension::ParameterSemantics, 15),
    (Dimension::ConcisenessStructure, 10),
    (Dimension::ContextualCompleteness, 10),
];

/// Held-out MAE must stay below these (tool dimensions in `TOOL_DIMS` order). `heuristic-1`
/// achieved 0.26 / 0.25 / 0.30 / 0.50 (mean 0.33); `heuristic-3` (reads before scoring) achieves
/// 0.26 / 0.25 / 0.25 / 0.50 (mean 0.32); the constant baseline on the same tools:
/// 0.70 / 0.58 / 0.60 / 0.78. The split is the one fixed for `heuristic-1`, not re-drawn.
const TOOL_THRESHOLDS: [f64; 4] = [0.30, 0.30, 0.30, 0.55];
/// The four held-out MAEs together must stay below `heuristic-1`'s mean (1.31 / 4).
const TOOL_MEAN_THRESHOLD: f64 = 0.3275;
/// Held-out MAE bounds for the coherence dimensions, in `CoherenceDimension::ALL` order.
/// Achieved when set: 0.50 / 0.00 / 0.14 / 0.33; constant baseline 0.83 / 0.00 / 1.71 / 1.00
/// (nearly every published naming score is 5, so no bound can sit below that baseline).
const COHERENCE_THRESHOLDS: [f64; 4] = [0.70, 0.40, 0.40, 0.60];

fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

fn held_out(key: &str) -> bool {
    fnv1a(key) % 10 >= 7
}

struct Labelled {
    name: String,
    held_out: bool,
    labels: [Option<u8>; 4],
    tier: Option<Tier>,
    score: ToolScore,
}

/// A labelled record as the definition TDQS scores. Pages list output fields without a
/// schema; when one exists we stand in an object schema naming those fields.
fn definition(t: &Map<String, Value>) -> ToolDefinition {
    let mut o = Map::new();
    for key in ["name", "title", "description", "inputSchema", "annotations"] {
        o.insert(key.into(), t.get(key).cloned().unwrap_or(Value::Null));
    }
    if t.get("has_output_schema") == Some(&Value::Bool(true)) {
        let fields = t.get("outputSchema_fields_on_page").and_then(Value::as_array).cloned().unwrap_or_default();
        let mut props = Map::new();
        let mut required = Vec::new();
        for f in &fields {
            let name = f["name"].as_str().unwrap_or("result").to_owned();
            if f["required"] == Value::Bool(true) {
                required.push(Value::String(name.clone()));
            }
            props.insert(name, json!({}));
        }
        o.insert("outputSchema".into(), json!({"type": "object", "properties": props, "required": required}));
    }
    let text = serde_json::to_string(&Value::Object(o)).unwrap();
    parse_tools(&parse(text.as_bytes()).unwrap()).unwrap().tools.remove(0)
}

fn score_tool(t: &ToolDefinition, siblings: &[JsString]) -> ToolScore {
    let signals = context_signals(t);
    match evaluate_gates(t) {
        Gate::NoDescription => no_description_score(&t.name, signals),
        gate => {
            let j = judge_tool(t, &signals, siblings);
            judged_score(&t.name, signals, gate, &j)
        }
    }
}

fn data() -> Value {
    serde_json::from_str(DATA).unwrap()
}

fn tools() -> Vec<Labelled> {
    let d = data();
    d["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let t = t.as_object().unwrap();
            let def = definition(t);
            let siblings: Vec<JsString> = t["sibling_tool_names"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| JsString::from(s.as_str().unwrap()))
                .collect();
            let g = &t["glama"];
            let name = t["name"].as_str().unwrap().to_owned();
            Labelled {
                held_out: held_out(&name),
                labels: TOOL_DIMS.map(|(d, _)| g[d.key()].as_u64().map(|v| v as u8)),
                tier: g["tier"].as_str().and_then(Tier::parse),
                score: score_tool(&def, &siblings),
                name,
            }
        })
        .collect()
}

/// Mean absolute error of `pred` against `label` over the pairs that have a label.
fn mae(pairs: impl Iterator<Item = (u8, Option<u8>)>) -> (f64, usize) {
    let (sum, n) = pairs
        .filter_map(|(p, l)| l.map(|l| (p as i32 - l as i32).unsigned_abs()))
        .fold((0u32, 0usize), |(s, n), e| (s + e, n + 1));
    (if n == 0 { f64::NAN } else { sum as f64 / n as f64 }, n)
}

/// The lower median of the labels, the constant baseline's prediction.
fn median(mut v: Vec<u8>) -> u8 {
    v.sort_unstable();
    v.get(v.len().saturating_sub(1) / 2).copied().unwrap_or(3)
}

fn partial_tier(scores: [u8; 4]) -> Tier {
    let p: u64 = TOOL_DIMS.iter().zip(scores).map(|((_, w), s)| w * s as u64).sum();
    Tier::of(round1(p, 55))
}

/// Per-dimension (calibration, held-out, full) MAE for predictions and a constant baseline.
struct Row {
    key: &'static str,
    model: [(f64, usize); 3],
    constant: u8,
    baseline: [f64; 3],
}

/// One judged item: (held out?, our scores, published scores where shown).
type Item<const N: usize> = (bool, [u8; N], [Option<u8>; N]);

fn rows<const N: usize>(keys: [&'static str; N], items: &[Item<N>]) -> Vec<Row> {
    (0..N)
        .map(|d| {
            let part = |want: Option<bool>| {
                items.iter().filter(move |(h, _, _)| want.is_none_or(|w| *h == w)).map(move |(_, p, l)| (p[d], l[d]))
            };
            let constant = median(part(Some(false)).filter_map(|(_, l)| l).collect());
            let parts = [Some(false), Some(true), None];
            Row {
                key: keys[d],
                model: parts.map(|w| mae(part(w))),
                constant,
                baseline: parts.map(|w| mae(part(w).map(|(_, l)| (constant, l))).0),
            }
        })
        .collect()
}

fn print_rows(title: &str, rows: &[Row]) {
    println!("\n{title}");
    println!(
        "{:<28} {:>13} {:>13} {:>13}   constant: value, cal/held/full",
        "dimension", "calibration", "held-out", "full"
    );
    for r in rows {
        let cell = |(m, n): (f64, usize)| format!("{m:.2} (n={n})");
        println!(
            "{:<28} {:>13} {:>13} {:>13}   {} -> {:.2} / {:.2} / {:.2}",
            r.key,
            cell(r.model[0]),
            cell(r.model[1]),
            cell(r.model[2]),
            r.constant,
            r.baseline[0],
            r.baseline[1],
            r.baseline[2]
        );
    }
}

fn agreement(pairs: &[(bool, Tier, Tier)], part: Option<bool>) -> String {
    let sel: Vec<_> = pairs.iter().filter(|(h, _, _)| part.is_none_or(|p| *h == p)).collect();
    let same = sel.iter().filter(|(_, a, b)| a == b).count();
    let within = sel.iter().filter(|(_, a, b)| (*a as i32 - *b as i32).abs() <= 1).count();
    format!("{same}/{} exact, {within}/{} within one tier", sel.len(), sel.len())
}

#[test]
fn tool_dimensions_against_published_scores() {
    let tools = tools();
    let items: Vec<Item<4>> = tools
        .iter()
        .map(|t| {
            let s = t.score.dimension_scores();
            (t.held_out, TOOL_DIMS.map(|(d, _)| s.get(d)), t.labels)
        })
        .collect();
    if std::env::var_os("HEURISTIC_CALIBRATION_VERBOSE").is_some() {
        for t in &tools {
            let s = t.score.dimension_scores();
            let show = |l: Option<u8>| l.map_or("-".to_owned(), |v| v.to_string());
            println!(
                "{} {:<34} ours {:?} {} | glama {} {}",
                if t.held_out { "H" } else { "C" },
                t.name,
                s.0,
                t.score.tier,
                t.labels.map(show).join(","),
                t.tier.map_or("-", Tier::as_str)
            );
            if std::env::var("HEURISTIC_CALIBRATION_VERBOSE").as_deref() == Ok("2") {
                for d in Dimension::ALL {
                    let j = t.score.justifications.get(d);
                    println!("    {} {}: {}", d.key(), j.score, j.justification);
                }
            }
        }
    }
    let calibration = tools.iter().filter(|t| !t.held_out).count();
    println!(
        "\nTools: {} labelled, {calibration} calibration / {} held out (FNV-1a of name % 10 >= 7)",
        tools.len(),
        tools.len() - calibration
    );
    let table = rows(TOOL_DIMS.map(|(d, _)| d.key()), &items);
    print_rows("Tool dimensions, mean absolute error", &table);

    let published: Vec<(bool, Tier, Tier)> =
        tools.iter().filter_map(|t| t.tier.map(|g| (t.held_out, t.score.tier, g))).collect();
    let mut tier_counts = [0usize; 5];
    for (h, _, g) in &published {
        if !h {
            tier_counts[*g as usize] += 1;
        }
    }
    let modal = [Tier::A, Tier::B, Tier::C, Tier::D, Tier::F][(0..5).max_by_key(|i| (tier_counts[*i], 5 - i)).unwrap()];
    let modal_pairs: Vec<_> = published.iter().map(|(h, _, g)| (*h, modal, *g)).collect();
    println!("\n(a) full tier vs the tier Glama shows");
    for (label, part) in [("calibration", Some(false)), ("held-out", Some(true)), ("full", None)] {
        println!(
            "  {label:<12} ours: {}; constant {modal}: {}",
            agreement(&published, part),
            agreement(&modal_pairs, part)
        );
    }
    let partial: Vec<(bool, Tier, Tier)> = items
        .iter()
        .filter_map(|(h, p, l)| {
            let l = [l[0]?, l[1]?, l[2]?, l[3]?];
            Some((*h, partial_tier(*p), partial_tier(l)))
        })
        .collect();
    let const_tier = partial_tier(table.iter().map(|r| r.constant).collect::<Vec<_>>().try_into().unwrap());
    let const_pairs: Vec<_> = partial.iter().map(|(h, _, g)| (*h, const_tier, *g)).collect();
    println!("(b) four-dimension partial tier, round1(20BT+15PS+10CS+10CC, 55)");
    for (label, part) in [("calibration", Some(false)), ("held-out", Some(true)), ("full", None)] {
        println!(
            "  {label:<12} ours: {}; constant medians ({const_tier}): {}",
            agreement(&partial, part),
            agreement(&const_pairs, part)
        );
    }

    let mean = table.iter().map(|r| r.model[1].0).sum::<f64>() / table.len() as f64;
    println!("held-out mean over the four dimensions: {mean:.4} (bound {TOOL_MEAN_THRESHOLD})");
    assert!(mean < TOOL_MEAN_THRESHOLD, "held-out mean MAE {mean:.4} >= {TOOL_MEAN_THRESHOLD}");
    for (r, limit) in table.iter().zip(TOOL_THRESHOLDS) {
        let (held, _) = r.model[1];
        assert!(held < limit, "{}: held-out MAE {held:.2} >= {limit}", r.key);
        assert!(
            limit < r.baseline[1],
            "{}: bound {limit} is not below the constant baseline {:.2}",
            r.key,
            r.baseline[1]
        );
    }
}

#[test]
fn coherence_against_published_scores() {
    let d = data();
    let mut items: Vec<Item<4>> = Vec::new();
    let mut complete: Vec<Item<4>> = Vec::new();
    let verbose = std::env::var_os("HEURISTIC_CALIBRATION_VERBOSE").is_some();
    for s in d["servers"].as_array().unwrap() {
        let labels = CoherenceDimension::ALL.map(|k| s[k.key()].as_u64().map(|v| v as u8));
        if labels.iter().all(Option::is_none) {
            continue;
        }
        let names: Vec<&str> = s["tool_names"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
        let count = s["tool_count"].as_u64().map_or(names.len(), |n| n as usize);
        let predicted = coherence_from_names(&names, count).map(|j| j.score);
        // Without any visible name only the tool count can be judged.
        let labels = if names.is_empty() { [None, None, labels[2], None] } else { labels };
        let server = s["server"].as_str().unwrap();
        if verbose {
            let split = if held_out(server) { "H" } else { "C" };
            println!("{split} {server:<60} ours {predicted:?} glama {labels:?}");
            if std::env::var("HEURISTIC_CALIBRATION_VERBOSE").as_deref() == Ok("2") {
                for j in coherence_from_names(&names, count) {
                    println!("    {} {}", j.score, j.justification);
                }
            }
        }
        items.push((held_out(server), predicted, labels));
        if names.len() == count && s["tool_names_partial"] != Value::Bool(true) {
            complete.push((held_out(server), predicted, labels));
        }
    }
    let calibration = items.iter().filter(|i| !i.0).count();
    println!(
        "\nServers with coherence labels: {}, {calibration} calibration / {} held out",
        items.len(),
        items.len() - calibration
    );
    let table = rows(CoherenceDimension::ALL.map(CoherenceDimension::key), &items);
    print_rows("Coherence dimensions (names only; many pages list only some names), MAE", &table);
    print_rows(
        "Coherence dimensions, servers whose full name list is known, MAE",
        &rows(CoherenceDimension::ALL.map(CoherenceDimension::key), &complete),
    );
    for (r, limit) in table.iter().zip(COHERENCE_THRESHOLDS) {
        let (held, n) = r.model[1];
        assert!(n > 0 && held < limit, "{}: held-out MAE {held:.2} (n={n}) >= {limit}", r.key);
        if r.key != CoherenceDimension::NamingConsistency.key() {
            assert!(limit < r.baseline[1], "{}: bound {limit} is not below the constant baseline", r.key);
        }
    }
}

#[test]
fn deterministic_and_contract_valid_on_every_labelled_tool() {
    let d = data();
    for t in d["tools"].as_array().unwrap() {
        let def = definition(t.as_object().unwrap());
        if evaluate_gates(&def) == Gate::NoDescription {
            continue;
        }
        let signals = context_signals(&def);
        let a = judge_tool(&def, &signals, &[]);
        let b = judge_tool(&def, &signals, &[]);
        assert_eq!(a, b, "{}", def.name);
        // The answer survives the model contract's own validator unchanged.
        let scores: Map<String, Value> = Dimension::ALL
            .iter()
            .zip(&a.dimensions)
            .map(|(d, j)| (d.key().to_owned(), json!({"score": j.score, "justification": j.justification})))
            .collect();
        let text = json!({
            "scores": scores,
            "annotation_contradiction": a.annotation_contradiction,
            "summary": a.summary,
        })
        .to_string();
        assert_eq!(parse_tool_answer(&text).unwrap(), a, "{}", def.name);
    }
}

#[test]
fn coherence_judge_is_deterministic_on_full_name_lists() {
    let d = data();
    for s in d["servers"].as_array().unwrap() {
        let names: Vec<JsString> =
            s["tool_names"].as_array().unwrap().iter().map(|n| JsString::from(n.as_str().unwrap())).collect();
        let tools: Vec<CoherenceTool> =
            names.iter().map(|name| CoherenceTool { name, description: None, cost: invocation_cost(None) }).collect();
        let a = judge_coherence(s["server"].as_str().unwrap(), &tools, &[]);
        let b = judge_coherence(s["server"].as_str().unwrap(), &tools, &[]);
        assert_eq!(a, b);
        assert!(a.dimensions.iter().all(|j| (1..=5).contains(&j.score)));
        assert!(a.shadowing_risks.is_empty());
    }
}

/// Not timed: the worst cases the gateway admits (500 tools on one server, a very long
/// description, many parameters) finish and still answer within the contract.
#[test]
fn largest_inputs_finish() {
    let long = "Lists the records of one table, newest first, with paging. ".repeat(2000);
    let props: Map<String, Value> =
        (0..200).map(|i| (format!("field_{i}"), json!({"type": "string", "description": "A field."}))).collect();
    let def = definition(
        json!({"name": "list_records", "description": long, "inputSchema": {"type": "object", "properties": props}})
            .as_object()
            .unwrap(),
    );
    let signals = context_signals(&def);
    let started = std::time::Instant::now();
    let j = judge_tool(&def, &signals, &[]);
    assert!(j.dimensions.iter().all(|d| (1..=5).contains(&d.score)));
    let names: Vec<JsString> = (0..500).map(|i| JsString::from(format!("get_record_{i}"))).collect();
    let descs: Vec<JsString> = (0..500)
        .map(|i| JsString::from(format!("Returns record number {i} of the ledger with its history.")))
        .collect();
    let tools: Vec<CoherenceTool> = names
        .iter()
        .zip(&descs)
        .map(|(name, d)| CoherenceTool { name, description: Some(d), cost: invocation_cost(None) })
        .collect();
    let c = judge_coherence("big", &tools, &[]);
    assert_eq!(c.dimensions[CoherenceDimension::ToolCountAppropriateness as usize].score, 2);
    println!("largest inputs judged in {:?} (informational, not asserted)", started.elapsed());
}
