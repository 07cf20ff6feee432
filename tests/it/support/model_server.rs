//! A loopback OpenAI-compatible model server for tests: a real HTTP/1.1 server (hyper) on
//! `127.0.0.1:0`, running on its own thread and runtime so both async tests and tests that drive
//! child processes can use it.
//!
//! `POST /v1/chat/completions` records every request (body, `Authorization` header, arrival
//! time) and answers from a script: a FIFO of [`Behaviour`]s per conversation key (the first
//! line of the first user message, e.g. `TOOL NAME: get_user`), then a global FIFO, then the
//! default mode, which answers from canned tables by the first line of the last user message:
//! `TOOL NAME: <name>` looks up a tool answer by name, `SERVER NAME: <name>` a coherence answer
//! by server name. A request nothing answers gets a 400 naming what was missing, so a client
//! stops at once instead of retrying.
//!
//! Not every test uses every helper.
//!
//! Long: one server: its script, its request handling and its canned answers are one piece of
//! state.
use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};

/// The six tool dimensions, in rubric order.
pub const TOOL_DIMENSIONS: [&str; 6] = [
    "purpose_clarity",
    "usage_guidelines",
    "behavioral_transparency",
    "parameter_semantics",
    "conciseness_structure",
    "contextual_completeness",
];

/// The four coherence dimensions.
pub const COHERENCE_DIMENSIONS: [&str; 4] =
    ["disambiguation", "naming_consistency", "tool_count_appropriateness", "completeness"];

/// What the server does with one request.
#[derive(Clone, Debug)]
pub enum Behaviour {
    /// 200, a chat completion with this content and `finish_reason: "stop"`.
    Content(String),
    /// 200, this content wrapped in a ```` ```json ```` fence.
    Fenced(String),
    /// 200, this content with `finish_reason: "length"`.
    Length(String),
    /// 200, empty content.
    Empty,
    /// 200 with a body that is not a chat completion at all.
    NotJson(String),
    /// 429, with this `Retry-After` header value when given.
    RateLimited(Option<String>),
    /// This status (e.g. 500, 503, 400) with this body.
    Status(u16, String),
    /// 401 with a body that echoes the bearer key it was sent.
    Unauthorized,
    /// Never answers (until the server shuts down).
    Hang,
    /// Waits, then behaves.
    Delayed(Duration, Box<Behaviour>),
    /// The default mode: the canned tables.
    Canned,
}

impl Behaviour {
    /// Content that is not JSON at all.
    pub fn invalid_json() -> Behaviour {
        Behaviour::Content("Sure! Here is my assessment: {scores: great}".to_owned())
    }

    /// A JSON object that does not follow the tool-scoring contract.
    pub fn wrong_shape() -> Behaviour {
        Behaviour::Content(
            json!({"scores": [4, 4, 4, 4, 4, 4], "annotation_contradiction": false, "summary": "s"}).to_string(),
        )
    }

    /// A well-formed tool answer with `behavioral_transparency` scored 7.
    pub fn out_of_range() -> Behaviour {
        Behaviour::Content(tool_answer([4, 3, 7, 3, 4, 3], false, "out of range"))
    }
}

/// A tool-scoring answer with these scores (rubric order).
pub fn tool_answer(scores: [u8; 6], annotation_contradiction: bool, summary: &str) -> String {
    let justifications: Vec<String> = TOOL_DIMENSIONS.iter().map(|d| format!("{d} scored for the test")).collect();
    let refs: Vec<&str> = justifications.iter().map(String::as_str).collect();
    tool_answer_with(scores, refs.try_into().unwrap(), annotation_contradiction, summary)
}

/// A tool-scoring answer with explicit justifications.
pub fn tool_answer_with(
    scores: [u8; 6],
    justifications: [&str; 6],
    annotation_contradiction: bool,
    summary: &str,
) -> String {
    let mut block = serde_json::Map::new();
    for ((key, score), justification) in TOOL_DIMENSIONS.iter().zip(scores).zip(justifications) {
        block.insert((*key).to_owned(), json!({"score": score, "justification": justification}));
    }
    json!({
        "scores": block,
        "annotation_contradiction": annotation_contradiction,
        "summary": summary,
    })
    .to_string()
}

/// A reported shadowing risk: `(tool, cheaper_sibling, justification)`.
pub type Risk = (String, String, String);

/// A coherence answer with these scores (disambiguation, naming, count, completeness).
pub fn coherence_answer(scores: [u8; 4], risks: &[Risk], summary: &str) -> String {
    let mut block = serde_json::Map::new();
    for (key, score) in COHERENCE_DIMENSIONS.iter().zip(scores) {
        block.insert((*key).to_owned(), json!({"score": score, "justification": format!("{key} for the test")}));
    }
    let risks: Vec<Value> = risks
        .iter()
        .map(|(tool, sibling, why)| json!({"tool": tool, "cheaper_sibling": sibling, "justification": why}))
        .collect();
    json!({"scores": block, "shadowing_risks": risks, "summary": summary}).to_string()
}

