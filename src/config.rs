//! The gateway's configuration: typed TOML with defaults, unknown keys refused, and validation
//! at start with the key's path in every message. Secrets are never in here: only the names of
//! environment variables that hold them.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::tdqs::score::{Tenths, Tier};
use crate::tdqs::threat::Severity;

pub mod limits;

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub listen: ListenConfig,
    #[serde(default)]
    pub judge: JudgeConfig,
    #[serde(default)]
    pub store: StoreConfig,
    #[serde(default)]
    pub cache: CacheConfig,
    #[serde(default)]
    pub policy: PolicyConfig,
    #[serde(default)]
    pub telemetry: TelemetryConfig,
    #[serde(default)]
    pub admin: AdminConfig,
    /// Who may call the gateway (off unless configured).
    #[serde(default)]
    pub auth: crate::auth::AuthConfig,
    #[serde(default, rename = "upstream")]
    pub upstreams: Vec<UpstreamConfig>,
    /// The folder relative paths resolve against (the config file's); not a TOML key.
    #[serde(skip)]
    pub base_dir: PathBuf,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListenConfig {
    #[serde(default = "default_addr")]
    pub addr: SocketAddr,
    /// PEM certificate chain; with `tls_key`, the listener speaks HTTPS.
    pub tls_cert: Option<PathBuf>,
    pub tls_key: Option<PathBuf>,
    /// Browser origins allowed to call the gateway, besides loopback origins. A request with
    /// any other `Origin` gets 403.
    #[serde(default)]
    pub allowed_origins: Vec<String>,
    /// Host names (without port) the gateway answers to, besides loopback names. Empty means
    /// any host when bound to a non-loopback address (behind a load balancer), loopback names
    /// only when bound to loopback (DNS-rebinding protection).
    #[serde(default)]
    pub allowed_hosts: Vec<String>,
    /// Largest request body accepted from a client, in bytes.
    #[serde(default = "default_max_body")]
    pub max_body_bytes: usize,
    /// How long a session the gateway saw no request on is remembered (its recent list ids,
    /// by which a list answer replayed on a resumed stream is recognised).
    #[serde(default = "default_session_idle_ms")]
    pub session_idle_ms: u64,
    // Bounds on clients; see `limits.rs` for what each default is for.
    #[serde(default = "limits::header_read_timeout_ms")]
    pub header_read_timeout_ms: u64,
    #[serde(default = "limits::body_read_timeout_ms")]
    pub body_read_timeout_ms: u64,
    #[serde(default = "limits::tls_handshake_timeout_ms")]
    pub tls_handshake_timeout_ms: u64,
    #[serde(default = "limits::keep_alive_timeout_ms")]
    pub keep_alive_timeout_ms: u64,
    #[serde(default = "limits::max_connections")]
    pub max_connections: usize,
    #[serde(default = "limits::max_streams_per_connection")]
    pub max_streams_per_connection: u32,
    #[serde(default = "limits::shutdown_grace_ms")]
    pub shutdown_grace_ms: u64,
}

fn default_session_idle_ms() -> u64 {
    10 * 60 * 1000
}

fn default_addr() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 8080))
}

fn default_max_body() -> usize {
    4 * 1024 * 1024
}

