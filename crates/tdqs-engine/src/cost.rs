//! Invocation cost: what an agent must build for a minimal valid call, measured over the
//! *required subtree* of the input schema (required fields, object depth, union choices).

use super::json::{JsObject, JsString, JsValue};

/// Object levels deeper than this add neither depth nor fields.
const MAX_LEVEL: u32 = 10;

/// The three measurements and the cost derived from them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InvocationCost {
    pub required_field_count: u32,
    pub schema_depth: u32,
    pub union_choice_count: u32,
}

impl InvocationCost {
    /// `required + 2*max(0, depth-1) + 2*unions`.
    pub fn cost(&self) -> u32 {
        self.required_field_count + 2 * self.schema_depth.saturating_sub(1) + 2 * self.union_choice_count
    }
}

/// Walks the required subtree of `schema`. All zero unless the root has non-empty `properties`.
pub fn invocation_cost(schema: Option<&JsObject>) -> InvocationCost {
    let Some(root) = schema else {
        return InvocationCost::default();
    };
    if !has_properties(root) {
        return InvocationCost::default();
    }
    let mut walk = Walk { root, path: Vec::new() };
    let t = walk.object(root, 0, true);
    InvocationCost { required_field_count: t.fields, schema_depth: t.depth, union_choice_count: t.unions }
}

/// What one node of the schema contributes.
#[derive(Clone, Copy, Default)]
struct Tally {
    fields: u32,
    unions: u32,
    depth: u32,
}

impl Tally {
    fn at(depth: u32) -> Self {
        Tally { depth, ..Default::default() }
    }

    fn add(&mut self, other: Tally) {
        self.fields += other.fields;
        self.unions += other.unions;
        self.depth = self.depth.max(other.depth);
    }
}

fn has_properties(o: &JsObject) -> bool {
    o.get("properties").and_then(JsValue::as_object).is_some_and(|p| !p.is_empty())
}

struct Walk<'a> {
    root: &'a JsObject,
    /// `$ref` strings being expanded above the current node, to stop cycles.
    path: Vec<JsString>,
}

impl<'a> Walk<'a> {
    /// `depth` is the level of the enclosing object. A reference target is walked as a plain
    /// node: its own `$ref`, if any, is not followed again (`follow_ref = false`).
    fn node(&mut self, node: &JsValue, depth: u32, follow_ref: bool) -> Tally {
        match node.as_object() {
            Some(o) => self.object(o, depth, follow_ref),
            None => Tally::at(depth),
        }
    }

    fn object(&mut self, o: &JsObject, depth: u32, follow_ref: bool) -> Tally {
        if follow_ref && let Some(JsValue::String(r)) = o.get("$ref") {
            let r = r.clone();
            let target = self.resolve(&r);
            return match target {
                Some(t) if !self.path.contains(&r) => {
                    self.path.push(r);
                    let tally = self.node(t, depth, false);
                    self.path.pop();
                    tally
                }
                _ => Tally::at(depth),
            };
        }
        let mut tally = Tally::at(depth);
        if let Some(props) = o.get("properties").and_then(JsValue::as_object).filter(|p| !p.is_empty())
            && depth < MAX_LEVEL
        {
            let level = depth + 1;
            tally.depth = level;
            if let Some(required) = o.get("required").and_then(JsValue::as_array) {
                for name in required.iter().filter_map(JsValue::as_str) {
                    tally.fields += 1;
                    if let Some(child) = props.get_js(name) {
                        tally.add(self.node(child, level, true));
                    }
                }
            }
        }
        if let Some(items @ JsValue::Object(_)) = o.get("items") {
            tally.add(self.node(items, depth, true));
        }
        if let Some(branches) = o.get("allOf").and_then(JsValue::as_array) {
            for b in branches {
                tally.add(self.node(b, depth, true));
            }
        }
        if let Some(not) = o.get("not") {
            tally.depth = tally.depth.max(self.node(not, depth, true).depth);
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(branches) = o.get(key).and_then(JsValue::as_array) {
                tally.add(self.union(branches, depth));
            }
        }
        tally
    }

    /// A union: only the richest constructible branch counts, plus one choice per extra branch.
    fn union(&mut self, branches: &[JsValue], depth: u32) -> Tally {
        let mut best: Option<Tally> = None;
        let mut max_depth = depth;
        let mut constructible = 0u32;
        for b in branches.iter().filter(|b| !is_null_schema(b)) {
            constructible += 1;
            let t = self.node(b, depth, true);
            max_depth = max_depth.max(t.depth);
            if best.is_none_or(|cur| t.fields > cur.fields) {
                best = Some(t);
            }
        }
        let best = best.unwrap_or_default();
        Tally { fields: best.fields, unions: best.unions + constructible.saturating_sub(1), depth: max_depth }
    }

    fn resolve(&self, reference: &JsString) -> Option<&'a JsValue> {
        let (container, name) = if let Some(n) = reference.strip_prefix("#/$defs/") {
            ("$defs", n)
        } else {
            ("definitions", reference.strip_prefix("#/definitions/")?)
        };
        if name.is_empty() || name.as_bytes().contains(&b'/') {
            return None;
        }
        self.root.get(container)?.as_object()?.get_js(&percent_decode(&name))
    }
}

