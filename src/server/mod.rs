//! The running gateway: the application state built once from the validated configuration,
//! the listener, and the top-level router. The proxy and the admin API are siblings under it,
//! each given only the state it needs.
//!
//! A request's path (see also `proxy/mod.rs` for what happens inside the proxy):
//!
//! ```text
//! listener   accept (connection cap) -> TLS handshake (deadline) -> HTTP/1.1 read by the
//!            gateway (h1/: whole requests) until one it does not take, then hyper's
//!            HTTP/1.1 or HTTP/2 (header-read deadline, streams per connection, idle
//!            keep-alive limit, one set of clocks for both)
//! routes     one Host, one Origin, no absolute target
//!            -> /healthz /readyz /metrics /.well-known/oauth-protected-resource
//!            -> /admin/...                       admin::serve_admin (Console)
//!            -> /mcp/ /sse/ /messages/{upstream}  proxy::routes::serve_mcp (Gateway)
//! proxy      Origin/Host allowed -> caller authenticated ([auth]) -> body read (cap, deadline)
//!            -> exchange: strict reading, refusals, learning (catalog: is this tool visible
//!               to this caller?) -> upstream (credentials, connect/response deadlines)
//!            -> answer: JSON or SSE, every tools/list result through catalog::list
//!               (evaluate: parse -> score -> threats -> pin -> policy::decide_tool;
//!                keep: the table, sightings; render: annotate or hide), returning the
//!               verdicts -> record (crate::record: metrics, spans, audit lines, the server
//!               report in the background); unreadable answers per policy
//! refresh    a judgement landed or another upstream's names changed -> every view re-decided
//!            -> record -> notifications/tools/list_changed to listening clients
//! errors     anything the gateway answers itself: http::error (status, headers: MCP routes,
//!            the admin API, the OAuth challenges) and
//!            mcp::rpc_error (the JSON-RPC error, with the request's id)
//! ```

mod activity;
mod h1;
mod listener;
mod refresh;
mod rewind;
mod routes;
pub mod workers;

use std::sync::Arc;

pub use listener::{Listening, serve, serve_on};

use crate::admin::{Admin, Console};
use crate::catalog::Catalog;
use crate::config::Config;
use crate::http::BoxError;
use crate::proxy::Gateway;
use crate::scoring::service::ScoringService;

/// Everything a running gateway holds.
pub struct App {
    /// The proxy's state.
    pub gateway: Arc<Gateway>,
    /// The admin API's state (`None` when `admin.enabled = false`).
    pub console: Option<Arc<Console>>,
}

impl App {
    /// Builds the gateway from a validated configuration: one catalogue shared by the proxy
    /// and the admin API, kept current as judgements land.
    pub fn new(config: Config, scoring: Arc<ScoringService>) -> Result<Arc<App>, BoxError> {
        let settings = Admin::from_config(&config)?;
        let catalog = Arc::new(Catalog::from_config(&config));
        refresh::watch(&catalog, &scoring);
        let gateway = Gateway::new(&config, scoring.clone(), catalog.clone())?;
        // The admin API reads the same settings the proxy does.
        let serve = gateway.serve.clone();
        let console = settings
            .map(|settings| Arc::new(Console { serve, settings, scoring, catalog, auth_on: gateway.auth.is_some() }));
        Ok(Arc::new(App { gateway, console }))
    }
}
