//! Stage 1: the structural facts about a definition that ground the judge, plus its identity
//! (`inputHash`, `definitionBytes`) and invocation cost.

use std::cell::RefCell;

use serde::{Deserialize, Serialize};

use super::canonical::{short_sha256, write_sorted_object, write_string};
use super::cost::invocation_cost;
use super::definition::ToolDefinition;
use super::json::{JsObject, JsValue};
use super::text::utf16_len;

/// The annotation hints as booleans; anything that is not a boolean is `null`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AnnotationValues {
    pub destructive: Option<bool>,
    pub idempotent: Option<bool>,
    pub open_world: Option<bool>,
    pub read_only: Option<bool>,
}

/// Every stage-1 signal. Field names are the reference report's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextSignals {
    pub annotation_values: AnnotationValues,
    pub definition_bytes: u64,
    pub has_annotations: bool,
    pub has_nested_objects: bool,
    pub has_output_schema: bool,
    pub input_hash: String,
    pub invocation_cost: u32,
    pub param_count: u32,
    pub params_with_descriptions: u32,
    pub params_with_enums: u32,
    pub required_field_count: u32,
    pub required_param_count: u32,
    pub schema_depth: u32,
    pub schema_description_coverage: u32,
    pub title_is_meaningful: bool,
    pub union_choice_count: u32,
}

/// The canonical bytes of a definition: the six inputs, absent ones as `null`, sorted compact.
pub fn canonical_definition(tool: &ToolDefinition) -> Vec<u8> {
    let mut out = Vec::with_capacity(1024);
    write_canonical_definition(&mut out, tool);
    out
}

fn write_canonical_definition(out: &mut Vec<u8>, tool: &ToolDefinition) {
    let opt_obj = |out: &mut Vec<u8>, o: &Option<JsObject>| match o {
        Some(o) => write_sorted_object(out, o),
        None => out.extend_from_slice(b"null"),
    };
    let opt_str = |out: &mut Vec<u8>, s: &Option<super::json::JsString>| match s {
        Some(s) => write_string(out, s),
        None => out.extend_from_slice(b"null"),
    };
    // Keys in sorted order: annotations < description < inputSchema < name < outputSchema < title.
    out.extend_from_slice(b"{\"annotations\":");
    opt_obj(out, &tool.annotations);
    out.extend_from_slice(b",\"description\":");
    opt_str(out, &tool.description);
    out.extend_from_slice(b",\"inputSchema\":");
    opt_obj(out, &tool.input_schema);
    out.extend_from_slice(b",\"name\":");
    write_string(out, &tool.name);
    out.extend_from_slice(b",\"outputSchema\":");
    opt_obj(out, &tool.output_schema);
    out.extend_from_slice(b",\"title\":");
    opt_str(out, &tool.title);
    out.push(b'}');
}

/// `definitionBytes` and `inputHash`: the canonical text is built in a per-thread scratch
/// buffer, so hashing a definition allocates nothing but the hash string.
fn canonical_identity(tool: &ToolDefinition) -> (u64, String) {
    thread_local! {
        static SCRATCH: RefCell<Vec<u8>> = RefCell::new(Vec::with_capacity(4096));
    }
    SCRATCH.with(|cell| {
        let mut buf = cell.borrow_mut();
        buf.clear();
        write_canonical_definition(&mut buf, tool);
        let identity = (buf.len() as u64, short_sha256(&buf));
        // Do not keep a huge definition's buffer alive for the thread's lifetime.
        if buf.capacity() > 1 << 20 {
            *buf = Vec::with_capacity(4096);
        }
        identity
    })
}

