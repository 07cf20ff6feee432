//! The heuristic judge: answers the tool-scoring and coherence questions offline, from the
//! definition's own words and structure, with the same answer contract as a model.
//! Deterministic, no I/O, microseconds per tool; its identity says it is not a model.
//!
//! How it reads a tool: [`reading`] first sets aside the sentences that carry no fact (copies,
//! bare cues, keyword lists, praise, hedges, bare numbers, telegrams of labels, placeholder and
//! shuffled text), so vocabulary alone earns nothing; [`evidence`] gathers cues from what is
//! left (verbs, usage and behaviour phrases, parameter mentions (through [`param_mentions`]),
//! named siblings, annotation hints, the tool's own words it uses); one scorer per dimension
//! turns them into a 1-5 score under the TDQS anchors and cites what it found, and
//! [`contradiction`] reads the whole text and the name against the hints. Calibrated against published scores (see
//! `tests/it/heuristic_calibration.rs`); gaming resistance is `tests/it/heuristic_metamorphic.rs`.

mod behavior;
mod claims;
mod coherence;
mod contradiction;
mod cues;
mod evidence;
mod filler;
mod grounding;
mod lexicon;
mod meta_talk;
mod names;
mod overlap_pairs;
mod param_mentions;
mod params;
mod purpose;
mod reading;
mod schema_echo;
mod siblings;
mod statement;
mod structure;
mod surface;
mod text;
mod usage_talk;
mod word_lists;

#[cfg(test)]
mod tests;

use crate::answer::{CoherenceJudgement, Justified, ToolJudgement};
use crate::definition::ToolDefinition;
use crate::json::JsString;
use crate::prompt::CoherenceTool;
use crate::score::Dimension;
use crate::shadow::ShadowCandidate;
use crate::signals::ContextSignals;

use evidence::Evidence;
use names::{NameParts, content_words};
pub use siblings::SiblingIndex;

/// A set of a definition's own words (or runs of them). A server's author chooses the words,
/// so the hash is randomly seeded: with a fixed one (FxHash), words made to collide would turn
/// each insert into a walk of one long probe sequence. Only membership and counts are read,
/// never the order, so the seed cannot change a score.
type WordSet<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;

/// The judge identity in reports and score keys, part of every stored score's key so that a
/// judge that answers differently never reuses another's scores. `heuristic-2` read before it
/// scored (see [`reading`]) and checked contradictions in every direction; `heuristic-3` also
/// reads capitals, records of labels and markup as a person would ([`surface`]); `heuristic-5`
/// asks short text for facts: annotations alone are the minimum, praise and hedges are not
/// content, a purpose stated in none of the tool's own words is doubted, and numbers with
/// nothing they measure and telegrams of labels are set aside; `heuristic-6` sets aside text
/// around the tool rather than about it (backlog items, owners, pointers to documentation,
/// origin stories, personas, figures of speech, how it is built: [`meta_talk`]) and a
/// description that only says the input schema again ([`schema_echo`]), and asks that some
/// sentence say what the tool does ([`statement`]) before purpose or conciseness read above 3;
/// `heuristic-7` does not take an imperative to the reader ("Watch this space", "Rate your
/// experience") for the tool's action, and without one reads purpose and conciseness at most 2;
/// `heuristic-8` takes code, a JSON document, a commit message or a licence pasted in place of a
/// description for what it is (no statement of what the tool does), and a parameter named with
/// nothing after its mark (an unfilled `Args:` block) for unexplained; `heuristic-9` sets aside
/// sales talk and the server's overview, orders to the agent, placeholder text in other
/// languages and HTTP boilerplate in none of the tool's words, reads a text that mostly repeats
/// its name as circular, and credits no usage or boundary said only about tools it does not name.
pub const HEURISTIC_JUDGE_ID: &str = "heuristic-9";

/// Scores one tool (that passed the no-description gate) on the six dimensions.
pub fn judge_tool(tool: &ToolDefinition, signals: &ContextSignals, siblings: &[JsString]) -> ToolJudgement {
    judge(tool, signals, &SiblingIndex::new(siblings).view(None))
}

/// [`judge_tool`] for a tool of a list whose names (its own among them) are indexed once in
/// `list` for all of its tools: the cost of a tool does not grow with the list.
pub fn judge_tool_in(
    tool: &ToolDefinition,
    signals: &ContextSignals,
    list: &SiblingIndex,
    own: &JsString,
) -> ToolJudgement {
    judge(tool, signals, &list.view(Some(own)))
}

