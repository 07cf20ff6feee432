//! `[listen]`: where the gateway listens, and the bounds it puts on the clients it serves.

use std::net::SocketAddr;
use std::path::PathBuf;

use serde::Deserialize;

use super::limits;

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
