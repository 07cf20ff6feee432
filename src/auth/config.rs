//! `[auth]` and `[upstream.oauth]`: who may call the gateway, and what the gateway presents to
//! an upstream in place of the caller's token. Secrets are never in the file: environment
//! variable names, or SHA-256 hashes of API keys.

use serde::Deserialize;

use crate::settings::ConfigError;

/// `[auth]`: the gateway as an OAuth 2.1 resource server (off unless configured).
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct AuthConfig {
    /// `false` turns a configured `[auth]` off; by default it is on when it names an issuer or
    /// an API key.
    pub enabled: Option<bool>,
    /// The authorization server's issuer URL (`iss` of its tokens); its metadata gives the JWKS.
    pub issuer: Option<String>,
    /// The gateway's canonical resource URI (RFC 8707), what tokens must be issued for: a
    /// token's `aud` is this, or this plus the route (`.../mcp/{upstream}`).
    pub resource: Option<String>,
    /// More accepted audiences (an IdP that names APIs its own way, as `api://...`).
    #[serde(default)]
    pub audience: Vec<String>,
    /// Allowed JWS algorithms. `none` is never accepted; HS* only with `hmac_secret_env`.
    #[serde(default = "default_algorithms")]
    pub algorithms: Vec<String>,
    /// The environment variable holding a shared secret for HS256/384/512 tokens.
    pub hmac_secret_env: Option<String>,
    /// The JWKS URL, when the issuer's metadata does not give one (or must not be asked).
    pub jwks_url: Option<String>,
    /// Leeway on `exp` and `nbf`, in milliseconds.
    #[serde(default = "default_skew_ms")]
    pub clock_skew_ms: u64,
    /// Scopes every token must carry (403 `insufficient_scope` otherwise).
    #[serde(default)]
    pub required_scopes: Vec<String>,
    /// The least time between two JWKS fetches caused by an unknown `kid`.
    #[serde(default = "default_jwks_refresh_ms")]
    pub jwks_min_refresh_ms: u64,
    /// How long a fetched JWKS is used before it is fetched again anyway.
    #[serde(default = "default_jwks_max_age_ms")]
    pub jwks_max_age_ms: u64,
    /// Tokens (their hashes) remembered after validation or introspection.
    #[serde(default = "default_token_cache")]
    pub token_cache_entries: u64,
    /// The longest a validated token is trusted without checking it again, in seconds. Each
    /// token is remembered for the rest of its life (`exp`) up to this: it bounds how long a
    /// revoked opaque token keeps working, and how often a key's removal from the JWKS is seen.
    #[serde(default = "default_token_cache_seconds")]
    pub token_cache_seconds: u64,
    pub introspection: Option<IntrospectionConfig>,
    #[serde(default, rename = "api_key")]
    pub api_keys: Vec<ApiKeyConfig>,
}

/// RFC 7662 introspection for opaque tokens.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IntrospectionConfig {
    /// The endpoint; by default the issuer metadata's `introspection_endpoint`.
    pub endpoint: Option<String>,
    pub client_id: String,
    /// The environment variable holding the client secret (HTTP Basic).
    pub client_secret_env: String,
    /// The most introspection requests a second (on average; as many at once). Tokens the
    /// gateway has not seen are refused with 503 beyond it, so a client inventing tokens
    /// cannot flood the authorization server through the gateway.
    #[serde(default = "default_introspection_rate")]
    pub max_per_second: u32,
}

/// A static key for a service account, given as a bearer token.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiKeyConfig {
    /// The principal's name (its subject and client id).
    pub name: String,
    /// Hex SHA-256 of the key (`printf %s "$KEY" | sha256sum`).
    pub sha256: Option<String>,
    /// Or the environment variable holding the key itself.
    pub key_env: Option<String>,
    #[serde(default)]
    pub scopes: Vec<String>,
    /// Claims rules can match, as a token's would (`groups = ["ci"]`).
    #[serde(default)]
    pub claims: serde_json::Map<String, serde_json::Value>,
}

/// `[upstream.oauth]`: an OAuth client-credentials grant the gateway performs for itself.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpstreamOAuth {
    pub token_url: String,
    pub client_id: String,
    pub client_secret_env: String,
    pub scope: Option<String>,
    /// Sent as `audience` (Auth0 and others).
    pub audience: Option<String>,
    /// Sent as `resource` (RFC 8707).
    pub resource: Option<String>,
}

fn default_algorithms() -> Vec<String> {
    ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "EdDSA"].map(String::from).to_vec()
}
fn default_skew_ms() -> u64 {
    60_000
}
fn default_jwks_refresh_ms() -> u64 {
    30_000
}
fn default_jwks_max_age_ms() -> u64 {
    60 * 60 * 1000
}
fn default_introspection_rate() -> u32 {
    20
}
fn default_token_cache() -> u64 {
    10_000
}
fn default_token_cache_seconds() -> u64 {
    300
}

