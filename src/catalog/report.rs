//! The server report: description quality, coherence and overall for everything an upstream
//! has listed, rebuilt in the background when its set of definitions changes.

use super::*;

/// Description quality, coherence and overall for everything this upstream has listed: the
/// same report `tdqs-gateway score` writes.
#[derive(Clone, Debug)]
pub struct ServerReport {
    /// Identifies the set of definitions (and score states) the report is about.
    pub definitions_key: u64,
    pub report: ScoreReport,
    pub coherence_judge: String,
}

/// Rolls up the scored tools with the coherence of the set (the configured judge's, the
/// heuristic's when it fails) into the report `score` would write.
pub(super) async fn build_report(
    server: &str,
    key: u64,
    tools: Vec<(ToolDefinition, Option<Arc<crate::tdqs::tool_score::ToolScore>>)>,
    scoring: &Arc<ScoringService>,
) -> ServerReport {
    let scores: Vec<crate::tdqs::tool_score::ToolScore> =
        tools.iter().filter_map(|(_, s)| s.as_ref().map(|s| (**s).clone())).collect();
    let definitions: Vec<ToolDefinition> = tools.into_iter().map(|(d, _)| d).collect();
    let coherence = scoring.coherence(server, &definitions).await;
    let (_, candidates) = crate::tdqs::prompt::coherence_inputs(&definitions);
    let report = crate::scoring::pipeline::assemble_report(
        server,
        definitions.len(),
        scores,
        &coherence.judgement,
        &candidates,
        scoring.judge(),
        humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string(),
    );
    ServerReport { definitions_key: key, report, coherence_judge: coherence.judge }
}

/// A server report to build (a model may be asked for the coherence): the definitions it is
/// about and where it goes once built.
pub struct ReportJob {
    pub upstream: String,
    key: u64,
    tools: Vec<(ToolDefinition, Option<Arc<crate::tdqs::tool_score::ToolScore>>)>,
    threats: serde_json::Value,
    slot: Arc<Mutex<Option<Arc<ServerReport>>>>,
}

impl std::fmt::Debug for ReportJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReportJob").field("upstream", &self.upstream).field("tools", &self.tools.len()).finish()
    }
}

impl ReportJob {
    /// Builds the report, stores it (with the threat findings beside it) and makes it the
    /// upstream's current one; returns it for the caller to record.
    pub async fn run(self, scoring: &Arc<ScoringService>) -> Arc<ServerReport> {
        let report = Arc::new(build_report(&self.upstream, self.key, self.tools, scoring).await);
        if let Ok(mut json) = serde_json::to_value(&report.report) {
            if let Some(obj) = json.as_object_mut() {
                obj.insert("threats".to_owned(), self.threats);
            }
            scoring.store_server_report(&self.upstream, json);
        }
        *self.slot.lock() = Some(report.clone());
        report
    }
}

impl UpstreamTools {
    /// The latest server report, once one was built.
    pub fn report(&self) -> Option<Arc<ServerReport>> {
        self.report.lock().clone()
    }

    /// The server report to build, when the set of listed definitions is not the one the
    /// current report is about; the edge runs it in the background ([`ReportJob::run`]).
    pub(super) fn report_due(&self) -> Option<ReportJob> {
        if self.rule.is_some() {
            // The report does not depend on the policy: the upstream's own view builds it.
            return None;
        }
        let (key, tools) = {
            let map = self.tools.lock();
            let mut entries: Vec<(&String, &ToolState)> = map.iter().filter(|(_, s)| s.definition.is_some()).collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let mut h = xxhash_rust::xxh3::Xxh3::new();
            for (name, s) in &entries {
                h.update(name.as_bytes());
                if let Some(sc) = &s.scored {
                    h.update(sc.score.context_signals.input_hash.as_bytes());
                    h.update(&[u8::from(sc.provisional())]);
                }
            }
            let tools: Vec<(ToolDefinition, Option<Arc<crate::tdqs::tool_score::ToolScore>>)> = entries
                .iter()
                .filter_map(|(_, s)| Some((s.definition.clone()?, s.scored.as_ref().map(|sc| sc.score.clone()))))
                .collect();
            (h.digest(), tools)
        };
        if self.report().is_some_and(|r| r.definitions_key == key) || tools.is_empty() {
            return None;
        }
        // Kept with the stored report, so the findings outlive a restart beside it.
        let threats = self.threats_json();
        Some(ReportJob { upstream: self.name.clone(), key, tools, threats, slot: self.report.clone() })
    }

    /// Threat findings as the report shows them, shaped like `tdqs-gateway scan`'s:
    /// `{"tools": [{"name", "inputHash", "threats"}], "server": {"threats", "instructionsRemoved"}}`.
    pub fn threats_json(&self) -> serde_json::Value {
        let tools: Vec<serde_json::Value> = self
            .snapshot()
            .into_iter()
            .map(|v| {
                json!({
                    "name": v.name,
                    "inputHash": v.score.as_ref().map(|s| s.context_signals.input_hash.clone()),
                    "threats": v.threats,
                })
            })
            .collect();
        let (server, removed) = self.instructions_threats().unwrap_or_default();
        json!({ "tools": tools, "server": { "threats": server, "instructionsRemoved": removed } })
    }
}
