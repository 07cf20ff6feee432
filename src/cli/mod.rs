//! The command line: `lint`, `score`, `scan`, `serve`, `wrap`, `approve` and `check-config`.
//! Errors become one line on stderr and exit code 2; a threshold not met is exit code 1.

mod approve;
mod input;
mod lint;
mod scan;
mod score;
mod serve;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// How a command ended, as the process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// 0: done.
    Done,
    /// 1: the `--fail-on` / `--fail-under` threshold was not met.
    ThresholdNotMet,
}

#[derive(Parser)]
#[command(
    name = "tdqs-gateway",
    version,
    about = "Score MCP tool definitions (TDQS) and enforce a quality policy in front of MCP servers"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The deterministic checks (no model, no key): signals, gates, shadow candidates.
    Lint(lint::LintArgs),
    /// The full pipeline: every tool through the judge, then coherence and the server rollup.
    Score(score::ScoreArgs),
    /// Threats in tool definitions and server instructions: hidden, poisoned, cross-server.
    Scan(scan::ScanArgs),
    /// Run the gateway in front of MCP servers.
    Serve(serve::ServeArgs),
    /// Be a stdio MCP server in front of one: `wrap -- npx -y some-mcp-server`.
    Wrap(serve::WrapArgs),
    /// Validate a config file and exit.
    CheckConfig(serve::CheckConfigArgs),
    /// Approve the current definition of pinned tools (rug-pull protection).
    Approve(approve::ApproveArgs),
}

/// Report formats shared by `lint`, `score` and `scan`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Format {
    /// For a person at a terminal.
    Text,
    /// The report document.
    Json,
    /// For a pull request or an issue.
    Markdown,
}

/// Parses the arguments, runs the command, and maps the result to an exit code.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Lint(args) => lint::run(args),
        Command::Score(args) => score::run(args),
        Command::Scan(args) => scan::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Wrap(args) => serve::wrap(args),
        Command::CheckConfig(args) => serve::check_config(args),
        Command::Approve(args) => approve::run(args),
    };
    match result {
        Ok(Outcome::Done) => ExitCode::SUCCESS,
        Ok(Outcome::ThresholdNotMet) => ExitCode::from(1),
        Err(e) => {
            eprintln!("tdqs-gateway: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Writes a rendered report to `--output` or stdout.
fn emit(text: &str, output: Option<&std::path::Path>) -> anyhow::Result<()> {
    use anyhow::Context;
    use std::io::Write;
    match output {
        Some(path) => std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display())),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush()).context("cannot write to stdout")
        }
    }
}

/// Current time as the reports stamp it: RFC 3339 UTC with milliseconds.
fn now_rfc3339() -> String {
    humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string()
}