/// One request as the server received it.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    /// The `Authorization` header, verbatim.
    pub authorization: Option<String>,
    /// The body parsed as JSON (`Value::Null` when it was not JSON; see `raw`).
    pub body: Value,
    pub raw: String,
    pub received: Instant,
}

impl Recorded {
    /// The `messages` array of the body.
    pub fn messages(&self) -> Vec<Value> {
        self.body["messages"].as_array().cloned().unwrap_or_default()
    }

    /// The first line of the first user message.
    pub fn key(&self) -> String {
        first_line_of_user(&self.body, false).unwrap_or_default()
    }
}

#[derive(Default)]
struct Script {
    keyed: HashMap<String, VecDeque<Behaviour>>,
    global: VecDeque<Behaviour>,
    tool_answers: HashMap<String, String>,
    coherence_answers: HashMap<String, String>,
    canned_delay: Duration,
    requests: Vec<Recorded>,
}

struct Shared {
    script: Mutex<Script>,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Script> {
        self.script.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Counts a request in flight until dropped (also when the connection is torn down).
struct InFlight<'a>(&'a Shared);

impl<'a> InFlight<'a> {
    fn enter(shared: &'a Shared) -> Self {
        let now = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        shared.max_in_flight.fetch_max(now, Ordering::SeqCst);
        InFlight(shared)
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The running server. Dropping it shuts it down (hung requests are abandoned).
pub struct ModelServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ModelServer {
    /// Binds `127.0.0.1:0` and starts serving.
    pub fn start() -> ModelServer {
        let shared = Arc::new(Shared {
            script: Mutex::new(Script::default()),
            in_flight: AtomicUsize::new(0),
            max_in_flight: AtomicUsize::new(0),
        });
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        listener.set_nonblocking(true).expect("nonblocking listener");
        let addr = listener.local_addr().expect("local address");
        let (tx, mut rx) = tokio::sync::oneshot::channel::<()>();
        let serving = shared.clone();
        let thread = std::thread::Builder::new()
            .name("model-server".into())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()
                    .expect("model server runtime");
                runtime.block_on(async move {
                    let listener = tokio::net::TcpListener::from_std(listener).expect("tokio listener");
                    loop {
                        let stream = tokio::select! {
                            _ = &mut rx => break,
                            accepted = listener.accept() => match accepted {
                                Ok((stream, _)) => stream,
                                Err(_) => continue,
                            },
                        };
                        let shared = serving.clone();
                        tokio::spawn(async move {
                            let service = service_fn(move |req| {
                                let shared = shared.clone();
                                async move { Ok::<_, Infallible>(handle(&shared, req).await) }
                            });
                            let _ = http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
                        });
                    }
                });
                // Dropping the runtime cancels every connection still open (hung requests).
                runtime.shutdown_timeout(Duration::from_millis(100));
            })
            .expect("model server thread");
        ModelServer { addr, shared, shutdown: Some(tx), thread: Some(thread) }
    }

    /// `http://127.0.0.1:<port>/v1`, the base URL clients append `/chat/completions` to.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Queues behaviours for the next requests of any conversation, in arrival order.
    pub fn push(&self, behaviours: impl IntoIterator<Item = Behaviour>) {
        self.shared.lock().global.extend(behaviours);
    }

    /// Queues behaviours for the conversation whose first user message starts with `key`
    /// (its first line, e.g. `TOOL NAME: get_user`).
    pub fn push_for(&self, key: &str, behaviours: impl IntoIterator<Item = Behaviour>) {
        self.shared.lock().keyed.entry(key.to_owned()).or_default().extend(behaviours);
    }

    /// The canned answer (content) for `TOOL NAME: <name>`.
    pub fn set_tool_answer(&self, name: &str, content: String) {
        self.shared.lock().tool_answers.insert(name.to_owned(), content);
    }

    /// The canned answer (content) for `SERVER NAME: <name>`.
    pub fn set_coherence_answer(&self, server: &str, content: String) {
        self.shared.lock().coherence_answers.insert(server.to_owned(), content);
    }

    /// How long every canned answer takes (default: at once).
    pub fn set_canned_delay(&self, delay: Duration) {
        self.shared.lock().canned_delay = delay;
    }

    /// Every request so far, in arrival order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.shared.lock().requests.clone()
    }

    /// The requests of one conversation (see [`Recorded::key`]), in arrival order.
    pub fn requests_for(&self, key: &str) -> Vec<Recorded> {
        self.requests().into_iter().filter(|r| r.key() == key).collect()
    }

    /// Most requests ever in flight at once.
    pub fn max_in_flight(&self) -> usize {
        self.shared.max_in_flight.load(Ordering::SeqCst)
    }

    /// Behaviours queued but not used yet.
    pub fn unused(&self) -> usize {
        let s = self.shared.lock();
        s.global.len() + s.keyed.values().map(VecDeque::len).sum::<usize>()
    }
}

impl Drop for ModelServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The first line of the first (or last) user message.
fn first_line_of_user(body: &Value, last: bool) -> Option<String> {
    let messages = body["messages"].as_array()?;
    let mut users = messages.iter().filter(|m| m["role"] == "user");
    let message = if last { users.next_back() } else { users.next() }?;
    let content = message["content"].as_str()?;
    Some(content.lines().next().unwrap_or("").to_owned())
}

