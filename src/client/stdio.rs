//! Fetching tools from a stdio server: spawn it, initialize, list every page, shut it down.

use std::time::Duration;

use serde_json::Value;
use tokio::io::BufReader;
use tokio::process::ChildStdout;

use super::{FetchError, Fetched, initialize_request, initialized_notification, list_request, result_of, take_page};
use crate::mcp::child::{self, ChildProcess, read_line};

const STEP_TIMEOUT: Duration = Duration::from_secs(60);

struct Conn {
    process: ChildProcess,
    stdout: BufReader<ChildStdout>,
    line: Vec<u8>,
}

impl Conn {
    /// Sends a request and reads until its answer, declining any request the server makes.
    async fn ask(&mut self, request: Value) -> Result<Value, FetchError> {
        let method = request["method"].as_str().unwrap_or("request").to_owned();
        let id = request["id"].clone();
        let io = |e: std::io::Error| FetchError::Io(e.to_string());
        self.process.send(request.to_string().as_bytes()).await.map_err(io)?;
        let read = async {
            loop {
                if read_line(&mut self.stdout, &mut self.line).await.map_err(io)?.is_none() {
                    return Err(FetchError::Io(format!("the server closed stdout before answering {method}")));
                }
                let Ok(msg) = serde_json::from_slice::<Value>(&self.line) else { continue };
                if msg.get("method").is_some() {
                    if let Some(req_id) = msg.get("id") {
                        // We offer no client capabilities; say so rather than leave it waiting.
                        let no = crate::mcp::rpc_error::RpcError::NotSupported.answer(&req_id.to_string());
                        self.process.send(&no).await.map_err(io)?;
                    }
                    continue;
                }
                if msg.get("id") == Some(&id) {
                    return Ok(msg);
                }
            }
        };
        tokio::time::timeout(STEP_TIMEOUT, read).await.map_err(|_| FetchError::Timeout(method.clone()))?
    }
}

/// Runs `command` and returns its tools.
pub async fn fetch_command(command: &[String]) -> Result<Fetched, FetchError> {
    let spawned =
        child::spawn("server", &child::Launch::command(command.to_vec())).map_err(|e| FetchError::Io(e.to_string()))?;
    let mut conn = Conn { process: spawned.process, stdout: spawned.stdout, line: Vec::new() };
    let outcome = session(&mut conn).await;
    conn.process.shutdown().await;
    outcome
}

async fn session(conn: &mut Conn) -> Result<Fetched, FetchError> {
    let init = result_of("initialize", conn.ask(initialize_request()).await?)?;
    conn.process
        .send(initialized_notification().to_string().as_bytes())
        .await
        .map_err(|e| FetchError::Io(e.to_string()))?;
    let mut tools = Vec::new();
    let mut cursor = None;
    for page in 0.. {
        cursor = take_page(conn.ask(list_request(page as u64 + 1, cursor.as_deref())).await?, &mut tools, page)?;
        if cursor.is_none() {
            break;
        }
    }
    Ok(Fetched::new(&init, tools))
}
