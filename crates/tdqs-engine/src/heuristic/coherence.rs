//! The coherence judge: naming consistency, disambiguation, tool count and lifecycle
//! completeness over a server's names and descriptions, plus shadowing risks confirmed only
//! among the prefilter's candidate pairs.

use std::collections::BTreeMap;

use crate::answer::Justified;
use crate::prompt::CoherenceTool;
use crate::shadow::{ShadowCandidate, ShadowingRisk};

use super::lexicon::{VerbClass, synonymous, verb_class};
use super::names::{Case, NameParts, VerbOrder, content_words, jaccard};
use super::text::plain;

fn j(score: u8, justification: String) -> Justified {
    Justified { score, justification }
}

fn share(part: usize, whole: usize) -> u32 {
    (100 * part).checked_div(whole).unwrap_or(100) as u32
}

/// Case convention, verb position and namespace prefixes across the names.
pub fn naming_consistency(parts: &[NameParts]) -> Justified {
    if parts.len() <= 1 {
        return j(5, "A single tool name cannot be inconsistent with itself.".to_owned());
    }
    let mut cases: BTreeMap<&str, usize> = BTreeMap::new();
    for p in parts.iter().filter(|p| p.case != Case::Single) {
        *cases.entry(p.case.label()).or_default() += 1;
    }
    let styled: usize = cases.values().sum();
    let (style, style_n) = cases.iter().max_by_key(|(_, n)| **n).map_or(("single word", 0), |(s, n)| (*s, *n));
    let case_share = share(style_n, styled);
    let first = parts.iter().filter(|p| p.order == VerbOrder::VerbFirst).count();
    let last = parts.iter().filter(|p| p.order == VerbOrder::VerbLast).count();
    let nouns = parts.iter().filter(|p| p.order == VerbOrder::NoVerb).count();
    let patterns = [(first, "verb_noun"), (last, "noun_verb"), (nouns, "noun-only")];
    let (dominant, pattern) = patterns.iter().copied().max_by_key(|(n, _)| *n).unwrap_or((0, "verb_noun"));
    let order_share = share(dominant, parts.len());
    let mut score: i32 = 5;
    score -= match case_share {
        100 => 0,
        80.. => 1,
        60.. => 2,
        _ => 3,
    };
    score -= match order_share {
        80.. => 0,
        60.. => 1,
        _ => 2,
    };
    let mut notes = vec![format!("{case_share}% of multi-word names use {style}",)];
    let others: Vec<String> =
        patterns.iter().filter(|(n, p)| *n > 0 && *p != pattern).map(|(n, p)| format!("{n} {p}")).collect();
    notes.push(format!(
        "{pattern} names dominate ({dominant} of {}{})",
        parts.len(),
        if others.is_empty() { String::new() } else { format!("; {}", others.join(", ")) }
    ));
    let prefixed: BTreeMap<&str, usize> =
        parts.iter().filter_map(|p| p.words.first().filter(|_| p.words.len() > 1)).fold(BTreeMap::new(), |mut m, w| {
            *m.entry(w.as_str()).or_default() += 1;
            m
        });
    if let Some((prefix, n)) = prefixed.iter().max_by_key(|(_, n)| **n)
        && parts.len() >= 3
        && verb_class(prefix).is_none()
    {
        let n = *n;
        if n == parts.len() {
            notes.push(format!("all share the prefix '{prefix}_'"));
        } else if 2 * n > parts.len() {
            score -= 1;
            notes.push(format!("{n} of {} carry the prefix '{prefix}', the rest do not", parts.len()));
        }
    }
    j(score.clamp(1, 5) as u8, format!("{}.", capital(&notes.join("; "))))
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// Pairs whose names or descriptions overlap: (strong?, tool a, tool b, reason), in pair order.
/// Only the pairs that share something an overlap needs are judged (`overlap_pairs.rs`).
#[cfg(test)]
pub fn overlaps(parts: &[NameParts], descs: &[Vec<String>]) -> Vec<(bool, usize, usize, String)> {
    let mut found = Vec::new();
    each_overlap(parts, descs, |strong, a, b, why| found.push((strong, a, b, why)));
    found
}

/// Calls `f` for each overlapping pair (strong?, a, b, reason), in the order of a loop over
/// every pair; `true` when the candidates were cut at their bound
/// ([`super::overlap_pairs::MAX_PAIRS`]).
fn each_overlap(parts: &[NameParts], descs: &[Vec<String>], mut f: impl FnMut(bool, usize, usize, String)) -> bool {
    let candidates = super::overlap_pairs::candidates(parts, descs);
    for &(a, b) in &candidates.pairs {
        if let Some((strong, why)) = overlap(parts, descs, a, b) {
            f(strong, a, b, why);
        }
    }
    candidates.cut
}

/// Whether tools `a` and `b` overlap, how strongly and why.
fn overlap(parts: &[NameParts], descs: &[Vec<String>], a: usize, b: usize) -> Option<(bool, String)> {
    let (pa, pb) = (&parts[a], &parts[b]);
    let same_resource = !pa.resource.is_empty() && pa.resource == pb.resource;
    // Different actions on the same fields (create vs update) are not overlaps.
    let comparable = (pa.class() == pb.class() || pa.class().is_none() || pb.class().is_none())
        && descs[a].len().min(descs[b].len()) >= 6;
    let sim = if comparable { jaccard(&descs[a], &descs[b]) } else { 0.0 };
    let (na, nb) = (&pa.name, &pb.name);
    let synonyms =
        same_resource && matches!((&pa.verb, &pb.verb), (Some((va, _)), Some((vb, _))) if synonymous(va, vb));
    if synonyms {
        Some((true, format!("`{na}` and `{nb}` use synonymous verbs on the same resource")))
    } else if sim >= 0.6 {
        Some((true, format!("`{na}` and `{nb}` have near-identical descriptions ({:.0}% shared words)", 100.0 * sim)))
    } else if pa.class() == pb.class() && same_head_qualified(&pa.resource, &pb.resource) {
        Some((false, format!("`{na}` and `{nb}` differ only by a qualifier on the same resource")))
    } else if same_resource && pa.verb == pb.verb {
        Some((false, format!("`{na}` and `{nb}` do the same thing to the same resource")))
    } else if pa.has_overview_noun()
        && pb.has_overview_noun()
        && nested_or_equal(&pa.core_resource(), &pb.core_resource())
    {
        Some((false, format!("`{na}` and `{nb}` both give an overview of the same thing")))
    } else if sim >= 0.4 {
        Some((false, format!("`{na}` and `{nb}` have overlapping descriptions ({:.0}% shared words)", 100.0 * sim)))
    } else {
        None
    }
}

/// What [`overlaps`] finds, by judging every pair: the reference it is tested against.
#[cfg(test)]
pub fn overlaps_of_every_pair(parts: &[NameParts], descs: &[Vec<String>]) -> Vec<(bool, usize, usize, String)> {
    let mut out = Vec::new();
    for a in 0..parts.len() {
        for b in a + 1..parts.len() {
            if let Some((strong, why)) = overlap(parts, descs, a, b) {
                out.push((strong, a, b, why));
            }
        }
    }
    out
}

/// `configuration` vs `server_configuration`: one resource is the other with qualifiers in
/// front of the same head noun (`configuration_path` has a different head and is not).
fn same_head_qualified(a: &[String], b: &[String]) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    !short.is_empty() && short.len() < long.len() && long.ends_with(short)
}

