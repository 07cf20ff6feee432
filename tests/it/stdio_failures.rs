//! stdio servers that misbehave (tests/stdio_rig/bad_server.py) behind `serve`: one that dies
//! mid-call, one that writes garbage between its messages, one that never answers. The gateway
//! must answer what it can (an error naming the upstream and the exit status, a timeout error),
//! keep every other session working, and leave no zombie behind.

use crate::support::stdio as support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::http::{self, TextReply, call_request, open_session, post, request};
use support::{Gateway, Scratch, listed, python, rig, steps};

fn bad_server(flags: &[&str]) -> String {
    let mut v = vec![python().display().to_string(), rig("bad_server.py").display().to_string()];
    v.extend(flags.iter().map(|f| f.to_string()));
    serde_json::to_string(&v).unwrap()
}

async fn gateway(scratch: &Scratch, upstreams: &[(&str, &[&str], &str)]) -> Gateway {
    let mut config = String::new();
    for (name, flags, extra) in upstreams {
        config += &format!("[[upstream]]\nname = \"{name}\"\ncommand = {}\n{extra}\n", bad_server(flags));
    }
    Gateway::start_in(scratch, "gateway", &config).await
}

fn zombies(gw: &Gateway) -> Vec<support::procs::ProcInfo> {
    gw.children().into_iter().filter(|p| p.state == 'Z').collect()
}

fn echo_text(r: &TextReply, id: i64) -> String {
    let a = r.answer(&json!(id)).unwrap_or_else(|| panic!("no answer to {id}: {r:#?}"));
    a["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("not a text result: {a}")).to_owned()
}

/// Every event of an SSE answer must be one JSON-RPC 2.0 message.
fn assert_all_jsonrpc(r: &TextReply, what: &str) {
    for e in &r.events {
        let v: Value = serde_json::from_str(e).unwrap_or_else(|err| panic!("{what}: event is not JSON ({err}): {e:?}"));
        assert!(
            v.is_object() && v["jsonrpc"] == "2.0" && (v.get("method").is_some() || v.get("id").is_some()),
            "{what}: an event that is not a JSON-RPC message reached the client: {e}"
        );
    }
}

/// A server that exits with status 3 on tools/call: the pending call gets an error naming the
/// upstream and "exit status 3" (over SSE and as JSON), the session ends (404), the other
/// session goes on, and no zombie is left. The Python SDK client sees the same error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crash_mid_call() {
    let scratch = Scratch::new("fail-crash");
    let gw = gateway(&scratch, &[("crashy", &[], "")]).await;
    let url = gw.mcp_url("crashy");
    let c = http::client();
    let (a, b, j) = tokio::join!(open_session(&c, &url), open_session(&c, &url), open_session(&c, &url));
    gw.expect_children(3, Duration::from_secs(10), "three sessions").await;

    // SSE: the error arrives on the call's own stream.
    let r = post(&c, &url, Some(&a), &call_request(7, "crash", json!({})), true).await;
    assert_eq!(r.status, 200, "{r:#?}");
    let err = r.error_of(&json!(7));
    let message = err["message"].as_str().unwrap_or_default();
    assert!(message.contains("\"crashy\"") && message.contains("exit status 3"), "{err}");
    assert!(err["code"].as_i64().is_some_and(|c| c < 0), "{err}");
    let z = zombies(&gw);
    assert!(z.is_empty(), "the crashed server was reaped before the answer: {z:#?}");

    // The session is over: 404 for a request, and for the GET stream.
    let r = post(&c, &url, Some(&a), &request(8, "tools/list", json!({})), true).await;
    assert_eq!(r.status, 404, "{r:#?}");

    // JSON: the same error as a JSON body.
    let r = post(&c, &url, Some(&j), &call_request(1, "crash", json!({})), false).await;
    assert_eq!((r.status, r.content_type.as_str()), (200, "application/json"), "{r:#?}");
    let err = r.error_of(&json!(1));
    assert!(err["message"].as_str().unwrap_or_default().contains("exit status 3"), "{err}");

    // The other session is untouched.
    gw.expect_children(1, Duration::from_secs(10), "only session b's server is left").await;
    let r = post(&c, &url, Some(&b), &call_request(2, "echo", json!({"text": "still here"})), true).await;
    assert_eq!(echo_text(&r, 2), "echo: still here");

    // A real client: the Python SDK's call fails with the gateway's error, nothing hangs.
    let plan = json!([{"op": "list"}, {"op": "call", "tool": "crash", "args": {}}]);
    let out = support::py_client(&scratch, "py-crash", vec!["http".into(), url.clone(), plan.to_string()]).await;
    assert_eq!(listed(&out, 0).len(), 4, "{out}");
    let step = steps(&out, "call")[0];
    assert_eq!(step["ok"], false, "{out}");
    assert!(step["message"].as_str().unwrap_or_default().contains("exit status 3"), "{out}");

    assert_eq!(http::delete(&c, &url, &b).await, 200);
    gw.expect_children(0, Duration::from_secs(10), "after every session ended").await;
    let log = gw.log_text();
    assert!(log.contains("exit status 3"), "the gateway logs how the server ended");
}

