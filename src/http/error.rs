//! Every response the gateway makes up itself, built in one place: JSON-RPC errors for MCP
//! routes (with the request's id when there is one), plain JSON for everything else.

use http::{Response, StatusCode};

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
    #[error("Mcp-Session-Id header required")]
    SessionRequired,
    #[error("this session already has a GET stream")]
    StreamTaken,
    #[error("the body is not JSON")]
    NotJson,
    #[error("{0}")]
    Unavailable(String),
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
            GatewayError::SessionRequired | GatewayError::NotJson => StatusCode::BAD_REQUEST,
            GatewayError::StreamTaken => StatusCode::CONFLICT,
            GatewayError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// The response, as a JSON-RPC error answering `id` (JSON text) when known. The code is
    /// the one `mcp::rpc_error` gives the kind of failure.
    pub fn into_response(self, id: Option<&str>) -> Response<Body> {
        let status = self.status();
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
