//! A real OTLP receiver for the telemetry tests: a collector in-process (gRPC through tonic,
//! HTTP/protobuf through hyper) decoding the official protobuf definitions. The Prometheus
//! server is [`super::prometheus`] (re-exported here, where the telemetry tests look for it).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use opentelemetry_proto::tonic::collector::logs::v1::logs_service_server::{LogsService, LogsServiceServer};
use opentelemetry_proto::tonic::collector::logs::v1::{ExportLogsServiceRequest, ExportLogsServiceResponse};
use opentelemetry_proto::tonic::collector::metrics::v1::metrics_service_server::{
    MetricsService, MetricsServiceServer,
};
use opentelemetry_proto::tonic::collector::metrics::v1::{ExportMetricsServiceRequest, ExportMetricsServiceResponse};
use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{TraceService, TraceServiceServer};
use opentelemetry_proto::tonic::collector::trace::v1::{ExportTraceServiceRequest, ExportTraceServiceResponse};
use opentelemetry_proto::tonic::common::v1::{AnyValue, KeyValue, any_value};
use opentelemetry_proto::tonic::logs::v1::LogRecord;
use opentelemetry_proto::tonic::metrics::v1::{Metric, metric};
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message;

use super::patience::{poll, scaled};

/// Everything a receiver got, decoded.
#[derive(Clone, Default)]
pub struct Received {
    metrics: Arc<Mutex<Vec<ExportMetricsServiceRequest>>>,
    traces: Arc<Mutex<Vec<ExportTraceServiceRequest>>>,
    logs: Arc<Mutex<Vec<ExportLogsServiceRequest>>>,
    /// `service.name` of every resource seen.
    services: Arc<Mutex<Vec<String>>>,
}

/// One data point of any metric kind, flattened: name, attributes, a value (gauge or sum
/// value, histogram count).
#[derive(Clone, Debug)]
pub struct Point {
    pub metric: String,
    pub attrs: Vec<(String, String)>,
    pub value: f64,
}