/// `type: "null"` or `type: ["null"]`: a branch an agent cannot build a value from.
fn is_null_schema(v: &JsValue) -> bool {
    match v.as_object().and_then(|o| o.get("type")) {
        Some(JsValue::String(t)) => t == "null",
        Some(JsValue::Array(a)) => a.len() == 1 && a[0].as_str().is_some_and(|t| t == "null"),
        _ => false,
    }
}

/// Percent-decoding as the reference does it: within each run of ASCII, `%XX` becomes a byte
/// and the run is read as UTF-8 (invalid sequences become U+FFFD); `%` without two hex digits
/// stays; anything outside ASCII, lone surrogates included, is kept as it is.
fn percent_decode(s: &JsString) -> JsString {
    let cps: Vec<u32> = s.code_points().collect();
    let mut out: Vec<u32> = Vec::with_capacity(cps.len());
    let mut i = 0;
    while i < cps.len() {
        let ascii = cps[i] < 0x80;
        let end = cps[i..].iter().position(|&c| (c < 0x80) != ascii).map_or(cps.len(), |n| i + n);
        if ascii {
            let run: Vec<u8> = cps[i..end].iter().map(|&c| c as u8).collect();
            let mut bytes = Vec::with_capacity(run.len());
            let mut j = 0;
            while j < run.len() {
                if run[j] == b'%'
                    && let (Some(h), Some(l)) = (run.get(j + 1).and_then(hex), run.get(j + 2).and_then(hex))
                {
                    bytes.push(h * 16 + l);
                    j += 3;
                    continue;
                }
                bytes.push(run[j]);
                j += 1;
            }
            out.extend(String::from_utf8_lossy(&bytes).chars().map(|c| c as u32));
        } else {
            out.extend_from_slice(&cps[i..end]);
        }
        i = end;
    }
    JsString::from_code_points(&out)
}

fn hex(b: &u8) -> Option<u8> {
    (*b as char).to_digit(16).map(|d| d as u8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn cost(src: &str) -> (u32, u32, u32, u32) {
        let v = parse(src.as_bytes()).unwrap();
        let c = invocation_cost(v.as_object());
        (c.required_field_count, c.schema_depth, c.union_choice_count, c.cost())
    }

    #[test]
    fn nested_required_fields_and_unions() {
        let s = r##"{"properties":{"x":{"type":"object","properties":{"y":{"type":"object","properties":{"z":{"type":"string"}},"required":["z"]}},"required":["y"]},"q":{"oneOf":[{"type":"null"},{"type":"string"},{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a","b"]}]}},"required":["x","q","missing"]}"##;
        assert_eq!(cost(s), (7, 3, 1, 13));
    }

    #[test]
    fn references_follow_one_hop_and_stop_on_cycles() {
        // The target's own $ref is not followed; its siblings are walked.
        let s = r##"{"properties":{"a":{"$ref":"#/$defs/X"}},"required":["a"],"$defs":{"X":{"$ref":"#/$defs/Y","properties":{"q":{},"r":{}},"required":["q","r"]},"Y":{"properties":{"b":{}},"required":["b"]}}}"##;
        assert_eq!(cost(s), (3, 2, 0, 5));
        let cycle = r##"{"properties":{"a":{"$ref":"#/$defs/X"}},"required":["a"],"$defs":{"X":{"properties":{"b":{"$ref":"#/$defs/%58"}},"required":["b"]}}}"##;
        assert_eq!(cost(cycle), (3, 3, 0, 7));
        assert_eq!(
            cost(r##"{"properties":{"a":{"$ref":"#/$defs/X/Y"}},"required":["a"],"$defs":{"X/Y":{}}}"##),
            (1, 1, 0, 1)
        );
    }

    #[test]
    fn references_with_lone_surrogates_resolve_exactly() {
        let s = r##"{"properties":{"a":{"$ref":"#/$defs/\ud800"}},"required":["a"],"$defs":{"\ufffd":{"properties":{"d":{}},"required":["d"]}}}"##;
        assert_eq!(cost(s), (1, 1, 0, 1), "U+FFFD is not a lone surrogate");
        let s = r##"{"properties":{"a":{"$ref":"#/$defs/\ud800"}},"required":["a"],"$defs":{"\ud800":{"properties":{"d":{}},"required":["d"]}}}"##;
        assert_eq!(cost(s), (2, 2, 0, 4));
    }

    #[test]
    fn levels_stop_at_ten() {
        let mut node = r##"{"oneOf":[{},{}],"properties":{"z":{}},"required":["z"]}"##.to_string();
        for _ in 0..10 {
            node = format!(r##"{{"properties":{{"k":{node}}},"required":["k"]}}"##);
        }
        assert_eq!(cost(&node), (10, 10, 1, 30));
    }

    #[test]
    fn no_properties_means_zero() {
        assert_eq!(
            cost(r##"{"$ref":"#/$defs/R","$defs":{"R":{"properties":{"x":{}},"required":["x"]}}}"##),
            (0, 0, 0, 0)
        );
        assert_eq!(cost(r##"{"properties":{"a":{}},"required":"a"}"##), (0, 1, 0, 0));
    }
}
