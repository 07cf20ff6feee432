//! Scoring around the pure engine: the whole-server pipeline (`score`), and the gateway's
//! service with its cache, store, fleet claims and pins.

pub mod fleet;
pub mod pins;
pub mod pipeline;
pub mod service;
pub mod siblings;
pub mod threats;
mod timed;
pub mod weight;

pub use pipeline::{JudgeStamp, PipelineError, ScoreReport, score_server};
