//! The part of a validated configuration the serving side reads while it runs, taken out once
//! at start: the listener's bounds (certificate paths resolved against the config's folder),
//! each upstream's section in file order and by name, and the gateway's resource URI. The
//! proxy and the admin API hold this, not the whole file: the judge, store, cache and
//! telemetry sections were used to build their components and are not theirs to read.

use std::sync::Arc;

use super::{Config, ListenConfig, UpstreamConfig};
use crate::by_name::ByName;

/// What the proxy and the admin API read of the configuration at run time.
#[derive(Debug)]
pub struct ServeSettings {
    pub listen: ListenConfig,
    /// The gateway's resource URI (`[auth] resource`), when callers authenticate.
    pub resource: Option<String>,
    upstreams: Vec<Arc<UpstreamConfig>>,
    by_name: ByName<Arc<UpstreamConfig>>,
}

impl ServeSettings {
    pub fn of(config: &Config) -> ServeSettings {
        let mut listen = config.listen.clone();
        listen.tls_cert = listen.tls_cert.as_deref().map(|p| config.resolve(p));
        listen.tls_key = listen.tls_key.as_deref().map(|p| config.resolve(p));
        let upstreams: Vec<Arc<UpstreamConfig>> = config.upstreams.iter().cloned().map(Arc::new).collect();
        let by_name = upstreams.iter().map(|u| (u.name.clone(), u.clone())).collect();
        ServeSettings { listen, resource: config.auth.resource.clone(), upstreams, by_name }
    }

    /// The section of the upstream named `name` (one hash lookup: every request asks).
    pub fn upstream(&self, name: &str) -> Option<&UpstreamConfig> {
        self.by_name.get(name).map(Arc::as_ref)
    }

    /// Every upstream's section, in the file's order.
    pub fn upstreams(&self) -> impl Iterator<Item = &UpstreamConfig> {
        self.upstreams.iter().map(Arc::as_ref)
    }
}
