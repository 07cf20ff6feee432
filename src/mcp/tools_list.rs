//! Rewriting a `tools/list` result: each tool is kept, annotated under
//! `_meta["tdqs-gateway/score"]`, or dropped. Every other field, of the message, the result and
//! each tool, is carried as its original JSON text; `nextCursor` is never touched.

use indexmap::IndexMap;
use serde_json::value::RawValue;

/// The `_meta` key the gateway writes its score under.
pub const META_KEY: &str = "tdqs-gateway/score";

/// What the policy wants done with one tool.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolAction {
    Keep,
    Annotate(serde_json::Value),
    Drop,
}

type RawMap = IndexMap<String, Box<RawValue>>;

/// A response message whose `result.tools` is an array, split into its parts.
pub struct ListResult {
    envelope: RawMap,
    result: RawMap,
    /// Each tool's original JSON text, in order; split out only when needed.
    tools: std::sync::OnceLock<Vec<Box<RawValue>>>,
}

impl ListResult {
    /// `None` when `bytes` is not a response carrying `result.tools` as an array.
    pub fn parse(bytes: &[u8]) -> Option<ListResult> {
        Self::parse_if(bytes, |_| true)
    }

    /// Like [`parse`](Self::parse), for a response whose id (its JSON text) `wanted` accepts;
    /// the envelope is read once for both questions.
    pub fn parse_if(bytes: &[u8], wanted: impl FnOnce(&str) -> bool) -> Option<ListResult> {
        let envelope: RawMap = serde_json::from_slice(bytes).ok()?;
        if envelope.contains_key("method") || !wanted(envelope.get("id")?.get()) {
            return None;
        }
        let result: RawMap = serde_json::from_str(envelope.get("result")?.get()).ok()?;
        let tools = result.get("tools")?.get();
        // Valid JSON (the parse above checked) that starts with '[' is an array; the tools are
        // split out on first use, which a remembered rendering never needs.
        if !tools.trim_start().starts_with('[') {
            return None;
        }
        Some(ListResult { envelope, result, tools: std::sync::OnceLock::new() })
    }

    /// Each tool's original JSON text, in order.
    pub fn tools(&self) -> &[Box<RawValue>] {
        self.tools.get_or_init(|| serde_json::from_str(self.tools_text()).unwrap_or_default())
    }

    /// Whether more pages follow (`nextCursor` present and not null).
    pub fn has_next_page(&self) -> bool {
        self.result.get("nextCursor").is_some_and(|c| c.get() != "null")
    }

    /// The raw text of the `tools` array, as the upstream sent it.
    pub fn tools_text(&self) -> &str {
        self.result.get("tools").map_or("[]", |t| t.get())
    }

    /// The message with its `tools` array replaced by `tools` (a JSON array's text, e.g. one
    /// rendered earlier for the same array) and `ttlMs` capped as in [`render`](Self::render).
    pub fn render_tools_text(mut self, tools: &str, ttl_cap_ms: Option<u64>) -> Vec<u8> {
        if let Ok(raw) = RawValue::from_string(tools.to_owned()) {
            self.result.insert("tools".to_owned(), raw);
        }
        self.finish(ttl_cap_ms)
    }

    /// The `tools` array text after `actions`.
    pub fn rendered_tools(&self, actions: &[ToolAction]) -> String {
        let mut tools: Vec<Box<RawValue>> = Vec::with_capacity(self.tools().len());
        for (tool, action) in self.tools().iter().zip(actions.iter().chain(std::iter::repeat(&ToolAction::Keep))) {
            match action {
                ToolAction::Keep => tools.push(tool.clone()),
                ToolAction::Drop => {}
                ToolAction::Annotate(meta) => tools.push(annotate(tool.clone(), meta)),
            }
        }
        raw(&tools).get().to_owned()
    }

