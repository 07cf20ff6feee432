//! Score reports for a terminal (weakest tools first, with what to fix) and for an issue.

use std::fmt::Write;

use super::{Style, md_cell, plural};
use crate::scoring::ScoreReport;
use crate::tdqs::score::{Dimension, Tenths, Tier};
use crate::tdqs::server::ServerScore;
use crate::tdqs::tool_score::ToolScore;

fn score_tier(score: Option<Tenths>, tier: Option<Tier>) -> String {
    match (score, tier) {
        (Some(s), Some(t)) => format!("{s} {t}"),
        _ => "n/a".to_owned(),
    }
}

/// Tools ordered weakest first (ties keep input order).
fn weakest_first(r: &ScoreReport) -> Vec<&ToolScore> {
    let mut tools: Vec<&ToolScore> = r.tools.iter().collect();
    tools.sort_by_key(|t| t.tdqs);
    tools
}

fn server_line(s: &ServerScore) -> String {
    format!(
        "overall {} · description quality {} · coherence {}",
        score_tier(s.overall_score, s.overall_tier),
        score_tier(s.description_quality_score, s.description_quality_tier),
        score_tier(s.coherence_score, s.coherence_tier)
    )
}

fn paint_tier(style: Style, tier: Tier, text: &str) -> String {
    match tier {
        Tier::A | Tier::B => style.green(text),
        Tier::C => style.yellow(text),
        Tier::D | Tier::F => style.red(text),
    }
}

/// Terminal text: the server's numbers, then every tool weakest first with its smells and the
/// judge's reasons for them.
pub fn score_text(r: &ScoreReport, style: Style) -> String {
    let mut out = String::new();
    let s = &r.server_score;
    let _ = writeln!(
        out,
        "{} · {} · {} · judge {} · TDQS {}\n",
        style.bold("tdqs-gateway score"),
        style.bold(&r.server.name),
        plural(r.server.tool_count, "tool", "tools"),
        r.model,
        r.spec_version
    );
    let _ = writeln!(out, "{}  {}", style.bold("server"), server_line(s));
    if let (Some(mean), Some(min)) = (s.mean_tdqs, s.min_tdqs) {
        let _ = writeln!(
            out,
            "        mean {mean} · lowest {min} · {} of {} tools scored",
            s.scored_tool_count, s.tool_count
        );
    }
    if let Some(summary) = &s.coherence_summary {
        let _ = writeln!(out, "        {}", style.dim(summary));
    }
    let _ = writeln!(out, "\n{}", style.bold("tools, weakest first"));
    for t in weakest_first(r) {
        let head = format!("{} {}", t.tier, t.tdqs);
        let mut marks: Vec<String> = t.flags.iter().map(|f| f.label().to_owned()).collect();
        marks.extend(t.server_flags.iter().map(|_| "Shadowing Risk".to_owned()));
        let marks = if marks.is_empty() { String::new() } else { format!("  [{}]", marks.join(", ")) };
        let _ = writeln!(
            out,
            "  {}  {}{}",
            paint_tier(style, t.tier, &head),
            style.bold(&t.name.to_string()),
            style.red(&marks)
        );
        let reasons: Vec<&str> = t.smells.iter().map(|d| t.justifications.get(*d).justification.as_str()).collect();
        if reasons.len() > 1 && reasons.iter().all(|r| *r == reasons[0]) {
            // One cause behind every weak dimension (e.g. no description): say it once.
            let _ = writeln!(
                out,
                "         {} {} (all {} weak dimensions)",
                style.yellow("fix"),
                reasons[0],
                reasons.len()
            );
        } else {
            for (d, reason) in t.smells.iter().zip(reasons) {
                let _ = writeln!(out, "         {} {}: {reason}", style.yellow("fix"), d.label());
            }
        }
        if t.smells.is_empty() {
            let _ = writeln!(out, "         {}", style.dim(&t.summary));
        }
    }
    if !s.shadowing_risks.is_empty() {
        let _ = writeln!(out, "\n{}", style.bold("shadowing risks"));
        for k in &s.shadowing_risks {
            let _ = writeln!(
                out,
                "  {} (cost {}) may lose to {} (cost {}): {}",
                k.tool, k.invocation_cost, k.cheaper_sibling, k.cheaper_sibling_invocation_cost, k.justification
            );
        }
    }
    out
}

/// Markdown for an issue to a server's maintainer.
pub fn score_markdown(r: &ScoreReport) -> String {
    let mut out = String::new();
    let s = &r.server_score;
    let _ = writeln!(out, "## TDQS score: {}\n", md_cell(&r.server.name));
    let _ = writeln!(
        out,
        "{} · judge `{}` · TDQS {} · generated {}\n",
        plural(r.server.tool_count, "tool", "tools"),
        md_cell(&r.model),
        r.spec_version,
        r.generated_at
    );
    let _ = writeln!(out, "**Server:** {}\n", server_line(s));
    let _ = writeln!(out, "| Tool | TDQS | Tier | {} | Flags |", Dimension::ALL.map(Dimension::label).join(" | "));
    let _ = writeln!(out, "| --- | --- | --- |{} --- |", " --- |".repeat(6));
    for t in weakest_first(r) {
        let dims: Vec<String> = Dimension::ALL.iter().map(|d| t.scores.get(*d).to_string()).collect();
        let mut flags: Vec<&str> = t.flags.iter().map(|f| f.label()).collect();
        flags.extend(t.server_flags.iter().map(|_| "Shadowing Risk"));
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            md_cell(&t.name.to_string()),
            t.tdqs,
            t.tier,
            dims.join(" | "),
            flags.join(", ")
        );
    }
    let _ = writeln!(out, "\n### What to fix\n");
    for t in weakest_first(r).into_iter().filter(|t| !t.smells.is_empty()) {
        let _ = writeln!(out, "- **{}** ({} {})", md_cell(&t.name.to_string()), t.tier, t.tdqs);
        for d in &t.smells {
            let _ = writeln!(out, "  - {}: {}", d.label(), md_cell(&t.justifications.get(*d).justification));
        }
    }
    if !s.shadowing_risks.is_empty() {
        let _ = writeln!(out, "\n### Shadowing risks\n");
        for k in &s.shadowing_risks {
            let _ = writeln!(
                out,
                "- **{}** (cost {}) may lose to **{}** (cost {}): {}",
                md_cell(&k.tool.to_string()),
                k.invocation_cost,
                md_cell(&k.cheaper_sibling.to_string()),
                k.cheaper_sibling_invocation_cost,
                md_cell(&k.justification)
            );
        }
    }
    out
}
