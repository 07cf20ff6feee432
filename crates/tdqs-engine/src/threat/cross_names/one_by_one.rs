//! The cross-server checks as they were before the names were indexed: every name compared in
//! turn. The reference the indexed checks are tested against (same findings, same order).

use crate::threat::references::{directions_about_tools, mention, skeleton, tool_like};
use crate::threat::strings::{ModelText, Role};
use crate::threat::{Finding, Severity};

pub fn name_collisions_one_by_one(name: &str, others: &[(&str, &str)], out: &mut Vec<Finding>) {
    if name.is_empty() {
        return;
    }
    let mine = skeleton(name);
    let plain = |s: &str| s.to_lowercase().replace(['_', '-', '.', ' '], "");
    for (upstream, other) in others {
        let (severity, how) = if *other == name {
            (Severity::Medium, "the same name as")
        } else if plain(other) == plain(name) {
            (Severity::Medium, "a name differing only in case or separators from")
        } else if skeleton(other) == mine {
            (Severity::High, "a look-alike of")
        } else {
            continue;
        };
        let evidence = format!("{name} has {how} {other} of upstream {upstream}");
        out.push(Finding::new("tool-name-collision", severity, "#/name", evidence));
    }
}

pub fn foreign_references_one_by_one(
    t: &ModelText<'_>,
    own_name: &str,
    own_tools: &[&str],
    params: &[&str],
    others: &[(&str, &str)],
    out: &mut Vec<Finding>,
) {
    if !matches!(t.role, Role::Prose | Role::Value) {
        return;
    }
    let is_own = |id: &str| {
        id.eq_ignore_ascii_case(own_name)
            || own_tools.iter().any(|o| o.eq_ignore_ascii_case(id))
            || params.iter().any(|p| p.eq_ignore_ascii_case(id))
    };
    let upstream_of = |id: &str| others.iter().find(|(_, n)| *n == id).map(|(u, _)| *u);
    let mut flagged = Vec::new();
    // The directions were not changed by the index; only the name look-ups are compared here.
    directions_about_tools(t, &is_own, &upstream_of, &mut flagged, out);
    // Plain mentions of another upstream's distinctive tool names.
    for (upstream, other) in others {
        if other.len() < 4 || !tool_like(other) || is_own(other) || flagged.contains(other) {
            continue;
        }
        out.extend(mention(t, upstream, other));
    }
}
