//! The shadow prefilter: pairs where a much cheaper sibling could win an agent's choice. Only
//! these pairs go to the coherence judge, and only confirmed pairs become server flags.

use serde::{Deserialize, Serialize};

use super::json::JsString;
use super::text::cmp_utf16;

/// A tool and its invocation cost, as the prefilter sees it.
#[derive(Clone, Debug)]
pub struct CostedTool<'a> {
    pub name: &'a JsString,
    pub cost: u32,
}

/// A dearer tool that a cheaper sibling may shadow.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShadowCandidate {
    pub tool: JsString,
    pub invocation_cost: u32,
    pub cheaper_sibling: JsString,
    pub cheaper_sibling_invocation_cost: u32,
}

/// A sibling qualifies when it costs at most half as much and at least 4 less. Each tool
/// keeps its dearest qualifying sibling (ties: the smaller name by UTF-16 order).
pub fn shadow_candidates(tools: &[CostedTool<'_>]) -> Vec<ShadowCandidate> {
    // A sibling qualifies for a tool of cost `c` when its cost is at most `min(c / 2, c - 4)`;
    // the dearest is then the highest cost under that bound, found by a binary search over the
    // distinct costs, each kept with its smallest name. One sort instead of a scan per tool.
    let mut sorted: Vec<&CostedTool> = tools.iter().collect();
    sorted.sort_by(|a, b| a.cost.cmp(&b.cost).then_with(|| cmp_utf16(a.name, b.name)));
    let mut by_cost: Vec<&CostedTool> = Vec::new();
    for t in sorted {
        if by_cost.last().is_none_or(|last| last.cost != t.cost) {
            by_cost.push(t);
        }
    }
    let mut out = Vec::new();
    // Both conditions hold for some sibling exactly when they hold for the cheapest one, so
    // tools the cheapest cannot shadow are skipped.
    let cheapest = tools.iter().map(|t| t.cost).min().unwrap_or(0);
    for t in tools.iter().filter(|t| 2 * cheapest <= t.cost && cheapest + 4 <= t.cost) {
        let bound = (t.cost / 2).min(t.cost - 4);
        let below = by_cost.partition_point(|s| s.cost <= bound);
        if let Some(s) = below.checked_sub(1).map(|i| by_cost[i]) {
            out.push(ShadowCandidate {
                tool: t.name.clone(),
                invocation_cost: t.cost,
                cheaper_sibling: s.name.clone(),
                cheaper_sibling_invocation_cost: s.cost,
            });
        }
    }
    out
}

/// What [`shadow_candidates`] finds, by scanning every sibling of every tool: the reference
/// it is tested against.
#[cfg(test)]
fn shadow_candidates_by_scan(tools: &[CostedTool<'_>]) -> Vec<ShadowCandidate> {
    let mut out = Vec::new();
    let cheapest = tools.iter().map(|t| t.cost).min().unwrap_or(0);
    for t in tools.iter().filter(|t| 2 * cheapest <= t.cost && cheapest + 4 <= t.cost) {
        let best = tools
            .iter()
            .filter(|s| 2 * s.cost <= t.cost && s.cost + 4 <= t.cost)
            .max_by(|a, b| a.cost.cmp(&b.cost).then_with(|| cmp_utf16(b.name, a.name)));
        if let Some(s) = best {
            out.push(ShadowCandidate {
                tool: t.name.clone(),
                invocation_cost: t.cost,
                cheaper_sibling: s.name.clone(),
                cheaper_sibling_invocation_cost: s.cost,
            });
        }
    }
    out
}

/// A shadowing risk as the coherence judge reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShadowingRisk {
    pub tool: String,
    pub cheaper_sibling: String,
    pub justification: String,
}

/// Keeps reported risks that name a supplied pair (dearer tool first), once per tool, in the
/// order reported; drops everything else.
pub fn confirmed_risks(candidates: &[ShadowCandidate], reported: &[ShadowingRisk]) -> Vec<ShadowingRisk> {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for r in reported {
        let supplied =
            candidates.iter().any(|c| c.tool == *r.tool.as_str() && c.cheaper_sibling == *r.cheaper_sibling.as_str());
        if supplied && !seen.contains(&r.tool.as_str()) {
            seen.push(&r.tool);
            out.push(r.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_finds_what_the_scan_found() {
        let pool = ["a", "b", "ab", "\u{e000}", "\u{10000}", "big", "z", "a"];
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for _ in 0..500 {
            let n = next(12) as usize;
            let names: Vec<JsString> = (0..n).map(|_| JsString::from(pool[next(pool.len() as u64) as usize])).collect();
            let tools: Vec<CostedTool> = names.iter().map(|name| CostedTool { name, cost: next(30) as u32 }).collect();
            assert_eq!(shadow_candidates(&tools), shadow_candidates_by_scan(&tools), "{tools:?}");
        }
    }

    #[test]
    fn dearest_qualifying_sibling_smallest_name_on_ties() {
        let names: Vec<JsString> = ["big", "b", "a", "mid", "tiny"].into_iter().map(JsString::from).collect();
        let costs = [13, 3, 3, 7, 0];
        let tools: Vec<CostedTool> = names.iter().zip(costs).map(|(name, cost)| CostedTool { name, cost }).collect();
        let c = shadow_candidates(&tools);
        // big(13): qualifying a(3), b(3), tiny(0); mid(7) is more than half. Dearest: a (tie by name).
        assert_eq!(c[0].tool, *"big");
        assert_eq!(c[0].cheaper_sibling, *"a");
        // mid(7): 3 is not <= 7-4... it is (3 <= 3) and 6 <= 7: a again.
        assert_eq!((c[1].tool.to_string(), c[1].cheaper_sibling.to_string()), ("mid".into(), "a".into()));
        assert_eq!(c.len(), 2);
    }

    #[test]
    fn only_supplied_pairs_once_per_tool() {
        let cand = vec![ShadowCandidate {
            tool: "big".into(),
            invocation_cost: 9,
            cheaper_sibling: "small".into(),
            cheaper_sibling_invocation_cost: 1,
        }];
        let risk =
            |t: &str, s: &str| ShadowingRisk { tool: t.into(), cheaper_sibling: s.into(), justification: "j".into() };
        let got = confirmed_risks(
            &cand,
            &[risk("small", "big"), risk("big", "other"), risk("big", "small"), risk("big", "small")],
        );
        assert_eq!(got, vec![risk("big", "small")]);
    }
}
