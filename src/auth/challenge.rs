//! The answers that tell a client to authenticate: 401 with `WWW-Authenticate: Bearer
//! resource_metadata="..."` (RFC 9728 §5.1, the MCP authorization spec), with
//! `error="invalid_token"` when a token was given; 403 `insufficient_scope` naming the scopes
//! needed; 503 while the authorization server cannot be reached or asked (the gateway fails
//! closed), with `Retry-After: 1`, the gap after which it asks again.

use http::{HeaderValue, Response, StatusCode, header};
use serde_json::json;

use super::{Auth, AuthError};
use crate::http::Body;
use crate::http::body::json_response;

/// Text safe inside a quoted-string.
fn quoted(s: &str) -> String {
    s.chars().filter(|c| *c != '"' && *c != '\\' && !c.is_control()).collect()
}

impl Auth {
    pub fn challenge(&self, route: &str, err: &AuthError) -> Response<Body> {
        let meta = self.metadata_url(route);
        let scope = self.cfg.required_scopes.join(" ");
        let scope_param = if scope.is_empty() { String::new() } else { format!(", scope=\"{}\"", quoted(&scope)) };
        let (status, www, body) = match err {
            AuthError::Missing => (
                StatusCode::UNAUTHORIZED,
                Some(format!("Bearer resource_metadata=\"{meta}\"{scope_param}")),
                json!({"error": "invalid_request", "error_description": "a bearer token is required"}),
            ),
            AuthError::Invalid(why) => (
                StatusCode::UNAUTHORIZED,
                Some(format!(
                    "Bearer error=\"invalid_token\", error_description=\"{}\", resource_metadata=\"{meta}\"{scope_param}",
                    quoted(why)
                )),
                json!({"error": "invalid_token", "error_description": why}),
            ),
            AuthError::InsufficientScope(missing) => (
                StatusCode::FORBIDDEN,
                Some(format!(
                    "Bearer error=\"insufficient_scope\", scope=\"{}\", resource_metadata=\"{meta}\"",
                    quoted(&missing.join(" "))
                )),
                json!({"error": "insufficient_scope", "error_description": format!("the token lacks scope {}", missing.join(" "))}),
            ),
            AuthError::Unavailable(why) => (
                StatusCode::SERVICE_UNAVAILABLE,
                None,
                json!({"error": "temporarily_unavailable", "error_description": why}),
            ),
        };
        let mut resp = json_response(status, serde_json::to_vec(&body).unwrap_or_default());
        if let Some(v) = www.and_then(|w| HeaderValue::from_str(&w).ok()) {
            resp.headers_mut().insert(header::WWW_AUTHENTICATE, v);
        }
        if status == StatusCode::SERVICE_UNAVAILABLE {
            resp.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        resp
    }

    /// 403 for a request on a session another principal opened.
    pub fn not_your_session() -> Response<Body> {
        crate::http::error::GatewayError::NotYourSession.into_response(None)
    }
}
