//! Answers from stdio upstreams that the gateway cannot inspect, through `serve` (a session per
//! client) and through `wrap`, from a hostile stdio server of the rig
//! (`tests/rig/hostile_answers_stdio_server.py`): a `tools/list` answer over the upstream's
//! `max_answer_bytes`, with a byte that is not UTF-8, with `NaN`, behind a byte-order mark.
//! Under enforce each becomes the JSON-RPC error the HTTP path gives (`-32603`, the reason in
//! its data) for that request only: nothing of the list reaches the client, and the session goes
//! on. Under observe it passes as it came, and is counted in the log. A definition the engine
//! cannot score (an integer of 400 digits) is hidden from an answer that is otherwise shown.

use crate::support::holes::{Link, Record, Side, WrapSession, tool_names};
use crate::support::rig::http::Mcp;
use crate::support::rig::{Gateway, Rig, python, rig_dir};
use serde_json::{Value, json};

const ENFORCE: &str = "mode = \"enforce\"\nmin_tier = \"B\"";
const OBSERVE: &str = "mode = \"observe\"";
/// The upstream's `max_answer_bytes` here: the oversize answer is about 84 KiB.
const MAX_ANSWER: usize = 64 * 1024;

/// Shapes that cannot be inspected, with the reason the error gives.
const UNREADABLE: [(&str, &str); 4] =
    [("oversize", "too_large"), ("invalid-utf8", "malformed"), ("nan", "malformed"), ("bom", "malformed")];

fn server(shape: &str) -> Vec<String> {
    let script = rig_dir().join("hostile_answers_stdio_server.py");
    vec![python().display().to_string(), script.display().to_string(), "--shape".into(), shape.into()]
}

fn upstream_entry(shape: &str) -> String {
    let command = serde_json::to_string(&server(shape)).unwrap();
    format!("[[upstream]]\nname = \"{shape}\"\ncommand = {command}\nmax_answer_bytes = {MAX_ANSWER}\n\n")
}

/// A gateway serving one stdio upstream per shape.
async fn serve(rig: &Rig, policy: &str, shapes: &[&str]) -> Gateway {
    let upstreams: String = shapes.iter().map(|s| upstream_entry(s)).collect();
    Gateway::start(rig, "", &format!("[policy]\n{policy}\n\n{upstreams}")).await
}

async fn serve_side(gw: &Gateway, shape: &str) -> Side {
    let mut mcp = Mcp::new(gw.url(shape));
    mcp.initialize("2025-06-18", json!({})).await;
    Side::new("serve", Link::Http(mcp), Record::File(std::path::PathBuf::new()))
}

/// `wrap` around one shape, in a scratch directory of its own (for its log). `wrap` names its
/// upstream after the program (python), which is where its `max_answer_bytes` is set.
fn wrap_side(policy: &str, shape: &str) -> (Side, Rig) {
    let rig = Rig::new(&format!("uninspected-wrap-{shape}"));
    let program = python().file_name().unwrap().to_string_lossy().into_owned();
    let command = serde_json::to_string(&server(shape)).unwrap();
    let config = format!(
        "[store]\nurl = \"memory\"\n[policy]\n{policy}\n\n\
         [[upstream]]\nname = \"{program}\"\ncommand = {command}\nmax_answer_bytes = {MAX_ANSWER}\n"
    );
    let w = WrapSession::start(&rig, &config, &server(shape));
    (Side::new("wrap", Link::Wrap(w), Record::File(std::path::PathBuf::new())), rig)
}

fn list_request(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"})
}

/// Under enforce: the list is an error for that request only, and the session goes on.
async fn refused(side: &mut Side, shape: &str, reason: &str) {
    let got = side.send_json(&list_request(41)).await;
    let what = format!("{} {shape}", side.name);
    assert_eq!(got.len(), 1, "{what}: one answer: {got:?}");
    let e = &got[0];
    assert_eq!(e["id"], json!(41), "{what}: the error answers the list: {e}");
    assert_eq!(e["error"]["code"], json!(-32603), "{what}: {e}");
    assert_eq!(e["error"]["data"]["reason"], json!(reason), "{what}: {e}");
    assert!(e.get("result").is_none() && !e.to_string().contains("misc"), "{what}: nothing of the list: {e}");
    // The session goes on. (A call now would wait for a listing the gateway cannot read either,
    // and be refused.)
    let got = side.send_json(&json!({"jsonrpc": "2.0", "id": 42, "method": "ping"})).await;
    assert!(got.iter().any(|m| m["id"] == 42 && m["result"].is_object()), "{what}: answered after: {got:?}");
}

