//! A server's coherence: kept by server name and the set of definitions, judged once per key
//! (once across a fleet), the heuristic's when the model fails.

use super::*;

/// A coherence answer and the identity of the judge that gave it.
#[derive(Clone, Debug)]
pub struct Coherence {
    pub judgement: Arc<CoherenceJudgement>,
    pub judge: String,
}

impl ScoringService {
    /// Forgets the coherence answers kept in memory, so the next report judges the set again
    /// (an operator asked for a re-score of a server).
    pub fn forget_coherence(&self) {
        self.coherence.invalidate_all();
        self.coherence_failed.invalidate_all();
    }
}

impl ScoringService {
    /// The coherence of a set of definitions: from memory, the store, or one judge call (one
    /// per key across a fleet); the heuristic's when the model fails (retried after a while).
    pub async fn coherence(&self, server: &str, definitions: &[ToolDefinition]) -> Coherence {
        let (costed, candidates) = coherence_inputs(definitions);
        let heuristic = || Coherence {
            judgement: Arc::new(heuristic::judge_coherence(server, &costed, &candidates)),
            judge: heuristic::HEURISTIC_JUDGE_ID.to_owned(),
        };
        if matches!(self.judge, Judge::Heuristic) {
            return heuristic();
        }
        let key = self.coherence_key(server, definitions);
        if let Some(c) = self.coherence.get(&key) {
            return c;
        }
        if self.coherence_failed.contains_key(&key) {
            return heuristic();
        }
        let lock = {
            let mut locks = self.coherence_locks.lock().unwrap_or_else(|e| e.into_inner());
            locks.entry(key.clone()).or_default().clone()
        };
        let _turn = lock.lock().await;
        if let Some(c) = self.coherence.get(&key) {
            return c;
        }
        if self.coherence_failed.contains_key(&key) {
            return heuristic();
        }
        let judge = async {
            let call = self.judge.judge_coherence(server, &costed, &candidates);
            let c = crate::scoring::timed::timed(&self.judge, "judge coherence", None, call).await?;
            Ok(c.to_answer())
        };
        let outcome = match &self.fleet {
            Some(fleet) => {
                let (k1, k2, srv) = (key.clone(), key.clone(), server.to_owned());
                fleet
                    .once(
                        &format!("coherence:{key}"),
                        Arc::new(move |s: &dyn Store| s.get_coherence(&k1)),
                        judge,
                        Box::new(move |s: &dyn Store, v: &serde_json::Value| s.put_coherence(&k2, &srv, v)),
                    )
                    .await
            }
            None => judge.await.map(Obtained::Judged).map_err(OnceError::from),
        };
        let result = match outcome {
            Ok(Obtained::Stored(v) | Obtained::Judged(v)) => match parse_coherence_answer(&v.to_string()) {
                Ok(j) => {
                    let c = Coherence { judgement: Arc::new(j), judge: self.judge.identity() };
                    self.coherence.insert(key.clone(), c.clone());
                    c
                }
                Err(e) => {
                    tracing::warn!(upstream = server, error = %e, "a stored coherence answer does not read back");
                    heuristic()
                }
            },
            Err(OnceError::StillClaimed) => heuristic(),
            Err(OnceError::Judge(e)) => {
                tracing::warn!(name: "tdqs.judge_failed", upstream = server, judge = %self.judge.identity(), error = %e, "coherence judge failed; the heuristic stands in");
                self.coherence_failed.insert(key.clone(), ());
                heuristic()
            }
        };
        self.coherence_locks.lock().unwrap_or_else(|e| e.into_inner()).remove(&key);
        result
    }

    /// Server name, the sorted definition hashes, the rubric, the judge and its prompt.
    pub(super) fn coherence_key(&self, server: &str, definitions: &[ToolDefinition]) -> String {
        use sha2::Digest;
        let mut hashes: Vec<String> = definitions.iter().map(|d| context_signals(d).input_hash).collect();
        hashes.sort();
        let mut h = sha2::Sha256::new();
        for part in [server, SPEC_VERSION, &self.judge.identity()] {
            h.update(part.as_bytes());
            h.update([0]);
        }
        if let Some(p) = self.judge.prompts() {
            h.update(p.coherence_sha256.as_bytes());
        }
        for hash in &hashes {
            h.update([0]);
            h.update(hash.as_bytes());
        }
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }
}
