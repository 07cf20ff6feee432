//! Parameter Semantics: how much meaning the definition gives the parameters beyond their
//! schema types. Schema coverage sets the baseline; the description can add to it or, below
//! 50% coverage, has to make up for it.

use crate::answer::Justified;

use super::evidence::{Evidence, Mention};

pub fn parameter_semantics(e: &Evidence) -> Justified {
    let s = &e.signals;
    let n = s.param_count as usize;
    if n == 0 {
        return Justified {
            score: 4,
            justification: "Takes no parameters, so there is nothing to explain (baseline 4).".to_owned(),
        };
    }
    let cov = s.schema_description_coverage;
    let coverage = format!("{} of {n} parameters described in the schema ({cov}%)", s.params_with_descriptions);
    let explained = e.params_mentioned(Mention::Explained);
    let named = e.params_mentioned(Mention::Full);
    let partial = e.params_mentioned(Mention::Partial);
    let prose = prose_summary(e, explained, named, partial);
    let details = e.details.first().map(|d| format!(" with concrete values ('{d}')"));
    if cov >= 50 {
        let adds = explained >= 1 && (2 * explained >= n || explained >= 2) && details.is_some();
        let score = if adds && explained >= n && e.details.len() >= 2 {
            5
        } else if adds {
            4
        } else {
            3
        };
        let why = if score > 3 {
            format!("; the description adds meaning on top: {prose}{}", details.unwrap_or_default())
        } else if cov > 80 {
            "; the schema carries them, the description adds little (baseline 3)".to_owned()
        } else {
            format!("; the description does not fill the gap: {prose}")
        };
        return Justified { score, justification: format!("{coverage}{why}.") };
    }
    // Below 50%: the description must compensate for what the schema leaves unsaid.
    let undocumented: Vec<&str> =
        e.params.iter().filter(|p| !p.described && p.mention < Mention::Explained).map(|p| p.name.as_str()).collect();
    let credit = 10 * s.params_with_descriptions as usize
        + e.params
            .iter()
            .filter(|p| !p.described)
            .map(|p| match p.mention {
                Mention::Explained => 10,
                Mention::Full => 4,
                Mention::Partial => 2,
                Mention::None => 0,
            })
            .sum::<usize>();
    let score = if credit == 0 {
        1
    } else if credit < 5 * n {
        2
    } else if credit < 10 * n {
        3
    } else if e.details.len() >= 2 {
        5
    } else {
        4
    };
    let left = if undocumented.is_empty() {
        String::new()
    } else {
        let shown: Vec<String> = undocumented.iter().take(4).map(|p| format!("`{p}`")).collect();
        format!("; left unexplained: {}", shown.join(", "))
    };
    Justified {
        score,
        justification: format!(
            "{coverage}, below half, so the description must compensate: {prose}{}{left}.",
            if score >= 4 { details.unwrap_or_default() } else { String::new() }
        ),
    }
}

fn prose_summary(e: &Evidence, explained: usize, named: usize, partial: usize) -> String {
    let n = e.params.len();
    let names = |m: Mention| {
        let shown: Vec<String> =
            e.params.iter().filter(|p| p.mention == m).take(3).map(|p| format!("`{}`", p.name)).collect();
        shown.join(", ")
    };
    if explained > 0 {
        format!("it explains {explained} of {n} by name ({})", names(Mention::Explained))
    } else if named > 0 {
        format!("it only names {named} of {n} in passing ({})", names(Mention::Full))
    } else if partial > 0 {
        format!("it only alludes to {partial} of {n} ({})", names(Mention::Partial))
    } else {
        "it mentions none of them".to_owned()
    }
}
