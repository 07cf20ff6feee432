//! Opaque tokens, asked about at the authorization server (RFC 7662) with the gateway's own
//! client credentials. An active answer must name this resource in `aud` and the configured
//! issuer in `iss` when it names one: introspection says a token is alive, not that it was
//! issued for us. Requests are bounded (`max_per_second`): a token the budget cannot pay for
//! fails closed (503), as when the server cannot be asked.

use serde_json::{Map, Value};

use super::principal::{Principal, Proof};
use super::{AuthError, config::IntrospectionConfig};

pub struct Introspector {
    http: reqwest::Client,
    endpoint: Option<String>,
    client_id: String,
    secret_env: String,
    issuer: Option<String>,
    budget: super::budget::Budget,
}

impl Introspector {
    pub fn new(http: reqwest::Client, cfg: &IntrospectionConfig, issuer: Option<String>) -> Introspector {
        Introspector {
            http,
            endpoint: cfg.endpoint.clone(),
            client_id: cfg.client_id.clone(),
            secret_env: cfg.client_secret_env.clone(),
            issuer,
            budget: super::budget::Budget::per_second(cfg.max_per_second),
        }
    }

    pub async fn introspect(
        &self,
        token: &str,
        audiences: &[String],
        jwks: Option<&super::jwks::Jwks>,
    ) -> Result<Principal, AuthError> {
        if !self.budget.take() {
            return Err(AuthError::Unavailable(
                "too many unknown tokens to introspect at once; try again shortly".into(),
            ));
        }
        let endpoint =
            match (&self.endpoint, jwks) {
                (Some(e), _) => e.clone(),
                (None, Some(j)) => j.metadata().await?.introspection_endpoint.ok_or_else(|| {
                    AuthError::Unavailable("the issuer's metadata has no introspection_endpoint".into())
                })?,
                (None, None) => return Err(AuthError::Unavailable("no introspection endpoint".into())),
            };
        let secret = std::env::var(&self.secret_env)
            .map_err(|_| AuthError::Unavailable(format!("{} (introspection secret) is not set", self.secret_env)))?;
        let resp = self
            .http
            .post(&endpoint)
            .basic_auth(&self.client_id, Some(secret))
            .header("accept", "application/json")
            .form(&[("token", token), ("token_type_hint", "access_token")])
            .send()
            .await
            .map_err(|e| AuthError::Unavailable(format!("introspection: {e}")))?;
        if resp.status() == reqwest::StatusCode::BAD_REQUEST {
            // The server could not read the token at all (RFC 7662 answers `active: false`
            // for tokens it knows to be bad): not a token of this issuer.
            return Err(AuthError::Invalid("the authorization server does not know the token".into()));
        }
        if !resp.status().is_success() {
            return Err(AuthError::Unavailable(format!("introspection answered {}", resp.status())));
        }
        let bytes = super::jwks::read_bounded(resp).await.map_err(AuthError::Unavailable)?;
        let claims: Map<String, Value> =
            serde_json::from_slice(&bytes).map_err(|e| AuthError::Unavailable(format!("introspection: {e}")))?;
        check_answer(&claims, audiences, self.issuer.as_deref())?;
        Ok(Principal::from_claims(claims, Proof::Introspection))
    }
}

/// What an introspection answer must say for the token to be accepted here.
fn check_answer(claims: &Map<String, Value>, audiences: &[String], issuer: Option<&str>) -> Result<(), AuthError> {
    if claims.get("active") != Some(&Value::Bool(true)) {
        return Err(AuthError::Invalid("the token is not active".into()));
    }
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    if claims.get("exp").and_then(Value::as_u64).is_some_and(|exp| exp <= now) {
        return Err(AuthError::Invalid("the token has expired".into()));
    }
    if let (Some(want), Some(got)) = (issuer, claims.get("iss").and_then(Value::as_str))
        && want != got
    {
        return Err(AuthError::Invalid("the token's issuer is not the configured one".into()));
    }
    let aud: Vec<&str> = match claims.get("aud") {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    if !aud.iter().any(|a| audiences.iter().any(|w| w == a)) {
        return Err(AuthError::Invalid("the token was not issued for this resource (aud)".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn active_alone_is_not_enough() {
        let auds = vec!["https://gw".to_owned()];
        let ok = json!({"active": true, "aud": ["https://gw"], "iss": "https://i"});
        assert!(check_answer(ok.as_object().unwrap(), &auds, Some("https://i")).is_ok());
        for bad in [
            json!({"active": false, "aud": "https://gw"}),
            json!({"active": true}),
            json!({"active": true, "aud": "https://other"}),
            json!({"active": true, "aud": "https://gw", "iss": "https://evil"}),
            json!({"active": true, "aud": "https://gw", "exp": 1}),
        ] {
            assert!(check_answer(bad.as_object().unwrap(), &auds, Some("https://i")).is_err(), "{bad}");
        }
    }
}
