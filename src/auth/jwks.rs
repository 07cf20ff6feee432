//! The issuer's signing keys: its metadata (RFC 8414 `oauth-authorization-server`, else OpenID
//! `openid-configuration`) names the JWKS, which is fetched, kept, refetched when it is old,
//! and refetched early when a token names a key it does not hold. Every fetch, whatever caused
//! it, counts against one limit (`jwks_min_refresh_ms`), so a flood of made-up `kid`s, or of
//! tokens while the issuer is down, cannot turn into a flood of fetches. Discovering the
//! metadata is bounded the same way: after a failed discovery, callers get its failure until
//! the retry gap has passed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey};

use super::AuthError;

/// Largest metadata or JWKS document read.
const MAX_DOCUMENT_BYTES: usize = 1024 * 1024;
/// Keys kept from one JWKS.
const MAX_KEYS: usize = 64;
/// The shortest gap between fetches while no keys are held (an issuer that was down when the
/// gateway started is asked again soon, but not on every request).
const RETRY_WITHOUT_KEYS: Duration = Duration::from_secs(1);

/// One usable key: the decoder, and the algorithm the JWK pins, if it does.
#[derive(Clone)]
pub struct Key {
    pub decoding: Arc<DecodingKey>,
    pub alg: Option<Algorithm>,
}

#[derive(Default)]
struct Held {
    keys: HashMap<String, Key>,
    /// Keys without a `kid` (usable only when the token names none).
    unnamed: Vec<Key>,
    fetched: Option<Instant>,
    /// When a fetch was last tried, whatever its outcome (the limit counts from here).
    attempted: Option<Instant>,
    /// Why the last fetch failed, told to callers while no keys are held.
    failure: Option<String>,
}

/// The issuer's metadata once discovered, or the last failure to discover it.
#[derive(Default)]
struct Discovery {
    found: Option<ServerMetadata>,
    failed: Option<(Instant, String)>,
}

/// The authorization server's metadata the gateway uses.
#[derive(Clone, Debug, Default, serde::Deserialize)]
pub struct ServerMetadata {
    pub issuer: Option<String>,
    pub jwks_uri: Option<String>,
    pub introspection_endpoint: Option<String>,
}

pub struct Jwks {
    http: reqwest::Client,
    issuer: Option<String>,
    configured_url: Option<String>,
    min_refresh: Duration,
    max_age: Duration,
    held: Mutex<Held>,
    metadata: tokio::sync::Mutex<Discovery>,
    /// One fetch at a time.
    fetching: tokio::sync::Mutex<()>,
}

/// Reads a JSON document of bounded size.
pub async fn get_json<T: serde::de::DeserializeOwned>(http: &reqwest::Client, url: &str) -> Result<T, String> {
    let resp = http.get(url).header("accept", "application/json").send().await.map_err(|e| e.to_string())?;
    if !resp.status().is_success() {
        return Err(format!("{url} answered {}", resp.status()));
    }
    let bytes = read_bounded(resp).await?;
    serde_json::from_slice(&bytes).map_err(|e| format!("{url}: {e}"))
}

pub async fn read_bounded(mut resp: reqwest::Response) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    while let Some(chunk) = resp.chunk().await.map_err(|e| e.to_string())? {
        if out.len() + chunk.len() > MAX_DOCUMENT_BYTES {
            return Err(format!("the document is larger than {MAX_DOCUMENT_BYTES} bytes"));
        }
        out.extend_from_slice(&chunk);
    }
    Ok(out)
}

/// The metadata URLs to try for an issuer, in order: RFC 8414 (path inserted after the host),
/// OpenID Connect Discovery (path appended), and OpenID with the path inserted.
pub fn metadata_urls(issuer: &str) -> Vec<String> {
    let Ok(url) = reqwest::Url::parse(issuer) else { return vec![] };
    let origin = url.origin().ascii_serialization();
    let path = url.path().trim_end_matches('/');
    vec![
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{}/.well-known/openid-configuration", issuer.trim_end_matches('/')),
        format!("{origin}/.well-known/openid-configuration{path}"),
    ]
}

impl Jwks {
    pub fn new(http: reqwest::Client, cfg: &super::config::AuthConfig) -> Jwks {
        Jwks {
            http,
            issuer: cfg.issuer.clone(),
            configured_url: cfg.jwks_url.clone(),
            min_refresh: Duration::from_millis(cfg.jwks_min_refresh_ms),
            max_age: Duration::from_millis(cfg.jwks_max_age_ms),
            held: Mutex::default(),
            metadata: tokio::sync::Mutex::default(),
            fetching: tokio::sync::Mutex::new(()),
        }
    }