fn judge(tool: &ToolDefinition, signals: &ContextSignals, siblings: &siblings::SiblingView<'_>) -> ToolJudgement {
    let e = Evidence::gather(tool, signals, siblings);
    let contradiction = contradiction::contradiction(&e);
    let talk = usage_talk::UsageTalk::read(&e);
    let pc = purpose::purpose_clarity(&e, &talk);
    let ug = purpose::usage_guidelines(&e, &talk);
    let bt = behavior::behavioral_transparency(&e, contradiction.as_deref());
    let ps = params::parameter_semantics(&e);
    let cs = structure::conciseness_structure(&e, ug.score, bt.score);
    let cc = structure::contextual_completeness(&e, ps.score, ug.score, bt.score);
    let mut dimensions = [pc, ug, bt, ps, cs, cc];
    if e.ungrounded() {
        doubt_ungrounded(&mut dimensions);
    }
    if talk.circular {
        cap_at_minimum_viable(
            &mut dimensions,
            [1, 2, 4, 5],
            " Capped: most of the description's words are the name's again, so it adds little to it.",
        );
    }
    let padding = e.reading.padding_percent();
    if padding >= MOSTLY_PADDING {
        mostly_padding(&mut dimensions, padding);
    }
    let summary = summary(&e, &dimensions, contradiction.is_some());
    ToolJudgement { dimensions, annotation_contradiction: contradiction.is_some(), summary }
}

/// A description in none of the tool's own words may describe another tool: what it says about
/// usage, behaviour, size and completeness is not credited beyond the minimum viable (3).
/// Parameter semantics rests on the schema and stays.
fn doubt_ungrounded(dims: &mut [Justified; 6]) {
    cap_at_minimum_viable(
        dims,
        [1, 2, 4, 5],
        " Capped: the description never uses the tool's own words, so this may be about another tool.",
    );
}

/// The dimensions at `which` read no more than 3, each capped one saying `why`.
fn cap_at_minimum_viable(dims: &mut [Justified; 6], which: [usize; 4], why: &str) {
    for i in which {
        let d = &mut dims[i];
        if d.score > 3 {
            d.score = 3;
            d.justification.push_str(why);
        }
    }
}

/// Share of a description's words (percent) that, set aside, make it mostly padding.
const MOSTLY_PADDING: usize = 60;

/// A description whose words are mostly set aside (filler, asides, praise, copies) keeps what
/// the rest says, but no dimension that rests on the prose reads above minimum viable (3): a
/// fact buried in padding is a fact an agent may not find.
fn mostly_padding(dims: &mut [Justified; 6], percent: usize) {
    cap_at_minimum_viable(
        dims,
        [0, 1, 2, 5],
        &format!(" Capped: {percent}% of the description's words carry no fact."),
    );
}

fn summary(e: &Evidence, dims: &[Justified; 6], contradiction: bool) -> String {
    let by_score = |pick: fn(u8, u8) -> bool| {
        let mut best = 0;
        for i in 1..6 {
            if pick(dims[i].score, dims[best].score) {
                best = i;
            }
        }
        (Dimension::ALL[best].label(), dims[best].score)
    };
    let (strong, hi) = by_score(|a, b| a > b);
    let (weak, lo) = by_score(|a, b| a < b);
    let mut s = if hi == lo {
        format!("`{}`: every dimension reads {hi} of 5.", e.name)
    } else {
        format!("`{}`: strongest on {strong} ({hi}/5), weakest on {weak} ({lo}/5).", e.name)
    };
    if contradiction {
        s.push_str(" Its description contradicts its annotation hints.");
    }
    s
}

/// Judges the tool set of one server: four dimensions plus shadowing risks, which are only
/// ever drawn from `candidates`.
pub fn judge_coherence(
    server_name: &str,
    tools: &[CoherenceTool<'_>],
    candidates: &[ShadowCandidate],
) -> CoherenceJudgement {
    let parts: Vec<NameParts> = tools.iter().map(|t| NameParts::new(&text::plain(t.name))).collect();
    let descs: Vec<Vec<String>> =
        tools.iter().map(|t| t.description.map(|d| content_words(&text::plain(d))).unwrap_or_default()).collect();
    let dimensions = [
        coherence::disambiguation(&parts, &descs),
        coherence::naming_consistency(&parts),
        coherence::tool_count_appropriateness(tools.len()),
        coherence::completeness(&parts),
    ];
    let shadowing_risks = coherence::shadowing(tools, candidates);
    let total: u32 = dimensions.iter().map(|d| d.score as u32).sum();
    let summary = format!(
        "{}: {} tool{}, coherence dimensions sum to {total} of 20; {} of {} shadow candidate{} confirmed.",
        server_name.replace('\0', ""),
        tools.len(),
        if tools.len() == 1 { "" } else { "s" },
        shadowing_risks.len(),
        candidates.len(),
        if candidates.len() == 1 { "" } else { "s" },
    );
    CoherenceJudgement { dimensions, shadowing_risks, summary }
}

/// Scores the coherence dimensions from names alone, with the tool count given separately:
/// for calibration against published server scores that list only some of a server's names.
pub fn coherence_from_names(names: &[&str], tool_count: usize) -> [Justified; 4] {
    let parts: Vec<NameParts> = names.iter().map(|n| NameParts::new(n)).collect();
    let descs = vec![Vec::new(); parts.len()];
    [
        coherence::disambiguation(&parts, &descs),
        coherence::naming_consistency(&parts),
        coherence::tool_count_appropriateness(tool_count),
        coherence::completeness(&parts),
    ]
}