impl Default for ListenConfig {
    fn default() -> Self {
        ListenConfig {
            addr: default_addr(),
            tls_cert: None,
            tls_key: None,
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            max_body_bytes: default_max_body(),
            session_idle_ms: default_session_idle_ms(),
            header_read_timeout_ms: limits::header_read_timeout_ms(),
            body_read_timeout_ms: limits::body_read_timeout_ms(),
            tls_handshake_timeout_ms: limits::tls_handshake_timeout_ms(),
            keep_alive_timeout_ms: limits::keep_alive_timeout_ms(),
            max_connections: limits::max_connections(),
            max_streams_per_connection: limits::max_streams_per_connection(),
            shutdown_grace_ms: limits::shutdown_grace_ms(),
        }
    }
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum JudgeKind {
    #[default]
    Heuristic,
    Openai,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgeConfig {
    #[serde(default)]
    pub kind: JudgeKind,
    pub base_url: Option<String>,
    pub model: Option<String>,
    #[serde(default = "default_key_env")]
    pub api_key_env: String,
    #[serde(default = "default_concurrency")]
    pub concurrency: usize,
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u64,
    #[serde(default = "default_attempts")]
    pub max_attempts: u32,
    #[serde(default)]
    pub request_overrides: serde_json::Map<String, serde_json::Value>,
    /// A folder with `tool-scoring.md` and `coherence.md`; the built-in prompts otherwise.
    pub prompts_dir: Option<PathBuf>,
}

fn default_key_env() -> String {
    "TDQS_API_KEY".into()
}
fn default_concurrency() -> usize {
    8
}
fn default_timeout_ms() -> u64 {
    120_000
}
fn default_attempts() -> u32 {
    3
}

impl Default for JudgeConfig {
    fn default() -> Self {
        JudgeConfig {
            kind: JudgeKind::Heuristic,
            base_url: None,
            model: None,
            api_key_env: default_key_env(),
            concurrency: default_concurrency(),
            timeout_ms: default_timeout_ms(),
            max_attempts: default_attempts(),
            request_overrides: Default::default(),
            prompts_dir: None,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoreConfig {
    /// `sqlite://PATH`, `postgres://...` or `memory`. Default: `sqlite://data/scores.db`
    /// beside the config file, or in the user's data folder when there is no config file.
    pub url: Option<String>,
    /// How long a replica's claim on a judge call lasts without renewal: after a replica dies
    /// mid-call, another takes the call over this long after its last renewal.
    #[serde(default = "default_lease_ms")]
    pub lease_ms: u64,
}

fn default_lease_ms() -> u64 {
    30_000
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig { url: None, lease_ms: default_lease_ms() }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheConfig {
    /// Entries of the caches counted in entries, and how many stored scores warm memory.
    #[serde(default = "default_cache_entries")]
    pub max_entries: u64,
    /// Approximate bytes the score caches may hold together (moka weigher).
    #[serde(default = "default_cache_bytes")]
    pub max_bytes: u64,
}

fn default_cache_entries() -> u64 {
    100_000
}

fn default_cache_bytes() -> u64 {
    256 * 1024 * 1024
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig { max_entries: default_cache_entries(), max_bytes: default_cache_bytes() }
    }
}

/// `[telemetry]`: OpenTelemetry export (OTLP), the Prometheus endpoint, and logs.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TelemetryConfig {
    /// OTLP collector: `http://host:4318` for http/protobuf (the `/v1/<signal>` paths are
    /// added), `http://host:4317` for grpc. Unset: no OTLP export.
    pub otlp_endpoint: Option<String>,
    #[serde(default)]
    pub otlp_protocol: OtlpProtocol,
    /// Serve the metrics on `GET /metrics` in the Prometheus text format.
    #[serde(default = "default_true")]
    pub prometheus: bool,
    #[serde(default = "default_service_name")]
    pub service_name: String,
    #[serde(default)]
    pub log_format: LogFormat,
    /// A `tracing` filter (`info`, `warn,tdqs_gateway=debug`); `TDQS_LOG` or `RUST_LOG` override it.
    #[serde(default = "default_log_level")]
    pub log_level: String,
    /// Distinct tool names used as metric labels; later names share `tool="_other"`.
    #[serde(default = "default_max_tool_labels")]
    pub max_tool_labels: usize,
    /// How often metrics are pushed over OTLP.
    #[serde(default = "default_export_interval_ms")]
    pub export_interval_ms: u64,
    /// The longest one OTLP export may take before it is abandoned (it never blocks proxying).
    #[serde(default = "default_export_timeout_ms")]
    pub export_timeout_ms: u64,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, Default)]
pub enum OtlpProtocol {
    #[default]
    #[serde(rename = "http/protobuf")]
    HttpProtobuf,
    #[serde(rename = "grpc")]
    Grpc,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// One readable line per event.
    #[default]
    Human,
    /// One JSON object per line.
    Json,
}

/// The admin API and dashboard (`/admin/`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdminConfig {
    /// Whether `/admin/` is served at all.
    #[serde(default = "default_true")]
    pub enabled: bool,
    /// The environment variable holding the bearer token the admin API requires (when set and
    /// not empty). Without a token the gateway refuses to start if the admin API would be
    /// reachable on a non-loopback address.
    #[serde(default = "default_admin_token_env")]
    pub token_env: String,
    /// A separate listener for the admin API and dashboard; by default they share `listen.addr`.
    pub addr: Option<SocketAddr>,
}

fn default_true() -> bool {
    true
}
fn default_service_name() -> String {
    "tdqs-gateway".into()
}
fn default_log_level() -> String {
    "info".into()
}
fn default_max_tool_labels() -> usize {
    2000
}
fn default_export_interval_ms() -> u64 {
    15_000
}
fn default_export_timeout_ms() -> u64 {
    5_000
}

impl Default for TelemetryConfig {
    fn default() -> Self {
        TelemetryConfig {
            otlp_endpoint: None,
            otlp_protocol: OtlpProtocol::default(),
            prometheus: true,
            service_name: default_service_name(),
            log_format: LogFormat::default(),
            log_level: default_log_level(),
            max_tool_labels: default_max_tool_labels(),
            export_interval_ms: default_export_interval_ms(),
            export_timeout_ms: default_export_timeout_ms(),
        }
    }
}

impl TelemetryConfig {
    fn validate(&self) -> Result<(), ConfigError> {
        if let Some(endpoint) = &self.otlp_endpoint {
            let url = reqwest::Url::parse(endpoint).map_err(|e| invalid("telemetry.otlp_endpoint", e.to_string()))?;
            if !matches!(url.scheme(), "http" | "https") {
                return Err(invalid("telemetry.otlp_endpoint", "must be an http or https URL"));
            }
        }
        if self.service_name.trim().is_empty() {
            return Err(invalid("telemetry.service_name", "must not be empty"));
        }
        tracing_subscriber::EnvFilter::builder()
            .parse(&self.log_level)
            .map_err(|e| invalid("telemetry.log_level", format!("\"{}\": {e}", self.log_level)))?;
        if self.max_tool_labels == 0 {
            return Err(invalid("telemetry.max_tool_labels", "must be at least 1"));
        }
        if self.export_interval_ms < 100 {
            return Err(invalid("telemetry.export_interval_ms", "must be at least 100"));
        }
        if self.export_timeout_ms == 0 {
            return Err(invalid("telemetry.export_timeout_ms", "must be at least 1"));
        }
        Ok(())
    }
}

fn default_admin_token_env() -> String {
    "TDQS_ADMIN_TOKEN".into()
}

impl Default for AdminConfig {
    fn default() -> Self {
        AdminConfig { enabled: true, token_env: default_admin_token_env(), addr: None }
    }
}

impl AdminConfig {
    /// Where the admin API is reachable, when it is enabled.
    pub fn reachable_at(&self, listen: &ListenConfig) -> Option<SocketAddr> {
        self.enabled.then(|| self.addr.unwrap_or(listen.addr))
    }
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Observe,
    #[default]
    Annotate,
    Enforce,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum Pending {
    /// Serve the heuristic score at once.
    #[default]
    Provisional,
    /// Wait up to `wait_ms` for the judge, then fall back to provisional.
    Wait,
    /// Show the tool, unjudged, until the score is in.
    Allow,
    /// Hide the tool until the score is in.
    Hide,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum FailMode {
    /// The judge is unavailable: use the heuristic score.
    #[default]
    Open,
    /// The judge is unavailable: hide what cannot be judged.
    Closed,
}

/// What the policy does with a tool whose definition carries a threat finding.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ThreatAction {
    /// Hide the tool (and remove poisoned server instructions) under enforce.
    Hide,
    /// Keep the tool; the findings go to the annotation, logs, metrics and the admin API.
    Flag,
    /// Do not analyse definitions for threats at all.
    Off,
}

/// What a pinned upstream's new tool name (after its first listing) gets.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum PinNew {
    /// Held for approval like a changed definition (a rename cannot buy trust on first use).
    #[default]
    Hold,
    /// Approved on first sight, as on the upstream's first listing.
    Trust,
}

/// Policy keys; every one optional so an upstream can override just some of them.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct PolicyConfig {
    pub mode: Option<Mode>,
    pub min_tier: Option<String>,
    pub min_score: Option<f64>,
    pub pending: Option<Pending>,
    pub wait_ms: Option<u64>,
    pub dry_run: Option<bool>,
    pub fail: Option<FailMode>,
    /// Rug-pull protection: a tool whose definition changed since it was approved is hidden
    /// (enforce) or flagged until approved again.
    pub pin: Option<bool>,
    #[serde(default)]
    pub allow: Vec<String>,
    #[serde(default)]
    pub deny: Vec<String>,
    /// `hide` (the default under enforce) | `flag` (the default otherwise) | `off`.
    pub threats: Option<ThreatAction>,
    /// The lowest finding severity the policy acts on (default `high`).
    pub threat_severity: Option<Severity>,
    /// Tools kept visible despite a threat: the operator's deliberate exception (`allow`
    /// does not override a threat).
    #[serde(default)]
    pub allow_threats: Vec<String>,
    /// On a pinned upstream, a tool name first seen after the first listing: `hold` | `trust`.
    pub pin_new_tools: Option<PinNew>,
    /// Per-identity rules (`[[policy.rule]]`), tried in order; see `policy::rules`.
    #[serde(default)]
    pub rule: Vec<crate::policy::rules::RuleConfig>,
}

/// The policy in force for one upstream: defaults, then `[policy]`, then `[upstream.policy]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Policy {
    pub mode: Mode,
    /// Tools scoring below this are hidden under enforce.
    pub minimum: Tenths,
    pub pending: Pending,
    pub wait_ms: u64,
    pub dry_run: bool,
    pub fail: FailMode,
    pub pin: bool,
    pub allow: Vec<String>,
    pub deny: Vec<String>,
    pub threats: ThreatAction,
    pub threat_severity: Severity,
    pub allow_threats: Vec<String>,
    pub pin_new_tools: PinNew,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpstreamConfig {
    pub name: String,
    /// Streamable HTTP endpoint of the MCP server (give this or `command`).
    pub url: Option<String>,
    /// A stdio MCP server to launch, one process per client session: program and arguments.
    pub command: Option<Vec<String>>,
    /// A legacy HTTP+SSE (2024-11-05) server's SSE endpoint; clients use /sse/<name>.
    pub sse_url: Option<String>,
    /// Environment for `command`, added to the gateway's; `${VAR}` expands.
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
            max_answer_bytes: limits::max_answer_bytes(),
            max_list_tools: limits::max_list_tools(),
        }
    }
}

