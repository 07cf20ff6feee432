//! Server level: description quality (0.6 mean + 0.4 min over tool scores, once 80% of the
//! tools are scored), coherence (four equal dimensions), overall (70/30), all in integers.

use serde::{Deserialize, Serialize};

use super::answer::{CoherenceJudgement, Justified};
use super::json::JsString;
use super::score::{ServerFlag, Tenths, Tier, round1};
use super::shadow::{ShadowCandidate, confirmed_risks};
use super::tool_score::ToolScore;

/// Coherence justifications under the coherence dimension keys.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoherenceJustifications {
    pub disambiguation: Justified,
    pub naming_consistency: Justified,
    pub tool_count_appropriateness: Justified,
    pub completeness: Justified,
}

/// A confirmed shadowing risk with the costs that made it a candidate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShadowingRiskReport {
    pub tool: JsString,
    pub invocation_cost: u32,
    pub cheaper_sibling: JsString,
    pub cheaper_sibling_invocation_cost: u32,
    pub justification: String,
}

/// The server's scores. Absent parts are `null`: description quality before 80% of the
/// tools are scored, coherence before its judge answered, overall until both exist.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerScore {
    pub tool_count: usize,
    pub scored_tool_count: usize,
    pub mean_tdqs: Option<Tenths>,
    pub min_tdqs: Option<Tenths>,
    pub description_quality_score: Option<Tenths>,
    pub description_quality_tier: Option<Tier>,
    pub disambiguation: Option<u8>,
    pub naming_consistency: Option<u8>,
    pub tool_count_appropriateness: Option<u8>,
    pub completeness: Option<u8>,
    pub coherence_score: Option<Tenths>,
    pub coherence_tier: Option<Tier>,
    pub overall_score: Option<Tenths>,
    pub overall_tier: Option<Tier>,
    pub coherence_justifications: Option<CoherenceJustifications>,
    pub coherence_summary: Option<String>,
    pub shadowing_risks: Vec<ShadowingRiskReport>,
}

/// True when `scored` of `total` tools is at least 80%.
pub fn enough_scored(scored: usize, total: usize) -> bool {
    total > 0 && 5 * scored >= 4 * total
}

/// Description quality from tool scores in tenths: `round1(6*sum + 4*n*min, 100*n)`.
pub fn description_quality(tdqs: &[Tenths]) -> Option<Tenths> {
    let n = tdqs.len() as u64;
    let min = tdqs.iter().min()?.0 as u64;
    let sum: u64 = tdqs.iter().map(|t| t.0 as u64).sum();
    Some(round1(6 * sum + 4 * n * min, 100 * n))
}

/// Overall from the two components: `round1(7*DQ + 3*C, 100)` in tenths.
pub fn overall(dq: Tenths, coherence: Tenths) -> Tenths {
    round1(7 * dq.0 as u64 + 3 * coherence.0 as u64, 100)
}

/// Builds the server score and writes confirmed shadowing risks onto the dearer tools'
/// server flags. `tools` are the scored tools; `tool_count` counts every listed tool.
pub fn rollup(
    tool_count: usize,
    tools: &mut [ToolScore],
    coherence: Option<&CoherenceJudgement>,
    candidates: &[ShadowCandidate],
) -> ServerScore {
    let tdqs: Vec<Tenths> = tools.iter().map(|t| t.tdqs).collect();
    let n = tdqs.len() as u64;
    let dq = if enough_scored(tools.len(), tool_count) { description_quality(&tdqs) } else { None };
    let coh = coherence.map(|c| {
        let sum: u64 = c.dimensions.iter().map(|d| d.score as u64).sum();
        round1(sum, 4)
    });
    let overall_score = match (dq, coh) {
        (Some(dq), Some(c)) => Some(overall(dq, c)),
        _ => None,
    };
    let mut risks = Vec::new();
    if let Some(c) = coherence {
        for r in confirmed_risks(candidates, &c.shadowing_risks) {
            let Some(cand) = candidates.iter().find(|k| k.tool == *r.tool.as_str()) else {
                continue;
            };
            if let Some(t) = tools.iter_mut().find(|t| t.name == cand.tool)
                && !t.server_flags.contains(&ServerFlag::ShadowingRisk)
            {
                t.server_flags.push(ServerFlag::ShadowingRisk);
            }
            risks.push(ShadowingRiskReport {
                tool: cand.tool.clone(),
                invocation_cost: cand.invocation_cost,
                cheaper_sibling: cand.cheaper_sibling.clone(),
                cheaper_sibling_invocation_cost: cand.cheaper_sibling_invocation_cost,
                justification: r.justification,
            });
        }
    }
    let dim = |i: usize| coherence.map(|c| c.dimensions[i].score);
    ServerScore {
        tool_count,
        scored_tool_count: tools.len(),
        mean_tdqs: (n > 0).then(|| round1(tdqs.iter().map(|t| t.0 as u64).sum(), 10 * n)),
        min_tdqs: tdqs.iter().min().copied(),
        description_quality_score: dq,
        description_quality_tier: dq.map(Tier::of),
        disambiguation: dim(0),
        naming_consistency: dim(1),
        tool_count_appropriateness: dim(2),
        completeness: dim(3),
        coherence_score: coh,
        coherence_tier: coh.map(Tier::of),
        overall_score,
        overall_tier: overall_score.map(Tier::of),
        coherence_justifications: coherence.map(|c| {
            let [disambiguation, naming_consistency, tool_count_appropriateness, completeness] = c.dimensions.clone();
            CoherenceJustifications { disambiguation, naming_consistency, tool_count_appropriateness, completeness }
        }),
        coherence_summary: coherence.map(|c| c.summary.clone()),
        shadowing_risks: risks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_server_example() {
        // DQ 3.0 and coherence 4.5 -> 0.7*3.0 + 0.3*4.5 = 3.45 -> 3.5 (A), not 3.4.
        assert_eq!(overall(Tenths(30), Tenths(45)), Tenths(35));
        assert_eq!(Tier::of(overall(Tenths(30), Tenths(45))), Tier::A);
    }

    #[test]
    fn description_quality_in_integers() {
        // mean 2.8 (4.0, 3.4, 1.0 -> 8.4/3), min 1.0: 0.6*2.8 + 0.4*1.0 = 2.08 -> 2.1
        assert_eq!(description_quality(&[Tenths(40), Tenths(34), Tenths(10)]), Some(Tenths(21)));
        assert_eq!(description_quality(&[]), None);
        assert!(enough_scored(4, 5) && !enough_scored(3, 5) && !enough_scored(0, 0));
    }
}
