//! Which pairs of tools could overlap at all, found through indexes instead of by comparing
//! every pair (a 1,000-tool list has half a million pairs). `coherence::overlaps` then judges
//! only these, in the order the pairs would have come in a loop over every pair, so its
//! findings are the same, byte for byte. Each of its reasons needs something two tools share:
//!
//! - the same resource with the same verb (or none), or with verbs of one synonym group: tools
//!   grouped by resource and verb, and by resource and synonym group;
//! - one resource a qualified form of the other (`configuration`, `server_configuration`): every
//!   proper suffix of a resource looked up among the resources;
//! - overview nouns on nested resources: every word of one in the other, so the other holds the
//!   first's rarest word (an overview tool with no other resource words nests in any);
//! - shared description words, a Jaccard index of at least 0.4 between two sets of at least six
//!   words: prefix filtering (Bayardo et al., "Scaling up all pairs similarity search"): with each
//!   set's words ordered rarest first, two sets that similar share a word among their first
//!   `|x| - floor(0.4 |x|) + 1`; the pairs meeting there are counted out exactly on word numbers
//!   before they become candidates.
//!
//! The cost is the size of the lists plus the pairs found; only lists whose tools really are
//! alike pair many tools. Those pairs are bounded: a list of thousands of near-identical tools
//! (an upstream's choice) has millions of them, which held 600 MB for 4,000 tools before the
//! bound. Past [`MAX_PAIRS`] the search stops; the pairs found so far are judged and the
//! result says it was cut (`Pairs::cut`). The maps are keyed with a fixed hash, so where the
//! search stops does not change from one process to the next.

use rustc_hash::FxHashMap as HashMap;

use super::lexicon::SYNONYM_GROUPS;
use super::names::NameParts;

/// Most candidate pairs judged: every pair of 316 tools. A real server's tools pair far fewer
/// (the 1,000-tool bench list: a few thousand).
pub const MAX_PAIRS: usize = 50_000;

/// Pairs gathered before repeats are removed (a pair can be found by several reasons).
const MAX_GATHERED: usize = 4 * MAX_PAIRS;

/// Candidate pairs `(a, b)`, `a < b`, sorted and without repeats; `cut` when the search
/// stopped at the bound, so that some pairs were not looked at.
pub struct Pairs {
    pub pairs: Vec<(usize, usize)>,
    pub cut: bool,
}

/// The candidate pairs of a list (see the module's notes).
pub fn candidates(parts: &[NameParts], descs: &[Vec<String>]) -> Pairs {
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let complete = gather(parts, descs, &mut pairs).is_some();
    pairs.sort_unstable();
    pairs.dedup();
    let cut = !complete || pairs.len() > MAX_PAIRS;
    pairs.truncate(MAX_PAIRS);
    Pairs { pairs, cut }
}

/// Adds a pair; `None` once the bound is reached, which ends the search.
fn push(pairs: &mut Vec<(usize, usize)>, a: usize, b: usize) -> Option<()> {
    if a != b {
        pairs.push((a.min(b), a.max(b)));
    }
    (pairs.len() < MAX_GATHERED).then_some(())
}

