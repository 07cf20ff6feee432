//! Lint reports for a terminal (grouped by tool, severity first) and for a pull request.

use std::fmt::Write;

use super::{Style, md_cell, plural};
use crate::tdqs::lint::{LintFinding, LintSeverity};
use crate::tdqs::report::LintReport;
use crate::tdqs::signals::ContextSignals;

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

fn totals(r: &LintReport) -> String {
    let n = |s| r.findings.iter().filter(|f| f.severity == s).count();
    format!(
        "{}, {}, {}",
        plural(n(LintSeverity::Error), "error", "errors"),
        plural(n(LintSeverity::Warning), "warning", "warnings"),
        plural(n(LintSeverity::Info), "note", "notes")
    )
}

fn signal_line(s: &ContextSignals) -> String {
    format!(
        "{} params, {}% described · annotations {} · output schema {} · invocation cost {}",
        s.param_count,
        s.schema_description_coverage,
        yes_no(s.has_annotations),
        yes_no(s.has_output_schema),
        s.invocation_cost
    )
}

/// Terminal text: one block per tool, its signals on one line, then its findings.
pub fn lint_text(r: &LintReport, style: Style) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} · {} · {} · TDQS {}\n",
        style.bold("tdqs-gateway lint"),
        style.bold(&r.server.name),
        plural(r.server.tool_count, "tool", "tools"),
        r.spec_version
    );
    for t in &r.tools {
        let _ = writeln!(out, "{}  {}", style.bold(&t.name.to_string()), style.dim(&signal_line(&t.context_signals)));
        if t.findings.is_empty() {
            let _ = writeln!(out, "  {}", style.green("ok       no findings"));
        }
        for f in &t.findings {
            let tag = format!("{:<8}", f.severity.as_str());
            let tag = match f.severity {
                LintSeverity::Error => style.red(&tag),
                LintSeverity::Warning => style.yellow(&tag),
                LintSeverity::Info => style.blue(&tag),
            };
            let _ = writeln!(out, "  {tag} {}  {}", f.rule.as_str(), f.message);
        }
    }
    let _ = writeln!(out, "\n{}", totals(r));
    out
}

/// Markdown for a pull-request comment: a summary, the findings, and the signals table.
pub fn lint_markdown(r: &LintReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "## TDQS lint: {}\n", md_cell(&r.server.name));
    let _ = writeln!(
        out,
        "{} · {} · TDQS {} · generated {}\n",
        plural(r.server.tool_count, "tool", "tools"),
        totals(r),
        r.spec_version,
        r.generated_at
    );
    if r.findings.is_empty() {
        let _ = writeln!(out, "No findings.\n");
    } else {
        let _ = writeln!(out, "| LintSeverity | Tool | Rule | LintFinding |\n| --- | --- | --- | --- |");
        let mut sorted: Vec<&LintFinding> = r.findings.iter().map(|f| &**f).collect();
        sorted.sort_by_key(|f| f.severity); // stable: keeps tool order within a severity
        for f in sorted {
            let sev = match f.severity {
                LintSeverity::Error => "**error**",
                LintSeverity::Warning => "warning",
                LintSeverity::Info => "info",
            };
            let _ = writeln!(
                out,
                "| {sev} | `{}` | {} | {} |",
                md_cell(&f.tool.to_string()),
                f.rule.as_str(),
                md_cell(&f.message)
            );
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "<details><summary>Signals per tool</summary>\n\n| Tool | Params | Required | Described | Annotations | Output schema | Invocation cost | Bytes | Hash |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    );
    for t in &r.tools {
        let s = &t.context_signals;
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {}% | {} | {} | {} | {} | `{}` |",
            md_cell(&t.name.to_string()),
            s.param_count,
            s.required_param_count,
            s.schema_description_coverage,
            yes_no(s.has_annotations),
            yes_no(s.has_output_schema),
            s.invocation_cost,
            s.definition_bytes,
            s.input_hash
        );
    }
    out.push_str("\n</details>\n");
    out
}
