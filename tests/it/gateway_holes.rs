//! Enforcement without holes, on every transport (Streamable HTTP to an HTTP upstream, to a
//! stdio upstream, `wrap`, legacy HTTP+SSE): a request the gateway could read one way and the
//! upstream another (repeated keys, `NaN`, a BOM, UTF-16/32, gzip, escaped keys, `1.0` for `1`,
//! a call with a `null` id or none, batches) never makes an upstream run a hidden tool; a call to
//! a tool nobody listed waits for the gateway to list the upstream (with ids the upstream cannot
//! single out) or is refused; and, over generated traffic (seeded), no hidden tool ever appears
//! in what a client receives nor reaches a recording upstream. The upstreams read what they get
//! the most lenient way (Python's `json.loads`: the last of a repeated key wins, BOM and UTF-16
//! decoded, `NaN` accepted), and record it.

use crate::support::rig as support;

use crate::support::holes;

use holes::traffic::{self, SHAPES, Shape};
use holes::{Legacy, Link, Record, Side, WrapSession, lenient_command, tool_names};
use serde_json::{Value, json};
use support::http::Mcp;
use support::{Gateway, Rig, Upstream};

const ENFORCE: &str = "mode = \"enforce\"\nmin_tier = \"B\"";
const FASTMCP_HIDDEN: [&str; 3] = ["do_thing", "get_data", "process"];
const FASTMCP_VISIBLE: [&str; 2] = ["search_issues", "create_issue"];

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn fastmcp_args() -> Value {
    json!({"search_issues": {"query": "crash"}, "create_issue": {"title": "t", "body": "b"}})
}

async fn http_side(rig: &Rig) -> Side {
    let upstream = Upstream::fastmcp(rig, &["--stateless"]).await;
    let gw = Gateway::single(rig, "rig", &upstream.url(), ENFORCE).await;
    let mut side = Side::new("http", Link::Http(Mcp::new(gw.url("rig"))), Record::Rig(upstream));
    side.gateway = Some(gw);
    side
}

async fn stdio_side(rig: &Rig, flags: &[&str]) -> Side {
    let record = rig.path("stdio-record.jsonl");
    let command = serde_json::to_string(&lenient_command(&record, flags)).unwrap();
    let config = format!("[policy]\n{ENFORCE}\n\n[[upstream]]\nname = \"lenient\"\ncommand = {command}\n");
    let gw = Gateway::start(rig, "", &config).await;
    let mut mcp = Mcp::new(gw.url("lenient"));
    mcp.initialize("2025-06-18", json!({})).await;
    let mut side = Side::new("stdio", Link::Http(mcp), Record::File(record));
    side.gateway = Some(gw);
    side
}

fn wrap_side(rig: &Rig, flags: &[&str]) -> Side {
    let record = rig.path("wrap-record.jsonl");
    let config = format!("[store]\nurl = \"memory\"\n[policy]\n{ENFORCE}\n");
    let w = WrapSession::start(rig, &config, &lenient_command(&record, flags));
    Side::new("wrap", Link::Wrap(w), Record::File(record))
}

async fn legacy_side(rig: &Rig) -> Side {
    let upstream = Upstream::python(rig, "legacy", "legacy_server.py", &[]).await;
    let config =
        format!("[policy]\n{ENFORCE}\n\n[[upstream]]\nname = \"legacy\"\nsse_url = \"{}/sse\"\n", upstream.base());
    let gw = Gateway::start(rig, "", &config).await;
    let link = Link::Legacy(Legacy::open(&gw, "legacy").await);
    let mut side = Side::new("legacy", link, Record::Rig(upstream));
    side.gateway = Some(gw);
    side
}

/// The lenient stdio server's tools the policy hides and keeps (checked, not assumed).
const LENIENT_HIDDEN: [&str; 2] = ["misc", "do_it"];
const LENIENT_VISIBLE: [&str; 1] = ["lookup_order"];

