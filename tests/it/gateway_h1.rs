//! The listener's own HTTP/1.1 server and its hand-off to hyper, on raw sockets in front of a
//! real upstream: requests sent together in one write are each answered, in order; a connection
//! whose later request the own server does not take (chunked, a long body, HTTP/1.0 framing
//! options, `Expect`) moves to hyper without losing or reordering a request; answers carry their
//! length, a `Date`, and `Connection: close` exactly when the connection then ends.

use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::patience::scaled as patient;
use crate::support::rig::{Gateway, Rig, Upstream};

/// One answer read off the socket.
pub(crate) struct Answer {
    pub status: u16,
    pub head: String,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
        })
    }

    /// The JSON-RPC message of a JSON or SSE answer.
    pub fn message(&self) -> Value {
        let text = String::from_utf8_lossy(&self.body);
        let json = match text.lines().filter_map(|l| l.strip_prefix("data:")).next_back() {
            Some(data) => data.trim().to_owned(),
            None => text.into_owned(),
        };
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("not JSON ({e}): {json}"))
    }
}

/// Reads answers off one connection, keeping what follows the last one.
pub(crate) struct Reader {
    pub got: Vec<u8>,
}

impl Reader {
    /// Reads more; `None` when the connection has ended.
    async fn fill(&mut self, s: &mut TcpStream) -> Option<()> {
        let mut chunk = [0u8; 16 * 1024];
        let n = s.read(&mut chunk).await.unwrap_or(0);
        if n == 0 {
            return None;
        }
        self.got.extend_from_slice(&chunk[..n]);
        Some(())
    }

    pub async fn answer(&mut self, s: &mut TcpStream) -> Answer {
        let next =
            tokio::time::timeout(patient(Duration::from_secs(20)), self.next(s)).await.expect("an answer in time");
        next.unwrap_or_else(|| {
            panic!("the connection ended before the answer; had {:?}", String::from_utf8_lossy(&self.got))
        })
    }

    /// The next answer, or `None` when the connection ends first.
    pub async fn next(&mut self, s: &mut TcpStream) -> Option<Answer> {
        let end = loop {
            if let Some(end) = self.got.windows(4).position(|w| w == b"\r\n\r\n") {
                break end + 4;
            }
            self.fill(s).await?;
        };
        let head = String::from_utf8_lossy(&self.got[..end]).into_owned();
        let mut answer = Answer { status: head[9..12].parse().unwrap(), head, body: Vec::new() };
        self.got.drain(..end);
        if answer.header("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
            loop {
                let line_end = loop {
                    if let Some(i) = self.got.windows(2).position(|w| w == b"\r\n") {
                        break i;
                    }
                    self.fill(s).await?;
                };
                let size =
                    usize::from_str_radix(std::str::from_utf8(&self.got[..line_end]).unwrap().trim(), 16).unwrap();
                while self.got.len() < line_end + 2 + size + 2 {
                    self.fill(s).await?;
                }
                answer.body.extend_from_slice(&self.got[line_end + 2..line_end + 2 + size]);
                self.got.drain(..line_end + 2 + size + 2);
                if size == 0 {
                    return Some(answer);
                }
            }
        }
        let length: usize = answer.header("content-length").map_or(0, |v| v.parse().unwrap());
        while self.got.len() < length {
            self.fill(s).await?;
        }
        answer.body = self.got.drain(..length).collect();
        Some(answer)
    }
}

