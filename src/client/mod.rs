//! Fetching the tool list of a live MCP server for `lint` and `score`: a stdio command (spawn,
//! initialize, list every page, shut down) or a URL (Streamable HTTP, falling back to the
//! legacy HTTP+SSE transport when the server answers the initialize POST with a 4xx).

mod http;
mod stdio;

use serde_json::{Value, json};

use crate::mcp::message::list_request;

pub use crate::mcp::answer::FetchError;
pub use http::fetch_url;
pub use stdio::fetch_command;

/// The protocol revision we ask for; servers may answer with another they support.
pub const PROTOCOL_VERSION: &str = "2025-11-25";

use crate::mcp::message::LIST_PAGES as MAX_PAGES;

/// A server's tools as one `tools/list`-shaped document, plus the name it gave.
pub struct Fetched {
    pub server_name: Option<String>,
    /// `{"tools": [...]}` with every page's tools, as the server sent them.
    pub document: Vec<u8>,
    /// The `instructions` of the initialize result, when the server gave some.
    pub instructions: Option<String>,
}

impl Fetched {
    fn new(init: &Value, tools: Vec<Value>) -> Fetched {
        let instructions = init.get("instructions").and_then(Value::as_str).map(str::to_owned);
        Fetched { server_name: server_name(init), document: document(tools), instructions }
    }
}

fn initialize_request() -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": { "name": "tdqs-gateway", "version": env!("CARGO_PKG_VERSION") }
        }
    })
}

fn initialized_notification() -> Value {
    json!({ "jsonrpc": "2.0", "method": "notifications/initialized" })
}

/// The result of an answer, or the error it carries.
fn result_of(method: &str, answer: Value) -> Result<Value, FetchError> {
    if let Some(e) = answer.get("error") {
        return Err(FetchError::Rpc { method: method.to_owned(), error: e.to_string() });
    }
    answer
        .get("result")
        .cloned()
        .ok_or_else(|| FetchError::Protocol { method: method.into(), detail: answer.to_string() })
}

/// Takes one `tools/list` answer: adds its tools, returns the next cursor. Stops a server
/// that paginates forever after [`MAX_PAGES`].
fn take_page(answer: Value, tools: &mut Vec<Value>, page: usize) -> Result<Option<String>, FetchError> {
    let result = result_of("tools/list", answer)?;
    match result.get("tools") {
        Some(Value::Array(t)) => tools.extend(t.iter().cloned()),
        _ => return Err(FetchError::Protocol { method: "tools/list".into(), detail: "no tools array".into() }),
    }
    let cursor = result.get("nextCursor").and_then(Value::as_str).filter(|c| !c.is_empty()).map(str::to_owned);
    if cursor.is_some() && page + 1 >= MAX_PAGES {
        return Err(FetchError::Protocol {
            method: "tools/list".into(),
            detail: format!("more than {MAX_PAGES} pages"),
        });
    }
    Ok(cursor)
}

/// The server's self-reported name from an initialize result.
fn server_name(init: &Value) -> Option<String> {
    init.pointer("/serverInfo/name").and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_owned)
}

fn document(tools: Vec<Value>) -> Vec<u8> {
    serde_json::to_vec(&json!({ "tools": tools })).unwrap_or_default()
}
