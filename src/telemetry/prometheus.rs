//! `GET /metrics`: the same instruments as the OTLP export, read through a pull reader into a
//! Prometheus registry and rendered in the text format (`tdqs_tool_score`,
//! `tdqs_tools_hidden_total`, `mcp_gateway_request_duration_seconds_bucket`, ...).

use std::sync::OnceLock;

use prometheus::{Encoder, TextEncoder};

/// The content type of the text exposition format.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

static REGISTRY: OnceLock<prometheus::Registry> = OnceLock::new();

/// A reader feeding a fresh registry, which `/metrics` then serves.
pub fn reader() -> Result<opentelemetry_prometheus::PrometheusExporter, String> {
    let registry = REGISTRY.get_or_init(prometheus::Registry::new).clone();
    opentelemetry_prometheus::exporter()
        .with_registry(registry)
        // Scope labels (otel_scope_name, ...) on every series add nothing for a single-scope
        // process.
        .scope_info_enabled(false)
        .build()
        .map_err(|e| e.to_string())
}

/// The exposition text, or `None` when the endpoint is off.
pub fn render() -> Option<Result<Vec<u8>, String>> {
    let registry = REGISTRY.get()?;
    let mut out = Vec::with_capacity(16 * 1024);
    Some(TextEncoder::new().encode(&registry.gather(), &mut out).map(|_| out).map_err(|e| e.to_string()))
}
