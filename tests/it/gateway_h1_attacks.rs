//! Long: one table of hostile framings (each sent on two paths and held to one expected
//! answer) and the attacks that need their own timing (split writes, cut bodies, held heads)
//! share one enforce rig and one way of reading answers; split up they would repeat both.
//!
//! A hostile client against the listener's own HTTP/1.1 server (`src/server/h1/`) under
//! enforce, on raw sockets in front of a real upstream. Every framing in the table is sent
//! twice: on a fresh connection, where the own server reads it first (and takes it, or hands it
//! to hyper with the bytes read), and behind a chunked request, which hands the connection to
//! hyper before the attack arrives. Both paths must give the table's answers (the request served
//! as hyper serves it, or refused with a 4xx), a hidden tool never reaches the upstream, and a
//! client on another connection is answered after every attack.

use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::gateway_h1::{Answer, Reader};
use crate::support::patience::scaled as patient;
use crate::support::rig::{Gateway, Rig, Upstream};

/// A tool enforce hides at `min_tier = "B"` on the rig's fastmcp server, and one it keeps.
const HIDDEN: &str = "do_thing";
const ALLOWED: &str = "search_issues";

fn call_body(id: &str, tool: &str) -> String {
    let arguments = if tool == ALLOWED { r#"{"query":"crash"}"# } else { r#"{"a":"x","b":1}"# };
    format!(
        r#"{{"jsonrpc":"2.0","id":"{id}","method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
    )
}

/// The fields every MCP POST carries, after its request line.
fn usual(port: u16) -> String {
    format!(
        "Host: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
    )
}

/// A `tools/call` of `tool` framed by its length, with `extra` fields before the length.
fn call(port: u16, id: &str, tool: &str, extra: &str) -> String {
    let body = call_body(id, tool);
    format!("POST /mcp/rig HTTP/1.1\r\n{}{extra}Content-Length: {}\r\n\r\n{body}", usual(port), body.len())
}

/// A `tools/call` with `line` as its request line and `framing` (fields, each line ended) in
/// place of the length.
fn framed(port: u16, line: &str, id: &str, tool: &str, framing: &str) -> (String, String) {
    (format!("{line}\r\n{}{framing}\r\n", usual(port)), call_body(id, tool))
}

fn chunked(body: &str) -> String {
    let (a, b) = body.split_at(body.len() / 2);
    format!("{:x}\r\n{a}\r\n{:x}\r\n{b}\r\n0\r\n\r\n", a.len(), b.len())
}

fn health(port: u16) -> String {
    format!("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n")
}

/// An answer as the table writes it: its status, and for a JSON-RPC answer its id and whether
/// the call ran; `healthz` for the health check that ends every exchange.
fn summary(a: &Answer) -> String {
    if a.body == br#"{"status":"ok"}"# {
        return "healthz".to_owned();
    }
    let text = String::from_utf8_lossy(&a.body);
    let json = text.lines().filter_map(|l| l.strip_prefix("data:")).next_back().unwrap_or(&text).trim();
    match serde_json::from_str::<Value>(json) {
        Ok(m) if m["jsonrpc"] == "2.0" && m["id"].is_string() => {
            let refused = m["error"].is_object() || m["result"]["isError"] == true;
            format!("{} {} {}", a.status, m["id"].as_str().unwrap_or_default(), if refused { "refused" } else { "ran" })
        }
        _ => a.status.to_string(),
    }
}

/// Writes `bytes` then a health check on `s`, and reads answers until the health check's or the
/// connection's end (`closed`); 1xx answers are left out. Fails when neither comes in time.
async fn exchange(s: &mut TcpStream, reader: &mut Reader, bytes: &[u8], port: u16) -> Vec<String> {
    exchange_in(s, reader, &[bytes], port).await
}