fn nested_or_equal(a: &[String], b: &[String]) -> bool {
    a == b || a.iter().all(|w| b.contains(w)) || b.iter().all(|w| a.contains(w))
}

pub fn disambiguation(parts: &[NameParts], descs: &[Vec<String>]) -> Justified {
    // Counted as they are found, with the first three reasons kept: a list of alike tools has
    // far more overlapping pairs than a justification names.
    let (mut strong, mut weak, mut cited) = (0usize, 0usize, Vec::with_capacity(3));
    let cut = each_overlap(parts, descs, |is_strong, _, _, why| {
        if is_strong {
            strong += 1;
        } else {
            weak += 1;
        }
        if cited.len() < 3 {
            cited.push(why);
        }
    });
    let found = strong + weak;
    let score = match (strong, weak) {
        (0, 0) => 5,
        (0, 1) => 4,
        (0, _) => 3,
        (1, w) => 3 - u8::from(w >= 2),
        (2..=3, _) => 2,
        _ => 1,
    };
    if found == 0 {
        return j(
            5,
            format!(
                "No two of the {} tools share a resource with synonymous verbs, and no descriptions overlap.",
                parts.len()
            ),
        );
    }
    let counted = if cut {
        format!(
            "At least {found} overlapping pairs (the tools are so alike that only the first {} candidate pairs were judged)",
            super::overlap_pairs::MAX_PAIRS
        )
    } else {
        format!("{found} overlapping pair{}", if found == 1 { "" } else { "s" })
    };
    j(score, format!("{counted}: {}.", cited.join("; ")))
}

