//! Who is calling: the issuer, subject and client of a validated token (or an API key), its
//! scopes and all its claims, for rules to match and for the audit trail.

use serde::Serialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// How the caller proved who it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Proof {
    Jwt,
    Introspection,
    ApiKey,
}

/// An authenticated caller.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Principal {
    pub issuer: String,
    pub subject: String,
    pub client_id: Option<String>,
    pub scopes: Vec<String>,
    #[serde(skip)]
    pub claims: Map<String, Value>,
    pub proof: Proof,
    /// Unix seconds after which the credential is no longer valid (none for API keys).
    #[serde(skip)]
    pub expires_at: Option<u64>,
}

/// The issuer API-key principals carry (no authorization server issued them).
pub const API_KEY_ISSUER: &str = "tdqs-gateway:api-key";

impl Principal {
    /// Built from token claims (JWT payload or introspection answer).
    pub fn from_claims(claims: Map<String, Value>, proof: Proof) -> Principal {
        let text = |k: &str| claims.get(k).and_then(Value::as_str).map(str::to_owned);
        // Clients are named `client_id` (RFC 9068, oidc-provider), `azp` (OIDC: Keycloak,
        // Auth0, Entra ID v2), `cid` (Okta) or `appid` (Entra ID v1).
        let client_id = ["client_id", "azp", "cid", "appid"].into_iter().find_map(text);
        let subject = text("sub").or_else(|| client_id.clone()).unwrap_or_default();
        // `scope` is a space-separated string (RFC 8693/9068); `scp` is a string (Entra) or an
        // array (Okta).
        let mut scopes: Vec<String> = Vec::new();
        for key in ["scope", "scp"] {
            match claims.get(key) {
                Some(Value::String(s)) => scopes.extend(s.split_whitespace().map(str::to_owned)),
                Some(Value::Array(a)) => scopes.extend(a.iter().filter_map(Value::as_str).map(str::to_owned)),
                _ => {}
            }
        }
        scopes.sort();
        scopes.dedup();
        Principal {
            issuer: text("iss").unwrap_or_default(),
            subject,
            client_id,
            scopes,
            expires_at: claims.get("exp").and_then(Value::as_u64),
            claims,
            proof,
        }
    }

    /// What a session is bound to: the same issuer, subject and client.
    pub fn binding(&self) -> String {
        format!("{}\n{}\n{}", self.issuer, self.subject, self.client_id.as_deref().unwrap_or(""))
    }

    /// Whether `binding` (a [`Principal::binding`]) is this principal's, compared in place:
    /// a session's owner is checked on every request, and only bound once.
    pub fn is_bound_as(&self, binding: &str) -> bool {
        let rest = binding.strip_prefix(self.issuer.as_str()).and_then(|r| r.strip_prefix('\n'));
        let rest = rest.and_then(|r| r.strip_prefix(self.subject.as_str())).and_then(|r| r.strip_prefix('\n'));
        rest == Some(self.client_id.as_deref().unwrap_or(""))
    }

    /// The subject as spans carry it: a SHA-256 prefix, stable per issuer and subject.
    pub fn subject_hash(&self) -> String {
        let digest = Sha256::digest(format!("{}\n{}", self.issuer, self.subject).as_bytes());
        digest[..8].iter().map(|b| format!("{b:02x}")).collect()
    }

    pub fn has_scopes(&self, wanted: &[String]) -> bool {
        wanted.iter().all(|w| self.scopes.iter().any(|s| s == w))
    }

    /// A claim by dotted path (`realm_access.roles`), or a top-level claim whose own name has
    /// dots (URL-named claims such as `https://example.com/groups`).
    pub fn claim(&self, path: &str) -> Option<&Value> {
        if let Some(v) = self.claims.get(path) {
            return Some(v);
        }
        let mut parts = path.split('.');
        let mut at = self.claims.get(parts.next()?)?;
        for part in parts {
            at = at.as_object()?.get(part)?;
        }
        Some(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_binding_is_recognised_in_place_as_its_principals() {
        let who = |iss: &str, sub: &str, client: Option<&str>| {
            let mut claims = serde_json::Map::new();
            claims.insert("iss".into(), iss.into());
            claims.insert("sub".into(), sub.into());
            if let Some(c) = client {
                claims.insert("client_id".into(), c.into());
            }
            Principal::from_claims(claims, Proof::Jwt)
        };
        let principals = [
            who("https://as.example", "alice", Some("app")),
            who("https://as.example", "alice", None),
            who("https://as.example", "alice\napp", None),
            who("https://as.example\nalice", "app", None),
            who("https://other.example", "alice", Some("app")),
        ];
        for a in &principals {
            for b in &principals {
                assert_eq!(
                    a.is_bound_as(&b.binding()),
                    a.binding() == b.binding(),
                    "{:?} / {:?}",
                    a.binding(),
                    b.binding()
                );
            }
        }
    }

    #[test]
    fn reads_the_usual_claim_shapes() {
        let claims = json!({"iss": "https://i", "sub": "u1", "azp": "app", "scp": ["a", "b"], "scope": "c a",
            "realm_access": {"roles": ["x"]}, "https://e.com/groups": ["g"]});
        let p = Principal::from_claims(claims.as_object().unwrap().clone(), Proof::Jwt);
        assert_eq!((p.issuer.as_str(), p.subject.as_str(), p.client_id.as_deref()), ("https://i", "u1", Some("app")));
        assert_eq!(p.scopes, ["a", "b", "c"]);
        assert_eq!(p.claim("realm_access.roles"), Some(&json!(["x"])));
        assert_eq!(p.claim("https://e.com/groups"), Some(&json!(["g"])));
        assert!(p.claim("realm_access.nope").is_none());
        assert_eq!(p.subject_hash().len(), 16);
    }
}
