//! `tdqs-gateway score`: the full pipeline with the heuristic judge (offline, the default) or
//! a model behind an OpenAI-compatible endpoint. The key is read from the environment only.

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};

use super::{Format, Outcome, emit, input, now_rfc3339};
use crate::config::{Config, JudgeConfig, JudgeKind};
use crate::judge::Judge;
use crate::render::{Style, score_markdown, score_text};
use crate::scoring::score_server;
use crate::tdqs::definition::ToolDefinition;
use crate::tdqs::score::Tier;
use crate::tdqs::threat::report::{tool_json, tool_threats};

#[derive(Args)]
pub struct ScoreArgs {
    #[command(flatten)]
    input: input::InputArgs,
    #[arg(long, value_enum, default_value_t = JudgeKind::Heuristic)]
    judge: JudgeKind,
    /// OpenAI-compatible API base, e.g. https://openrouter.ai/api/v1.
    #[arg(long, env = "TDQS_BASE_URL")]
    base_url: Option<String>,
    /// Model id sent to the endpoint.
    #[arg(long, env = "TDQS_MODEL")]
    model: Option<String>,
    /// The environment variable holding the API key (the key itself never goes on a command line).
    #[arg(long, default_value = "TDQS_API_KEY")]
    api_key_env: String,
    /// Judge calls in flight at most.
    #[arg(long, default_value_t = 8)]
    concurrency: usize,
    /// JSON merged into every request last, e.g. '{"reasoning":{"enabled":false}}'.
    #[arg(long, env = "TDQS_REQUEST_OVERRIDES")]
    request_overrides: Option<String>,
    /// Per-request timeout in milliseconds.
    #[arg(long, default_value_t = 120_000)]
    timeout_ms: u64,
    /// Attempts per judge call (contract failures and transient errors).
    #[arg(long, default_value_t = 3)]
    max_attempts: u32,
    /// A folder with tool-scoring.md and coherence.md replacing the built-in prompts.
    #[arg(long)]
    prompts_dir: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Exit with 1 when the server's overall tier is below this.
    #[arg(long, value_name = "TIER")]
    fail_under: Option<TierArg>,
    /// Write the report here instead of standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
#[value(rename_all = "UPPER")]
enum TierArg {
    A,
    B,
    C,
    D,
}

impl TierArg {
    fn tier(self) -> Tier {
        match self {
            TierArg::A => Tier::A,
            TierArg::B => Tier::B,
            TierArg::C => Tier::C,
            TierArg::D => Tier::D,
        }
    }
}

/// The flags as a `[judge]` config, built by the same code as the gateway's judge.
fn build_judge(args: &ScoreArgs) -> anyhow::Result<Judge> {
    let mut cfg = Config::default();
    if let JudgeKind::Openai = args.judge {
        if args.base_url.is_none() {
            bail!("--judge openai needs --base-url (or TDQS_BASE_URL)");
        }
        if args.model.is_none() {
            bail!("--judge openai needs --model (or TDQS_MODEL)");
        }
        let request_overrides = match &args.request_overrides {
            None => Default::default(),
            Some(raw) => match serde_json::from_str(raw) {
                Ok(serde_json::Value::Object(map)) => map,
                _ => bail!("--request-overrides must be a JSON object"),
            },
        };
        cfg.judge = JudgeConfig {
            kind: JudgeKind::Openai,
            base_url: args.base_url.clone(),
            model: args.model.clone(),
            api_key_env: args.api_key_env.clone(),
            concurrency: args.concurrency,
            timeout_ms: args.timeout_ms,
            max_attempts: args.max_attempts,
            request_overrides,
            prompts_dir: args.prompts_dir.clone(),
        };
    }
    super::serve::build_judge(&cfg)
}

/// The report with each tool's `threats` beside its score (an added field: the reference's
/// fields are untouched).
fn with_threats(mut report: serde_json::Value, tools: &[ToolDefinition]) -> serde_json::Value {
    let values: Vec<serde_json::Value> = tools.iter().map(tool_json).collect();
    let names: Vec<&str> = values.iter().filter_map(|v| v["name"].as_str()).collect();
    let names = crate::tdqs::threat::CrossNames::new(&names, &[]);
    if let Some(scored) = report.get_mut("tools").and_then(serde_json::Value::as_array_mut) {
        for entry in scored {
            let Some(value) = values.iter().find(|v| v["name"] == entry["name"]) else { continue };
            let threats = serde_json::to_value(tool_threats(value, &names)).unwrap_or_default();
            if let Some(obj) = entry.as_object_mut() {
                obj.insert("threats".into(), threats);
            }
        }
    }
    report
}

pub fn run(args: ScoreArgs) -> anyhow::Result<Outcome> {
    let (server, parsed) = args.input.load()?;
    let judge = build_judge(&args)?;
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start the async runtime")?;
    let report = runtime.block_on(score_server(&server, &parsed.tools, &judge, now_rfc3339()))?;
    let text = match args.format {
        Format::Json => {
            serde_json::to_string_pretty(&with_threats(serde_json::to_value(&report)?, &parsed.tools))? + "\n"
        }
        Format::Markdown => score_markdown(&report),
        Format::Text => {
            let style = if args.output.is_some() { Style::Plain } else { Style::for_stdout() };
            score_text(&report, style)
        }
    };
    emit(&text, args.output.as_deref())?;
    let failed = args.fail_under.is_some_and(|min| {
        let s = &report.server_score;
        // Without an overall score (too few tools scored) the threshold cannot be met.
        s.overall_tier.is_none_or(|t| t > min.tier())
    });
    Ok(if failed { Outcome::ThresholdNotMet } else { Outcome::Done })
}