/// How the gateway reaches an upstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport<'a> {
    StreamableHttp(&'a str),
    Stdio(&'a [String]),
    LegacySse(&'a str),
}

impl UpstreamConfig {
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

/// A configuration problem, with the key it concerns.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("config {path}: {message}")]
    Parse { path: String, message: String },
    #[error("config key `{key}`: {message}")]
    Invalid { key: String, message: String },
}

fn invalid(key: impl Into<String>, message: impl Into<String>) -> ConfigError {
    ConfigError::Invalid { key: key.into(), message: message.into() }
}

impl Config {
    /// Reads, parses and validates a TOML file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| ConfigError::Read { path: path.display().to_string(), source })?;
        let mut cfg =
            Config::parse(&text).map_err(|message| ConfigError::Parse { path: path.display().to_string(), message })?;
        cfg.base_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        cfg.validate()?;
        Ok(cfg)
    }

    /// Parses TOML text (no validation); the error names the key and the line.
    pub fn parse(text: &str) -> Result<Config, String> {
        toml::from_str(text).map_err(|e| e.to_string().trim().replace('\n', " "))
    }

    /// Checks what types alone cannot: tiers, names, URLs, TLS pairs, judge settings.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.policy_for("policy", &self.policy, None)?;
        let mut seen = std::collections::HashSet::new();
        for (i, u) in self.upstreams.iter().enumerate() {
            let key = format!("upstream[{i}]");
            if u.name.is_empty() || !u.name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) {
                return Err(invalid(
                    format!("{key}.name"),
                    "use letters, digits, '-', '_' or '.' (it appears in URLs)",
                ));
            }
            if !seen.insert(&u.name) {
                return Err(invalid(format!("{key}.name"), format!("\"{}\" is used by an earlier upstream", u.name)));
            }
            let http_url = |field: &str, url: &str| -> Result<(), ConfigError> {
                let parsed = reqwest::Url::parse(url).map_err(|e| invalid(format!("{key}.{field}"), e.to_string()))?;
                if !matches!(parsed.scheme(), "http" | "https") {
                    return Err(invalid(format!("{key}.{field}"), "must be an http or https URL"));
                }
                Ok(())
            };
            match (&u.url, &u.command, &u.sse_url) {
                (Some(url), None, None) => http_url("url", url)?,
                (None, None, Some(url)) => http_url("sse_url", url)?,
                (None, Some(cmd), None) if cmd.is_empty() || cmd[0].is_empty() => {
                    return Err(invalid(format!("{key}.command"), "needs at least the program to run"));
                }
                (None, Some(_), None) if u.max_sessions == 0 => {
                    return Err(invalid(format!("{key}.max_sessions"), "must be at least 1"));
                }
                (None, Some(_), None) => {}
                _ => {
                    return Err(invalid(
                        key,
                        "give exactly one of `url` (Streamable HTTP), `command` (stdio) or `sse_url` (legacy HTTP+SSE)",
                    ));
                }
            }
            self.policy_for(&format!("{key}.policy"), &u.policy, Some(&self.policy))?;
            for (field, v) in [
                ("connect_timeout_ms", u.connect_timeout_ms),
                ("response_timeout_ms", u.response_timeout_ms),
                ("read_idle_timeout_ms", u.read_idle_timeout_ms),
                ("stream_idle_timeout_ms", u.stream_idle_timeout_ms),
                ("max_answer_bytes", u.max_answer_bytes as u64),
                ("max_list_tools", u.max_list_tools as u64),
            ] {
                if v == 0 {
                    return Err(invalid(format!("{key}.{field}"), "must be at least 1"));
                }
            }
            if let Some(o) = &u.oauth {
                o.validate(&format!("{key}.oauth"))?;
            }
            self.validate_rules(&format!("{key}.policy"), u)?;
        }
        let l = &self.listen;
        for (field, v) in [
            ("header_read_timeout_ms", l.header_read_timeout_ms),
            ("body_read_timeout_ms", l.body_read_timeout_ms),
            ("tls_handshake_timeout_ms", l.tls_handshake_timeout_ms),
            ("keep_alive_timeout_ms", l.keep_alive_timeout_ms),
            ("max_connections", l.max_connections as u64),
            ("max_streams_per_connection", u64::from(l.max_streams_per_connection)),
        ] {
            if v == 0 {
                return Err(invalid(format!("listen.{field}"), "must be at least 1"));
            }
        }
        self.validate_rules("policy", &UpstreamConfig::default())?;
        self.auth.validate()?;
        if self.listen.tls_cert.is_some() != self.listen.tls_key.is_some() {
            return Err(invalid("listen.tls_cert", "tls_cert and tls_key must be set together"));
        }
        if self.judge.kind == JudgeKind::Openai {
            if self.judge.base_url.is_none() {
                return Err(invalid("judge.base_url", "required when judge.kind = \"openai\""));
            }
            if self.judge.model.is_none() {
                return Err(invalid("judge.model", "required when judge.kind = \"openai\""));
            }
        }
        if let Some(dir) = &self.judge.prompts_dir {
            let dir = self.resolve(dir);
            crate::judge::Prompts::from_dir(&dir).map_err(|e| invalid("judge.prompts_dir", e.to_string()))?;
        }
        self.store_url()?;
        if self.store.lease_ms < 1000 {
            return Err(invalid("store.lease_ms", "must be at least 1000 (claims are renewed every third of it)"));
        }
        if self.cache.max_entries == 0 {
            return Err(invalid("cache.max_entries", "must be at least 1"));
        }
        if self.cache.max_bytes < 64 * 1024 {
            return Err(invalid("cache.max_bytes", "must be at least 65536 (a few scores)"));
        }
        self.telemetry.validate()?;
        if self.admin.token_env.is_empty() {
            return Err(invalid("admin.token_env", "must name an environment variable"));
        }
        if self.admin.enabled && self.admin.addr == Some(self.listen.addr) {
            return Err(invalid("admin.addr", "must differ from listen.addr (leave it unset to share that listener)"));
        }
        Ok(())
    }

    /// Where scores are kept (see [`StoreConfig::url`]).
    pub fn store_url(&self) -> Result<crate::store::StoreUrl, ConfigError> {
        let default = || {
            if self.base_dir.as_os_str().is_empty() {
                user_data_dir().join("scores.db")
            } else {
                self.base_dir.join("data/scores.db")
            }
        };
        match &self.store.url {
            Some(url) => {
                // `${VAR}` keeps a database password in the environment (a Kubernetes Secret).
                let url = expand_env(url).map_err(|m| invalid("store.url", m))?;
                crate::store::StoreUrl::parse(&url, &self.base_dir).map_err(|m| invalid("store.url", m))
            }
            None => Ok(crate::store::StoreUrl::Sqlite(default())),
        }
    }

    /// A path from the config resolved against the config file's folder.
    pub fn resolve(&self, p: &Path) -> PathBuf {
        if p.is_absolute() { p.to_path_buf() } else { self.base_dir.join(p) }
    }

    pub fn upstream(&self, name: &str) -> Option<&UpstreamConfig> {
        self.upstreams.iter().find(|u| u.name == name)
    }

    /// The rules that apply to an upstream, in the order they are tried (its own, then the
    /// global ones that name it or no upstream), each with its effective policy: the
    /// upstream's, with the rule's keys over it.
    pub fn rule_policies(&self, upstream: &UpstreamConfig) -> Vec<(crate::policy::rules::RuleConfig, Policy)> {
        let base = overlay(&self.policy, &upstream.policy);
        let global = self.policy.rule.iter().filter(|r| r.applies_to(&upstream.name));
        upstream
            .policy
            .rule
            .iter()
            .chain(global)
            .map(|r| {
                let p = self.policy_for("", &r.policy, Some(&base)).unwrap_or_else(|_| self.effective_policy(upstream));
                (r.clone(), p)
            })
            .collect()
    }

    /// Rules of `[policy]` (when `upstream` is the default one) or of one upstream's policy.
    fn validate_rules(&self, key: &str, upstream: &UpstreamConfig) -> Result<(), ConfigError> {
        let (rules, base) = if upstream.name.is_empty() {
            (&self.policy.rule, self.policy.clone())
        } else {
            (&upstream.policy.rule, overlay(&self.policy, &upstream.policy))
        };
        let mut names = std::collections::HashSet::new();
        for (i, r) in rules.iter().enumerate() {
            let key = format!("{key}.rule[{i}]");
            if !self.auth.active() {
                return Err(invalid(key, "rules match callers, which only [auth] identifies: configure [auth]"));
            }
            if r.name.is_empty() || !r.name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) {
                return Err(invalid(format!("{key}.name"), "use letters, digits, '-', '_' or '.' (a metric label)"));
            }
            if !names.insert(&r.name) {
                return Err(invalid(format!("{key}.name"), format!("\"{}\" is used by an earlier rule", r.name)));
            }
            if !r.policy.rule.is_empty() {
                return Err(invalid(format!("{key}.rule"), "rules do not nest"));
            }
            if !upstream.name.is_empty() && !r.upstreams.is_empty() {
                return Err(invalid(format!("{key}.upstreams"), "only a global [[policy.rule]] names upstreams"));
            }
            for (j, u) in r.upstreams.iter().enumerate() {
                if self.upstream(u).is_none() {
                    return Err(invalid(format!("{key}.upstreams[{j}]"), format!("no upstream is named \"{u}\"")));
                }
            }
            self.policy_for(&key, &r.policy, Some(&base))?;
        }
        Ok(())
    }

    /// The effective policy of an upstream.
    pub fn effective_policy(&self, upstream: &UpstreamConfig) -> Policy {
        // Validated at start, so this cannot fail afterwards.
        self.policy_for("", &upstream.policy, Some(&self.policy)).unwrap_or_else(|_| default_policy())
    }

    fn policy_for(&self, key: &str, p: &PolicyConfig, base: Option<&PolicyConfig>) -> Result<Policy, ConfigError> {
        let base = base.cloned().unwrap_or_default();
        let pick = |a: Option<f64>, b: Option<f64>| a.or(b);
        let (tier, score) = if p.min_tier.is_some() || p.min_score.is_some() {
            (p.min_tier.clone(), p.min_score)
        } else {
            (base.min_tier.clone(), base.min_score)
        };
        if tier.is_some() && score.is_some() {
            return Err(invalid(format!("{key}.min_score"), "set min_tier or min_score, not both"));
        }
        let minimum = match (tier, pick(score, None)) {
            (Some(t), _) => Tier::parse(&t)
                .and_then(Tier::minimum)
                .ok_or_else(|| invalid(format!("{key}.min_tier"), format!("\"{t}\" is not one of A, B, C, D")))?,
            (None, Some(s)) if (0.0..=5.0).contains(&s) => Tenths((s * 10.0).round() as u32),
            (None, Some(s)) => return Err(invalid(format!("{key}.min_score"), format!("{s} is not between 0 and 5"))),
            (None, None) => Tenths(30),
        };
        let mut allow = base.allow.clone();
        allow.extend(p.allow.iter().cloned());
        let mut deny = base.deny.clone();
        deny.extend(p.deny.iter().cloned());
        let mut allow_threats = base.allow_threats.clone();
        allow_threats.extend(p.allow_threats.iter().cloned());
        let mode = p.mode.or(base.mode).unwrap_or_default();
        let threats = p.threats.or(base.threats).unwrap_or(if mode == Mode::Enforce {
            ThreatAction::Hide
        } else {
            ThreatAction::Flag
        });
        Ok(Policy {
            mode,
            minimum,
            pending: p.pending.or(base.pending).unwrap_or_default(),
            wait_ms: p.wait_ms.or(base.wait_ms).unwrap_or(3000),
            dry_run: p.dry_run.or(base.dry_run).unwrap_or(false),
            fail: p.fail.or(base.fail).unwrap_or_default(),
            pin: p.pin.or(base.pin).unwrap_or(false),
            allow,
            deny,
            threats,
            threat_severity: p.threat_severity.or(base.threat_severity).unwrap_or(Severity::High),
            allow_threats,
            pin_new_tools: p.pin_new_tools.or(base.pin_new_tools).unwrap_or_default(),
        })
    }
}

