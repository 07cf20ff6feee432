//! The keep-alive race, made certain: loopback upstreams that answer the first request on each
//! connection and then treat the next one on it the way a server closing an idle connection at
//! that instant does. What reaches the client through the gateway:
//!
//! - the upstream takes the request and closes without a byte: the gateway sends it once more
//!   on a new connection, and the client gets the answer (never a 502);
//! - the upstream begins an answer and closes: the request is not sent again (a 502, and one
//!   copy upstream), whatever its method; an interim answer (`102 Processing`, `103 Early
//!   Hints`) is an answer begun: the request reached the application, which may have acted on it;
//! - the first request on a new connection is closed without an answer: not sent again either
//!   (a new connection cannot have been given up for being idle).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::support::rig::{Gateway, Rig};

/// What the upstream does with the second and later requests on a connection.
#[derive(Clone, Copy)]
enum Later {
    /// Reads it whole, then closes: what a keep-alive timeout firing as it arrived looks like.
    Close,
    /// Sends the start of an answer head, then closes.
    Partial,
    /// Sends an interim answer whole (the request reached the application), then closes.
    Interim,
}

/// How a connection's requests are met: `first_too` also closes on the first, unanswered.
#[derive(Clone, Copy)]
struct Manner {
    later: Later,
    first_too: bool,
}

struct Hostile {
    port: u16,
    /// Copies received of each JSON-RPC id.
    seen: Arc<Mutex<HashMap<i64, usize>>>,
    /// Connections the upstream closed under a request.
    closed_under: Arc<Mutex<usize>>,
}

impl Hostile {
    async fn start(manner: Manner) -> Hostile {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(HashMap::new()));
        let closed_under = Arc::new(Mutex::new(0));
        let (s, c) = (seen.clone(), closed_under.clone());
        tokio::spawn(async move {
            while let Ok((conn, _)) = listener.accept().await {
                tokio::spawn(serve(conn, manner, s.clone(), c.clone()));
            }
        });
        Hostile { port, seen, closed_under }
    }

    fn copies(&self, id: i64) -> usize {
        self.seen.lock().unwrap().get(&id).copied().unwrap_or(0)
    }

    fn closed_under(&self) -> usize {
        *self.closed_under.lock().unwrap()
    }
}

/// One request off `s`: its body, or `None` at EOF.
async fn read_request(s: &mut TcpStream, buf: &mut Vec<u8>) -> Option<Vec<u8>> {
    let end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let mut chunk = [0u8; 4096];
        match s.read(&mut chunk).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    };
    let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:").map(|v| v.trim().to_owned()))
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(0);
    while buf.len() < end + length {
        let mut chunk = [0u8; 4096];
        match s.read(&mut chunk).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
    let body = buf[end..end + length].to_vec();
    buf.drain(..end + length);
    Some(body)
}

async fn serve(mut s: TcpStream, manner: Manner, seen: Arc<Mutex<HashMap<i64, usize>>>, closed: Arc<Mutex<usize>>) {
    let mut buf = Vec::new();
    let mut n = 0;
    while let Some(body) = read_request(&mut s, &mut buf).await {
        n += 1;
        let id = serde_json::from_slice::<Value>(&body).ok().and_then(|v| v["id"].as_i64()).unwrap_or(-1);
        *seen.lock().unwrap().entry(id).or_default() += 1;
        if n > 1 || manner.first_too {
            *closed.lock().unwrap() += 1;
            match manner.later {
                Later::Partial => drop(s.write_all(b"HTTP/1.1 200 OK\r\ncontent-type: appl").await),
                Later::Interim => drop(s.write_all(b"HTTP/1.1 102 Processing\r\n\r\n").await),
                Later::Close => {}
            }
            return;
        }
        let answer = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":"hi"}}]}}}}"#);
        let reply = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{answer}",
            answer.len()
        );
        if s.write_all(reply.as_bytes()).await.is_err() {
            return;
        }
    }
}

