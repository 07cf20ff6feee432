//! The instruments of DESIGN.md "Telemetry names" and the calls that record them. Labels are
//! bounded: upstream names come from the config, tool names from listed tools up to a cap
//! (then `_other`), methods from a known list (else `other`), reasons and tiers from enums.
//! Gauges are observed from tables kept here, so a tool whose tier changed stops reporting
//! its old series instead of keeping a stale one forever.
//!
//! Long: every instrument and its recording call side by side, so a name in DESIGN.md maps to one
//! place; about half is the instrument table.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use opentelemetry::KeyValue;
use opentelemetry::metrics::{Counter, Histogram, Meter};

/// The label every tool name past `max_tool_labels` shares.
pub const OTHER_TOOL: &str = "_other";

/// Where a score lookup was answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
pub enum CacheResult {
    /// In memory.
    Hit,
    /// In the store (a restart or another replica judged it).
    Store,
    /// Nowhere: the judge is asked.
    Miss,
}

impl CacheResult {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// A tool's latest score as the `tdqs.tool.score` gauge reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolPoint {
    pub tdqs: f64,
    pub tier: &'static str,
    pub judge: Arc<str>,
    pub provisional: bool,
}

/// Per-upstream session counts, read when metrics are collected.
pub type SessionSource = Box<dyn Fn() -> Vec<(Arc<str>, u64)> + Send + Sync>;

#[derive(Default)]
struct Gauges {
    /// Tool label values handed out so far (bounded by `max_tool_labels`).
    tool_labels: HashSet<Arc<str>>,
    tools: HashMap<(Arc<str>, Arc<str>), ToolPoint>,
    /// (server, component) -> score.
    servers: HashMap<(Arc<str>, &'static str), f64>,
    sessions: Option<SessionSource>,
}

/// Every instrument, created once per process.
pub struct Metrics {
    tools_listed: Counter<u64>,
    tools_hidden: Counter<u64>,
    calls_blocked: Counter<u64>,
    answers_uninspected: Counter<u64>,
    messages_unreadable: Counter<u64>,
    definitions_changed: Counter<u64>,
    threats_found: Counter<u64>,
    cache_lookups: Counter<u64>,
    judge_duration: Histogram<f64>,
    judge_errors: Counter<u64>,
    request_duration: Histogram<f64>,
    gauges: Arc<Mutex<Gauges>>,
    max_tool_labels: usize,
    /// Interned upstream names, so recording clones an `Arc` instead of a `String`.
    servers: Mutex<crate::by_name::ByName<Arc<str>>>,
    /// Upstream names as the per-request label (see [`Metrics::request_label`]).
    request_labels: Mutex<Vec<&'static str>>,
}

thread_local! {
    /// The request labels this thread has used: looked up without a lock.
    static REQUEST_LABELS: std::cell::RefCell<Vec<&'static str>> = const { std::cell::RefCell::new(Vec::new()) };
}

const REQUEST_BUCKETS: [f64; 15] =
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0];
const JUDGE_BUCKETS: [f64; 14] = [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0];

