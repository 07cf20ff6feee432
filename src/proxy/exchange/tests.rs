//! The exchange on bodies alone (no transport): what is forwarded, what is answered, byte for
//! byte where nothing is refused.

use std::sync::Arc;

use bytes::Bytes;
use serde_json::{Value, json};

use super::{Admitted, admit};
use crate::catalog::UpstreamTools;
use crate::config::{Config, UpstreamConfig};
use crate::policy::settings::{Mode, PolicyConfig};
use crate::scoring::service::ScoringService;

/// An upstream whose list had `good` (well described) and `bad` (hidden under enforce).
async fn listed(mode: Mode) -> (UpstreamTools, Arc<ScoringService>) {
    let cfg = Config { policy: PolicyConfig { mode: Some(mode), ..PolicyConfig::default() }, ..Config::default() };
    let tools = UpstreamTools::new("u".into(), cfg.effective_policy(&UpstreamConfig::default()));
    let scoring = ScoringService::new(crate::judge::Judge::Heuristic, 100);
    let good = json!({"name": "lookup_order", "title": "Look up order",
        "description": "Looks up one order by its id and returns its status, line items and total. Use it when the user names an order; it never changes anything and fails when no order has that id.",
        "inputSchema": {"type": "object", "properties": {"order_id": {"type": "string", "description": "The order id, e.g. A-1001."}}, "required": ["order_id"]},
        "annotations": {"readOnlyHint": true}});
    let bad = json!({"name": "misc", "description": "Stuff.", "inputSchema": {"type": "object"}});
    let answer = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [good, bad]}});
    tools.rewrite_list(&scoring, answer.to_string().as_bytes()).await;
    (tools, scoring)
}

async fn run(mode: Mode, body: &[u8]) -> Admitted {
    let (tools, scoring) = listed(mode).await;
    admit(&tools, &scoring, &Bytes::copy_from_slice(body), None, None).await
}

fn answers(a: &Admitted) -> Vec<Value> {
    a.answers.iter().map(|b| serde_json::from_slice(b).unwrap()).collect()
}

#[tokio::test]
async fn a_batch_loses_its_refused_calls_and_keeps_the_rest_as_sent() {
    let body = br#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"}, {"jsonrpc":"2.0","id":2.0,"method":"tools/call","params":{"name":"misc"}},{"jsonrpc":"2.0","method":"tools/call","params":{"name":"misc"}}]"#;
    let a = run(Mode::Enforce, body).await;
    assert_eq!(a.forward.as_deref(), Some(br#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]"#.as_slice()));
    let got = answers(&a);
    assert_eq!(got.len(), 1, "the call without an id is dropped, not answered: {got:?}");
    assert_eq!(got[0]["id"], json!(2.0), "the refusal answers the id as sent");
    assert_eq!(got[0]["error"]["code"], -32602);
    assert_eq!(a.list_ids(), ["1"]);
}

#[tokio::test]
async fn what_enforce_cannot_read_is_answered_and_never_forwarded() {
    for body in [
        b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".as_slice(),
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_order","name":"misc"}}"#,
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_order","arguments":{"n":NaN}}}"#,
    ] {
        let a = run(Mode::Enforce, body).await;
        assert!(a.forward.is_none() && a.unreadable, "{}", String::from_utf8_lossy(body));
        assert_eq!(answers(&a)[0]["id"], Value::Null);
    }
    let a = run(Mode::Enforce, br#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#).await;
    assert!(a.forward.is_none(), "a list without an id could be answered without one");
}

#[tokio::test]
async fn observe_passes_everything_through_byte_for_byte() {
    for body in [
        b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}".as_slice(),
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","name":"misc"}}"#,
        br#"[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"misc"}}]"#,
    ] {
        let a = run(Mode::Observe, body).await;
        assert_eq!(a.forward.as_deref(), Some(body), "observe forwards what it got");
        assert!(a.answers.is_empty());
    }
}

#[tokio::test]
async fn a_visible_call_passes_untouched_and_an_unknown_one_is_refused_without_a_lister() {
    let body = br#"{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"A-1"}}}"#;
    let a = run(Mode::Enforce, body).await;
    assert_eq!(a.forward.as_deref(), Some(body.as_slice()));
    let a =
        run(Mode::Enforce, br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"never_listed"}}"#).await;
    assert_eq!(answers(&a)[0]["error"]["data"]["reason"], "unlisted");
}

/// A server that answers every list with one tool, refusing lists without the 2026-07-28
/// envelope as SDK 2.x servers do when the request's header names that revision.
#[derive(Default)]
struct ModernServer {
    seen: parking_lot::Mutex<Vec<Value>>,
}

impl super::Lister for ModernServer {
    fn list_page<'a>(
        &'a self,
        id: &'a str,
        request: Vec<u8>,
    ) -> futures_util::future::BoxFuture<'a, Result<Vec<u8>, String>> {
        Box::pin(async move {
            let request: Value = serde_json::from_slice(&request).unwrap();
            self.seen.lock().push(request.clone());
            if request.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion").is_none() {
                return Err("the server answered 400 Bad Request: params._meta is required".to_owned());
            }
            let tool = json!({"name": "lookup_order", "title": "Look up order",
                "description": "Looks up one order by its id and returns its status, line items and total. Use it when the user names an order; it never changes anything and fails when no order has that id.",
                "inputSchema": {"type": "object", "properties": {"order_id": {"type": "string", "description": "The order id, e.g. A-1001."}}, "required": ["order_id"]},
                "annotations": {"readOnlyHint": true}});
            Ok(json!({"jsonrpc": "2.0", "id": id, "result": {"tools": [tool], "ttlMs": 0, "cacheScope": "private"}})
                .to_string()
                .into_bytes())
        })
    }
}

