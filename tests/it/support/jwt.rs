//! Tokens the tests sign themselves with a shared secret (HS256, `[auth].hmac_secret_env`), for
//! identities no authorization server would issue: any subject, any claims, any times.

use serde_json::{Value, json};

/// Unix seconds now.
pub fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
}

/// An HS256 JWT of `claims` over good defaults for `aud` (issued now, valid ten minutes).
pub fn hs256(secret: &str, iss: &str, aud: &str, claims: Value) -> String {
    let mut all = json!({"iss": iss, "aud": aud, "iat": now(), "exp": now() + 600, "scope": "mcp"});
    all.as_object_mut().unwrap().extend(claims.as_object().expect("claims are an object").clone());
    let key = jsonwebtoken::EncodingKey::from_secret(secret.as_bytes()).expect("an HMAC key");
    jsonwebtoken::encode(&jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256), &all, &key).expect("HS256 signs")
}