/// Every reason's pairs into `pairs`, repeats and all; `None` when the search stopped at the
/// bound.
fn gather(parts: &[NameParts], descs: &[Vec<String>], pairs: &mut Vec<(usize, usize)>) -> Option<()> {
    let mut by_resource: HashMap<&[String], Vec<usize>> = HashMap::default();
    // On the same resource, a pair overlaps by its verbs: the same verb (or none), or verbs of
    // one synonym group. (Shared words and overview nouns are looked for below.)
    let mut by_verb: HashMap<(&[String], Option<&str>), Vec<usize>> = HashMap::default();
    let mut by_synonyms: HashMap<(&[String], usize), Vec<usize>> = HashMap::default();
    for (i, p) in parts.iter().enumerate().filter(|(_, p)| !p.resource.is_empty()) {
        let resource = &p.resource[..];
        by_resource.entry(resource).or_default().push(i);
        by_verb.entry((resource, p.verb.as_ref().map(|(v, _)| v.as_str()))).or_default().push(i);
        if let Some((verb, _)) = &p.verb {
            let stem = super::text::stem(verb);
            for (g, _) in SYNONYM_GROUPS.iter().enumerate().filter(|(_, g)| g.contains(&stem.as_str())) {
                by_synonyms.entry((resource, g)).or_default().push(i);
            }
        }
    }
    for group in by_verb.values().chain(by_synonyms.values()) {
        for (x, &a) in group.iter().enumerate() {
            for &b in &group[x + 1..] {
                push(pairs, a, b)?;
            }
        }
    }
    for (b, p) in parts.iter().enumerate() {
        for k in 1..p.resource.len() {
            for &a in by_resource.get(&p.resource[k..]).into_iter().flatten() {
                push(pairs, a, b)?;
            }
        }
    }

    let overview: Vec<(usize, Vec<String>)> =
        parts.iter().enumerate().filter(|(_, p)| p.has_overview_noun()).map(|(i, p)| (i, p.core_resource())).collect();
    let mut holding: HashMap<&str, Vec<usize>> = HashMap::default();
    for (i, core) in &overview {
        for w in distinct(core) {
            holding.entry(w).or_default().push(*i);
        }
    }
    for (a, core) in &overview {
        match core.iter().min_by_key(|w| (holding[w.as_str()].len(), w.as_str())) {
            Some(rarest) => {
                for &b in &holding[rarest.as_str()] {
                    push(pairs, *a, b)?;
                }
            }
            None => {
                for (b, _) in &overview {
                    push(pairs, *a, *b)?;
                }
            }
        }
    }

    // Within the room left, which `similar_descriptions` keeps to.
    let (similar, complete) = similar_descriptions(descs, MAX_GATHERED - pairs.len());
    pairs.extend(similar.into_iter().map(|(a, b)| (a.min(b), a.max(b))));
    complete.then_some(())
}

/// Pairs of descriptions of at least six words each with a Jaccard index of at least 0.4
/// (`7 |x ∩ y| >= 2 (|x| + |y|)`; the sets are `content_words`', so without repeats). Each
/// word becomes a number, each set a sorted list of them, rarest first in its prefix; a pair
/// meeting in a prefix is kept if the shorter set is at least 0.4 of the longer and the count
/// of shared words, by merging the two lists, reaches the bound. At most `budget` pairs; the
/// flag says whether every pair was looked at.
fn similar_descriptions(descs: &[Vec<String>], budget: usize) -> (Vec<(usize, usize)>, bool) {
    let similar: Vec<usize> = (0..descs.len()).filter(|&i| descs[i].len() >= 6).collect();
    let mut ids: HashMap<&str, u32> = HashMap::default();
    let sets: Vec<Vec<u32>> = similar
        .iter()
        .map(|&i| {
            let mut set: Vec<u32> = distinct(&descs[i])
                .into_iter()
                .map(|w| {
                    let next = ids.len() as u32;
                    *ids.entry(w).or_insert(next)
                })
                .collect();
            set.sort_unstable();
            set
        })
        .collect();
    let mut frequency = vec![0usize; ids.len()];
    sets.iter().flatten().for_each(|&w| frequency[w as usize] += 1);
    let mut prefixed: Vec<Vec<usize>> = vec![Vec::new(); ids.len()];
    let mut seen_with = vec![usize::MAX; sets.len()];
    let mut out = Vec::new();
    for (x, set) in sets.iter().enumerate() {
        let mut order = set.clone();
        order.sort_by_key(|&w| (frequency[w as usize], w));
        let len = order.len();
        let prefix = (len - (2 * len) / 5 + 1).min(len);
        for &w in &order[..prefix] {
            for &y in &prefixed[w as usize] {
                if seen_with[y] == x {
                    continue;
                }
                seen_with[y] = x;
                let (lx, ly) = (len, sets[y].len());
                if 5 * lx.min(ly) >= 2 * lx.max(ly) && 7 * shared(set, &sets[y]) >= 2 * (lx + ly) {
                    if out.len() >= budget {
                        return (out, false);
                    }
                    out.push((similar[x], similar[y]));
                }
            }
            prefixed[w as usize].push(x);
        }
    }
    (out, true)
}

