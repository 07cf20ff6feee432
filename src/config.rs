//! The gateway's configuration: typed TOML with defaults, unknown keys refused, and validation
//! at start with the key's path in every message. Secrets are never in here: only the names of
//! environment variables that hold them.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use crate::policy::settings::{self as policy, Policy, PolicyConfig};
pub use crate::settings::ConfigError;
use crate::settings::{expand_env, invalid};
pub use crate::telemetry::settings::{LogFormat, OtlpProtocol, TelemetryConfig};

use serde::Deserialize;

#[cfg(test)]
mod auth_tests;
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

impl ListenConfig {
    /// Whether this listener answers to `host` (a `Host` header value).
    pub fn allows_host(&self, host: &str) -> bool {
        crate::http::origin::host_allowed(&self.allowed_hosts, self.addr.ip().is_loopback(), host)
    }

    /// Whether a browser page from `origin` may call this listener.
    pub fn allows_origin(&self, origin: &str) -> bool {
        crate::http::origin::origin_allowed(&self.allowed_origins, origin)
    }
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

    /// Checks what types alone cannot: tiers, names, URLs, TLS pairs, judge settings. Every
    /// problem is reported (one per line, each with its key), not only the first.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let mut problems = self.problems();
        match problems.len() {
            0 => Ok(()),
            1 => Err(problems.remove(0)),
            _ => Err(ConfigError::Several(problems)),
        }
    }

    /// Every problem of the configuration, in file order.
    fn problems(&self) -> Vec<ConfigError> {
        let mut out = Vec::new();
        let mut check = |r: Result<(), ConfigError>| {
            if let Err(e) = r {
                out.push(e);
            }
        };
        check(policy::resolve("policy", &self.policy, None).map(drop));
        let mut seen = std::collections::HashSet::new();
        for (i, u) in self.upstreams.iter().enumerate() {
            let key = format!("upstream[{i}]");
            check(self.upstream_name(&key, u, &mut seen));
            check(self.upstream_transport(&key, u));
            check(policy::resolve(&format!("{key}.policy"), &u.policy, Some(&self.policy)).map(drop));
            for (field, v) in [
                ("connect_timeout_ms", u.connect_timeout_ms),
                ("response_timeout_ms", u.response_timeout_ms),
                ("read_idle_timeout_ms", u.read_idle_timeout_ms),
                ("stream_idle_timeout_ms", u.stream_idle_timeout_ms),
                ("max_answer_bytes", u.max_answer_bytes as u64),
                ("max_list_tools", u.max_list_tools as u64),
            ] {
                if v == 0 {
                    check(Err(invalid(format!("{key}.{field}"), "must be at least 1")));
                }
            }
            if let Some(o) = &u.oauth {
                check(o.validate(&format!("{key}.oauth")));
            }
            check(self.validate_rules(&format!("{key}.policy"), u));
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
                check(Err(invalid(format!("listen.{field}"), "must be at least 1")));
            }
        }
        check(self.validate_rules("policy", &UpstreamConfig::default()));
        check(self.auth.validate());
        if self.listen.tls_cert.is_some() != self.listen.tls_key.is_some() {
            check(Err(invalid("listen.tls_cert", "tls_cert and tls_key must be set together")));
        }
        if self.judge.kind == JudgeKind::Openai {
            if self.judge.base_url.is_none() {
                check(Err(invalid("judge.base_url", "required when judge.kind = \"openai\"")));
            }
            if self.judge.model.is_none() {
                check(Err(invalid("judge.model", "required when judge.kind = \"openai\"")));
            }
        }
        if let Some(dir) = &self.judge.prompts_dir {
            let dir = self.resolve(dir);
            check(
                crate::judge::Prompts::from_dir(&dir)
                    .map(drop)
                    .map_err(|e| invalid("judge.prompts_dir", e.to_string())),
            );
        }
        check(self.store_url().map(drop));
        if self.store.lease_ms < 1000 {
            check(Err(invalid("store.lease_ms", "must be at least 1000 (claims are renewed every third of it)")));
        }
        if self.cache.max_entries == 0 {
            check(Err(invalid("cache.max_entries", "must be at least 1")));
        }
        if self.cache.max_bytes < 64 * 1024 {
            check(Err(invalid("cache.max_bytes", "must be at least 65536 (a few scores)")));
        }
        check(self.telemetry.validate());
        if self.admin.token_env.is_empty() {
            check(Err(invalid("admin.token_env", "must name an environment variable")));
        }
        if self.admin.enabled && self.admin.addr == Some(self.listen.addr) {
            check(Err(invalid("admin.addr", "must differ from listen.addr (leave it unset to share that listener)")));
        }
        out
    }

    fn upstream_name<'a>(
        &self,
        key: &str,
        u: &'a UpstreamConfig,
        seen: &mut std::collections::HashSet<&'a String>,
    ) -> Result<(), ConfigError> {
        if u.name.is_empty() || !u.name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) {
            return Err(invalid(format!("{key}.name"), "use letters, digits, '-', '_' or '.' (it appears in URLs)"));
        }
        if !seen.insert(&u.name) {
            return Err(invalid(format!("{key}.name"), format!("\"{}\" is used by an earlier upstream", u.name)));
        }
        Ok(())
    }

    /// Exactly one transport, and what that transport needs.
    fn upstream_transport(&self, key: &str, u: &UpstreamConfig) -> Result<(), ConfigError> {
        let http_url = |field: &str, url: &str| -> Result<(), ConfigError> {
            let parsed = reqwest::Url::parse(url).map_err(|e| invalid(format!("{key}.{field}"), e.to_string()))?;
            if !matches!(parsed.scheme(), "http" | "https") {
                return Err(invalid(format!("{key}.{field}"), "must be an http or https URL"));
            }
            Ok(())
        };
        match (&u.url, &u.command, &u.sse_url) {
            (Some(url), None, None) => http_url("url", url),
            (None, None, Some(url)) => http_url("sse_url", url),
            (None, Some(cmd), None) if cmd.is_empty() || cmd[0].is_empty() => {
                Err(invalid(format!("{key}.command"), "needs at least the program to run"))
            }
            (None, Some(_), None) if u.max_sessions == 0 => {
                Err(invalid(format!("{key}.max_sessions"), "must be at least 1"))
            }
            (None, Some(_), None) => Ok(()),
            _ => Err(invalid(
                key,
                "give exactly one of `url` (Streamable HTTP), `command` (stdio) or `sse_url` (legacy HTTP+SSE)",
            )),
        }
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
        let base = policy::overlay(&self.policy, &upstream.policy);
        let global = self.policy.rule.iter().filter(|r| r.applies_to(&upstream.name));
        upstream
            .policy
            .rule
            .iter()
            .chain(global)
            .map(|r| {
                let p = policy::resolve("", &r.policy, Some(&base)).unwrap_or_else(|_| self.effective_policy(upstream));
                (r.clone(), p)
            })
            .collect()
    }

    /// Rules of `[policy]` (when `upstream` is the default one) or of one upstream's policy.
    fn validate_rules(&self, key: &str, upstream: &UpstreamConfig) -> Result<(), ConfigError> {
        let (rules, base) = if upstream.name.is_empty() {
            (&self.policy.rule, self.policy.clone())
        } else {
            (&upstream.policy.rule, policy::overlay(&self.policy, &upstream.policy))
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
            policy::resolve(&key, &r.policy, Some(&base))?;
        }
        Ok(())
    }

    /// The effective policy of an upstream.
    pub fn effective_policy(&self, upstream: &UpstreamConfig) -> Policy {
        // Validated at start, so this cannot fail afterwards.
        policy::resolve("", &upstream.policy, Some(&self.policy)).unwrap_or_else(|_| policy::default_policy())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::settings::{Mode, PinNew, ThreatAction};
    use crate::tdqs::score::Tenths;
    use crate::tdqs::threat::Severity;

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
    fn every_problem_is_reported_with_its_key() {
        let text = "[policy]\nmin_tier = \"Z\"\n[cache]\nmax_entries = 0\n[[upstream]]\nname = \"a b\"\nurl = \"ftp://x\"\nconnect_timeout_ms = 0\n";
        let e = cfg(text).unwrap_err();
        for key in [
            "`policy.min_tier`",
            "`upstream[0].name`",
            "`upstream[0].url`",
            "`upstream[0].connect_timeout_ms`",
            "`cache.max_entries`",
        ] {
            assert!(e.contains(key), "{key} missing from: {e}");
        }
        assert!(e.starts_with("6 problems"), "the upstream inherits the bad tier too: {e}");
        // One problem reads as before.
        let e = cfg("[cache]\nmax_entries = 0\n").unwrap_err();
        assert_eq!(e, "config key `cache.max_entries`: must be at least 1");
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
}
