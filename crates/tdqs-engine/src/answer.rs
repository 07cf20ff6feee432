//! The judge's answer contract (stage 3's output), validated before anything trusts it. Each
//! violation is described in words a model can act on when it is asked to answer again.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::score::{Dimension, DimensionScores};
use super::shadow::ShadowingRisk;

/// A score with the evidence behind it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Justified {
    pub score: u8,
    pub justification: String,
}

/// A valid tool-scoring answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolJudgement {
    /// In [`Dimension::ALL`] order.
    pub dimensions: [Justified; 6],
    pub annotation_contradiction: bool,
    pub summary: String,
}

impl ToolJudgement {
    pub fn scores(&self) -> DimensionScores {
        DimensionScores(std::array::from_fn(|i| self.dimensions[i].score))
    }
}

/// The four coherence dimensions, equally weighted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum CoherenceDimension {
    Disambiguation,
    NamingConsistency,
    ToolCountAppropriateness,
    Completeness,
}

impl CoherenceDimension {
    pub const ALL: [CoherenceDimension; 4] = [
        CoherenceDimension::Disambiguation,
        CoherenceDimension::NamingConsistency,
        CoherenceDimension::ToolCountAppropriateness,
        CoherenceDimension::Completeness,
    ];

    pub fn key(self) -> &'static str {
        self.into()
    }
}

/// A valid coherence answer (shadowing risks not yet checked against the candidates).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoherenceJudgement {
    /// In [`CoherenceDimension::ALL`] order.
    pub dimensions: [Justified; 4],
    pub shadowing_risks: Vec<ShadowingRisk>,
    pub summary: String,
}

impl CoherenceJudgement {
    /// The answer in the contract's own JSON shape: what a store keeps, and what
    /// [`parse_coherence_answer`] reads back unchanged.
    pub fn to_answer(&self) -> Value {
        let scores: serde_json::Map<String, Value> = CoherenceDimension::ALL
            .iter()
            .zip(&self.dimensions)
            .map(|(d, j)| (d.key().to_owned(), serde_json::json!({"score": j.score, "justification": j.justification})))
            .collect();
        serde_json::json!({
            "scores": scores,
            "shadowing_risks": self.shadowing_risks,
            "summary": self.summary,
        })
    }
}

/// Removes one surrounding Markdown code fence (```json ... ```), if present.
pub fn strip_code_fence(text: &str) -> &str {
    let t = text.trim();
    let Some(body) = t.strip_prefix("```").and_then(|rest| rest.strip_suffix("```")) else { return t };
    // Drop an info string ("json") before the content, on its own line or not.
    let info_len = body.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(body.len());
    body[info_len..].trim()
}

/// Parses a model's text as a tool-scoring answer, or says every way it breaks the contract.
pub fn parse_tool_answer(text: &str) -> Result<ToolJudgement, String> {
    let v = parse_object(text)?;
    let mut problems = Vec::new();
    let scores = dimension_block(&v, Dimension::ALL.map(Dimension::key), &mut problems);
    let annotation_contradiction = match v.get("annotation_contradiction") {
        Some(Value::Bool(b)) => *b,
        _ => {
            problems.push("\"annotation_contradiction\" must be true or false".to_owned());
            false
        }
    };
    let summary = required_string(&v, "summary", &mut problems);
    if !problems.is_empty() {
        return Err(problems.join("; "));
    }
    Ok(ToolJudgement { dimensions: scores, annotation_contradiction, summary })
}

/// Parses a model's text as a coherence answer.
pub fn parse_coherence_answer(text: &str) -> Result<CoherenceJudgement, String> {
    let v = parse_object(text)?;
    let mut problems = Vec::new();
    let scores = dimension_block(&v, CoherenceDimension::ALL.map(CoherenceDimension::key), &mut problems);
    let mut risks = Vec::new();
    match v.get("shadowing_risks") {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                let field = |k: &str| item.get(k).and_then(Value::as_str).map(str::to_owned);
                match (field("tool"), field("cheaper_sibling"), field("justification")) {
                    (Some(tool), Some(cheaper_sibling), Some(justification)) => {
                        risks.push(ShadowingRisk { tool, cheaper_sibling, justification })
                    }
                    _ => problems.push(format!(
                        "\"shadowing_risks\"[{i}] must be an object with string fields \"tool\", \"cheaper_sibling\" and \"justification\""
                    )),
                }
            }
        }
        Some(_) => problems.push("\"shadowing_risks\" must be an array".to_owned()),
    }
    let summary = required_string(&v, "summary", &mut problems);
    if !problems.is_empty() {
        return Err(problems.join("; "));
    }
    Ok(CoherenceJudgement { dimensions: scores, shadowing_risks: risks, summary })
}

fn parse_object(text: &str) -> Result<serde_json::Map<String, Value>, String> {
    match serde_json::from_str::<Value>(strip_code_fence(text)) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(_) => Err("the answer must be a JSON object".to_owned()),
        Err(e) => Err(format!("the answer is not valid JSON ({e})")),
    }
}

