//! The gateway's own guards, in front of a real upstream that records what reaches it: a foreign
//! `Origin` or `Host` gets 403 (bound to loopback: DNS-rebinding protection), an unknown upstream
//! 404, an oversized body 413, an unreachable upstream 502 with a JSON-RPC error answering the
//! request's id; none of them reaches the upstream, and the gateway keeps serving afterwards.

use crate::support::rig as support;

use serde_json::{Value, json};
use support::http::{ACCEPT_BOTH, Mcp, Reply, read_reply};
use support::{Gateway, Rig, Upstream, free_port};

const LIST: &str = r#"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#;

async fn post_with(url: &str, headers: &[(&str, &str)], body: impl Into<reqwest::Body>) -> Reply {
    let mut rb = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", ACCEPT_BOTH)
        .body(body);
    for (k, v) in headers {
        rb = rb.header(*k, *v);
    }
    read_reply(rb.send().await.expect("request")).await
}

/// A gateway-made JSON-RPC error: the status, code -32000 family, the given id.
#[track_caller]
fn assert_gateway_error(reply: &Reply, status: u16, id: Value, mentions: &str) {
    assert_eq!(reply.status, status, "{}", reply.text());
    assert!(reply.content_type().starts_with("application/json"), "{}", reply.content_type());
    let body = reply.json();
    assert_eq!(body["jsonrpc"], "2.0", "{body}");
    assert_eq!(body["id"], id, "{body}");
    assert!(body["error"]["code"].is_i64(), "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains(mentions), "{message:?} mentions {mentions:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guards_answer_and_the_gateway_keeps_serving() {
    let rig = Rig::new("guards");
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let dead = format!("http://127.0.0.1:{}/mcp", free_port());
    let config = format!(
        "[policy]\nmode = \"annotate\"\n\n[[upstream]]\nname = \"rig\"\nurl = \"{}\"\n\n\
         [[upstream]]\nname = \"down\"\nurl = \"{dead}\"\n",
        upstream.url()
    );
    let mut gw =
        Gateway::start(&rig, "max_body_bytes = 65536\nallowed_origins = [\"https://app.example\"]", &config).await;
    let url = gw.url("rig");
    let healthy = |reply: &Reply| reply.status == 200 && reply.json()["result"]["tools"].is_array();

    assert!(healthy(&post_with(&url, &[], LIST).await), "baseline");
    upstream.reset().await;

    // Origins: foreign and opaque ones refused; loopback and configured ones pass.
    for origin in ["https://evil.example", "null", "http://localhost.evil.example", "http://127.0.0.1.nip.io"] {
        let reply = post_with(&url, &[("origin", origin)], LIST).await;
        assert_gateway_error(&reply, 403, Value::Null, "origin");
    }
    for origin in ["http://localhost:5173", "http://127.0.0.1:3000"] {
        let reply = post_with(&url, &[("origin", origin)], LIST).await;
        assert!(healthy(&reply), "loopback origin {origin}: {} {}", reply.status, reply.text());
    }
    upstream.reset().await;
    post_with(&url, &[("origin", "https://app.example")], LIST).await;
    assert_eq!(upstream.received().await.len(), 1, "a configured origin passes the gateway's own check");

    // Hosts: bound to loopback, only loopback names are served.
    for host in ["evil.example", "evil.example:80", "attacker.localhost.example"] {
        let reply = post_with(&url, &[("host", host)], LIST).await;
        assert_gateway_error(&reply, 403, Value::Null, "host");
    }
    let port = gw.addr.port().to_string();
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}"), format!("[::1]:{port}")] {
        let reply = post_with(&url, &[("host", &host)], LIST).await;
        assert!(healthy(&reply), "loopback host {host}: {} {}", reply.status, reply.text());
    }
    let received = upstream.received().await;
    assert!(
        received.iter().all(|e| !e["headers"]["origin"].as_str().is_some_and(|o| o.contains("evil"))),
        "a refused origin never reached the upstream: {received:?}"
    );
    assert!(
        received.iter().all(|e| e["headers"]["host"] == format!("127.0.0.1:{}", upstream.port)),
        "the upstream always sees its own Host: {received:?}"
    );

    // Unknown upstream.
    let reply = post_with(&gw.url("nope"), &[], LIST).await;
    assert_gateway_error(&reply, 404, Value::Null, "nope");
    assert!(healthy(&post_with(&url, &[], LIST).await));

    // Oversized body: 413, nothing forwarded; then business as usual.
    upstream.reset().await;
    let padding = "x".repeat(200_000);
    let big = format!(r#"{{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{{"_meta":{{"pad":"{padding}"}}}}}}"#);
    let reply = post_with(&url, &[], big).await;
    assert_gateway_error(&reply, 413, Value::Null, "65536");
    assert!(upstream.received().await.is_empty(), "an oversized body is not forwarded");
    let reply = Mcp::new(&url).post_raw(LIST).await;
    assert!(healthy(&reply), "after a 413: {} {}", reply.status, reply.text());

    // Unreachable upstream: 502 with a JSON-RPC error for the request's id.
    for id in [json!(77), json!("req-77")] {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"}).to_string();
        let reply = post_with(&gw.url("down"), &[], body).await;
        assert_gateway_error(&reply, 502, id, "down");
    }
    // One upstream of two down: degraded, still ready (the other one is served).
    let ready = reqwest::get(format!("{}/readyz", gw.base())).await.unwrap();
    assert_eq!(ready.status(), 200);
    let ready: Value = ready.json().await.unwrap();
    assert_eq!(ready["status"], "degraded", "{ready}");
    assert_eq!(ready["unreachableUpstreams"], json!(["down"]), "{ready}");
    let health = reqwest::get(format!("{}/healthz", gw.base())).await.unwrap();
    assert_eq!(health.status(), 200);

    // Other methods and paths.
    let put = reqwest::Client::new().put(&url).body(LIST).send().await.unwrap();
    assert_eq!(put.status(), 405);
    let other = reqwest::get(format!("{}/elsewhere", gw.base())).await.unwrap();
    assert_eq!(other.status(), 404);

    // Still serving, with scores.
    let reply = post_with(&url, &[], LIST).await;
    assert!(healthy(&reply));
    let tools = reply.json()["result"]["tools"].as_array().unwrap().clone();
    assert!(tools.iter().all(|t| support::meta::score(t).is_some()));
    assert!(gw.proc.exited().is_none(), "the gateway is still running");
}

/// `listen.allowed_origins` lets a browser app on another origin use the gateway. Python SDK
/// servers on loopback check `Origin` themselves (DNS-rebinding protection) and only know
/// loopback origins, so once the gateway has accepted the origin, the upstream must not be the
/// one refusing it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_configured_browser_origin_works_with_a_python_upstream() {
    let rig = Rig::new("guards-origin");
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let config = format!("[[upstream]]\nname = \"rig\"\nurl = \"{}\"\n", upstream.url());
    let gw = Gateway::start(&rig, "allowed_origins = [\"https://app.example\"]", &config).await;
    let reply = post_with(&gw.url("rig"), &[("origin", "https://app.example")], LIST).await;
    assert_eq!(reply.status, 200, "an allowed origin is served: {}", reply.text());
    assert!(reply.json()["result"]["tools"].is_array());
}

/// Headers: the configured ones (with `${VAR}` from the gateway's environment) are added, the
/// client's end-to-end ones (session, protocol version, authorization, trace context) pass, and
/// the upstream always sees its own `Host`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn headers_reach_the_upstream() {
    let rig = Rig::new("guards-headers");
    let upstream = Upstream::fastmcp(&rig, &[]).await;
    let config = format!(
        "[[upstream]]\nname = \"rig\"\nurl = \"{}\"\nheaders = {{ X-Rig-Token = \"secret-${{RIG_TEST_TOKEN}}\" }}\n",
        upstream.url()
    );
    let gw = Gateway::start_with_env(&rig, "", &config, &[("RIG_TEST_TOKEN", "42")]).await;
    let mut client = Mcp::new(gw.url("rig"))
        .with_header("authorization", "Bearer client-token")
        .with_header("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
    client.initialize("2025-06-18", json!({})).await;
    upstream.reset().await;
    let (_, reply) = client.request("tools/list", Value::Null).await;
    assert_eq!(reply.status, 200);
    let received = upstream.received().await;
    let post = received.iter().find(|e| e["http"] == "POST").expect("the list reached the upstream");
    let h = &post["headers"];
    assert_eq!(h["x-rig-token"], "secret-42", "configured header with ${{VAR}} expanded: {h}");
    assert_eq!(h["authorization"], "Bearer client-token", "{h}");
    assert_eq!(h["traceparent"], "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "{h}");
    assert_eq!(h["mcp-session-id"].as_str(), client.session.as_deref(), "{h}");
    assert_eq!(h["mcp-protocol-version"], "2025-06-18", "{h}");
    assert_eq!(h["host"], format!("127.0.0.1:{}", upstream.port), "{h}");
}

/// One request on a raw keep-alive connection: the answer's status, its `Connection` header,
/// and whether the gateway then closed the connection (the next read sees the end).
async fn on_connection(s: &mut tokio::net::TcpStream, head: &str, body: &[u8]) -> (u16, Option<String>, bool) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    s.write_all(head.as_bytes()).await.unwrap();
    // A refused body may not be read at all: what the gateway does not take is not an error here.
    let _ = s.write_all(body).await;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let end = loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break end + 4;
        }
        let n = s.read(&mut chunk).await.unwrap();
        assert!(n > 0, "the connection ended before an answer to {head:?}");
        buf.extend_from_slice(&chunk[..n]);
    };
    let text = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
    let status: u16 = text[9..12].parse().unwrap();
    let header =
        |name: &str| text.lines().find_map(|l| l.strip_prefix(&format!("{name}: ")).map(|v| v.trim().to_owned()));
    let length: usize = header("content-length").map_or(0, |v| v.parse().unwrap());
    while buf.len() < end + length {
        let n = s.read(&mut chunk).await.unwrap();
        assert!(n > 0, "the answer to {head:?} was cut short");
        buf.extend_from_slice(&chunk[..n]);
    }
    let closed = if header("connection").as_deref() == Some("close") {
        // The header tells the truth: nothing more comes on this connection.
        matches!(tokio::time::timeout(std::time::Duration::from_secs(30), s.read(&mut chunk)).await, Ok(Ok(0) | Err(_)))
    } else {
        false
    };
    (status, header("connection"), closed)
}

