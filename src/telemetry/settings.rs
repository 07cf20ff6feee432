//! The `[telemetry]` section: where OTLP goes, whether Prometheus is served, and how logs look.

use serde::Deserialize;

use crate::settings::{ConfigError, invalid};

/// `[telemetry]`: OpenTelemetry export (OTLP), the Prometheus endpoint, and logs.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TelemetryConfig {
    /// OTLP collector: `http://host:4318` for http/protobuf (the `/v1/<signal>` paths are
    /// added), `http://host:4317` for grpc. Unset: no OTLP export.
    pub otlp_endpoint: Option<String>,
    #[serde(default)]
    pub otlp_protocol: OtlpProtocol,
    /// Serve the metrics on `GET /metrics` in the Prometheus text format.
    #[serde(default = "default_true")]
    pub prometheus: bool,
    #[serde(default = "default_service_name")]
    pub service_name: String,
    #[serde(default)]
    pub log_format: LogFormat,
    /// A `tracing` filter (`info`, `warn,tdqs_gateway=debug`); `TDQS_LOG` or `RUST_LOG` override it.
    #[serde(default = "default_log_level")]
    pub log_level: String,
    /// Distinct tool names used as metric labels; later names share `tool="_other"`.
    #[serde(default = "default_max_tool_labels")]
    pub max_tool_labels: usize,
    /// How often metrics are pushed over OTLP.
    #[serde(default = "default_export_interval_ms")]
    pub export_interval_ms: u64,
    /// The longest one OTLP export may take before it is abandoned (it never blocks proxying).
    #[serde(default = "default_export_timeout_ms")]
    pub export_timeout_ms: u64,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, Default)]
pub enum OtlpProtocol {
    #[default]
    #[serde(rename = "http/protobuf")]
    HttpProtobuf,
    #[serde(rename = "grpc")]
    Grpc,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// One readable line per event.
    #[default]
    Human,
    /// One JSON object per line.
    Json,
}

fn default_true() -> bool {
    true
}

fn default_service_name() -> String {
    "tdqs-gateway".into()
}
fn default_log_level() -> String {
    "info".into()
}
fn default_max_tool_labels() -> usize {
    2000
}
fn default_export_interval_ms() -> u64 {
    15_000
}
fn default_export_timeout_ms() -> u64 {
    5_000
}

impl Default for TelemetryConfig {
    fn default() -> Self {
        TelemetryConfig {
            otlp_endpoint: None,
            otlp_protocol: OtlpProtocol::default(),
            prometheus: true,
            service_name: default_service_name(),
            log_format: LogFormat::default(),
            log_level: default_log_level(),
            max_tool_labels: default_max_tool_labels(),
            export_interval_ms: default_export_interval_ms(),
            export_timeout_ms: default_export_timeout_ms(),
        }
    }
}

impl TelemetryConfig {
    /// Every problem of `[telemetry]`, each with its key.
    pub fn validate(&self, out: &mut Vec<ConfigError>) {
        if let Some(endpoint) = &self.otlp_endpoint {
            match reqwest::Url::parse(endpoint) {
                Err(e) => out.push(invalid("telemetry.otlp_endpoint", e.to_string())),
                Ok(url) if !matches!(url.scheme(), "http" | "https") => {
                    out.push(invalid("telemetry.otlp_endpoint", "must be an http or https URL"));
                }
                Ok(_) => {}
            }
        }
        if self.service_name.trim().is_empty() {
            out.push(invalid("telemetry.service_name", "must not be empty"));
        }
        if let Err(e) = tracing_subscriber::EnvFilter::builder().parse(&self.log_level) {
            out.push(invalid("telemetry.log_level", format!("\"{}\": {e}", self.log_level)));
        }
        if self.max_tool_labels == 0 {
            out.push(invalid("telemetry.max_tool_labels", "must be at least 1"));
        }
        if self.export_interval_ms < 100 {
            out.push(invalid("telemetry.export_interval_ms", "must be at least 100"));
        }
        if self.export_timeout_ms == 0 {
            out.push(invalid("telemetry.export_timeout_ms", "must be at least 1"));
        }
    }
}
