//! Rewriting a `tools/list` result: each tool is kept, annotated under
//! `_meta["tdqs-gateway/score"]`, or dropped. Every other field, of the message, the result and
//! each tool, is carried as its original JSON text; `nextCursor` is never touched.
//!
//! Long: the scanner and the splice share one byte-offset model of the array; split, each half
//! would need the other's invariants. A third is tests.

use std::ops::Range;

use bytes::Bytes;
use indexmap::IndexMap;
use serde_json::value::RawValue;
use smallvec::SmallVec;

use super::scan::{self, Stop};
use super::spliced::Spliced;

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

/// A response message whose `result.tools` is an array, and where its parts are.
pub struct ListResult<'a> {
    bytes: &'a [u8],
    shape: Shape,
    /// Each tool's original JSON text, in order; split out only when needed.
    tools: std::sync::OnceLock<Vec<Box<RawValue>>>,
}

enum Shape {
    /// Spans in the message (the usual case): a rendering splices into the original bytes,
    /// so everything outside `tools` (and a capped `ttlMs`) stays byte for byte.
    Spans {
        id: Range<usize>,
        tools: Range<usize>,
        next_cursor: Option<Range<usize>>,
        ttl: Option<Range<usize>>,
        /// `cacheScope` (2026-07-28).
        scope: Option<Range<usize>>,
    },
    /// A message with escaped or repeated keys, split into maps the way serde reads it (the
    /// last of a repeated key wins) and rendered by writing the maps out again.
    Maps { envelope: RawMap, result: RawMap },
}

impl<'a> ListResult<'a> {
    /// `None` when `bytes` is not a response carrying `result.tools` as an array.
    pub fn parse(bytes: &'a [u8]) -> Option<Self> {
        Self::parse_with(bytes, |_| true, |_| None)
    }

    /// Like [`parse`](Self::parse), for a response whose id (its JSON text) `wanted` accepts.
    /// `known` sees the text from the `tools` array on and may vouch for it: it returns the
    /// length of an array it has seen (and validated) before that the text starts with, which
    /// then needs no second reading.
    pub fn parse_with(
        bytes: &'a [u8],
        wanted: impl Fn(&str) -> bool,
        known: impl FnMut(&[u8]) -> Option<usize>,
    ) -> Option<Self> {
        match Self::spans(bytes, &wanted, known) {
            Ok(list) => Some(list),
            Err(Stop::NotIt) => None,
            Err(Stop::Unusual) => Self::maps(bytes, &wanted),
        }
    }

