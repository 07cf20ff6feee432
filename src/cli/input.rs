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

impl InputArgs {
    /// The server's name and its validated tools.
    pub fn load(&self) -> Result<(String, ParsedTools)> {
        if self.file.is_none() && self.command.is_none() && self.url.is_none() {
            bail!("give the tools to read: --file F (or - for standard input), --command 'CMD' or --url URL");
        }
        if let Some(file) = &self.file {
            let parsed = read_tools_file(file)?;
            return Ok((parsed.server_name_or(self.server_name.as_deref()), parsed));
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
        let name = match (&self.server_name, fetched.server_name) {
            (Some(n), _) if !n.is_empty() => n.clone(),
            (_, Some(n)) => n,
            _ => parsed.server_name_or(None),
        };
        Ok((name, parsed))
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