/// `over`'s keys on top of `base`'s, as one policy table (the tier or score pair goes
/// together, lists add up; rules are not carried).
fn overlay(base: &PolicyConfig, over: &PolicyConfig) -> PolicyConfig {
    let threshold_set = over.min_tier.is_some() || over.min_score.is_some();
    PolicyConfig {
        mode: over.mode.or(base.mode),
        min_tier: if threshold_set { over.min_tier.clone() } else { base.min_tier.clone() },
        min_score: if threshold_set { over.min_score } else { base.min_score },
        pending: over.pending.or(base.pending),
        wait_ms: over.wait_ms.or(base.wait_ms),
        dry_run: over.dry_run.or(base.dry_run),
        fail: over.fail.or(base.fail),
        pin: over.pin.or(base.pin),
        allow: base.allow.iter().chain(&over.allow).cloned().collect(),
        deny: base.deny.iter().chain(&over.deny).cloned().collect(),
        threats: over.threats.or(base.threats),
        threat_severity: over.threat_severity.or(base.threat_severity),
        allow_threats: base.allow_threats.iter().chain(&over.allow_threats).cloned().collect(),
        pin_new_tools: over.pin_new_tools.or(base.pin_new_tools),
        rule: Vec::new(),
    }
}

fn default_policy() -> Policy {
    Policy {
        mode: Mode::Annotate,
        minimum: Tenths(30),
        pending: Pending::Provisional,
        wait_ms: 3000,
        dry_run: false,
        fail: FailMode::Open,
        pin: false,
        allow: vec![],
        deny: vec![],
        threats: ThreatAction::Flag,
        threat_severity: Severity::High,
        allow_threats: vec![],
        pin_new_tools: PinNew::Hold,
    }
}

