//! The TDQS calibration facts as unit tests (get_calls A, update_drive C, process D after the
//! tautology cap, create_record contradicts readOnlyHint), plus contradiction, coherence and
//! answer-contract checks of the heuristic judge.

use super::*;
use crate::answer::CoherenceDimension;
use crate::cost::invocation_cost;
use crate::definition::parse_tools;
use crate::gates::evaluate_gates;
use crate::json::parse;
use crate::score::{Tenths, Tier};
use crate::shadow::{CostedTool, shadow_candidates};
use crate::signals::context_signals;
use crate::tool_score::{ToolScore, judged_score};

fn tool(json: &str) -> ToolDefinition {
    parse_tools(&parse(json.as_bytes()).unwrap()).unwrap().tools.remove(0)
}

fn score(json: &str, siblings: &[&str]) -> (ToolJudgement, ToolScore) {
    let t = tool(json);
    let signals = context_signals(&t);
    let siblings: Vec<JsString> = siblings.iter().map(|s| JsString::from(*s)).collect();
    let j = judge_tool(&t, &signals, &siblings);
    let s = judged_score(&t.name, signals, evaluate_gates(&t), &j);
    (j, s)
}

const CALL_SIBLINGS: &[&str] = &["search_calls_extensive", "get_call_transcript", "update_drive"];

const GET_CALLS: &str = r#"{
  "name": "get_calls",
  "title": "Get Calls",
  "description": "Lists the recorded phone calls of one account, newest first, optionally only those since a given time. Returns each call's id, start time, duration and participants. Use it to browse recent call history; to search inside transcripts by keyword or speaker, use search_calls_extensive instead.",
  "inputSchema": {
    "type": "object",
    "properties": {
      "account_id": {"type": "string", "description": "Account whose calls are listed."},
      "since": {"type": "string", "format": "date-time", "description": "Only calls that started at or after this ISO 8601 time."}
    },
    "required": ["account_id"]
  },
  "annotations": {"readOnlyHint": true, "openWorldHint": false}
}"#;

const UPDATE_DRIVE: &str = r#"{
  "name": "update_drive",
  "description": "Updates the name, description or restrictions of an existing shared drive.",
  "inputSchema": {
    "type": "object",
    "properties": {
      "drive_id": {"type": "string", "description": "ID of the shared drive to change."},
      "new_name": {"type": "string", "description": "New display name."},
      "theme": {"type": "string"},
      "restrictions": {"type": "object"}
    },
    "required": ["drive_id"]
  }
}"#;

const PROCESS: &str = r#"{
  "name": "process",
  "description": "Process",
  "inputSchema": {
    "type": "object",
    "properties": {"input": {"type": "string"}, "mode": {"type": "string"}, "options": {"type": "object"}}
  }
}"#;

const CREATE_RECORD: &str = r#"{
  "name": "create_record",
  "description": "Creates a new record in the chosen table from the given field values and returns its id.",
  "inputSchema": {
    "type": "object",
    "properties": {
      "table": {"type": "string", "description": "Table to insert into."},
      "fields": {"type": "object", "description": "Column values for the new record."}
    },
    "required": ["table", "fields"]
  },
  "annotations": {"readOnlyHint": true}
}"#;

#[test]
fn get_calls_is_tier_a() {
    let (j, s) = score(GET_CALLS, CALL_SIBLINGS);
    assert_eq!(s.tier, Tier::A, "{:?} {}", j.scores(), s.tdqs);
    assert_eq!(j.scores().0, [5, 5, 3, 3, 5, 5]);
    assert_eq!(s.tdqs, Tenths(43));
    assert!(!j.annotation_contradiction);
    let usage = &j.dimensions[Dimension::UsageGuidelines.index()].justification;
    assert!(usage.contains("search_calls_extensive"), "{usage}");
    let params = &j.dimensions[Dimension::ParameterSemantics.index()].justification;
    assert!(params.contains("2 of 2 parameters") && params.contains("100%"), "{params}");
    let behaviour = &j.dimensions[Dimension::BehavioralTransparency.index()].justification;
    assert!(behaviour.contains("readOnlyHint: true"), "{behaviour}");
}

