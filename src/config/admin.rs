//! `[admin]`: the admin API and dashboard.

use std::net::SocketAddr;

use serde::Deserialize;

use super::ListenConfig;

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
