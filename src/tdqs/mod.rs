//! The Tool Definition Quality Score, stages 1, 2 and 4 plus the server rollup: pure,
//! synchronous functions over plain data. No I/O, no async, no clocks; the judge, the store
//! and the network wrap around this module.

pub mod answer;
pub mod canonical;
pub mod cost;
pub mod definition;
pub mod gates;
pub mod json;
pub mod lint;
pub mod prompt;
pub mod report;
pub mod score;
pub mod server;
pub mod shadow;
pub mod signals;
pub mod text;
pub mod threat;
pub mod tool_score;

/// The specification version this implementation follows.
pub const SPEC_VERSION: &str = "1.3";