/// `$XDG_DATA_HOME/tdqs-gateway`, else `~/.local/share/tdqs-gateway`, else `./data`.
pub fn user_data_dir() -> PathBuf {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    match (var("XDG_DATA_HOME"), var("HOME")) {
        (Some(x), _) => x.join("tdqs-gateway"),
        (None, Some(home)) => home.join(".local/share/tdqs-gateway"),
        _ => PathBuf::from("data"),
    }
}

/// Expands `${VAR}` from the environment; an unset variable is an error naming it.
pub fn expand_env(value: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let Some(end) = rest[start..].find('}') else { return Err("unclosed ${".into()) };
        let var = &rest[start + 2..start + end];
        out.push_str(&std::env::var(var).map_err(|_| format!("environment variable {var} is not set"))?);
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(text: &str) -> Result<Config, String> {
        let c = Config::parse(text)?;
        c.validate().map_err(|e| e.to_string())?;
        Ok(c)
    }

    #[test]
    fn defaults_and_overrides() {
        let c = cfg(r#"
            [policy]
            mode = "enforce"
            min_tier = "B"
            deny = ["rm"]
            [[upstream]]
            name = "everything"
            url = "http://127.0.0.1:3001/mcp"
            [upstream.policy]
            min_score = 3.2
            allow = ["echo"]
        "#)
        .unwrap();
        let p = c.effective_policy(&c.upstreams[0]);
        assert_eq!(p.mode, Mode::Enforce);
        assert_eq!(p.minimum, Tenths(32));
        assert_eq!((p.allow.as_slice(), p.deny.as_slice()), (&["echo".to_owned()][..], &["rm".to_owned()][..]));
        assert_eq!(c.listen.addr.to_string(), "127.0.0.1:8080");
    }

    #[test]
    fn threat_defaults_follow_the_mode() {
        let c = cfg(r#"
            [policy]
            allow_threats = ["vetted"]
            [[upstream]]
            name = "e"
            url = "http://127.0.0.1:3001/mcp"
            [upstream.policy]
            mode = "enforce"
            [[upstream]]
            name = "a"
            url = "http://127.0.0.1:3002/mcp"
            [[upstream]]
            name = "m"
            url = "http://127.0.0.1:3003/mcp"
            [upstream.policy]
            mode = "enforce"
            threats = "flag"
            threat_severity = "medium"
            pin_new_tools = "trust"
            allow_threats = ["other"]
        "#)
        .unwrap();
        let (e, a, m) = (
            c.effective_policy(&c.upstreams[0]),
            c.effective_policy(&c.upstreams[1]),
            c.effective_policy(&c.upstreams[2]),
        );
        assert_eq!((e.threats, e.threat_severity, e.pin_new_tools), (ThreatAction::Hide, Severity::High, PinNew::Hold));
        assert_eq!(a.threats, ThreatAction::Flag, "annotate flags");
        assert_eq!(
            (m.threats, m.threat_severity, m.pin_new_tools),
            (ThreatAction::Flag, Severity::Medium, PinNew::Trust)
        );
        assert_eq!(m.allow_threats, ["vetted", "other"]);
        for (bad, key) in [
            ("threats = \"block\"", "threats"),
            ("threat_severity = \"severe\"", "threat_severity"),
            ("pin_new_tools = \"maybe\"", "pin_new_tools"),
        ] {
            let e = cfg(&format!("[policy]\n{bad}\n")).unwrap_err();
            assert!(e.contains(key), "{e}");
        }
    }

    #[test]
    fn errors_name_the_key() {
        let e = cfg("[policy]\nmode = \"enforce\"\nmin_tier = \"Z\"\n").unwrap_err();
        assert!(e.contains("`policy.min_tier`") && e.contains("\"Z\""), "{e}");
        let e = cfg("[listen]\nadress = \"x\"\n").unwrap_err();
        assert!(e.contains("adress"), "{e}");
        let e = cfg("[[upstream]]\nname = \"a\"\nurl = \"ftp://x\"\n").unwrap_err();
        assert!(e.contains("upstream[0].url"), "{e}");
        let e = cfg("[[upstream]]\nname = \"a\"\nurl = \"http://x\"\n[[upstream]]\nname = \"a\"\nurl = \"http://y\"\n")
            .unwrap_err();
        assert!(e.contains("upstream[1].name"), "{e}");
        let e = cfg("[[upstream]]\nname = \"a\"\n").unwrap_err();
        assert!(e.contains("`upstream[0]`") && e.contains("exactly one"), "{e}");
        let e = cfg("[[upstream]]\nname = \"a\"\ncommand = []\n").unwrap_err();
        assert!(e.contains("upstream[0].command"), "{e}");
        let e = cfg("[judge]\nkind = \"openai\"\n").unwrap_err();
        assert!(e.contains("judge.base_url"), "{e}");
        let e = cfg("[store]\nurl = \"mysql://x\"\n").unwrap_err();
        assert!(e.contains("store.url"), "{e}");
        let e = cfg("[judge]\nprompts_dir = \"/nonexistent\"\n").unwrap_err();
        assert!(e.contains("judge.prompts_dir"), "{e}");
        let e = cfg("[telemetry]\notlp_endpoint = \"localhost:4318\"\n").unwrap_err();
        assert!(e.contains("telemetry.otlp_endpoint"), "{e}");
        let e = cfg("[telemetry]\notlp_protocol = \"thrift\"\n").unwrap_err();
        assert!(e.contains("otlp_protocol") && e.contains("thrift"), "{e}");
        let e = cfg("[telemetry]\nlog_level = \"tdqs_gateway=loud\"\n").unwrap_err();
        assert!(e.contains("telemetry.log_level"), "{e}");
        let e = cfg("[telemetry]\nmax_tool_labels = 0\n").unwrap_err();
        assert!(e.contains("telemetry.max_tool_labels"), "{e}");
        let e = cfg("[telemetry]\nprometheus = \"yes\"\n").unwrap_err();
        assert!(e.contains("prometheus"), "{e}");
        let e = cfg("[admin]\ntoken = \"x\"\n").unwrap_err();
        assert!(e.contains("token"), "{e}");
        let e = cfg("[admin]\naddr = \"127.0.0.1:8080\"\n").unwrap_err();
        assert!(e.contains("admin.addr"), "{e}");
    }

    #[test]
    fn shipped_configs_are_valid() {
        for text in [include_str!("../config/gateway.toml"), include_str!("../config/demo.toml")] {
            let c = cfg(text).unwrap();
            assert_eq!(c.upstreams[0].name, "everything");
        }
    }

    #[test]
    fn env_expansion() {
        // SAFETY of the test: PATH is always set.
        assert!(expand_env("x ${PATH} y").unwrap().starts_with("x /"));
        assert!(expand_env("${TDQS_SURELY_UNSET_VAR}").unwrap_err().contains("TDQS_SURELY_UNSET_VAR"));
    }
}