async fn handle(shared: &Shared, req: Request<Incoming>) -> Response<Full<Bytes>> {
    let _in_flight = InFlight::enter(shared);
    let method = req.method().to_string();
    let path = req.uri().path().to_owned();
    let authorization =
        req.headers().get(hyper::header::AUTHORIZATION).map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    let raw = match req.into_body().collect().await {
        Ok(b) => String::from_utf8_lossy(&b.to_bytes()).into_owned(),
        Err(_) => String::new(),
    };
    if method != "POST" || path != "/v1/chat/completions" {
        return plain(StatusCode::NOT_FOUND, format!("no route {method} {path}"));
    }
    let body: Value = serde_json::from_str(&raw).unwrap_or(Value::Null);
    let recorded = Recorded {
        method,
        path,
        authorization: authorization.clone(),
        body: body.clone(),
        raw,
        received: Instant::now(),
    };
    let key = recorded.key();
    let behaviour = {
        let mut s = shared.lock();
        s.requests.push(recorded);
        let keyed = s.keyed.get_mut(&key).and_then(VecDeque::pop_front);
        keyed.or_else(|| s.global.pop_front()).unwrap_or(Behaviour::Canned)
    };
    respond(shared, &body, authorization.as_deref(), behaviour).await
}

async fn respond(
    shared: &Shared,
    body: &Value,
    authorization: Option<&str>,
    mut behaviour: Behaviour,
) -> Response<Full<Bytes>> {
    loop {
        match behaviour {
            Behaviour::Delayed(delay, next) => {
                tokio::time::sleep(delay).await;
                behaviour = *next;
            }
            Behaviour::Hang => return std::future::pending().await,
            Behaviour::Canned => {
                let (answer, delay) = canned(shared, body);
                tokio::time::sleep(delay).await;
                return match answer {
                    Ok(content) => completion(body, &content, "stop"),
                    Err(missing) => plain(StatusCode::BAD_REQUEST, missing),
                };
            }
            Behaviour::Content(content) => return completion(body, &content, "stop"),
            Behaviour::Fenced(content) => {
                return completion(body, &format!("```json\n{content}\n```"), "stop");
            }
            Behaviour::Length(content) => return completion(body, &content, "length"),
            Behaviour::Empty => return completion(body, "", "stop"),
            Behaviour::NotJson(text) => return plain(StatusCode::OK, text),
            Behaviour::RateLimited(retry_after) => {
                let mut resp = plain(
                    StatusCode::TOO_MANY_REQUESTS,
                    json!({"error": {"message": "rate limited", "type": "rate_limit"}}).to_string(),
                );
                if let Some(v) = retry_after {
                    resp.headers_mut().insert(hyper::header::RETRY_AFTER, v.parse().expect("header value"));
                }
                return resp;
            }
            Behaviour::Status(code, text) => {
                return plain(StatusCode::from_u16(code).expect("status code"), text);
            }
            Behaviour::Unauthorized => {
                let key = authorization.and_then(|a| a.strip_prefix("Bearer ")).unwrap_or("");
                let text = json!({"error": {
                    "message": format!("Incorrect API key provided: {key}. You can find your API key at https://example.invalid/keys."),
                    "type": "invalid_request_error",
                    "code": "invalid_api_key",
                }});
                return plain(StatusCode::UNAUTHORIZED, text.to_string());
            }
        }
    }
}

/// Looks the request up in the canned tables.
fn canned(shared: &Shared, body: &Value) -> (Result<String, String>, Duration) {
    let s = shared.lock();
    let lines = [first_line_of_user(body, true), first_line_of_user(body, false)];
    for line in lines.into_iter().flatten() {
        if let Some(name) = line.strip_prefix("TOOL NAME: ") {
            return match s.tool_answers.get(name) {
                Some(a) => (Ok(a.clone()), s.canned_delay),
                None => (Err(format!("no canned tool answer for {name:?}")), Duration::ZERO),
            };
        }
        if let Some(name) = line.strip_prefix("SERVER NAME: ") {
            return match s.coherence_answers.get(name) {
                Some(a) => (Ok(a.clone()), s.canned_delay),
                None => (Err(format!("no canned coherence answer for {name:?}")), Duration::ZERO),
            };
        }
    }
    (Err("the request names neither a tool nor a server".to_owned()), Duration::ZERO)
}

fn completion(request: &Value, content: &str, finish_reason: &str) -> Response<Full<Bytes>> {
    let body = json!({
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": request["model"].clone(),
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": content},
            "finish_reason": finish_reason,
        }],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    });
    let mut resp = plain(StatusCode::OK, body.to_string());
    resp.headers_mut().insert(hyper::header::CONTENT_TYPE, "application/json".parse().expect("header value"));
    resp
}

fn plain(status: StatusCode, text: String) -> Response<Full<Bytes>> {
    let mut resp = Response::new(Full::new(Bytes::from(text)));
    *resp.status_mut() = status;
    resp
}
