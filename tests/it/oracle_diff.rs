//! Differential test against the reference implementation (`tdqs==0.1.0` from PyPI, used as a
//! test oracle only). A seeded generator writes a corpus of tool-definition documents as raw
//! JSON text; one Python process lints the whole corpus with the reference; our engine lints
//! the same text; every deterministic output must agree byte for byte:
//!
//! - refusal: a document one side refuses, the other must refuse too (messages differ);
//! - the parsed `serverName`;
//! - per tool: the name, all 16 context signals (`inputHash`, `definitionBytes`,
//!   `annotationValues`, ...), the flags, and the findings (rule, severity, tool) in order;
//! - the server's findings in order and its shadow candidates (tool, invocationCost,
//!   cheaperSibling, cheaperSiblingInvocationCost) in order.
//!
//! Setup: `scripts/oracle-venv.sh` (or `TDQS_ORACLE_PYTHON=/path/to/python`).
//! Knobs: `TDQS_DIFF_SEED` (decimal or 0x-hex), `TDQS_DIFF_TOOLS` (default 6000), and
//! `TDQS_DIFF_CORPUS=file.jsonl` to replay a corpus of your own (one document per line; the
//! coverage check is skipped then). The corpus, the reference's answers, the differences and
//! the coverage counts are written to `target/oracle-diff/`.
//!
//! Long: one differential test; the comparison of each output field sits beside the reading of both
//! sides' outputs.

use crate::support::oracle as support;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use support::corpus::{self, Server, Tags};
use tdqs_gateway::tdqs::canonical::{to_sorted_compact, write_string};
use tdqs_gateway::tdqs::definition::{ParsedTools, parse_tools};
use tdqs_gateway::tdqs::json::{self, JsString, JsValue};
use tdqs_gateway::tdqs::lint::{LintFinding, ServerLint, lint_tools};
use tdqs_gateway::tdqs::signals::canonical_definition;

const DEFAULT_SEED: u64 = 0x7D95_2026;
const DEFAULT_TOOLS: u64 = 6000;
/// How many differing documents the failure message shows in full.
const SHOWN: usize = 10;

/// The context signals the reference reports, all of which must match.
const SIGNALS: [&str; 16] = [
    "annotationValues",
    "definitionBytes",
    "hasAnnotations",
    "hasNestedObjects",
    "hasOutputSchema",
    "inputHash",
    "invocationCost",
    "paramCount",
    "paramsWithDescriptions",
    "paramsWithEnums",
    "requiredFieldCount",
    "requiredParamCount",
    "schemaDepth",
    "schemaDescriptionCoverage",
    "titleIsMeaningful",
    "unionChoiceCount",
];

