//! The proxy: a hyper listener in front of MCP servers. A request's path through it:
//!
//! ```text
//! accept -> route (/mcp/{upstream}, /healthz, /readyz) -> Origin/Host check
//!   -> read body -> check Mcp-Method/Mcp-Name against it
//!   -> the exchange: strict reading, learning, refusals (the same for every transport)
//!   -> forward to the upstream (pooled client) -> answer: JSON body or SSE stream
//!   -> every tools/list result in it scored, policy applied -> client
//! ```
//!
//! Errors turn into HTTP responses in one place (`error.rs`).

pub(crate) mod body;
mod bridge;
mod capped;
mod error;
mod exchange;
mod forward;
pub mod guard;
mod headers;
pub mod intercept;
mod json_answer;
mod legacy;
mod listener;
pub mod roster;
mod routes;
mod session;
pub mod stdio;
mod stream;
mod threats;
pub mod uninspected;
pub mod upstream_client;

use std::collections::HashMap;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use tokio::sync::broadcast;

use crate::config::Config;
use crate::scoring::service::ScoringService;
use intercept::UpstreamTools;

pub use listener::{Listening, serve};

pub type BoxError = Box<dyn std::error::Error + Send + Sync>;
/// Every response body: a whole buffer or a stream.
pub type Body = BoxBody<Bytes, BoxError>;

/// Shared state of a running gateway.
pub struct Gateway {
    pub config: Config,
    /// The admin API's settings (`None` when `admin.enabled = false`).
    pub admin: Option<crate::admin::Admin>,
    pub scoring: Arc<ScoringService>,
    pub upstreams: HashMap<String, Arc<UpstreamTools>>,
    /// `[auth]`, when callers must authenticate.
    pub auth: Option<Arc<crate::auth::Auth>>,
    /// Per upstream, its identity rules in the order they are tried, each with the tools
    /// (decisions, refusals, rendered lists) under that rule's policy.
    pub rules: HashMap<String, Vec<(crate::policy::rules::RuleConfig, Arc<UpstreamTools>)>>,
    /// What the gateway presents to each network upstream.
    credentials: HashMap<String, Arc<crate::auth::upstream::UpstreamCredentials>>,
    /// Session tables of the stdio upstreams.
    pub stdio: HashMap<String, Arc<stdio::StdioUpstream>>,
    http: reqwest::Client,
    /// One client per network upstream, with its connect timeout (and its own pool).
    clients: HashMap<String, reqwest::Client>,
    sessions: session::Sessions,
    /// Open legacy HTTP+SSE streams.
    legacy: legacy::LegacyLinks,
    /// Old clients bridged to new upstreams.
    bridges: bridge::Bridges,
    /// Upstreams whose visible tool set changed after a refined score: their listening
    /// streams send `notifications/tools/list_changed`.
    list_changed: broadcast::Sender<Arc<str>>,
    /// Every upstream's current tool names, for cross-server threat findings.
    pub roster: Arc<roster::Roster>,
}

impl Gateway {
    pub fn new(config: Config, scoring: Arc<ScoringService>) -> Result<Arc<Gateway>, BoxError> {
        let admin = crate::admin::Admin::from_config(&config)?;
        let roster = Arc::new(roster::Roster::default());
        let upstreams = config
            .upstreams
            .iter()
            .map(|u| {
                let mut tools = UpstreamTools::new(u.name.clone(), config.effective_policy(u))
                    .with_roster(roster.clone())
                    .with_max_list_tools(u.max_list_tools);
                tools.private_lists = !config.rule_policies(u).is_empty();
                (u.name.clone(), Arc::new(tools))
            })
            .collect();
        let stdio = config
            .upstreams
            .iter()
            .filter(|u| u.command.is_some())
            .map(|u| (u.name.clone(), stdio::StdioUpstream::new(u.clone(), config.base_dir.clone())))
            .collect();
        let client = |connect_ms: u64| {
            reqwest::Client::builder()
                .user_agent(concat!("tdqs-gateway/", env!("CARGO_PKG_VERSION")))
                .pool_idle_timeout(std::time::Duration::from_secs(90))
                .connect_timeout(std::time::Duration::from_millis(connect_ms))
                // Redirects go back to the client as they are (and never carry its credentials
                // somewhere else).
                .redirect(reqwest::redirect::Policy::none())
        };
        let http = client(crate::config::limits::connect_timeout_ms()).build()?;
        // The authorization server's answers (metadata, keys, introspection, client
        // credentials) are small documents: one that stalls ends in a clear 503 for the
        // request waiting on it instead of holding it (and every request behind it) open.
        let auth_http =
            client(crate::config::limits::connect_timeout_ms()).timeout(std::time::Duration::from_secs(10)).build()?;
        let clients = config
            .upstreams
            .iter()
            .filter(|u| u.command.is_none())
            .map(|u| Ok((u.name.clone(), client(u.connect_timeout_ms).build()?)))
            .collect::<Result<_, reqwest::Error>>()?;
        let rules = config
            .upstreams
            .iter()
            .map(|u| {
                let views = config
                    .rule_policies(u)
                    .into_iter()
                    .map(|(rule, policy)| {
                        let tools = UpstreamTools::for_rule(u.name.clone(), policy, &rule.name)
                            .with_roster(roster.clone())
                            .with_max_list_tools(u.max_list_tools);
                        (rule, Arc::new(tools))
                    })
                    .collect();
                (u.name.clone(), views)
            })
            .collect();
        let auth = crate::auth::Auth::from_config(&config.auth, auth_http.clone())?;
        let credentials = config
            .upstreams
            .iter()
            .map(|u| {
                let c = crate::auth::upstream::UpstreamCredentials::new(u, auth.is_some(), auth_http.clone());
                (u.name.clone(), Arc::new(c))
            })
            .collect();
        let session_idle = std::time::Duration::from_millis(config.listen.session_idle_ms);
        let gw = Arc::new(Gateway {
            config,
            admin,
            scoring,
            upstreams,
            auth,
            rules,
            credentials,
            stdio,
            http,
            clients,
            sessions: session::Sessions::new(session_idle),
            legacy: Default::default(),
            bridges: Default::default(),
            list_changed: broadcast::channel(256).0,
            roster,
        });
        gw.clone().watch_refinements();
        gw.clone().watch_roster();
        let weak = Arc::downgrade(&gw);
        crate::telemetry::metrics()
            .set_session_source(Box::new(move || weak.upgrade().map(|gw| gw.session_counts()).unwrap_or_default()));
        Ok(gw)
    }

