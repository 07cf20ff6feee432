//! The model client against a real loopback OpenAI-compatible server: request shape, the
//! grown conversation after contract failures, identical retries after transient failures
//! (with `Retry-After` honoured), timeouts, unusable answers, refusals that stop at once without
//! leaking the key, exhaustion, the in-flight bound and merged request overrides.
//!
//! Long: a series of short cases against one loopback model server, sharing its settings and the
//! conversation checks.

use crate::support::model_server;
use crate::support::scratch::Scratch;

use std::time::{Duration, Instant};

use model_server::{Behaviour, ModelServer, coherence_answer, tool_answer};
use serde_json::{Value, json};
use tdqs_gateway::judge::{Judge, JudgeError, ModelClient, ModelSettings, Prompts};
use tdqs_gateway::tdqs::answer::{ToolJudgement, parse_tool_answer};
use tdqs_gateway::tdqs::definition::ToolDefinition;
use tdqs_gateway::tdqs::json::JsString;
use tdqs_gateway::tdqs::prompt::CoherenceTool;
use tdqs_gateway::tdqs::signals::context_signals;

const KEY: &str = "sk-test-0123456789-SECRET";
const SYSTEM: &str = "You are a test judge.";
const USER: &str = "TOOL NAME: probe\nTITLE: null\n\nRespond with JSON only.";

/// Settings for fast tests: a tiny backoff, a short timeout, the key set.
fn settings(server: &ModelServer) -> ModelSettings {
    let mut s = ModelSettings::new(server.base_url(), "test-model");
    s.api_key = Some(KEY.to_owned());
    s.backoff = Duration::from_millis(5);
    s.timeout = Duration::from_secs(5);
    s.max_attempts = 3;
    s
}

fn client(settings: ModelSettings) -> ModelClient {
    ModelClient::new(settings).expect("client")
}

async fn ask(client: &ModelClient) -> Result<ToolJudgement, JudgeError> {
    client.complete(SYSTEM, USER, parse_tool_answer).await
}

fn valid() -> String {
    tool_answer([4, 2, 2, 3, 4, 2], false, "valid")
}

fn base_messages() -> Vec<Value> {
    vec![json!({"role": "system", "content": SYSTEM}), json!({"role": "user", "content": USER})]
}

/// The last two messages of a grown conversation: the rejected answer, then the complaint.
fn assert_grew_with(messages: &[Value], answer: &str, complaint_mentions: &str) {
    let n = messages.len();
    assert_eq!(
        messages[n - 2],
        json!({"role": "assistant", "content": answer}),
        "the rejected answer goes back to the model verbatim"
    );
    assert_eq!(messages[n - 1]["role"], "user");
    let complaint = messages[n - 1]["content"].as_str().unwrap();
    assert!(
        complaint.contains(complaint_mentions),
        "the follow-up must name what was wrong ({complaint_mentions:?}): {complaint}"
    );
}

#[tokio::test]
async fn request_shape_temperature_zero_json_mode_bearer_key() {
    let server = ModelServer::start();
    server.push([Behaviour::Content(valid())]);
    let c = client(settings(&server));
    let j = ask(&c).await.expect("valid answer");
    assert_eq!(j.scores().0, [4, 2, 2, 3, 4, 2]);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    let r = &reqs[0];
    assert_eq!((r.method.as_str(), r.path.as_str()), ("POST", "/v1/chat/completions"));
    assert_eq!(r.authorization.as_deref(), Some(format!("Bearer {KEY}").as_str()));
    assert_eq!(r.body["model"], "test-model");
    assert_eq!(r.body["temperature"], 0);
    assert_eq!(r.body["response_format"], json!({"type": "json_object"}));
    assert_eq!(r.messages(), base_messages());
    assert!(r.body.get("max_tokens").is_none(), "no max_tokens: {}", r.raw);
    assert!(r.body.get("max_completion_tokens").is_none());
}

#[tokio::test]
async fn no_key_sends_no_authorization_header() {
    let server = ModelServer::start();
    server.push([Behaviour::Content(valid())]);
    let mut s = settings(&server);
    s.api_key = None;
    ask(&client(s)).await.expect("valid answer");
    assert_eq!(server.requests()[0].authorization, None);
}

#[tokio::test]
async fn fenced_answer_is_accepted_first_time() {
    let server = ModelServer::start();
    server.push([Behaviour::Fenced(valid())]);
    let j = ask(&client(settings(&server))).await.expect("fenced answer");
    assert_eq!(j.summary, "valid");
    assert_eq!(server.requests().len(), 1, "a fence is not a failed attempt");
}

