//! Reports rendered for people: terminal text and markdown (for a pull request or an issue).
//! The JSON forms are the serde shapes in `tdqs::report`; these are views of the same data,
//! shared by the command line and the admin API.

mod lint;
mod scan;
mod score;
mod style;

pub use lint::{lint_markdown, lint_text};
pub use scan::{highlight_hidden, scan_markdown, scan_text};
pub use score::{score_markdown, score_text};
pub use style::Style;

/// Escapes text for a markdown table cell.
pub(crate) fn md_cell(s: &str) -> String {
    s.replace('\\', "\\\\").replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// "1 error", "2 errors".
pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
