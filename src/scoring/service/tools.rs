//! One tool's score: from memory, the heuristic on the spot, or one background judgement per
//! key (once across a fleet), and a re-score an operator asks for.

use super::*;

impl ScoringService {
    /// Scores without waiting: a cached or heuristic answer now, a model call in the background.
    pub fn score(self: &Arc<Self>, upstream: &str, tool: &ToolDefinition, siblings: &Siblings) -> Scored {
        let prepared = Prepared::of(tool);
        let key = self.key(&prepared.signals);
        if let Some(s) = self.finals.get(&key) {
            crate::telemetry::metrics().cache_lookup(CacheResult::Hit);
            return final_scored(s, &key.judge, CacheResult::Hit);
        }
        crate::telemetry::metrics().cache_lookup(CacheResult::Miss);
        let heuristic = self.heuristic(tool, &prepared, siblings);
        if matches!(self.judge, Judge::Heuristic) || prepared.gate == Gate::NoDescription {
            // Nothing to wait for: the heuristic is the judge, or no judge is needed.
            self.keep(key.clone(), heuristic.clone());
            return final_scored(heuristic, &key.judge, CacheResult::Miss);
        }
        let state = if self.failed.contains_key(&key) {
            ScoreState::JudgeFailed(heuristic.tdqs)
        } else {
            self.start(upstream, key, tool, siblings, prepared);
            ScoreState::Provisional(heuristic.tdqs)
        };
        Scored { score: heuristic, state, judge: heuristic::HEURISTIC_JUDGE_ID.to_owned(), cache: CacheResult::Miss }
    }

    /// Like [`score`](Self::score), but waits up to `wait` for a pending model answer.
    pub async fn score_waiting(
        self: &Arc<Self>,
        upstream: &str,
        tool: &ToolDefinition,
        siblings: &Siblings,
        wait: Duration,
    ) -> Scored {
        let first = self.score(upstream, tool, siblings);
        if !matches!(first.state, ScoreState::Provisional(_)) {
            return first;
        }
        let key = self.key(&first.score.context_signals);
        let notify = self.in_flight.lock().ok().and_then(|m| m.get(&key).cloned());
        if let Some(n) = notify {
            let notified = n.notified();
            if !self.finals.contains_key(&key) && !self.failed.contains_key(&key) {
                let _ = tokio::time::timeout(wait, notified).await;
            }
        }
        self.score(upstream, tool, siblings)
    }

    pub(super) fn heuristic(&self, tool: &ToolDefinition, prepared: &Prepared, siblings: &Siblings) -> Arc<ToolScore> {
        let hash = &prepared.signals.input_hash;
        if let Some(s) = self.heuristics.get(hash) {
            return s;
        }
        let score = Arc::new(prepared.unjudged(&tool.name).unwrap_or_else(|| {
            let reading = heuristic::judge_tool_in(tool, &prepared.signals, &siblings.index(), siblings.own());
            prepared.finish(&tool.name, &reading)
        }));
        self.heuristics.insert(hash.clone(), score.clone());
        score
    }

