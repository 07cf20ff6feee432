//! Differential test of the full `score` pipeline against the reference implementation
//! (`tdqs==0.1.0`, in `<repo>/.venv`): a seeded corpus of servers is scored by our binary
//! (`tdqs-gateway score --judge openai`) and by the reference CLI against the same loopback
//! model server, whose canned answers are keyed by tool and server name. Everything that follows
//! from the answers must be identical: every tool's scores, TDQS, tier, flags (in order), smells,
//! server flags, summary, justifications and context signals, and the server rollup with its
//! coherence scores and confirmed shadowing risks. Only prompts, timestamps, identity fields,
//! `specVersion` and the casing of dimension keys may differ.
//!
//! The reference is required: without it this test fails and says how to install it.
//!
//! Long: the whole pipeline's differential (corpus, both runs, comparison) and the answer-contract
//! cases run against the same reference client and model server.

use crate::support::model_server;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::support::rng::Rng;
use crate::support::scratch::Scratch;
use model_server::{ModelServer, Recorded, Risk, TOOL_DIMENSIONS, coherence_answer, tool_answer_with};
use serde_json::{Map, Value, json};
use tdqs_gateway::tdqs::definition::parse_tools;
use tdqs_gateway::tdqs::json as js;
use tdqs_gateway::tdqs::shadow::{CostedTool, shadow_candidates};
use tdqs_gateway::tdqs::signals::context_signals;
use tdqs_gateway::tdqs::tool_score::TAUTOLOGY_TEXT;

const KEY: &str = "sk-diff-test-key-42";
const MODEL: &str = "diff-model";
const SERVERS: usize = 40;
const SEED: u64 = 0x7d95_2026_0001;

/// What the reference writes in place of a capped Purpose Clarity justification.
const REFERENCE_TAUTOLOGY_TEXT: &str = "Tautological: description restates name/title.";

// ---------------------------------------------------------------------------------------------
// A seeded corpus.

/// A judge score, 1 to 5.
fn score(rng: &mut Rng) -> u8 {
    rng.range(1, 5) as u8
}

const VERBS: &[&str] =
    &["get", "list", "create", "update", "delete", "search", "export", "sync", "archive", "fetch", "run", "process"];
const NOUNS: &[&str] =
    &["user", "record", "invoice", "calls", "drive", "ticket", "report", "file", "job", "order", "event", "note"];
const DOMAINS: &[&str] = &["crm", "billing", "telephony", "storage", "ci", "calendar", "notes", "shop"];

/// How a tool's description relates to the gates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Described,
    NoDescription,
    /// Restates the name (or title); the judge's purpose_clarity is `pc`.
    Tautological,
}

struct GenTool {
    name: String,
    kind: Kind,
    json: Value,
}

struct GenServer {
    name: String,
    tools: Vec<GenTool>,
}

/// A property schema, sometimes described, sometimes with an enum.
fn property(rng: &mut Rng, i: usize) -> Value {
    let ty = *rng.pick(&["string", "integer", "boolean", "number", "array"]);
    let mut p = Map::new();
    p.insert("type".into(), json!(ty));
    if ty == "array" {
        p.insert("items".into(), json!({"type": "string"}));
    }
    if rng.percent(60) {
        let d = if rng.percent(5) { "   " } else { "What the field selects." };
        p.insert("description".into(), json!(format!("{d}{}", " ".repeat(i % 2))));
    }
    if ty == "string" && rng.percent(20) {
        p.insert("enum".into(), json!(["a", "b", "c"]));
    }
    Value::Object(p)
}

/// An input schema of a given weight: 0 none, 1 empty, 2 light, 3 medium, 4 heavy.
fn input_schema(rng: &mut Rng, weight: usize) -> Option<Value> {
    let (props, required, nested, union) = match weight {
        0 => return None,
        1 => return Some(json!({"type": "object"})),
        2 => (rng.range(0, 2), rng.range(0, 1), false, false),
        3 => (rng.range(2, 5), rng.range(1, 3), rng.percent(30), false),
        _ => (rng.range(4, 8), rng.range(3, 8), rng.percent(70), rng.percent(50)),
    };
    let mut properties = Map::new();
    let mut req = Vec::new();
    for i in 0..props {
        let name = format!("field_{i}");
        properties.insert(name.clone(), property(rng, i));
        if i < required {
            req.push(json!(name));
        }
    }
    if nested {
        let inner: Map<String, Value> = (0..rng.range(2, 4))
            .map(|i| (format!("inner_{i}"), json!({"type": "string", "description": "part"})))
            .collect();
        let inner_req: Vec<Value> = inner.keys().map(|k| json!(k)).collect();
        properties.insert("options".into(), json!({"type": "object", "properties": inner, "required": inner_req}));
        req.push(json!("options"));
    }
    if union {
        let branches: Vec<Value> = (0..rng.range(2, 3))
            .map(|b| {
                json!({"type": "object", "properties": {format!("choice_{b}"): {"type": "string"}}, "required": [format!("choice_{b}")]})
            })
            .chain(rng.percent(50).then(|| json!({"type": "null"})))
            .collect();
        properties.insert("target".into(), json!({"oneOf": branches}));
        req.push(json!("target"));
    }
    let mut s = Map::new();
    s.insert("type".into(), json!("object"));
    s.insert("properties".into(), Value::Object(properties));
    if !req.is_empty() || rng.percent(50) {
        s.insert("required".into(), Value::Array(req));
    }
    Some(Value::Object(s))
}