    fn spans(
        bytes: &'a [u8],
        wanted: &impl Fn(&str) -> bool,
        mut known: impl FnMut(&[u8]) -> Option<usize>,
    ) -> Result<Self, Stop> {
        let (mut id, mut result, mut method) = (None, None, None);
        let (mut tools, mut next_cursor, mut ttl, mut scope) = (None, None, None, None);
        // Where a `tools` of another shape than an array was: not a list unless repeated (a
        // parser keeps the last), and a repeat is read by the full parse.
        let mut other_tools = None;
        let split = std::sync::OnceLock::new();
        let mut read_result = |at: usize| {
            scan::walk_object(bytes, at, |key, at| match key {
                b"tools" if other_tools.is_some() => Err(Stop::Unusual),
                b"tools" if bytes.get(at) == Some(&b'[') => {
                    let end = match known(&bytes[at..]) {
                        Some(len) => at + len,
                        None => {
                            let mut items = serde_json::Deserializer::from_slice(&bytes[at..]).into_iter();
                            let parsed: Vec<Box<RawValue>> = items.next().and_then(Result::ok).ok_or(Stop::NotIt)?;
                            let _ = split.set(parsed);
                            at + items.byte_offset()
                        }
                    };
                    scan::once(&mut tools, at..end)
                }
                b"tools" if tools.is_some() => Err(Stop::Unusual),
                b"tools" => scan::once(&mut other_tools, scan::value(bytes, at).ok_or(Stop::NotIt)?),
                b"nextCursor" => scan::once(&mut next_cursor, scan::value(bytes, at).ok_or(Stop::NotIt)?),
                b"ttlMs" => scan::once(&mut ttl, scan::value(bytes, at).ok_or(Stop::NotIt)?),
                b"cacheScope" => scan::once(&mut scope, scan::value(bytes, at).ok_or(Stop::NotIt)?),
                _ => Ok(None),
            })
        };
        let mut id_wanted = None;
        let end = scan::walk_object(bytes, 0, |key, at| match key {
            b"id" => {
                let span = scan::value(bytes, at).ok_or(Stop::NotIt)?;
                let text = std::str::from_utf8(&bytes[span.clone()]).map_err(|_| Stop::NotIt)?;
                id_wanted = Some(wanted(text));
                scan::once(&mut id, span)
            }
            // An answer nobody waits for as a list (most name their id first) is only skipped.
            b"result" if id_wanted == Some(false) => {
                scan::once(&mut result, scan::value(bytes, at).ok_or(Stop::NotIt)?)
            }
            // A result that is not an object is not a list, unless a repeated `result` (which
            // the full parse reads, as every parser does: the last wins) is.
            b"result" if bytes.get(at) != Some(&b'{') => {
                scan::once(&mut result, scan::value(bytes, at).ok_or(Stop::NotIt)?)
            }
            b"result" if result.is_some() => Err(Stop::Unusual),
            b"result" => {
                let end = read_result(at)?;
                scan::once(&mut result, at..end)
            }
            b"method" => scan::once(&mut method, scan::value(bytes, at).ok_or(Stop::NotIt)?),
            _ => Ok(None),
        })?;
        // A `method` that is not a string does not make the message a request (a client reads
        // it as the response it otherwise is).
        let names_method = method.is_some_and(|m| super::message::names_method(&bytes[m]));
        if scan::ws(bytes, end) != bytes.len() || names_method || id_wanted != Some(true) {
            return Err(Stop::NotIt);
        }
        let (tools, id) = (tools.ok_or(Stop::NotIt)?, id.ok_or(Stop::NotIt)?);
        Ok(ListResult { bytes, shape: Shape::Spans { id, tools, next_cursor, ttl, scope }, tools: split })
    }

    fn maps(bytes: &'a [u8], wanted: &impl Fn(&str) -> bool) -> Option<Self> {
        let envelope: RawMap = serde_json::from_slice(bytes).ok()?;
        let names_method = envelope.get("method").is_some_and(|m| super::message::names_method(m.get().as_bytes()));
        if names_method || !wanted(envelope.get("id")?.get()) {
            return None;
        }
        let result: RawMap = serde_json::from_str(envelope.get("result")?.get()).ok()?;
        // Valid JSON (the parse above checked) that starts with '[' is an array.
        if !result.get("tools")?.get().trim_start().starts_with('[') {
            return None;
        }
        Some(ListResult { bytes, shape: Shape::Maps { envelope, result }, tools: std::sync::OnceLock::new() })
    }

    /// Each tool's original JSON text, in order.
    pub fn tools(&self) -> &[Box<RawValue>] {
        self.tools.get_or_init(|| serde_json::from_str(self.tools_text()).unwrap_or_default())
    }

    /// The answer's id, its JSON text.
    pub fn id_text(&self) -> &str {
        match &self.shape {
            Shape::Spans { id, .. } => std::str::from_utf8(&self.bytes[id.clone()]).unwrap_or("null"),
            Shape::Maps { envelope, .. } => envelope.get("id").map_or("null", |i| i.get()),
        }
    }

    /// Whether more pages follow: `nextCursor` present, neither null nor empty (the SDKs read an
    /// empty cursor as the last page, so an upstream sending `""` must not keep a listing open).
    pub fn has_next_page(&self) -> bool {
        let more = |c: &[u8]| c != b"null" && c != b"\"\"";
        match &self.shape {
            Shape::Spans { next_cursor, .. } => next_cursor.as_ref().is_some_and(|c| more(&self.bytes[c.clone()])),
            Shape::Maps { result, .. } => result.get("nextCursor").is_some_and(|c| more(c.get().as_bytes())),
        }
    }

