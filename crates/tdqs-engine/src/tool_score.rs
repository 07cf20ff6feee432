//! Stage 4: a judge's answer (or the no-description gate) becomes a tool's score: the
//! tautology cap, the contradiction flag, the weighted TDQS, the tier and the smells.

use serde::{Deserialize, Serialize};

use super::answer::{Justified, ToolJudgement};
use super::definition::ToolDefinition;
use super::gates::{Gate, evaluate_gates};
use super::json::JsString;
use super::lint::gate_flags;
use super::score::{Dimension, DimensionScores, ServerFlag, Tenths, Tier, ToolFlag};
use super::signals::{ContextSignals, context_signals};

/// What stands in for every dimension of a tool without a description.
pub const NO_DESCRIPTION_TEXT: &str = "Tool has no description.";

/// What replaces Purpose Clarity's justification when the tautology cap applies.
pub const TAUTOLOGY_TEXT: &str = "The description only restates the tool's name or title.";

/// One value per dimension, serialized under the dimension keys in rubric order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PerDimension<T> {
    pub purpose_clarity: T,
    pub usage_guidelines: T,
    pub behavioral_transparency: T,
    pub parameter_semantics: T,
    pub conciseness_structure: T,
    pub contextual_completeness: T,
}

impl<T: Clone> PerDimension<T> {
    pub fn from_array(a: [T; 6]) -> Self {
        let [
            purpose_clarity,
            usage_guidelines,
            behavioral_transparency,
            parameter_semantics,
            conciseness_structure,
            contextual_completeness,
        ] = a;
        PerDimension {
            purpose_clarity,
            usage_guidelines,
            behavioral_transparency,
            parameter_semantics,
            conciseness_structure,
            contextual_completeness,
        }
    }

    pub fn get(&self, d: Dimension) -> &T {
        match d {
            Dimension::PurposeClarity => &self.purpose_clarity,
            Dimension::UsageGuidelines => &self.usage_guidelines,
            Dimension::BehavioralTransparency => &self.behavioral_transparency,
            Dimension::ParameterSemantics => &self.parameter_semantics,
            Dimension::ConcisenessStructure => &self.conciseness_structure,
            Dimension::ContextualCompleteness => &self.contextual_completeness,
        }
    }
}

/// A scored tool, as reports carry it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolScore {
    pub name: JsString,
    pub scores: PerDimension<u8>,
    pub justifications: PerDimension<Justified>,
    pub tdqs: Tenths,
    pub tier: Tier,
    pub smells: Vec<Dimension>,
    pub flags: Vec<ToolFlag>,
    pub server_flags: Vec<ServerFlag>,
    pub summary: String,
    pub context_signals: ContextSignals,
    /// Dimensions where a model judge's answer and the heuristic's reading of the same
    /// definition differ by [`DISAGREEMENT_POINTS`] or more. Not a reference field: absent when
    /// empty, so reports without any disagreement are unchanged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disagreements: Vec<Disagreement>,
}

/// How far a model's score may be from the heuristic's before it is recorded.
pub const DISAGREEMENT_POINTS: u8 = 3;

/// One dimension on which the model and the heuristic read a definition very differently. The
/// model's number stands (it is the configured judge); this tells an operator where a model
/// may have been talked into a score, or where the heuristic misread the text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Disagreement {
    pub dimension: Dimension,
    pub model: u8,
    pub heuristic: u8,
}

/// The dimensions of `model` that differ from `heuristic` by [`DISAGREEMENT_POINTS`] or more,
/// in rubric order (both scored after stage 4, so the tautology cap applies to both).
pub fn disagreements(model: &ToolScore, heuristic: &ToolScore) -> Vec<Disagreement> {
    Dimension::ALL
        .into_iter()
        .filter_map(|d| {
            let (m, h) = (*model.scores.get(d), *heuristic.scores.get(d));
            (m.abs_diff(h) >= DISAGREEMENT_POINTS).then_some(Disagreement { dimension: d, model: m, heuristic: h })
        })
        .collect()
}

impl ToolScore {
    pub fn dimension_scores(&self) -> DimensionScores {
        DimensionScores(Dimension::ALL.map(|d| *self.scores.get(d)))
    }
}

/// Whether a tool needs the judge at all.
pub fn needs_judge(gate: Gate) -> bool {
    gate != Gate::NoDescription
}

/// Stages 1 and 2 of one tool, where every way of scoring it starts (the gateway's cache and
/// background judgements, a re-score, `score`, the judge's check against the heuristic): its
/// context signals and its gate. It ends in [`Prepared::unjudged`] when no judge needs to read
/// the definition, or in [`Prepared::finish`] over a judge's answer.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub signals: ContextSignals,
    pub gate: Gate,
}

impl Prepared {
    pub fn of(tool: &ToolDefinition) -> Self {
        Prepared { signals: context_signals(tool), gate: evaluate_gates(tool) }
    }

    /// The score of a definition no judge needs to read (it has no description).
    pub fn unjudged(&self, name: &JsString) -> Option<ToolScore> {
        (!needs_judge(self.gate)).then(|| no_description_score(name, self.signals.clone()))
    }

    /// Stage 4 over a judge's answer.
    pub fn finish(&self, name: &JsString, judgement: &ToolJudgement) -> ToolScore {
        judged_score(name, self.signals.clone(), self.gate, judgement)
    }
}

/// The fixed score of a tool without a description: 1 everywhere, tier D, no judge call.
pub fn no_description_score(name: &JsString, signals: ContextSignals) -> ToolScore {
    let dims = std::array::from_fn(|_| Justified { score: 1, justification: NO_DESCRIPTION_TEXT.to_owned() });
    finish(name, signals, dims, NO_DESCRIPTION_TEXT.to_owned(), gate_flags(Gate::NoDescription))
}

/// Applies stage 4 to a judge's answer: the tautology cap on Purpose Clarity and the
/// Annotation Contradiction flag, after the gate's own flag.
pub fn judged_score(name: &JsString, signals: ContextSignals, gate: Gate, judgement: &ToolJudgement) -> ToolScore {
    let mut dims = judgement.dimensions.clone();
    let mut flags = gate_flags(gate);
    let pc = &mut dims[Dimension::PurposeClarity.index()];
    if gate == Gate::Tautological && pc.score > 2 {
        // The cap speaks for itself only where it changed the judge's score.
        pc.score = 2;
        pc.justification = TAUTOLOGY_TEXT.to_owned();
    }
    if judgement.annotation_contradiction {
        flags.push(ToolFlag::AnnotationContradiction);
    }
    finish(name, signals, dims, judgement.summary.clone(), flags)
}

fn finish(
    name: &JsString,
    signals: ContextSignals,
    dims: [Justified; 6],
    summary: String,
    flags: Vec<ToolFlag>,
) -> ToolScore {
    let scores = DimensionScores(std::array::from_fn(|i| dims[i].score));
    let tdqs = scores.tdqs();
    ToolScore {
        name: name.clone(),
        scores: PerDimension::from_array(scores.0),
        justifications: PerDimension::from_array(dims),
        tdqs,
        tier: Tier::of(tdqs),
        smells: scores.smells(),
        flags,
        server_flags: Vec::new(),
        summary,
        context_signals: signals,
        disagreements: Vec::new(),
    }
}
