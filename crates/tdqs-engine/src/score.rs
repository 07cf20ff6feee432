//! Stage 4 and the arithmetic: dimensions and weights, the integer rounding every score uses,
//! tiers, smells and flags. Scores are carried in tenths (`Tenths(43)` is 4.3) so no float
//! ever enters a sum.

use serde::{Deserialize, Serialize, Serializer};

/// A score with one decimal, held as an integer number of tenths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(from = "f64")]
pub struct Tenths(pub u32);

impl Tenths {
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 10.0
    }
}

impl From<f64> for Tenths {
    fn from(v: f64) -> Self {
        Tenths((v * 10.0).round().max(0.0) as u32)
    }
}

impl Serialize for Tenths {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.as_f64())
    }
}

impl std::fmt::Display for Tenths {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

/// `p / q` rounded half-up to one decimal, in integers: `floor((20p + q) / 2q)` tenths.
pub fn round1(p: u64, q: u64) -> Tenths {
    Tenths(((20 * p + q) / (2 * q)) as u32)
}

/// Quality tiers. B and above pass.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumString,
)]
pub enum Tier {
    A,
    B,
    C,
    D,
    F,
}

impl Tier {
    /// A >= 3.5, B >= 3.0, C >= 2.0, D >= 1.0, else F.
    pub fn of(score: Tenths) -> Tier {
        match score.0 {
            35.. => Tier::A,
            30.. => Tier::B,
            20.. => Tier::C,
            10.. => Tier::D,
            _ => Tier::F,
        }
    }

    /// Lowest score that still earns this tier (F has none).
    pub fn minimum(self) -> Option<Tenths> {
        match self {
            Tier::A => Some(Tenths(35)),
            Tier::B => Some(Tenths(30)),
            Tier::C => Some(Tenths(20)),
            Tier::D => Some(Tenths(10)),
            Tier::F => None,
        }
    }

    pub fn passes(self) -> bool {
        self <= Tier::B
    }

    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(s: &str) -> Option<Tier> {
        s.parse().ok()
    }
}

impl std::fmt::Display for Tier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The six tool dimensions, in the rubric's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[derive(strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Dimension {
    PurposeClarity,
    UsageGuidelines,
    BehavioralTransparency,
    ParameterSemantics,
    ConcisenessStructure,
    ContextualCompleteness,
}

impl Dimension {
    pub const ALL: [Dimension; 6] = [
        Dimension::PurposeClarity,
        Dimension::UsageGuidelines,
        Dimension::BehavioralTransparency,
        Dimension::ParameterSemantics,
        Dimension::ConcisenessStructure,
        Dimension::ContextualCompleteness,
    ];