    fn finish(mut self, ttl_cap_ms: Option<u64>) -> Vec<u8> {
        if let (Some(cap), Some(ttl)) = (ttl_cap_ms, self.result.get("ttlMs"))
            && let Ok(current) = serde_json::from_str::<u64>(ttl.get())
            && current > cap
        {
            self.result.insert("ttlMs".to_owned(), raw(&cap));
        }
        self.envelope.insert("result".to_owned(), raw(&self.result));
        serde_json::to_vec(&self.envelope).unwrap_or_default()
    }

    /// The message with `actions` applied (one per tool, in order) and, when given, `ttlMs`
    /// (2026-07-28) capped so clients list again soon while scores are provisional.
    pub fn render(self, actions: &[ToolAction], ttl_cap_ms: Option<u64>) -> Vec<u8> {
        let tools = self.rendered_tools(actions);
        self.render_tools_text(&tools, ttl_cap_ms)
    }
}

fn raw<T: serde::Serialize + ?Sized>(v: &T) -> Box<RawValue> {
    serde_json::value::to_raw_value(v).unwrap_or_else(|_| RawValue::from_string("null".to_owned()).unwrap_or_default())
}

/// Adds the score under `_meta`, creating `_meta` when absent. A tool whose `_meta` is not an
/// object, or that is not an object itself, is left as it was.
fn annotate(tool: Box<RawValue>, meta: &serde_json::Value) -> Box<RawValue> {
    let Ok(mut fields) = serde_json::from_str::<RawMap>(tool.get()) else { return tool };
    let mut inner: RawMap = match fields.get("_meta") {
        None => RawMap::new(),
        Some(m) => match serde_json::from_str(m.get()) {
            Ok(m) => m,
            Err(_) => return tool,
        },
    };
    inner.insert(META_KEY.to_owned(), raw(meta));
    fields.insert("_meta".to_owned(), raw(&inner));
    raw(&fields)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    const MSG: &str = r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"a","inputSchema":{"type":"object","x":1.50},"_meta":{"k":"v"}},{"name":"b","inputSchema":{}},{"name":"c","icons":[{"src":"x"}]}],"nextCursor":"opaque==","ttlMs":60000,"extra":{"z":1e2}}}"#;

    #[test]
    fn annotate_drop_keep_and_leave_the_rest_alone() {
        let lr = ListResult::parse(MSG.as_bytes()).unwrap();
        assert_eq!(lr.tools().len(), 3);
        let meta = json!({"tdqs": 4.3, "tier": "A"});
        let out = lr.render(&[ToolAction::Annotate(meta.clone()), ToolAction::Drop, ToolAction::Keep], None);
        let text = String::from_utf8(out).unwrap();
        // Original number spellings survive: nothing was re-serialized through a float.
        assert!(text.contains("\"x\":1.50") && text.contains("\"z\":1e2"), "{text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        let tools = v["result"]["tools"].as_array().unwrap();
        assert_eq!(tools.len(), 2);
        assert_eq!(tools[0]["_meta"], json!({"k": "v", "tdqs-gateway/score": meta}));
        assert_eq!(tools[1], json!({"name": "c", "icons": [{"src": "x"}]}));
        assert_eq!(v["result"]["nextCursor"], "opaque==");
        assert_eq!(v["id"], 3);
        // Key order of the result is kept.
        let keys: Vec<&String> = v["result"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["tools", "nextCursor", "ttlMs", "extra"]);
    }

    #[test]
    fn ttl_is_only_ever_shortened() {
        let out = ListResult::parse(MSG.as_bytes()).unwrap().render(&[], Some(5000));
        let v: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["result"]["ttlMs"], 5000);
        let out = ListResult::parse(MSG.as_bytes()).unwrap().render(&[], Some(90000));
        assert_eq!(serde_json::from_slice::<Value>(&out).unwrap()["result"]["ttlMs"], 60000);
    }

    #[test]
    fn not_a_list_result() {
        assert!(ListResult::parse(br#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#).is_none());
        assert!(ListResult::parse(br#"{"jsonrpc":"2.0","id":1,"result":{"tools":{}}}"#).is_none());
        assert!(ListResult::parse(b"[1,2]").is_none());
    }
}
