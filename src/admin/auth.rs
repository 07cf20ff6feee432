//! Who may use the admin API: the `Host` must be one the gateway answers to (DNS rebinding),
//! the bearer token must match when one is configured (compared in constant time), and a POST
//! must come from the dashboard's own origin with a JSON body (a cross-site form cannot send
//! one, and a cross-site script cannot without a CORS preflight the gateway never grants).

use http::{Request, header};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::{Admin, AdminError};
use crate::config::ListenConfig;
use crate::http::origin::request_host;

/// The admin token, kept only as its SHA-256 (so comparing takes the same time whatever the
/// length of what was presented). Never printed.
pub struct Token([u8; 32]);

impl Token {
    /// The token in the environment variable `var`, when it is set and not empty.
    pub fn from_env(var: &str) -> Option<Token> {
        let value = std::env::var(var).ok().filter(|v| !v.trim().is_empty())?;
        Some(Token::new(value.trim()))
    }

    fn new(secret: &str) -> Token {
        Token(Sha256::digest(secret.as_bytes()).into())
    }

    fn matches(&self, presented: &str) -> bool {
        let digest: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        digest.ct_eq(&self.0).into()
    }
}

/// The bearer token, when the API requires one.
pub fn check_token<B>(admin: &Admin, req: &Request<B>) -> Result<(), AdminError> {
    let Some(token) = &admin.token else { return Ok(()) };
    let presented = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim());
    match presented {
        Some(t) if token.matches(t) => Ok(()),
        _ => Err(AdminError::Unauthorized),
    }
}

/// The same rule as the MCP routes: loopback names, `listen.allowed_hosts`, or any host when
/// bound beyond loopback with no list.
pub fn check_host<B>(listen: &ListenConfig, req: &Request<B>) -> Result<(), AdminError> {
    match request_host(req) {
        Some(host) if !listen.allows_host(host) => Err(AdminError::Forbidden(format!("host {host} is not allowed"))),
        _ => Ok(()),
    }
}

/// CSRF guard for state-changing requests: a JSON content type, and an `Origin` (when the
/// browser sends one) that is the gateway's own, a loopback one, or in `listen.allowed_origins`.
pub fn check_post<B>(listen: &ListenConfig, req: &Request<B>) -> Result<(), AdminError> {
    let json = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(';').next().is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json")));
    if !json {
        return Err(AdminError::UnsupportedMediaType);
    }
    let Some(origin) = req.headers().get(header::ORIGIN) else { return Ok(()) };
    let origin = origin.to_str().unwrap_or("");
    let authority = origin.split_once("://").map_or("", |(_, a)| a);
    let same = origin != "null" && request_host(req).is_some_and(|h| h.eq_ignore_ascii_case(authority));
    let allowed = same || listen.allows_origin(origin);
    if allowed { Ok(()) } else { Err(AdminError::Forbidden(format!("origin {origin} is not allowed"))) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(headers: &[(&str, &str)]) -> Request<()> {
        let mut b = Request::builder().method("POST").uri("/admin/api/x");
        for (k, v) in headers {
            b = b.header(*k, *v);
        }
        b.body(()).unwrap()
    }

    #[test]
    fn token_comparison() {
        let t = Token::new("s3cret");
        assert!(t.matches("s3cret"));
        assert!(!t.matches("s3cre") && !t.matches("s3cret ") && !t.matches(""));
        let admin = Admin { token: Some(t), separate: None };
        assert!(check_token(&admin, &req(&[("authorization", "Bearer s3cret")])).is_ok());
        assert!(check_token(&admin, &req(&[("authorization", "bearer s3cret")])).is_ok());
        assert!(check_token(&admin, &req(&[("authorization", "Basic s3cret")])).is_err());
        assert!(check_token(&admin, &req(&[("authorization", "Bearer nope")])).is_err());
        assert!(check_token(&admin, &req(&[])).is_err());
        assert!(check_token(&Admin { token: None, separate: None }, &req(&[])).is_ok());
    }

    #[test]
    fn csrf_and_rebinding() {
        let listen = ListenConfig::default();
        let json = ("content-type", "application/json");
        assert!(check_post(&listen, &req(&[json, ("host", "127.0.0.1:8080")])).is_ok());
        assert!(matches!(
            check_post(&listen, &req(&[("host", "127.0.0.1:8080")])),
            Err(AdminError::UnsupportedMediaType)
        ));
        let form = ("content-type", "application/x-www-form-urlencoded");
        assert!(check_post(&listen, &req(&[form])).is_err());
        let evil = ("origin", "https://evil.example");
        assert!(check_post(&listen, &req(&[json, evil, ("host", "127.0.0.1:8080")])).is_err());
        assert!(check_post(&listen, &req(&[json, ("origin", "null")])).is_err());
        let own = [json, ("origin", "http://gw.example:8080"), ("host", "gw.example:8080")];
        assert!(check_post(&listen, &req(&own)).is_ok());
        assert!(check_host(&listen, &req(&[("host", "localhost:8080")])).is_ok());
        assert!(check_host(&listen, &req(&[("host", "evil.example:8080")])).is_err());
    }
}
