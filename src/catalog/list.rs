//! The list path: a `tools/list` answer in, the answer to send out and what it carried
//! ([`ListVerdicts`]) out. Each tool is parsed, scored and decided; the table keeps the
//! decisions; the result is rendered (annotated, or with hidden tools removed) and
//! remembered. Telemetry is not written here: the caller records it from the verdicts.

use super::*;

/// `ttlMs` ceiling on a 2026-07-28 list while any score in it is provisional.
pub(super) const PROVISIONAL_TTL_MS: u64 = 5_000;

pub(super) fn action(state: &ToolState) -> ToolAction {
    if !state.decision.visible {
        return ToolAction::Drop;
    }
    match (&state.scored, state.decision.annotate) {
        (Some(s), true) => {
            let mut meta = score_meta(s, state.pin);
            // Only when there are findings: a clean tool's annotation is what it always was.
            let findings: Vec<&Finding> = state.findings().collect();
            if !findings.is_empty()
                && let Some(obj) = meta.as_object_mut()
            {
                obj.insert("threats".to_owned(), summary(&findings));
            }
            ToolAction::Annotate(meta)
        }
        _ => ToolAction::Keep,
    }
}

/// The object written under `_meta["tdqs-gateway/score"]`; pinned tools also say whether
/// their definition is the approved one.
pub fn score_meta(s: &Scored, pin: Option<PinStatus>) -> serde_json::Value {
    let t = &s.score;
    let mut meta = json!({
        "tdqs": t.tdqs,
        "tier": t.tier,
        "flags": t.flags,
        "serverFlags": t.server_flags,
        "smells": t.smells,
        "inputHash": t.context_signals.input_hash,
        "judge": s.judge,
        "specVersion": SPEC_VERSION,
        "provisional": s.provisional(),
    });
    if let (Some(pin), Some(obj)) = (pin, meta.as_object_mut()) {
        obj.insert("pin".to_owned(), json!(pin));
    }
    meta
}

/// The identity of a definition the engine could not read: a hash of its listed text.
pub(super) fn raw_hash(raw: &str) -> String {
    format!("raw-{:016x}", xxhash_rust::xxh3::xxh3_64(raw.as_bytes()))
}

pub(super) fn raw_name(raw: &str) -> Option<String> {
    serde_json::from_str::<serde_json::Value>(raw).ok()?.get("name")?.as_str().map(str::to_owned)
}

pub(super) fn log_decision(
    upstream: &str,
    rule: Option<&str>,
    tool: &str,
    scored: &Scored,
    d: &Decision,
    pin: Option<PinStatus>,
) {
    if pin == Some(PinStatus::Changed) {
        tracing::warn!(
            upstream,
            tool,
            hash = %scored.score.context_signals.input_hash,
            hidden = !d.visible,
            "pinned tool definition changed; approve it with `tdqs-gateway approve`"
        );
    }
    if let Some(reason) = d.hide_reason {
        tracing::info!(
            name: "tdqs.tool_hidden",
            upstream,
            rule,
            tool,
            tdqs = %scored.score.tdqs,
            tier = %scored.score.tier,
            reason = reason.as_str(),
            hidden = !d.visible,
            judge = %scored.judge,
            provisional = scored.provisional(),
            "tool hidden by policy"
        );
    } else {
        tracing::debug!(upstream, tool, tdqs = %scored.score.tdqs, provisional = scored.provisional(), "tool scored");
    }
}

impl UpstreamTools {
    /// Scores every tool of a list response and applies the policy: the catalogue on its own,
    /// as its tests and the benches use it (nothing is recorded, no report is built). Returns
    /// the bytes to send on, or `None` to forward the original bytes (nothing to change, or
    /// not a list result).
    pub async fn rewrite_list(&self, scoring: &Arc<ScoringService>, bytes: &[u8]) -> Option<Vec<u8>> {
        let (out, _) = self.inspect_answer(scoring, bytes, |_| true).await?;
        out.map(|out| out.to_vec())
    }