fn post(port: u16, id: &str, method: &str, extra: &str) -> String {
    let body = format!(r#"{{"jsonrpc":"2.0","id":"{id}","method":"{method}","params":{{}}}}"#);
    format!(
        "POST /mcp/rig HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

fn chunked(port: u16, id: &str) -> String {
    let body = format!(r#"{{"jsonrpc":"2.0","id":"{id}","method":"tools/list","params":{{}}}}"#);
    let (a, b) = body.split_at(10);
    format!(
        "POST /mcp/rig HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n\
         {:x}\r\n{a}\r\n{:x}\r\n{b}\r\n0\r\n\r\n",
        a.len(),
        b.len()
    )
}

async fn rig_and_gateway(name: &str) -> (Rig, Upstream, Gateway) {
    let rig = Rig::new(name);
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let config =
        format!("[policy]\nmode = \"annotate\"\n\n[[upstream]]\nname = \"rig\"\nurl = \"{}\"\n", upstream.url());
    let gw = Gateway::start(&rig, "", &config).await;
    (rig, upstream, gw)
}

/// Requests written together, in one write and split at every kind of boundary, are answered
/// one by one and in order on the same connection, whichever server reads each.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_sent_together_are_answered_in_order_by_either_server() {
    let (_rig, _upstream, gw) = rig_and_gateway("h1-pipelined").await;
    let port = gw.addr.port();
    let health = format!("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n");
    let big_id = "x".repeat(70 * 1024);
    let sequences: Vec<Vec<(String, &str)>> = vec![
        // The own server throughout.
        vec![(post(port, "a", "tools/list", ""), "a"), (health.clone(), ""), (post(port, "b", "ping", ""), "b")],
        // The own server, then hyper from the chunked request on.
        vec![(post(port, "c", "ping", ""), "c"), (chunked(port, "d"), "d"), (post(port, "e", "tools/list", ""), "e")],
        // A body longer than the own server takes, between two it does.
        vec![
            (post(port, "f", "ping", ""), "f"),
            (post(port, &big_id, "ping", ""), big_id.as_str()),
            (post(port, "g", "ping", ""), "g"),
        ],
        // Expect: 100-continue on the second request.
        vec![(post(port, "h", "ping", ""), "h"), (post(port, "i", "ping", "Expect: 100-continue\r\n"), "i")],
    ];
    for (n, sequence) in sequences.iter().enumerate() {
        let all: String = sequence.iter().map(|(r, _)| r.as_str()).collect();
        for split in [all.len(), 7, 200, sequence[0].0.len()] {
            let mut s = TcpStream::connect(gw.addr).await.unwrap();
            s.set_nodelay(true).unwrap();
            for piece in all.as_bytes().chunks(split) {
                s.write_all(piece).await.unwrap();
            }
            let mut reader = Reader { got: Vec::new() };
            for (request, id) in sequence {
                let mut a = reader.answer(&mut s).await;
                if a.status == 100 {
                    a = reader.answer(&mut s).await;
                }
                assert_eq!(a.status, 200, "sequence {n} split {split}: {}", a.head);
                assert!(a.header("date").is_some(), "{}", a.head);
                assert_eq!(a.header("connection"), None, "the connection stays: {}", a.head);
                if id.is_empty() {
                    assert!(request.contains("/healthz"));
                    assert_eq!(a.body, br#"{"status":"ok"}"#);
                } else {
                    assert_eq!(a.message()["id"], *id, "sequence {n} split {split}: in order");
                }
            }
            // Still open and serving.
            s.write_all(health.as_bytes()).await.unwrap();
            assert_eq!(reader.answer(&mut s).await.status, 200, "sequence {n} split {split}");
        }
    }
}

/// A list answered through the own server carries the annotated list with its length; a
/// request that asks to close gets `Connection: close` and the connection ends behind it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_are_framed_and_a_close_is_kept() {
    let (_rig, upstream, gw) = rig_and_gateway("h1-framing").await;
    let port = gw.addr.port();
    let mut s = TcpStream::connect(gw.addr).await.unwrap();
    let mut reader = Reader { got: Vec::new() };
    s.write_all(post(port, "l", "tools/list", "").as_bytes()).await.unwrap();
    let list = reader.answer(&mut s).await;
    assert_eq!(list.status, 200);
    let tools = list.message()["result"]["tools"].as_array().cloned().unwrap_or_default();
    assert!(!tools.is_empty() && tools.iter().all(|t| t["_meta"]["tdqs-gateway/score"].is_object()), "annotated");
    if let Some(length) = list.header("content-length") {
        assert_eq!(length.parse::<usize>().unwrap(), list.body.len());
    }

    s.write_all(post(port, "z", "ping", "Connection: close\r\n").as_bytes()).await.unwrap();
    let last = reader.answer(&mut s).await;
    assert_eq!((last.status, last.header("connection").as_deref()), (200, Some("close")));
    assert_eq!(last.message()["id"], "z");
    let mut rest = [0u8; 64];
    let end = tokio::time::timeout(patient(Duration::from_secs(10)), s.read(&mut rest)).await.expect("closed in time");
    assert!(matches!(end, Ok(0) | Err(_)), "nothing after a close");
    // Both requests reached the upstream once.
    let methods: Vec<String> = upstream
        .received()
        .await
        .iter()
        .flat_map(|e| e["messages"].as_array().cloned().unwrap_or_default())
        .filter_map(|m| m["method"].as_str().map(str::to_owned))
        .filter(|m| m == "ping" || m == "tools/list")
        .collect();
    assert_eq!(methods.iter().filter(|m| *m == "ping").count(), 1, "{methods:?}");
}

/// A client that sends a head and then its body in a second write (as many HTTP libraries do)
/// is served on the same connection, request after request (a body that never comes:
/// `gateway_guards`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_after_its_head_is_waited_for() {
    let (_rig, _upstream, gw) = rig_and_gateway("h1-late-body").await;
    let port = gw.addr.port();
    let mut s = TcpStream::connect(gw.addr).await.unwrap();
    s.set_nodelay(true).unwrap();
    let mut reader = Reader { got: Vec::new() };
    for id in ["p", "q", "r"] {
        let request = post(port, id, "ping", "");
        let (head, body) = request.split_at(request.find("\r\n\r\n").unwrap() + 4);
        // Two writes, two segments (no Nagle): whether the gateway reads the head alone or both
        // at once, the answer is the same (`head.rs` tests every cut of a head and body).
        s.write_all(head.as_bytes()).await.unwrap();
        s.write_all(body.as_bytes()).await.unwrap();
        let a = reader.answer(&mut s).await;
        assert_eq!((a.status, a.message()["id"].clone()), (200, Value::from(id)));
    }
}

fn call(port: u16, id: &str, tool: &str, arguments: &str, extra: &str) -> String {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":"{id}","method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
    );
    format!(
        "POST /mcp/rig HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// A hostile client's framing on the own server under enforce: calls to hidden tools hidden
/// among allowed ones in one write, one smuggled inside another's body by a short
/// `Content-Length`, one framed both by length and by chunks, one behind a field folded over
/// two lines. Whatever each framing makes of the bytes, no hidden tool runs, every allowed call
/// does, and the gateway keeps serving.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_framing_runs_no_hidden_tool() {
    let rig = Rig::new("h1-hostile");
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let gw = Gateway::single(&rig, "rig", &upstream.url(), "mode = \"enforce\"\nmin_tier = \"B\"").await;
    let port = gw.addr.port();
    let allowed = call(port, "ok-1", "search_issues", r#"{"query":"crash"}"#, "");
    let hidden = call(port, "bad-1", "do_thing", "{}", "");
    // A length that stops at the first request's body: the second is read as a request of its
    // own, and decided as one.
    let inner = call(port, "bad-2", "get_data", "{}", "");
    let outer_body = r#"{"jsonrpc":"2.0","id":"ok-2","method":"ping"}"#;
    let smuggled = format!(
        "POST /mcp/rig HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{outer_body}{inner}",
        outer_body.len()
    );
    let both = {
        let body = r#"{"jsonrpc":"2.0","id":"bad-3","method":"tools/call","params":{"name":"process","arguments":{}}}"#;
        format!(
            "POST /mcp/rig HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nContent-Length: 4\r\n\
             Transfer-Encoding: chunked\r\n\r\n{:x}\r\n{body}\r\n0\r\n\r\n",
            body.len()
        )
    };
    let folded = call(port, "bad-4", "do_thing", "{}", "X-Folded: a\r\n b\r\n");
    let mut refused = Vec::new();
    for (what, bytes) in [
        ("allowed then hidden", format!("{allowed}{hidden}")),
        ("a request inside another's body", smuggled),
        ("length and chunks", both),
        ("a folded field", folded),
    ] {
        // A health check last: its answer (or the connection's end) says everything before it
        // has been answered.
        let health = format!("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n");
        let mut s = TcpStream::connect(gw.addr).await.unwrap();
        s.write_all(format!("{bytes}{health}").as_bytes()).await.unwrap();
        let mut reader = Reader { got: Vec::new() };
        let answers = tokio::time::timeout(patient(Duration::from_secs(30)), async {
            let mut answers = Vec::new();
            while let Some(a) = reader.next(&mut s).await {
                let last = a.body == br#"{"status":"ok"}"#;
                answers.push(a);
                if last {
                    break;
                }
            }
            answers
        })
        .await
        .unwrap_or_else(|_| panic!("{what}: the gateway neither answered everything nor closed"));
        for a in answers.iter().filter(|a| a.status == 200 && a.body.starts_with(b"{\"jsonrpc")) {
            let m = a.message();
            if m["id"].as_str().is_some_and(|id| id.starts_with("bad")) {
                assert!(
                    m["error"].is_object() || m["result"]["isError"] == true,
                    "{what}: a hidden call answered as if it ran: {m}"
                );
                refused.push(m["id"].as_str().unwrap_or_default().to_owned());
            }
        }
    }
    // The two framed as the own server reads them were each answered with a refusal.
    assert!(refused.contains(&"bad-1".to_owned()) && refused.contains(&"bad-2".to_owned()), "{refused:?}");
    let ran = upstream.calls_received().await;
    for hidden in ["do_thing", "get_data", "process"] {
        assert!(!ran.iter().any(|t| t == hidden), "{hidden} reached the upstream: {ran:?}");
    }
    assert!(ran.iter().any(|t| t == "search_issues"), "the allowed call ran: {ran:?}");
    let health = reqwest::get(format!("http://{}/healthz", gw.addr)).await.unwrap();
    assert_eq!(health.status(), 200, "the gateway keeps serving");
}
