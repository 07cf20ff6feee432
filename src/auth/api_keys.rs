//! Static API keys for service accounts. The gateway holds only SHA-256 hashes (from the
//! config, or of a key read from the environment at start) and compares the hash of a
//! presented key with every one of them in constant time.

use std::sync::Arc;

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::config::ApiKeyConfig;
use super::principal::{API_KEY_ISSUER, Principal, Proof};

pub struct ApiKeys {
    keys: Vec<([u8; 32], Arc<Principal>)>,
}

fn hex32(s: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    if s.len() != 64 {
        return None;
    }
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

impl ApiKeys {
    pub fn new(cfg: &[ApiKeyConfig]) -> Result<ApiKeys, String> {
        let mut keys = Vec::with_capacity(cfg.len());
        for k in cfg {
            let hash = match (&k.sha256, &k.key_env) {
                (Some(h), _) => {
                    hex32(h).ok_or_else(|| format!("auth.api_key {}: sha256 is not 64 hex digits", k.name))?
                }
                (None, Some(env)) => {
                    let key = std::env::var(env).map_err(|_| format!("auth.api_key {}: {env} is not set", k.name))?;
                    if key.len() < super::environment::MIN_API_KEY_LEN {
                        return Err(format!("auth.api_key {}: the key in {env} is too short", k.name));
                    }
                    Sha256::digest(key.as_bytes()).into()
                }
                (None, None) => return Err(format!("auth.api_key {}: no sha256 or key_env", k.name)),
            };
            let mut claims = k.claims.clone();
            claims.insert("iss".into(), API_KEY_ISSUER.into());
            claims.insert("sub".into(), k.name.clone().into());
            claims.insert("client_id".into(), k.name.clone().into());
            claims.insert("scope".into(), k.scopes.join(" ").into());
            keys.push((hash, Arc::new(Principal::from_claims(claims, Proof::ApiKey))));
        }
        Ok(ApiKeys { keys })
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The principal of a presented key; every stored hash is compared, match or not.
    pub fn find(&self, presented: &str) -> Option<Arc<Principal>> {
        let hash: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        let mut found = None;
        for (h, p) in &self.keys {
            if bool::from(h.ct_eq(&hash)) {
                found = Some(p.clone());
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_by_hash_only() {
        let hash: String = Sha256::digest(b"ci-key-0123456789").iter().map(|b| format!("{b:02x}")).collect();
        let cfg = ApiKeyConfig {
            name: "ci".into(),
            sha256: Some(hash),
            key_env: None,
            scopes: vec!["mcp".into()],
            claims: serde_json::json!({"groups": ["ci"]}).as_object().unwrap().clone(),
        };
        let keys = ApiKeys::new(&[cfg]).unwrap();
        let p = keys.find("ci-key-0123456789").unwrap();
        assert_eq!(
            (p.subject.as_str(), p.issuer.as_str(), p.scopes.as_slice()),
            ("ci", API_KEY_ISSUER, &["mcp".to_owned()][..])
        );
        assert!(keys.find("ci-key-012345678").is_none());
    }
}