/// Under observe: the answer as it came (whatever the client makes of it).
async fn passed(side: &mut Side, shape: &str) {
    let got = side.send_json(&list_request(51)).await;
    let text = serde_json::to_string(&got).unwrap();
    assert!(text.contains("misc") && text.contains("lookup_order"), "{} {shape}: passed as it came: {text}", side.name);
    assert!(!text.contains("could not be inspected"), "{} {shape}: {text}", side.name);
}

/// The unscorable definition is hidden; the rest of the list is shown.
async fn unscorable_hidden(side: &mut Side) {
    let got = side.send_json(&list_request(61)).await;
    let answer = got.iter().find(|m| m["id"] == 61).unwrap_or_else(|| panic!("{}: {got:?}", side.name));
    let names = tool_names(answer);
    assert!(names.contains(&"lookup_order".to_owned()), "{}: {answer}", side.name);
    assert!(!names.contains(&"huge_limit".to_owned()), "{}: the unscorable tool is hidden: {names:?}", side.name);
}

fn uninspected_lines(log: &str) -> usize {
    log.lines().filter(|l| l.contains("could not be inspected")).count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uninspectable_stdio_answers_fail_closed_under_enforce_through_serve() {
    let rig = Rig::new("uninspected-serve");
    let mut shapes: Vec<&str> = UNREADABLE.iter().map(|(s, _)| *s).collect();
    shapes.extend(["unscorable", "plain"]);
    let gw = serve(&rig, ENFORCE, &shapes).await;
    for (shape, reason) in UNREADABLE {
        refused(&mut serve_side(&gw, shape).await, shape, reason).await;
    }
    unscorable_hidden(&mut serve_side(&gw, "unscorable").await).await;
    let mut plain = serve_side(&gw, "plain").await;
    let got = plain.send_json(&list_request(71)).await;
    assert_eq!(tool_names(&got[0]), ["lookup_order"], "the control: {got:?}");
    assert!(uninspected_lines(&gw.log_text()) >= UNREADABLE.len(), "{}", gw.logs());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uninspectable_stdio_answers_pass_and_are_counted_under_observe_through_serve() {
    let rig = Rig::new("uninspected-serve-observe");
    let shapes: Vec<&str> = UNREADABLE.iter().map(|(s, _)| *s).collect();
    let gw = serve(&rig, OBSERVE, &shapes).await;
    for shape in shapes.iter().filter(|s| **s != "invalid-utf8") {
        passed(&mut serve_side(&gw, shape).await, shape).await;
    }
    // The byte that is not UTF-8 reaches the client as it came (read here as bytes).
    let mut mcp = Mcp::new(gw.url("invalid-utf8"));
    mcp.initialize("2025-06-18", json!({})).await;
    let resp = mcp.send_post(list_request(52).to_string()).await.unwrap();
    let body = resp.bytes().await.unwrap();
    assert!(body.windows(8).any(|w| w == b"Stuff \xff."), "{}", String::from_utf8_lossy(&body));
    let log = gw.log_text();
    assert!(uninspected_lines(&log) >= shapes.len(), "each counted: {log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uninspectable_answers_fail_closed_under_enforce_through_wrap() {
    for (shape, reason) in UNREADABLE {
        let (mut side, _rig) = wrap_side(ENFORCE, shape);
        refused(&mut side, shape, reason).await;
    }
    let (mut side, _rig) = wrap_side(ENFORCE, "unscorable");
    unscorable_hidden(&mut side).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uninspectable_answers_pass_and_are_counted_under_observe_through_wrap() {
    // Invalid UTF-8 passes too; the serve test above checks the byte as it came (wrap's lines
    // are decoded leniently here, which would replace it).
    for shape in ["oversize", "nan", "bom"] {
        let (mut side, rig) = wrap_side(OBSERVE, shape);
        passed(&mut side, shape).await;
        drop(side);
        let log = std::fs::read_to_string(rig.path("wrap.err")).unwrap_or_default();
        assert_eq!(uninspected_lines(&log), 1, "{shape}: counted once: {log}");
    }
}