/// Every coverage category the default corpus must reach at least once: generator tags (per
/// tool or per document) and outcomes observed in the results.
const REQUIRED_COVERAGE: &[&str] = &[
    // strings and their encodings
    "string: astral character",
    "string: BMP non-ASCII",
    "string: control character",
    "string: U+0000",
    "string: lone high surrogate",
    "string: lone low surrogate",
    "string: reversed surrogate pair",
    "string: quote, backslash or slash",
    "escape: two-character",
    "escape: \\u00XX",
    "escape: lone surrogate",
    "escape: surrogate pair",
    "escape: BMP character",
    "escape: uppercase hex",
    "raw: astral UTF-8",
    "raw: BMP non-ASCII UTF-8",
    "json: insignificant whitespace",
    "json: whitespace around the document",
    "escape: ASCII character",
    // names, titles, descriptions
    "name: non-ASCII",
    "name: UTF-16 ordering suffix",
    "name: padded with whitespace",
    "name: control character",
    "name: dotted capital I",
    "name: Kelvin sign",
    "name: lone surrogate",
    "title: absent",
    "title: null",
    "title: equal to name",
    "title: longer only in UTF-16 units",
    "title: longer in code points only",
    "title: shorter",
    "title: equal length",
    "title: case variant of name",
    "title: human phrase",
    "title: padded name",
    "title: prose",
    "description: absent",
    "description: null",
    "description: empty",
    "description: JavaScript whitespace only",
    "description: other whitespace only",
    "description: restates the name",
    "description: restates the title",
    "description: name padded with other whitespace",
    "tautology: Kelvin sign",
    "tautology: tricky case mapping",
    // numbers and keys
    "number: float overflow",
    "number: negative zero",
    "number: subnormal",
    "number: underflow to zero",
    "number: integer beyond 2^53",
    "number: exponent",
    "number: fraction",
    "number: small integer",
    "number: largest double as a 309-digit integer",
    "key: integer-like",
    "key: UTF-16 vs code point order",
    "key: lone surrogate",
    "key: duplicate in one object",
    "key: duplicate property",
    // schemas
    "inputSchema: absent",
    "inputSchema: null",
    "inputSchema: {}",
    "properties: empty object",
    "properties: array",
    "properties: string",
    "property: not an object",
    "required: absent",
    "required: a string",
    "required: duplicates",
    "required: non-strings",
    "required: names missing from properties",
    "param description: empty",
    "param description: whitespace only",
    "param description: not a string",
    "param description: lone surrogate",
    "enum: array",
    "enum: empty array",
    "enum: not an array",
    "type: [\"object\"]",
    "type: not object on the root",
    "items: object",
    "items: array",
    "allOf",
    "not",
    "union: oneOf",
    "union: anyOf",
    "union: oneOf and anyOf together",
    "union: {\"type\":\"null\"} branch",
    "union: {\"type\":[\"null\"]} branch",
    "union: [\"null\",\"null\"] branch",
    "union: non-object branch",
    "union: empty array",
    "union: not an array",
    "schema: chain of 8..14 levels",
    "schema: depth beyond 10",
    "$ref: into $defs",
    "$ref: into definitions",
    "$ref: percent-encoded name",
    "$ref: %2F",
    "$ref: percent-encoded UTF-8",
    "$ref: invalid percent escape",
    "$ref: name containing /",
    "$ref: JSON pointer escapes",
    "$ref: missing target",
    "$ref: external or not into $defs",
    "$ref: not a string",
    "$ref: lone surrogate",
    "$ref: on the root",
    "$ref: recursive definition",
    "$ref: chain of references",
    "$ref: with sibling keywords",
    "$defs: name with a lone surrogate",
    // other fields
    "outputSchema: absent",
    "outputSchema: null",
    "outputSchema: {}",
    "outputSchema: non-empty",
    "annotations: absent",
    "annotations: null",
    "annotations: {}",
    "annotations: unknown keys only",
    "annotations: hint as the string \"true\"",
    "annotations: hint as a number",
    "annotations: hint null",
    "tool: extra fields (_meta, icons, execution)",
    "tool: duplicate key (last wins)",
    "server: cost tie among cheap siblings",
    // documents
    "shape: tools/list result",
    "shape: bare array",
    "shape: single tool",
    "shape: single tool with a non-array tools field",
    "serverName: absent",
    "serverName: plain",
    "serverName: empty",
    "serverName: padded with JavaScript whitespace",
    "serverName: padded with other whitespace",
    "serverName: whitespace only",
    "serverName: other whitespace only",
    "serverName: not a string",
    "serverName: unicode",
    "serverName: BOM or zero-width",
    "invalid: duplicate names",
    "invalid: tool is not an object",
    "invalid: name empty",
    "invalid: name missing",
    "invalid: name not a string",
    "invalid: description not a string",
    "invalid: title not a string",
    "invalid: inputSchema is an array",
    "invalid: outputSchema not an object",
    "invalid: annotations is a string",
    "invalid: empty tools list",
    "invalid: NaN or Infinity literal",
    "invalid: JSON syntax",
    "invalid: not a tools document",
    "invalid: name with a lone surrogate",
    "special: 500 tools (the limit)",
    "special: 501 tools",
    "special: integer literal beyond the double range in inputSchema",
    "special: negative integer literal beyond the double range in outputSchema",
    "special: integer literal beyond the double range in annotations",
    "special: 309-digit integer halfway to 2^1024 (rounds to infinity)",
    "special: 309-digit integer just below halfway (rounds to the largest double)",
    "special: NaN literal",
    "special: -Infinity literal",
    "special: integer literal beyond the double range in _meta (not an input)",
    // outcomes
    "outcome: document refused by both",
    "outcome: tool compared",
    "outcome: shadow candidate",
    "outcome: shadow candidate at twice the sibling's cost",
    "outcome: shadow candidate at the sibling's cost plus 4",
    "outcome: shadow candidate chosen among equally cheap siblings",
    "outcome: shadow tie where UTF-16 and code point order disagree",
    "outcome: flag No Description",
    "outcome: flag Tautological Description",
    "outcome: titleIsMeaningful",
    "outcome: schemaDepth at the cap (10)",
    "outcome: unionChoiceCount > 0",
    "outcome: hasNestedObjects",
    "outcome: paramsWithEnums > 0",
    "outcome: undocumented-parameters warning",
    "outcome: undocumented-parameters info",
    "outcome: schemaDescriptionCoverage rounded from a half",
    "outcome: missing-annotations",
    "outcome: all four annotation values set",
    "outcome: definitionBytes > 2000",
    "outcome: serverName parsed",
];