    pub fn key(self) -> &'static str {
        self.into()
    }

    pub fn label(self) -> &'static str {
        match self {
            Dimension::PurposeClarity => "Purpose Clarity",
            Dimension::UsageGuidelines => "Usage Guidelines",
            Dimension::BehavioralTransparency => "Behavioral Transparency",
            Dimension::ParameterSemantics => "Parameter Semantics",
            Dimension::ConcisenessStructure => "Conciseness & Structure",
            Dimension::ContextualCompleteness => "Contextual Completeness",
        }
    }

    /// Weight in integer percent; the six sum to 100.
    pub fn weight(self) -> u64 {
        match self {
            Dimension::PurposeClarity => 25,
            Dimension::UsageGuidelines | Dimension::BehavioralTransparency => 20,
            Dimension::ParameterSemantics => 15,
            Dimension::ConcisenessStructure | Dimension::ContextualCompleteness => 10,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// One integer score 1..=5 per dimension, in [`Dimension::ALL`] order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DimensionScores(pub [u8; 6]);

impl DimensionScores {
    pub fn get(&self, d: Dimension) -> u8 {
        self.0[d.index()]
    }

    /// The weighted score: `round1(sum(score * weight), 100)`.
    pub fn tdqs(&self) -> Tenths {
        let p: u64 = Dimension::ALL.iter().map(|d| self.get(*d) as u64 * d.weight()).sum();
        round1(p, 100)
    }

    /// Dimensions scoring below 3, in rubric order.
    pub fn smells(&self) -> Vec<Dimension> {
        Dimension::ALL.into_iter().filter(|d| self.get(*d) < 3).collect()
    }
}

/// Defects of a single definition, from the gates and the judge. The label is the one name,
/// for reports (`label`) and JSON (serde) alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr)]
pub enum ToolFlag {
    #[serde(rename = "No Description")]
    #[strum(serialize = "No Description")]
    NoDescription,
    #[serde(rename = "Tautological Description")]
    #[strum(serialize = "Tautological Description")]
    TautologicalDescription,
    #[serde(rename = "Annotation Contradiction")]
    #[strum(serialize = "Annotation Contradiction")]
    AnnotationContradiction,
}

impl ToolFlag {
    pub fn label(self) -> &'static str {
        self.into()
    }
}

/// Defects of the tool set, written onto a tool by the coherence job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ServerFlag {
    #[serde(rename = "Shadowing Risk")]
    ShadowingRisk,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_example() {
        let s = DimensionScores([4, 2, 2, 3, 4, 2]);
        assert_eq!(s.tdqs(), Tenths(29));
        assert_eq!(Tier::of(s.tdqs()), Tier::C);
        assert_eq!(
            s.smells(),
            [Dimension::UsageGuidelines, Dimension::BehavioralTransparency, Dimension::ContextualCompleteness]
        );
        assert_eq!(DimensionScores([5, 5, 3, 3, 5, 5]).tdqs(), Tenths(43));
        assert_eq!(DimensionScores([1, 1, 1, 1, 2, 1]).tdqs(), Tenths(11));
    }

    /// Every one of the 5^6 score vectors against exact rational rounding.
    #[test]
    fn all_15625_vectors_round_half_up_exactly() {
        let mut n = 0;
        for code in 0..15625u32 {
            let mut v = [0u8; 6];
            let mut c = code;
            for slot in v.iter_mut() {
                *slot = (c % 5) as u8 + 1;
                c /= 5;
            }
            let s = DimensionScores(v);
            // Exact: weighted sum p/100, to tenths half-up => the smallest k with k/10 >= p/100 - 1/20
            let p: u64 = Dimension::ALL.iter().map(|d| s.get(*d) as u64 * d.weight()).sum();
            // p/100 = (p/10) tenths; tenths value x = p/10 exactly as a rational.
            let (whole, rem) = (p / 10, p % 10);
            let expected = if rem >= 5 { whole + 1 } else { whole };
            assert_eq!(s.tdqs().0 as u64, expected, "{v:?}");
            let tier = Tier::of(s.tdqs());
            let exact_tier = match expected {
                35.. => Tier::A,
                30..=34 => Tier::B,
                20..=29 => Tier::C,
                10..=19 => Tier::D,
                _ => Tier::F,
            };
            assert_eq!(tier, exact_tier);
            n += 1;
        }
        assert_eq!(n, 15625);
    }

    #[test]
    fn round1_is_half_up() {
        assert_eq!(round1(345, 100), Tenths(35));
        assert_eq!(round1(344, 100), Tenths(34));
        assert_eq!(round1(1, 3), Tenths(3));
        assert_eq!(round1(1, 4), Tenths(3)); // 0.25 -> 0.3
        assert_eq!(Tenths(35).to_string(), "3.5");
        assert_eq!(serde_json::to_string(&Tenths(10)).unwrap(), "1.0");
    }

    #[test]
    fn a_flag_is_written_the_same_in_reports_and_json() {
        for f in [ToolFlag::NoDescription, ToolFlag::TautologicalDescription, ToolFlag::AnnotationContradiction] {
            assert_eq!(serde_json::to_value(f).unwrap(), f.label());
        }
    }
}