async fn call(http: &reqwest::Client, url: &str, id: i64) -> (u16, Value) {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "echo", "arguments": {}}});
    let resp = http
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .json(&body)
        .send()
        .await
        .expect("an answer from the gateway");
    let status = resp.status().as_u16();
    let text = resp.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or_else(|_| json!({ "raw": text })))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_lost_to_a_closing_keep_alive_connection_is_sent_once_more_and_only_then() {
    let rig = Rig::new("keepalive");
    let closing = Hostile::start(Manner { later: Later::Close, first_too: false }).await;
    let partial = Hostile::start(Manner { later: Later::Partial, first_too: false }).await;
    let unanswered = Hostile::start(Manner { later: Later::Close, first_too: true }).await;
    let config = format!(
        "[policy]\nmode = \"observe\"\n\n\
         [[upstream]]\nname = \"closing\"\nurl = \"http://127.0.0.1:{}/mcp\"\n\n\
         [[upstream]]\nname = \"partial\"\nurl = \"http://127.0.0.1:{}/mcp\"\n\n\
         [[upstream]]\nname = \"unanswered\"\nurl = \"http://127.0.0.1:{}/mcp\"\n",
        closing.port, partial.port, unanswered.port
    );
    let gw = Gateway::start(&rig, "", &config).await;
    let http = reqwest::Client::new();

    // Every other request lands on a reused connection that the upstream closes under it.
    for id in 1..=12 {
        let (status, answer) = call(&http, &gw.url("closing"), id).await;
        assert_eq!(status, 200, "call {id}: {answer}\n{}", gw.logs());
        assert_eq!(answer["id"], json!(id), "{answer}");
    }
    let resent: Vec<i64> = (1..=12).filter(|id| closing.copies(*id) == 2).collect();
    assert!(closing.closed_under() >= 5, "the race was run: {} closes", closing.closed_under());
    assert_eq!(resent.len(), closing.closed_under(), "each lost request went again, once: {resent:?}");
    assert!((1..=12).all(|id| (1..=2).contains(&closing.copies(id))));

    // An answer begun is an answer: the POST is not sent again. Which calls land on a reused
    // connection depends on the serving thread and on when the last answer's connection went
    // back to its pool, so the calls go on until the race has been run, and every one of them
    // must have reached the upstream exactly once.
    let mut begun = Vec::new();
    for id in 1..=12 {
        let (status, answer) = call(&http, &gw.url("partial"), id).await;
        assert_eq!(answer["id"], json!(id), "an answer or a JSON-RPC error for that request: {answer}");
        assert_eq!(partial.copies(id), 1, "call {id} reached the upstream once");
        match status {
            200 => {}
            502 => begun.push(id),
            other => panic!("call {id}: status {other}: {answer}"),
        }
        if begun.len() >= 2 {
            break;
        }
    }
    assert!(!begun.is_empty(), "the race was run: no answer was cut off");
    assert_eq!(begun.len(), partial.closed_under(), "each cut-off answer came back as a 502: {begun:?}");

    // A new connection closed without an answer was not idle: not sent again.
    let (status, answer) = call(&http, &gw.url("unanswered"), 3).await;
    assert_eq!(status, 502, "{answer}");
    assert_eq!(unanswered.copies(3), 1);

    // The gateway still serves the racing upstream.
    let (status, _) = call(&http, &gw.url("closing"), 13).await;
    assert_eq!(status, 200);
}

/// A request whose answer began with an interim `102 Processing` reached the upstream's
/// application, which may have acted on it (a tool call with side effects): when the
/// connection then closes, it is a 502 for that request, never a second copy upstream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_answered_only_with_an_interim_head_is_not_sent_again() {
    let rig = Rig::new("keepalive-interim");
    let interim = Hostile::start(Manner { later: Later::Interim, first_too: false }).await;
    let config = format!(
        "[policy]\nmode = \"observe\"\n\n[[upstream]]\nname = \"interim\"\nurl = \"http://127.0.0.1:{}/mcp\"\n",
        interim.port
    );
    let gw = Gateway::start(&rig, "", &config).await;
    let http = reqwest::Client::new();
    let mut cut = Vec::new();
    for id in 1..=12 {
        let (status, answer) = call(&http, &gw.url("interim"), id).await;
        assert_eq!(answer["id"], json!(id), "an answer or a JSON-RPC error for that request: {answer}");
        assert_eq!(interim.copies(id), 1, "call {id} reached the upstream once\n{}", gw.logs());
        if status == 502 {
            cut.push(id);
        }
        if cut.len() >= 2 {
            break;
        }
    }
    assert!(interim.closed_under() >= 1, "the race was run");
    assert_eq!(cut.len(), interim.closed_under(), "each call met by an interim head and a close is a 502: {cut:?}");
}