/// Every answer to an HTTP/1 request whose body the gateway did not read (a refusal, an unknown
/// route, a body over the limit, an admin action that takes no body) says `Connection: close`
/// and the connection then closes, on every route, so a client never sends its next request
/// into a closing connection; an answer to a request whose body was read keeps it open.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_to_unread_bodies_close_the_connection() {
    let rig = Rig::new("guards-unread");
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let config =
        format!("[policy]\nmode = \"annotate\"\n\n[[upstream]]\nname = \"rig\"\nurl = \"{}\"\n", upstream.url());
    let gw = Gateway::start(&rig, "max_body_bytes = 65536", &config).await;
    let connect = || tokio::net::TcpStream::connect(gw.addr);
    let post = |path: &str, extra: &str, length: usize| {
        format!(
            "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Accept: {ACCEPT_BOTH}\r\n{extra}Content-Length: {length}\r\n\r\n",
            gw.addr.port()
        )
    };
    let big = vec![b' '; 200_000];
    let unread: [(&str, String, &[u8], u16); 5] = [
        ("an unknown path", post("/elsewhere", "", LIST.len()), LIST.as_bytes(), 404),
        ("a foreign origin", post("/mcp/rig", "Origin: https://evil.example\r\n", LIST.len()), LIST.as_bytes(), 403),
        ("a body over the limit", post("/mcp/rig", "", big.len()), &big, 413),
        (
            "a method the route does not take",
            post("/mcp/rig", "", 0)
                .replace("POST", "PUT")
                .replace("Content-Length: 0", &format!("Content-Length: {}", LIST.len())),
            LIST.as_bytes(),
            405,
        ),
        ("an admin action that takes no body", post("/admin/api/servers/rig/rescore", "", 2), b"{}", 202),
    ];
    for (what, head, body, status) in unread {
        let mut s = connect().await.unwrap();
        let (got, connection, closed) = on_connection(&mut s, &head, body).await;
        assert_eq!(got / 100, status / 100, "{what}: status {got}");
        assert_eq!(connection.as_deref(), Some("close"), "{what}");
        assert!(closed, "{what}: the connection closes after the answer");
    }

    // Read bodies and bodiless requests keep the connection, for as many requests as come.
    let mut s = connect().await.unwrap();
    for _ in 0..2 {
        let (status, connection, _) = on_connection(&mut s, &post("/mcp/rig", "", LIST.len()), LIST.as_bytes()).await;
        assert_eq!((status, connection), (200, None), "a proxied request keeps its connection");
        let (status, connection, _) = on_connection(&mut s, &post("/mcp/nope", "", LIST.len()), LIST.as_bytes()).await;
        assert_eq!((status, connection), (404, None), "an unknown upstream, known once the body is read");
        let (status, connection, _) =
            on_connection(&mut s, &post("/admin/api/servers/rig/approve", "", 2), b"{}").await;
        assert_eq!((status, connection), (400, None), "an admin action that read its body (refused: no pinning)");
        let (status, connection, _) =
            on_connection(&mut s, &format!("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n", gw.addr.port()), b"")
                .await;
        assert_eq!((status, connection), (200, None));
    }
}