#[tokio::test]
async fn contract_failures_grow_the_conversation() {
    let server = ModelServer::start();
    let invalid = Behaviour::invalid_json();
    let wrong = Behaviour::wrong_shape();
    let out = Behaviour::out_of_range();
    let text = |b: &Behaviour| match b {
        Behaviour::Content(t) => t.clone(),
        _ => unreachable!(),
    };
    let (invalid_text, wrong_text, out_text) = (text(&invalid), text(&wrong), text(&out));
    server.push([invalid, wrong, out, Behaviour::Content(valid())]);
    let mut s = settings(&server);
    s.max_attempts = 4;
    let j = ask(&client(s)).await.expect("fourth answer is valid");
    assert_eq!(j.summary, "valid");

    let reqs = server.requests();
    assert_eq!(reqs.len(), 4, "one request per attempt");
    let lens: Vec<usize> = reqs.iter().map(|r| r.messages().len()).collect();
    assert_eq!(lens, [2, 4, 6, 8], "each contract failure adds two messages");
    assert_eq!(reqs[0].messages(), base_messages());
    // Each conversation extends the previous one unchanged.
    for w in reqs.windows(2) {
        let (a, b) = (w[0].messages(), w[1].messages());
        assert_eq!(b[..a.len()], a[..]);
    }
    assert_grew_with(&reqs[1].messages(), &invalid_text, "not valid JSON");
    assert_grew_with(&reqs[2].messages(), &wrong_text, "\"scores\" must be an object");
    assert_grew_with(
        &reqs[3].messages(),
        &out_text,
        "\"scores.behavioral_transparency.score\" must be an integer from 1 to 5, got 7",
    );
    // Every attempt keeps the deterministic settings.
    for r in &reqs {
        assert_eq!(r.body["temperature"], 0);
        assert_eq!(r.body["response_format"], json!({"type": "json_object"}));
    }
}

#[tokio::test]
async fn server_errors_retry_with_the_same_messages() {
    let server = ModelServer::start();
    server.push([
        Behaviour::Status(500, "upstream exploded".into()),
        Behaviour::Status(503, "overloaded".into()),
        Behaviour::Content(valid()),
    ]);
    ask(&client(settings(&server))).await.expect("third attempt succeeds");
    let reqs = server.requests();
    assert_eq!(reqs.len(), 3);
    for r in &reqs {
        assert_eq!(r.body, reqs[0].body, "a transient failure re-sends the same request");
        assert_eq!(r.messages(), base_messages());
    }
}

#[tokio::test]
async fn rate_limit_honours_retry_after() {
    let server = ModelServer::start();
    server.push([Behaviour::RateLimited(Some("1".into())), Behaviour::Content(valid())]);
    // A backoff of 5 ms: only Retry-After can explain a wait of a second.
    ask(&client(settings(&server))).await.expect("retry succeeds");
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    assert_eq!(reqs[1].body, reqs[0].body);
    let gap = reqs[1].received - reqs[0].received;
    assert!(gap >= Duration::from_millis(950), "Retry-After: 1 not honoured: retried after {gap:?}");
    assert!(gap < Duration::from_secs(5), "waited far too long: {gap:?}");
}

#[tokio::test]
async fn rate_limit_without_retry_after_uses_backoff_and_long_retry_after_is_capped() {
    let server = ModelServer::start();
    server.push([
        Behaviour::RateLimited(None),
        Behaviour::RateLimited(Some("3600".into())),
        Behaviour::Content(valid()),
    ]);
    let mut s = settings(&server);
    s.max_retry_after = Duration::from_millis(200);
    let started = Instant::now();
    ask(&client(s)).await.expect("third attempt succeeds");
    let reqs = server.requests();
    assert_eq!(reqs.len(), 3);
    let capped = reqs[2].received - reqs[1].received;
    assert!(capped >= Duration::from_millis(190), "cap not waited: {capped:?}");
    assert!(started.elapsed() < Duration::from_secs(5), "Retry-After: 3600 was not capped");
}

