//! `tdqs-gateway lint`: stages 1 and 2, the shadow prefilter and the lint rules.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::{Format, Outcome, emit, input, now_rfc3339};
use crate::render::{Style, lint_markdown, lint_text};
use crate::tdqs::lint::{LintSeverity, lint_tools};
use crate::tdqs::report::LintReport;

#[derive(Args)]
pub struct LintArgs {
    #[command(flatten)]
    input: input::InputArgs,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Exit with 1 when a finding at or above this severity exists.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    fail_on: FailOn,
    /// Write the report here instead of standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum FailOn {
    Error,
    Warning,
    Never,
}

pub fn run(args: LintArgs) -> anyhow::Result<Outcome> {
    let (server, parsed) = args.input.load()?;
    let report = LintReport::new(server, lint_tools(&parsed.tools), now_rfc3339());
    let text = match args.format {
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        Format::Markdown => lint_markdown(&report),
        Format::Text => {
            let style = if args.output.is_some() { Style::Plain } else { Style::for_stdout() };
            lint_text(&report, style)
        }
    };
    emit(&text, args.output.as_deref())?;
    let worst = report.findings.iter().map(|f| f.severity).min();
    let failed = match (args.fail_on, worst) {
        (FailOn::Never, _) | (_, None) => false,
        (FailOn::Error, Some(w)) => w == LintSeverity::Error,
        (FailOn::Warning, Some(w)) => w <= LintSeverity::Warning,
    };
    Ok(if failed { Outcome::ThresholdNotMet } else { Outcome::Done })
}
