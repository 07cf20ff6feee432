//! Every error response the gateway makes up itself, built in one place: JSON-RPC errors for
//! MCP routes (with the request's id when there is one), `{"error": ...}` for the admin API,
//! and the OAuth challenges (RFC 6750, RFC 9728) for a request that must authenticate. Each
//! owner turns its own failure into one of these three; the statuses and headers are here.

use http::{HeaderValue, Response, StatusCode, header};

use super::Body;
use super::body::json_response;
use crate::mcp::rpc_error::RpcError;

/// Why the gateway answered instead of the upstream.
#[derive(Debug, thiserror::Error)]
pub enum GatewayError {
    #[error("no upstream named \"{0}\" is configured")]
    UnknownUpstream(String),
    #[error("origin {0} is not allowed")]
    ForbiddenOrigin(String),
    #[error("host {0} is not allowed")]
    ForbiddenHost(String),
    #[error("request body exceeds {0} bytes")]
    BodyTooLarge(usize),
    #[error("cannot read the request body: {0}")]
    BadBody(String),
    #[error("{header} header says {header_value:?} but the body says {body_value:?}")]
    HeaderMismatch { header: &'static str, header_value: String, body_value: String },
    #[error("method not allowed")]
    MethodNotAllowed,
    #[error("upstream \"{upstream}\" is unreachable: {reason}")]
    Upstream { upstream: String, reason: String },
    #[error("upstream \"{upstream}\" did not {what} within {ms} ms")]
    UpstreamTimeout { upstream: String, what: &'static str, ms: u64 },
    #[error("the request took longer than {0} ms to arrive")]
    SlowRequest(u64),
    #[error("the request has more than one {0} header")]
    RepeatedHeader(&'static str),
    #[error("absolute-form request targets are not accepted; send the path with a Host header")]
    AbsoluteTarget,
    #[error("not found")]
    NotFound,
    #[error("upstream \"{0}\" is served at {1}{0}")]
    WrongTransport(String, &'static str),
    #[error("unknown or ended session")]
    UnknownSession,
    #[error("this session belongs to another principal")]
    NotYourSession,
    #[error("Mcp-Session-Id must be visible ASCII (0x21 to 0x7E)")]
    BadSessionId,
    #[error("Mcp-Session-Id header required")]
    SessionRequired,
    #[error("this session already has a GET stream")]
    StreamTaken,
    #[error("the body is not JSON")]
    NotJson,
    #[error("{0}")]
    Unavailable(String),
    /// Messages the strict reading refused, with the JSON-RPC error for each already written
    /// (a batch gets its array): 400, nothing forwarded.
    #[error("the message cannot be read")]
    Unreadable(Vec<u8>),
    #[error("{0}")]
    Internal(String),
}

impl GatewayError {
    fn status(&self) -> StatusCode {
        match self {
            GatewayError::UnknownUpstream(_) | GatewayError::NotFound | GatewayError::WrongTransport(..) => {
                StatusCode::NOT_FOUND
            }
            GatewayError::ForbiddenOrigin(_) | GatewayError::ForbiddenHost(_) => StatusCode::FORBIDDEN,
            GatewayError::BodyTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            GatewayError::BadBody(_) | GatewayError::HeaderMismatch { .. } => StatusCode::BAD_REQUEST,
            GatewayError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            GatewayError::Upstream { .. } => StatusCode::BAD_GATEWAY,
            GatewayError::UpstreamTimeout { .. } => StatusCode::GATEWAY_TIMEOUT,
            GatewayError::SlowRequest(_) => StatusCode::REQUEST_TIMEOUT,
            GatewayError::RepeatedHeader(_) | GatewayError::AbsoluteTarget => StatusCode::BAD_REQUEST,
            GatewayError::UnknownSession => StatusCode::NOT_FOUND,
            GatewayError::NotYourSession => StatusCode::FORBIDDEN,
            GatewayError::SessionRequired | GatewayError::NotJson | GatewayError::BadSessionId => {
                StatusCode::BAD_REQUEST
            }
            GatewayError::StreamTaken => StatusCode::CONFLICT,
            GatewayError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            GatewayError::Unreadable(_) => StatusCode::BAD_REQUEST,
            GatewayError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The response, as a JSON-RPC error answering `id` (JSON text) when known. The code is
    /// the one `mcp::rpc_error` gives the kind of failure.
    pub fn into_response(self, id: Option<&str>) -> Response<Body> {
        let status = self.status();
        if let GatewayError::Unreadable(answers) = self {
            return json_response(status, answers);
        }
        let text = self.to_string();
        let rpc = match self {
            GatewayError::HeaderMismatch { .. } => RpcError::HeaderMismatch(&text),
            GatewayError::BadBody(_) | GatewayError::NotJson => RpcError::Parse(&text),
            GatewayError::UnknownSession | GatewayError::NotYourSession => RpcError::Session(&text),
            _ => RpcError::Gateway(&text),
        };
        json_response(status, rpc.answer_to(id))
    }
}

/// Why the admin API answered with an error.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    #[error("a valid bearer token is required (Authorization: Bearer <token>)")]
    Unauthorized,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("method not allowed; use {0}")]
    MethodNotAllowed(&'static str),
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Conflict(String),
    #[error("send the request body as application/json")]
    UnsupportedMediaType,
    #[error("{0}")]
    Judge(String),
    #[error("{0}")]
    Internal(String),
}

impl AdminError {
    fn status(&self) -> StatusCode {
        match self {
            AdminError::Unauthorized => StatusCode::UNAUTHORIZED,
            AdminError::Forbidden(_) => StatusCode::FORBIDDEN,
            AdminError::NotFound(_) => StatusCode::NOT_FOUND,
            AdminError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            AdminError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AdminError::Conflict(_) => StatusCode::CONFLICT,
            AdminError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AdminError::Judge(_) => StatusCode::BAD_GATEWAY,
            AdminError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// `{"error": "..."}` with the status (and the header) the error calls for.
    pub fn into_response(self) -> Response<Body> {
        let body = serde_json::json!({ "error": self.to_string() });
        let mut resp = json_response(self.status(), serde_json::to_vec(&body).unwrap_or_default());
        let h = resp.headers_mut();
        match self {
            AdminError::Unauthorized => {
                h.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer realm=\"tdqs-gateway admin\""));
            }
            AdminError::MethodNotAllowed(allow) => {
                h.insert(header::ALLOW, HeaderValue::from_static(allow));
            }
            _ => {}
        }
        no_store(resp)
    }
}

/// Admin answers are live state: never cached, never sniffed.
pub fn no_store(mut resp: Response<Body>) -> Response<Body> {
    let h = resp.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    resp
}

/// An answer that tells a client to authenticate: 401 with `WWW-Authenticate: Bearer
/// resource_metadata="..."` (RFC 9728 §5.1, the MCP authorization spec), with
/// `error="invalid_token"` when a token was given; 403 `insufficient_scope` naming the scopes
/// needed; 503 while the authorization server cannot be reached or asked (the gateway fails
/// closed), with `Retry-After: 1`, the gap after which it asks again.
pub enum Challenge<'a> {
    Missing,
    Invalid(&'a str),
    InsufficientScope(&'a [String]),
    Unavailable(&'a str),
}

impl Challenge<'_> {
    /// The answer, pointing at the route's Protected Resource Metadata and naming the scopes
    /// every token needs (`scope`, space-separated, may be empty).
    pub fn into_response(self, metadata_url: &str, scope: &str) -> Response<Body> {
        use serde_json::json;
        let meta = metadata_url;
        let scope_param = if scope.is_empty() { String::new() } else { format!(", scope=\"{}\"", quoted(scope)) };
        let (status, www, body) = match self {
            Challenge::Missing => (
                StatusCode::UNAUTHORIZED,
                Some(format!("Bearer resource_metadata=\"{meta}\"{scope_param}")),
                json!({"error": "invalid_request", "error_description": "a bearer token is required"}),
            ),
            Challenge::Invalid(why) => (
                StatusCode::UNAUTHORIZED,
                Some(format!(
                    "Bearer error=\"invalid_token\", error_description=\"{}\", resource_metadata=\"{meta}\"{scope_param}",
                    quoted(why)
                )),
                json!({"error": "invalid_token", "error_description": why}),
            ),
            Challenge::InsufficientScope(missing) => (
                StatusCode::FORBIDDEN,
                Some(format!(
                    "Bearer error=\"insufficient_scope\", scope=\"{}\", resource_metadata=\"{meta}\"",
                    quoted(&missing.join(" "))
                )),
                json!({"error": "insufficient_scope", "error_description": format!("the token lacks scope {}", missing.join(" "))}),
            ),
            Challenge::Unavailable(why) => (
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
}

/// Text safe inside a quoted-string.
fn quoted(s: &str) -> String {
    s.chars().filter(|c| *c != '"' && *c != '\\' && !c.is_control()).collect()
}
