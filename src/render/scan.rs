//! Threat scan reports: terminal text with what was hidden highlighted, and markdown for a
//! pull request.

use std::fmt::Write;

use super::{Style, md_cell, plural};
use crate::tdqs::threat::report::ScanReport;
use crate::tdqs::threat::{Finding, Severity};

fn totals(r: &ScanReport) -> String {
    let n = |s| r.findings().filter(|f| f.severity == s).count();
    format!("{} high, {} medium, {} low", n(Severity::High), n(Severity::Medium), n(Severity::Low))
}

fn flagged(r: &ScanReport) -> usize {
    r.tools.iter().filter(|t| !t.threats.is_empty()).count()
}

fn paint_severity(style: Style, s: Severity, text: &str) -> String {
    match s {
        Severity::High => style.red(text),
        Severity::Medium => style.yellow(text),
        Severity::Low => style.blue(text),
    }
}

/// The evidence with the parts that were invisible in the original (`[U+XXXX]`, counted runs
/// and whitespace) painted, so the eye finds them.
pub fn highlight_hidden(evidence: &str, style: Style) -> String {
    let mut out = String::with_capacity(evidence.len());
    let mut rest = evidence;
    while let Some(open) = rest.find('[') {
        let Some(len) = rest[open..].find(']') else { break };
        let token = &rest[open..=open + len];
        let inner = &token[1..token.len() - 1];
        let hidden = inner.starts_with("U+")
            || (inner.starts_with('+') && inner.ends_with(" more"))
            || inner.ends_with(" whitespace characters");
        out.push_str(&rest[..open]);
        out.push_str(&if hidden { style.hidden(token) } else { token.to_owned() });
        rest = &rest[open + len + 1..];
    }
    out.push_str(rest);
    out
}

fn finding_lines(out: &mut String, f: &Finding, style: Style) {
    let tag = format!("{:<7}", f.severity.as_str());
    let _ =
        writeln!(out, "  {} {}  {}", paint_severity(style, f.severity, &tag), style.bold(&f.kind), style.dim(&f.field));
    let _ = writeln!(out, "          {}", highlight_hidden(&f.evidence, style));
    if let Some(decoded) = &f.decoded {
        let shown: String = crate::tdqs::threat::show_invisible(decoded).chars().take(300).collect();
        let _ = writeln!(out, "          {} {}", style.yellow("decoded:"), shown);
    }
}

/// Terminal text: the server's instructions, then every tool, its findings worst first.
pub fn scan_text(r: &ScanReport, style: Style) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} · {} · {} · {} with threats\n",
        style.bold("tdqs-gateway scan"),
        style.bold(&r.server_name),
        plural(r.tools.len(), "tool", "tools"),
        flagged(r)
    );
    if !r.server.threats.is_empty() {
        let _ = writeln!(out, "{}", style.bold("server instructions"));
        for f in sorted(&r.server.threats) {
            finding_lines(&mut out, f, style);
        }
    }
    for t in &r.tools {
        if t.threats.is_empty() {
            let _ = writeln!(out, "{}  {}", style.bold(&t.name), style.green("ok"));
            continue;
        }
        let _ = writeln!(out, "{}  {}", style.bold(&t.name), style.dim(&t.input_hash));
        for f in sorted(&t.threats) {
            finding_lines(&mut out, f, style);
        }
    }
    let _ = writeln!(out, "\n{}", totals(r));
    out
}

fn sorted(findings: &[Finding]) -> Vec<&Finding> {
    let mut v: Vec<&Finding> = findings.iter().collect();
    v.sort_by_key(|f| std::cmp::Reverse(f.severity)); // stable: walk order within a severity
    v
}

/// Evidence as a markdown code span, whatever backticks it holds.
fn md_code(s: &str) -> String {
    let cell = md_cell(s);
    let fence = if cell.contains('`') { "`` " } else { "`" };
    let close = if cell.contains('`') { " ``" } else { "`" };
    format!("{fence}{}{close}", cell.replace("``", "` `"))
}

/// Markdown for a pull-request comment: a summary, then one row per finding, worst first.
pub fn scan_markdown(r: &ScanReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "## TDQS threat scan: {}\n", md_cell(&r.server_name));
    let _ = writeln!(out, "{} · {} with threats · {}\n", plural(r.tools.len(), "tool", "tools"), flagged(r), totals(r));
    let mut rows: Vec<(&str, &Finding)> = r.server.threats.iter().map(|f| ("(server instructions)", f)).collect();
    rows.extend(r.tools.iter().flat_map(|t| t.threats.iter().map(move |f| (t.name.as_str(), f))));
    if rows.is_empty() {
        let _ = writeln!(out, "No threats found.");
        return out;
    }
    rows.sort_by_key(|(_, f)| std::cmp::Reverse(f.severity));
    let _ = writeln!(out, "| Severity | Tool | Kind | Field | Evidence |\n| --- | --- | --- | --- | --- |");
    for (tool, f) in &rows {
        let sev = if f.severity == Severity::High { "**high**".to_owned() } else { f.severity.as_str().to_owned() };
        let mut evidence = md_code(&f.evidence);
        if let Some(d) = &f.decoded {
            let shown: String = crate::tdqs::threat::show_invisible(d).chars().take(300).collect();
            evidence.push_str(&format!(" decoded: {}", md_code(&shown)));
        }
        let _ = writeln!(out, "| {sev} | `{}` | {} | `{}` | {evidence} |", md_cell(tool), f.kind, md_cell(&f.field));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_parts_are_painted_and_brackets_kept() {
        let e = "a[U+200B]b [note] [+3 more] x[50 whitespace characters]y";
        assert_eq!(highlight_hidden(e, Style::Plain), e);
        let painted = highlight_hidden(e, Style::Ansi);
        assert!(painted.contains("\x1b[1;7;31m[U+200B]\x1b[0m"));
        assert!(painted.contains(" [note] "));
        assert!(painted.contains("\x1b[1;7;31m[50 whitespace characters]\x1b[0m"));
    }

    #[test]
    fn markdown_code_spans_survive_backticks_and_pipes() {
        assert_eq!(md_code("a|b"), "`a\\|b`");
        assert_eq!(md_code("use `x`"), "`` use `x` ``");
    }
}