fn annotations(rng: &mut Rng) -> Option<Value> {
    match rng.below(10) {
        0..=4 => None,
        5 => Some(json!({})),
        6 => Some(json!({"readOnlyHint": "yes", "title": "odd"})),
        _ => {
            let mut a = Map::new();
            for hint in ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] {
                if rng.percent(60) {
                    a.insert(hint.into(), json!(rng.percent(50)));
                }
            }
            Some(Value::Object(a))
        }
    }
}

fn capitalise(s: &str) -> String {
    s.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn generate(seed: u64) -> Vec<GenServer> {
    let mut rng = Rng::new(seed);
    (0..SERVERS)
        .map(|s| {
            let name = format!("srv{s:02}-{}", rng.pick(DOMAINS));
            let n = rng.range(3, 15);
            let mut used = BTreeSet::new();
            let tools = (0..n)
                .map(|i| {
                    let (mut verb, mut noun) = (*rng.pick(VERBS), *rng.pick(NOUNS));
                    while !used.insert((verb, noun)) {
                        verb = *rng.pick(VERBS);
                        noun = *rng.pick(NOUNS);
                    }
                    let base = format!("{verb}_{noun}");
                    let tname = format!("s{s:02}_{base}");
                    // A few heavy tools per server so the shadow prefilter has work.
                    let weight = match rng.below(10) {
                        0 => 0,
                        1 => 1,
                        2..=4 => 2,
                        5..=6 => 3,
                        _ => 4,
                    };
                    let mut t = Map::new();
                    t.insert("name".into(), json!(tname));
                    let title = rng.percent(35).then(|| capitalise(&base));
                    if let Some(title) = &title {
                        t.insert("title".into(), json!(title));
                    } else if rng.percent(10) {
                        t.insert("title".into(), Value::Null);
                    }
                    let kind = match rng.below(100) {
                        0..=8 => Kind::NoDescription,
                        9..=22 => Kind::Tautological,
                        _ => Kind::Described,
                    };
                    match kind {
                        Kind::NoDescription => match rng.below(4) {
                            0 => {}
                            1 => {
                                t.insert("description".into(), Value::Null);
                            }
                            2 => {
                                t.insert("description".into(), json!(""));
                            }
                            _ => {
                                t.insert("description".into(), json!(" \n\t\u{feff}\u{a0} "));
                            }
                        },
                        Kind::Tautological => {
                            let d = match (rng.below(3), &title) {
                                (0, Some(title)) => format!("  {}\n", title.to_lowercase()),
                                (1, _) => tname.to_uppercase(),
                                _ => format!("\t{tname} "),
                            };
                            t.insert("description".into(), json!(d));
                        }
                        Kind::Described => {
                            let d = match rng.below(5) {
                                0 => format!("{tname}."),
                                1 => format!(
                                    "{} the {noun}. Use this when you need one {noun}; for many use the list tool. Fails with “not found” when missing — résumé ✓.",
                                    capitalise(verb)
                                ),
                                2 => format!("{} a {noun}\u{0} by id.", capitalise(verb)),
                                _ => format!("{} {noun} entries.", capitalise(verb)),
                            };
                            t.insert("description".into(), json!(d));
                        }
                    }
                    if let Some(schema) = input_schema(&mut rng, weight) {
                        t.insert("inputSchema".into(), schema);
                    }
                    if rng.percent(20) {
                        t.insert(
                            "outputSchema".into(),
                            json!({"type": "object", "properties": {"id": {"type": "string"}}}),
                        );
                    }
                    if let Some(a) = annotations(&mut rng) {
                        t.insert("annotations".into(), a);
                    }
                    if rng.percent(10) {
                        t.insert("_meta".into(), json!({"ignored": i}));
                    }
                    GenTool { name: tname, kind, json: Value::Object(t) }
                })
                .collect();
            GenServer { name, tools }
        })
        .collect()
}

/// The canned judge answers for one tool: varied scores, some contradictions, and for
/// tautological tools Purpose Clarity both above the cap and at 1.
fn script_tool(rng: &mut Rng, tool: &GenTool, server: &ModelServer) -> Option<[u8; 6]> {
    if tool.kind == Kind::NoDescription {
        return None;
    }
    let mut scores = [0u8; 6];
    for s in scores.iter_mut() {
        *s = score(rng);
    }
    if tool.kind == Kind::Tautological {
        scores[0] = *rng.pick(&[5, 4, 3, 3, 2, 1, 1]);
    }
    let justifications: Vec<String> = TOOL_DIMENSIONS
        .iter()
        .zip(scores)
        .map(|(d, s)| format!("{d} is {s}: the text says \"{}\" — see ✓", tool.name))
        .collect();
    let refs: Vec<&str> = justifications.iter().map(String::as_str).collect();
    let contradiction = rng.percent(15);
    let summary = format!("Summary of {} (ü, \"quoted\", back\\slash)", tool.name);
    server.set_tool_answer(&tool.name, tool_answer_with(scores, refs.try_into().unwrap(), contradiction, &summary));
    Some(scores)
}

/// The canned coherence answer: varied scores and reported risks mixing supplied pairs,
/// reversed pairs, pairs the prefilter never supplied, unknown names and duplicates.
fn script_coherence(rng: &mut Rng, srv: &GenServer, server: &ModelServer) -> usize {
    let doc = js::parse(
        serde_json::to_string(&json!({"tools": srv.tools.iter().map(|t| &t.json).collect::<Vec<_>>()}))
            .unwrap()
            .as_bytes(),
    )
    .expect("generated JSON parses");
    let parsed = parse_tools(&doc).expect("generated tools are valid");
    let costs: Vec<u32> = parsed.tools.iter().map(|t| context_signals(t).invocation_cost).collect();
    let costed: Vec<CostedTool> =
        parsed.tools.iter().zip(&costs).map(|(t, c)| CostedTool { name: &t.name, cost: *c }).collect();
    let candidates = shadow_candidates(&costed);
    let names: Vec<&str> = srv.tools.iter().map(|t| t.name.as_str()).collect();
    let mut risks: Vec<Risk> = Vec::new();
    let r = |t: &str, s: &str, why: &str| (t.to_owned(), s.to_owned(), why.to_owned());
    for c in &candidates {
        let (tool, sib) = (c.tool.to_string_lossy(), c.cheaper_sibling.to_string_lossy());
        match rng.below(10) {
            0..=4 => {
                risks.push(r(&tool, &sib, &format!("{tool} may lose to {sib}")));
                if rng.percent(40) {
                    risks.push(r(&tool, &sib, "duplicate report, must be dropped"));
                }
            }
            5 => risks.push(r(&sib, &tool, "reversed pair, must be dropped")),
            6 => {
                // A pair never supplied first, then the supplied one: the first is dropped and
                // does not block the second.
                let other = names.iter().find(|n| **n != tool && **n != sib).copied().unwrap_or("nope");
                risks.push(r(&tool, other, "not a candidate pair"));
                risks.push(r(&tool, &sib, "supplied pair after an invented one"));
            }
            7 => risks.push(r(&tool, "no_such_tool", "unknown sibling")),
            _ => {} // a supplied pair the judge does not confirm
        }
    }
    if names.len() >= 2 && rng.percent(30) {
        risks.push(r(names[0], names[1], "a pair the prefilter did not supply"));
    }
    // Shuffle the report order.
    for i in (1..risks.len()).rev() {
        risks.swap(i, rng.below(i + 1));
    }
    let scores = [score(rng), score(rng), score(rng), score(rng)];
    let mut answer = coherence_answer(scores, &risks, &format!("Coherence of {}", srv.name));
    if risks.is_empty() && rng.percent(50) {
        // The field is optional: omit it altogether.
        let mut v: Value = serde_json::from_str(&answer).unwrap();
        v.as_object_mut().unwrap().remove("shadowing_risks");
        answer = v.to_string();
    }
    server.set_coherence_answer(&srv.name, answer);
    candidates.len()
}

// ---------------------------------------------------------------------------------------------
// Running both sides.

fn reference_python() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let py = root.join(".venv/bin/python");
    if !py.exists() {
        panic!(
            "the reference implementation is required and missing: {} does not exist.\n\
             Create it with `scripts/oracle-venv.sh` (or `python3 -m venv .venv && \
             .venv/bin/pip install tdqs==0.1.0`) in {}.",
            py.display(),
            root.display()
        );
    }
    py
}

