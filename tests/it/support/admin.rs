//! Helpers of the admin tests (`admin_*`): a client
//! for the admin API, and the rig's mutable MCP server (`tests/rig/mutable_server.py`), whose
//! tool definitions a test rewrites while it runs.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::patience::{poll_async, scaled};
use super::rig::{Rig, Upstream};

/// An answer of the admin API.
pub struct Answer {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub text: String,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }

    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
    }
}

/// A client of `/admin/api/` at `base` (e.g. `http://127.0.0.1:8080`), with a bearer token or
/// none.
#[derive(Clone)]
pub struct AdminClient {
    pub base: String,
    pub token: Option<String>,
    http: reqwest::Client,
}

impl AdminClient {
    pub fn new(base: impl Into<String>, token: Option<&str>) -> AdminClient {
        AdminClient { base: base.into(), token: token.map(str::to_owned), http: reqwest::Client::new() }
    }

    fn auth(&self, rb: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.token {
            Some(t) => rb.bearer_auth(t),
            None => rb,
        }
    }

    pub async fn send(&self, rb: reqwest::RequestBuilder) -> Answer {
        let resp = self.auth(rb).send().await.expect("admin API request");
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        let text = resp.text().await.expect("admin API body");
        Answer { status, headers, text }
    }

    /// Sends with the token and returns the response unread (for streams).
    pub async fn send_raw(&self, rb: reqwest::RequestBuilder) -> reqwest::Response {
        self.auth(rb).send().await.expect("admin API request")
    }

    pub async fn get(&self, path: &str) -> Answer {
        self.send(self.http.get(format!("{}/admin/api/{path}", self.base))).await
    }

    /// GET that must answer 200 with JSON.
    pub async fn get_ok(&self, path: &str) -> Value {
        let a = self.get(path).await;
        assert_eq!(a.status, 200, "GET {path}: {}", a.text);
        a.json()
    }

    /// POST with a JSON body, as the dashboard sends it.
    pub async fn post(&self, path: &str, body: Value) -> Answer {
        let rb = self
            .http
            .post(format!("{}/admin/api/{path}", self.base))
            .header("content-type", "application/json")
            .body(body.to_string());
        self.send(rb).await
    }

    pub fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.http.request(method, format!("{}/admin/api/{path}", self.base))
    }

    /// Polls `path` every 50 ms until `found` accepts its JSON (45 s at most, times the patience);
    /// returns it.
    pub async fn until(&self, path: &str, what: &str, found: impl Fn(&Value) -> bool) -> Value {
        let got = poll_async(Duration::from_secs(45), async || {
            let a = self.get(path).await;
            (a.status == 200).then(|| a.json()).filter(|v| found(v))
        });
        if let Some(v) = got.await {
            return v;
        }
        let a = self.get(path).await;
        panic!(
            "{what}: still not so after {:?}; GET {path} answers {}: {}",
            scaled(Duration::from_secs(45)),
            a.status,
            a.text
        );
    }
}

/// A tool definition for the mutable server.
pub fn tool(name: &str, description: &str) -> Value {
    json!({
        "name": name,
        "description": description,
        "inputSchema": {
            "type": "object",
            "properties": {"order_id": {"type": "string", "description": "The order's identifier, e.g. ORD-1042"}},
            "required": ["order_id"]
        }
    })
}

/// The two definitions the approval tests start from.
pub fn first_tools() -> Vec<Value> {
    vec![
        tool(
            "lookup_order",
            "Look up one order by its identifier and return its status, items and total. Read-only; \
             use list_orders to find an identifier first.",
        ),
        tool("list_orders", "List the customer's recent orders, newest first, with their identifiers. Read-only."),
    ]
}

/// The rig's mutable server, serving the tools in `file` (rewritten with [`MutableServer::set`]).
pub struct MutableServer {
    pub upstream: Upstream,
    pub file: PathBuf,
}

impl MutableServer {
    pub async fn start(rig: &Rig, tools: &[Value]) -> MutableServer {
        let file = rig.path("mutable-tools.json");
        std::fs::write(&file, serde_json::to_vec(tools).unwrap()).unwrap();
        let upstream = Upstream::python(rig, "mutable", "mutable_server.py", &[&file.display().to_string()]).await;
        MutableServer { upstream, file }
    }

    pub fn set(&self, tools: &[Value]) {
        std::fs::write(&self.file, serde_json::to_vec(tools).unwrap()).unwrap();
    }

    pub fn url(&self) -> String {
        self.upstream.url()
    }
}