/// One side's result for a document.
enum Outcome {
    Refused(String),
    Linted(Box<(ParsedTools, ServerLint)>),
}

fn ours(text: &str) -> Outcome {
    let doc = match json::parse(text.as_bytes()) {
        Ok(v) => v,
        Err(e) => return Outcome::Refused(format!("JSON: {e}")),
    };
    match parse_tools(&doc) {
        Ok(parsed) => {
            let lint = lint_tools(&parsed.tools);
            Outcome::Linted(Box::new((parsed, lint)))
        }
        Err(e) => Outcome::Refused(e.to_string()),
    }
}

/// Canonical JSON text with every character that is not visible spelled `\u{..}`, so a
/// difference in whitespace or format characters can be read off a failure message.
fn visible(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' || (c.is_alphanumeric() && !c.is_ascii()) {
                c.to_string()
            } else {
                format!("\\u{{{:04X}}}", c as u32)
            }
        })
        .collect()
}

/// A JavaScript string shown as JSON text (lone surrogates as escapes).
fn show_js(s: &JsString) -> String {
    let mut out = Vec::new();
    write_string(&mut out, s);
    visible(&out)
}

fn show(v: &JsValue) -> String {
    visible(&to_sorted_compact(v))
}

fn show_opt(v: Option<&JsValue>) -> String {
    v.map_or_else(|| "(missing)".to_string(), show)
}

/// Our serializable values, read back as `JsValue`s to compare with the reference's.
fn to_js<T: serde::Serialize>(v: &T) -> JsValue {
    let bytes = serde_json::to_vec(v).expect("serializable");
    json::parse(&bytes).expect("serde_json writes JSON")
}

/// Where two canonical texts first differ, with some context on both sides.
fn first_difference(ours: &[u8], theirs: Option<&[u8]>) -> String {
    let Some(theirs) = theirs else {
        return "the reference's canonical text is missing".to_string();
    };
    let at = ours.iter().zip(theirs).position(|(a, b)| a != b).unwrap_or(ours.len().min(theirs.len()));
    let window = |s: &[u8]| -> String {
        // Widen to character boundaries (both texts are UTF-8: lone surrogates are escaped).
        let continuation = |i: usize| i < s.len() && s[i] & 0xC0 == 0x80;
        let mut from = at.saturating_sub(50);
        while continuation(from) {
            from -= 1;
        }
        let mut to = (at + 50).min(s.len());
        while continuation(to) {
            to += 1;
        }
        format!("...{}...", visible(&s[from..to]))
    };
    format!(
        "first difference at byte {at} (lengths {} and {}): ours {}, oracle {}",
        ours.len(),
        theirs.len(),
        window(ours),
        window(theirs)
    )
}

fn same(a: Option<&JsValue>, b: Option<&JsValue>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => to_sorted_compact(a) == to_sorted_compact(b),
        _ => false,
    }
}

type Triple = (String, String, JsString);

fn our_triples(findings: &[std::sync::Arc<LintFinding>]) -> Vec<Triple> {
    findings.iter().map(|f| (f.rule.as_str().to_string(), f.severity.as_str().to_string(), f.tool.clone())).collect()
}

fn oracle_triples(v: Option<&JsValue>) -> Option<Vec<Triple>> {
    v?.as_array()?
        .iter()
        .map(|f| {
            let o = f.as_object()?;
            let s = |k: &str| o.get(k).and_then(JsValue::as_str).cloned();
            Some((s("rule")?.to_string(), s("severity")?.to_string(), s("tool")?))
        })
        .collect()
}

fn show_triples(t: &[Triple]) -> String {
    let items: Vec<String> = t.iter().map(|(r, s, tool)| format!("{r}/{s}/{}", show_js(tool))).collect();
    format!("[{}]", items.join(", "))
}

