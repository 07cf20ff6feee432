//! The `tracing` subscriber: human or JSON lines on stderr (or a file), the decision events
//! bridged to OTLP logs, and request spans bridged to OTLP traces. Each layer has its own
//! filter, so `log_level = "warn"` quiets the console without switching tracing off.

use std::path::Path;

use opentelemetry_appender_tracing::layer::OpenTelemetryTracingBridge;
use opentelemetry_sdk::logs::SdkLoggerProvider;
use tracing_subscriber::filter::{EnvFilter, FilterExt, filter_fn};
use tracing_subscriber::fmt::writer::BoxMakeWriter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::{Layer, Registry};

use super::TelemetryError;
use super::settings::LogFormat;

/// The filter text: `TDQS_LOG`, else `RUST_LOG`, else the configured level.
pub fn filter_text(configured: &str) -> String {
    ["TDQS_LOG", "RUST_LOG"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.trim().is_empty()))
        .unwrap_or_else(|| configured.to_owned())
}

fn env_filter(text: &str) -> Result<EnvFilter, TelemetryError> {
    EnvFilter::builder().parse(text).map_err(|e| TelemetryError::new("telemetry.log_level", format!("{text:?}: {e}")))
}

/// Only the gateway's own events: the exporters' HTTP and gRPC clients log through `tracing`
/// too, and bridging those would feed the exporter its own output.
fn ours(meta: &tracing::Metadata<'_>) -> bool {
    meta.target().starts_with("tdqs_gateway")
}

/// Installs the global subscriber. `file` appends logs there instead of stderr.
pub fn install(
    format: LogFormat,
    level: &str,
    file: Option<&Path>,
    logger: Option<&SdkLoggerProvider>,
    tracer: Option<opentelemetry_sdk::trace::Tracer>,
) -> Result<(), TelemetryError> {
    let text = filter_text(level);
    let writer = match file {
        Some(path) => {
            let f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| TelemetryError::new("--log-file", format!("cannot open {}: {e}", path.display())))?;
            BoxMakeWriter::new(std::sync::Mutex::new(f))
        }
        None => BoxMakeWriter::new(std::io::stderr),
    };
    let ansi = file.is_none() && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let console = tracing_subscriber::fmt::layer().with_writer(writer).with_ansi(ansi);
    let console = match format {
        LogFormat::Json => console.json().with_filter(env_filter(&text)?).boxed(),
        LogFormat::Human => console.with_filter(env_filter(&text)?).boxed(),
    };
    let logs = match logger {
        Some(p) => Some(
            OpenTelemetryTracingBridge::new(p)
                .with_filter(env_filter(&text)?.and(filter_fn(|m| ours(m) && m.is_event())))
                .boxed(),
        ),
        None => None,
    };
    // Spans from the gateway at any level are exported, whatever the console shows. Without
    // the layer's extras (source location, thread, target attributes on every span, busy/idle
    // time read from the clock on every enter and exit): they cost a request span about a
    // third of its instructions (benches/PROFILE.md) and DESIGN.md's names do not use them.
    // Context activation stays: log records inside a span take their trace id from it.
    let traces = tracer.map(|t| {
        tracing_opentelemetry::layer()
            .with_tracer(t)
            .with_location(false)
            .with_threads(false)
            .with_target(false)
            .with_tracked_inactivity(false)
            .with_filter(filter_fn(|m| m.is_span() && ours(m)))
            .boxed()
    });
    let subscriber = Registry::default().with(console).with(logs).with(traces);
    // A second install (tests starting two commands in one process) keeps the first.
    let _ = tracing::subscriber::set_global_default(subscriber);
    Ok(())
}
