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
    lowercase(&js_trim(a)) == lowercase(&js_trim(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tdqs::json::JsString;

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