/// A server that writes non-JSON lines (text, a truncated object, bytes that are not UTF-8, a
/// 100 KB line, blank and CRLF lines) around every message: the garbage is dropped, every valid
/// message (answers and log notifications) still arrives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_lines_are_dropped() {
    let scratch = Scratch::new("fail-garbage");
    let gw = gateway(&scratch, &[("noisy", &["--garbage"], "")]).await;
    let url = gw.mcp_url("noisy");
    let c = http::client();
    let session = open_session(&c, &url).await;
    let r = post(&c, &url, Some(&session), &request(1, "tools/list", json!({})), true).await;
    assert_all_jsonrpc(&r, "tools/list");
    assert_eq!(r.answer(&json!(1)).unwrap()["result"]["tools"].as_array().map(Vec::len), Some(4));
    let r = post(&c, &url, Some(&session), &call_request(2, "echo", json!({"text": "through the noise"})), true).await;
    assert_all_jsonrpc(&r, "tools/call");
    assert_eq!(echo_text(&r, 2), "echo: through the noise");
    let log = r.messages().into_iter().find(|m| m["method"] == "notifications/message");
    assert!(log.is_some_and(|m| m["params"]["data"] == "calling echo"), "the log notification came first: {r:#?}");
    assert_eq!(http::delete(&c, &url, &session).await, 200);

    // The Python SDK client: no parse failure, the log notification delivered.
    let plan = json!([{"op": "list"}, {"op": "call", "tool": "echo", "args": {"text": "sdk"}}]);
    let out = support::py_client(&scratch, "py-garbage", vec!["http".into(), url.clone(), plan.to_string()]).await;
    assert_eq!(out["exceptions"], json!([]), "no garbage reached the client: {out}");
    assert_eq!(steps(&out, "call")[0]["text"], "echo: sdk", "{out}");
    assert!(out["logs"].as_array().is_some_and(|l| l.iter().any(|l| l["data"] == "calling echo")), "{out}");
    gw.expect_children(0, Duration::from_secs(10), "after both sessions").await;
}

/// JSON lines that are not JSON-RPC messages (a structured log line, `42`, `null`, `[1,2,3]`,
/// a JSON string) are garbage as well and must not reach clients.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_lines_that_are_not_jsonrpc_are_dropped() {
    let scratch = Scratch::new("fail-json-garbage");
    let gw = gateway(&scratch, &[("jsonnoisy", &["--json-garbage"], "")]).await;
    let url = gw.mcp_url("jsonnoisy");
    let c = http::client();
    let session = open_session(&c, &url).await;
    let r = post(&c, &url, Some(&session), &call_request(2, "echo", json!({"text": "x"})), true).await;
    assert_eq!(echo_text(&r, 2), "echo: x");
    assert_all_jsonrpc(&r, "tools/call");
}

