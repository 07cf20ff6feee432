//! The gateway's configuration: typed TOML with defaults, unknown keys refused, and validation
//! at start with the key's path in every message. Secrets are never in here: only the names of
//! environment variables that hold them.

use std::path::{Path, PathBuf};

use crate::policy::settings::{self as policy, Policy, PolicyConfig};
pub use crate::settings::ConfigError;
use crate::settings::{expand_env, invalid};
pub use crate::telemetry::settings::{LogFormat, OtlpProtocol, TelemetryConfig};

use serde::Deserialize;

pub mod admin;
#[cfg(test)]
mod auth_tests;
pub mod judge;
pub mod limits;
pub mod listen;
pub mod serve;
pub mod store;
#[cfg(test)]
mod tests;
pub mod upstream;
mod validate;

pub use admin::AdminConfig;
pub use judge::{JudgeConfig, JudgeKind};
pub use listen::ListenConfig;
pub use serve::ServeSettings;
pub use store::{CacheConfig, StoreConfig};
pub use upstream::{Transport, UpstreamConfig};

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