impl Point {
    pub fn attr(&self, key: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

pub fn value_text(v: &Option<AnyValue>) -> String {
    match v.as_ref().and_then(|v| v.value.as_ref()) {
        Some(any_value::Value::StringValue(s)) => s.clone(),
        Some(any_value::Value::BoolValue(b)) => b.to_string(),
        Some(any_value::Value::IntValue(i)) => i.to_string(),
        Some(any_value::Value::DoubleValue(d)) => d.to_string(),
        Some(other) => format!("{other:?}"),
        None => String::new(),
    }
}

pub fn attrs(kvs: &[KeyValue]) -> Vec<(String, String)> {
    kvs.iter().map(|kv| (kv.key.clone(), value_text(&kv.value))).collect()
}

pub fn attr(kvs: &[KeyValue], key: &str) -> Option<String> {
    kvs.iter().find(|kv| kv.key == key).map(|kv| value_text(&kv.value))
}

fn points_of(m: &Metric) -> Vec<Point> {
    let p = |attrs_: &[KeyValue], value: f64| Point { metric: m.name.clone(), attrs: attrs(attrs_), value };
    use opentelemetry_proto::tonic::metrics::v1::number_data_point::Value as N;
    let num = |v: &Option<N>| match v {
        Some(N::AsDouble(d)) => *d,
        Some(N::AsInt(i)) => *i as f64,
        None => f64::NAN,
    };
    match &m.data {
        Some(metric::Data::Gauge(g)) => g.data_points.iter().map(|d| p(&d.attributes, num(&d.value))).collect(),
        Some(metric::Data::Sum(s)) => s.data_points.iter().map(|d| p(&d.attributes, num(&d.value))).collect(),
        Some(metric::Data::Histogram(h)) => h.data_points.iter().map(|d| p(&d.attributes, d.count as f64)).collect(),
        _ => vec![],
    }
}

impl Received {
    fn note_service(&self, resource: Option<&opentelemetry_proto::tonic::resource::v1::Resource>) {
        if let Some(name) = resource.and_then(|r| attr(&r.attributes, "service.name")) {
            self.services.lock().unwrap().push(name);
        }
    }

    pub fn services(&self) -> Vec<String> {
        self.services.lock().unwrap().clone()
    }

    /// Every metric data point received so far (all exports, oldest first).
    pub fn points(&self) -> Vec<Point> {
        let reqs = self.metrics.lock().unwrap();
        reqs.iter()
            .flat_map(|r| &r.resource_metrics)
            .flat_map(|rm| &rm.scope_metrics)
            .flat_map(|sm| &sm.metrics)
            .flat_map(points_of)
            .collect()
    }

    pub fn spans(&self) -> Vec<Span> {
        let reqs = self.traces.lock().unwrap();
        reqs.iter()
            .flat_map(|r| &r.resource_spans)
            .flat_map(|rs| &rs.scope_spans)
            .flat_map(|ss| ss.spans.clone())
            .collect()
    }

    pub fn logs(&self) -> Vec<LogRecord> {
        let reqs = self.logs.lock().unwrap();
        reqs.iter()
            .flat_map(|r| &r.resource_logs)
            .flat_map(|rl| &rl.scope_logs)
            .flat_map(|sl| sl.log_records.clone())
            .collect()
    }

    pub fn export_count(&self) -> usize {
        self.metrics.lock().unwrap().len() + self.traces.lock().unwrap().len() + self.logs.lock().unwrap().len()
    }

    /// Polls until `check` finds what it wants in what was received.
    pub async fn wait_for<T>(&self, what: &str, timeout: Duration, check: impl Fn(&Received) -> Option<T>) -> T {
        if let Some(v) = poll(timeout, || check(self)).await {
            return v;
        }
        let names: std::collections::BTreeSet<String> = self.points().into_iter().map(|p| p.metric).collect();
        let spans: Vec<String> = self.spans().iter().map(|s| s.name.clone()).collect();
        let logs: Vec<String> = self.logs().iter().map(|l| value_text(&l.body)).collect();
        panic!(
            "OTLP receiver: no {what} after {:?}\nmetrics: {names:?}\nspans: {spans:?}\nlogs: {logs:?}",
            scaled(timeout)
        );
    }
}

#[tonic::async_trait]
impl MetricsService for Received {
    async fn export(
        &self,
        req: tonic::Request<ExportMetricsServiceRequest>,
    ) -> Result<tonic::Response<ExportMetricsServiceResponse>, tonic::Status> {
        let req = req.into_inner();
        req.resource_metrics.iter().for_each(|r| self.note_service(r.resource.as_ref()));
        self.metrics.lock().unwrap().push(req);
        Ok(tonic::Response::new(Default::default()))
    }
}

#[tonic::async_trait]
impl TraceService for Received {
    async fn export(
        &self,
        req: tonic::Request<ExportTraceServiceRequest>,
    ) -> Result<tonic::Response<ExportTraceServiceResponse>, tonic::Status> {
        let req = req.into_inner();
        req.resource_spans.iter().for_each(|r| self.note_service(r.resource.as_ref()));
        self.traces.lock().unwrap().push(req);
        Ok(tonic::Response::new(Default::default()))
    }
}

#[tonic::async_trait]
impl LogsService for Received {
    async fn export(
        &self,
        req: tonic::Request<ExportLogsServiceRequest>,
    ) -> Result<tonic::Response<ExportLogsServiceResponse>, tonic::Status> {
        let req = req.into_inner();
        req.resource_logs.iter().for_each(|r| self.note_service(r.resource.as_ref()));
        self.logs.lock().unwrap().push(req);
        Ok(tonic::Response::new(Default::default()))
    }
}

/// An OTLP receiver on a loopback port, serving until dropped.
pub struct OtlpReceiver {
    pub addr: SocketAddr,
    pub received: Received,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for OtlpReceiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl OtlpReceiver {
    pub fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// OTLP/gRPC (the collector's port 4317 protocol).
    pub async fn grpc() -> OtlpReceiver {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind gRPC receiver");
        let addr = listener.local_addr().unwrap();
        let received = Received::default();
        let r = received.clone();
        let task = tokio::spawn(async move {
            let _ = tonic::transport::Server::builder()
                .add_service(MetricsServiceServer::new(r.clone()))
                .add_service(TraceServiceServer::new(r.clone()))
                .add_service(LogsServiceServer::new(r))
                .serve_with_incoming(tonic::transport::server::TcpIncoming::from(listener))
                .await;
        });
        OtlpReceiver { addr, received, task }
    }

    /// OTLP/HTTP with protobuf bodies (the collector's port 4318 protocol).
    pub async fn http() -> OtlpReceiver {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind HTTP receiver");
        let addr = listener.local_addr().unwrap();
        let received = Received::default();
        let r = received.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else { return };
                let r = r.clone();
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |req| http_export(r.clone(), req));
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        OtlpReceiver { addr, received, task }
    }
}

async fn http_export(
    r: Received,
    req: hyper::Request<hyper::body::Incoming>,
) -> Result<hyper::Response<http_body_util::Full<bytes::Bytes>>, std::convert::Infallible> {
    use http_body_util::BodyExt;
    let path = req.uri().path().to_owned();
    let content_type = req.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    let body = req.into_body().collect().await.map(|b| b.to_bytes()).unwrap_or_default();
    let reply = |status: u16, bytes: Vec<u8>| {
        let mut resp = hyper::Response::new(http_body_util::Full::new(bytes::Bytes::from(bytes)));
        *resp.status_mut() = hyper::StatusCode::from_u16(status).unwrap();
        resp.headers_mut().insert("content-type", "application/x-protobuf".parse().unwrap());
        Ok(resp)
    };
    if content_type != "application/x-protobuf" {
        return reply(415, vec![]);
    }
    let ok = match path.as_str() {
        "/v1/metrics" => ExportMetricsServiceRequest::decode(body).map(|req| {
            req.resource_metrics.iter().for_each(|x| r.note_service(x.resource.as_ref()));
            r.metrics.lock().unwrap().push(req);
            ExportMetricsServiceResponse::default().encode_to_vec()
        }),
        "/v1/traces" => ExportTraceServiceRequest::decode(body).map(|req| {
            req.resource_spans.iter().for_each(|x| r.note_service(x.resource.as_ref()));
            r.traces.lock().unwrap().push(req);
            ExportTraceServiceResponse::default().encode_to_vec()
        }),
        "/v1/logs" => ExportLogsServiceRequest::decode(body).map(|req| {
            req.resource_logs.iter().for_each(|x| r.note_service(x.resource.as_ref()));
            r.logs.lock().unwrap().push(req);
            ExportLogsServiceResponse::default().encode_to_vec()
        }),
        _ => return reply(404, vec![]),
    };
    match ok {
        Ok(bytes) => reply(200, bytes),
        Err(_) => reply(400, vec![]),
    }
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A `traceparent` of the client's own (sampled), and its trace and span ids.
pub fn client_traceparent(seed: u8) -> (String, String, String) {
    let trace = format!("{:02x}{}", seed, "4bf92f3577b34da6a3ce929d0e0e47"); // 16 bytes
    let span = format!("{:02x}{}", seed, "f067aa0ba902b7"); // 8 bytes
    (format!("00-{trace}-{span}-01"), trace, span)
}

pub use super::prometheus::Prometheus;