/// A server that never answers tools/call: with request_timeout_ms = 1000 the call gets the
/// timeout error after about a second (SSE and JSON), other requests of the same session and
/// other sessions are answered meanwhile, and the session stays usable.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hanging_call_times_out() {
    let scratch = Scratch::new("fail-hang");
    let gw = gateway(&scratch, &[("sleepy", &[], "request_timeout_ms = 1000")]).await;
    let url = gw.mcp_url("sleepy");
    let c = http::client();
    let a = open_session(&c, &url).await;
    let b = open_session(&c, &url).await;

    let started = Instant::now();
    let hang_request = call_request(10, "hang", json!({}));
    let hang = async {
        let r = post(&c, &url, Some(&a), &hang_request, true).await;
        (r, started.elapsed())
    };
    let others = async {
        let hanging =
            support::poll(Duration::from_secs(10), || gw.log_text().contains("hanging on this call").then_some(()));
        assert!(hanging.await.is_some(), "the hang call reached the server\n{}", gw.logs()); // in flight
        let rb = post(&c, &url, Some(&b), &call_request(1, "echo", json!({"text": "other session"})), true).await;
        let ra = post(&c, &url, Some(&a), &call_request(11, "echo", json!({"text": "same session"})), true).await;
        let done = started.elapsed();
        // A session started while the call hangs works too.
        let new = open_session(&c, &url).await;
        let rn = post(&c, &url, Some(&new), &call_request(1, "echo", json!({"text": "new session"})), true).await;
        (rb, ra, done, new, rn)
    };
    let ((hung, elapsed), (rb, ra, others_done, new, rn)) = tokio::join!(hang, others);
    assert_eq!(echo_text(&rb, 1), "echo: other session");
    assert_eq!(echo_text(&ra, 11), "echo: same session");
    assert_eq!(echo_text(&rn, 1), "echo: new session");
    assert!(others_done < elapsed, "the others were answered during the hang ({others_done:?} < {elapsed:?})");
    let err = hung.error_of(&json!(10));
    let message = err["message"].as_str().unwrap_or_default();
    assert!(message.contains("\"sleepy\"") && message.contains("1000 ms"), "{err}");
    assert_eq!(err["code"], -32001, "{err}");
    assert!(elapsed >= Duration::from_millis(950) && elapsed < Duration::from_secs(8), "timed out after {elapsed:?}");

    // JSON-only client: the same error, as JSON.
    let r = post(&c, &url, Some(&b), &call_request(3, "hang", json!({})), false).await;
    assert_eq!(r.content_type, "application/json", "{r:#?}");
    assert_eq!(r.error_of(&json!(3))["code"], -32001);

    // Still usable afterwards, both children alive.
    let r = post(&c, &url, Some(&a), &call_request(12, "echo", json!({"text": "after"})), true).await;
    assert_eq!(echo_text(&r, 12), "echo: after");
    gw.expect_children(3, Duration::from_secs(5), "all three sessions still run").await;
    for s in [&a, &b, &new] {
        assert_eq!(http::delete(&c, &url, s).await, 200);
    }
    gw.expect_children(0, Duration::from_secs(10), "after DELETE").await;
}

/// An answer that comes after its request timed out must not be delivered on another request's
/// stream: the client already got the timeout error for that id, and the stream belongs to a
/// different request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn late_answer_after_timeout_is_not_misrouted() {
    let scratch = Scratch::new("fail-late");
    let gw = gateway(&scratch, &[("late", &[], "request_timeout_ms = 1000")]).await;
    let url = gw.mcp_url("late");
    let c = http::client();
    let s = open_session(&c, &url).await;
    // Answered after 1.6 s: the gateway times it out at 1 s.
    let r = post(&c, &url, Some(&s), &call_request(1, "slow", json!({"ms": 1600})), true).await;
    assert_eq!(r.error_of(&json!(1))["code"], -32001, "{r:#?}");
    // In flight from about 1.0 s to 1.8 s, while the late answer to 1 arrives at 1.6 s.
    let r = post(&c, &url, Some(&s), &call_request(2, "slow", json!({"ms": 800})), true).await;
    let ids: Vec<Value> = r.messages().iter().filter(|m| m.get("method").is_none()).map(|m| m["id"].clone()).collect();
    assert_eq!(ids, [json!(2)], "request 2's stream carries only its own answer: {r:#?}");
}