    /// Starts one background judgement per key; later callers find it in flight.
    pub(super) fn start(
        self: &Arc<Self>,
        upstream: &str,
        key: ScoreKey,
        tool: &ToolDefinition,
        siblings: &Siblings,
        prepared: Prepared,
    ) {
        let notify = Arc::new(Notify::new());
        {
            let Ok(mut map) = self.in_flight.lock() else { return };
            // Also what a judgement that ended since the caller looked left: a background
            // task stores its answer before it leaves this map, so under the lock an absent
            // key with an answer stored means it is already judged (without this, a caller
            // that read the cache just before the answer landed judged the tool a second time).
            if map.contains_key(&key) || self.finals.contains_key(&key) || self.failed.contains_key(&key) {
                return;
            }
            map.insert(key.clone(), notify.clone());
        }
        let (svc, upstream, tool, siblings) =
            (self.clone(), Arc::<str>::from(upstream), tool.clone(), siblings.clone());
        tokio::spawn(async move {
            let judge = async {
                // The names are written out only while one of the judge's slots is held, so
                // a big list's pending judgements do not each hold a copy of the list.
                let _slot = svc.sibling_slots.acquire().await;
                let name = tool.name.to_string_lossy();
                let names = siblings.to_vec();
                let call = svc.judge.score_tool(&tool, &prepared, &names);
                let score = crate::scoring::timed::timed(&svc.judge, "judge tool", Some(&name), call).await?;
                serde_json::to_value(&score).map_err(|e| crate::judge::JudgeError::Setup(e.to_string()))
            };
            let outcome = match &svc.fleet {
                // Once across the fleet: the store may hold it (a restart, another replica),
                // or another replica may be judging it right now.
                Some(fleet) => {
                    let (lookup_key, save_key) = (Self::stored_key(&key), Self::stored_key(&key));
                    let claim = format!(
                        "tool:{}:{}:{}:{}",
                        key.input_hash, key.spec_version, key.judge, save_key.prompts_sha256
                    );
                    fleet
                        .once(
                            &claim,
                            Arc::new(move |s: &dyn Store| s.get_score(&lookup_key)),
                            judge,
                            Box::new(move |s: &dyn Store, v: &serde_json::Value| {
                                s.put_scores(&[(save_key, v.clone())])
                            }),
                        )
                        .await
                }
                None => judge.await.map(Obtained::Judged).map_err(OnceError::from),
            };
            if matches!(outcome, Ok(Obtained::Stored(_))) {
                crate::telemetry::metrics().cache_lookup(CacheResult::Store);
            }
            match outcome {
                Ok(Obtained::Stored(v) | Obtained::Judged(v)) => match serde_json::from_value::<ToolScore>(v) {
                    Ok(score) => {
                        svc.finals.insert(key.clone(), Arc::new(score));
                    }
                    Err(e) => tracing::warn!(hash = %key.input_hash, error = %e, "a stored score does not read back"),
                },
                Err(OnceError::StillClaimed) => {
                    tracing::info!(upstream = %upstream, tool = %tool.name, "another gateway is still judging this tool");
                }
                Err(OnceError::Judge(e)) => {
                    tracing::warn!(name: "tdqs.judge_failed", upstream = %upstream, tool = %tool.name, judge = %key.judge, error = %e, "judge failed; the heuristic score stands in");
                    svc.failed.insert(key.clone(), ());
                }
            }
            svc.finish(&key, &notify, upstream);
        });
    }

    /// Judges `tool` again now with the configured judge, replacing the stored score (an
    /// operator asked). Waits for the answer; listeners hear about the change.
    pub async fn rescore(
        self: &Arc<Self>,
        upstream: &str,
        tool: &ToolDefinition,
        siblings: &Siblings,
    ) -> Result<Scored, crate::judge::JudgeError> {
        let prepared = Prepared::of(tool);
        let key = self.key(&prepared.signals);
        let score = match prepared.unjudged(&tool.name) {
            Some(score) => score,
            None => {
                let name = tool.name.to_string_lossy();
                let names = siblings.to_vec();
                let call = self.judge.score_tool(tool, &prepared, &names);
                crate::scoring::timed::timed(&self.judge, "judge tool", Some(&name), call).await?
            }
        };
        let score = Arc::new(score);
        self.failed.invalidate(&key);
        self.keep(key.clone(), score.clone());
        self.generation.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        let _ = self.changes.send(Arc::from(upstream));
        Ok(final_scored(score, &key.judge, CacheResult::Miss))
    }

    /// A background judgement is over: wake waiters, tell listeners.
    pub(super) fn finish(&self, key: &ScoreKey, notify: &Notify, upstream: Arc<str>) {
        self.generation.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        if let Ok(mut map) = self.in_flight.lock() {
            map.remove(key);
        }
        notify.notify_waiters();
        let _ = self.changes.send(upstream);
    }
}

fn final_scored(score: Arc<ToolScore>, judge: &str, cache: CacheResult) -> Scored {
    Scored { state: ScoreState::Final(score.tdqs), score, judge: judge.to_owned(), cache }
}