/// Every hostile shape once: no call reaches the upstream (all of them name a hidden tool, or
/// are ambiguous), every answer is an error (a batch's ping aside), and the side still works.
async fn hostile_bodies(mut side: Side, hidden: &[&str], visible: &[&str], shapes: &[Shape]) {
    let listed = side.list("1").await;
    for h in hidden {
        assert!(!listed.contains(&h.to_string()), "{}: {h} is hidden: {listed:?}", side.name);
    }
    for v in visible {
        assert!(listed.contains(&v.to_string()), "{}: {v} is visible: {listed:?}", side.name);
    }
    for (i, shape) in shapes.iter().enumerate() {
        let n = 100 + 10 * i as u64;
        let got = side.send(&traffic::hostile(*shape, hidden[i % hidden.len()], visible[0], n)).await;
        for m in got.iter().filter(|m| m.get("id").is_some()) {
            let is_ping = m["id"].as_str().is_some_and(|id| id.starts_with('p'));
            assert!(m.get("error").is_some() || is_ping, "{} {shape:?}: answered with a result: {m}", side.name);
        }
        let calls = side.record.calls().await;
        assert!(calls.is_empty(), "{} {shape:?}: the upstream read calls {calls:?}", side.name);
        assert_eq!(side.record.unreadable().await, 0, "{} {shape:?}: unreadable bytes were forwarded", side.name);
    }
    // The session goes on: a visible tool is still called.
    let call =
        json!({"jsonrpc":"2.0","id":9000,"method":"tools/call","params":{"name":visible[0],"arguments":{"query":"x"}}});
    side.send_json(&call).await;
    let calls = side.record.calls().await;
    assert_eq!(calls, [visible[0]], "{}: only the visible call reached the upstream", side.name);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_bodies_run_no_hidden_tool_over_http() {
    let rig = Rig::new("holes-http");
    let side = http_side(&rig).await;
    hostile_bodies(side, &FASTMCP_HIDDEN, &FASTMCP_VISIBLE, &SHAPES).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_bodies_run_no_hidden_tool_on_a_stdio_upstream() {
    let rig = Rig::new("holes-stdio");
    let side = stdio_side(&rig, &[]).await;
    hostile_bodies(side, &LENIENT_HIDDEN, &LENIENT_VISIBLE, &SHAPES).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_bodies_run_no_hidden_tool_through_wrap() {
    let rig = Rig::new("holes-wrap");
    let side = wrap_side(&rig, &[]);
    // A line-delimited stdio stream carries no Content-Encoding: gzip is an HTTP matter.
    let shapes: Vec<Shape> = SHAPES.iter().copied().filter(|s| *s != Shape::Gzip).collect();
    hostile_bodies(side, &LENIENT_HIDDEN, &LENIENT_VISIBLE, &shapes).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_bodies_run_no_hidden_tool_over_legacy_sse() {
    let rig = Rig::new("holes-legacy");
    let side = legacy_side(&rig).await;
    hostile_bodies(side, &FASTMCP_HIDDEN, &FASTMCP_VISIBLE, &SHAPES).await;
}

/// The gateway's own listings: random ids (not a recognisable prefix), one at a time.
fn assert_random_ids(ids: &[Value], what: &str) {
    assert!(!ids.is_empty(), "{what}: the gateway listed the upstream");
    for id in ids {
        let text = id.as_str().unwrap_or_else(|| panic!("{what}: {id}"));
        assert!(!text.contains("tdqs") && !text.contains("gateway"), "{what}: a recognisable id {text}");
        assert_eq!(text.len(), 36, "{what}: a uuid-shaped id: {text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_to_tools_nobody_listed_wait_for_a_listing_over_http() {
    let rig = Rig::new("holes-learn-http");
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let gw = Gateway::single(&rig, "rig", &upstream.url(), ENFORCE).await;
    let mcp = Mcp::new(gw.url("rig"));
    // Six calls at once to a visible tool never listed: one listing, every call answered.
    let calls = (0..6).map(|i| {
        let mcp = mcp.clone();
        async move {
            let id = json!(i + 1);
            let msg = json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":"search_issues","arguments":{"query":""}}});
            mcp.post(&msg).await.answer(&id)
        }
    });
    for answer in futures_util::future::join_all(calls).await {
        assert!(answer["result"].is_object(), "a visible tool is called once the gateway listed it: {answer}");
    }
    let ids = Record::Rig(upstream).list_ids().await;
    assert_eq!(ids.len(), 1, "one listing for six concurrent calls: {ids:?}");
    assert_random_ids(&ids, "http");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listing_that_fails_refuses_the_call() {
    let rig = Rig::new("holes-learn-fails");
    // Stateful: a call without a session makes the upstream refuse the gateway's listing too.
    let upstream = Upstream::fastmcp(&rig, &[]).await;
    let gw = Gateway::single(&rig, "rig", &upstream.url(), ENFORCE).await;
    let id = json!(3);
    let msg = json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":"search_issues","arguments":{"query":""}}});
    let answer = Mcp::new(gw.url("rig")).post(&msg).await.answer(&id);
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    assert_eq!(answer["error"]["data"]["reason"], "unlisted", "{answer}");
    assert!(upstream.calls_received().await.is_empty(), "the call was not forwarded");
}

/// An upstream that answers the gateway's listing (string ids) with an empty list, and writes
/// list ids back as floats: the call it hoped to sneak through is refused, and a client's own
/// list (id `7`, answered as `7.0`) is still rewritten.
async fn hostile_learn(mut side: Side) {
    let call = json!({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"misc","arguments":{}}});
    let got = side.send_json(&call).await;
    let answer = got.iter().find(|m| m["id"] == 5).unwrap_or_else(|| panic!("{}: {got:?}", side.name));
    assert_eq!(answer["error"]["data"]["reason"], "unlisted", "{}: {answer}", side.name);
    let listed = side.list("7").await;
    assert!(listed.contains(&"lookup_order".to_owned()) && !listed.contains(&"misc".to_owned()), "{listed:?}");
    let got = side.send_json(&call).await;
    assert_eq!(got[0]["error"]["data"]["reason"], "below_minimum", "{}: {got:?}", side.name);
    assert!(side.record.calls().await.is_empty(), "{}: no call reached the upstream", side.name);
    assert!(
        side.received.iter().all(|m| !tool_names(m).is_empty() || m["result"]["tools"].is_null()),
        "{}: the gateway's own (empty) listing never reached the client",
        side.name
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hostile_upstream_cannot_dodge_the_listing_on_stdio_or_wrap() {
    let rig = Rig::new("holes-hostile-learn");
    hostile_learn(stdio_side(&rig, &["--hostile-learn"]).await).await;
    hostile_learn(wrap_side(&rig, &["--hostile-learn"])).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_upstreams_learn_their_tools_too() {
    let rig = Rig::new("holes-learn-legacy");
    let mut side = legacy_side(&rig).await;
    let call = |id: u64, tool: &str| json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":tool,"arguments":{"query":"", "x": "y"}}});
    let got = side.send_json(&call(11, "get_data")).await;
    let answer = got.iter().find(|m| m["id"] == 11).unwrap_or_else(|| panic!("{got:?}"));
    assert_eq!(answer["error"]["data"]["reason"], "below_minimum", "scored by the gateway's own listing: {answer}");
    side.send_json(&call(12, "search_issues")).await;
    let answer = match side.received.iter().find(|m| m["id"] == 12) {
        Some(a) => a.clone(),
        None => side.answer_later().await,
    };
    assert!(answer["result"].is_object(), "{answer}");
    assert_eq!(side.record.calls().await, ["search_issues"]);
    let ids = side.record.list_ids().await;
    assert_random_ids(&ids, "legacy");
    assert!(side.received.iter().all(|m| !ids.contains(&m["id"])), "the listing's answer was kept from the client");
}

/// Generated traffic on every transport: no hidden tool in any list a client receives, no call
/// to one read by the upstream, nothing unreadable forwarded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generated_traffic_never_shows_or_runs_a_hidden_tool() {
    let rig = Rig::new("holes-invariant");
    let seed: u64 = std::env::var("HOLES_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(17);
    let count: usize = std::env::var("HOLES_BODIES").ok().and_then(|s| s.parse().ok()).unwrap_or(40);
    let lenient_args = json!({});
    let no_gzip: Vec<Shape> = SHAPES.iter().copied().filter(|s| *s != Shape::Gzip).collect();
    type Case = (Side, Vec<String>, Vec<String>, Value, Vec<Shape>);
    let sides: Vec<Case> = vec![
        (http_side(&rig).await, strings(&FASTMCP_HIDDEN), strings(&FASTMCP_VISIBLE), fastmcp_args(), SHAPES.to_vec()),
        (
            stdio_side(&rig, &[]).await,
            strings(&LENIENT_HIDDEN),
            strings(&LENIENT_VISIBLE),
            lenient_args.clone(),
            SHAPES.to_vec(),
        ),
        (
            wrap_side(&rig, &["--hostile-learn"]),
            strings(&LENIENT_HIDDEN),
            strings(&LENIENT_VISIBLE),
            lenient_args,
            no_gzip,
        ),
        (legacy_side(&rig).await, strings(&FASTMCP_HIDDEN), strings(&FASTMCP_VISIBLE), fastmcp_args(), SHAPES.to_vec()),
    ];
    for (mut side, hidden, visible, args, shapes) in sides {
        let bodies = traffic::generate(seed, count, &hidden, &visible, &args, &shapes);
        for body in &bodies {
            side.send(body).await;
        }
        let lists = side.received.iter().filter(|m| m["result"]["tools"].is_array()).count();
        for m in &side.received {
            let names = tool_names(m);
            let shown: Vec<&String> = names.iter().filter(|n| hidden.contains(n)).collect();
            assert!(shown.is_empty(), "{} (seed {seed}): hidden tools shown {shown:?} in {m}", side.name);
            assert!(m.get("unparsable_reply").is_none() && m.get("unparsable_line").is_none(), "{}: {m}", side.name);
        }
        let calls = side.record.calls().await;
        let ran: Vec<&String> = calls.iter().filter(|c| hidden.contains(c)).collect();
        assert!(ran.is_empty(), "{} (seed {seed}): the upstream read calls to hidden tools {ran:?}", side.name);
        assert_eq!(side.record.unreadable().await, 0, "{} (seed {seed}): unreadable bytes forwarded", side.name);
        assert!(lists > 0 && !calls.is_empty(), "{}: the traffic had lists ({lists}) and allowed calls", side.name);
        eprintln!(
            "{}: {} bodies, {} messages back, {lists} lists, {} allowed calls reached the upstream",
            side.name,
            bodies.len(),
            side.received.len(),
            calls.len()
        );
    }
}
