//! Stage 2: hard gates that need no judge. A missing description ends scoring at once; a
//! tautological one still goes to the judge but caps Purpose Clarity afterwards.

use super::definition::ToolDefinition;
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
    let folded = |s| lowercase(&js_trim(s));
    let d = folded(desc);
    let same_as_name = d == folded(&tool.name);
    let same_as_title = tool.title.as_ref().is_some_and(|t| d == folded(t));
    if same_as_name || same_as_title { Gate::Tautological } else { Gate::Pass }
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
    }
}