    /// The issuer's metadata, discovered once. After a failure, discovery is tried again once
    /// the retry gap (a second, or `jwks_min_refresh_ms` if shorter) has passed; until then,
    /// and for requests that waited behind the failed attempt, the failure is the answer.
    pub async fn metadata(&self) -> Result<ServerMetadata, AuthError> {
        let mut slot = self.metadata.lock().await;
        if let Some(m) = &slot.found {
            return Ok(m.clone());
        }
        if let Some((at, why)) = &slot.failed
            && at.elapsed() < self.min_refresh.min(RETRY_WITHOUT_KEYS)
        {
            return Err(AuthError::Unavailable(why.clone()));
        }
        let Some(issuer) = &self.issuer else { return Ok(ServerMetadata::default()) };
        let mut last = String::new();
        for url in metadata_urls(issuer) {
            match get_json::<ServerMetadata>(&self.http, &url).await {
                Ok(m) if m.issuer.as_deref() == Some(issuer.as_str()) => {
                    *slot = Discovery { found: Some(m.clone()), failed: None };
                    return Ok(m);
                }
                // RFC 8414 §3.3: metadata naming another issuer must not be used.
                Ok(m) => last = format!("{url} names issuer {:?}, not {issuer:?}", m.issuer),
                Err(e) => last = e,
            }
        }
        let why = format!("cannot discover the metadata of {issuer}: {last}");
        slot.failed = Some((Instant::now(), why.clone()));
        Err(AuthError::Unavailable(why))
    }

    /// The key for a token's `kid`. Whatever sends a request here (an unknown `kid`, keys past
    /// their age, an issuer that failed), the JWKS is fetched at most once per
    /// `jwks_min_refresh_ms` (once per second at most while no keys are held yet). A request
    /// that finds a fetch under way waits for it (a token signed with a just rotated key is
    /// then accepted) and decides again after it, rather than fetching once more.
    pub async fn key(&self, kid: Option<&str>) -> Result<Key, AuthError> {
        if let Some(k) = self.lookup(kid, false) {
            return Ok(k);
        }
        if self.may_fetch() {
            let _one = self.fetching.lock().await;
            if let Some(k) = self.lookup(kid, false) {
                return Ok(k);
            }
            if self.may_fetch() {
                if let Ok(mut h) = self.held.lock() {
                    h.attempted = Some(Instant::now());
                }
                if let Err(AuthError::Unavailable(why) | AuthError::Invalid(why)) = self.fetch().await {
                    tracing::warn!(error = %why, "the JWKS could not be fetched");
                    if let Ok(mut h) = self.held.lock() {
                        h.failure = Some(why);
                    }
                }
            }
        }
        if let Some(k) = self.lookup(kid, true) {
            return Ok(k);
        }
        match self.held.lock().ok().and_then(|h| h.fetched.is_none().then(|| h.failure.clone())) {
            // No keys at all: the gateway cannot decide, which is not the token's fault.
            Some(why) => {
                Err(AuthError::Unavailable(why.unwrap_or_else(|| "the issuer's JWKS is not fetched yet".into())))
            }
            None => Err(AuthError::Invalid("the token's signing key is not in the issuer's JWKS".into())),
        }
    }

    /// Whether the limit allows a fetch now.
    fn may_fetch(&self) -> bool {
        let Ok(h) = self.held.lock() else { return false };
        let gap = if h.fetched.is_none() { self.min_refresh.min(RETRY_WITHOUT_KEYS) } else { self.min_refresh };
        h.attempted.is_none_or(|t| t.elapsed() >= gap)
    }

    fn lookup(&self, kid: Option<&str>, any_age: bool) -> Option<Key> {
        let h = self.held.lock().ok()?;
        if !any_age && h.fetched.is_none_or(|t| t.elapsed() >= self.max_age) {
            return None;
        }
        match kid {
            Some(kid) => h.keys.get(kid).cloned(),
            None if h.unnamed.len() + h.keys.len() == 1 => h.unnamed.first().or(h.keys.values().next()).cloned(),
            None => None,
        }
    }

    async fn fetch(&self) -> Result<(), AuthError> {
        let url = match &self.configured_url {
            Some(u) => u.clone(),
            None => self
                .metadata()
                .await?
                .jwks_uri
                .ok_or_else(|| AuthError::Unavailable("the issuer's metadata has no jwks_uri".into()))?,
        };
        let set: JwkSet = get_json(&self.http, &url).await.map_err(AuthError::Unavailable)?;
        let mut held = Held::default();
        for jwk in set.keys.iter().take(MAX_KEYS) {
            // Only signing keys.
            if matches!(jwk.common.public_key_use, Some(jsonwebtoken::jwk::PublicKeyUse::Encryption)) {
                continue;
            }
            let Ok(decoding) = DecodingKey::from_jwk(jwk) else { continue };
            let alg = jwk.common.key_algorithm.and_then(|a| a.to_string().parse().ok());
            let key = Key { decoding: Arc::new(decoding), alg };
            match &jwk.common.key_id {
                Some(kid) => {
                    held.keys.insert(kid.clone(), key);
                }
                None => held.unnamed.push(key),
            }
        }
        tracing::info!(url = %url, keys = held.keys.len() + held.unnamed.len(), "JWKS fetched");
        held.fetched = Some(Instant::now());
        if let Ok(mut h) = self.held.lock() {
            held.attempted = h.attempted;
            *h = held;
        }
        Ok(())
    }
}