    /// The raw text of the `tools` array, as the upstream sent it.
    pub fn tools_text(&self) -> &str {
        match &self.shape {
            // Either serde split it into strings or it equals text validated before.
            Shape::Spans { tools, .. } => std::str::from_utf8(&self.bytes[tools.clone()]).unwrap_or("[]"),
            Shape::Maps { result, .. } => result.get("tools").map_or("[]", |t| t.get()),
        }
    }

    /// The message from the `tools` array on, as [`parse_with`](Self::parse_with)'s `known`
    /// sees it.
    pub fn from_tools(&self) -> &[u8] {
        match &self.shape {
            Shape::Spans { tools, .. } => &self.bytes[tools.start..],
            Shape::Maps { .. } => self.tools_text().as_bytes(),
        }
    }

    /// The message with its `tools` array replaced by `tools` (a JSON array's text, e.g. one
    /// rendered earlier for the same array) and `ttlMs` lowered to `ttl_cap_ms` if above it
    /// (2026-07-28: clients list again soon while scores are provisional).
    pub fn with_tools(&self, tools: &str, ttl_cap_ms: Option<u64>) -> Vec<u8> {
        self.with_tools_scoped(Some(&Bytes::copy_from_slice(tools.as_bytes())), ttl_cap_ms, false).to_vec()
    }