#[test]
fn update_drive_is_tier_c() {
    let (j, s) = score(UPDATE_DRIVE, &["get_drive", "delete_drive"]);
    assert_eq!(s.tier, Tier::C, "{:?} {}", j.scores(), s.tdqs);
    assert_eq!(j.scores().0, [4, 2, 2, 3, 4, 2]);
    assert_eq!(s.tdqs, Tenths(29));
    let params = &j.dimensions[Dimension::ParameterSemantics.index()].justification;
    assert!(params.contains("2 of 4 parameters") && params.contains("50%"), "{params}");
}

#[test]
fn process_is_tier_d_after_the_tautology_cap() {
    let t = tool(PROCESS);
    assert_eq!(evaluate_gates(&t), crate::gates::Gate::Tautological);
    let (j, s) = score(PROCESS, &["status"]);
    assert_eq!(s.tier, Tier::D, "{:?} {}", j.scores(), s.tdqs);
    assert_eq!(s.dimension_scores().0, [1, 1, 1, 1, 2, 1]);
    assert_eq!(s.tdqs, Tenths(11));
}

#[test]
fn create_record_contradicts_read_only() {
    let (j, s) = score(CREATE_RECORD, &[]);
    assert!(j.annotation_contradiction);
    assert_eq!(j.dimensions[Dimension::BehavioralTransparency.index()].score, 1);
    assert!(j.dimensions[2].justification.contains("readOnlyHint: true"));
    assert!(s.flags.contains(&crate::score::ToolFlag::AnnotationContradiction));
}

