//! Telemetry: OpenTelemetry metrics, traces and logs exported over OTLP (gRPC or
//! HTTP/protobuf), the same metrics on `GET /metrics` for Prometheus, and the log subscriber.
//! Export runs on the SDK's own threads with bounded queues and timeouts: a collector that is
//! down or slow loses telemetry, never a request.

pub mod logs;
pub mod metrics;
pub mod prometheus;
mod record;
pub mod settings;
pub mod traces;

use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use opentelemetry::metrics::MeterProvider as _;
use opentelemetry_otlp::{Protocol, WithExportConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::logs::SdkLoggerProvider;
use opentelemetry_sdk::metrics::{PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::trace::{BatchConfigBuilder, BatchSpanProcessor, SdkTracerProvider};

pub use metrics::{CacheResult, Metrics, method_label};
pub use record::{ScoreFacts, scored, server_report, tool_scored};
use settings::{LogFormat, OtlpProtocol, TelemetryConfig};

/// A telemetry setup problem, naming the config key it concerns.
#[derive(Debug, thiserror::Error)]
#[error("config key `{key}`: {message}")]
pub struct TelemetryError {
    pub key: &'static str,
    pub message: String,
}

impl TelemetryError {
    fn new(key: &'static str, message: impl Into<String>) -> Self {
        TelemetryError { key, message: message.into() }
    }
}

static METRICS: OnceLock<Metrics> = OnceLock::new();

/// The instruments. Before [`init`] (unit tests, `lint`, `score`) they record into the
/// global no-op meter.
pub fn metrics() -> &'static Metrics {
    METRICS.get_or_init(|| {
        Metrics::new(
            &opentelemetry::global::meter_provider().meter("tdqs-gateway"),
            TelemetryConfig::default().max_tool_labels,
        )
    })
}

/// The running providers; [`Telemetry::shutdown`] flushes what is queued.
pub struct Telemetry {
    /// The export timeout, which also bounds the wait at shutdown.
    timeout: Duration,
    meter: Option<SdkMeterProvider>,
    tracer: Option<SdkTracerProvider>,
    logger: Option<SdkLoggerProvider>,
}

/// Where log lines go besides OTLP.
pub struct LogOptions<'a> {
    /// Overrides `telemetry.log_format` (the `--log-format` flag).
    pub format: Option<LogFormat>,
    /// Append to this file instead of stderr.
    pub file: Option<&'a Path>,
}