#[tokio::test]
async fn a_2026_call_before_any_list_is_decided_by_a_list_in_the_callers_revision() {
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "lookup_order",
        "arguments": {"order_id": "A-1"}, "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}, "progressToken": 9}}});
    let body = Bytes::from(call.to_string());
    let cfg =
        Config { policy: PolicyConfig { mode: Some(Mode::Enforce), ..PolicyConfig::default() }, ..Config::default() };
    let tools = UpstreamTools::new("u".into(), cfg.effective_policy(&UpstreamConfig::default()));
    let scoring = ScoringService::new(crate::judge::Judge::Heuristic, 100);
    let server = ModernServer::default();
    let a = admit(&tools, &scoring, &body, None, Some(&server)).await;
    assert_eq!(a.forward.as_ref(), Some(&body), "the call goes on once the tool is known: {:?}", answers(&a));
    let seen = server.seen.lock();
    assert_eq!(seen.len(), 1, "one listing");
    let meta = &seen[0]["params"]["_meta"];
    assert_eq!(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    assert_eq!(meta["io.modelcontextprotocol/clientCapabilities"], json!({}));
    assert!(meta.get("progressToken").is_none(), "the caller's own request keys stay its own: {meta}");
}

/// What a stdio upstream's line becomes (the reading `serve` and `wrap` share), with no list
/// request of the client's known to the exchange.
async fn settled(mode: Mode, line: &str) -> String {
    use super::answer::{AnswerReading, Line, Settled, settle_line};
    let (tools, scoring) = listed(mode).await;
    let reading = AnswerReading { tools: &tools, scoring: &scoring, caller: None };
    match settle_line(&reading, Line::Read(line.as_bytes()), 1 << 20, &|_| false, Vec::new).await {
        Settled::Pass(bytes) => String::from_utf8(bytes).unwrap(),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn under_enforce_a_list_is_known_by_its_shape_whatever_id_or_method_member_it_carries() {
    let tools = r#"{"tools":[{"name":"misc","description":"Stuff.","inputSchema":{"type":"object"}}]}"#;
    for envelope in [
        format!(r#"{{"jsonrpc":"2.0","id":"1","result":{tools}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":"not-yours","result":{tools}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":7,"method":null,"result":{tools}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":7,"method":0,"result":{tools}}}"#),
    ] {
        let out = settled(Mode::Enforce, &envelope).await;
        assert!(!out.contains("misc"), "{envelope} -> {out}");
        // Observing changes nothing: the id names no list request of the client's.
        assert_eq!(settled(Mode::Observe, &envelope).await, envelope);
    }
}
