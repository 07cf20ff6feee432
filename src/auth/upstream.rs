//! What the gateway presents to an upstream. With `[auth]` on, the caller's `Authorization`
//! and cookies are removed (its token was issued for the gateway, not for the upstream: no
//! token passthrough); the upstream's configured `headers` (expanded from the environment once,
//! at start) and, with `[upstream.oauth]`, a token from a client-credentials grant the gateway
//! performs, keeps and renews before it expires, are added.

use std::time::{Duration, Instant};

use http::{HeaderMap, HeaderName, HeaderValue, header};

use super::config::UpstreamOAuth;

/// A token is renewed when less than this much of its life is left.
const RENEW_BEFORE: Duration = Duration::from_secs(60);
/// Tokens without `expires_in` are used this long.
const DEFAULT_LIFE: Duration = Duration::from_secs(300);

pub struct UpstreamCredentials {
    /// The configured headers, expanded; or why they cannot be.
    headers: Result<HeaderMap, String>,
    oauth: Option<ClientCredentials>,
    /// Whether the caller's own credentials are removed (`[auth]` on).
    strip_caller: bool,
}

struct ClientCredentials {
    cfg: UpstreamOAuth,
    http: reqwest::Client,
    token: tokio::sync::Mutex<Option<(HeaderValue, Instant)>>,
}

fn expand(templates: &std::collections::BTreeMap<String, String>) -> Result<HeaderMap, String> {
    let mut out = HeaderMap::new();
    for (k, v) in templates {
        let value = crate::settings::expand_env(v).map_err(|e| format!("header {k}: {e}"))?;
        let name = HeaderName::try_from(k.as_str()).map_err(|e| format!("header {k}: {e}"))?;
        let value = HeaderValue::try_from(value).map_err(|e| format!("header {k}: {e}"))?;
        out.insert(name, value);
    }
    Ok(out)
}

impl UpstreamCredentials {
    /// What an upstream configured with header `templates` (`${VAR}` expanded) and `oauth`
    /// gets.
    pub fn new(
        templates: &std::collections::BTreeMap<String, String>,
        oauth: Option<&UpstreamOAuth>,
        strip_caller: bool,
        http: reqwest::Client,
    ) -> UpstreamCredentials {
        let oauth = oauth.cloned().map(|cfg| ClientCredentials { cfg, http, token: tokio::sync::Mutex::new(None) });
        UpstreamCredentials { headers: expand(templates), oauth, strip_caller }
    }

    /// Sets the upstream's credentials on `headers` (the end-to-end headers of the caller's
    /// request).
    pub async fn apply(&self, headers: &mut HeaderMap) -> Result<(), String> {
        if self.strip_caller {
            headers.remove(header::AUTHORIZATION);
            headers.remove(header::COOKIE);
        }
        for (k, v) in self.headers.as_ref().map_err(Clone::clone)? {
            headers.insert(k, v.clone());
        }
        if let Some(cc) = &self.oauth {
            headers.insert(header::AUTHORIZATION, cc.token().await?);
        }
        Ok(())
    }
}

impl ClientCredentials {
    async fn token(&self) -> Result<HeaderValue, String> {
        let mut slot = self.token.lock().await;
        if let Some((v, until)) = &*slot
            && Instant::now() + RENEW_BEFORE < *until
        {
            return Ok(v.clone());
        }
        let secret = std::env::var(&self.cfg.client_secret_env)
            .map_err(|_| format!("{} (upstream client secret) is not set", self.cfg.client_secret_env))?;
        let mut form: Vec<(&str, &str)> = vec![("grant_type", "client_credentials")];
        for (k, v) in [("scope", &self.cfg.scope), ("audience", &self.cfg.audience), ("resource", &self.cfg.resource)] {
            if let Some(v) = v {
                form.push((k, v));
            }
        }
        let resp = self
            .http
            .post(&self.cfg.token_url)
            .basic_auth(&self.cfg.client_id, Some(secret))
            .header("accept", "application/json")
            .form(&form)
            .send()
            .await
            .map_err(|e| format!("token request to {}: {e}", self.cfg.token_url))?;
        let status = resp.status();
        let body = super::jwks::read_bounded(resp).await?;
        if !status.is_success() {
            return Err(format!("token request to {} answered {status}", self.cfg.token_url));
        }
        #[derive(serde::Deserialize)]
        struct Answer {
            access_token: String,
            expires_in: Option<u64>,
        }
        let a: Answer = serde_json::from_slice(&body).map_err(|e| format!("token answer: {e}"))?;
        let value = HeaderValue::from_str(&format!("Bearer {}", a.access_token)).map_err(|e| e.to_string())?;
        let life = a.expires_in.map_or(DEFAULT_LIFE, Duration::from_secs);
        tracing::debug!(token_url = %self.cfg.token_url, expires_in_s = life.as_secs(), "upstream token obtained");
        *slot = Some((value.clone(), Instant::now() + life));
        Ok(value)
    }
}
