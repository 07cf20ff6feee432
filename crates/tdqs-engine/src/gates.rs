//! Stage 2: hard gates that need no judge. A missing description ends scoring at once; a
//! tautological one still goes to the judge but caps Purpose Clarity afterwards.

use super::definition::ToolDefinition;
use super::json::JsString;
use super::text::{js_trim, lowercase, trims_to_empty};

/// What the gates decided for one tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    /// Go to the judge, nothing to adjust.
    Pass,
    /// Description null or blank: every dimension 1, no judge call.
    NoDescription,
    /// Description restates the name or title: judge, then cap Purpose Clarity at 2.
    Tautological,
}

pub fn evaluate_gates(tool: &ToolDefinition) -> Gate {
    let Some(desc) = tool.description.as_ref().filter(|d| !trims_to_empty(d)) else {
        return Gate::NoDescription;
    };
    let same_as_name = same_folded(desc, &tool.name);
    let same_as_title = tool.title.as_ref().is_some_and(|t| same_folded(desc, t));
    if same_as_name || same_as_title { Gate::Tautological } else { Gate::Pass }
}

/// Lower and upper bounds on the code-point length of `s` after JavaScript trim.
fn trimmed_len_bounds(s: &JsString) -> (usize, usize) {
    let b = s.as_bytes();
    let ws = |c: &u8| matches!(c, 0x09..=0x0D | 0x20);
    let start = b.iter().position(|c| !ws(c)).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !ws(c)).map_or(start, |e| e + 1);
    let t = &b[start..end];
    if t.first().is_some_and(|&c| c >= 0x80) || t.last().is_some_and(|&c| c >= 0x80) {
        // Non-ASCII at an end may be whitespace JavaScript trims: count exactly.
        let n = js_trim(s).len();
        return (n, n);
    }
    // A code point takes one to four bytes.
    (t.len().div_ceil(4), t.len())
}

/// Whether `a` and `b` are equal after JavaScript trim and lowercase.
fn same_folded(a: &JsString, b: &JsString) -> bool {
    if a.is_ascii() && b.is_ascii() {
        // Pure ASCII (the common case): no allocation. JavaScript trims 0x09..=0x0D and 0x20.
        let trim = |s: &[u8]| -> (usize, usize) {
            let ws = |c: &u8| matches!(c, 0x09..=0x0D | 0x20);
            let start = s.iter().position(|c| !ws(c)).unwrap_or(s.len());
            let end = s.iter().rposition(|c| !ws(c)).map_or(start, |e| e + 1);
            (start, end)
        };
        let (ab, bb) = (a.as_bytes(), b.as_bytes());
        let ((s1, e1), (s2, e2)) = (trim(ab), trim(bb));
        return ab[s1..e1].eq_ignore_ascii_case(&bb[s2..e2]);
    }
    // Lowercasing maps a code point to one or two (U+0130 -> "i\u{307}"), so strings whose
    // trimmed lengths differ by more than 2x cannot match: decide most pairs from byte
    // lengths, without decoding.
    let ((a_lo, a_hi), (b_lo, b_hi)) = (trimmed_len_bounds(a), trimmed_len_bounds(b));
    if a_lo > 2 * b_hi || b_lo > 2 * a_hi {
        return false;
    }
    lowercase(&js_trim(a)) == lowercase(&js_trim(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::JsString;

    fn tool(name: &str, title: Option<&str>, description: Option<&str>) -> ToolDefinition {
        ToolDefinition {
            name: name.into(),
            title: title.map(JsString::from),
            description: description.map(JsString::from),
            input_schema: None,
            output_schema: None,
            annotations: None,
        }
    }

    #[test]
    fn gates() {
        assert_eq!(evaluate_gates(&tool("a", None, None)), Gate::NoDescription);
        assert_eq!(evaluate_gates(&tool("a", None, Some(" \u{FEFF}\u{A0}\n"))), Gate::NoDescription);
        // U+0085 is not JavaScript whitespace, so this is a (poor) description.
        assert_eq!(evaluate_gates(&tool("a", None, Some("\u{85}"))), Gate::Pass);
        assert_eq!(evaluate_gates(&tool("Process", None, Some(" process "))), Gate::Tautological);
        assert_eq!(evaluate_gates(&tool("p", Some("Get Calls"), Some("get calls"))), Gate::Tautological);
        assert_eq!(evaluate_gates(&tool("p", None, Some("Processes a queue."))), Gate::Pass);
        // Vertical tab is JavaScript whitespace (Rust's trim_ascii would keep it).
        assert_eq!(evaluate_gates(&tool("Echo", None, Some("\u{B}echo\u{B}"))), Gate::Tautological);
        assert_eq!(evaluate_gates(&tool("ΟΔΟΣ", None, Some(" οδος "))), Gate::Tautological);
    }
}
