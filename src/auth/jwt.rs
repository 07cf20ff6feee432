//! JWT access tokens: the header's algorithm must be one the operator allowed (never `none`,
//! HS* only with a configured shared secret), the signature must verify with the issuer's key
//! named by `kid`, and `iss`, `aud` (the gateway's resource, RFC 8707), `exp` and `nbf` (with
//! the configured leeway) must hold. The crypto is `jsonwebtoken`'s.

use std::sync::Arc;

use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Map, Value};

use super::jwks::Jwks;
use super::principal::{Principal, Proof};
use super::{AuthConfig, AuthError};

pub fn parse_algorithm(name: &str) -> Result<Algorithm, String> {
    if name.eq_ignore_ascii_case("none") {
        return Err("\"none\" means an unsigned token and is never accepted".into());
    }
    name.parse().map_err(|_| format!("\"{name}\" is not a JWS algorithm this gateway knows"))
}

pub fn is_hmac(alg: Algorithm) -> bool {
    matches!(alg, Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512)
}

/// Whether a bearer token is meant as a JWS: three parts, the first a JSON object naming an
/// `alg` (whatever it names, `none` included: such a token is judged, and refused, as a JWT,
/// never sent to introspection).
pub fn looks_like_jwt(token: &str) -> bool {
    use base64::Engine;
    let mut parts = token.split('.');
    let (Some(head), Some(_), Some(_), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let Ok(bytes) = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(head.trim_end_matches('=')) else {
        return false;
    };
    serde_json::from_slice::<Map<String, Value>>(&bytes).is_ok_and(|h| h.contains_key("alg"))
}

pub struct JwtVerifier {
    algorithms: Vec<Algorithm>,
    issuer: Option<String>,
    leeway_s: u64,
    hmac: Option<Arc<DecodingKey>>,
    jwks: Option<Jwks>,
}

impl JwtVerifier {
    pub fn new(cfg: &AuthConfig, http: reqwest::Client) -> Result<JwtVerifier, String> {
        let algorithms = cfg.algorithms.iter().map(|a| parse_algorithm(a)).collect::<Result<Vec<_>, _>>()?;
        let hmac = match &cfg.hmac_secret_env {
            Some(env) => {
                let secret = std::env::var(env).map_err(|_| format!("auth.hmac_secret_env: {env} is not set"))?;
                if secret.len() < super::environment::MIN_HMAC_SECRET_LEN {
                    return Err(format!("auth.hmac_secret_env: the secret in {env} is too short"));
                }
                Some(Arc::new(DecodingKey::from_secret(secret.as_bytes()).map_err(|e| e.to_string())?))
            }
            None => None,
        };
        let jwks = (cfg.issuer.is_some() || cfg.jwks_url.is_some()).then(|| Jwks::new(http, cfg));
        Ok(JwtVerifier {
            algorithms,
            issuer: cfg.issuer.clone(),
            leeway_s: cfg.clock_skew_ms.div_ceil(1000),
            hmac,
            jwks,
        })
    }

    pub fn jwks(&self) -> Option<&Jwks> {
        self.jwks.as_ref()
    }

    /// Verifies a token for one of `audiences`.
    pub async fn verify(&self, token: &str, audiences: &[String]) -> Result<Principal, AuthError> {
        let header =
            jsonwebtoken::decode_header(token).map_err(|e| AuthError::Invalid(format!("bad JWT header: {e}")))?;
        if !self.algorithms.contains(&header.alg) {
            return Err(AuthError::Invalid(format!("algorithm {:?} is not allowed", header.alg)));
        }
        let key = if is_hmac(header.alg) {
            self.hmac.clone().ok_or_else(|| AuthError::Invalid("HMAC-signed tokens are not accepted".into()))?
        } else {
            let jwks = self.jwks.as_ref().ok_or_else(|| AuthError::Invalid("no issuer keys are configured".into()))?;
            let key = jwks.key(header.kid.as_deref()).await?;
            // A JWK that names its algorithm is used with that one only.
            if key.alg.is_some_and(|a| a != header.alg) {
                return Err(AuthError::Invalid("the token's algorithm is not its key's".into()));
            }
            key.decoding
        };
        let mut v = Validation::new(header.alg);
        v.leeway = self.leeway_s;
        v.validate_nbf = true;
        v.set_audience(audiences);
        v.set_required_spec_claims(&["exp", "aud", "iss"]);
        if let Some(iss) = &self.issuer {
            v.set_issuer(&[iss]);
        }
        let data = jsonwebtoken::decode::<Map<String, Value>>(token, &key, &v).map_err(|e| {
            use jsonwebtoken::errors::ErrorKind as K;
            AuthError::Invalid(match e.kind() {
                K::ExpiredSignature => "the token has expired".into(),
                K::ImmatureSignature => "the token is not valid yet".into(),
                K::InvalidAudience => "the token was not issued for this resource (aud)".into(),
                K::InvalidIssuer => "the token's issuer is not the configured one".into(),
                K::InvalidSignature => "the token's signature does not verify".into(),
                other => format!("the token is not valid: {other:?}"),
            })
        })?;
        Ok(Principal::from_claims(data.claims, Proof::Jwt))
    }
}
