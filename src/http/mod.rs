//! HTTP pieces every listener-facing part shares (the proxy, the admin API, the auth
//! challenges): the response body type, bodies the gateway makes itself, the errors it answers
//! with (`error`: a status and a JSON-RPC error from `mcp::rpc_error`), and the rules for
//! which `Host` and `Origin` the listener answers to, the `Connection` field's options, and a
//! socket wrapper that tells an observer what passes (`observed`). Depends on nothing else in
//! the crate but `mcp::rpc_error`.

pub mod body;
pub mod connection;
pub mod error;
pub mod field_name;
pub mod frames;
pub mod observed;
pub mod origin;
pub mod request_body;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;

pub type BoxError = Box<dyn std::error::Error + Send + Sync>;
/// Every response body: a whole buffer or a stream.
pub type Body = BoxBody<Bytes, BoxError>;
