//! The tool table as the admin API shows it, and the operator's actions on it (re-score, the
//! audit of a caller's list).

use super::*;

/// One listed tool as the admin API shows it.
#[derive(Clone, Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolView {
    pub name: String,
    pub visible: bool,
    /// Why it is hidden (or, in a dry run, would be).
    pub hide_reason: Option<HideReason>,
    /// `final`, `provisional`, `judge_failed` or `unscorable`.
    pub state: &'static str,
    /// The judge whose score this is.
    pub judge: Option<String>,
    pub pin: Option<PinStatus>,
    /// The report entry (scores, justifications, flags, smells, signals).
    pub score: Option<Arc<crate::tdqs::tool_score::ToolScore>>,
    /// The definition as listed (JSON), when it could be parsed.
    pub definition: Option<serde_json::Value>,
    /// Threat findings: the definition's own and those against other upstreams' tools.
    pub threats: Vec<Finding>,
}

impl UpstreamTools {
    /// Every listed tool with its score and the policy's decision, in name order.
    pub fn snapshot(&self) -> Vec<ToolView> {
        let map = self.tools.lock();
        let mut views: Vec<ToolView> = map
            .iter()
            .map(|(name, s)| ToolView {
                name: name.clone(),
                visible: s.decision.visible,
                hide_reason: s.decision.hide_reason,
                state: match s.scored.as_ref().map(|sc| sc.state) {
                    Some(ScoreState::Final(_)) => "final",
                    Some(ScoreState::Provisional(_)) => "provisional",
                    Some(ScoreState::JudgeFailed(_)) => "judge_failed",
                    Some(ScoreState::Unscorable) | None => "unscorable",
                },
                judge: s.scored.as_ref().map(|sc| sc.judge.clone()),
                pin: s.pin,
                score: s.scored.as_ref().map(|sc| sc.score.clone()),
                definition: serde_json::from_str(&s.raw).ok(),
                threats: s.findings().cloned().collect(),
            })
            .collect();
        views.sort_by(|a, b| a.name.cmp(&b.name));
        views
    }

    /// Judges the named tool (or every listed tool) again now; the new scores replace the old
    /// ones and the decisions follow. Says how many tools were judged, what changed, and the
    /// server report to rebuild.
    pub async fn rescore(&self, scoring: &Arc<ScoringService>, tool: Option<&str>) -> Result<Rescored, String> {
        let targets: Vec<(ToolDefinition, Siblings)> = {
            let map = self.tools.lock();
            map.iter()
                .filter(|(name, _)| tool.is_none_or(|t| t == name.as_str()))
                .filter_map(|(_, s)| Some((s.definition.clone()?, s.siblings.clone())))
                .collect()
        };
        if let Some(t) = tool
            && targets.is_empty()
        {
            return Err(format!("upstream {:?} has listed no scorable tool named {t:?}", self.name));
        }
        if tool.is_none() {
            scoring.forget_coherence();
            *self.report.lock() = None;
        }
        for (def, siblings) in &targets {
            scoring.rescore(&self.name, def, siblings).await.map_err(|e| e.to_string())?;
        }
        let refreshed = self.refresh(scoring);
        Ok(Rescored { judged: targets.len(), refreshed, report: self.report_due() })
    }

    /// The most recent refused calls, newest last.
    pub fn refused_calls(&self) -> Vec<RefusedCall> {
        self.refusals.lock().iter().cloned().collect()
    }

    /// The current definition hash of each listed tool (all, or the one named).
    pub fn current_hashes(&self, tool: Option<&str>) -> Vec<(String, String)> {
        let map = self.tools.lock();
        let mut out: Vec<(String, String)> = map
            .iter()
            .filter(|(name, _)| tool.is_none_or(|t| t == name.as_str()))
            .filter_map(|(name, s)| Some((name.clone(), s.scored.as_ref()?.score.context_signals.input_hash.clone())))
            .collect();
        out.sort();
        out
    }

    /// The audit line of a list answered for an identity: who, under which rule, and which
    /// tools it does not get to see.
    pub fn audit_list(&self, p: &crate::auth::Principal) {
        let hidden = self.hidden_tools();
        if !hidden.is_empty() {
            tracing::info!(
                name: "tdqs.list_filtered",
                upstream = %self.name,
                rule = self.rule.as_deref(),
                subject = %p.subject,
                client_id = p.client_id.as_deref(),
                issuer = %p.issuer,
                hidden = ?hidden,
                "tools hidden from this caller"
            );
        }
    }
}
