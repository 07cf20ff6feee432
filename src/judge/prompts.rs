//! The two system prompts, compiled in from `prompts/` and replaceable from a folder. Their
//! SHA-256 digests are part of every model score's identity.

use std::path::Path;

use sha2::{Digest, Sha256};

pub const TOOL_SCORING_FILE: &str = "tool-scoring.md";
pub const COHERENCE_FILE: &str = "coherence.md";

/// System prompts with their digests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompts {
    pub tool_scoring: String,
    pub coherence: String,
    /// Lowercase hex SHA-256 of `tool_scoring`.
    pub tool_scoring_sha256: String,
    /// Lowercase hex SHA-256 of `coherence`.
    pub coherence_sha256: String,
}

#[derive(Debug, thiserror::Error)]
#[error("cannot read prompt file {path}: {source}")]
pub struct PromptError {
    pub path: String,
    #[source]
    pub source: std::io::Error,
}

impl Prompts {
    /// The prompts shipped with this build.
    pub fn builtin() -> Prompts {
        Prompts::new(
            include_str!("../../prompts/tool-scoring.md").to_owned(),
            include_str!("../../prompts/coherence.md").to_owned(),
        )
    }

    /// `tool-scoring.md` and `coherence.md` from `dir`.
    pub fn from_dir(dir: &Path) -> Result<Prompts, PromptError> {
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read_to_string(&path).map_err(|source| PromptError { path: path.display().to_string(), source })
        };
        Ok(Prompts::new(read(TOOL_SCORING_FILE)?, read(COHERENCE_FILE)?))
    }

    pub fn new(tool_scoring: String, coherence: String) -> Prompts {
        let hex = |s: &str| Sha256::digest(s.as_bytes()).iter().map(|b| format!("{b:02x}")).collect::<String>();
        Prompts { tool_scoring_sha256: hex(&tool_scoring), coherence_sha256: hex(&coherence), tool_scoring, coherence }
    }
}
