//! The proxy: the MCP routes in front of MCP servers (the listener and the top-level router
//! are `server`'s). A request's path through it:
//!
//! ```text
//! route (/mcp/{upstream}, /sse/, /messages/) -> Origin/Host check -> caller authenticated
//!   -> read body -> check Mcp-Method/Mcp-Name against it
//!   -> the exchange: strict reading, learning, refusals (the same for every transport)
//!   -> forward to the upstream (pooled client) -> answer: JSON body or SSE stream
//!   -> every tools/list result in it through the catalogue (scored, decided, rendered) -> client
//! ```
//!
//! Errors turn into HTTP responses in one place (`crate::http::error`).

mod bridge;
mod capped;
mod exchange;
mod forward;
pub mod guard;
mod headers;

mod json_answer;
mod legacy;
mod openings;
mod order;

pub(crate) mod routes;
mod session;
pub mod stdio;
mod stream;

pub use crate::policy::uninspected;
pub mod upstream_client;
pub mod upstream_target;
mod watch;

use std::sync::Arc;

use crate::catalog::{Catalog, UpstreamTools};
use crate::config::{Config, ServeSettings};
use crate::scoring::service::ScoringService;

// The shared HTTP pieces, under the names the proxy's files use.
pub(crate) use crate::http::body;
pub use crate::http::{Body, BoxError};

/// What the proxy needs of a running gateway: the listener's bounds and the upstreams'
/// sections (not the whole configuration), the scoring service, the catalogue its decisions
/// are kept in, and its own connections and sessions.
pub struct Gateway {
    pub serve: Arc<ServeSettings>,
    pub scoring: Arc<ScoringService>,
    pub catalog: Arc<Catalog>,
    /// `[auth]`, when callers must authenticate.
    pub auth: Option<Arc<crate::auth::Auth>>,
    /// What the gateway presents to each network upstream.
    credentials: crate::by_name::ByName<Arc<crate::auth::upstream::UpstreamCredentials>>,
    /// Session tables of the stdio upstreams.
    pub stdio: crate::by_name::ByName<Arc<stdio::StdioUpstream>>,
    /// For legacy SSE upstreams.
    http: reqwest::Client,
    /// Each Streamable HTTP upstream worked out once: its URI, bounds, credentials and pooled
    /// client.
    targets: crate::by_name::ByName<Arc<upstream_target::UpstreamTarget>>,
    sessions: session::Sessions,
    /// Open legacy HTTP+SSE streams.
    legacy: legacy::LegacyLinks,
    /// Old clients bridged to new upstreams.
    bridges: bridge::Bridges,
    /// With `[auth]` off: the upstreams' own OAuth, pointed at the gateway's routes.
    pub upstream_oauth: crate::auth::passthrough::AdvertisedMetadata,
}

impl Gateway {
    pub fn new(config: &Config, scoring: Arc<ScoringService>, catalog: Arc<Catalog>) -> Result<Arc<Gateway>, BoxError> {
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
        let oauth = config.upstreams.iter().filter_map(|u| Some((u.name.as_str(), u.oauth.as_ref()?)));
        crate::auth::environment::check(&config.auth, oauth)?;
        let auth = crate::auth::Auth::from_config(&config.auth, auth_http.clone())?;
        let credentials = config
            .upstreams
            .iter()
            .map(|u| {
                let c = crate::auth::upstream::UpstreamCredentials::new(
                    &u.headers,
                    u.oauth.as_ref(),
                    auth.is_some(),
                    auth_http.clone(),
                );
                (u.name.clone(), Arc::new(c))
            })
            .collect();
        let targets = upstream_target::prepare(config, &credentials)?;
        // After `prepare`, whose check names every unset `${VAR}` of the stdio upstreams' `env`
        // at once: each upstream expands its `env` here, once, for all its children.
        let stdio = config
            .upstreams
            .iter()
            .filter(|u| u.transport().command().is_some())
            .map(|u| Ok((u.name.clone(), stdio::StdioUpstream::new(u.clone(), &config.base_dir)?)))
            .collect::<Result<_, String>>()?;
        let session_idle = std::time::Duration::from_millis(config.listen.session_idle_ms);
        let gw = Arc::new(Gateway {
            serve: Arc::new(ServeSettings::of(config)),
            scoring,
            catalog,
            auth,
            credentials,
            stdio,
            http,
            targets,
            sessions: session::Sessions::new(session_idle),
            legacy: Default::default(),
            bridges: Default::default(),
            upstream_oauth: crate::auth::passthrough::AdvertisedMetadata::new(auth_http),
        });
        let weak = Arc::downgrade(&gw);
        crate::telemetry::metrics()
            .set_session_source(Box::new(move || weak.upgrade().map(|gw| gw.session_counts()).unwrap_or_default()));
        Ok(gw)
    }

    /// The tools of `upstream` as `caller` may see them (see [`Catalog::tools_for`]).
    pub fn tools_for(&self, upstream: &str, caller: Option<&crate::auth::Principal>) -> Option<Arc<UpstreamTools>> {
        self.catalog.tools_for(upstream, caller)
    }

    /// Sets what the gateway presents to `upstream` on a request's headers (the caller's own
    /// credentials removed when `[auth]` is on).
    async fn upstream_credentials(
        &self,
        upstream: &str,
        headers: &mut http::HeaderMap,
    ) -> Result<(), crate::http::error::GatewayError> {
        let Some(c) = self.credentials.get(upstream) else { return Ok(()) };
        c.apply(headers)
            .await
            .map_err(|reason| crate::http::error::GatewayError::Upstream { upstream: upstream.to_owned(), reason })
    }

    /// Open sessions per upstream: stdio children, and the HTTP sessions the gateway has seen.
    fn session_counts(&self) -> Vec<(Arc<str>, u64)> {
        let metrics = crate::telemetry::metrics();
        self.serve
            .upstreams()
            .map(|u| {
                let n = match self.stdio.get(&u.name) {
                    Some(s) => s.session_count() as u64,
                    None => self.sessions.count(&u.name),
                };
                (metrics.server(&u.name), n)
            })
            .collect()
    }
}
