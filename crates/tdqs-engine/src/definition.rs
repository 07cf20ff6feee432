//! Tool definitions: the six scoring inputs, and the three input shapes a tools file comes in
//! (a `tools/list` result, a bare array, one tool), with every rejection TDQS names.

use super::json::{JsObject, JsString, JsValue};
use super::text::python_strip;

/// Most tools one server may submit.
pub const MAX_TOOLS: usize = 500;

/// Server name used when the input names none.
pub const DEFAULT_SERVER_NAME: &str = "server";

/// Exactly what TDQS scores of a tool. Other fields (`_meta`, `icons`, ...) are not inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolDefinition {
    pub name: JsString,
    pub title: Option<JsString>,
    pub description: Option<JsString>,
    pub input_schema: Option<JsObject>,
    pub output_schema: Option<JsObject>,
    pub annotations: Option<JsObject>,
}

/// The tools of one server, ready for scoring.
#[derive(Clone, Debug, PartialEq)]
pub struct ParsedTools {
    /// `serverName` from a `tools/list` document, when it is a non-empty string.
    pub server_name: Option<JsString>,
    pub tools: Vec<ToolDefinition>,
}

impl ParsedTools {
    /// The name reports use: an explicit override, else the document's, else `"server"`.
    pub fn server_name_or(&self, explicit: Option<&str>) -> String {
        match (explicit, &self.server_name) {
            (Some(n), _) if !n.is_empty() => n.to_owned(),
            (_, Some(n)) => n.to_string_lossy(),
            _ => DEFAULT_SERVER_NAME.to_owned(),
        }
    }
}

/// Why a tools document was refused. Messages name the 1-based tool index and the name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    #[error(
        "expected a tools/list result ({{\"tools\": [...]}}), an array of tool definitions, or a single tool definition"
    )]
    Shape,
    #[error("no tool definitions were supplied")]
    NoTools,
    #[error("too many tools: {0} were supplied and the limit is {MAX_TOOLS}")]
    TooMany(usize),
    #[error("tool #{0} is not an object")]
    NotAnObject(usize),
    #[error("tool #{index}{} is not a valid tool definition: {reason}", name_suffix(.name))]
    Invalid { index: usize, name: Option<String>, reason: String },
    #[error("tool #{index} ({name:?}) repeats an earlier tool's name; names must be unique within a server")]
    Duplicate { index: usize, name: String },
}

fn name_suffix(name: &Option<String>) -> String {
    name.as_ref().map(|n| format!(" ({n:?})")).unwrap_or_default()
}

/// Accepts any of the three input shapes.
pub fn parse_tools(doc: &JsValue) -> Result<ParsedTools, InputError> {
    let (server_name, items): (Option<JsString>, Vec<&JsValue>) = match doc {
        JsValue::Array(items) => (None, items.iter().collect()),
        JsValue::Object(o) => match (o.get("tools"), o.get("name")) {
            (Some(JsValue::Array(items)), _) => {
                // The reference strips it (Python whitespace) and ignores what is left empty.
                let server = o.get("serverName").and_then(JsValue::as_str).map(python_strip).filter(|s| !s.is_empty());
                (server, items.iter().collect())
            }
            (_, Some(JsValue::String(_))) => (None, vec![doc]),
            _ => return Err(InputError::Shape),
        },
        _ => return Err(InputError::Shape),
    };
    if items.is_empty() {
        return Err(InputError::NoTools);
    }
    if items.len() > MAX_TOOLS {
        return Err(InputError::TooMany(items.len()));
    }
    let mut tools = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let index = i + 1;
        let obj = item.as_object().ok_or(InputError::NotAnObject(index))?;
        let tool = tool_from_object(obj, index)?;
        if tools.iter().any(|t: &ToolDefinition| t.name == tool.name) {
            return Err(InputError::Duplicate { index, name: tool.name.to_string_lossy() });
        }
        tools.push(tool);
    }
    Ok(ParsedTools { server_name, tools })
}