    /// The HTTP client for requests to `upstream`.
    fn client(&self, upstream: &str) -> &reqwest::Client {
        self.clients.get(upstream).unwrap_or(&self.http)
    }

    /// The tools of `upstream` as `caller` may see them: under the first rule that matches
    /// the caller, else under the upstream's policy.
    pub fn tools_for(&self, upstream: &str, caller: Option<&crate::auth::Principal>) -> Option<Arc<UpstreamTools>> {
        let rules = self.rules.get(upstream).map(Vec::as_slice).unwrap_or_default();
        match crate::policy::rules::select(rules, caller) {
            Some((_, tools)) => Some(tools.clone()),
            None => self.upstreams.get(upstream).cloned(),
        }
    }

    /// Sets what the gateway presents to `upstream` on a request's headers (the caller's own
    /// credentials removed when `[auth]` is on).
    async fn upstream_credentials(
        &self,
        upstream: &str,
        headers: &mut http::HeaderMap,
    ) -> Result<(), error::GatewayError> {
        let Some(c) = self.credentials.get(upstream) else { return Ok(()) };
        c.apply(headers).await.map_err(|reason| error::GatewayError::Upstream { upstream: upstream.to_owned(), reason })
    }

    /// Every view of an upstream's tools: its policy's, then each rule's.
    pub fn all_views(&self, upstream: &str) -> Vec<Arc<UpstreamTools>> {
        let rules = self.rules.get(upstream).into_iter().flatten().map(|(_, t)| t.clone());
        self.upstreams.get(upstream).cloned().into_iter().chain(rules).collect()
    }

    /// Open sessions per upstream: stdio children, and the HTTP sessions the gateway has seen.
    fn session_counts(&self) -> Vec<(Arc<str>, u64)> {
        let metrics = crate::telemetry::metrics();
        self.config
            .upstreams
            .iter()
            .map(|u| {
                let n = match self.stdio.get(&u.name) {
                    Some(s) => s.session_count() as u64,
                    None => self.sessions.count(&u.name),
                };
                (metrics.server(&u.name), n)
            })
            .collect()
    }

    /// When a background judgement lands, re-decide that upstream's tools once and tell its
    /// listening clients if what they may see changed.
    fn watch_refinements(self: Arc<Self>) {
        let mut rx = self.scoring.subscribe();
        let weak = Arc::downgrade(&self);
        drop(self);
        tokio::spawn(async move {
            loop {
                let upstream = match rx.recv().await {
                    Ok(u) => u,
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(broadcast::error::RecvError::Closed) => return,
                };
                let Some(gw) = weak.upgrade() else { return };
                let views = gw.rules.get(&*upstream).into_iter().flatten().map(|(_, t)| t);
                let mut changed = false;
                for tools in gw.upstreams.get(&*upstream).into_iter().chain(views) {
                    changed |= tools.refresh(&gw.scoring);
                }
                if changed {
                    tracing::info!(upstream = %upstream, "visible tools changed after scoring; notifying sessions");
                    let _ = gw.list_changed.send(upstream);
                }
            }
        });
    }

    /// When one upstream's tool names change, cross-server findings of the others may too:
    /// re-decide each other upstream and tell its listening clients if what they may see
    /// changed.
    fn watch_roster(self: Arc<Self>) {
        let mut rx = self.roster.subscribe();
        let weak = Arc::downgrade(&self);
        drop(self);
        tokio::spawn(async move {
            loop {
                let changed = match rx.recv().await {
                    Ok(u) => Some(u),
                    // Missed some: re-decide everyone.
                    Err(broadcast::error::RecvError::Lagged(_)) => None,
                    Err(broadcast::error::RecvError::Closed) => return,
                };
                let Some(gw) = weak.upgrade() else { return };
                for (name, tools) in &gw.upstreams {
                    if changed.as_deref().is_some_and(|c| c == name.as_str()) {
                        continue;
                    }
                    if tools.refresh(&gw.scoring) {
                        tracing::info!(upstream = %name, cause = ?changed.as_deref(), "visible tools changed after another upstream's tools changed; notifying sessions");
                        let _ = gw.list_changed.send(Arc::from(name.as_str()));
                    }
                }
            }
        });
    }
}
