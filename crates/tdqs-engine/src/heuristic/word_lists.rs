//! Which of the judge's word lists a word is on, in one look-up. The lists stay where they are
//! read best (with the module that uses them); this table, built from them once, answers
//! "is this word on list X" for every list at the cost of one hash, where scanning META,
//! GENERIC and STOPWORDS alone compared each word of a description with 450 others.

use std::sync::LazyLock;

use rustc_hash::FxHashMap;

/// The word lists, one bit each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum List {
    Meta,
    Generic,
    Hedge,
    Stopword,
    Placeholder,
    Concrete,
    Determiner,
    NoEnding,
    Function,
    Heading,
    Prose,
    CapitalisedOpener,
    ReferenceCue,
    Negator,
    ScopedObject,
    Scoping,
    WriteVerb,
    WriteParticiple,
    DestroyingParticiple,
    SubjectLink,
    Auxiliary,
    DestroyingVerb,
    Actionable,
    Planning,
    Channel,
    Docs,
    Past,
    Now,
    Tone,
    Image,
    Parts,
    SchemaWord,
    Typing,
}

const ALL: [List; 33] = [
    List::Meta,
    List::Generic,
    List::Hedge,
    List::Stopword,
    List::Placeholder,
    List::Concrete,
    List::Determiner,
    List::NoEnding,
    List::Function,
    List::Heading,
    List::Prose,
    List::CapitalisedOpener,
    List::ReferenceCue,
    List::Negator,
    List::ScopedObject,
    List::Scoping,
    List::WriteVerb,
    List::WriteParticiple,
    List::DestroyingParticiple,
    List::SubjectLink,
    List::Auxiliary,
    List::DestroyingVerb,
    List::Actionable,
    List::Planning,
    List::Channel,
    List::Docs,
    List::Past,
    List::Now,
    List::Tone,
    List::Image,
    List::Parts,
    List::SchemaWord,
    List::Typing,
];

impl List {
    fn words(self) -> &'static [&'static str] {
        use super::{contradiction as c, filler, lexicon, meta_talk as m, reading, schema_echo};
        match self {
            List::Meta => filler::META,
            List::Generic => filler::GENERIC,
            List::Hedge => filler::HEDGES,
            List::Stopword => lexicon::STOPWORDS,
            List::Placeholder => filler::PLACEHOLDER,
            List::Concrete => filler::CONCRETE,
            List::Determiner => filler::DETERMINERS,
            List::NoEnding => filler::NO_ENDING,
            List::Function => filler::FUNCTION,
            List::Heading => reading::HEADINGS,
            List::Prose => reading::PROSE,
            List::CapitalisedOpener => reading::CAPITALISED_OPENERS,
            List::ReferenceCue => lexicon::REFERENCE_CUES,
            List::Negator => c::NEGATORS,
            List::ScopedObject => c::SCOPED_OBJECTS,
            List::Scoping => c::SCOPING,
            List::WriteVerb => c::WRITE_VERBS,
            List::WriteParticiple => c::WRITE_PARTICIPLES,
            List::DestroyingParticiple => c::DESTROYING_PARTICIPLES,
            List::SubjectLink => c::SUBJECT_LINKS,
            List::Auxiliary => c::AUXILIARIES,
            List::DestroyingVerb => lexicon::DESTROYING_VERBS,
            List::Actionable => reading::ACTIONABLE,
            List::Planning => m::PLANNING,
            List::Channel => m::CHANNELS,
            List::Docs => m::DOCS,
            List::Past => m::PAST,
            List::Now => m::NOW,
            List::Tone => m::TONE,
            List::Image => m::IMAGES,
            List::Parts => m::PARTS,
            List::SchemaWord => schema_echo::SCHEMA_WORDS,
            List::Typing => schema_echo::TYPING,
        }
    }

    fn bit(self) -> u64 {
        1 << self as u64
    }
}

static TABLE: LazyLock<FxHashMap<&'static str, u64>> = LazyLock::new(|| {
    let mut table: FxHashMap<&'static str, u64> = FxHashMap::default();
    for list in ALL {
        for w in list.words() {
            *table.entry(w).or_default() |= list.bit();
        }
    }
    table
});

/// The lists one word is on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lists(u64);

impl Lists {
    pub fn of(word: &str) -> Lists {
        Lists(TABLE.get(word).copied().unwrap_or(0))
    }

    pub fn on(self, list: List) -> bool {
        self.0 & list.bit() != 0
    }
}

/// Is `word` on `list`?
pub fn on(word: &str, list: List) -> bool {
    Lists::of(word).on(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_answers_as_the_lists_do() {
        let probes = ALL.iter().flat_map(|l| l.words()).copied().chain(["", "lists", "Returns", "zzz", "ſ"]);
        for w in probes {
            for list in ALL {
                assert_eq!(on(w, list), list.words().contains(&w), "{w:?} {list:?}");
            }
        }
    }
}
