//! The Tool Definition Quality Score, stages 1, 2 and 4 plus the server rollup, the threat
//! analysis, and the offline heuristic judge (stage 3 without a model): pure, synchronous
//! functions over plain data. No I/O, no async, no clocks; the model judge, the store and the
//! network wrap around this crate in `tdqs-gateway`. Being its own crate, its purity is held by
//! its `Cargo.toml`: it has no runtime, no HTTP client, no database, no telemetry to reach for.
#![forbid(unsafe_code)]

pub mod answer;
pub mod canonical;
pub mod cost;
pub mod definition;
pub mod gates;
pub mod heuristic;
pub mod json;
pub mod lint;
pub mod prompt;
pub mod report;
pub mod score;
pub mod server;
pub mod shadow;
pub mod signals;
#[cfg(test)]
mod test_rng;
pub mod text;
pub mod threat;
pub mod tool_score;

/// The specification version this implementation follows.
pub const SPEC_VERSION: &str = "1.3";
