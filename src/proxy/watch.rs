//! What the gateway records about one request to an upstream, around whatever serves it.

use http::{Method, Response};

use super::Body;
use super::forward::Outbound;
use crate::mcp::message::Payload;

use super::headers::SESSION_HEADER;

/// A request's telemetry: its span (with a child per batch member), the trace context in its
/// headers replaced by that span's (the upstream's parent), and its duration up to the
/// response head.
pub struct Watch<'a> {
    pub span: tracing::Span,
    members: Vec<tracing::Span>,
    upstream: &'a str,
    method: &'static str,
    started: std::time::Instant,
}

impl<'a> Watch<'a> {
    pub fn start(upstream: &'a str, req: &mut Outbound, parsed: Option<&Payload>) -> Watch<'a> {
        let started = std::time::Instant::now();
        let (method, tool) = match (&req.method, parsed) {
            (&Method::GET, _) => ("GET", None),
            (&Method::DELETE, _) => ("DELETE", None),
            (_, Some(Payload::Single(m))) => {
                (m.method().map_or("response", crate::telemetry::method_label), m.tool_name.as_deref())
            }
            (_, Some(Payload::Batch(_))) => ("batch", None),
            (_, None) => ("invalid", None),
        };
        let session_id = req.headers.get(SESSION_HEADER).and_then(|v| v.to_str().ok());
        let span = crate::telemetry::traces::request_span(upstream, method, tool, session_id, &req.headers);
        if let Some(p) = &req.principal {
            span.record("enduser.id", p.subject_hash());
        }
        crate::telemetry::traces::inject_headers(&span, &mut req.headers);
        let members = match parsed {
            Some(Payload::Batch(msgs)) => {
                crate::telemetry::traces::batch_spans(&span, msgs.iter().map(|m| (m.method(), m.tool_name.as_deref())))
            }
            _ => Vec::new(),
        };
        Watch { span, members, upstream, method, started }
    }

    pub fn finish(self, resp: Response<Body>) -> Response<Body> {
        drop(self.members);
        crate::telemetry::traces::finish_request(&self.span, resp.status().as_u16(), None);
        let metrics = crate::telemetry::metrics();
        metrics.request(metrics.request_label(self.upstream), self.method, self.started.elapsed());
        resp
    }
}
