//! `[[upstream]]`: one MCP server behind the gateway, how it is reached, and its bounds.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;

use super::limits;

use crate::policy::settings::PolicyConfig;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpstreamConfig {
    pub name: String,
    // The three ways to reach the server, as the file gives them; validation lets exactly one
    // be set, and everything outside `config` reads them through [`UpstreamConfig::transport`].
    /// Streamable HTTP endpoint of the MCP server (give this or `command`).
    pub(super) url: Option<String>,
    /// A stdio MCP server to launch, one process per client session: program and arguments.
    pub(super) command: Option<Vec<String>>,
    /// A legacy HTTP+SSE (2024-11-05) server's SSE endpoint; clients use /sse/<name>.
    pub(super) sse_url: Option<String>,
    /// Environment for `command`, added to the gateway's; `${VAR}` expands once, when the
    /// upstream is set up, for every process it starts.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Working folder for `command`.
    pub cwd: Option<PathBuf>,
    /// Most child processes at once for `command` (one per session); more get 503.
    #[serde(default = "default_max_sessions")]
    pub max_sessions: usize,
    /// A stdio session idle this long is ended and its process stopped.
    #[serde(default = "default_idle_ms")]
    pub idle_timeout_ms: u64,
    /// A request to a stdio server unanswered this long gets a JSON-RPC error.
    #[serde(default = "default_request_timeout_ms")]
    pub request_timeout_ms: u64,
    /// Headers added to every upstream request; `${VAR}` expands from the environment.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// A client-credentials grant the gateway performs for its own token to this upstream.
    pub oauth: Option<crate::auth::config::UpstreamOAuth>,
    #[serde(default)]
    pub policy: PolicyConfig,
    // Bounds on what the upstream sends; see `limits.rs`.
    #[serde(default = "limits::connect_timeout_ms")]
    pub connect_timeout_ms: u64,
    #[serde(default = "limits::response_timeout_ms")]
    pub response_timeout_ms: u64,
    #[serde(default = "limits::read_idle_timeout_ms")]
    pub read_idle_timeout_ms: u64,
    #[serde(default = "limits::stream_idle_timeout_ms")]
    pub stream_idle_timeout_ms: u64,
    #[serde(default = "limits::stream_open_wait_ms")]
    pub stream_open_wait_ms: u64,
    #[serde(default = "limits::stream_first_wait_ms")]
    pub stream_first_wait_ms: u64,
    #[serde(default = "limits::max_answer_bytes")]
    pub max_answer_bytes: usize,
    #[serde(default = "limits::max_list_tools")]
    pub max_list_tools: usize,
}

fn default_max_sessions() -> usize {
    100
}
fn default_idle_ms() -> u64 {
    30 * 60 * 1000
}
fn default_request_timeout_ms() -> u64 {
    5 * 60 * 1000
}

impl Default for UpstreamConfig {
    /// The same defaults as an `[[upstream]]` table without the optional keys.
    fn default() -> Self {
        UpstreamConfig {
            name: String::new(),
            url: None,
            command: None,
            sse_url: None,
            env: BTreeMap::new(),
            cwd: None,
            max_sessions: default_max_sessions(),
            idle_timeout_ms: default_idle_ms(),
            request_timeout_ms: default_request_timeout_ms(),
            headers: BTreeMap::new(),
            oauth: None,
            policy: PolicyConfig::default(),
            connect_timeout_ms: limits::connect_timeout_ms(),
            response_timeout_ms: limits::response_timeout_ms(),
            read_idle_timeout_ms: limits::read_idle_timeout_ms(),
            stream_idle_timeout_ms: limits::stream_idle_timeout_ms(),
            stream_open_wait_ms: limits::stream_open_wait_ms(),
            stream_first_wait_ms: limits::stream_first_wait_ms(),
            max_answer_bytes: limits::max_answer_bytes(),
            max_list_tools: limits::max_list_tools(),
        }
    }
}

/// How the gateway reaches an upstream; its name (`streamable_http`, `stdio`, `legacy_sse`) is
/// what the admin API reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Transport<'a> {
    StreamableHttp(&'a str),
    Stdio(&'a [String]),
    LegacySse(&'a str),
}

impl<'a> Transport<'a> {
    /// The URL the gateway sends HTTP to (Streamable HTTP, or a legacy server's SSE endpoint).
    pub fn http_url(self) -> Option<&'a str> {
        match self {
            Transport::StreamableHttp(u) | Transport::LegacySse(u) => Some(u),
            Transport::Stdio(_) => None,
        }
    }

    pub fn streamable_url(self) -> Option<&'a str> {
        if let Transport::StreamableHttp(u) = self { Some(u) } else { None }
    }

    pub fn sse_url(self) -> Option<&'a str> {
        if let Transport::LegacySse(u) = self { Some(u) } else { None }
    }

    pub fn command(self) -> Option<&'a [String]> {
        if let Transport::Stdio(c) = self { Some(c) } else { None }
    }
}

impl UpstreamConfig {
    /// An upstream reached over Streamable HTTP at `url`, with every other key at its default.
    pub fn http(name: &str, url: &str) -> Self {
        UpstreamConfig { name: name.to_owned(), url: Some(url.to_owned()), ..Default::default() }
    }

    /// An upstream launched as `command` (program and arguments), one process per session.
    pub fn stdio(name: &str, command: Vec<String>) -> Self {
        let mut u = UpstreamConfig { name: name.to_owned(), ..Default::default() };
        u.launch(command);
        u
    }

    /// Makes this upstream a stdio server launched as `command`, whatever reached it before
    /// (`wrap` keeps a configured upstream's policy and bounds but runs the given command).
    pub fn launch(&mut self, command: Vec<String>) {
        (self.url, self.sse_url, self.command) = (None, None, Some(command));
    }

    /// The one reading of `url` / `command` / `sse_url`, of which validation lets exactly one
    /// be given: everything after start-up asks this, never the three keys.
    pub fn transport(&self) -> Transport<'_> {
        match (&self.url, &self.command, &self.sse_url) {
            (Some(url), _, _) => Transport::StreamableHttp(url),
            (None, Some(cmd), _) => Transport::Stdio(cmd),
            (None, None, Some(url)) => Transport::LegacySse(url),
            // Validation guarantees exactly one.
            (None, None, None) => Transport::StreamableHttp(""),
        }
    }
}