/// Differences found in one document, as (kind, detail) pairs.
#[derive(Default)]
struct Diffs(Vec<(String, String)>);

impl Diffs {
    fn add(&mut self, kind: &str, detail: String) {
        self.0.push((kind.to_string(), detail));
    }
}

fn compare_findings(
    diffs: &mut Diffs,
    kind: &str,
    at: &str,
    ours: &[std::sync::Arc<LintFinding>],
    o: Option<&JsValue>,
) {
    let ours = our_triples(ours);
    match oracle_triples(o) {
        None => diffs.add(kind, format!("{at}: the reference's findings are unreadable: {}", show_opt(o))),
        Some(theirs) if theirs != ours => {
            diffs.add(kind, format!("{at}: ours {}, oracle {}", show_triples(&ours), show_triples(&theirs)))
        }
        Some(_) => {}
    }
}

/// Compares one document's results; records outcome counts from ours when both linted.
fn compare(ours: &Outcome, oracle: &JsValue, diffs: &mut Diffs, counts: &mut BTreeMap<String, usize>) {
    let o = oracle.as_object().expect("the helper writes objects");
    let (parsed, lint) = match (ours, o.get("ok"), o.get("error")) {
        (Outcome::Refused(_), None, _) => {
            *counts.entry("outcome: document refused by both".into()).or_default() += 1;
            return;
        }
        (Outcome::Refused(msg), Some(_), _) => {
            diffs.add("refusal: we refused, the reference accepted", format!("ours: {msg}"));
            return;
        }
        (Outcome::Linted(_), None, err) => {
            diffs.add("refusal: the reference refused, we accepted", format!("oracle: {}", show_opt(err)));
            return;
        }
        (Outcome::Linted(b), Some(_), _) => (&b.0, &b.1),
    };
    let report = o.get("ok").and_then(JsValue::as_object).expect("report object");

    let our_name = parsed.server_name.as_ref().map(|s| JsValue::String(s.clone()));
    let their_name = o.get("serverName").cloned();
    let our_name = our_name.unwrap_or(JsValue::Null);
    if !same(Some(&our_name), their_name.as_ref()) {
        diffs.add("serverName", format!("ours {}, oracle {}", show(&our_name), show_opt(their_name.as_ref())));
    }
    if parsed.server_name.is_some() {
        *counts.entry("outcome: serverName parsed".into()).or_default() += 1;
    }

    let empty = Vec::new();
    let their_canonical = o.get("canonical").and_then(JsValue::as_array).unwrap_or(&empty);
    let their_tools = report.get("tools").and_then(JsValue::as_array).unwrap_or(&empty);
    if their_tools.len() != lint.tools.len() {
        diffs.add("tool count", format!("ours {}, oracle {}", lint.tools.len(), their_tools.len()));
    }
    for (i, (t, theirs)) in lint.tools.iter().zip(their_tools).enumerate() {
        *counts.entry("outcome: tool compared".into()).or_default() += 1;
        let at = format!("tools[{i}] {}", show_js(&t.name));
        let Some(theirs) = theirs.as_object() else {
            diffs.add("tool", format!("{at}: the reference's tool is not an object"));
            continue;
        };
        let their_tool_name = theirs.get("name").and_then(JsValue::as_str);
        if their_tool_name != Some(&t.name) {
            diffs.add("name", format!("{at}: oracle {}", show_opt(theirs.get("name"))));
        }
        let our_sig = to_js(&t.context_signals);
        let our_sig = our_sig.as_object().expect("signals object");
        let their_sig = theirs.get("contextSignals").and_then(JsValue::as_object);
        match their_sig {
            None => diffs.add("contextSignals", format!("{at}: missing in the reference")),
            Some(their_sig) => {
                for key in SIGNALS {
                    let (a, b) = (our_sig.get(key), their_sig.get(key));
                    if !same(a, b) {
                        diffs.add(
                            &format!("contextSignals.{key}"),
                            format!("{at}: ours {}, oracle {}", show_opt(a), show_opt(b)),
                        );
                    }
                }
                for (side, sig) in [("ours", our_sig), ("oracle", their_sig)] {
                    let extra: Vec<String> =
                        sig.iter().map(|(k, _)| k.to_string()).filter(|k| !SIGNALS.contains(&k.as_str())).collect();
                    if !extra.is_empty() {
                        diffs.add("contextSignals (field set)", format!("{at}: {side} has extra fields {extra:?}"));
                    }
                }
            }
        }
        // Where the canonical texts part, whenever the hash or the length differs.
        let hash_differs = diffs.0.iter().any(|(k, d)| {
            (k == "contextSignals.inputHash" || k == "contextSignals.definitionBytes") && d.starts_with(&at)
        });
        if hash_differs {
            let ours = canonical_definition(&parsed.tools[i]);
            let theirs = their_canonical.get(i).and_then(JsValue::as_str).map(|s| s.as_bytes().to_vec());
            diffs.add("canonical text", format!("{at}: {}", first_difference(&ours, theirs.as_deref())));
        }
        let our_flags = to_js(&t.flags);
        if !same(Some(&our_flags), theirs.get("flags")) {
            diffs.add("flags", format!("{at}: ours {}, oracle {}", show(&our_flags), show_opt(theirs.get("flags"))));
        }
        compare_findings(diffs, "tool findings", &at, &t.findings, theirs.get("findings"));

        // Outcome counts, from our side (equal to the reference's unless a difference was
        // recorded above).
        let s = &t.context_signals;
        let mut count = |k: &str, yes: bool| {
            if yes {
                *counts.entry(k.to_string()).or_default() += 1;
            }
        };
        let flags = show(&our_flags);
        count("outcome: flag No Description", flags.contains("No Description"));
        count("outcome: flag Tautological Description", flags.contains("Tautological Description"));
        count("outcome: titleIsMeaningful", s.title_is_meaningful);
        count("outcome: schemaDepth at the cap (10)", s.schema_depth == 10);
        count("outcome: unionChoiceCount > 0", s.union_choice_count > 0);
        count("outcome: hasNestedObjects", s.has_nested_objects);
        count("outcome: paramsWithEnums > 0", s.params_with_enums > 0);
        count("outcome: definitionBytes > 2000", s.definition_bytes > 2000);
        let (p, n) = (s.params_with_descriptions as u64, s.param_count as u64);
        count("outcome: schemaDescriptionCoverage rounded from a half", n > 0 && (200 * p) % (2 * n) == n);
        let a = s.annotation_values;
        count(
            "outcome: all four annotation values set",
            a.read_only.is_some() && a.destructive.is_some() && a.idempotent.is_some() && a.open_world.is_some(),
        );
        for f in &t.findings {
            match f.rule.as_str() {
                "undocumented-parameters" => {
                    count(&format!("outcome: undocumented-parameters {}", f.severity.as_str()), true)
                }
                "missing-annotations" => count("outcome: missing-annotations", true),
                _ => {}
            }
        }
    }

    compare_findings(diffs, "server findings", "findings", &lint.findings, report.get("findings"));

    let ours_sc: Vec<(JsString, u32, JsString, u32)> = lint
        .shadow_candidates
        .iter()
        .map(|c| (c.tool.clone(), c.invocation_cost, c.cheaper_sibling.clone(), c.cheaper_sibling_invocation_cost))
        .collect();
    let theirs_sc: Option<Vec<(JsString, u32, JsString, u32)>> =
        report.get("shadowCandidates").and_then(JsValue::as_array).and_then(|a| {
            a.iter()
                .map(|c| {
                    let c = c.as_object()?;
                    let s = |k: &str| c.get(k).and_then(JsValue::as_str).cloned();
                    let n = |k: &str| match c.get(k) {
                        Some(JsValue::Number(n)) if *n >= 0.0 && n.fract() == 0.0 => Some(*n as u32),
                        _ => None,
                    };
                    Some((s("tool")?, n("invocationCost")?, s("cheaperSibling")?, n("cheaperSiblingInvocationCost")?))
                })
                .collect()
        });
    let show_sc = |v: &[(JsString, u32, JsString, u32)]| -> String {
        let items: Vec<String> =
            v.iter().map(|(t, c, s, sc)| format!("{} ({c}) <- {} ({sc})", show_js(t), show_js(s))).collect();
        format!("[{}]", items.join(", "))
    };
    match theirs_sc {
        None => diffs.add(
            "shadowCandidates",
            format!("unreadable in the reference: {}", show_opt(report.get("shadowCandidates"))),
        ),
        Some(theirs) if theirs != ours_sc => {
            diffs.add("shadowCandidates", format!("ours {}, oracle {}", show_sc(&ours_sc), show_sc(&theirs)))
        }
        Some(_) => {}
    }

    // Shadow outcome counts: candidates, ties, and ties decided by UTF-16 order.
    let costs: Vec<(&JsString, u32)> =
        lint.tools.iter().map(|t| (&t.name, t.context_signals.invocation_cost)).collect();
    for c in &lint.shadow_candidates {
        *counts.entry("outcome: shadow candidate".into()).or_default() += 1;
        let (dear, cheap) = (c.invocation_cost, c.cheaper_sibling_invocation_cost);
        if dear == 2 * cheap {
            *counts.entry("outcome: shadow candidate at twice the sibling's cost".into()).or_default() += 1;
        }
        if dear == cheap + 4 {
            *counts.entry("outcome: shadow candidate at the sibling's cost plus 4".into()).or_default() += 1;
        }
        let tied: Vec<&JsString> = costs
            .iter()
            .filter(|(n, cost)| *cost == c.cheaper_sibling_invocation_cost && **n != c.tool)
            .map(|(n, _)| *n)
            .collect();
        if tied.len() > 1 {
            *counts.entry("outcome: shadow candidate chosen among equally cheap siblings".into()).or_default() += 1;
            let by_code_point = tied.iter().min_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
            if by_code_point != Some(&&c.cheaper_sibling) {
                *counts.entry("outcome: shadow tie where UTF-16 and code point order disagree".into()).or_default() +=
                    1;
            }
        }
    }
}

