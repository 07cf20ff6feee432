//! Where tool definitions come from on the command line: a file or standard input.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;

use crate::client;
use crate::tdqs::definition::{ParsedTools, parse_tools};
use crate::tdqs::json;

/// Where the tool definitions come from, shared by `lint` and `score`: exactly one of a file,
/// a stdio server command, or a server URL.
#[derive(Args)]
#[group(skip)]
pub struct InputArgs {
    /// A tools/list result, an array of tools, or one tool, as JSON ("-" for standard input).
    #[arg(long, value_name = "FILE", group = "source")]
    file: Option<PathBuf>,
    /// A stdio MCP server to run and list (e.g. 'npx -y @modelcontextprotocol/server-everything').
    #[arg(long, value_name = "CMD", group = "source")]
    command: Option<String>,
    /// A Streamable HTTP MCP server URL (falls back to legacy HTTP+SSE on a 4xx).
    #[arg(long, value_name = "URL", group = "source")]
    url: Option<String>,
    /// A header for --url requests, as 'Name: value'; repeatable.
    #[arg(long = "header", value_name = "K: V", requires = "url")]
    headers: Vec<String>,
    /// Name the server in the report (default: the document's serverName, else "server").
    #[arg(long)]
    server_name: Option<String>,
}

/// What an input gave: the server's name, its validated tools, and its `instructions` (from
/// a live server's initialize result, or an `instructions` string beside a file's `tools`).
pub struct Loaded {
    pub server_name: String,
    pub parsed: ParsedTools,
    pub instructions: Option<String>,
}

impl InputArgs {
    /// The server's name and its validated tools.
    pub fn load(&self) -> Result<(String, ParsedTools)> {
        self.load_all().map(|l| (l.server_name, l.parsed))
    }

    /// Everything the input gave, instructions included.
    pub fn load_all(&self) -> Result<Loaded> {
        if self.file.is_none() && self.command.is_none() && self.url.is_none() {
            bail!("give the tools to read: --file F (or - for standard input), --command 'CMD' or --url URL");
        }
        if let Some(file) = &self.file {
            let (label, bytes) = read_input(file)?;
            let parsed = parse_document(&label, &bytes)?;
            let instructions = serde_json::from_slice::<serde_json::Value>(&bytes)
                .ok()
                .and_then(|v| v.get("instructions").and_then(serde_json::Value::as_str).map(str::to_owned));
            let server_name = parsed.server_name_or(self.server_name.as_deref());
            return Ok(Loaded { server_name, parsed, instructions });
        }
        let runtime =
            tokio::runtime::Builder::new_current_thread().enable_all().build().context("cannot start the runtime")?;
        let (label, fetched) = if let Some(cmd) = &self.command {
            let argv = shell_words::split(cmd).with_context(|| format!("cannot split --command {cmd:?}"))?;
            if argv.is_empty() {
                bail!("--command is empty");
            }
            (cmd.clone(), runtime.block_on(client::fetch_command(&argv)).with_context(|| format!("server {cmd:?}"))?)
        } else {
            let url = self.url.clone().unwrap_or_default();
            let headers = self
                .headers
                .iter()
                .map(|h| match h.split_once(':') {
                    Some((k, v)) => Ok((k.trim().to_owned(), v.trim().to_owned())),
                    None => bail!("--header expects 'Name: value', got {h:?}"),
                })
                .collect::<Result<Vec<_>>>()?;
            (url.clone(), runtime.block_on(client::fetch_url(&url, &headers)).with_context(|| format!("server {url}"))?)
        };
        let parsed = parse_document(&label, &fetched.document)?;
        let server_name = match (&self.server_name, fetched.server_name) {
            (Some(n), _) if !n.is_empty() => n.clone(),
            (_, Some(n)) => n,
            _ => parsed.server_name_or(None),
        };
        Ok(Loaded { server_name, parsed, instructions: fetched.instructions })
    }
}

/// The bytes of `path` (`-` is standard input) and how to name it in an error.
fn read_input(path: &Path) -> Result<(String, Vec<u8>)> {
    if path == Path::new("-") {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).context("cannot read standard input")?;
        Ok(("standard input".to_owned(), buf))
    } else {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        Ok((path.display().to_string(), bytes))
    }
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
