//! `[judge]`: which judge scores definitions (the heuristic, or an OpenAI-compatible model).

use std::path::PathBuf;

use serde::Deserialize;

pub use crate::judge::JudgeKind;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgeConfig {
    #[serde(default)]
    pub kind: JudgeKind,
    pub base_url: Option<String>,
    pub model: Option<String>,
    #[serde(default = "default_key_env")]
    pub api_key_env: String,
    #[serde(default = "default_concurrency")]
    pub concurrency: usize,
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u64,
    #[serde(default = "default_attempts")]
    pub max_attempts: u32,
    #[serde(default)]
    pub request_overrides: serde_json::Map<String, serde_json::Value>,
    /// A folder with `tool-scoring.md` and `coherence.md`; the built-in prompts otherwise.
    pub prompts_dir: Option<PathBuf>,
}

fn default_key_env() -> String {
    "TDQS_API_KEY".into()
}
fn default_concurrency() -> usize {
    8
}
fn default_timeout_ms() -> u64 {
    120_000
}
fn default_attempts() -> u32 {
    3
}

impl Default for JudgeConfig {
    fn default() -> Self {
        JudgeConfig {
            kind: JudgeKind::Heuristic,
            base_url: None,
            model: None,
            api_key_env: default_key_env(),
            concurrency: default_concurrency(),
            timeout_ms: default_timeout_ms(),
            max_attempts: default_attempts(),
            request_overrides: Default::default(),
            prompts_dir: None,
        }
    }
}
