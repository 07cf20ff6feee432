//! The gateway's own HTTP client to its upstreams (hyper-util, a target prepared per upstream
//! at start), against a bare TCP upstream that records each request head as it came off the
//! wire: what crosses (the configured URL's query and userinfo, `Host`, no hop-by-hop headers
//! either way), an SSE answer relayed as it arrives, the connect and response timeouts as clear
//! 504s, and a `${VAR}` missing from a configured header stopping `serve` and `check-config`.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;

use crate::support::gateway;
use crate::support::process::run_to_exit;
use crate::support::rig::{Gateway, Rig, Scratch};

const CALL: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{}}}"#;

/// An upstream that answers by path: `/json` a JSON result (with hop-by-hop headers of its
/// own), `/sse` one event, then a second once `release` is notified, `/stall` nothing at all.
struct Bare {
    port: u16,
    heads: Arc<Mutex<Vec<String>>>,
    release: Arc<Notify>,
}

impl Bare {
    async fn start() -> Bare {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let heads = Arc::new(Mutex::new(Vec::new()));
        let release = Arc::new(Notify::new());
        let (h, r) = (heads.clone(), release.clone());
        tokio::spawn(async move {
            loop {
                let Ok((s, _)) = listener.accept().await else { return };
                tokio::spawn(serve(s, h.clone(), r.clone()));
            }
        });
        Bare { port, heads, release }
    }

    fn heads(&self) -> Vec<String> {
        self.heads.lock().unwrap().clone()
    }
}

async fn serve(mut s: TcpStream, heads: Arc<Mutex<Vec<String>>>, release: Arc<Notify>) {
    let mut buf = Vec::new();
    loop {
        // One request: the head, then as many body bytes as it declares.
        let end = loop {
            if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            let mut chunk = [0u8; 4096];
            match s.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        };
        let head = String::from_utf8_lossy(&buf[..end]).into_owned();
        let length = head
            .lines()
            .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_owned()))
            .and_then(|v| v.parse::<usize>().ok())
            .unwrap_or(0);
        while buf.len() < end + length {
            let mut chunk = [0u8; 4096];
            match s.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        }
        buf.drain(..end + length);
        let path = head.split(' ').nth(1).unwrap_or("").to_owned();
        heads.lock().unwrap().push(head);
        if path.starts_with("/stall") {
            tokio::time::sleep(Duration::from_secs(60)).await;
            return;
        }
        if path.starts_with("/sse") {
            let first = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}\n\n";
            let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";
            let chunk = |data: &str| format!("{:x}\r\n{data}\r\n", data.len());
            if s.write_all(format!("{head}{}", chunk(first)).as_bytes()).await.is_err() {
                return;
            }
            release.notified().await;
            let second = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[]}}\n\n";
            let _ = s.write_all(format!("{}0\r\n\r\n", chunk(second)).as_bytes()).await;
            continue;
        }
        let body = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hi"}]}}"#;
        let answer = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nkeep-alive: timeout=5\r\nconnection: x-hop\r\nx-hop: 1\r\nx-kept: 2\r\n\r\n{body}",
            body.len()
        );
        if s.write_all(answer.as_bytes()).await.is_err() {
            return;
        }
    }
}

fn post(url: &str) -> reqwest::RequestBuilder {
    reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(CALL)
}