/// [`exchange`] with the bytes written in pieces, one write each (the socket has no Nagle
/// delay: each is its own segment). A write the gateway refuses by closing is not an error.
async fn exchange_in(s: &mut TcpStream, reader: &mut Reader, pieces: &[&[u8]], port: u16) -> Vec<String> {
    for piece in pieces {
        let _ = s.write_all(piece).await;
    }
    let _ = s.write_all(health(port).as_bytes()).await;
    let bytes: Vec<u8> = pieces.concat();
    tokio::time::timeout(patient(Duration::from_secs(30)), async {
        let mut seen = Vec::new();
        loop {
            match reader.next(s).await {
                Some(a) if a.status < 200 => {}
                Some(a) => {
                    let line = summary(&a);
                    let last = line == "healthz";
                    seen.push(line);
                    if last {
                        return seen;
                    }
                }
                // Anything after the last answer is a stray answer (an HTTP/2 frame, say).
                None if reader.got.is_empty() => {
                    seen.push("closed".to_owned());
                    return seen;
                }
                None => {
                    seen.push(format!("closed after {:?}", String::from_utf8_lossy(&reader.got)));
                    return seen;
                }
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("neither answered nor closed: {:?}", String::from_utf8_lossy(&bytes)))
}

async fn connect(gw: &Gateway) -> TcpStream {
    let s = TcpStream::connect(gw.addr).await.unwrap();
    s.set_nodelay(true).unwrap();
    s
}

/// What reached the upstream: every JSON-RPC id it received.
async fn ids_received(upstream: &Upstream) -> Vec<String> {
    upstream
        .received()
        .await
        .iter()
        .flat_map(|e| e["messages"].as_array().cloned().unwrap_or_default())
        .filter_map(|m| m["id"].as_str().map(str::to_owned))
        .collect()
}

async fn enforce_rig(name: &str, listen: &str) -> (Rig, Upstream, Gateway) {
    let rig = Rig::new(name);
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let config = format!(
        "[policy]\nmode = \"enforce\"\nmin_tier = \"B\"\n\n[[upstream]]\nname = \"rig\"\nurl = \"{}\"\n",
        upstream.url()
    );
    let gw = Gateway::start(&rig, listen, &config).await;
    (rig, upstream, gw)
}

/// The hidden call refused, and the connection kept for the health check.
const REFUSED: &[&str] = &["200 bad refused", "healthz"];
/// The hidden call refused, and the connection closed after it.
const REFUSED_CLOSED: &[&str] = &["200 bad refused", "closed"];
/// hyper's answer to a request it cannot read: 400, and the connection's end.
const BAD: &[&str] = &["400", "closed"];

/// The hostile framings: what each is, its bytes, and the answers expected before the health
/// check (`closed`: the connection ended instead). Ids starting `bad` call the hidden tool,
/// `ok` ids the allowed one.
struct Table {
    port: u16,
    /// The hidden call's body length.
    n: usize,
    cases: Vec<(&'static str, Vec<u8>, &'static [&'static str])>,
}

impl Table {
    fn add(&mut self, what: &'static str, bytes: impl Into<Vec<u8>>, expected: &'static [&'static str]) {
        self.cases.push((what, bytes.into(), expected));
    }

    /// The hidden call under the usual request line, with `framing` as its framing fields.
    fn hidden(&self, framing: &str) -> String {
        self.hidden_under("POST /mcp/rig HTTP/1.1", framing)
    }

    fn hidden_under(&self, line: &str, framing: &str) -> String {
        let (head, body) = framed(self.port, line, "bad", HIDDEN, framing);
        format!("{head}{body}")
    }

    /// The hidden call in chunks, with `framing` as its framing fields.
    fn hidden_chunked(&self, line: &str, framing: &str) -> String {
        let (head, body) = framed(self.port, line, "bad", HIDDEN, framing);
        format!("{head}{}", chunked(&body))
    }

    /// The hidden call framed by its length, with `fields` before the length.
    fn hidden_with(&self, fields: &str) -> String {
        self.hidden(&format!("{fields}Content-Length: {}\r\n", self.n))
    }
}

fn table(port: u16) -> Vec<(&'static str, Vec<u8>, &'static [&'static str])> {
    let n = call_body("bad", HIDDEN).len();
    let mut t = Table { port, n, cases: Vec::new() };
    let u = usual(port);
    let line = "POST /mcp/rig HTTP/1.1";
    let hidden = call(port, "bad", HIDDEN, "");

    // Content-Length, repeated and malformed.
    t.add("two lengths, different", t.hidden(&format!("Content-Length: {n}\r\nContent-Length: {}\r\n", n + 5)), BAD);
    t.add("two lengths, equal", t.hidden(&format!("Content-Length: {n}\r\nContent-Length: {n}\r\n")), REFUSED);
    t.add("a length with a plus sign", t.hidden(&format!("Content-Length: +{n}\r\n")), BAD);
    t.add("a negative length", t.hidden(&format!("Content-Length: -{n}\r\n")), BAD);
    t.add("a length with leading zeros", t.hidden(&format!("Content-Length: 000{n}\r\n")), REFUSED);
    t.add("a length between blanks", t.hidden(&format!("Content-Length: \t {n} \t\r\n")), REFUSED);
    t.add("a length list, equal", t.hidden(&format!("Content-Length: {n}, {n}\r\n")), BAD);
    t.add("a length list, different", t.hidden(&format!("Content-Length: {n},5\r\n")), BAD);
    t.add("an empty length", t.hidden("Content-Length: \r\n"), BAD);
    t.add("a hexadecimal length", t.hidden(&format!("Content-Length: 0x{n:x}\r\n")), BAD);
    t.add("a length past u64", t.hidden("Content-Length: 99999999999999999999999\r\n"), BAD);
    t.add("a length with a space inside", t.hidden(&format!("Content-Length: 1 {}\r\n", n - 10)), BAD);

    // Content-Length and Transfer-Encoding: chunks win, and the connection closes after.
    let both = "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n";
    t.add("a length and chunks", t.hidden_chunked(line, both), REFUSED_CLOSED);
    let both = "Transfer-Encoding: chunked\r\nContent-Length: 4\r\n";
    t.add("chunks and then a length", t.hidden_chunked(line, both), REFUSED_CLOSED);
    t.add("chunked in odd casing", t.hidden_chunked(line, "tRaNsFeR-eNcOdInG: ChUnKeD\r\n"), REFUSED);
    t.add("chunked, identity", t.hidden_chunked(line, "Transfer-Encoding: chunked, identity\r\n"), BAD);
    let two = "Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n";
    t.add("chunked then identity on two lines", t.hidden_chunked(line, two), BAD);
    t.add("identity, with a length", t.hidden_with("Transfer-Encoding: identity\r\n"), BAD);
    t.add("chunked behind a vertical tab", t.hidden_with("Transfer-Encoding: \x0bchunked\r\n"), BAD);
    t.add("Transfer_Encoding with an underscore", t.hidden_with("Transfer_Encoding: chunked\r\n"), REFUSED);

    // Lines and field syntax.
    t.add("a folded field", t.hidden_with("X-Folded: a\r\n b\r\n"), BAD);
    t.add("a folded length", t.hidden(&format!("Content-Length:\r\n {n}\r\n")), BAD);
    t.add("bare LF line ends", t.hidden_with("").replace('\r', ""), REFUSED);
    t.add("a CR without LF", t.hidden_with("X-A: 1\rContent-Length: 4\r\n"), BAD);
    t.add("a blank before the colon", t.hidden(&format!("Content-Length : {n}\r\n")), BAD);
    t.add("a tab before the colon", t.hidden(&format!("Content-Length\t: {n}\r\n")), BAD);
    t.add("a NUL in a value", t.hidden_with("X-A: a\0b\r\n"), BAD);
    t.add("a DEL in a value", t.hidden_with("X-A: a\x7fb\r\n"), BAD);
    t.add("a name with a parenthesis", t.hidden_with("X(a): 1\r\n"), BAD);
    t.add("a name with a blank", t.hidden_with("X a: 1\r\n"), BAD);
    t.add("an empty name", t.hidden_with(": 1\r\n"), BAD);
    t.add("a field line before the request line", format!(" X-A: 1\r\n{hidden}"), BAD);
    t.add("blank lines before the request line", format!("\r\n\r\n{hidden}"), REFUSED);

    // Requests hidden among others.
    let allowed = call(port, "ok-1", ALLOWED, "");
    t.add(
        "a hidden call behind an allowed one",
        format!("{allowed}{hidden}"),
        &["200 ok-1 ran", "200 bad refused", "healthz"],
    );
    let ping = r#"{"jsonrpc":"2.0","id":"ok-2","method":"ping"}"#;
    let short = format!("POST /mcp/rig HTTP/1.1\r\n{u}Content-Length: {}\r\n\r\n{ping}{hidden}", ping.len());
    t.add("a call inside a short length's body", short, &["200 ok-2 ran", "200 bad refused", "healthz"]);
    let long =
        format!("POST /mcp/rig HTTP/1.1\r\n{u}Content-Length: {}\r\n\r\n{ping}{hidden}", ping.len() + hidden.len());
    t.add("a call inside a long length's body", long, &["400", "healthz"]);
    let zero = format!("POST /mcp/rig HTTP/1.1\r\n{u}Content-Length: 0\r\n\r\n{hidden}");
    t.add("a call after a zero length", zero, &["400", "200 bad refused", "healthz"]);
    let get =
        format!("GET /readyz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: {}\r\n\r\n{hidden}", hidden.len());
    t.add("a call as the body of a GET", get, &["200", "closed"]);
    let closing =
        format!("{}{}", call(port, "ok-4", ALLOWED, "Connection: close\r\n"), call(port, "after-close", ALLOWED, ""));
    t.add("an allowed call behind Connection: close", closing, &["200 ok-4 ran", "closed"]);

    // Versions and keep-alive.
    let length = format!("Content-Length: {n}\r\n");
    t.add("HTTP/1.0", t.hidden_under("POST /mcp/rig HTTP/1.0", &length), REFUSED_CLOSED);
    let keep = format!("Connection: keep-alive\r\n{length}");
    t.add("HTTP/1.0 with keep-alive", t.hidden_under("POST /mcp/rig HTTP/1.0", &keep), REFUSED);
    t.add("HTTP/1.0 with chunks", t.hidden_chunked("POST /mcp/rig HTTP/1.0", "Transfer-Encoding: chunked\r\n"), BAD);
    t.add("keep-alive and close", t.hidden_with("Connection: keep-alive\r\nConnection: close\r\n"), REFUSED_CLOSED);
    t.add("a Connection option naming a field", t.hidden_with("Connection: keep-alive, X-A\r\nX-A: 1\r\n"), REFUSED);

    // Request lines and targets.
    let absolute = format!("POST http://127.0.0.1:{port}/mcp/rig HTTP/1.1");
    t.add("an absolute-form target", t.hidden_under(&absolute, &length), BAD);
    t.add(
        "an absolute-form target elsewhere",
        t.hidden_under("POST http://evil.example/mcp/rig HTTP/1.1", &length),
        BAD,
    );
    t.add("an asterisk target", format!("OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"), &["404", "healthz"]);
    t.add(
        "a target of two slashes",
        t.hidden_under("POST //evil.example/mcp/rig HTTP/1.1", &length),
        &["404", "closed"],
    );
    t.add("a lower-case method", t.hidden_under("post /mcp/rig HTTP/1.1", &length), &["405", "closed"]);
    t.add("two blanks after the method", t.hidden_under("POST  /mcp/rig HTTP/1.1", &length), BAD);
    t.add("two blanks before the version", t.hidden_under("POST /mcp/rig  HTTP/1.1", &length), BAD);
    t.add("tabs between the parts", t.hidden_under("POST\t/mcp/rig\tHTTP/1.1", &length), BAD);
    t.add("junk after the version", t.hidden_under("POST /mcp/rig HTTP/1.1 junk", &length), BAD);
    t.add("junk glued to the version", t.hidden_under("POST /mcp/rig HTTP/1.1x", &length), BAD);
    t.add("HTTP/1.2", t.hidden_under("POST /mcp/rig HTTP/1.2", &length), BAD);
    t.add("a lower-case version", t.hidden_under("POST /mcp/rig http/1.1", &length), BAD);
    t.add("a blank inside the target", t.hidden_under("POST /mcp/r ig HTTP/1.1", &length), BAD);
    // The `http` crate takes bytes past ASCII in a path, as hyper does: an unknown route.
    t.add(
        "a raw non-ASCII byte in the target",
        t.hidden_under("POST /mcp/rig\u{e9} HTTP/1.1", &length),
        &["404", "healthz"],
    );

    // Host.
    let headless = hidden.replace(&format!("Host: 127.0.0.1:{port}\r\n"), "");
    t.add("no Host", headless.clone(), REFUSED);
    t.add("two Hosts", t.hidden_with("Host: evil.example\r\n"), BAD);
    t.add("a foreign Host", headless.replace("\r\n\r\n", "\r\nHost: evil.example\r\n\r\n"), &["403", "closed"]);

    // What the own server leaves to hyper by design.
    t.add("Expect: 100-continue", t.hidden_with("Expect: 100-continue\r\n"), REFUSED);
    t.add("an Upgrade", t.hidden_with("Connection: upgrade\r\nUpgrade: websocket\r\n"), REFUSED);
    // HTTP/2 with prior knowledge is for a connection's first bytes: hyper, having read HTTP/1.1
    // on it, closes at a preface; so must a connection the own server began.
    let preface = format!("{}PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", call(port, "ok-5", ALLOWED, ""));
    t.add("the HTTP/2 preface after a request", preface, &["200 ok-5 ran", "closed"]);

    // Heads and bodies around the own server's limits (64 KiB each).
    t.add("a head just under 64 KiB", t.hidden_with(&format!("X-Pad: {}\r\n", "p".repeat(60 * 1024))), REFUSED);
    t.add("a head just over 64 KiB", t.hidden_with(&format!("X-Pad: {}\r\n", "p".repeat(66 * 1024))), REFUSED);
    for (what, size) in [("a body of 64 KiB", 64 * 1024), ("a body one byte over 64 KiB", 64 * 1024 + 1)] {
        let body = format!("{}{}", call_body("bad", HIDDEN), " ".repeat(size - n));
        t.add(what, format!("POST /mcp/rig HTTP/1.1\r\n{u}Content-Length: {size}\r\n\r\n{body}"), REFUSED);
    }
    t.cases
}

/// Every framing of the table, read first by the own server and then by hyper alone, answers as
/// the table says on both; no hidden tool and nothing behind a close reaches the upstream; a
/// client on another connection is answered after each.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_framings_are_served_as_hyper_serves_them_or_refused() {
    let (_rig, upstream, gw) = enforce_rig("h1-attacks-table", "").await;
    let port = gw.addr.port();
    let mut bystander = connect(&gw).await;
    let mut bystander_reader = Reader { got: Vec::new() };
    let mut failures = Vec::new();
    for (what, bytes, expected) in table(port) {
        // The own server first.
        let mut s = connect(&gw).await;
        let own = exchange(&mut s, &mut Reader { got: Vec::new() }, &bytes, port).await;
        // hyper alone: a chunked ping first hands the connection over before the attack comes.
        let mut s = connect(&gw).await;
        let mut reader = Reader { got: Vec::new() };
        let ping = r#"{"jsonrpc":"2.0","id":"ok-prefix","method":"ping"}"#;
        let prefix =
            format!("POST /mcp/rig HTTP/1.1\r\n{}Transfer-Encoding: chunked\r\n\r\n{}", usual(port), chunked(ping));
        s.write_all(prefix.as_bytes()).await.unwrap();
        assert_eq!(summary(&reader.answer(&mut s).await), "200 ok-prefix ran", "{what}: the prefix");
        let hyper = exchange(&mut s, &mut reader, &bytes, port).await;
        if own != expected || hyper != expected {
            failures.push(format!("{what}: expected {expected:?}, own server {own:?}, hyper {hyper:?}"));
        }
        // Someone else is still served, on a connection opened before the attack.
        bystander.write_all(health(port).as_bytes()).await.unwrap();
        assert_eq!(bystander_reader.answer(&mut bystander).await.status, 200, "{what}: the bystander");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // A head past hyper's own limit (about 400 KB) is refused; the gateway may close before it
    // has read all of it, and the client then sees a reset instead of the 431.
    let long = format!(
        "{}X-Pad: {}\r\n\r\n",
        call(port, "bad", HIDDEN, "").split("\r\n\r\n").next().unwrap_or(""),
        "p".repeat(600 * 1024)
    );
    let mut s = connect(&gw).await;
    let seen = exchange(&mut s, &mut Reader { got: Vec::new() }, long.as_bytes(), port).await;
    assert!(seen == ["431", "closed"] || seen == ["closed"], "a head past hyper's limit: {seen:?}");
    let ran = upstream.calls_received().await;
    assert!(!ran.iter().any(|t| t == HIDDEN), "a hidden tool reached the upstream: {ran:?}");
    let ids = ids_received(&upstream).await;
    assert!(!ids.iter().any(|id| id == "after-close"), "a request behind a close was served: {ids:?}");
    assert!(ids.iter().any(|id| id == "ok-1"), "allowed calls ran: {ids:?}");
}

/// A head written a byte at a time, and a body cut at every byte into two writes, are read
/// whole: the hidden call is refused each time (never run on a part), the allowed one runs once
/// per cut; a body that lags its head gets no answer before it is whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heads_and_bodies_split_anywhere_are_read_whole() {
    let (_rig, upstream, gw) = enforce_rig("h1-attacks-split", "").await;
    let port = gw.addr.port();
    let hidden = call(port, "bad", HIDDEN, "");
    let head_len = hidden.find("\r\n\r\n").unwrap() + 4;
    let mut s = connect(&gw).await;
    let mut reader = Reader { got: Vec::new() };
    let bytes: Vec<&[u8]> = hidden.as_bytes().chunks(1).collect();
    assert_eq!(exchange_in(&mut s, &mut reader, &bytes, port).await, ["200 bad refused", "healthz"], "byte by byte");
    // Every cut of the body, each on a connection of its own and on one kept connection.
    let mut kept = connect(&gw).await;
    let mut kept_reader = Reader { got: Vec::new() };
    for cut in head_len..hidden.len() {
        let (a, b) = hidden.as_bytes().split_at(cut);
        let mut s = connect(&gw).await;
        let seen = exchange_in(&mut s, &mut Reader { got: Vec::new() }, &[a, b], port).await;
        assert_eq!(seen, ["200 bad refused", "healthz"], "cut at {cut}");
        let seen = exchange_in(&mut kept, &mut kept_reader, &[a, b], port).await;
        assert_eq!(seen, ["200 bad refused", "healthz"], "cut at {cut}, kept connection");
    }
    // A body that lags: no answer while it is partial (the own server hands the connection to
    // hyper after its grace), then the answer once the rest comes.
    for (n, cut) in [head_len, head_len + 1, hidden.len() - 1].into_iter().enumerate() {
        let id = format!("ok-late-{n}");
        let allowed = call(port, &id, ALLOWED, "");
        let cut = cut.min(allowed.len() - 1);
        let mut s = connect(&gw).await;
        s.write_all(&allowed.as_bytes()[..cut]).await.unwrap();
        let mut early = [0u8; 64];
        let got = tokio::time::timeout(Duration::from_millis(300), s.read(&mut early)).await;
        assert!(got.is_err(), "an answer (or an end) before the body was whole: {got:?}");
        let seen = exchange_in(&mut s, &mut Reader { got: Vec::new() }, &[&allowed.as_bytes()[cut..]], port).await;
        assert_eq!(seen, [format!("200 {id} ran").as_str(), "healthz"], "cut at {cut}");
    }
    let ran = upstream.calls_received().await;
    assert!(!ran.iter().any(|t| t == HIDDEN), "a hidden tool reached the upstream: {ran:?}");
    assert_eq!(ran.iter().filter(|t| *t == ALLOWED).count(), 3, "each late call ran once: {ran:?}");
}

/// A client that leaves mid-request, by closing or by shutting its side, has nothing of that
/// request forwarded: a cut body is not a request, allowed tool or not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_cut_by_its_client_reaches_nothing() {
    let (_rig, upstream, gw) = enforce_rig("h1-attacks-cut", "").await;
    let port = gw.addr.port();
    let mut bystander = connect(&gw).await;
    let mut bystander_reader = Reader { got: Vec::new() };
    for shut in [true, false] {
        for tool in [ALLOWED, HIDDEN] {
            let template = call(port, "cut-0000", tool, "");
            let head_len = template.find("\r\n\r\n").unwrap() + 4;
            for cut in [head_len / 2, head_len - 2, head_len, head_len + 1, template.len() - 1] {
                let id = format!("cut-{cut:04}");
                let request = call(port, &id, tool, "");
                // Behind a whole request, so the own server is mid-connection when the cut comes.
                let first = call(port, "ok-before", ALLOWED, "");
                let mut s = connect(&gw).await;
                s.write_all(format!("{first}{}", &request[..cut]).as_bytes()).await.unwrap();
                let mut reader = Reader { got: Vec::new() };
                assert_eq!(summary(&reader.answer(&mut s).await), "200 ok-before ran");
                if shut {
                    s.shutdown().await.unwrap();
                    // Whatever the gateway answers, it is no success, and it then closes.
                    let end = tokio::time::timeout(patient(Duration::from_secs(40)), reader.next(&mut s)).await;
                    match end {
                        Ok(None) => {}
                        Ok(Some(a)) => assert!(a.status >= 400, "{tool} cut at {cut}: {}", a.head),
                        Err(_) => panic!("{tool} cut at {cut}: the connection stayed open"),
                    }
                } else {
                    drop(s);
                }
                bystander.write_all(health(port).as_bytes()).await.unwrap();
                assert_eq!(bystander_reader.answer(&mut bystander).await.status, 200, "the bystander");
            }
        }
    }
    // A dropped connection ends on its own task, whose end is not seen from here: a last call
    // through the upstream gives them its round trip before the record is read (the shut
    // ones above were each waited for).
    let mut s = connect(&gw).await;
    let seen =
        exchange(&mut s, &mut Reader { got: Vec::new() }, call(port, "ok-last", ALLOWED, "").as_bytes(), port).await;
    assert_eq!(seen, ["200 ok-last ran", "healthz"]);
    let ids = ids_received(&upstream).await;
    assert!(!ids.iter().any(|id| id.starts_with("cut-")), "a cut request was forwarded: {ids:?}");
    let ran = upstream.calls_received().await;
    assert!(!ran.iter().any(|t| t == HIDDEN), "a hidden tool reached the upstream: {ran:?}");
}

/// Connections holding half a head (or a head and half a body) do not hold up anyone else:
/// a new client is answered while they wait, and each is still served when it finishes. With
/// a short header limit, a client trickling its head a byte at a time is closed at the limit
/// and its request never reaches the upstream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn held_heads_block_no_one_and_a_trickle_is_cut_at_the_header_limit() {
    let (rig, upstream, gw) =
        enforce_rig("h1-attacks-held", "header_read_timeout_ms = 60000\nbody_read_timeout_ms = 60000").await;
    let port = gw.addr.port();
    let mut held = Vec::new();
    for i in 0..120 {
        let tool = if i % 2 == 0 { HIDDEN } else { ALLOWED };
        let request = call(port, &format!("held-{i:03}"), tool, "");
        let head_len = request.find("\r\n\r\n").unwrap() + 4;
        // Half a head, or a whole head and half a body.
        let cut = if i < 100 { head_len / 2 } else { head_len + (request.len() - head_len) / 2 };
        let mut s = connect(&gw).await;
        s.write_all(&request.as_bytes()[..cut]).await.unwrap();
        held.push((s, request, cut, tool));
    }
    let mut s = connect(&gw).await;
    let seen =
        exchange(&mut s, &mut Reader { got: Vec::new() }, call(port, "ok-fresh", ALLOWED, "").as_bytes(), port).await;
    assert_eq!(seen, ["200 ok-fresh ran", "healthz"], "a new client while others hold half requests");
    for (mut s, request, cut, tool) in held {
        let seen = exchange_in(&mut s, &mut Reader { got: Vec::new() }, &[&request.as_bytes()[cut..]], port).await;
        let id = request.split("\"id\":\"").nth(1).and_then(|r| r.split('"').next()).unwrap_or_default().to_owned();
        let verdict = if tool == HIDDEN { "refused" } else { "ran" };
        assert_eq!(seen, [format!("200 {id} {verdict}").as_str(), "healthz"], "a held request, finished");
    }

    // A short header limit against a head that never ends.
    let config = format!(
        "[policy]\nmode = \"enforce\"\nmin_tier = \"B\"\n\n[[upstream]]\nname = \"rig\"\nurl = \"{}\"\n",
        upstream.url()
    );
    let strict = Gateway::start(&rig, "header_read_timeout_ms = 1000", &config).await;
    let mut s = connect(&strict).await;
    let request = call(strict.addr.port(), "trickled", ALLOWED, "X-Slow: ");
    let (start, _) = request.split_at(request.find("X-Slow: ").unwrap() + 8);
    s.write_all(start.as_bytes()).await.unwrap();
    // The attack's own pace, a byte every 100 ms: the wait is for the gateway's end.
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    let (mut rd, mut wr) = s.split();
    let trickle = async {
        let mut byte = [0u8; 1];
        loop {
            tokio::select! {
                r = rd.read(&mut byte) => {
                    assert!(!matches!(r, Ok(n) if n > 0), "an answer to a head that never ended");
                    return;
                }
                _ = tick.tick() => {
                    if wr.write_all(b"a").await.is_err() {
                        return;
                    }
                }
            }
        }
    };
    tokio::time::timeout(patient(Duration::from_secs(20)), trickle).await.expect("the trickle was cut");
    let ids = ids_received(&upstream).await;
    assert!(!ids.iter().any(|id| id == "trickled"), "{ids:?}");
}