    /// Whether the result carries a `cacheScope` other than `"private"`.
    pub fn shared_scope(&self) -> bool {
        let scope = match &self.shape {
            Shape::Spans { scope, .. } => scope.as_ref().map(|r| &self.bytes[r.clone()]),
            Shape::Maps { result, .. } => result.get("cacheScope").map(|v| v.get().as_bytes()),
        };
        scope.is_some_and(|v| v != br#""private""#)
    }

    /// [`with_tools`](Self::with_tools) as pieces, the array kept when `tools` is `None`, and
    /// with `private` a `cacheScope` made `"private"` (a list filtered for one identity must not
    /// be served to another from a shared cache). Nothing is copied: the message's own bytes
    /// around the edits are borrowed and `tools` (the bulk of the answer) is shared.
    pub fn with_tools_scoped(&self, tools: Option<&Bytes>, ttl_cap_ms: Option<u64>, private: bool) -> Spliced<'a> {
        match &self.shape {
            Shape::Spans { tools: span, ttl, scope, .. } => {
                let bytes: &'a [u8] = self.bytes;
                let mut edits: SmallVec<[(Range<usize>, Bytes); 3]> = SmallVec::new();
                if let Some(tools) = tools {
                    edits.push((span.clone(), tools.clone()));
                }
                if let Some(ttl) = ttl.clone().filter(|t| capped(&bytes[t.clone()], ttl_cap_ms).is_some()) {
                    edits.push((ttl, Bytes::from(ttl_cap_ms.unwrap_or_default().to_string())));
                }
                if let Some(scope) = scope.clone().filter(|_| private && self.shared_scope()) {
                    edits.push((scope, Bytes::from_static(br#""private""#)));
                }
                edits.sort_by_key(|(r, _)| r.start);
                let mut out = Spliced::with_capacity(2 * edits.len() + 1);
                let mut at = 0;
                for (range, text) in edits {
                    out.push_original(&bytes[at..range.start]);
                    out.push_new(text);
                    at = range.end;
                }
                out.push_original(&bytes[at..]);
                out
            }
            Shape::Maps { envelope, result } => {
                let mut result = result.clone();
                let text = tools.and_then(|t| std::str::from_utf8(t).ok());
                if let Some(raw) = text.and_then(|t| RawValue::from_string(t.to_owned()).ok()) {
                    result.insert("tools".to_owned(), raw);
                }
                if let Some(ttl) = result.get("ttlMs").and_then(|t| capped(t.get().as_bytes(), ttl_cap_ms)) {
                    result.insert("ttlMs".to_owned(), raw(&ttl));
                }
                if private && self.shared_scope() {
                    result.insert("cacheScope".to_owned(), raw("private"));
                }
                let mut envelope = envelope.clone();
                envelope.insert("result".to_owned(), raw(&result));
                Spliced::from(serde_json::to_vec(&envelope).unwrap_or_default())
            }
        }
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

    /// The message with `actions` applied (one per tool, in order) and `ttlMs` capped as in
    /// [`with_tools`](Self::with_tools).
    pub fn render(&self, actions: &[ToolAction], ttl_cap_ms: Option<u64>) -> Vec<u8> {
        self.with_tools(&self.rendered_tools(actions), ttl_cap_ms)
    }
}

/// The cap, when `ttl` (a `ttlMs` value's text) is a whole number above it.
fn capped(ttl: &[u8], cap: Option<u64>) -> Option<u64> {
    let cap = cap?;
    serde_json::from_slice::<u64>(ttl).ok().filter(|t| *t > cap).map(|_| cap)
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
    fn everything_outside_the_tools_stays_byte_for_byte() {
        let msg = " {\"jsonrpc\": \"2.0\",\n \"result\" : {\"ttlMs\" : 60000, \"tools\": [{\"name\":\"a\"}] , \"x\":1.0},\"id\":\"q\"}\n";
        let out = ListResult::parse(msg.as_bytes()).unwrap().with_tools(r#"[{"name":"b"}]"#, Some(5000));
        let scoped = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[],"cacheScope":"public","ttlMs":1}}"#;
        let list = ListResult::parse(scoped.as_bytes()).unwrap();
        assert!(list.shared_scope());
        let private = String::from_utf8(list.with_tools_scoped(None, None, true).to_vec()).unwrap();
        assert_eq!(private, scoped.replace("public", "private"));
        let expected = msg.replace(r#"[{"name":"a"}]"#, r#"[{"name":"b"}]"#).replace("60000", "5000");
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }

    #[test]
    fn escaped_and_repeated_keys_are_read_as_parsers_read_them() {
        // `\u0074ools` is `tools`; of two `tools`, JavaScript, Python and serde keep the last.
        let escaped = r#"{"jsonrpc":"2.0","id":1,"result":{"\u0074ools":[{"name":"a"}]}}"#;
        let lr = ListResult::parse(escaped.as_bytes()).expect("a list all the same");
        assert_eq!(lr.tools_text(), r#"[{"name":"a"}]"#);
        let repeated = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a"}],"tools":[{"name":"b"}]}}"#;
        let lr = ListResult::parse(repeated.as_bytes()).unwrap();
        assert_eq!(lr.tools_text(), r#"[{"name":"b"}]"#);
        let v: Value = serde_json::from_slice(&lr.render(&[ToolAction::Drop], None)).unwrap();
        assert_eq!(v["result"], json!({"tools": []}), "one tools array left, the rendered one");
    }

    #[test]
    fn a_list_behind_a_repeated_key_of_another_shape_is_still_seen() {
        // Found by tests/it/fuzz_tools_list.rs: the first `result` (or `tools`) not an object
        // (an array) stopped the scan, so the list a client reads (the last one) went through
        // unfiltered.
        for msg in [
            r#"{"jsonrpc":"2.0","id":1,"result":null,"result":{"tools":[{"name":"a"}]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"tools":{},"tools":[{"name":"a"}]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"b"}],"tools":[{"name":"a"}]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":7,"\u0072esult":{"tools":[{"name":"a"}]}}"#,
        ] {
            let lr = ListResult::parse(msg.as_bytes()).unwrap_or_else(|| panic!("a list: {msg}"));
            assert_eq!(lr.tools_text(), r#"[{"name":"a"}]"#, "{msg}");
        }
        // Without a repeat, another shape is still not a list.
        for msg in [r#"{"jsonrpc":"2.0","id":1,"result":null}"#, r#"{"jsonrpc":"2.0","id":1,"result":{"tools":{}}}"#] {
            assert!(ListResult::parse(msg.as_bytes()).is_none(), "{msg}");
        }
    }

    #[test]
    fn the_id_decides_wherever_it_is_and_however_often() {
        let wanted = |id: &str| id == "7";
        let after = r#"{"result":{"tools":[]},"jsonrpc":"2.0","id":7}"#;
        assert!(ListResult::parse_with(after.as_bytes(), wanted, |_| None).is_some());
        let other = r#"{"jsonrpc":"2.0","id":8,"result":{"tools":[]}}"#;
        assert!(ListResult::parse_with(other.as_bytes(), wanted, |_| None).is_none());
        // A repeated id: parsers keep the last, so the answer is a list answer after all.
        let twice = r#"{"jsonrpc":"2.0","id":8,"result":{"tools":[{"name":"a"}]},"id":7}"#;
        assert!(ListResult::parse_with(twice.as_bytes(), wanted, |_| None).is_some());
    }

    #[test]
    fn a_known_array_is_not_read_again() {
        let mut seen = None;
        let lr = ListResult::parse_with(MSG.as_bytes(), |_| true, |from| {
            seen = Some(from.len());
            let start = r#"[{"name":"a","inputSchema":{"type":"object","x":1.50},"_meta":{"k":"v"}},{"name":"b","inputSchema":{}},{"name":"c","icons":[{"src":"x"}]}]"#;
            from.starts_with(start.as_bytes()).then_some(start.len())
        })
        .unwrap();
        assert!(seen.is_some());
        assert!(lr.has_next_page());
        assert_eq!(lr.tools().len(), 3, "split on demand");
    }

    #[test]
    fn an_empty_cursor_names_no_next_page() {
        for (cursor, more) in [(r#""c2""#, true), (r#""""#, false), ("null", false)] {
            let msg = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[],"nextCursor":{cursor}}}}}"#);
            assert_eq!(ListResult::parse(msg.as_bytes()).unwrap().has_next_page(), more, "{cursor}");
            // The same through the full parse (a repeated key sends it there).
            let repeated = msg.replacen(r#""tools":[],"#, r#""tools":{},"tools":[],"#, 1);
            assert_eq!(ListResult::parse(repeated.as_bytes()).unwrap().has_next_page(), more, "{cursor}");
        }
    }

    #[test]
    fn splicing_and_rewriting_the_maps_agree() {
        let messages = [
            MSG.to_owned(),
            r#"{"id":"x","result":{"ttlMs":9e3,"tools":[]},"jsonrpc":"2.0"}"#.to_owned(),
            format!(
                r#"{{"jsonrpc":"2.0","id":[1],"result":{{"_meta":{{"a":[{{}}]}},"tools":[{}]}}}}"#,
                r#"{"name":"\"q\"","x":"}]"}"#
            ),
        ];
        let meta = json!({"tdqs": 3.1});
        for msg in &messages {
            let spans = ListResult::parse(msg.as_bytes()).unwrap();
            assert!(matches!(spans.shape, Shape::Spans { .. }), "{msg}");
            let maps = ListResult::maps(msg.as_bytes(), &|_: &str| true).unwrap();
            assert_eq!(spans.tools_text(), maps.tools_text());
            assert_eq!(spans.has_next_page(), maps.has_next_page());
            let actions: Vec<ToolAction> =
                (0..spans.tools().len()).map(|_| ToolAction::Annotate(meta.clone())).collect();
            let a: Value = serde_json::from_slice(&spans.render(&actions, Some(5000))).unwrap();
            let b: Value = serde_json::from_slice(&maps.render(&actions, Some(5000))).unwrap();
            assert_eq!(a, b, "{msg}");
        }
    }

    #[test]
    fn not_a_list_result() {
        assert!(ListResult::parse(br#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#).is_none());
        assert!(ListResult::parse(br#"{"jsonrpc":"2.0","id":1,"result":{"tools":{}}}"#).is_none());
        assert!(ListResult::parse(b"[1,2]").is_none());
        assert!(ListResult::parse(br#"{"jsonrpc":"2.0","id":1,"method":"x","result":{"tools":[]}}"#).is_none());
        assert!(ListResult::parse(br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}} x"#).is_none());
        assert!(ListResult::parse(br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[1,]}}"#).is_none());
    }
}
