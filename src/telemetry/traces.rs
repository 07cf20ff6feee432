//! Spans: one per proxied request (`mcp.method.name`, `gen_ai.tool.name`, the upstream, the
//! session id hashed, the status), one per scoring and per judge call. W3C trace context comes
//! from the client's `traceparent` and goes on to the upstream: as headers over HTTP, in
//! `params._meta` for stdio servers (which have no headers).
//!
//! Request spans are `tracing` spans bridged by `tracing-opentelemetry`, so log events inside
//! them carry their trace id; without an OTLP endpoint they cost one disabled-callsite check.

use std::time::{Instant, SystemTime};

use http::{HeaderMap, HeaderName, HeaderValue};
use opentelemetry::propagation::{Extractor, Injector, TextMapPropagator};
use opentelemetry::trace::{SpanKind, TraceContextExt, Tracer, TracerProvider as _};
use opentelemetry::{Context, KeyValue};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use tracing_opentelemetry::OpenTelemetrySpanExt;

use super::record::ScoreFacts;

/// The tracer the hand-made spans (scoring) use; the no-op tracer until [`set_tracer`].
static TRACER: std::sync::OnceLock<opentelemetry_sdk::trace::Tracer> = std::sync::OnceLock::new();

pub(super) fn set_tracer(provider: &opentelemetry_sdk::trace::SdkTracerProvider) -> opentelemetry_sdk::trace::Tracer {
    let tracer = provider.tracer("tdqs-gateway");
    let _ = TRACER.set(tracer.clone());
    tracer
}

struct HeaderExtractor<'a>(&'a HeaderMap);

impl Extractor for HeaderExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|v| v.to_str().ok())
    }
    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(HeaderName::as_str).collect()
    }
}

/// The propagator's own header writer, kept to check [`traceparent`] against it.
#[cfg(test)]
struct HeaderInjector<'a>(&'a mut HeaderMap);

#[cfg(test)]
impl Injector for HeaderInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(k), Ok(v)) = (HeaderName::try_from(key), HeaderValue::try_from(value)) {
            self.0.insert(k, v);
        }
    }
}

/// `traceparent`/`tracestate` as `_meta` keys.
struct MetaInjector<'a>(&'a mut serde_json::Map<String, serde_json::Value>);

impl Injector for MetaInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        self.0.insert(key.to_owned(), serde_json::Value::String(value));
    }
}

/// Longest tool name put on a span; the rest of a longer one is cut.
const MAX_TOOL_ATTR: usize = 128;

/// The first 16 hex digits of the SHA-256 of a session id: correlates a session's spans
/// without putting the id (a bearer of the session) into a tracing backend.
pub fn hash_session(id: &str) -> String {
    use sha2::Digest;
    let d = sha2::Sha256::digest(id.as_bytes());
    let mut out = String::with_capacity(16);
    for b in &d[..8] {
        out.push(HEX[usize::from(b >> 4)] as char);
        out.push(HEX[usize::from(b & 0xf)] as char);
    }
    out
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The W3C `traceparent` of a span context, written straight into a header value: the bytes
/// `TraceContextPropagator` would format (`00-<trace id>-<span id>-<flags>`), without its
/// `format!`, the header name parsed from a string and the `String` to `HeaderValue` copy.
fn traceparent(sc: &opentelemetry::trace::SpanContext) -> HeaderValue {
    fn hex(buf: &mut [u8; 55], at: &mut usize, bytes: &[u8]) {
        for b in bytes {
            buf[*at] = HEX[usize::from(b >> 4)];
            buf[*at + 1] = HEX[usize::from(b & 0xf)];
            *at += 2;
        }
    }
    let mut buf = [0u8; 55];
    buf[..3].copy_from_slice(b"00-");
    let mut at = 3;
    hex(&mut buf, &mut at, &sc.trace_id().to_bytes());
    buf[at] = b'-';
    at += 1;
    hex(&mut buf, &mut at, &sc.span_id().to_bytes());
    buf[at] = b'-';
    at += 1;
    let flags = (sc.trace_flags() & opentelemetry::trace::TraceFlags::SAMPLED).to_u8();
    hex(&mut buf, &mut at, &[flags]);
    HeaderValue::from_bytes(&buf[..at]).expect("hex digits and dashes are a valid header value")
}

/// The span of one client request; its parent is the client's `traceparent`, if any. `method`
/// is a bounded label ([`super::metrics::method_label`], or `batch`, `GET`, `DELETE`).
pub fn request_span(
    server: &str,
    method: &'static str,
    tool: Option<&str>,
    session: Option<&str>,
    headers: &HeaderMap,
) -> tracing::Span {
    let tool = tool.map(|t| clip(t, MAX_TOOL_ATTR));
    let span = tracing::debug_span!(
        target: "tdqs_gateway::proxy",
        "mcp.request",
        otel.name = tracing::field::Empty,
        otel.kind = "server",
        otel.status_code = tracing::field::Empty,
        mcp.method.name = method,
        gen_ai.tool.name = tool,
        mcp.session.id = tracing::field::Empty,
        // The caller's subject, hashed (with `[auth]` on): who, without a name in the trace.
        enduser.id = tracing::field::Empty,
        server = server,
        http.response.status_code = tracing::field::Empty,
        error.type = tracing::field::Empty,
    );
    if span.is_disabled() {
        return span;
    }
    match tool {
        Some(t) => span.record("otel.name", format!("{method} {t}")),
        None => span.record("otel.name", method),
    };
    if let Some(s) = session {
        span.record("mcp.session.id", hash_session(s));
    }
    let parent = TraceContextPropagator::new().extract(&HeaderExtractor(headers));
    if parent.span().span_context().is_valid() {
        let _ = span.set_parent(parent);
    }
    span
}

/// A child span per message of a batch request (the request span covers the batch), each
/// message given as its method (`None` for a response) and the tool it names.
pub fn batch_spans<'m>(
    parent: &tracing::Span,
    messages: impl Iterator<Item = (Option<&'m str>, Option<&'m str>)>,
) -> Vec<tracing::Span> {
    if parent.is_disabled() {
        return Vec::new();
    }
    messages
        .map(|(method, tool)| {
            let method = method.map_or("response", super::metrics::method_label);
            let tool = tool.map(|t| clip(t, MAX_TOOL_ATTR));
            let span = tracing::debug_span!(
                target: "tdqs_gateway::proxy",
                parent: parent,
                "mcp.message",
                otel.name = tracing::field::Empty,
                mcp.method.name = method,
                gen_ai.tool.name = tool,
            );
            match tool {
                Some(t) => span.record("otel.name", format!("{method} {t}")),
                None => span.record("otel.name", method),
            };
            span
        })
        .collect()
}