    /// Reads an answer whose id (its JSON text) `wanted` accepts, telling a list answer left
    /// as it was (`Some((None, _))`) from a message that is not a list answer (`None`; any
    /// other message costs a read of its envelope). Records nothing: next to the answer comes
    /// what a list answer carried, for the edge to record (`proxy::exchange::record`); `None`
    /// there when no list was answered (a server's instructions rewritten). The new answer is
    /// pieces of `bytes` around shared text (see [`Spliced`]), not yet one buffer.
    pub async fn inspect_answer<'a>(
        &self,
        scoring: &Arc<ScoringService>,
        bytes: &'a [u8],
        wanted: impl Fn(&str) -> bool,
    ) -> Option<(Option<Spliced<'a>>, Option<ListVerdicts>)> {
        let generation = (scoring.generation(), self.roster.generation());
        let mut hit = None;
        let Some(list) = ListResult::parse_with(bytes, &wanted, |from_tools| {
            let found = self.remembered(from_tools, generation)?;
            let len = found.original.len();
            hit = Some(found);
            Some(len)
        }) else {
            return self.rewrite_instructions(scoring, bytes, &wanted).map(|out| (Some(Spliced::from(out)), None));
        };
        if list.has_next_page() {
            self.paginated.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        let whole_list = !list.has_next_page() && !self.paginated.load(std::sync::atomic::Ordering::Relaxed);
        // A whole list other than the last one seen changes which tools exist: the full path.
        let last_whole = self.last_whole.load(std::sync::atomic::Ordering::Relaxed);
        if let Some(r) = hit.filter(|r| !whole_list || r.hash == last_whole) {
            let verdicts = ListVerdicts {
                listed: r.names.len(),
                hidden: r.hidden.clone(),
                scorings: Vec::new(),
                too_long: None,
                report: None,
            };
            if !whole_list {
                self.touch(&r.names);
            }
            let private = self.private_lists && list.shared_scope();
            let out = match &r.output {
                Some(tools) => Some(list.with_tools_scoped(Some(tools), r.ttl_cap, private)),
                None if private => Some(list.with_tools_scoped(None, r.ttl_cap, true)),
                None => None,
            };
            return Some((out, Some(verdicts)));
        }
        if list.tools().len() > self.max_list_tools {
            use crate::policy::uninspected::{Reason, error_for, fails_closed};
            let refused = fails_closed(&self.policy);
            let out = refused.then(|| Spliced::from(error_for(list.id_text(), &self.name, Reason::TooManyTools)));
            let verdicts = ListVerdicts {
                listed: list.tools().len(),
                hidden: Arc::from([]),
                scorings: Vec::new(),
                too_long: Some(refused),
                report: None,
            };
            return Some((out, Some(verdicts)));
        }
        let (out, verdicts) = self.render_list(scoring, generation, whole_list, list).await;
        Some((out, Some(verdicts)))
    }

    /// A list not seen before, or seen before the scores last changed, in its phases: parse
    /// the tools, evaluate each (score, threats, pin, decision), record what was decided
    /// (sightings, definition texts), keep it in the table, then render and remember the
    /// answer. Returns the answer (`None`: the list as it came) and what it carried.
    pub(super) async fn render_list<'a>(
        &self,
        scoring: &Arc<ScoringService>,
        generation: (u64, u64),
        whole_list: bool,
        list: ListResult<'a>,
    ) -> (Option<Spliced<'a>>, ListVerdicts) {
        let text = list.tools_text();
        let hash = xxhash_rust::xxh3::xxh3_64(text.as_bytes());
        let original: Arc<str> = Arc::from(text);
        let mut listed = self.evaluate(scoring, &list).await;
        self.one_verdict_per_name(&mut listed);
        self.record(scoring, &listed);
        self.others_forget(&listed);
        if !list.has_next_page() && !listed.iter().any(|l| l.state.pin == Some(PinStatus::Unverified)) {
            // The first listing is over (all its pages): later names are new.
            self.pin_stage.store(2, std::sync::atomic::Ordering::Relaxed);
        }
        let actions: Vec<ToolAction> = listed.iter().map(|l| action(&l.state)).collect();
        let provisional = listed.iter().any(|l| l.state.scored.as_ref().is_some_and(Scored::provisional));
        let hidden: Arc<[HideReason]> =
            listed.iter().filter(|l| !l.state.decision.visible).filter_map(|l| l.state.decision.hide_reason).collect();
        let scorings = listed
            .iter()
            .filter_map(|l| {
                let (scored, started) = (l.state.scored.clone()?, l.started?);
                Some(Scoring { tool: l.name.clone(), scored, started })
            })
            .collect();
        let names: Arc<[String]> = listed.iter().map(|l| l.name.clone()).collect();
        if whole_list {
            self.last_whole.store(hash, std::sync::atomic::Ordering::Relaxed);
        }
        self.keep(listed, whole_list);
        let report = self.report_due();
        let verdicts = ListVerdicts { listed: actions.len(), hidden: hidden.clone(), scorings, too_long: None, report };
        let ttl_cap = provisional.then_some(PROVISIONAL_TTL_MS);
        // Shared, not copied, into every answer that carries it.
        let output: Option<Bytes> =
            (!actions.iter().all(|a| *a == ToolAction::Keep)).then(|| Bytes::from(list.rendered_tools(&actions)));
        self.remember_rendering(
            list.from_tools(),
            Rendered { generation, original, hash, output: output.clone(), ttl_cap, names, hidden },
        );
        let private = self.private_lists && list.shared_scope();
        let out = match output {
            Some(tools) => Some(list.with_tools_scoped(Some(&tools), ttl_cap, private)),
            None if private => Some(list.with_tools_scoped(None, ttl_cap, true)),
            None => None,
        };
        (out, verdicts)
    }

    /// Sightings and (pinned upstreams) the definitions' texts for what a list's evaluation
    /// found: state the scoring service keeps. Its telemetry is the caller's, from the
    /// [`ListVerdicts`] the list path returns.
    fn record(&self, scoring: &Arc<ScoringService>, listed: &[Listed]) {
        for l in listed {
            if let (Some(scored), Some(_)) = (&l.state.scored, l.started) {
                scoring.record_sighting(&self.name, &l.name, &scored.score.context_signals.input_hash);
            }
        }
        if self.policy.pin {
            // Texts for the approval views, which compare what is held with what was approved.
            let texts: Vec<(&str, &str, &str)> = listed
                .iter()
                .filter_map(|l| {
                    Some((
                        l.name.as_str(),
                        l.state.scored.as_ref()?.score.context_signals.input_hash.as_str(),
                        &*l.state.raw,
                    ))
                })
                .collect();
            scoring.keep_definition_texts(&self.name, &texts);
        }
    }

    /// Stores a list's verdicts in the table: a whole list replaces what was there; a page
    /// adds to it. Decisions are logged when new or changed, not on every list.
    fn keep(&self, listed: Vec<Listed>, whole_list: bool) {
        let mut map = self.tools.lock();
        if whole_list {
            // What this answer does not carry, the upstream no longer has.
            let carried: std::collections::HashSet<&str> = listed.iter().map(|l| l.name.as_str()).collect();
            map.retain(|name, _| carried.contains(name.as_str()));
        } else {
            map.retain(|_, s| s.listed_at.elapsed() < UNLISTED_AFTER);
        }
        for Listed { name, state, .. } in listed {
            let before = map.get(&name).map(|s| (s.decision, s.pin));
            if before != Some((state.decision, state.pin))
                && let Some(scored) = &state.scored
            {
                log_decision(&self.name, self.rule.as_deref(), &name, scored, &state.decision, state.pin);
            }
            report_new_cross(&self.name, &name, map.get(&name).map(|s| &s.cross[..]), &state.cross);
            self.remember_approved(&name, &state);
            map.insert(name, state);
        }
        let names: Vec<(String, String)> = map.iter().map(|(n, s)| (n.clone(), s.hash())).collect();
        drop(map);
        // Another upstream's cross-server findings may depend on these names.
        if self.roster.set(&self.name, names) {
            tracing::debug!(upstream = %self.name, "tool names changed; other upstreams are decided again");
        }
    }
}