/// TDQS: 3-15 tools is well-scoped, 16-25 heavy, 26+ or a single tool too many or too few,
/// 50+ extreme.
pub fn tool_count_appropriateness(n: usize) -> Justified {
    let (score, why) = match n {
        0 | 1 => (2, "a single tool is too few to form a useful server"),
        2 => (3, "two tools is on the thin side"),
        3 => (4, "three tools sits at the low edge of the well-scoped range"),
        4..=15 => (5, "within the well-scoped range of 3-15"),
        16..=25 => (4, "heavy (16-25) but still manageable"),
        26..=49 => (3, "too many (26 or more) for an agent to choose among easily"),
        _ => (2, "an extreme number (50 or more) that crowds an agent's context"),
    };
    j(score, format!("{n} tool{}: {why}.", if n == 1 { "" } else { "s" }))
}

/// CRUD/lifecycle coverage of the resources the names operate on.
pub fn completeness(parts: &[NameParts]) -> Justified {
    if parts.len() <= 1 {
        let demo = parts.first().is_none_or(|p| p.resource.is_empty());
        return j(
            if demo { 1 } else { 2 },
            format!("One tool{} cannot cover a lifecycle.", if demo { " with no resource in its name" } else { "" }),
        );
    }
    // A resource is the head noun of a name (`enrollment` in `create_teacher_enrollment`); a
    // tool acts on it when the noun occurs anywhere in its resource words.
    let ops = classes_by_head(parts);
    let has = |v: &[VerbClass], c: VerbClass| v.contains(&c);
    let mut gaps = Vec::new();
    let mut complete = Vec::new();
    let mut severe = 0;
    let mut written = 0;
    for (res, v) in &ops {
        if !v.iter().any(|c| matches!(c, VerbClass::Create | VerbClass::Update | VerbClass::Delete)) {
            continue;
        }
        written += 1;
        let read = v.iter().any(|c| c.reads());
        let create = has(v, VerbClass::Create);
        let remove = has(v, VerbClass::Delete);
        if create && read && (remove || has(v, VerbClass::Update)) {
            complete.push(*res);
        } else if !read {
            severe += 1;
            gaps.push(format!("'{res}' can be changed but nothing reads it"));
        } else if create {
            gaps.push(format!("'{res}' can be created but not deleted or updated"));
        } else {
            gaps.push(format!("'{res}' is modified but never created here"));
        }
    }
    if written == 0 {
        let paired: Vec<&str> =
            ops.iter().filter(|(_, v)| has(v, VerbClass::Get) && has(v, VerbClass::List)).map(|(r, _)| *r).collect();
        let score = if !paired.is_empty() || parts.len() >= 5 { 4 } else { 3 };
        let why = match paired.first() {
            Some(r) => format!("both list and get exist for '{r}'"),
            None if parts.len() >= 5 => "a broad set of actions, no lifecycle expected".to_owned(),
            None => "each resource has a single operation".to_owned(),
        };
        return j(score, format!("No tool creates, changes or deletes anything; {why}."));
    }
    let score = if gaps.is_empty() {
        5
    } else if severe >= 2 && severe * 2 > written {
        2
    } else if severe > 0 || gaps.len() >= 3 {
        3
    } else {
        4
    };
    let mut text =
        if complete.is_empty() { String::new() } else { format!("Full lifecycle for '{}'", complete.join("', '")) };
    if !gaps.is_empty() {
        if !text.is_empty() {
            text.push_str("; ");
        }
        let shown: Vec<&str> = gaps.iter().take(3).map(String::as_str).collect();
        text.push_str(&capital(&shown.join("; ")));
    }
    j(score, format!("{text}."))
}