/// Notes the response on the request span: its HTTP status, and why it failed if it did.
pub fn finish_request(span: &tracing::Span, status: u16, error: Option<&'static str>) {
    if span.is_disabled() {
        return;
    }
    span.record("http.response.status_code", status);
    if let Some(e) = error.or((status >= 500).then_some("upstream")) {
        span.record("error.type", e);
        span.record("otel.status_code", "error");
    }
}

/// Replaces any `traceparent`/`tracestate` in `headers` with the span's context, so the
/// upstream sees this span as its parent. A span that is not exported leaves the client's
/// headers as they are.
pub fn inject_headers(span: &tracing::Span, headers: &mut HeaderMap) {
    if span.is_disabled() {
        return;
    }
    let cx = span.context();
    let sc = cx.span().span_context().clone();
    if sc.is_valid() {
        // As TraceContextPropagator::inject_context sets them: tracestate too, empty or not.
        headers.insert(TRACEPARENT.clone(), traceparent(&sc));
        match HeaderValue::try_from(sc.trace_state().header()) {
            Ok(v) => headers.insert(TRACESTATE.clone(), v),
            Err(_) => headers.remove(&TRACESTATE),
        };
    }
}

static TRACEPARENT: HeaderName = HeaderName::from_static("traceparent");
static TRACESTATE: HeaderName = HeaderName::from_static("tracestate");

/// The message (or batch) with the span's context in every request's and notification's
/// `params._meta`, for an stdio upstream; `None` when there is nothing to stamp or the body is
/// not JSON (it then goes on unchanged).
pub fn stamp_meta(span: &tracing::Span, body: &[u8]) -> Option<Vec<u8>> {
    if span.is_disabled() {
        return None;
    }
    let cx = span.context();
    if !cx.span().span_context().is_valid() {
        return None;
    }
    let mut value: serde_json::Value = serde_json::from_slice(body).ok()?;
    let mut stamp = |msg: &mut serde_json::Value| {
        let Some(obj) = msg.as_object_mut() else { return };
        if !obj.contains_key("method") {
            return; // an answer to the server's own request
        }
        let params = obj.entry("params").or_insert_with(|| serde_json::json!({}));
        let Some(params) = params.as_object_mut() else { return };
        let meta = params.entry("_meta").or_insert_with(|| serde_json::json!({}));
        if let Some(meta) = meta.as_object_mut() {
            TraceContextPropagator::new().inject_context(&cx, &mut MetaInjector(meta));
        }
    };
    match &mut value {
        serde_json::Value::Array(items) => items.iter_mut().for_each(&mut stamp),
        v => stamp(v),
    }
    serde_json::to_vec(&value).ok()
}

