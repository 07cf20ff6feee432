//! MCP on the wire: the one strict reading of client messages, JSON-RPC message classification,
//! SSE framing, and the one rewrite the gateway makes (scores into, or tools out of, a
//! `tools/list` result).

pub mod instructions;
pub mod lossy;
pub mod message;
pub mod read;
pub mod scan;
pub mod sse;
pub mod tools_list;