/// For each head noun, the verb classes of the tools whose resource holds it, in tool order:
/// one pass over the tools instead of one per head.
fn classes_by_head(parts: &[NameParts]) -> BTreeMap<&str, Vec<VerbClass>> {
    let mut holding: std::collections::HashMap<&str, Vec<VerbClass>> = std::collections::HashMap::new();
    for p in parts {
        let Some(class) = p.class() else { continue };
        for (i, w) in p.resource.iter().enumerate() {
            if !p.resource[..i].contains(w) {
                holding.entry(w.as_str()).or_default().push(class);
            }
        }
    }
    let heads = parts.iter().filter_map(|p| p.resource.last());
    heads.map(|h| (h.as_str(), holding.get(h.as_str()).cloned().unwrap_or_default())).collect()
}

/// What [`classes_by_head`] finds, tool by tool for each head: the reference it is tested against.
#[cfg(test)]
pub fn classes_by_head_of_every_tool(parts: &[NameParts]) -> BTreeMap<&str, Vec<VerbClass>> {
    let mut ops: BTreeMap<&str, Vec<VerbClass>> = BTreeMap::new();
    for head in parts.iter().filter_map(|p| p.resource.last()) {
        let classes = parts.iter().filter(|p| p.resource.contains(head)).filter_map(NameParts::class).collect();
        ops.insert(head.as_str(), classes);
    }
    ops
}

#[cfg(test)]
pub fn classes_by_head_indexed(parts: &[NameParts]) -> BTreeMap<&str, Vec<VerbClass>> {
    classes_by_head(parts)
}

/// Confirms a candidate pair when the two tools plausibly do the same job: overlapping
/// descriptions, or read verbs on the same resource.
pub fn shadowing(tools: &[CoherenceTool<'_>], candidates: &[ShadowCandidate]) -> Vec<ShadowingRisk> {
    let mut out: Vec<ShadowingRisk> = Vec::new();
    // The first tool of each name, and the tools already confirmed: looked up, not scanned.
    let mut first: std::collections::HashMap<&crate::json::JsString, &CoherenceTool<'_>> =
        std::collections::HashMap::new();
    for t in tools {
        first.entry(t.name).or_insert(t);
    }
    let mut confirmed: std::collections::HashSet<String> = std::collections::HashSet::new();
    for c in candidates {
        let (Some(dear), Some(cheap)) = (first.get(&c.tool).copied(), first.get(&c.cheaper_sibling).copied()) else {
            continue;
        };
        if confirmed.contains(&plain(&c.tool)) {
            continue;
        }
        let (pd, pc) = (NameParts::new(&plain(dear.name)), NameParts::new(&plain(cheap.name)));
        let words = |t: &CoherenceTool| t.description.map(|d| content_words(&plain(d))).unwrap_or_default();
        let (wd, wc) = (words(dear), words(cheap));
        let sim = jaccard(&wd, &wc);
        let shared: Vec<&String> = pd.resource.iter().filter(|w| pc.resource.contains(w)).collect();
        let both_read = pd.class().is_some_and(VerbClass::reads) && pc.class().is_some_and(VerbClass::reads);
        let why = if sim >= 0.35 {
            let common: Vec<&str> = wd.iter().filter(|w| wc.contains(w)).take(4).map(String::as_str).collect();
            Some(format!(
                "descriptions share {:.0}% of their words ({}), so the cheaper `{}` (cost {}) may be picked for the same request",
                100.0 * sim,
                common.join(", "),
                plain(&c.cheaper_sibling),
                c.cheaper_sibling_invocation_cost
            ))
        } else if both_read && !shared.is_empty() {
            Some(format!(
                "both read '{}', and the cheaper `{}` (cost {} vs {}) is the easier call",
                shared[0],
                plain(&c.cheaper_sibling),
                c.cheaper_sibling_invocation_cost,
                c.invocation_cost
            ))
        } else {
            None
        };
        if let Some(justification) = why {
            confirmed.insert(plain(&c.tool));
            out.push(ShadowingRisk {
                tool: plain(&c.tool),
                cheaper_sibling: plain(&c.cheaper_sibling),
                justification: format!("`{}` and `{}`: {justification}.", plain(&c.tool), plain(&c.cheaper_sibling)),
            });
        }
    }
    out
}