#[tokio::test]
async fn hung_request_times_out_then_retry_succeeds() {
    let server = ModelServer::start();
    server.push([Behaviour::Hang, Behaviour::Content(valid())]);
    let mut s = settings(&server);
    s.timeout = Duration::from_millis(300);
    let started = Instant::now();
    let j = ask(&client(s)).await.expect("the retry after the timeout succeeds");
    assert_eq!(j.summary, "valid");
    let elapsed = started.elapsed();
    assert!(elapsed >= Duration::from_millis(290), "no timeout was waited: {elapsed:?}");
    assert!(elapsed < Duration::from_secs(5), "the timeout did not fire: {elapsed:?}");
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    assert_eq!(reqs[1].body, reqs[0].body, "a timeout re-sends the same request");
}

#[tokio::test]
async fn hung_requests_exhaust_with_a_timeout_problem() {
    let server = ModelServer::start();
    server.push([Behaviour::Hang, Behaviour::Hang]);
    let mut s = settings(&server);
    s.timeout = Duration::from_millis(150);
    s.max_attempts = 2;
    match ask(&client(s)).await {
        Err(JudgeError::Exhausted { attempts: 2, last }) => {
            assert!(last.contains("timed out"), "{last}");
        }
        other => panic!("expected exhaustion by timeouts, got {other:?}"),
    }
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn finish_reason_length_is_a_failed_attempt() {
    let server = ModelServer::start();
    // Even a complete, valid JSON object does not count when the model was cut off.
    server.push([Behaviour::Length(valid()), Behaviour::Content(valid())]);
    ask(&client(settings(&server))).await.expect("second attempt succeeds");
    assert_eq!(server.requests().len(), 2);

    let server = ModelServer::start();
    server.push(vec![Behaviour::Length("{\"scores\": {\"purpose_cl".into()); 2]);
    let mut s = settings(&server);
    s.max_attempts = 2;
    match ask(&client(s)).await {
        Err(JudgeError::Exhausted { attempts: 2, last }) => {
            assert!(last.contains("length"), "{last}")
        }
        other => panic!("expected exhaustion, got {other:?}"),
    }
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn empty_content_is_a_failed_attempt() {
    let server = ModelServer::start();
    server.push([Behaviour::Empty, Behaviour::Content(valid())]);
    ask(&client(settings(&server))).await.expect("second attempt succeeds");
    assert_eq!(server.requests().len(), 2);

    let server = ModelServer::start();
    server.push([Behaviour::Empty, Behaviour::Empty]);
    let mut s = settings(&server);
    s.max_attempts = 2;
    match ask(&client(s)).await {
        Err(JudgeError::Exhausted { attempts: 2, last }) => assert!(last.contains("empty"), "{last}"),
        other => panic!("expected exhaustion, got {other:?}"),
    }
}

#[tokio::test]
async fn a_response_that_is_not_a_chat_completion_is_retried() {
    let server = ModelServer::start();
    server.push([Behaviour::NotJson("<html>502 Bad Gateway</html>".into()), Behaviour::Content(valid())]);
    ask(&client(settings(&server))).await.expect("second attempt succeeds");
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn unauthorized_stops_at_once_and_never_leaks_the_key() {
    let server = ModelServer::start();
    server.push([Behaviour::Unauthorized, Behaviour::Content(valid())]);
    let err = ask(&client(settings(&server))).await.expect_err("401 must fail");
    assert!(matches!(err, JudgeError::Refused { status: 401, .. }), "{err:?}");
    assert_eq!(server.requests().len(), 1, "a 4xx other than 429 ends the attempts");
    assert_eq!(server.unused(), 1);
    // The server echoed the key; neither the message nor the debug form may carry it.
    let shown = format!("{err} {err:?}");
    assert!(!shown.contains(KEY), "the key leaked: {shown}");
    assert!(shown.contains("401"), "{shown}");
    assert!(shown.contains("Incorrect API key provided"), "the body excerpt is kept: {shown}");
}

#[tokio::test]
async fn other_client_errors_stop_at_once() {
    let server = ModelServer::start();
    server.push([Behaviour::Status(400, "{\"error\":\"unknown parameter\"}".into()), Behaviour::Content(valid())]);
    let err = ask(&client(settings(&server))).await.expect_err("400 must fail");
    assert!(matches!(err, JudgeError::Refused { status: 400, .. }), "{err:?}");
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn exhausted_attempts_name_the_last_problem() {
    let server = ModelServer::start();
    server.push([
        Behaviour::invalid_json(),
        Behaviour::wrong_shape(),
        Behaviour::out_of_range(),
        Behaviour::Content(valid()),
    ]);
    let err = ask(&client(settings(&server))).await.expect_err("three bad answers");
    match &err {
        JudgeError::Exhausted { attempts, last } => {
            assert_eq!(*attempts, 3);
            assert!(last.contains("behavioral_transparency") && last.contains("got 7"), "{last}");
        }
        other => panic!("expected Exhausted, got {other:?}"),
    }
    assert_eq!(server.requests().len(), 3, "max_attempts bounds the requests");
    assert!(err.to_string().contains("after 3 attempts"), "{err}");

    // Transient failures exhaust the same way, naming the status.
    let server = ModelServer::start();
    server.push(vec![Behaviour::Status(502, "bad gateway".into()); 3]);
    match ask(&client(settings(&server))).await {
        Err(JudgeError::Exhausted { attempts: 3, last }) => assert!(last.contains("502"), "{last}"),
        other => panic!("expected Exhausted, got {other:?}"),
    }
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn exhaustion_after_a_key_echo_does_not_leak_the_key() {
    let server = ModelServer::start();
    // A 500 whose body echoes the key, three times: the last problem quotes the body.
    let echo = format!("internal error for key {KEY}");
    server.push(vec![Behaviour::Status(500, echo); 3]);
    let err = ask(&client(settings(&server))).await.expect_err("exhausted");
    let shown = format!("{err} {err:?}");
    assert!(!shown.contains(KEY), "{shown}");
    assert!(shown.contains("[redacted]") || shown.contains("internal error"), "{shown}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn at_most_concurrency_calls_in_flight() {
    let server = ModelServer::start();
    server.set_tool_answer("probe", valid());
    server.set_canned_delay(Duration::from_millis(150));
    let mut s = settings(&server);
    s.concurrency = 2;
    let c = client(s);
    let started = Instant::now();
    let calls = (0..6).map(|_| {
        let c = c.clone();
        tokio::spawn(async move { ask(&c).await })
    });
    for r in futures_util::future::join_all(calls).await {
        r.expect("task").expect("answer");
    }
    assert_eq!(server.requests().len(), 6);
    assert_eq!(server.max_in_flight(), 2, "concurrency 2 must be used and never exceeded");
    // 6 calls, 2 at a time, 150 ms each: three waves.
    assert!(started.elapsed() >= Duration::from_millis(440), "{:?}", started.elapsed());
}

#[tokio::test]
async fn request_overrides_are_merged_last() {
    let server = ModelServer::start();
    server.push([Behaviour::Content(valid())]);
    let mut s = settings(&server);
    let overrides = json!({
        "reasoning": {"enabled": false},
        "provider": {"order": ["a", "b"]},
        "response_format": {"strict": true},
        "seed": 7,
    });
    s.request_overrides = overrides.as_object().unwrap().clone();
    ask(&client(s)).await.expect("answer");
    let body = &server.requests()[0].body;
    assert_eq!(body["reasoning"], json!({"enabled": false}));
    assert_eq!(body["provider"], json!({"order": ["a", "b"]}));
    assert_eq!(body["seed"], 7);
    assert_eq!(body["temperature"], 0);
    assert_eq!(body["model"], "test-model");
    // Objects merge recursively (documented on ModelSettings::request_overrides).
    assert_eq!(body["response_format"], json!({"type": "json_object", "strict": true}));
    assert_eq!(server.requests()[0].messages(), base_messages());

    // A scalar override replaces the default: overrides come last.
    let server = ModelServer::start();
    server.push([Behaviour::Content(valid())]);
    let mut s = settings(&server);
    s.request_overrides = json!({"temperature": 0.3, "model": "routed/model"}).as_object().unwrap().clone();
    ask(&client(s)).await.expect("answer");
    let body = &server.requests()[0].body;
    assert_eq!(body["temperature"], 0.3);
    assert_eq!(body["model"], "routed/model");
}

fn tool(name: &str, description: &str) -> ToolDefinition {
    ToolDefinition {
        name: name.into(),
        title: None,
        description: Some(description.into()),
        input_schema: None,
        output_schema: None,
        annotations: None,
    }
}

#[tokio::test]
async fn judge_tool_and_coherence_through_the_model() {
    let server = ModelServer::start();
    server.set_tool_answer("get_calls", tool_answer([5, 5, 3, 3, 5, 5], true, "calls"));
    server.set_coherence_answer("telephony", coherence_answer([4, 3, 5, 2], &[], "coherent enough"));
    let prompts = Prompts::builtin();
    let judge = Judge::Model { client: client(settings(&server)), prompts: prompts.clone() };
    let t = tool("get_calls", "Lists recent calls.");
    let siblings = [JsString::from("search_calls_extensive")];
    let j = judge.judge_tool(&t, &context_signals(&t), &siblings).await.expect("tool judgement");
    assert_eq!(j.scores().0, [5, 5, 3, 3, 5, 5]);
    assert!(j.annotation_contradiction);
    assert_eq!(j.summary, "calls");

    let reqs = server.requests();
    let m = reqs[0].messages();
    assert_eq!(m[0], json!({"role": "system", "content": prompts.tool_scoring}));
    let user = m[1]["content"].as_str().unwrap();
    assert!(user.starts_with("TOOL NAME: get_calls\nTITLE: null\n\nDESCRIPTION:\n\"Lists recent calls.\"\n"), "{user}");
    assert!(user.contains("<sibling-tools>\nsearch_calls_extensive\n</sibling-tools>"), "{user}");
    assert!(user.ends_with("\n\nRespond with JSON only."), "{user}");

    let name = JsString::from("get_calls");
    let desc = JsString::from("Lists recent calls.");
    let tools = [CoherenceTool { name: &name, description: Some(&desc), cost: Default::default() }];
    let c = judge.judge_coherence("telephony", &tools, &[]).await.expect("coherence judgement");
    assert_eq!(c.dimensions.iter().map(|d| d.score).collect::<Vec<_>>(), [4, 3, 5, 2]);
    assert_eq!(c.summary, "coherent enough");
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    let m = reqs[1].messages();
    assert_eq!(m[0]["content"], prompts.coherence.as_str());
    assert!(m[1]["content"].as_str().unwrap().starts_with("SERVER NAME: telephony\nTOOL COUNT: 1\n"));
}

#[tokio::test]
async fn judge_tool_retries_per_conversation_under_concurrency() {
    // Two tools judged at once; one conversation fails its contract first. Per-conversation
    // scripts keep the retries apart.
    let server = ModelServer::start();
    server.set_tool_answer("alpha", tool_answer([3, 3, 3, 3, 3, 3], false, "alpha"));
    server.set_tool_answer("beta", tool_answer([2, 2, 2, 2, 2, 2], false, "beta"));
    server.push_for("TOOL NAME: beta", [Behaviour::out_of_range()]);
    let judge = Judge::Model { client: client(settings(&server)), prompts: Prompts::builtin() };
    let (a, b) = (tool("alpha", "Does alpha."), tool("beta", "Does beta."));
    let (sa, sb) = (context_signals(&a), context_signals(&b));
    let (na, nb) = ([JsString::from("beta")], [JsString::from("alpha")]);
    let (ja, jb) = tokio::join!(judge.judge_tool(&a, &sa, &na), judge.judge_tool(&b, &sb, &nb));
    assert_eq!(ja.unwrap().summary, "alpha");
    assert_eq!(jb.unwrap().summary, "beta");
    assert_eq!(server.requests_for("TOOL NAME: alpha").len(), 1);
    let beta = server.requests_for("TOOL NAME: beta");
    assert_eq!(beta.len(), 2);
    assert_eq!(beta[1].messages().len(), 4);
    // The canned answer was found by the *first* user message although the last is the complaint.
    assert!(beta[1].messages()[3]["content"].as_str().unwrap().contains("got 7"));
}

/// Known bug in `ModelClient::excerpt`: it cuts the body to 300 characters *before* redacting,
/// so a key that straddles the cut leaks its first characters. Fix: redact, then cut.
#[tokio::test]
async fn a_key_cut_by_the_excerpt_does_not_leak_in_part() {
    // The body excerpt is 300 characters; the echoed key starts at character 290 of the body.
    let server = ModelServer::start();
    server.push([Behaviour::Status(401, format!("{}{KEY} trailing", "x".repeat(290)))]);
    let err = ask(&client(settings(&server))).await.expect_err("401 must fail");
    let shown = format!("{err} {err:?}");
    let leaked: Vec<&str> = (8..=KEY.len()).map(|n| &KEY[..n]).filter(|p| shown.contains(p)).collect();
    assert!(leaked.is_empty(), "a prefix of the key leaked ({:?}): {shown}", leaked.last());
}

/// The `score` command end to end: the key comes from `TDQS_API_KEY` and a refusal ends the run
/// with exit code 2 and a message without the key; without the variable no header is sent.
#[test]
fn cli_score_uses_the_env_key_and_never_prints_it() {
    let server = ModelServer::start();
    server.push([Behaviour::Unauthorized]);
    let scratch = Scratch::new("judge-client-cli");
    let file = scratch.path("tools.json");
    let doc = json!({"serverName": "cli", "tools": [{"name": "get_calls", "description": "Lists calls."}]});
    std::fs::write(&file, doc.to_string()).unwrap();
    let run = |key: Option<&str>| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_tdqs-gateway"));
        cmd.args(["score", "--judge", "openai", "--format", "json", "--max-attempts", "3"])
            .args(["--base-url", &server.base_url(), "--model", "test-model", "--file"])
            .arg(&file)
            .env_remove("TDQS_API_KEY")
            .env_remove("TDQS_BASE_URL")
            .env_remove("TDQS_MODEL")
            .env_remove("TDQS_REQUEST_OVERRIDES");
        if let Some(k) = key {
            cmd.env("TDQS_API_KEY", k);
        }
        cmd.output().expect("run tdqs-gateway")
    };

    let out = run(Some(KEY));
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert!(stderr.contains("401"), "{stderr}");
    assert!(!stderr.contains(KEY) && !stdout.contains(KEY), "the key leaked: {stderr}");
    let reqs = server.requests();
    assert_eq!(reqs.len(), 1, "a 401 is not retried");
    assert_eq!(reqs[0].authorization.as_deref(), Some(format!("Bearer {KEY}").as_str()));

    // Without the variable: no Authorization header; the canned answers then score the file.
    server.set_tool_answer("get_calls", tool_answer([5, 5, 3, 3, 5, 5], false, "calls"));
    server.set_coherence_answer("cli", coherence_answer([3, 3, 3, 3], &[], "one tool"));
    let out = run(None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["tools"][0]["tdqs"], 4.3);
    assert_eq!(report["serverScore"]["overallScore"], 3.9);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 3);
    assert!(reqs[1..].iter().all(|r| r.authorization.is_none()));
}

/// `score_server` with a model judge: a contract failure inside the pipeline is retried in that
/// tool's conversation only; an exhausted tool fails the run, naming the tool.
#[tokio::test]
async fn score_server_retries_per_tool_and_names_an_exhausted_tool() {
    use tdqs_gateway::scoring::pipeline::{PipelineError, score_server};

    let server = ModelServer::start();
    server.set_tool_answer("alpha", tool_answer([3, 3, 3, 3, 3, 3], false, "alpha"));
    server.set_tool_answer("beta", tool_answer([5, 5, 5, 5, 5, 5], true, "beta"));
    server.set_coherence_answer("pipe", coherence_answer([4, 4, 4, 4], &[], "ok"));
    server.push_for("TOOL NAME: beta", [Behaviour::invalid_json(), Behaviour::Status(500, "x".into())]);
    let judge = Judge::Model { client: client(settings(&server)), prompts: Prompts::builtin() };
    let tools = [tool("alpha", "Does alpha."), tool("beta", "Does beta."), tool("gamma", " ")];
    let report = score_server("pipe", &tools, &judge, "t".into()).await.expect("report");
    assert_eq!(report.tools.len(), 3);
    assert_eq!(report.tools[1].tdqs.0, 50);
    assert_eq!(report.tools[2].tdqs.0, 10, "no description: no model call");
    assert_eq!(server.requests_for("TOOL NAME: beta").len(), 3);
    assert_eq!(server.requests_for("TOOL NAME: alpha").len(), 1);
    assert!(server.requests_for("TOOL NAME: gamma").is_empty());
    // DQ = round1(6*90 + 4*3*10, 300) = 2.2; overall = round1(7*22 + 3*40, 100) = 2.7.
    assert_eq!(report.server_score.overall_score.map(|t| t.0), Some(27));

    server.push_for("TOOL NAME: alpha", vec![Behaviour::out_of_range(); 3]);
    match score_server("pipe", &tools, &judge, "t".into()).await {
        Err(PipelineError::Tool { tool, source: JudgeError::Exhausted { attempts: 3, .. } }) => {
            assert_eq!(tool, "alpha")
        }
        Err(other) => panic!("expected alpha to be exhausted, got {other}"),
        Ok(_) => panic!("expected alpha to be exhausted"),
    }
}
