//! The secrets `[auth]` and `[upstream.oauth]` name by environment variable, checked when the
//! gateway starts, by `serve` and `check-config` alike: a variable that is not set (or holds a
//! key too short to be one) is an error naming the config key, rather than a gateway that
//! starts and then refuses every caller, or every call to that upstream.

use super::config::{AuthConfig, UpstreamOAuth};

/// The shortest API key accepted (a key shorter than this is guessable).
pub const MIN_API_KEY_LEN: usize = 16;
/// The shortest HMAC secret accepted (RFC 7518 §3.2: at least the hash's size).
pub const MIN_HMAC_SECRET_LEN: usize = 32;

fn read(key: &str, env: &str, what: &str) -> Result<String, String> {
    std::env::var(env).map_err(|_| format!("{key}: {env} ({what}) is not set"))
}

/// Every environment variable `[auth]` and the upstreams' `[upstream.oauth]` (by upstream
/// name) name, set and usable.
pub fn check<'a>(
    auth: &AuthConfig,
    upstream_oauth: impl IntoIterator<Item = (&'a str, &'a UpstreamOAuth)>,
) -> Result<(), String> {
    if auth.active() {
        for (i, k) in auth.api_keys.iter().enumerate() {
            let Some(env) = &k.key_env else { continue };
            let key = format!("auth.api_key[{i}].key_env");
            let value = read(&key, env, &format!("the key of {}", k.name))?;
            if value.len() < MIN_API_KEY_LEN {
                return Err(format!("{key}: the key in {env} is shorter than {MIN_API_KEY_LEN} characters"));
            }
        }
        if let Some(env) = &auth.hmac_secret_env {
            let value = read("auth.hmac_secret_env", env, "the HMAC secret")?;
            if value.len() < MIN_HMAC_SECRET_LEN {
                return Err(format!(
                    "auth.hmac_secret_env: the secret in {env} is shorter than {MIN_HMAC_SECRET_LEN} bytes"
                ));
            }
        }
        if let Some(i) = &auth.introspection {
            read("auth.introspection.client_secret_env", &i.client_secret_env, "the introspection secret")?;
        }
    }
    for (name, o) in upstream_oauth {
        let key = format!("upstream \"{name}\".oauth.client_secret_env");
        read(&key, &o.client_secret_env, "the upstream client secret")?;
    }
    Ok(())
}