fn read_corpus(path: &Path) -> Vec<Server> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.split('\n')
        .filter(|l| !l.is_empty())
        .map(|l| Server {
            text: l.to_string(),
            tool_count: 0,
            meant_invalid: None,
            tool_tags: Vec::new(),
            tags: Tags::new(),
        })
        .collect()
}

#[test]
fn engine_matches_the_reference_on_a_generated_corpus() {
    let python = support::oracle_python();
    let seed = support::env_number("TDQS_DIFF_SEED").unwrap_or(DEFAULT_SEED);
    let want = support::env_number("TDQS_DIFF_TOOLS").unwrap_or(DEFAULT_TOOLS) as usize;
    let replay = std::env::var_os("TDQS_DIFF_CORPUS");
    let out_dir = support::target_dir().join("oracle-diff");
    std::fs::create_dir_all(&out_dir).expect("create target/oracle-diff");

    let started = Instant::now();
    let servers = match &replay {
        Some(path) => read_corpus(Path::new(path)),
        None => corpus::generate(seed, want),
    };
    let generated = started.elapsed();
    let corpus_path = out_dir.join("corpus.jsonl");
    let oracle_path = out_dir.join("oracle.jsonl");
    let mut corpus = String::new();
    for s in &servers {
        assert!(!s.text.contains('\n'), "a corpus line holds a raw newline");
        corpus.push_str(&s.text);
        corpus.push('\n');
    }
    std::fs::write(&corpus_path, &corpus).expect("write the corpus");

    let t = Instant::now();
    let script = support::repo_root().join("tests/oracle/lint_corpus.py");
    let run = Command::new(&python)
        .arg(&script)
        .arg(&corpus_path)
        .arg(&oracle_path)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", python.display()));
    assert!(
        run.status.success(),
        "the reference run failed ({}):\n{}\nIf tdqs is missing, run scripts/oracle-venv.sh.",
        run.status,
        String::from_utf8_lossy(&run.stderr)
    );
    let oracle_time = t.elapsed();
    let oracle_text = std::fs::read_to_string(&oracle_path).expect("read the reference's output");
    let oracle_lines: Vec<&str> = oracle_text.split('\n').filter(|l| !l.is_empty()).collect();
    assert_eq!(
        oracle_lines.len(),
        servers.len(),
        "the reference answered {} of {} documents",
        oracle_lines.len(),
        servers.len()
    );

    let t = Instant::now();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut differing: Vec<(usize, Diffs)> = Vec::new();
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut meant_invalid_but_accepted = Vec::new();
    let mut meant_valid_but_refused = Vec::new();
    for (i, (server, line)) in servers.iter().zip(&oracle_lines).enumerate() {
        let oracle =
            json::parse(line.as_bytes()).unwrap_or_else(|e| panic!("the reference's line {} is not JSON: {e}", i + 1));
        let ours = ours(&server.text);
        let mut diffs = Diffs::default();
        compare(&ours, &oracle, &mut diffs, &mut counts);
        let oracle_refused = oracle.as_object().and_then(|o| o.get("error")).is_some();
        match (server.meant_invalid, oracle_refused) {
            (Some(kind), false) => meant_invalid_but_accepted.push(format!("line {}: {kind}", i + 1)),
            (None, true) => meant_valid_but_refused.push(format!(
                "line {}: {}",
                i + 1,
                show_opt(oracle.as_object().and_then(|o| o.get("error")))
            )),
            _ => {}
        }
        for tags in &server.tool_tags {
            for t in tags {
                *counts.entry(t.to_string()).or_default() += 1;
            }
        }
        for t in &server.tags {
            *counts.entry(t.to_string()).or_default() += 1;
        }
        if !diffs.0.is_empty() {
            let mut seen = std::collections::BTreeSet::new();
            for (k, _) in &diffs.0 {
                if seen.insert(k.clone()) {
                    *kinds.entry(k.clone()).or_default() += 1;
                }
            }
            differing.push((i, diffs));
        }
    }
    let compare_time = t.elapsed();

    // The full record, for inspection.
    let mut report = String::new();
    for (i, diffs) in &differing {
        let _ = writeln!(report, "=== line {} ===", i + 1);
        for (k, d) in &diffs.0 {
            let _ = writeln!(report, "{k}: {d}");
        }
        let _ = writeln!(report, "{}", servers[*i].text);
    }
    std::fs::write(out_dir.join("diff.txt"), &report).expect("write diff.txt");

    let mut coverage = String::new();
    let compared = counts.get("outcome: tool compared").copied().unwrap_or(0);
    let _ = writeln!(coverage, "documents {}, tools compared {compared}, seed {seed:#x}", servers.len());
    for (k, v) in &counts {
        let _ = writeln!(coverage, "{v:>7}  {k}");
    }
    std::fs::write(out_dir.join("coverage.txt"), &coverage).expect("write coverage.txt");
    println!("{coverage}");
    println!("timing: generate {generated:.2?}, reference {oracle_time:.2?}, ours + compare {compare_time:.2?}");

    if replay.is_none() {
        assert!(
            meant_invalid_but_accepted.is_empty(),
            "generator bug: documents meant to be invalid that the reference accepted:\n{}",
            meant_invalid_but_accepted.join("\n")
        );
        assert!(
            meant_valid_but_refused.is_empty(),
            "generator bug: documents meant to be valid that the reference refused:\n{}",
            meant_valid_but_refused.join("\n")
        );
        let whitespace = corpus::JS_WS.iter().chain(corpus::NON_JS_WS).map(|(_, tag)| *tag);
        let missing: Vec<&str> = REQUIRED_COVERAGE
            .iter()
            .copied()
            .chain(whitespace)
            .filter(|k| counts.get(*k).copied().unwrap_or(0) == 0)
            .collect();
        assert!(
            missing.is_empty(),
            "coverage shrank: no generated tool or document reached {missing:#?} (seed {seed:#x}, {want} tools)"
        );
        assert!(
            compared >= want || !differing.is_empty(),
            "only {compared} tools were compared, fewer than the {want} asked for"
        );
    }

    if !differing.is_empty() {
        let mut msg = format!(
            "{} of {} documents differ from the reference (seed {seed:#x}); all of them are in {}\n\ndocuments per kind of difference:\n",
            differing.len(),
            servers.len(),
            out_dir.join("diff.txt").display()
        );
        for (k, n) in &kinds {
            let _ = writeln!(msg, "{n:>7}  {k}");
        }
        for (i, diffs) in differing.iter().take(SHOWN) {
            let _ = writeln!(msg, "\n--- corpus line {} ---", i + 1);
            for (k, d) in diffs.0.iter().take(12) {
                let _ = writeln!(msg, "{k}: {d}");
            }
            if diffs.0.len() > 12 {
                let _ = writeln!(msg, "... and {} more", diffs.0.len() - 12);
            }
            let text = &servers[*i].text;
            if text.len() > 6000 {
                let cut = (0..=6000).rev().find(|&n| text.is_char_boundary(n)).unwrap_or(0);
                let _ = writeln!(msg, "document (first 6000 bytes): {}", &text[..cut]);
            } else {
                let _ = writeln!(msg, "document: {text}");
            }
        }
        panic!("{msg}");
    }
}
