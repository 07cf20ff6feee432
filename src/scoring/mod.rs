//! The scoring service: the whole-server pipeline today; the cache, the store and single-flight
//! judge calls for the gateway grow around it.

pub mod pipeline;
pub mod service;

pub use pipeline::{JudgeStamp, PipelineError, ScoreReport, score_server};
