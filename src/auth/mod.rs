//! The gateway as an OAuth 2.1 resource server (`[auth]`): who is calling, proved by a JWT
//! access token checked against the issuer's keys, an opaque token introspected at the
//! authorization server, or a static API key. Off by default; when on, `/mcp/*`, `/sse/*` and
//! `/messages/*` need a valid bearer token, and the caller's token never goes upstream (each
//! upstream gets its own credentials, `upstream.rs`).

pub mod api_keys;
pub mod budget;
pub mod challenge;
pub mod config;
pub mod environment;
pub mod introspect;
pub mod jwks;
pub mod jwt;
pub mod metadata;
pub mod passthrough;
pub mod principal;
pub mod upstream;

use std::sync::Arc;
use std::time::Duration;

use http::{HeaderMap, header};
use sha2::{Digest, Sha256};

pub use config::AuthConfig;
pub use principal::Principal;

/// Why a request is not authenticated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthError {
    /// No bearer token.
    Missing,
    /// A token that does not prove anything here (bad, expired, foreign).
    Invalid(String),
    /// A valid token without these required scopes.
    InsufficientScope(Vec<String>),
    /// The authorization server could not be asked; the request fails closed.
    Unavailable(String),
}

/// How long an opaque token the authorization server called bad is refused without asking it
/// again (a client retrying a garbage token costs one introspection, not one per retry).
const REFUSED_TOKEN_TTL: Duration = Duration::from_secs(30);

pub struct Auth {
    pub cfg: AuthConfig,
    /// The gateway's resource URI.
    pub resource: String,
    jwt: jwt::JwtVerifier,
    introspector: Option<introspect::Introspector>,
    keys: api_keys::ApiKeys,
    /// Principals of recently validated tokens by SHA-256 of (upstream, token).
    cache: moka::sync::Cache<[u8; 32], Arc<Principal>>,
    /// Why recently introspected tokens were refused, by the same hash.
    refused: moka::sync::Cache<[u8; 32], Arc<str>>,
}

impl Auth {
    /// The authenticator of an active `[auth]`; `None` when it is off.
    pub fn from_config(cfg: &AuthConfig, http: reqwest::Client) -> Result<Option<Arc<Auth>>, String> {
        if !cfg.active() {
            return Ok(None);
        }
        let resource = cfg.resource.clone().ok_or("auth.resource is required")?;
        let jwt = jwt::JwtVerifier::new(cfg, http.clone())?;
        let introspector =
            cfg.introspection.as_ref().map(|i| introspect::Introspector::new(http.clone(), i, cfg.issuer.clone()));
        let keys = api_keys::ApiKeys::new(&cfg.api_keys)?;
        let cache = moka::sync::Cache::builder()
            .max_capacity(cfg.token_cache_entries)
            .expire_after(TokenLife { cap: Duration::from_secs(cfg.token_cache_seconds) })
            .build();
        let refused =
            moka::sync::Cache::builder().max_capacity(cfg.token_cache_entries).time_to_live(REFUSED_TOKEN_TTL).build();
        Ok(Some(Arc::new(Auth { cfg: cfg.clone(), resource, jwt, introspector, keys, cache, refused })))
    }

    /// The caller of a request to `upstream`, or why there is none.
    pub async fn authenticate(&self, headers: &HeaderMap, upstream: &str) -> Result<Arc<Principal>, AuthError> {
        let token = bearer(headers)?;
        let principal = self.principal(token, upstream).await?;
        let missing: Vec<String> =
            self.cfg.required_scopes.iter().filter(|s| !principal.scopes.contains(s)).cloned().collect();
        if !missing.is_empty() {
            return Err(AuthError::InsufficientScope(missing));
        }
        Ok(principal)
    }

    async fn principal(&self, token: &str, upstream: &str) -> Result<Arc<Principal>, AuthError> {
        if !self.keys.is_empty()
            && let Some(p) = self.keys.find(token)
        {
            return Ok(p);
        }
        let key: [u8; 32] =
            Sha256::new().chain_update(upstream).chain_update([0]).chain_update(token).finalize().into();
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        if let Some(p) = self.cache.get(&key) {
            if p.expires_at.is_none_or(|exp| exp > now) {
                return Ok(p);
            }
            self.cache.invalidate(&key);
        }
        let audiences = self.audiences(upstream);
        let principal = if jwt::looks_like_jwt(token) {
            self.jwt.verify(token, &audiences).await?
        } else if let Some(i) = &self.introspector {
            if let Some(why) = self.refused.get(&key) {
                return Err(AuthError::Invalid(why.to_string()));
            }
            match i.introspect(token, &audiences, self.jwt.jwks()).await {
                Ok(p) => p,
                Err(AuthError::Invalid(why)) => {
                    self.refused.insert(key, why.as_str().into());
                    return Err(AuthError::Invalid(why));
                }
                Err(e) => return Err(e),
            }
        } else {
            return Err(AuthError::Invalid("the token is not a JWT and introspection is not configured".into()));
        };
        let principal = Arc::new(principal);
        self.cache.insert(key, principal.clone());
        Ok(principal)
    }
}

/// How long a validated token stays remembered: the rest of its life, at most `cap`. A token
/// leaves the cache when it expires rather than when it is next presented.
struct TokenLife {
    cap: Duration,
}

impl TokenLife {
    fn life(&self, expires_at: Option<u64>, now: std::time::SystemTime) -> Duration {
        let left = expires_at.map(|exp| {
            let now = now.duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
            Duration::from_secs(exp.saturating_sub(now))
        });
        left.map_or(self.cap, |l| l.min(self.cap))
    }
}

impl moka::Expiry<[u8; 32], Arc<Principal>> for TokenLife {
    fn expire_after_create(&self, _: &[u8; 32], p: &Arc<Principal>, _: std::time::Instant) -> Option<Duration> {
        Some(self.life(p.expires_at, std::time::SystemTime::now()))
    }
}

/// The bearer token of a request: exactly one `Authorization: Bearer ...` header (never a
/// query parameter, as OAuth 2.1 forbids).
fn bearer(headers: &HeaderMap) -> Result<&str, AuthError> {
    let mut values = headers.get_all(header::AUTHORIZATION).iter();
    let Some(value) = values.next() else { return Err(AuthError::Missing) };
    if values.next().is_some() {
        return Err(AuthError::Invalid("more than one Authorization header".into()));
    }
    let value = value.to_str().map_err(|_| AuthError::Invalid("the Authorization header is not text".into()))?;
    let (scheme, token) = value.split_once(' ').ok_or(AuthError::Missing)?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(AuthError::Missing);
    }
    let token = token.trim();
    if token.is_empty() { Err(AuthError::Missing) } else { Ok(token) }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use super::TokenLife;

    #[test]
    fn a_token_is_remembered_for_the_rest_of_its_life_at_most_the_cap() {
        let now = UNIX_EPOCH + Duration::from_secs(1_000_000);
        let life = TokenLife { cap: Duration::from_secs(300) };
        assert_eq!(life.life(Some(1_000_060), now), Duration::from_secs(60), "a minute left: a minute");
        assert_eq!(life.life(Some(1_003_600), now), Duration::from_secs(300), "an hour left: the cap");
        assert_eq!(life.life(Some(999_000), now), Duration::ZERO, "already expired: not kept");
        assert_eq!(life.life(None, now), Duration::from_secs(300), "no exp: the cap");
        let long = TokenLife { cap: Duration::from_secs(3600) };
        assert_eq!(long.life(Some(1_001_800), now), Duration::from_secs(1800), "a longer cap: the token's life");
    }
}