/// Computes every stage-1 signal.
pub fn context_signals(tool: &ToolDefinition) -> ContextSignals {
    let (definition_bytes, input_hash) = canonical_identity(tool);
    let props = tool.input_schema.as_ref().and_then(|s| s.get("properties")).and_then(JsValue::as_object);
    let param_count = props.map_or(0, JsObject::len) as u32;
    // One pass over the parameters' keys (keys are unique, so a match is the key's value).
    let (mut params_with_descriptions, mut params_with_enums, mut has_nested_objects) = (0u32, 0u32, false);
    for param in props.into_iter().flat_map(|p| p.iter()).filter_map(|(_, v)| v.as_object()) {
        for (k, v) in param.iter() {
            match k.as_bytes() {
                b"description" => params_with_descriptions += u32::from(v.as_str().is_some_and(|d| !d.is_empty())),
                b"enum" => params_with_enums += u32::from(v.as_array().is_some()),
                b"type" => has_nested_objects |= v.as_str().is_some_and(|t| *t == *"object"),
                _ => {}
            }
        }
    }
    let required_param_count =
        tool.input_schema.as_ref().and_then(|s| s.get("required")).and_then(JsValue::as_array).map_or(0, |r| r.len())
            as u32;
    let non_empty = |o: &Option<JsObject>| o.as_ref().is_some_and(|o| !o.is_empty());
    let mut annotation_values = AnnotationValues::default();
    for (k, v) in tool.annotations.iter().flat_map(JsObject::iter) {
        let hint = match k.as_bytes() {
            b"destructiveHint" => &mut annotation_values.destructive,
            b"idempotentHint" => &mut annotation_values.idempotent,
            b"openWorldHint" => &mut annotation_values.open_world,
            b"readOnlyHint" => &mut annotation_values.read_only,
            _ => continue,
        };
        // Anything but a boolean is `null`.
        *hint = match v {
            JsValue::Bool(b) => Some(*b),
            _ => None,
        };
    }
    let cost = invocation_cost(tool.input_schema.as_ref());
    ContextSignals {
        annotation_values,
        definition_bytes,
        has_annotations: non_empty(&tool.annotations),
        has_nested_objects,
        has_output_schema: non_empty(&tool.output_schema),
        input_hash,
        invocation_cost: cost.cost(),
        param_count,
        params_with_descriptions,
        params_with_enums,
        required_field_count: cost.required_field_count,
        required_param_count,
        schema_depth: cost.schema_depth,
        schema_description_coverage: percent_half_up(params_with_descriptions, param_count),
        title_is_meaningful: tool
            .title
            .as_ref()
            .is_some_and(|t| *t != tool.name && utf16_len(t) > utf16_len(&tool.name)),
        union_choice_count: cost.union_choice_count,
    }
}

/// `Math.round(100 * part / whole)` in integers; 100 when `whole` is 0.
fn percent_half_up(part: u32, whole: u32) -> u32 {
    if whole == 0 {
        return 100;
    }
    let (p, w) = (part as u64, whole as u64);
    ((200 * p + w) / (2 * w)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definition::parse_tools;
    use crate::json::parse;

    fn signals(src: &str) -> ContextSignals {
        let parsed = parse_tools(&parse(src.as_bytes()).unwrap()).unwrap();
        context_signals(&parsed.tools[0])
    }

    #[test]
    fn hash_and_bytes_match_the_reference() {
        // Values read off `tdqs==0.1.0`.
        let s = signals(r#"{"name":"a","description":"x"}"#);
        assert_eq!((s.input_hash.as_str(), s.definition_bytes), ("1f2cb5cc6bddfa52", 101));
        let s = signals(r#"{"name":"a","description":"\ud800"}"#);
        assert_eq!((s.input_hash.as_str(), s.definition_bytes), ("b98b8b465a1b3e94", 106));
        let s = signals(r#"{"name":"a","inputSchema":{"x":1e400}}"#);
        assert_eq!((s.input_hash.as_str(), s.definition_bytes), ("dc6a385f02da6b8a", 108));
    }

    #[test]
    fn counts_and_coverage() {
        let s = signals(
            r#"{"name":"get_calls","title":"Get Calls","description":"List calls.","inputSchema":{"type":"object","properties":{"limit":{"type":"integer","description":"max"},"cursor":{"type":"string","description":"page"}},"required":["limit"]},"annotations":{"readOnlyHint":true}}"#,
        );
        assert_eq!((s.param_count, s.params_with_descriptions, s.schema_description_coverage), (2, 2, 100));
        assert_eq!(s.annotation_values.read_only, Some(true));
        assert!(s.has_annotations && !s.has_output_schema && !s.title_is_meaningful);
        assert_eq!(percent_half_up(1, 8), 13); // 12.5 rounds up
        assert_eq!(percent_half_up(2, 3), 67);
        assert_eq!(percent_half_up(0, 0), 100);
    }
}
