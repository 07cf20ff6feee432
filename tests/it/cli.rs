//! The command line as a user runs it: the built binary, real files and pipes, exit codes.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use crate::support::gateway;
use crate::support::process::run_to_exit;
use crate::support::scratch::Scratch;

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
    let scratch = Scratch::new("cli-lint-output");
    let out = scratch.path("report.json");
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
    assert_eq!(v["model"], "heuristic-9");
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

/// A secret `[auth]` or `[upstream.oauth]` names by environment variable and the variable is
/// not set (or holds too short a key): `check-config` fails naming the key and the variable,
/// as `serve` does, and passes once it is set.
#[test]
fn check_config_and_serve_name_a_secret_variable_that_is_not_set() {
    let scratch = Scratch::new("cli-secrets");
    let head = "[listen]\naddr = \"127.0.0.1:0\"\n[store]\nurl = \"memory\"\n";
    let upstream = "[[upstream]]\nname = \"issues\"\nurl = \"http://127.0.0.1:9/mcp\"\n";
    let auth = "[auth]\nresource = \"http://127.0.0.1:9\"\nissuer = \"http://127.0.0.1:9\"\n";
    let cases = [
        (
            "api key",
            format!("{auth}[[auth.api_key]]\nname = \"ci\"\nkey_env = \"TDQS_IT_UNSET_CI_KEY\"\n{upstream}"),
            "auth.api_key[0].key_env",
            "TDQS_IT_UNSET_CI_KEY",
        ),
        (
            "hmac secret",
            format!("{auth}algorithms = [\"HS256\"]\nhmac_secret_env = \"TDQS_IT_UNSET_HMAC\"\n{upstream}"),
            "auth.hmac_secret_env",
            "TDQS_IT_UNSET_HMAC",
        ),
        (
            "introspection secret",
            format!(
                "{auth}[auth.introspection]\nclient_id = \"gw\"\nclient_secret_env = \"TDQS_IT_UNSET_INTROSPECT\"\n{upstream}"
            ),
            "auth.introspection.client_secret_env",
            "TDQS_IT_UNSET_INTROSPECT",
        ),
        (
            "upstream client secret",
            format!(
                "{upstream}[upstream.oauth]\ntoken_url = \"http://127.0.0.1:9/token\"\nclient_id = \"gw\"\n\
                 client_secret_env = \"TDQS_IT_UNSET_UPSTREAM\"\n"
            ),
            "upstream \"issues\".oauth.client_secret_env",
            "TDQS_IT_UNSET_UPSTREAM",
        ),
    ];
    let run = |args: &[&str], path: &PathBuf, env: (&str, Option<&str>)| {
        let mut cmd = gateway::command();
        cmd.args(args).arg("--config").arg(path).env("TDQS_LOG", "warn");
        match env.1 {
            Some(v) => cmd.env(env.0, v),
            None => cmd.env_remove(env.0),
        };
        let (status, err) = run_to_exit(&scratch.dir, args[0], cmd, Duration::from_secs(60));
        (status.success(), err)
    };
    for (i, (what, config, key, var)) in cases.iter().enumerate() {
        let path = scratch.path(&format!("case-{i}.toml"));
        std::fs::write(&path, format!("{head}{config}")).unwrap();
        for args in [&["check-config"][..], &["serve"][..]] {
            let (ok, err) = run(args, &path, (var, None));
            assert!(!ok, "{what}: {args:?} must fail");
            assert!(err.contains(key) && err.contains(var), "{what}: {args:?} names {key} and {var}: {err}");
        }
        let (ok, err) = run(&["check-config"], &path, (var, Some("a-value-long-enough-for-every-secret-0123")));
        assert!(ok, "{what}: with {var} set: {err}");
    }
    // A key too short to be one is refused the same way.
    let path = scratch.path("short.toml");
    std::fs::write(&path, format!("{head}{}", cases[0].1)).unwrap();
    let (ok, err) = run(&["check-config"], &path, ("TDQS_IT_UNSET_CI_KEY", Some("short")));
    assert!(!ok && err.contains("auth.api_key[0].key_env") && err.contains("shorter"), "{err}");
}