impl Metrics {
    pub fn new(meter: &Meter, max_tool_labels: usize) -> Metrics {
        let gauges = Arc::new(Mutex::new(Gauges::default()));
        let g = gauges.clone();
        meter
            .f64_observable_gauge("tdqs.tool.score")
            .with_description("TDQS of each listed tool (0-5)")
            .with_callback(move |obs| {
                let Ok(g) = g.lock() else { return };
                for ((server, tool), p) in &g.tools {
                    obs.observe(
                        p.tdqs,
                        &[
                            KeyValue::new("server", server.clone()),
                            KeyValue::new("tool", tool.clone()),
                            KeyValue::new("tier", p.tier),
                            KeyValue::new("judge", p.judge.clone()),
                            KeyValue::new("provisional", p.provisional),
                        ],
                    );
                }
            })
            .build();
        let g = gauges.clone();
        meter
            .f64_observable_gauge("tdqs.server.score")
            .with_description("Server-level TDQS components: description_quality, coherence, overall (0-5)")
            .with_callback(move |obs| {
                let Ok(g) = g.lock() else { return };
                for ((server, component), v) in &g.servers {
                    obs.observe(*v, &[KeyValue::new("server", server.clone()), KeyValue::new("component", *component)]);
                }
            })
            .build();
        let g = gauges.clone();
        meter
            .u64_observable_gauge("mcp.gateway.sessions")
            .with_description("Open MCP sessions per upstream")
            .with_callback(move |obs| {
                let Ok(g) = g.lock() else { return };
                if let Some(source) = &g.sessions {
                    for (server, n) in source() {
                        obs.observe(n, &[KeyValue::new("server", server)]);
                    }
                }
            })
            .build();
        Metrics {
            tools_listed: meter
                .u64_counter("tdqs.tools.listed")
                .with_description("Tools in tools/list answers that passed through the gateway")
                .build(),
            tools_hidden: meter
                .u64_counter("tdqs.tools.hidden")
                .with_description("Tools removed from tools/list answers by the policy")
                .build(),
            calls_blocked: meter
                .u64_counter("tdqs.calls.blocked")
                .with_description("tools/call requests refused because the tool is hidden")
                .build(),
            answers_uninspected: meter
                .u64_counter("tdqs.answers.uninspected")
                .with_description(
                    "Upstream answers the gateway could not inspect (refused under enforce, passed on otherwise)",
                )
                .build(),
            messages_unreadable: meter
                .u64_counter("tdqs.messages.unreadable")
                .with_description(
                    "Client messages the strict reading refused (action: refused under enforce, passed otherwise)",
                )
                .build(),
            definitions_changed: meter
                .u64_counter("tdqs.definitions.changed")
                .with_description("Tools listed with a definition hash other than the one seen before")
                .build(),
            threats_found: meter
                .u64_counter("tdqs.threats.found")
                .with_description("Threat findings in listed definitions and server instructions, once per definition")
                .build(),
            cache_lookups: meter
                .u64_counter("tdqs.cache.lookups")
                .with_description("Score lookups by where they were answered")
                .build(),
            judge_duration: meter
                .f64_histogram("tdqs.judge.duration")
                .with_unit("s")
                .with_description("Time of one judge call (tool or coherence), retries included")
                .with_boundaries(JUDGE_BUCKETS.to_vec())
                .build(),
            judge_errors: meter
                .u64_counter("tdqs.judge.errors")
                .with_description("Judge calls that gave no usable answer")
                .build(),
            request_duration: meter
                .f64_histogram("mcp.gateway.request.duration")
                .with_unit("s")
                .with_description("Time from a client request to the gateway's response head")
                .with_boundaries(REQUEST_BUCKETS.to_vec())
                .build(),
            gauges,
            max_tool_labels,
            servers: Mutex::default(),
            request_labels: Mutex::default(),
        }
    }

    /// The interned label value of an upstream name.
    pub fn server(&self, name: &str) -> Arc<str> {
        let Ok(mut m) = self.servers.lock() else { return Arc::from(name) };
        if let Some(s) = m.get(name) {
            return s.clone();
        }
        let s: Arc<str> = Arc::from(name);
        m.insert(name.to_owned(), s.clone());
        s
    }

    /// The label value for a tool name: itself while under the cap, else [`OTHER_TOOL`].
    fn tool_label(&self, g: &mut Gauges, tool: &str) -> Arc<str> {
        if let Some(t) = g.tool_labels.get(tool) {
            return t.clone();
        }
        if g.tool_labels.len() >= self.max_tool_labels {
            return Arc::from(OTHER_TOOL);
        }
        let t: Arc<str> = Arc::from(tool);
        g.tool_labels.insert(t.clone());
        t
    }

    /// Sets a tool's gauge; returns the previous point when the score, tier, judge or
    /// provisional flag changed (the caller logs it), `None` when new or unchanged.
    pub fn tool_scored(&self, server: &str, tool: &str, point: ToolPoint) -> Option<ToolPoint> {
        let server = self.server(server);
        let Ok(mut g) = self.gauges.lock() else { return None };
        let label = self.tool_label(&mut g, tool);
        // Tools sharing the overflow label would "change" every time another one is scored.
        let shared = &*label == OTHER_TOOL;
        match g.tools.insert((server, label), point.clone()) {
            Some(old) if old != point && !shared => Some(old),
            _ => None,
        }
    }