fn required_string(v: &serde_json::Map<String, Value>, key: &str, problems: &mut Vec<String>) -> String {
    match v.get(key) {
        Some(Value::String(s)) => s.clone(),
        _ => {
            problems.push(format!("\"{key}\" must be a string"));
            String::new()
        }
    }
}

/// Reads `scores.<key> = {score: 1..=5, justification: string}` for every key.
fn dimension_block<const N: usize>(
    v: &serde_json::Map<String, Value>,
    keys: [&str; N],
    problems: &mut Vec<String>,
) -> [Justified; N] {
    let scores = v.get("scores").and_then(Value::as_object);
    if scores.is_none() {
        problems.push("\"scores\" must be an object with one entry per dimension".to_owned());
    }
    keys.map(|key| {
        let entry = scores.and_then(|s| s.get(key));
        let Some(entry) = entry.and_then(Value::as_object) else {
            if scores.is_some() {
                problems.push(format!("\"scores.{key}\" must be an object {{\"score\", \"justification\"}}"));
            }
            return Justified { score: 0, justification: String::new() };
        };
        let score = entry.get("score").and_then(|s| {
            let f = s.as_f64()?;
            (f.fract() == 0.0 && (1.0..=5.0).contains(&f)).then_some(f as u8)
        });
        let justification = entry.get("justification").and_then(Value::as_str);
        if score.is_none() {
            problems.push(format!(
                "\"scores.{key}.score\" must be an integer from 1 to 5, got {}",
                entry.get("score").map_or("nothing".to_owned(), Value::to_string)
            ));
        }
        if justification.is_none() {
            problems.push(format!("\"scores.{key}.justification\" must be a string"));
        }
        Justified { score: score.unwrap_or(0), justification: justification.unwrap_or_default().to_owned() }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_coherence_answer_round_trips_through_its_json() {
        let text = r#"{"scores":{"disambiguation":{"score":4,"justification":"a"},"naming_consistency":{"score":3,"justification":"b"},"tool_count_appropriateness":{"score":5,"justification":"c"},"completeness":{"score":2,"justification":"d"}},"shadowing_risks":[{"tool":"x","cheaper_sibling":"y","justification":"z"}],"summary":"s"}"#;
        let parsed = parse_coherence_answer(text).unwrap();
        assert_eq!(parse_coherence_answer(&parsed.to_answer().to_string()).unwrap(), parsed);
    }

    fn answer(scores: [i64; 6]) -> String {
        let dims: Vec<String> = Dimension::ALL
            .iter()
            .zip(scores)
            .map(|(d, s)| format!("\"{}\":{{\"score\":{s},\"justification\":\"because\"}}", d.key()))
            .collect();
        format!("{{\"scores\":{{{}}},\"annotation_contradiction\":false,\"summary\":\"ok\"}}", dims.join(","))
    }

    #[test]
    fn valid_and_fenced() {
        let a = parse_tool_answer(&answer([4, 2, 2, 3, 4, 2])).unwrap();
        assert_eq!(a.scores().tdqs().0, 29);
        let fenced = format!("```json\n{}\n```", answer([5, 5, 5, 5, 5, 5]));
        assert_eq!(parse_tool_answer(&fenced).unwrap().scores().0, [5; 6]);
        let inline = format!("```json{}```", answer([4, 4, 4, 4, 4, 4]));
        assert_eq!(parse_tool_answer(&inline).unwrap().scores().0, [4; 6]);
        // Exactly one fence is removed.
        let twice = format!("```\n{fenced}\n```");
        assert!(parse_tool_answer(&twice).is_err());
    }

    #[test]
    fn violations_are_named() {
        let e = parse_tool_answer(&answer([4, 2, 7, 3, 4, 0])).unwrap_err();
        assert!(e.contains("behavioral_transparency.score\" must be an integer from 1 to 5, got 7"), "{e}");
        assert!(e.contains("contextual_completeness"), "{e}");
        assert!(parse_tool_answer("{\"scores\": 5}").unwrap_err().contains("\"scores\" must be an object"));
        assert!(parse_tool_answer("not json").unwrap_err().contains("not valid JSON"));
        assert!(parse_tool_answer("[1]").unwrap_err().contains("JSON object"));
    }

    #[test]
    fn coherence_answer() {
        let keys = CoherenceDimension::ALL.map(|d| format!("\"{}\":{{\"score\":3,\"justification\":\"j\"}}", d.key()));
        let text = format!(
            "{{\"scores\":{{{}}},\"shadowing_risks\":[{{\"tool\":\"a\",\"cheaper_sibling\":\"b\",\"justification\":\"j\"}}],\"summary\":\"s\"}}",
            keys.join(",")
        );
        let c = parse_coherence_answer(&text).unwrap();
        assert_eq!(c.shadowing_risks.len(), 1);
        assert_eq!(c.dimensions[3].score, 3);
    }
}