/// Validates one tool object: `name` a non-empty string, `title`/`description` strings,
/// the three schema-like fields objects; absent and `null` are the same.
pub fn tool_from_object(obj: &JsObject, index: usize) -> Result<ToolDefinition, InputError> {
    let mut problems: Vec<String> = Vec::new();
    let name = match obj.get("name") {
        Some(JsValue::String(s)) if s.has_lone_surrogate() => {
            problems.push("name: must be valid Unicode (it holds a lone surrogate)".into());
            None
        }
        Some(JsValue::String(s)) if !s.is_empty() => Some(s.clone()),
        Some(JsValue::String(_)) => {
            problems.push("name: must not be empty".into());
            None
        }
        None | Some(JsValue::Null) => {
            problems.push("name: is required".into());
            None
        }
        Some(_) => {
            problems.push("name: must be a string".into());
            None
        }
    };
    let mut string_field = |key: &str| -> Option<JsString> {
        match obj.get(key) {
            None | Some(JsValue::Null) => None,
            Some(JsValue::String(s)) => Some(s.clone()),
            Some(_) => {
                problems.push(format!("{key}: must be a string or null"));
                None
            }
        }
    };
    let title = string_field("title");
    let description = string_field("description");
    let mut object_field = |key: &str| -> Option<JsObject> {
        match obj.get(key) {
            None | Some(JsValue::Null) => None,
            Some(JsValue::Object(o)) => {
                if o.iter().any(|(_, v)| v.contains_int_overflow()) {
                    problems.push(format!("{key}: holds an integer too large for a double"));
                }
                Some(o.clone())
            }
            Some(_) => {
                problems.push(format!("{key}: must be an object or null"));
                None
            }
        }
    };
    let input_schema = object_field("inputSchema");
    let output_schema = object_field("outputSchema");
    let annotations = object_field("annotations");
    match (name, problems.is_empty()) {
        (Some(name), true) => Ok(ToolDefinition { name, title, description, input_schema, output_schema, annotations }),
        (name, _) => {
            Err(InputError::Invalid { index, name: name.map(|n| n.to_string_lossy()), reason: problems.join("; ") })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn tools(src: &str) -> Result<ParsedTools, InputError> {
        parse_tools(&parse(src.as_bytes()).unwrap())
    }

    #[test]
    fn three_shapes() {
        let list = tools(r#"{"tools":[{"name":"a"}],"serverName":"srv"}"#).unwrap();
        assert_eq!(list.server_name_or(None), "srv");
        assert_eq!(list.server_name_or(Some("x")), "x");
        assert_eq!(tools(r#"[{"name":"a"},{"name":"b"}]"#).unwrap().tools.len(), 2);
        let one = tools(r#"{"name":"a","_meta":{"x":1}}"#).unwrap();
        assert_eq!(one.server_name_or(None), "server");
        assert_eq!(tools(r#"{"tools":[{"name":"a"}],"serverName":""}"#).unwrap().server_name, None);
        assert_eq!(tools(r#"{"tools":[{"name":"a"}],"serverName":" srv\u0085"}"#).unwrap().server_name_or(None), "srv");
        assert_eq!(tools(r#"{"tools":[{"name":"a"}],"serverName":"\u001f"}"#).unwrap().server_name, None);
        assert!(tools(r#"[{"name":"a\ud800"}]"#).unwrap_err().to_string().contains("lone surrogate"));
    }

    #[test]
    fn rejections_name_index_and_tool() {
        assert_eq!(tools("[]"), Err(InputError::NoTools));
        assert_eq!(tools(r#"{"tools":5}"#), Err(InputError::Shape));
        assert_eq!(tools(r#"{"name":5}"#), Err(InputError::Shape));
        assert_eq!(tools(r#"[{"name":"a"},5]"#), Err(InputError::NotAnObject(2)));
        let e = tools(r#"[{"name":"a","description":5,"title":4}]"#).unwrap_err().to_string();
        assert_eq!(
            e,
            "tool #1 (\"a\") is not a valid tool definition: title: must be a string or null; description: must be a string or null"
        );
        let e = tools(r#"[{"name":""}]"#).unwrap_err().to_string();
        assert!(e.starts_with("tool #1 is not a valid"), "{e}");
        let e = tools(r#"[{"name":"a"},{"name":"a"}]"#).unwrap_err().to_string();
        assert!(e.contains("#2 (\"a\")"), "{e}");
        let many = format!("[{}]", (0..501).map(|i| format!("{{\"name\":\"t{i}\"}}")).collect::<Vec<_>>().join(","));
        assert_eq!(tools(&many), Err(InputError::TooMany(501)));
        let huge = format!("[{{\"name\":\"a\",\"inputSchema\":{{\"x\":1{}}}}}]", "0".repeat(400));
        assert!(tools(&huge).unwrap_err().to_string().contains("too large"));
    }
}
