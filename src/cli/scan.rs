//! `tdqs-gateway scan`: the threat analysis of a server's tools and instructions, with no
//! model and no key. Exit 1 when a finding at or above `--fail-on` exists.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::{Format, Outcome, emit, input};
use crate::render::{Style, scan_markdown, scan_text};
use crate::tdqs::threat::Severity;
use crate::tdqs::threat::report::ScanReport;

#[derive(Args)]
pub struct ScanArgs {
    #[command(flatten)]
    input: input::InputArgs,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Exit with 1 when a threat at or above this severity exists.
    #[arg(long, value_enum, default_value_t = FailOn::High)]
    fail_on: FailOn,
    /// Write the report here instead of standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum FailOn {
    High,
    Medium,
    Low,
    Never,
}

impl FailOn {
    fn threshold(self) -> Option<Severity> {
        match self {
            FailOn::High => Some(Severity::High),
            FailOn::Medium => Some(Severity::Medium),
            FailOn::Low => Some(Severity::Low),
            FailOn::Never => None,
        }
    }
}

pub fn run(args: ScanArgs) -> anyhow::Result<Outcome> {
    let loaded = args.input.load_all()?;
    let report = ScanReport::new(loaded.server_name, &loaded.parsed.tools, loaded.instructions.as_deref());
    let text = match args.format {
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        Format::Markdown => scan_markdown(&report),
        Format::Text => {
            let style = if args.output.is_some() { Style::Plain } else { Style::for_stdout() };
            scan_text(&report, style)
        }
    };
    emit(&text, args.output.as_deref())?;
    let failed = match (args.fail_on.threshold(), report.worst()) {
        (Some(min), Some(worst)) => worst >= min,
        _ => false,
    };
    Ok(if failed { Outcome::ThresholdNotMet } else { Outcome::Done })
}