    /// The current point of a tool, if it has one.
    pub fn tool_point(&self, server: &str, tool: &str) -> Option<ToolPoint> {
        let g = self.gauges.lock().ok()?;
        let label = g.tool_labels.get(tool).cloned().unwrap_or_else(|| Arc::from(OTHER_TOOL));
        g.tools.get(&(self.server(server), label)).cloned()
    }

    /// Sets a server-level component (`description_quality`, `coherence`, `overall`); `None`
    /// removes it (the report has no such score).
    pub fn server_scored(&self, server: &str, component: &'static str, score: Option<f64>) {
        let server = self.server(server);
        let Ok(mut g) = self.gauges.lock() else { return };
        match score {
            Some(v) => g.servers.insert((server, component), v),
            None => g.servers.remove(&(server, component)),
        };
    }

    /// Where `mcp.gateway.sessions` reads its counts.
    pub fn set_session_source(&self, source: SessionSource) {
        if let Ok(mut g) = self.gauges.lock() {
            g.sessions = Some(source);
        }
    }

    /// One `tools/list` answer: `listed` tools came in, `hidden` (one reason per removed tool,
    /// from the policy's fixed set) were taken out.
    pub fn list_answered<'r>(&self, server: &str, listed: usize, hidden: impl IntoIterator<Item = &'r str>) {
        let server = self.server(server);
        self.tools_listed.add(listed as u64, &[KeyValue::new("server", server.clone())]);
        let mut counts: Vec<(&str, u64)> = Vec::new();
        for reason in hidden {
            match counts.iter_mut().find(|(r, _)| *r == reason) {
                Some((_, n)) => *n += 1,
                None => counts.push((reason, 1)),
            }
        }
        for (reason, n) in counts {
            self.tools_hidden
                .add(n, &[KeyValue::new("server", server.clone()), KeyValue::new("reason", reason.to_owned())]);
        }
    }

    /// A blocked call, labelled with the identity rule that decided it when one did (a rule's
    /// name: a bounded label set by the config, never the caller). `reason` is one of the
    /// policy's fixed set.
    pub fn call_blocked(&self, server: &str, reason: &'static str, rule: Option<&str>) {
        let mut labels = vec![KeyValue::new("server", self.server(server)), KeyValue::new("reason", reason)];
        if let Some(rule) = rule {
            labels.push(KeyValue::new("rule", rule.to_owned()));
        }
        self.calls_blocked.add(1, &labels);
    }

    /// An answer that could not be inspected; `reason` is one of a fixed set
    /// (the proxy's reasons for passing an answer unread).
    pub fn answer_uninspected(&self, server: &str, reason: &'static str) {
        self.answers_uninspected
            .add(1, &[KeyValue::new("server", self.server(server)), KeyValue::new("reason", reason)]);
    }

    /// A client message the gateway could not read; `action` is `refused` or `passed`.
    pub fn message_unreadable(&self, server: &str, action: &'static str) {
        self.messages_unreadable
            .add(1, &[KeyValue::new("server", self.server(server)), KeyValue::new("action", action)]);
    }

    /// One finding of the threat analysis (`kind` and `severity` come from the engine's fixed
    /// sets, so the labels stay bounded).
    pub fn threat_found(&self, server: &str, kind: &str, severity: &'static str) {
        let kind = self.server(kind);
        self.threats_found.add(
            1,
            &[
                KeyValue::new("server", self.server(server)),
                KeyValue::new("kind", kind),
                KeyValue::new("severity", severity),
            ],
        );
    }

    pub fn definition_changed(&self, server: &str) {
        self.definitions_changed.add(1, &[KeyValue::new("server", self.server(server))]);
    }

    pub fn cache_lookup(&self, result: CacheResult) {
        self.cache_lookups.add(1, &[KeyValue::new("result", result.as_str())]);
    }

    /// One judge call; `error` is the kind of failure (a bounded name), `None` on success.
    pub fn judge_call(&self, judge: &str, took: Duration, error: Option<&'static str>) {
        let judge = self.server(judge); // judge identities come from the config: bounded
        let outcome = if error.is_some() { "error" } else { "ok" };
        self.judge_duration
            .record(took.as_secs_f64(), &[KeyValue::new("judge", judge.clone()), KeyValue::new("outcome", outcome)]);
        if let Some(kind) = error {
            self.judge_errors.add(1, &[KeyValue::new("judge", judge), KeyValue::new("error", kind)]);
        }
    }

    /// An upstream's name as the label of every request to it: kept for the life of the process
    /// (the names come from the config: bounded), and found in a list of the calling thread's
    /// own. With `server`'s shared lock and a shared `Arc`, two serving threads took each
    /// other's cache lines on every request (`benches/PROFILE.md`, session 27).
    pub fn request_label(&self, name: &str) -> &'static str {
        let known = REQUEST_LABELS.with(|l| l.borrow().iter().copied().find(|l| *l == name));
        known.unwrap_or_else(|| {
            let label = {
                let mut all = self.request_labels.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                match all.iter().copied().find(|l| *l == name) {
                    Some(l) => l,
                    None => {
                        let l: &'static str = Box::leak(name.into());
                        all.push(l);
                        l
                    }
                }
            };
            REQUEST_LABELS.with(|l| l.borrow_mut().push(label));
            label
        })
    }

    /// One client request to an upstream (`server` from [`Metrics::request_label`]), `method`
    /// from [`method_label`].
    pub fn request(&self, server: &'static str, method: &'static str, took: Duration) {
        self.request_duration
            .record(took.as_secs_f64(), &[KeyValue::new("server", server), KeyValue::new("method", method)]);
    }
}

