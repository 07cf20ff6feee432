//! A client connection's two clocks between requests, on real sockets: an idle kept-alive
//! connection stays open for `keep_alive_timeout_ms` (however short the header-read limit), and
//! one that has started sending a request must finish its headers within
//! `header_read_timeout_ms`, on its first request and on every later one, whatever its first
//! bytes look like. A long request does not count as idle time.

use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::patience::scaled as patient;
use crate::support::rig::{Gateway, Rig, free_port};

const LISTEN: &str = "header_read_timeout_ms = 300\nkeep_alive_timeout_ms = 60000";
const HEALTH: &[u8] = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

async fn gateway(rig: &Rig) -> Gateway {
    let config = format!("[[upstream]]\nname = \"gone\"\nurl = \"http://127.0.0.1:{}/mcp\"\n", free_port());
    Gateway::start(rig, LISTEN, &config).await
}

/// Reads one response head and its (short) body; `None` when the connection closed first.
async fn answer(s: &mut TcpStream) -> Option<String> {
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    let read = tokio::time::timeout(patient(Duration::from_secs(10)), async {
        loop {
            let text = String::from_utf8_lossy(&got);
            if let Some(end) = text.find("\r\n\r\n") {
                let length = text[..end]
                    .lines()
                    .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_owned()))
                    .and_then(|v| v.parse::<usize>().ok())
                    .unwrap_or(0);
                if got.len() >= end + 4 + length {
                    return Some(text.into_owned());
                }
            }
            match s.read(&mut buf).await {
                Ok(0) | Err(_) => return None,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    read.expect("the gateway neither answered nor closed")
}

/// Waits for the gateway to close the connection; how long that took.
async fn closed(s: &mut TcpStream) -> Duration {
    let since = Instant::now();
    let mut buf = [0u8; 256];
    tokio::time::timeout(patient(Duration::from_secs(15)), async {
        loop {
            match s.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await
    .expect("the connection was not closed");
    since.elapsed()
}

#[tokio::test]
async fn an_idle_connection_outlives_the_header_limit_and_a_started_request_does_not() {
    let rig = Rig::new("client-clocks");
    let gw = gateway(&rig).await;

    // A first request, then idle for several header-read limits: the connection still serves.
    // The idle time is what is tested, not a wait for something to happen: nothing observable
    // happens on a connection that stays open, so the test lets five header limits pass.
    let mut s = TcpStream::connect(gw.addr).await.unwrap();
    s.write_all(HEALTH).await.unwrap();
    assert!(answer(&mut s).await.is_some_and(|a| a.starts_with("HTTP/1.1 200")));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    s.write_all(HEALTH).await.unwrap();
    let again = answer(&mut s).await;
    assert!(
        again.as_deref().is_some_and(|a| a.starts_with("HTTP/1.1 200")),
        "an idle connection was closed: {again:?}"
    );

    // Then half of a head, and nothing more: closed at the header limit, long before the idle one.
    s.write_all(b"GET /healthz HTTP/1.1\r\nHo").await.unwrap();
    let took = closed(&mut s).await;
    assert!(took < Duration::from_secs(30), "a stalled second request held its connection {took:?}");

    // A new connection that sends half a head is closed the same way.
    let mut s = TcpStream::connect(gw.addr).await.unwrap();
    s.write_all(b"GET /heal").await.unwrap();
    let took = closed(&mut s).await;
    assert!(took < Duration::from_secs(30), "a stalled first request held its connection {took:?}");

    // One that opens like the HTTP/2 preface but is not it ("PRI" as an HTTP/1 method) is read
    // as HTTP/1 and closed the same way, not left to a graceful close that never comes.
    let mut s = TcpStream::connect(gw.addr).await.unwrap();
    s.write_all(b"PRI /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: 1").await.unwrap();
    let took = closed(&mut s).await;
    assert!(took < Duration::from_secs(30), "a stalled 'PRI' request held its connection {took:?}");
    assert!(!gw.logs().contains("panicked"), "{}", gw.logs());
}
