//! MCP on the wire: the one strict reading of client messages, JSON-RPC message classification,
//! SSE framing, the one rewrite the gateway makes (scores into, or tools out of, a
//! `tools/list` result), the 2026-07-28 per-request envelope, and what the CLI and the gateway
//! both need to talk to a server themselves: a stdio child process and reading the answer to a
//! request of their own.

pub mod answer;
pub mod child;
pub mod envelope;
pub mod instructions;
pub mod lossy;
pub mod message;
pub mod read;
pub mod rpc_error;
pub mod scan;
pub mod spliced;
pub mod sse;
pub mod tools_list;