fn run_ours(file: &Path, base_url: &str) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_tdqs-gateway"))
        .args(["score", "--judge", "openai", "--format", "json", "--base-url", base_url])
        .args(["--model", MODEL, "--file"])
        .arg(file)
        .env("TDQS_API_KEY", KEY)
        .env_remove("TDQS_BASE_URL")
        .env_remove("TDQS_MODEL")
        .env_remove("TDQS_REQUEST_OVERRIDES")
        .env("NO_PROXY", "127.0.0.1,localhost")
        .output()
        .expect("run tdqs-gateway");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "tdqs-gateway score failed on {}: {stderr}", file.display());
    assert!(!stderr.contains(KEY));
    serde_json::from_slice(&out.stdout).expect("our report is JSON")
}

fn run_reference(py: &Path, files: &[PathBuf], base_url: &str) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/score_servers.py");
    let out = Command::new(py)
        .arg(&script)
        .args([base_url, MODEL, KEY])
        .args(files)
        .env("NO_PROXY", "127.0.0.1,localhost")
        .output()
        .expect("run the reference");
    assert!(
        out.status.success(),
        "the reference runner failed ({}): {}\nRun scripts/oracle-venv.sh to install tdqs==0.1.0.",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let results: Vec<Value> = serde_json::from_slice(&out.stdout).expect("runner output is JSON");
    assert_eq!(results.len(), files.len());
    results
        .into_iter()
        .map(|r| {
            assert_eq!(r["exit"], 0, "reference `tdqs score` failed on {}: {}", r["file"], r["stderr"]);
            r["report"].clone()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Comparing.

/// `purposeClarity` -> `purpose_clarity`; snake_case keys pass through.
fn snake(key: &str) -> String {
    let mut out = String::new();
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// An object with its keys in snake_case, one level deep.
fn snake_keys(v: &Value) -> BTreeMap<String, Value> {
    v.as_object()
        .unwrap_or_else(|| panic!("expected an object, got {v}"))
        .iter()
        .map(|(k, v)| (snake(k), v.clone()))
        .collect()
}

fn num(v: &Value) -> Option<f64> {
    v.as_f64()
}

/// Records every difference instead of stopping at the first.
#[derive(Default)]
struct Diffs(Vec<String>);

impl Diffs {
    fn eq(&mut self, at: &str, ours: &Value, theirs: &Value) {
        let same = match (num(ours), num(theirs)) {
            (Some(a), Some(b)) => a == b,
            _ => ours == theirs,
        };
        if !same {
            self.0.push(format!("{at}: ours {ours} vs reference {theirs}"));
        }
    }
}

struct Expect<'a> {
    tool: &'a GenTool,
    judge_scores: Option<[u8; 6]>,
}

fn compare_tool(d: &mut Diffs, at: &str, ours: &Value, theirs: &Value, expect: &Expect) {
    for key in ["name", "tdqs", "tier", "flags", "smells", "serverFlags", "summary", "contextSignals"] {
        d.eq(&format!("{at}.{key}"), &ours[key], &theirs[key]);
    }
    let (os, ts) = (snake_keys(&ours["scores"]), snake_keys(&theirs["scores"]));
    let (oj, tj) = (snake_keys(&ours["justifications"]), snake_keys(&theirs["justifications"]));
    for dim in TOOL_DIMENSIONS {
        d.eq(&format!("{at}.scores.{dim}"), &os[dim], &ts[dim]);
        let (o, t) = (snake_keys(&oj[dim]), snake_keys(&tj[dim]));
        d.eq(&format!("{at}.justifications.{dim}.score"), &o["score"], &t["score"]);
        d.eq(&format!("{at}.justifications.{dim}.score-vs-scores"), &o["score"], &os[dim]);
        let tautological_pc = expect.tool.kind == Kind::Tautological && dim == "purpose_clarity";
        if !tautological_pc {
            d.eq(&format!("{at}.justifications.{dim}.justification"), &o["justification"], &t["justification"]);
        }
    }
    // Expectations from the script itself, independent of either side.
    match (expect.tool.kind, expect.judge_scores) {
        (Kind::NoDescription, _) => {
            d.eq(&format!("{at}.expected.tdqs"), &ours["tdqs"], &json!(1.0));
            d.eq(&format!("{at}.expected.flags"), &ours["flags"], &json!(["No Description"]));
        }
        (Kind::Tautological, Some(judged)) => {
            let pc = judged[0].min(2);
            d.eq(&format!("{at}.expected.purpose_clarity"), &os["purpose_clarity"], &json!(pc));
            assert_eq!(ours["flags"][0], "Tautological Description", "{at}");
            // Both sides replace the judge's justification only where the cap lowered the
            // score, each in its own words; otherwise both keep the judge's text.
            let ours_text = snake_keys(&oj["purpose_clarity"])["justification"].clone();
            let theirs_text = snake_keys(&tj["purpose_clarity"])["justification"].clone();
            if judged[0] > 2 {
                d.eq(&format!("{at}.ours.tautology_text"), &ours_text, &json!(TAUTOLOGY_TEXT));
                d.eq(&format!("{at}.reference.tautology_text"), &theirs_text, &json!(REFERENCE_TAUTOLOGY_TEXT));
            } else {
                d.eq(&format!("{at}.tautology_text_kept"), &ours_text, &theirs_text);
                assert_ne!(theirs_text, json!(REFERENCE_TAUTOLOGY_TEXT), "{at}");
            }
        }
        (Kind::Described, Some(judged)) => {
            let expected: Vec<Value> = judged.iter().map(|s| json!(s)).collect();
            let got: Vec<Value> = TOOL_DIMENSIONS.iter().map(|k| os[*k].clone()).collect();
            d.eq(&format!("{at}.expected.scores"), &Value::Array(got), &Value::Array(expected));
        }
        _ => unreachable!("judged tools have scripted scores"),
    }
}

fn compare_server(d: &mut Diffs, at: &str, ours: &Value, theirs: &Value) {
    let (o, t) = (ours.as_object().unwrap(), theirs.as_object().unwrap());
    let keys: BTreeSet<&String> = o.keys().chain(t.keys()).collect();
    for key in keys {
        let here = format!("{at}.{key}");
        match key.as_str() {
            "coherenceJustifications" => {
                let (oj, tj) = (snake_keys(&o[key]), snake_keys(&t[key]));
                d.eq(&here, &json!(oj), &json!(tj));
            }
            _ => d.eq(&here, o.get(key).unwrap_or(&Value::Null), t.get(key).unwrap_or(&Value::Null)),
        }
    }
}

/// The tool prompt's parts that 1.2 and 1.3 share: header, input schema, annotations, the
/// signals other than `Has output schema`, siblings.
fn shared_prompt_parts(prompt: &str) -> Vec<String> {
    let block = |tag: &str| {
        let open = format!("<{tag}>\n");
        let close = format!("\n</{tag}>");
        let start = prompt.find(&open).map(|i| i + open.len());
        let end = prompt.find(&close);
        match (start, end) {
            (Some(s), Some(e)) if s <= e => prompt[s..e].to_owned(),
            _ => format!("<missing {tag}>"),
        }
    };
    let header = prompt.split("\n\n<input-schema>").next().unwrap_or("").to_owned();
    let signals: Vec<&str> =
        prompt.lines().filter(|l| l.starts_with("- ") && !l.starts_with("- Has output schema")).collect();
    vec![header, block("input-schema"), block("annotations"), signals.join("\n"), block("sibling-tools")]
}

fn user_message(r: &Recorded) -> String {
    r.messages()[1]["content"].as_str().unwrap_or("").to_owned()
}

#[test]
fn score_reports_match_the_reference() {
    let started = Instant::now();
    let py = reference_python();
    let servers = generate(SEED);
    let model = ModelServer::start();
    let base_url = model.base_url();

    let mut rng = Rng::new(SEED ^ 0xA5A5);
    let scratch = Scratch::new("score-diff");
    let mut files = Vec::new();
    let mut judged: HashMap<String, Option<[u8; 6]>> = HashMap::new();
    let mut candidate_count = 0;
    for (i, srv) in servers.iter().enumerate() {
        for t in &srv.tools {
            judged.insert(t.name.clone(), script_tool(&mut rng, t, &model));
        }
        candidate_count += script_coherence(&mut rng, srv, &model);
        let path = scratch.path(&format!("server-{i:02}.json"));
        let doc = json!({"serverName": srv.name, "tools": srv.tools.iter().map(|t| &t.json).collect::<Vec<_>>()});
        std::fs::write(&path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
        files.push(path);
    }

    // Ours first, then the reference: the recorded requests split at the boundary.
    let ours: Vec<Value> = files.iter().map(|f| run_ours(f, &base_url)).collect();
    let ours_time = started.elapsed();
    let ours_requests = model.requests();
    let theirs = run_reference(&py, &files, &base_url);
    let all = model.requests();
    let theirs_requests = &all[ours_requests.len()..];
    // SCORE_DIFF_DUMP=<dir> keeps both sides' reports for inspection.
    if let Some(dump) = std::env::var_os("SCORE_DIFF_DUMP") {
        let dump = PathBuf::from(dump);
        std::fs::create_dir_all(&dump).unwrap();
        for (i, (o, t)) in ours.iter().zip(&theirs).enumerate() {
            std::fs::write(dump.join(format!("{i:02}-ours.json")), serde_json::to_vec_pretty(o).unwrap()).unwrap();
            std::fs::write(dump.join(format!("{i:02}-reference.json")), serde_json::to_vec_pretty(t).unwrap()).unwrap();
        }
    }

    // --- The corpus covers what it claims to.
    let tools: Vec<&GenTool> = servers.iter().flat_map(|s| &s.tools).collect();
    let count = |k: Kind| tools.iter().filter(|t| t.kind == k).count();
    let taut_capped =
        tools.iter().filter(|t| t.kind == Kind::Tautological && judged[&t.name].is_some_and(|s| s[0] > 2)).count();
    let taut_low =
        tools.iter().filter(|t| t.kind == Kind::Tautological && judged[&t.name].is_some_and(|s| s[0] == 1)).count();
    assert!(tools.len() >= 250, "only {} tools", tools.len());
    assert!(count(Kind::NoDescription) >= 15 && count(Kind::Tautological) >= 25, "corpus lacks gated tools");
    assert!(taut_capped >= 8 && taut_low >= 4, "tautological cases: {taut_capped} capped, {taut_low} at 1");
    assert!(candidate_count >= 20, "only {candidate_count} shadow candidates");

    // --- Both sides asked the same things, with the key, deterministically.
    for (side, reqs) in [("ours", &ours_requests[..]), ("reference", theirs_requests)] {
        let expected = count(Kind::Described) + count(Kind::Tautological) + servers.len();
        assert_eq!(reqs.len(), expected, "{side}: one call per described tool and one per server, no retries");
        for r in reqs {
            assert_eq!(r.authorization.as_deref(), Some(format!("Bearer {KEY}").as_str()), "{side}");
            assert_eq!(r.body["temperature"], 0, "{side}");
            assert_eq!(r.body["response_format"], json!({"type": "json_object"}), "{side}");
            assert_eq!(r.body["model"], MODEL, "{side}");
        }
        let keys: BTreeSet<String> = reqs.iter().map(Recorded::key).collect();
        assert_eq!(keys.len(), reqs.len(), "{side}: each tool and server judged once");
        for t in &tools {
            let asked = keys.contains(&format!("TOOL NAME: {}", t.name));
            assert_eq!(asked, t.kind != Kind::NoDescription, "{side}: {}", t.name);
        }
    }
    let by_key =
        |reqs: &[Recorded]| -> HashMap<String, String> { reqs.iter().map(|r| (r.key(), user_message(r))).collect() };
    let (our_prompts, their_prompts) = (by_key(&ours_requests), by_key(theirs_requests));
    let mut diffs = Diffs::default();
    for (key, ours_msg) in &our_prompts {
        let theirs_msg = &their_prompts[key];
        if key.starts_with("SERVER NAME: ") {
            // The coherence template did not change between 1.2 and 1.3.
            d_eq_text(&mut diffs, key, ours_msg, theirs_msg);
        } else {
            d_eq_text(
                &mut diffs,
                key,
                &shared_prompt_parts(ours_msg).join("\n~\n"),
                &shared_prompt_parts(theirs_msg).join("\n~\n"),
            );
            assert!(ours_msg.contains("\n<output-schema>\n"), "1.3 shows the output schema");
            assert!(!ours_msg.contains("Has output schema"), "1.3 withholds hasOutputSchema");
        }
    }

    // --- The reports.
    let mut shadowed = 0;
    let mut confirmed = 0;
    for ((srv, o), t) in servers.iter().zip(&ours).zip(&theirs) {
        let at = srv.name.as_str();
        assert_eq!(o["specVersion"], "1.3");
        assert_eq!(t["specVersion"], "1.2");
        diffs.eq(&format!("{at}.model"), &o["model"], &t["model"]);
        diffs.eq(&format!("{at}.server"), &o["server"], &t["server"]);
        let (ot, tt) = (o["tools"].as_array().unwrap(), t["tools"].as_array().unwrap());
        assert_eq!(ot.len(), srv.tools.len(), "{at}: our tool count");
        assert_eq!(tt.len(), srv.tools.len(), "{at}: reference tool count");
        for ((g, a), b) in srv.tools.iter().zip(ot).zip(tt) {
            let expect = Expect { tool: g, judge_scores: judged[&g.name] };
            compare_tool(&mut diffs, &format!("{at}/{}", g.name), a, b, &expect);
            shadowed += usize::from(a["serverFlags"] == json!(["Shadowing Risk"]));
        }
        compare_server(&mut diffs, &format!("{at}.serverScore"), &o["serverScore"], &t["serverScore"]);
        confirmed += o["serverScore"]["shadowingRisks"].as_array().map_or(0, Vec::len);
    }
    assert!(confirmed >= 8 && shadowed == confirmed, "{confirmed} confirmed risks, {shadowed} flagged tools");
    eprintln!(
        "score_diff: {} servers, {} tools, {candidate_count} shadow candidates, {confirmed} confirmed; ours {:.1?}, total {:.1?}",
        servers.len(),
        tools.len(),
        ours_time,
        started.elapsed()
    );
    assert!(diffs.0.is_empty(), "{} differences from the reference:\n{}", diffs.0.len(), diffs.0.join("\n"));
}

fn d_eq_text(d: &mut Diffs, at: &str, ours: &str, theirs: &str) {
    if ours != theirs {
        d.0.push(format!("prompt for {at:?} differs:\n--- ours\n{ours}\n--- reference\n{theirs}"));
    }
}

// ---------------------------------------------------------------------------------------------
// The answer contract, case by case, against the reference client (one attempt each).

/// `(label, answer text, documented divergence as (ours accepts, reference accepts))`.
type Case = (&'static str, String, Option<(bool, bool)>);

fn edit(text: &str, f: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(text).unwrap();
    f(&mut v);
    v.to_string()
}

fn tool_cases() -> Vec<Case> {
    let v = model_server::tool_answer([4, 2, 2, 3, 4, 2], false, "summary");
    let score = |s: Value| edit(&v, |x| x["scores"]["behavioral_transparency"]["score"] = s);
    let top = |k: &str, s: Value| edit(&v, |x| x[k] = s);
    let drop_top = |k: &str| edit(&v, |x| drop(x.as_object_mut().unwrap().remove(k)));
    vec![
        ("plain", v.clone(), None),
        ("fenced json", format!("```json\n{v}\n```"), None),
        ("fenced bare", format!("```\n{v}\n```"), None),
        ("fenced padded", format!(" \n```json\n{v}\n```\n "), None),
        ("score 4.0", score(json!(4.0)), None),
        ("extra top-level key", top("confidence", json!(0.9)), None),
        ("extra dimension", edit(&v, |x| x["scores"]["extra"] = json!({"score": 9})), None),
        ("extra field in a dimension", edit(&v, |x| x["scores"]["purpose_clarity"]["why"] = json!("x")), None),
        ("score as string", score(json!("4")), None),
        ("score 0", score(json!(0)), None),
        ("score 6", score(json!(6)), None),
        ("score 4.5", score(json!(4.5)), None),
        ("score null", score(Value::Null), None),
        (
            "dimension missing",
            edit(&v, |x| drop(x["scores"].as_object_mut().unwrap().remove("contextual_completeness"))),
            None,
        ),
        ("dimension as bare number", edit(&v, |x| x["scores"]["usage_guidelines"] = json!(3)), None),
        ("justification not a string", edit(&v, |x| x["scores"]["purpose_clarity"]["justification"] = json!(5)), None),
        ("camelCase dimension keys", v.replace("purpose_clarity", "purposeClarity"), None),
        ("summary missing", drop_top("summary"), None),
        ("summary null", top("summary", Value::Null), None),
        ("summary a number", top("summary", json!(3)), None),
        ("contradiction missing", drop_top("annotation_contradiction"), None),
        ("contradiction null", top("annotation_contradiction", Value::Null), None),
        ("scores not an object", top("scores", json!([4, 2, 2, 3, 4, 2])), None),
        ("not JSON", "Sure! {scores: great}".into(), None),
        ("an array", format!("[{v}]"), None),
        ("prose before the JSON", format!("Here you go:\n{v}"), None),
        ("trailing comma", format!("{},}}", &v[..v.len() - 1]), None),
        // Documented divergences: the reference validates with pydantic's lax mode and a
        // fence regex; ours takes JSON types literally and strips fences its own way.
        ("score true", score(json!(true)), Some((false, true))),
        ("contradiction \"true\"", top("annotation_contradiction", json!("true")), Some((false, true))),
        ("contradiction 1", top("annotation_contradiction", json!(1)), Some((false, true))),
        ("fence info JSON", format!("```JSON\n{v}\n```"), Some((true, false))),
        ("fence without newline", format!("```json{v}```"), None),
        ("two nested fences", format!("```json\n```json\n{v}\n```\n```"), None),
    ]
}

fn coherence_cases() -> Vec<Case> {
    let risk = ("a".to_owned(), "b".to_owned(), "why".to_owned());
    let v = coherence_answer([4, 3, 5, 2], &[risk], "summary");
    let risks = |r: Value| edit(&v, |x| x["shadowing_risks"] = r);
    vec![
        ("plain", v.clone(), None),
        ("risks missing", edit(&v, |x| drop(x.as_object_mut().unwrap().remove("shadowing_risks"))), None),
        ("risks empty", risks(json!([])), None),
        (
            "risk with extra field",
            risks(json!([{"tool": "a", "cheaper_sibling": "b", "justification": "j", "x": 1}])),
            None,
        ),
        ("risk without justification", risks(json!([{"tool": "a", "cheaper_sibling": "b"}])), None),
        ("risk tool a number", risks(json!([{"tool": 1, "cheaper_sibling": "b", "justification": "j"}])), None),
        ("risks an object", risks(json!({"tool": "a"})), None),
        ("dimension missing", edit(&v, |x| drop(x["scores"].as_object_mut().unwrap().remove("completeness"))), None),
        ("summary missing", edit(&v, |x| drop(x.as_object_mut().unwrap().remove("summary"))), None),
        ("risks null", risks(Value::Null), Some((true, false))),
    ]
}

/// Our judgement in the reference's `model_dump` shape, for comparing accepted answers.
fn tool_dump(j: &tdqs_gateway::tdqs::answer::ToolJudgement) -> Value {
    let scores: Map<String, Value> = TOOL_DIMENSIONS
        .iter()
        .zip(&j.dimensions)
        .map(|(k, d)| ((*k).to_owned(), json!({"score": d.score, "justification": d.justification})))
        .collect();
    json!({"scores": scores, "annotation_contradiction": j.annotation_contradiction, "summary": j.summary})
}

fn coherence_dump(j: &tdqs_gateway::tdqs::answer::CoherenceJudgement) -> Value {
    let scores: Map<String, Value> = model_server::COHERENCE_DIMENSIONS
        .iter()
        .zip(&j.dimensions)
        .map(|(k, d)| ((*k).to_owned(), json!({"score": d.score, "justification": d.justification})))
        .collect();
    let risks: Vec<Value> = j
        .shadowing_risks
        .iter()
        .map(|r| json!({"tool": r.tool, "cheaper_sibling": r.cheaper_sibling, "justification": r.justification}))
        .collect();
    json!({"scores": scores, "shadowing_risks": risks, "summary": j.summary})
}

#[test]
fn answer_contract_matches_the_reference() {
    use tdqs_gateway::judge::{ModelClient, ModelSettings};
    use tdqs_gateway::tdqs::answer::{parse_coherence_answer, parse_tool_answer};

    let py = reference_python();
    let model = ModelServer::start();
    let mut settings = ModelSettings::new(model.base_url(), MODEL);
    settings.api_key = Some(KEY.to_owned());
    settings.max_attempts = 1;
    let client = ModelClient::new(settings).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/score_contract.py");

    let mut problems = Vec::new();
    for (kind, cases) in [("tool", tool_cases()), ("coherence", coherence_cases())] {
        let prefix = if kind == "tool" { "TOOL NAME" } else { "SERVER NAME" };
        let keys: Vec<String> = (0..cases.len()).map(|i| format!("{prefix}: case_{i}")).collect();
        for (key, (_, text, _)) in keys.iter().zip(&cases) {
            // One answer for our attempt, one for the reference's.
            model.push_for(
                key,
                [model_server::Behaviour::Content(text.clone()), model_server::Behaviour::Content(text.clone())],
            );
        }
        let ours: Vec<Result<Value, String>> = keys
            .iter()
            .map(|key| {
                let user = format!("{key}\nRespond with JSON only.");
                runtime
                    .block_on(async {
                        if kind == "tool" {
                            client.complete("contract probe", &user, parse_tool_answer).await.map(|j| tool_dump(&j))
                        } else {
                            client
                                .complete("contract probe", &user, parse_coherence_answer)
                                .await
                                .map(|j| coherence_dump(&j))
                        }
                    })
                    .map_err(|e| e.to_string())
            })
            .collect();
        let out = Command::new(&py)
            .arg(&script)
            .args([&model.base_url(), MODEL, KEY, kind])
            .args(&keys)
            .output()
            .expect("run the reference contract probe");
        assert!(out.status.success(), "reference probe failed: {}", String::from_utf8_lossy(&out.stderr));
        let theirs: Vec<Value> = serde_json::from_slice(&out.stdout).expect("probe output is JSON");
        for (((label, _, divergence), o), t) in cases.iter().zip(&ours).zip(&theirs) {
            let (ours_ok, theirs_ok) = (o.is_ok(), t["ok"] == true);
            let expected = divergence.unwrap_or((theirs_ok, theirs_ok));
            if (ours_ok, theirs_ok) != expected {
                problems.push(format!(
                    "{kind} answer {label:?}: ours accepts={ours_ok} ({o:?}), reference accepts={theirs_ok} ({}), documented {expected:?}",
                    t.get("error").unwrap_or(&Value::Null)
                ));
            }
            if let (Ok(ov), true) = (o, theirs_ok)
                && *ov != t["value"]
            {
                problems
                    .push(format!("{kind} answer {label:?} read differently:\n ours {ov}\n reference {}", t["value"]));
            }
        }
    }
    assert_eq!(model.unused(), 0, "every scripted answer was asked for once per side");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