/// Sets up metrics, traces and logs from the config. Call it inside the Tokio runtime (the
/// gRPC exporter's channel lives there) and before anything records.
pub fn init(cfg: &TelemetryConfig, log: LogOptions<'_>) -> Result<Telemetry, TelemetryError> {
    let resource = Resource::builder()
        .with_service_name(cfg.service_name.clone())
        .with_attribute(opentelemetry::KeyValue::new("service.version", env!("CARGO_PKG_VERSION")))
        .build();
    let timeout = Duration::from_millis(cfg.export_timeout_ms);
    let interval = Duration::from_millis(cfg.export_interval_ms);
    let otlp = cfg.otlp_endpoint.as_deref().map(|e| (e.trim_end_matches('/'), cfg.otlp_protocol));

    let mut meter = SdkMeterProvider::builder().with_resource(resource.clone());
    if cfg.prometheus {
        meter = meter.with_reader(prometheus::reader().map_err(|e| TelemetryError::new("telemetry.prometheus", e))?);
    }
    if let Some((endpoint, protocol)) = otlp {
        let b = opentelemetry_otlp::MetricExporter::builder();
        let exporter = match protocol {
            OtlpProtocol::HttpProtobuf => b
                .with_http()
                .with_protocol(Protocol::HttpBinary)
                .with_endpoint(format!("{endpoint}/v1/metrics"))
                .with_timeout(timeout)
                .build(),
            OtlpProtocol::Grpc => b.with_tonic().with_endpoint(endpoint).with_timeout(timeout).build(),
        }
        .map_err(|e| TelemetryError::new("telemetry.otlp_endpoint", e.to_string()))?;
        meter = meter.with_reader(PeriodicReader::builder(exporter).with_interval(interval).build());
    }
    let meter = (cfg.prometheus || otlp.is_some()).then(|| meter.build());
    if let Some(m) = &meter {
        opentelemetry::global::set_meter_provider(m.clone());
        let _ = METRICS.set(Metrics::new(&m.meter("tdqs-gateway"), cfg.max_tool_labels));
    }

    // Spans and log records leave in batches from a bounded queue; a full queue drops.
    let batch_delay = interval.min(Duration::from_secs(5));
    let (tracer, logger) = match otlp {
        None => (None, None),
        Some((endpoint, protocol)) => {
            let key = "telemetry.otlp_endpoint";
            let spans = match protocol {
                OtlpProtocol::HttpProtobuf => opentelemetry_otlp::SpanExporter::builder()
                    .with_http()
                    .with_protocol(Protocol::HttpBinary)
                    .with_endpoint(format!("{endpoint}/v1/traces"))
                    .with_timeout(timeout)
                    .build(),
                OtlpProtocol::Grpc => opentelemetry_otlp::SpanExporter::builder()
                    .with_tonic()
                    .with_endpoint(endpoint)
                    .with_timeout(timeout)
                    .build(),
            }
            .map_err(|e| TelemetryError::new(key, e.to_string()))?;
            let batch =
                BatchConfigBuilder::default().with_max_queue_size(4096).with_scheduled_delay(batch_delay).build();
            let tracer = SdkTracerProvider::builder()
                .with_resource(resource.clone())
                .with_span_processor(BatchSpanProcessor::builder(spans).with_batch_config(batch).build())
                .build();
            let records = match protocol {
                OtlpProtocol::HttpProtobuf => opentelemetry_otlp::LogExporter::builder()
                    .with_http()
                    .with_protocol(Protocol::HttpBinary)
                    .with_endpoint(format!("{endpoint}/v1/logs"))
                    .with_timeout(timeout)
                    .build(),
                OtlpProtocol::Grpc => opentelemetry_otlp::LogExporter::builder()
                    .with_tonic()
                    .with_endpoint(endpoint)
                    .with_timeout(timeout)
                    .build(),
            }
            .map_err(|e| TelemetryError::new(key, e.to_string()))?;
            let processor = opentelemetry_sdk::logs::BatchLogProcessor::builder(records)
                .with_batch_config(
                    opentelemetry_sdk::logs::BatchConfigBuilder::default()
                        .with_max_queue_size(4096)
                        .with_scheduled_delay(batch_delay)
                        .build(),
                )
                .build();
            let logger = SdkLoggerProvider::builder().with_resource(resource).with_log_processor(processor).build();
            (Some(tracer), Some(logger))
        }
    };
    let otel_tracer = tracer.as_ref().map(traces::set_tracer);
    if let Some(t) = &tracer {
        opentelemetry::global::set_tracer_provider(t.clone());
    }
    logs::install(log.format.unwrap_or(cfg.log_format), &cfg.log_level, log.file, logger.as_ref(), otel_tracer)?;
    Ok(Telemetry { timeout, meter, tracer, logger })
}

impl Telemetry {
    /// Flushes and stops the exporters, side by side, waiting at most a little over one export
    /// timeout: a collector that hangs must not hold the process at exit (what is still queued
    /// then is lost). Call it outside async code: the SDK blocks on its export threads.
    pub fn shutdown(self) {
        let (done, finished) = std::sync::mpsc::channel::<()>();
        let mut running = 0;
        let mut stop = |f: Box<dyn FnOnce() + Send>| {
            let done = done.clone();
            running += 1;
            std::thread::spawn(move || {
                f();
                let _ = done.send(());
            });
        };
        if let Some(t) = self.tracer {
            stop(Box::new(move || drop(t.shutdown_with_timeout(self.timeout))));
        }
        if let Some(l) = self.logger {
            stop(Box::new(move || drop(l.shutdown_with_timeout(self.timeout))));
        }
        if let Some(m) = self.meter {
            stop(Box::new(move || drop(m.shutdown())));
        }
        let deadline = std::time::Instant::now() + self.timeout + Duration::from_millis(500);
        for _ in 0..running {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if finished.recv_timeout(left).is_err() {
                return;
            }
        }
    }
}
