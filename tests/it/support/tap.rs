//! A recording pass-through between the gateway and an upstream: every request the gateway
//! sends and every byte the upstream answers (streamed on as it arrives) is kept, so a test can
//! compare what the client got with exactly what the upstream said for the same request, and can
//! prove that a refused call never left the gateway.

use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use futures_util::TryStreamExt;
use http_body_util::{BodyExt, StreamBody, combinators::BoxBody};
use hyper::body::{Frame, Incoming};
use hyper::{Request, Response};
use reqwest::header::HeaderMap;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// One request through the tap and the upstream's answer.
#[derive(Clone, Debug)]
pub struct Exchange {
    pub method: String,
    pub path: String,
    pub request_headers: HeaderMap,
    pub request_body: Bytes,
    pub status: u16,
    pub response_headers: HeaderMap,
    /// Grows while the answer streams.
    pub response_body: Arc<Mutex<Vec<u8>>>,
}

impl Exchange {
    pub fn response_bytes(&self) -> Vec<u8> {
        self.response_body.lock().unwrap().clone()
    }

    pub fn request_json(&self) -> Option<serde_json::Value> {
        serde_json::from_slice(&self.request_body).ok()
    }

    /// Whether the request body holds a JSON-RPC message (or a batch item) calling `tool`.
    pub fn calls_tool(&self, tool: &str) -> bool {
        let items = match self.request_json() {
            Some(serde_json::Value::Array(a)) => a,
            Some(v) => vec![v],
            None => vec![],
        };
        items.iter().any(|m| m["method"] == "tools/call" && m["params"]["name"] == tool)
    }
}

pub struct Tap {
    pub port: u16,
    pub log: Arc<Mutex<Vec<Exchange>>>,
    sequential: Option<Arc<Sequential>>,
    task: tokio::task::JoinHandle<()>,
}

/// Session ids made guessable: the tap gives the client `seq-1`, `seq-2`, ... for the
/// upstream's own ids (translating both ways), as an upstream with a counter for ids would. A
/// request on a `seq-N` not issued yet waits until it is (bounded), then goes upstream under
/// the id issued: a request an attacker sent ahead of the issue, landing just after it. The
/// answer that issued the id is held back until the early request's answer has left (the
/// worst order for the gateway, which reads the issue last).
#[derive(Default)]
struct Sequential {
    /// The upstream's id for each `seq-N`, in order of issue.
    issued: Mutex<Vec<String>>,
    new_issue: tokio::sync::Notify,
    /// Requests waiting for their id to be issued.
    held: std::sync::atomic::AtomicUsize,
    /// A request that waited for its id has its answer.
    early_answered: tokio::sync::Notify,
}

impl Sequential {
    /// The outward id for `real`, issuing one when it is new. An issue some request was
    /// waiting for returns once that request's answer is out (bounded).
    async fn outward(&self, real: &str) -> String {
        let (n, issued_now) = {
            let mut issued = self.issued.lock().unwrap();
            match issued.iter().position(|r| r == real) {
                Some(i) => (i + 1, false),
                None => {
                    issued.push(real.to_owned());
                    (issued.len(), true)
                }
            }
        };
        if issued_now {
            // Read before the waiters are woken: after, the early request no longer counts.
            let early_waiting = self.held.load(std::sync::atomic::Ordering::SeqCst) > 0;
            self.new_issue.notify_waiters();
            if early_waiting {
                // `notify_one` keeps its permit, so an answer out before this wait still counts.
                let answered = self.early_answered.notified();
                let _ = tokio::time::timeout(std::time::Duration::from_secs(10), answered).await;
            }
        }
        format!("seq-{n}")
    }

    /// The upstream's id for `outer`, and whether the request waited for it to be issued.
    async fn inward(&self, outer: &str) -> Option<(String, bool)> {
        let n: usize = outer.strip_prefix("seq-")?.parse().ok()?;
        if let Some(real) = self.issued.lock().unwrap().get(n.wrapping_sub(1)) {
            return Some((real.clone(), false));
        }
        let _held = Held::new(&self.held);
        let wait = async {
            loop {
                let notified = self.new_issue.notified();
                if let Some(real) = self.issued.lock().unwrap().get(n.wrapping_sub(1)) {
                    return (real.clone(), true);
                }
                notified.await;
            }
        };
        tokio::time::timeout(std::time::Duration::from_secs(30), wait).await.ok()
    }
}

/// Counts a request while it waits.
struct Held<'a>(&'a std::sync::atomic::AtomicUsize);