/// A body that never finishes arriving is answered once the listener's body deadline passes,
/// on the proxy's routes and the admin API's alike (both read bodies the same one way), and
/// the connection closes behind the answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_body_is_answered_at_the_deadline_on_every_route() {
    let rig = Rig::new("guards-stalled");
    let upstream = Upstream::fastmcp(&rig, &["--stateless"]).await;
    let config = format!("[[upstream]]\nname = \"rig\"\nurl = \"{}\"\n", upstream.url());
    let gw = Gateway::start(&rig, "body_read_timeout_ms = 300", &config).await;
    for (path, status) in [("/mcp/rig", 408), ("/admin/api/servers/rig/approve", 400)] {
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Accept: {ACCEPT_BOTH}\r\nContent-Length: 100\r\n\r\n",
            gw.addr.port()
        );
        let mut s = tokio::net::TcpStream::connect(gw.addr).await.unwrap();
        // Two bytes of the hundred announced, then nothing: the answer must come by itself.
        let answer =
            tokio::time::timeout(std::time::Duration::from_secs(30), on_connection(&mut s, &head, b"{\"")).await;
        let (got, connection, closed) = answer.unwrap_or_else(|_| panic!("{path}: no answer to a stalled body"));
        assert_eq!(got, status, "{path}");
        assert_eq!(connection.as_deref(), Some("close"), "{path}");
        assert!(closed, "{path}: the connection closes after the answer");
    }
    assert!(upstream.received().await.is_empty(), "nothing reached the upstream");
}
