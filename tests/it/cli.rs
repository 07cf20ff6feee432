//! The command line as a user runs it: the built binary, real files and pipes, exit codes.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tdqs-gateway"))
}

fn example() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/tools.json")
}

fn run_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn tdqs-gateway");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn lint_json_has_the_reference_shape() {
    let o = bin().args(["lint", "--format", "json", "--file"]).arg(example()).output().unwrap();
    assert_eq!(o.status.code(), Some(1), "errors exist, default --fail-on error: {}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["specVersion"], "1.3");
    assert_eq!(v["server"], serde_json::json!({"name": "tickets", "toolCount": 4}));
    assert!(v["generatedAt"].as_str().unwrap().ends_with('Z'));
    let tools = v["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 4);
    assert_eq!(tools[3]["flags"], serde_json::json!(["No Description"]));
    assert_eq!(tools[2]["flags"], serde_json::json!(["Tautological Description"]));
    let sig = &tools[0]["contextSignals"];
    for key in ["inputHash", "definitionBytes", "invocationCost", "schemaDescriptionCoverage", "annotationValues"] {
        assert!(sig.get(key).is_some(), "missing {key}");
    }
    let cand = &v["shadowCandidates"][0];
    assert_eq!(cand["tool"], "bulk_update");
    assert_eq!(cand["invocationCost"], 9);
    let rules: Vec<&str> = v["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap()).collect();
    assert_eq!(rules.last(), Some(&"shadow-candidate"), "shadow warnings come after per-tool findings");
}

#[test]
fn lint_reads_stdin_and_honours_fail_on() {
    let clean = r#"{"name":"get_weather","description":"Current weather for a city.","inputSchema":{"type":"object","properties":{"city":{"type":"string","description":"City name"}},"required":["city"]},"annotations":{"readOnlyHint":true},"outputSchema":{"type":"object"}}"#;
    let o = run_stdin(&["lint", "--file", "-", "--format", "json"], clean);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["findings"], serde_json::json!([]));
    assert_eq!(v["server"]["name"], "server");

    // A warning only: fails with --fail-on warning, passes with the default and with never.
    let warn =
        r#"[{"name":"get_weather","description":"Current weather for a city.","outputSchema":{"type":"object"}}]"#;
    assert_eq!(run_stdin(&["lint", "--file", "-"], warn).status.code(), Some(0));
    assert_eq!(run_stdin(&["lint", "--file", "-", "--fail-on", "warning"], warn).status.code(), Some(1));
    let err = r#"[{"name":"x"}]"#;
    assert_eq!(run_stdin(&["lint", "--file", "-", "--fail-on", "never"], err).status.code(), Some(0));
    let named = run_stdin(&["lint", "--file", "-", "--server-name", "weather", "--format", "json"], warn);
    assert_eq!(serde_json::from_slice::<serde_json::Value>(&named.stdout).unwrap()["server"]["name"], "weather");
}

#[test]
fn lint_text_and_markdown_are_for_people() {
    let o = bin().args(["lint", "--fail-on", "never", "--file"]).arg(example()).output().unwrap();
    let text = stdout(&o);
    assert!(!text.contains('\x1b'), "no colour when not a terminal");
    // Grouped by tool: the tool's line comes before its findings.
    let head = text.find("close_ticket  ").expect("tool header");
    let finding = text.find("tautological-description").unwrap();
    assert!(head < finding);
    assert!(text.contains("2 errors, 5 warnings, 4 notes"), "{text}");

    let o =
        bin().args(["lint", "--format", "markdown", "--fail-on", "never", "--file"]).arg(example()).output().unwrap();
    let md = stdout(&o);
    assert!(md.starts_with("## TDQS lint: tickets"));
    assert!(md.contains("| **error** | `close_ticket` | tautological-description |"), "{md}");
    // Errors are listed before warnings, warnings before notes.
    assert!(md.find("**error**").unwrap() < md.find("| warning |").unwrap());
    assert!(md.find("| warning |").unwrap() < md.find("| info |").unwrap());
}

#[test]
fn lint_writes_to_output_file() {
    let dir = std::env::temp_dir().join(format!("tdqs-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("report.json");
    let o = bin()
        .args(["lint", "--format", "json", "--fail-on", "never", "--output"])
        .arg(&out)
        .arg("--file")
        .arg(example())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty());
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(v["tools"].as_array().unwrap().len(), 4);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_is_one_clear_line_and_exit_2() {
    let cases = [
        ("[", "not valid JSON"),
        ("[]", "no tool definitions"),
        (r#"[{"name":"a"},{"name":"a"}]"#, "tool #2 (\"a\")"),
        (r#"[{"name":"a"},7]"#, "tool #2 is not an object"),
        (
            r#"[{"name":"ok"},{"name":"b","description":5}]"#,
            "tool #2 (\"b\") is not a valid tool definition: description",
        ),
        (r#"{"x":1}"#, "expected a tools/list result"),
        (r#"[{"name":"a","description":NaN}]"#, "NaN"),
        ("\u{FEFF}[]", "not valid JSON"),
    ];
    for (input, needle) in cases {
        let o = run_stdin(&["lint", "--file", "-"], input);
        assert_eq!(o.status.code(), Some(2), "{input}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "one line for {input}: {err}");
        assert!(err.contains(needle), "{input}: {err}");
        assert!(o.stdout.is_empty());
    }
    let o = bin().args(["lint", "--file", "/nonexistent/tools.json"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent/tools.json"));
    // Usage errors are exit 2 as well.
    assert_eq!(bin().args(["lint", "--format", "yaml", "--file", "-"]).output().unwrap().status.code(), Some(2));
}

#[test]
fn score_heuristic_works_offline_in_every_format() {
    let o = bin().args(["score", "--format", "json", "--file"]).arg(example()).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["model"], "heuristic-2");
    assert_eq!(v["judge"]["kind"], "heuristic");
    assert_eq!(v["specVersion"], "1.3");
    let tools = v["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 4);
    let nodesc = tools.iter().find(|t| t["name"] == "bulk_update").unwrap();
    assert_eq!(nodesc["tdqs"], 1.0);
    assert_eq!(nodesc["tier"], "D");
    assert!(nodesc["scores"]["purpose_clarity"].is_u64(), "dimension keys are snake_case");
    let taut = tools.iter().find(|t| t["name"] == "close_ticket").unwrap();
    assert!(taut["scores"]["purpose_clarity"].as_u64().unwrap() <= 2, "tautology cap");
    let s = &v["serverScore"];
    assert_eq!(s["scoredToolCount"], 4);
    assert!(s["overallTier"].is_string() && s["coherenceScore"].is_number());

    let o = bin().args(["score", "--file"]).arg(example()).output().unwrap();
    let text = stdout(&o);
    // Weakest first: the no-description tool leads.
    let first_tool = text.lines().skip_while(|l| !l.starts_with("tools, weakest first")).nth(1).unwrap();
    assert!(first_tool.contains("bulk_update"), "{text}");

    let o = bin().args(["score", "--format", "markdown", "--file"]).arg(example()).output().unwrap();
    assert!(stdout(&o).starts_with("## TDQS score: tickets"));

    // --fail-under A cannot be met by this deliberately weak server.
    let o = bin().args(["score", "--fail-under", "A", "--file"]).arg(example()).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn score_openai_needs_an_endpoint() {
    let o = bin()
        .args(["score", "--judge", "openai", "--file"])
        .arg(example())
        .env_remove("TDQS_BASE_URL")
        .env_remove("TDQS_MODEL")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--base-url"));
}