impl<'a> Held<'a> {
    fn new(n: &'a std::sync::atomic::AtomicUsize) -> Self {
        n.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Held(n)
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Tap {
    /// Forwards `http://127.0.0.1:<port>/<path>` to `target_base/<path>`.
    pub async fn start(target_base: &str) -> Tap {
        Self::start_with(target_base, None).await
    }

    /// As [`Tap::start`], with the upstream's session ids replaced by guessable ones (see
    /// [`Sequential`]).
    pub async fn start_sequential_sessions(target_base: &str) -> Tap {
        Self::start_with(target_base, Some(Arc::default())).await
    }

    async fn start_with(target_base: &str, sequential: Option<Arc<Sequential>>) -> Tap {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("tap bind");
        let port = listener.local_addr().unwrap().port();
        let log: Arc<Mutex<Vec<Exchange>>> = Arc::default();
        // No pooled connections: a server that closes an idle one (uvicorn after 5 s) while a
        // request is being written on it would turn into a 502 from the tap, not the upstream.
        let client = reqwest::Client::builder().pool_max_idle_per_host(0).build().expect("tap client");
        let target = target_base.trim_end_matches('/').to_owned();
        let task_log = log.clone();
        let held = sequential.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else { continue };
                let (client, target, log) = (client.clone(), target.clone(), task_log.clone());
                let sequential = sequential.clone();
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |req| {
                        let (client, target, log) = (client.clone(), target.clone(), log.clone());
                        let sequential = sequential.clone();
                        async move { Ok::<_, Infallible>(forward(client, &target, log, sequential, req).await) }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        Tap { port, log, sequential: held, task }
    }

    /// The upstream URL to give the gateway.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Requests waiting for a guessed session id to be issued (see [`Sequential`]).
    pub fn held(&self) -> usize {
        self.sequential.as_ref().map_or(0, |s| s.held.load(std::sync::atomic::Ordering::SeqCst))
    }

    pub fn exchanges(&self) -> Vec<Exchange> {
        self.log.lock().unwrap().clone()
    }

    /// The exchange whose request body is exactly one message with this method and id.
    pub fn find(&self, method: &str, id: &serde_json::Value) -> Exchange {
        self.exchanges()
            .into_iter()
            .rev()
            .find(|e| e.request_json().is_some_and(|m| m["method"] == method && m["id"] == *id))
            .unwrap_or_else(|| panic!("the upstream never received {method} id {id}"))
    }

    pub fn clear(&self) {
        self.log.lock().unwrap().clear();
    }
}

impl Drop for Tap {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn error_response(status: u16, text: String) -> Response<BoxBody<Bytes, BoxError>> {
    let body = http_body_util::Full::new(Bytes::from(text)).map_err(|never| match never {}).boxed();
    let mut resp = Response::new(body);
    *resp.status_mut() = hyper::StatusCode::from_u16(status).unwrap();
    resp
}

async fn forward(
    client: reqwest::Client,
    target: &str,
    log: Arc<Mutex<Vec<Exchange>>>,
    sequential: Option<Arc<Sequential>>,
    req: Request<Incoming>,
) -> Response<BoxBody<Bytes, BoxError>> {
    let (parts, body) = req.into_parts();
    let body = match body.collect().await {
        Ok(b) => b.to_bytes(),
        Err(e) => return error_response(400, format!("tap: {e}")),
    };
    let path = parts.uri.path_and_query().map(|p| p.as_str().to_owned()).unwrap_or_default();
    let mut headers = parts.headers.clone();
    for h in ["host", "content-length", "connection", "transfer-encoding", "keep-alive"] {
        headers.remove(h);
    }
    let outer_sid = parts.headers.get("mcp-session-id").and_then(|v| v.to_str().ok());
    let mut waited = false;
    if let (Some(seq), Some(outer)) = (&sequential, outer_sid) {
        match seq.inward(outer).await {
            Some((real, w)) => {
                headers.insert("mcp-session-id", real.parse().unwrap());
                waited = w;
            }
            None => return error_response(404, format!("tap: no session {outer}")),
        };
    }
    let mut rb = client.request(parts.method.clone(), format!("{target}{path}")).headers(headers);
    if !body.is_empty() {
        rb = rb.body(body.clone());
    }
    let resp = match rb.send().await {
        Ok(r) => r,
        Err(e) => return error_response(502, format!("tap: {e}")),
    };
    let status = resp.status();
    let mut response_headers = resp.headers().clone();
    let real_sid = response_headers.get("mcp-session-id").and_then(|v| v.to_str().ok()).map(str::to_owned);
    if let (Some(seq), Some(real)) = (&sequential, real_sid) {
        response_headers.insert("mcp-session-id", seq.outward(&real).await.parse().unwrap());
    }
    if let Some(seq) = sequential.as_ref().filter(|_| waited) {
        seq.early_answered.notify_one();
    }
    let recorded: Arc<Mutex<Vec<u8>>> = Arc::default();
    log.lock().unwrap().push(Exchange {
        method: parts.method.to_string(),
        path,
        request_headers: parts.headers,
        request_body: body,
        status: status.as_u16(),
        response_headers: response_headers.clone(),
        response_body: recorded.clone(),
    });
    let stream = resp
        .bytes_stream()
        .map_ok(move |chunk| {
            recorded.lock().unwrap().extend_from_slice(&chunk);
            Frame::data(chunk)
        })
        .map_err(|e| Box::new(e) as BoxError);
    let mut out = Response::new(BodyExt::boxed(StreamBody::new(stream)));
    *out.status_mut() = status;
    for (k, v) in &response_headers {
        if !matches!(k.as_str(), "content-length" | "connection" | "transfer-encoding" | "keep-alive") {
            out.headers_mut().append(k.clone(), v.clone());
        }
    }
    out
}
