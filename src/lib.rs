//! tdqs-gateway: an MCP reverse proxy that scores every tool definition it sees with the Tool
//! Definition Quality Score and applies a per-server policy (observe, annotate, enforce).
#![forbid(unsafe_code)]

pub mod admin;
pub mod auth;
pub mod by_name;
pub mod catalog;
pub mod cli;
pub mod client;
pub mod config;
pub mod http;
pub mod judge;
pub mod mcp;
pub mod policy;
pub mod proxy;
pub mod record;
pub mod render;
pub mod scoring;
pub mod server;
pub mod settings;
pub mod store;
/// The engine: its own crate (`crates/tdqs-engine`), so nothing in it can reach for I/O.
pub use tdqs_engine as tdqs;
pub mod telemetry;
