//! The evaluation phase of the list path: each tool of a `tools/list` answer parsed by the
//! engine, scored (waiting for the configured judge where the policy says so), analysed for
//! threats (its own and against the other upstreams'), checked against its pin, and decided.
//! It returns the verdicts; recording them (sightings; telemetry at the edge, from the
//! [`ListVerdicts`](super::ListVerdicts) the list path returns) and keeping them (the table)
//! are the caller's, so this phase writes nothing of the catalogue's.

use super::verdict::ListThreats;
use super::*;
use crate::policy::{Seen, decide_tool, waits_for_judge};
use crate::tdqs::threat::CleanStrings;

/// One tool's verdict from a list: the state the table will keep, and when its scoring
/// started (for the scoring span; `None` for a definition the engine could not read).
pub(super) struct Listed {
    pub(super) name: String,
    pub(super) state: ToolState,
    pub(super) started: Option<std::time::Instant>,
}

/// Parses each listed tool with the engine. A name that is not text (a lone surrogate)
/// cannot be matched to the calls that name it, so such a tool is unscorable too.
fn parse_tools(list: &ListResult<'_>) -> Vec<Option<ToolDefinition>> {
    list.tools()
        .iter()
        .enumerate()
        .map(|(i, raw)| {
            let v = js::parse(raw.get().as_bytes()).ok()?;
            tool_from_object(v.as_object()?, i + 1).ok().filter(|t| !t.name.has_lone_surrogate())
        })
        .collect()
}

impl UpstreamTools {
    pub(super) async fn evaluate(&self, scoring: &Arc<ScoringService>, list: &ListResult<'_>) -> Vec<Listed> {
        let parsed = parse_tools(list);
        // One copy of the names for the whole list; each tool's siblings share it.
        let names: Arc<[JsString]> = parsed.iter().flatten().map(|t| t.name.clone()).collect();
        let own_names = self.own_names(list.tools().iter().filter_map(|r| raw_name(r.get())));
        let others = self.roster.others(&self.name);
        let mut threat_list =
            ListThreats { names: Self::cross_names(&own_names, &others), others, clean: CleanStrings::new() };
        let hold_new = self.hold_new(scoring);
        let wait = waits_for_judge(&self.policy).then(|| std::time::Duration::from_millis(self.policy.wait_ms));
        let mut listed = Vec::with_capacity(parsed.len());
        for (i, def) in parsed.into_iter().enumerate() {
            if i % 64 == 63 {
                // A long list is scored in slices, so the runtime's threads keep serving other
                // requests and signals (SIGTERM) while it is.
                tokio::task::yield_now().await;
            }
            let raw = list.tools()[i].get();
            let Some(def) = def else {
                let name = raw_name(raw).unwrap_or_default();
                // Unscorable is not unread: what a client could still show a model is analysed.
                let analysed = serde_json::from_str::<serde_json::Value>(raw).ok().map(Arc::new);
                let (threats, cross, worst) =
                    self.all_threats(scoring, &name, &raw_hash(raw), &analysed, &mut threat_list);
                let decision = decide_tool(&self.policy, &name, Seen::unscorable(worst));
                let state = ToolState {
                    definition: None,
                    siblings: Siblings::default(),
                    scored: None,
                    pin: None,
                    decision,
                    raw: Arc::from(raw),
                    listed_at: std::time::Instant::now(),
                    analysed,
                    threats,
                    cross,
                    hidden_copy: None,
                };
                listed.push(Listed { name, state, started: None });
                continue;
            };
            let siblings = Siblings::new(names.clone(), def.name.clone());
            let started = std::time::Instant::now();
            let scored = match wait {
                Some(wait) => scoring.score_waiting(&self.name, &def, &siblings, wait).await,
                None => scoring.score(&self.name, &def, &siblings),
            };
            let name = def.name.to_string_lossy();
            let hash = &scored.score.context_signals.input_hash;
            let pin = self.policy.pin.then(|| scoring.pins().check_or_hold(&self.name, &name, hash, hold_new));
            let analysed = (self.policy.threats != ThreatAction::Off).then(|| Arc::new(definition_value(&def)));
            let (threats, cross, worst) = self.all_threats(scoring, &name, hash, &analysed, &mut threat_list);
            let decision = decide_tool(&self.policy, &name, Seen::Listed { state: scored.state, pin, threat: worst });
            let state = ToolState {
                definition: Some(def),
                siblings,
                scored: Some(scored),
                pin,
                decision,
                raw: Arc::from(raw),
                listed_at: std::time::Instant::now(),
                analysed,
                threats,
                cross,
                hidden_copy: None,
            };
            listed.push(Listed { name, state, started: Some(started) });
        }
        listed
    }

    /// A definition's own findings, its findings against the other upstreams' tools, and the
    /// worst severity among them.
    fn all_threats(
        &self,
        scoring: &Arc<ScoringService>,
        name: &str,
        hash: &str,
        analysed: &Option<Arc<serde_json::Value>>,
        list: &mut ListThreats,
    ) -> (Findings, Vec<Finding>, Option<Severity>) {
        let (threats, cross) = self.threats_of(scoring, name, hash, analysed.as_deref(), list);
        let worst = threats.iter().chain(&cross).map(|f| f.severity).max();
        (threats, cross, worst)
    }
}
