//! Where tool definitions come from on the command line: a file or standard input.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;

use crate::tdqs::definition::{ParsedTools, parse_tools};
use crate::tdqs::json;

/// Where the tool definitions come from, shared by `lint` and `score`.
#[derive(Args)]
pub struct InputArgs {
    /// A tools/list result, an array of tools, or one tool, as JSON ("-" for standard input).
    #[arg(long, value_name = "FILE")]
    file: PathBuf,
    /// Name the server in the report (default: the document's serverName, else "server").
    #[arg(long)]
    server_name: Option<String>,
}

impl InputArgs {
    /// The server's name and its validated tools.
    pub fn load(&self) -> Result<(String, ParsedTools)> {
        let parsed = read_tools_file(&self.file)?;
        Ok((parsed.server_name_or(self.server_name.as_deref()), parsed))
    }
}

/// Reads and validates a tools document from `path` (`-` is standard input).
pub fn read_tools_file(path: &Path) -> Result<ParsedTools> {
    let (label, bytes) = if path == Path::new("-") {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).context("cannot read standard input")?;
        ("standard input".to_owned(), buf)
    } else {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        (path.display().to_string(), bytes)
    };
    parse_document(&label, &bytes)
}

/// Parses `bytes` as JSON and then as one of the three tools shapes, naming `label` on error.
pub fn parse_document(label: &str, bytes: &[u8]) -> Result<ParsedTools> {
    let doc = match json::parse(bytes) {
        Ok(doc) => doc,
        Err(e) => bail!("{label} is not valid JSON: {e}"),
    };
    match parse_tools(&doc) {
        Ok(tools) => Ok(tools),
        Err(e) => bail!("{label}: {e}"),
    }
}