/// How many numbers two sorted lists share.
fn shared(a: &[u32], b: &[u32]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

/// The distinct words of `words`, in first-seen order.
fn distinct(words: &[String]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::with_capacity(words.len());
    for w in words {
        if !out.contains(&w.as_str()) {
            out.push(w);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::coherence::{
        classes_by_head_indexed, classes_by_head_of_every_tool, disambiguation, overlaps, overlaps_of_every_pair,
    };
    use super::super::names::{NameParts, content_words};
    use super::{MAX_PAIRS, candidates};

    use crate::test_rng::Rng;

    // Verbs with synonyms, qualifiers, overview nouns, prepositions, plurals, and casing.
    const VERBS: &[&str] = &[
        "get", "fetch", "read", "list", "browse", "search", "find", "create", "add", "update", "delete", "remove",
        "run", "show", "set",
    ];
    const WORDS: &[&str] = &[
        "user", "users", "task", "status", "summary", "report", "config", "server", "all", "recent", "by", "for", "id",
        "order", "orders", "stat", "file", "item", "Item", "overview",
    ];
    const PROSE: &[&str] = &[
        "returns",
        "the",
        "user",
        "task",
        "status",
        "list",
        "every",
        "order",
        "file",
        "items",
        "given",
        "identifier",
        "current",
        "project",
        "repository",
        "summary",
        "page",
        "limit",
        "cursor",
        "errors",
    ];

    fn name(rng: &mut Rng) -> String {
        let mut words = Vec::new();
        if rng.below(4) > 0 {
            words.push(rng.pick(VERBS).to_owned());
        }
        for _ in 0..rng.below(4) {
            words.push(rng.pick(WORDS).to_owned());
        }
        if rng.below(5) == 0 {
            words.push(rng.pick(VERBS).to_owned());
        }
        match rng.below(3) {
            0 => words.join("_"),
            1 => words.join("-"),
            _ => words.iter().map(|w| w[..1].to_uppercase() + &w[1..]).collect(),
        }
    }

    fn description(rng: &mut Rng) -> String {
        (0..rng.below(14)).map(|_| rng.pick(PROSE)).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn the_indexed_overlaps_are_the_pairwise_ones_on_awkward_lists() {
        let mut compared = 0;
        for seed in 1..=300u64 {
            let mut rng = Rng::new(seed);
            let n = 1 + rng.below(60);
            let names: Vec<String> = (0..n).map(|_| name(&mut rng)).collect();
            let parts: Vec<NameParts> = names.iter().map(|n| NameParts::new(n)).collect();
            let descs: Vec<Vec<String>> = (0..n).map(|_| content_words(&description(&mut rng))).collect();
            let expected = overlaps_of_every_pair(&parts, &descs);
            assert_eq!(overlaps(&parts, &descs), expected, "seed {seed}: {names:?}");
            assert_eq!(classes_by_head_indexed(&parts), classes_by_head_of_every_tool(&parts), "seed {seed}");
            compared += expected.len();
        }
        assert!(compared > 1_000, "the lists overlap enough to compare something: {compared}");
    }

    #[test]
    fn empty_and_single_lists_have_no_pairs() {
        assert!(overlaps(&[], &[]).is_empty());
        let one = [NameParts::new("get_summary")];
        assert!(overlaps(&one, &[vec![]]).is_empty());
    }

    /// `n` tools with one description, named alike: every pair overlaps.
    fn alike(n: usize) -> (Vec<NameParts>, Vec<Vec<String>>) {
        let desc = "Fetches one record from the shared records table by its numeric id and returns its fields.";
        let parts = (0..n).map(|i| NameParts::new(&format!("get_record_{i}"))).collect();
        (parts, vec![content_words(desc); n])
    }

    #[test]
    fn a_list_of_alike_tools_is_judged_on_a_bounded_number_of_pairs() {
        // 300 alike tools: 44,850 pairs, under the bound, all judged as before.
        let (parts, descs) = alike(300);
        let found = candidates(&parts, &descs);
        assert!(!found.cut);
        assert_eq!(overlaps(&parts, &descs), overlaps_of_every_pair(&parts, &descs));
        let exact = disambiguation(&parts, &descs);
        assert!(exact.justification.starts_with("44850 overlapping pairs: "), "{}", exact.justification);
        // 3,000: 4.5 million pairs; the search stops at the bound, and says so.
        let (parts, descs) = alike(3_000);
        let found = candidates(&parts, &descs);
        assert!(found.cut);
        assert_eq!(found.pairs.len(), MAX_PAIRS);
        let cut = disambiguation(&parts, &descs);
        assert_eq!(cut.score, 1);
        assert!(
            cut.justification.starts_with("At least 50000 overlapping pairs (the tools are so alike"),
            "{}",
            cut.justification
        );
        assert_eq!(disambiguation(&parts, &descs), cut, "where the search stops does not vary");
    }
}