/// Enforce refuses a denied tool by its name alone, even when no client has listed tools yet
/// (a client may call a tool it knows without listing; a fresh gateway knows no scores, but a
/// deny list needs none).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enforce_refuses_a_denied_tool_before_any_list() {
    let scratch = Scratch::new("fail-deny-unlisted");
    let gw = gateway(&scratch, &[("guarded", &[], "[upstream.policy]\nmode = \"enforce\"\ndeny = [\"crash\"]")]).await;
    let url = gw.mcp_url("guarded");
    let c = http::client();
    let s = open_session(&c, &url).await;
    let r = post(&c, &url, Some(&s), &call_request(1, "crash", json!({})), true).await;
    let err = r.error_of(&json!(1));
    assert_eq!(err["code"], -32602, "the gateway refuses the denied tool itself: {err}");
    assert_eq!(err["data"]["reason"], "denied", "{err}");
    gw.expect_children(1, Duration::from_secs(2), "the server was never asked to crash").await;
}

/// A client that accepts only JSON gets its answer as JSON; what the server says meanwhile (here
/// a `notifications/message` log before the answer) cannot ride on that JSON body, so it must
/// go to the session's GET stream rather than be lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_post_leaves_server_messages_to_the_get_stream() {
    let scratch = Scratch::new("fail-json-get");
    let gw = gateway(&scratch, &[("noisy", &["--garbage"], "")]).await;
    let url = gw.mcp_url("noisy");
    let c = http::client();
    let s = open_session(&c, &url).await;
    let mut stream = c
        .get(&url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", s.clone())
        .send()
        .await
        .expect("GET stream");
    assert_eq!(stream.status(), 200);
    let r = post(&c, &url, Some(&s), &call_request(1, "echo", json!({"text": "json please"})), false).await;
    assert_eq!(r.content_type, "application/json", "{r:#?}");
    assert_eq!(echo_text(&r, 1), "echo: json please");
    let mut seen = String::new();
    let deadline = Instant::now() + crate::support::patience::scaled(Duration::from_secs(3));
    while !seen.contains("calling echo") && Instant::now() < deadline {
        match tokio::time::timeout(Duration::from_millis(200), stream.chunk()).await {
            Ok(Ok(Some(bytes))) => seen.push_str(&String::from_utf8_lossy(&bytes)),
            Ok(_) => break,
            Err(_) => {}
        }
    }
    assert!(seen.contains("notifications/message") && seen.contains("calling echo"), "GET stream got: {seen:?}");
}

/// A 2025-03-26 batch on a stdio session: the refused call inside it is answered by the gateway
/// (and never reaches the server), the rest by the server, over SSE and as one JSON array.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_with_a_refused_call() {
    let scratch = Scratch::new("fail-batch");
    let gw = gateway(&scratch, &[("batched", &[], "[upstream.policy]\nmode = \"enforce\"\ndeny = [\"crash\"]")]).await;
    let url = gw.mcp_url("batched");
    let c = http::client();
    let s = open_session(&c, &url).await;
    let batch = json!([
        request(1, "tools/list", json!({})),
        call_request(2, "echo", json!({"text": "in a batch"})),
        call_request(3, "crash", json!({})),
    ]);
    let r = post(&c, &url, Some(&s), &batch, true).await;
    let tools = r.answer(&json!(1)).unwrap()["result"]["tools"].as_array().cloned().unwrap();
    assert_eq!(support::tool_names(&tools), ["echo", "hang", "slow"], "crash is denied, so not listed");
    assert_eq!(echo_text(&r, 2), "echo: in a batch");
    assert_eq!(r.error_of(&json!(3))["code"], -32602);

    let batch = json!([request(4, "ping", json!({})), call_request(5, "crash", json!({}))]);
    let r = post(&c, &url, Some(&s), &batch, false).await;
    assert_eq!(r.content_type, "application/json", "{r:#?}");
    assert!(r.raw.trim_start().starts_with('['), "a batch gets an array: {}", r.raw);
    assert!(r.answer(&json!(4)).is_some_and(|a| a.get("result").is_some()), "{r:#?}");
    assert_eq!(r.error_of(&json!(5))["code"], -32602);
    gw.expect_children(1, Duration::from_secs(2), "the server never saw the denied call").await;
}