/// Records a finished scoring as a span under the current request span (after the fact: the
/// scoring service is synchronous and knows nothing of telemetry).
pub fn scoring_span(server: &str, tool: &str, scored: &ScoreFacts, started: Instant) {
    let Some(tracer) = TRACER.get() else { return };
    let parent = tracing::Span::current().context();
    if !parent.span().span_context().is_valid() {
        return; // scoring outside any request (a background refresh): not worth a root span
    }
    let start = SystemTime::now() - started.elapsed();
    let attrs = vec![
        KeyValue::new("server", server.to_owned()),
        KeyValue::new("gen_ai.tool.name", clip(tool, MAX_TOOL_ATTR).to_owned()),
        KeyValue::new("tdqs.input_hash", scored.input_hash.to_owned()),
        KeyValue::new("tdqs.score", scored.tdqs),
        KeyValue::new("tdqs.tier", scored.tier),
        KeyValue::new("tdqs.judge", scored.judge.to_owned()),
        KeyValue::new("tdqs.provisional", scored.provisional),
        KeyValue::new("tdqs.cache", scored.cache.as_str()),
    ];
    let span = tracer
        .span_builder("tdqs.score")
        .with_kind(SpanKind::Internal)
        .with_start_time(start)
        .with_attributes(attrs)
        .start_with_context(tracer, &parent);
    Context::current_with_span(span).span().end();
}

/// The span of one judge call; the caller instruments the call's future with it.
pub fn judge_span(judge: &str, what: &'static str, tool: Option<&str>) -> tracing::Span {
    tracing::debug_span!(
        target: "tdqs_gateway::judge",
        "tdqs.judge",
        otel.name = what,
        otel.kind = "client",
        otel.status_code = tracing::field::Empty,
        tdqs.judge = judge,
        gen_ai.tool.name = tool.map(|t| clip(t, MAX_TOOL_ATTR)),
        error.type = tracing::field::Empty,
    )
}

/// Marks a judge span failed with a bounded error kind.
pub fn judge_failed(span: &tracing::Span, kind: &'static str) {
    span.record("error.type", kind);
    span.record("otel.status_code", "error");
}

/// At most `max` bytes of `s`, cut at a character boundary.
fn clip(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_ids_are_hashed_to_sixteen_hex_digits() {
        let h = hash_session("4f1c2a9be0d84d7e9c7a1d2e3f405162");
        assert_eq!(h.len(), 16);
        assert!(h.chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(h, hash_session("4f1c2a9be0d84d7e9c7a1d2e3f405162"), "stable, so a session's spans correlate");
        assert_ne!(h, hash_session("4f1c2a9be0d84d7e9c7a1d2e3f405163"));
    }

    #[test]
    fn traceparent_is_written_as_the_propagator_writes_it() {
        use opentelemetry::trace::{SpanContext, SpanId, TraceFlags, TraceId, TraceState};
        for flags in [TraceFlags::SAMPLED, TraceFlags::default()] {
            let sc = SpanContext::new(
                TraceId::from_hex("0af7651916cd43dd8448eb211c80319c").unwrap(),
                SpanId::from_hex("b7ad6b7169203331").unwrap(),
                flags,
                true,
                TraceState::default(),
            );
            let cx = Context::new().with_remote_span_context(sc.clone());
            let mut theirs = HeaderMap::new();
            TraceContextPropagator::new().inject_context(&cx, &mut HeaderInjector(&mut theirs));
            assert_eq!(traceparent(&sc), theirs["traceparent"]);
        }
    }

    #[test]
    fn long_tool_names_are_cut_at_a_character_boundary() {
        let name = "é".repeat(100); // 200 bytes
        let cut = clip(&name, MAX_TOOL_ATTR);
        assert!(cut.len() <= MAX_TOOL_ATTR && cut.chars().all(|c| c == 'é'));
        assert_eq!(clip("short", MAX_TOOL_ATTR), "short");
    }

    #[test]
    fn a_span_that_is_not_exported_changes_nothing() {
        // No subscriber here: the span is disabled, so neither headers nor bodies are touched.
        let span = request_span("up", "tools/call", Some("x"), Some("sid"), &HeaderMap::new());
        let mut headers = HeaderMap::new();
        headers
            .insert("traceparent", HeaderValue::from_static("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"));
        inject_headers(&span, &mut headers);
        assert_eq!(headers["traceparent"], "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        assert_eq!(stamp_meta(&span, br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), None);
        assert_eq!(stamp_meta(&span, b"\xff not json"), None);
    }
}