#[test]
fn other_contradictions_and_their_absence() {
    let base = |desc: &str, ann: &str| format!(r#"{{"name":"files","description":"{desc}","annotations":{ann}}}"#);
    let contradicts = |desc: &str, ann: &str| score(&base(desc, ann), &[]).0.annotation_contradiction;
    assert!(contradicts("Deletes the file at a path.", r#"{"destructiveHint":false}"#));
    assert!(contradicts("Copies a file and overwrites the target if present.", r#"{"destructiveHint":false}"#));
    assert!(!contradicts("Copies a file; never overwrites an existing target.", r#"{"destructiveHint":false}"#));
    assert!(!contradicts("Archives the file; nothing is deleted or overwritten.", r#"{"destructiveHint":false}"#));
    assert!(contradicts("Sends a message to a channel.", r#"{"idempotentHint":true}"#));
    assert!(contradicts("Search the web for pages.", r#"{"openWorldHint":false}"#));
    // Write words in a negated or secondary role are not contradictions of readOnlyHint.
    assert!(!contradicts(
        "Runs a read-only SQL query. Writes are blocked and deletes are refused.",
        r#"{"readOnlyHint":true}"#
    ));
    assert!(!contradicts("Lists files in a folder.", r#"{"readOnlyHint":true}"#));
}

#[test]
fn answers_keep_the_contract_and_are_deterministic() {
    for (json, sibs) in [(GET_CALLS, CALL_SIBLINGS), (UPDATE_DRIVE, &[][..]), (PROCESS, &[][..])] {
        let (a, _) = score(json, sibs);
        let (b, _) = score(json, sibs);
        assert_eq!(a, b);
        for d in &a.dimensions {
            assert!((1..=5).contains(&d.score));
            assert!(!d.justification.is_empty());
        }
        assert!(!a.summary.is_empty());
    }
    assert_eq!(HEURISTIC_JUDGE_ID, "heuristic-9");
}

fn coherence(names_and_descs: &[(&str, &str, &str)]) -> CoherenceJudgement {
    let docs: Vec<ToolDefinition> = names_and_descs
        .iter()
        .map(|(n, d, schema)| tool(&format!(r#"{{"name":"{n}","description":"{d}","inputSchema":{schema}}}"#)))
        .collect();
    let costs: Vec<_> = docs.iter().map(|t| invocation_cost(t.input_schema.as_ref())).collect();
    let tools: Vec<CoherenceTool> = docs
        .iter()
        .zip(&costs)
        .map(|(t, c)| CoherenceTool { name: &t.name, description: t.description.as_ref(), cost: *c })
        .collect();
    let costed: Vec<CostedTool> =
        docs.iter().zip(&costs).map(|(t, c)| CostedTool { name: &t.name, cost: c.cost() }).collect();
    judge_coherence("srv", &tools, &shadow_candidates(&costed))
}

#[test]
fn coherence_of_a_tidy_crud_server() {
    let none = "{}";
    let c = coherence(&[
        ("create_task", "Creates a task with a title and due date.", none),
        ("get_task", "Returns one task by id.", none),
        ("list_tasks", "Lists tasks, newest first.", none),
        ("update_task", "Changes a task's title, due date or state.", none),
        ("delete_task", "Deletes a task permanently.", none),
    ]);
    let scores: Vec<u8> = c.dimensions.iter().map(|d| d.score).collect();
    assert_eq!(scores, [5, 5, 5, 5], "{:?}", c.dimensions);
    assert!(c.shadowing_risks.is_empty());
}

#[test]
fn coherence_flags_mixed_names_synonyms_and_gaps() {
    let none = "{}";
    let c = coherence(&[
        ("getUser", "Gets a user profile by id.", none),
        ("fetch_user", "Fetches a user profile by id.", none),
        ("create-invoice", "Creates an invoice.", none),
    ]);
    let by = |d: CoherenceDimension| c.dimensions[d as usize].score;
    assert!(by(CoherenceDimension::NamingConsistency) <= 2, "{:?}", c.dimensions);
    assert!(by(CoherenceDimension::Disambiguation) <= 3, "{:?}", c.dimensions);
    assert!(by(CoherenceDimension::Completeness) <= 3, "{:?}", c.dimensions);
    assert_eq!(by(CoherenceDimension::ToolCountAppropriateness), 4);
    let one = coherence(&[("hello", "Says hello.", none)]);
    assert_eq!(one.dimensions[2].score, 2);
}

#[test]
fn shadowing_only_from_candidates() {
    let dear = r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"},"d":{"type":"string"},"e":{"type":"string"},"f":{"type":"string"}},"required":["a","b","c","d","e","f"]}"#;
    let cheap = r#"{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}"#;
    let c = coherence(&[
        ("search_orders_advanced", "Searches orders by customer, date range and status.", dear),
        ("search_orders", "Searches orders by customer or status.", cheap),
        ("refund_payment", "Refunds a captured payment in full or in part.", dear),
    ]);
    assert_eq!(c.shadowing_risks.len(), 1, "{:?}", c.shadowing_risks);
    let r = &c.shadowing_risks[0];
    assert_eq!((r.tool.as_str(), r.cheaper_sibling.as_str()), ("search_orders_advanced", "search_orders"));
    assert!(r.justification.contains("search_orders"));
}

/// "What comes back" is credited for a statement that names something, whether it follows the
/// cue in its sentence or under a `Returns` heading; a cue with only vague or cue words after
/// it ("Gives back output.", "a 429 response carries Retry-After" is about an error) is not.
#[test]
fn what_comes_back_must_be_named() {
    let says = |description: &str| {
        let json = serde_json::json!({
            "name": "get_weather",
            "description": description,
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City name."}}}
        });
        let (j, _) = score(&json.to_string(), &["get_forecast"]);
        let c = &j.dimensions[Dimension::ContextualCompleteness.index()].justification;
        !c.contains("what it returns")
    };
    assert!(says("Looks up the current weather for a city. Returns temperature, humidity and wind speed."));
    assert!(says("Looks up the current weather for a city.\n\nReturns\n\n{\"temp_c\": float, \"wind_kph\": float}"));
    assert!(!says("Looks up the current weather for a city. Gives back output."));
    assert!(!says("Looks up the current weather for a city, returning the information requested."));
}