/// What reaches the upstream and what comes back, through the prepared target.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_cross_as_configured_and_answers_stream() {
    let rig = Rig::new("upstream-client");
    let up = Bare::start().await;
    let config = format!(
        "[policy]\nmode = \"observe\"\n\n\
         [[upstream]]\nname = \"json\"\nurl = \"http://robot:pa%20ss@127.0.0.1:{p}/json?tenant=a#ignored\"\n\n\
         [[upstream]]\nname = \"sse\"\nurl = \"http://127.0.0.1:{p}/sse\"\n",
        p = up.port
    );
    let gw = Gateway::start(&rig, "", &config).await;

    // The configured query first, the client's after it; userinfo as Basic credentials when
    // the client sends none; the upstream's own Host; nothing hop-by-hop.
    let resp = post(&format!("{}?trace=1", gw.url("json")))
        .header("connection", "x-private")
        .header("x-private", "secret")
        .header("te", "trailers")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let h = resp.headers().clone();
    assert_eq!(h["x-kept"], "2", "end-to-end answer headers pass");
    // A sized answer keeps its size: the client sees the upstream's Content-Length, not chunks.
    let sized = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hi"}]}}"#.len();
    assert_eq!(h.get("content-length").map(|v| v.to_str().unwrap()), Some(sized.to_string().as_str()), "{h:?}");
    assert!(!h.contains_key("transfer-encoding"), "{h:?}");
    for dropped in ["x-hop", "keep-alive"] {
        assert!(!h.contains_key(dropped), "{dropped} is hop-by-hop: {h:?}");
    }
    let v: Value = resp.json().await.unwrap();
    assert_eq!(v["result"]["content"][0]["text"], "hi");
    let head = up.heads().pop().unwrap().to_ascii_lowercase();
    assert!(head.starts_with("post /json?tenant=a&trace=1 http/1.1\r\n"), "{head}");
    assert!(head.contains(&format!("\r\nhost: 127.0.0.1:{}\r\n", up.port)), "{head}");
    // base64("robot:pa ss")
    assert!(head.contains("\r\nauthorization: basic cm9ib3q6cgegc3m=\r\n"), "{head}");
    assert!(head.contains("\r\naccept-encoding: identity\r\n"), "{head}");
    for dropped in ["x-private", "te:", "connection:"] {
        assert!(!head.contains(dropped), "{dropped} is hop-by-hop: {head}");
    }

    // The client's own Authorization wins over the URL's (there is no [auth] here).
    post(&gw.url("json")).header("authorization", "Bearer mine").send().await.unwrap();
    let head = up.heads().pop().unwrap().to_ascii_lowercase();
    assert!(head.contains("\r\nauthorization: bearer mine\r\n"), "{head}");

    // An SSE answer is relayed as it arrives: the first event reaches the client while the
    // upstream still holds the second back.
    let resp = post(&gw.url("sse")).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert!(resp.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
    let mut body = resp.bytes_stream();
    let first = tokio::time::timeout(Duration::from_secs(20), body.next()).await.expect("the first event, unbuffered");
    assert!(String::from_utf8_lossy(&first.unwrap().unwrap()).contains("notifications/progress"));
    up.release.notify_one();
    let mut rest = Vec::new();
    while let Some(chunk) = tokio::time::timeout(Duration::from_secs(20), body.next()).await.unwrap() {
        rest.extend_from_slice(&chunk.unwrap());
    }
    assert!(String::from_utf8_lossy(&rest).contains(r#""id":7"#), "the answer follows");
}

/// A connection that never comes up (TLS that never answers its handshake) and an answer that
/// never begins are each a 504 naming the bound; the gateway goes on serving.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upstream_timeouts_are_clear_errors() {
    let rig = Rig::new("upstream-client-timeouts");
    let up = Bare::start().await;
    // Accepts TCP and then says nothing: a TLS handshake to it never finishes.
    let mute = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let mute_port = mute.local_addr().unwrap().port();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((s, _)) = mute.accept().await {
            held.push(s);
        }
    });
    let config = format!(
        "[policy]\nmode = \"observe\"\n\n\
         [[upstream]]\nname = \"mute\"\nurl = \"https://127.0.0.1:{mute_port}/mcp\"\nconnect_timeout_ms = 300\n\n\
         [[upstream]]\nname = \"stall\"\nurl = \"http://127.0.0.1:{p}/stall\"\nresponse_timeout_ms = 300\n\n\
         [[upstream]]\nname = \"json\"\nurl = \"http://127.0.0.1:{p}/json\"\n",
        p = up.port
    );
    let gw = Gateway::start(&rig, "", &config).await;
    for (name, says) in [("mute", "did not accept a connection within 300 ms"), ("stall", "did not begin its answer")] {
        let started = Instant::now();
        let resp = post(&gw.url(name)).send().await.unwrap();
        assert_eq!(resp.status(), 504, "{name}");
        let v: Value = resp.json().await.unwrap();
        assert_eq!(v["id"], 7, "{v}");
        let message = v["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says) && message.contains(name), "{name}: {v}");
        assert!(started.elapsed() < Duration::from_secs(10), "{name} took {:?}", started.elapsed());
    }
    let resp = post(&gw.url("json")).send().await.unwrap();
    assert_eq!(resp.status(), 200, "still serving");
    assert_eq!(resp.json::<Value>().await.unwrap()["id"], json!(7));
}

/// A `${VAR}` in an upstream's headers that is not set is a start-up error naming the
/// upstream, the header and the variable, for `serve` and `check-config` alike.
#[test]
fn a_header_variable_that_is_not_set_stops_serve_and_check_config() {
    let scratch = Scratch::new("unset-header-variable");
    let path = scratch.path("gateway.toml");
    std::fs::write(
        &path,
        "[listen]\naddr = \"127.0.0.1:0\"\n[store]\nurl = \"memory\"\n\n[[upstream]]\nname = \"keyed\"\n\
         url = \"http://127.0.0.1:9/mcp\"\nheaders = { X-Upstream-Key = \"k-${TDQS_IT_SURELY_UNSET_KEY}\" }\n",
    )
    .unwrap();
    let run = |args: &[&str], key: Option<&str>| {
        let mut cmd = gateway::command();
        cmd.args(args).arg("--config").arg(&path).env("TDQS_LOG", "warn");
        match key {
            Some(k) => cmd.env("TDQS_IT_SURELY_UNSET_KEY", k),
            None => cmd.env_remove("TDQS_IT_SURELY_UNSET_KEY"),
        };
        let (status, err) = run_to_exit(&scratch.dir, args[0], cmd, Duration::from_secs(60));
        (status.success(), err)
    };
    for args in [&["check-config"][..], &["serve"][..]] {
        let (ok, err) = run(args, None);
        assert!(!ok, "{args:?} must fail");
        for named in ["keyed", "X-Upstream-Key", "TDQS_IT_SURELY_UNSET_KEY"] {
            assert!(err.contains(named), "{args:?} names {named}: {err}");
        }
    }
    let (ok, err) = run(&["check-config"], Some("set"));
    assert!(ok, "with the variable set: {err}");
}