fn invalid(key: impl Into<String>, message: impl Into<String>) -> ConfigError {
    ConfigError::Invalid { key: key.into(), message: message.into() }
}

fn http_url(key: &str, url: &str) -> Result<reqwest::Url, ConfigError> {
    let parsed = reqwest::Url::parse(url).map_err(|e| invalid(key, e.to_string()))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(invalid(key, "must be an http or https URL"));
    }
    Ok(parsed)
}

impl AuthConfig {
    /// Whether callers must authenticate.
    pub fn active(&self) -> bool {
        self.enabled.unwrap_or(self.issuer.is_some() || !self.api_keys.is_empty())
    }

    /// Every problem of `[auth]`, each with its key (all of them, not the first).
    pub fn validate(&self, out: &mut Vec<ConfigError>) {
        if !self.active() {
            return;
        }
        fn url(out: &mut Vec<ConfigError>, key: &str, v: &str) -> Option<reqwest::Url> {
            http_url(key, v).map_err(|e| out.push(e)).ok()
        }
        match &self.resource {
            None => out
                .push(invalid("auth.resource", "required: the gateway's own URL, the audience tokens are issued for")),
            Some(resource) => {
                if let Some(u) = url(out, "auth.resource", resource)
                    && (u.query().is_some() || u.fragment().is_some())
                {
                    out.push(invalid("auth.resource", "a resource URI has no query or fragment (RFC 8707)"));
                }
            }
        }
        if let Some(issuer) = &self.issuer {
            url(out, "auth.issuer", issuer);
        }
        if let Some(jwks) = &self.jwks_url {
            url(out, "auth.jwks_url", jwks);
        }
        if let Some(e) = self.introspection.as_ref().and_then(|i| i.endpoint.as_ref()) {
            url(out, "auth.introspection.endpoint", e);
        }
        if self.issuer.is_none() && self.api_keys.is_empty() {
            out.push(invalid("auth.issuer", "set an issuer or at least one [[auth.api_key]]"));
        }
        if self.algorithms.is_empty() {
            out.push(invalid("auth.algorithms", "list at least one algorithm"));
        }
        for (i, a) in self.algorithms.iter().enumerate() {
            let key = format!("auth.algorithms[{i}]");
            match crate::auth::jwt::parse_algorithm(a) {
                Err(m) => out.push(invalid(&key, m)),
                Ok(alg) if crate::auth::jwt::is_hmac(alg) && self.hmac_secret_env.is_none() => {
                    out.push(invalid(key, format!("{a} takes a shared secret: set auth.hmac_secret_env to allow it")));
                }
                Ok(_) => {}
            }
        }
        if self.token_cache_entries == 0 {
            out.push(invalid("auth.token_cache_entries", "must be at least 1"));
        }
        if self.token_cache_seconds == 0 || self.token_cache_seconds > 24 * 3600 {
            out.push(invalid("auth.token_cache_seconds", "must be from 1 to 86400"));
        }
        if let Some(i) = &self.introspection {
            if i.endpoint.is_none() && self.issuer.is_none() {
                out.push(invalid("auth.introspection.endpoint", "required without an issuer to discover it from"));
            }
            if i.client_secret_env.is_empty() {
                out.push(invalid("auth.introspection.client_secret_env", "must name an environment variable"));
            }
            if i.max_per_second == 0 {
                out.push(invalid("auth.introspection.max_per_second", "must be at least 1"));
            }
        }
        let mut names = std::collections::HashSet::new();
        for (i, k) in self.api_keys.iter().enumerate() {
            let key = format!("auth.api_key[{i}]");
            if k.name.is_empty() || !names.insert(&k.name) {
                out.push(invalid(format!("{key}.name"), "needs a name not used by another key"));
            }
            match (&k.sha256, &k.key_env) {
                (Some(h), None) if h.len() == 64 && h.chars().all(|c| c.is_ascii_hexdigit()) => {}
                (Some(_), None) => out.push(invalid(format!("{key}.sha256"), "must be 64 hex digits")),
                (None, Some(env)) if !env.is_empty() => {}
                _ => out.push(invalid(key, "give exactly one of `sha256` or `key_env`")),
            }
        }
    }
}

impl UpstreamOAuth {
    /// Every problem of an upstream's `oauth` table, each with its key under `key`.
    pub fn validate(&self, key: &str, out: &mut Vec<ConfigError>) {
        if let Err(e) = http_url(&format!("{key}.token_url"), &self.token_url) {
            out.push(e);
        }
        if self.client_id.is_empty() {
            out.push(invalid(format!("{key}.client_id"), "must not be empty"));
        }
        if self.client_secret_env.is_empty() {
            out.push(invalid(format!("{key}.client_secret_env"), "must name an environment variable"));
        }
    }
}