/// MCP methods a label may name; anything else is `other`.
const METHODS: [&str; 30] = [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "sampling/createMessage",
    "elicitation/create",
    "roots/list",
    "subscriptions/listen",
    "tasks/get",
    "tasks/list",
    "tasks/result",
    "tasks/cancel",
    "notifications/initialized",
    "notifications/cancelled",
    "notifications/progress",
    "notifications/message",
    "notifications/roots/list_changed",
    "notifications/tools/list_changed",
    "notifications/resources/updated",
    "notifications/resources/list_changed",
    "notifications/prompts/list_changed",
];

/// A bounded label for a JSON-RPC method from the wire.
pub fn method_label(method: &str) -> &'static str {
    METHODS.iter().find(|m| **m == method).copied().unwrap_or("other")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(tdqs: f64, tier: &'static str) -> ToolPoint {
        ToolPoint { tdqs, tier, judge: Arc::from("heuristic-1"), provisional: false }
    }

    #[test]
    fn tool_labels_are_capped_and_changes_reported() {
        let provider = opentelemetry_sdk::metrics::SdkMeterProvider::builder().build();
        let m = Metrics::new(&opentelemetry::metrics::MeterProvider::meter(&provider, "test"), 2);
        assert_eq!(m.tool_scored("s", "a", point(4.0, "A")), None);
        assert_eq!(m.tool_scored("s", "a", point(4.0, "A")), None, "unchanged is not a change");
        assert_eq!(m.tool_scored("s", "a", point(2.0, "C")), Some(point(4.0, "A")));
        m.tool_scored("s", "b", point(3.0, "B"));
        m.tool_scored("s", "c", point(1.0, "D"));
        m.tool_scored("s", "d", point(1.5, "D"));
        let g = m.gauges.lock().unwrap();
        let mut labels: Vec<&str> = g.tools.keys().map(|(_, t)| &**t).collect();
        labels.sort();
        assert_eq!(labels, ["_other", "a", "b"], "past the cap, tools share one label");
    }

    #[test]
    fn methods_are_bounded() {
        assert_eq!(method_label("tools/call"), "tools/call");
        assert_eq!(method_label("tools/call\u{0}x"), "other");
        assert_eq!(method_label(&"x".repeat(10_000)), "other");
    }
}
