//! Fuzzing the `tools/list` scanner and splice (`tdqs_gateway::mcp::tools_list`,
//! `tdqs_gateway::mcp::scan`) on the stable toolchain, differentially against serde_json (which
//! reads repeated keys last-wins, as Python and JavaScript clients do). Messages are generated
//! (keys in any order, repeated or escaped, odd ids, `nextCursor`, `ttlMs`, `cacheScope`,
//! tools with awkward names and `_meta`s, random whitespace and string escapes) and often
//! mutated byte by byte. For every input:
//!
//! - nothing panics;
//! - the scanner and serde agree on whether the message is a `tools/list` answer (a response
//!   with an id, no string method, and `result.tools` an array): a list serde sees and the scanner
//!   misses would reach the client unfiltered;
//! - when it is one: the tools, the id and `has_next_page` are serde's; the output of a
//!   random render (keep, drop, annotate; a `ttlMs` cap; a private scope) is valid JSON,
//!   carries exactly the tools kept (annotated as asked), and equals the input elsewhere;
//! - `scan::walk_object` reads the members of any object serde reads, as serde reads them.
//!
//! A message serde's `Value` cannot hold (a lone surrogate escape: valid JSON, which Python
//! and JavaScript read) is compared on its grammar only, through `IgnoredAny`.
//!
//! The differential is over valid UTF-8 (the gateway checks UTF-8 once for a whole message
//! before it scans, since serde does not check the strings it skips); other bytes must only
//! not panic.
//!
//! Long: one fuzz target; the message generator and the differential checks it feeds change
//! together.

use serde_json::{Map, Value, json};
use tdqs_gateway::mcp::scan::{self, Stop};
use tdqs_gateway::mcp::tools_list::{ListResult, META_KEY, ToolAction};

use crate::support::fuzz::{Budget, Tally, hostile_string, mutate, show};
use crate::support::rng::Rng;

const TOKENS: &[&[u8]] = &[
    br#","tools":[]"#,
    br#","tools":{}"#,
    br#","id":2"#,
    br#","method":"x""#,
    br#","nextCursor":null"#,
    br#""\u0074ools""#,
    br#","ttlMs":1e3"#,
    b"\\",
    b"\"",
    b"]",
    b"[",
    b"}",
    b"{",
    b",",
    b":",
    b" ",
    b"\x01",
    b"\xff",
];

/// JSON text of `v` with random whitespace and, in strings, random (valid) escapes.
fn write(rng: &mut Rng, v: &Value, out: &mut String) {
    let ws = |rng: &mut Rng, out: &mut String| {
        if rng.percent(15) {
            out.push_str(rng.pick_str(&[" ", "\n", "\t", "\r\n", "  "]));
        }
    };
    ws(rng, out);
    match v {
        Value::String(s) => write_str(rng, s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(rng, item, out);
            }
            ws(rng, out);
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, item)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                ws(rng, out);
                write_str(rng, k, out);
                ws(rng, out);
                out.push(':');
                write(rng, item, out);
            }
            ws(rng, out);
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
    ws(rng, out);
}

fn write_str(rng: &mut Rng, s: &str, out: &mut String) {
    let escape_all = rng.percent(5);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            '/' if rng.percent(50) => out.push_str("\\/"),
            c if escape_all || rng.percent(2) => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04X}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A random JSON value of small depth, strings hostile.
fn any_value(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth == 0 { 4 } else { 7 }) {
        0 => Value::Null,
        1 => json!(rng.percent(50)),
        2 => json!(*rng.pick(&[0.0, -1.5, 1e300, 60000.0, 12345678901234567.0])),
        3 => Value::String(hostile_string(rng, 8)),
        4 => json!(rng.next_u64() >> rng.below(64)),
        5 => Value::Array((0..rng.below(4)).map(|_| any_value(rng, depth - 1)).collect()),
        _ => Value::Object((0..rng.below(4)).map(|_| (hostile_string(rng, 2), any_value(rng, depth - 1))).collect()),
    }
}

fn tool(rng: &mut Rng, i: usize) -> Value {
    if rng.percent(5) {
        return any_value(rng, 1);
    }
    let mut t = Map::new();
    let name = match rng.below(4) {
        0 => hostile_string(rng, 4),
        1 => r#"a"]},{"name":"x"#.to_owned(),
        _ => format!("tool_{i}"),
    };
    t.insert("name".into(), name.into());
    if rng.percent(80) {
        t.insert("description".into(), hostile_string(rng, 16).into());
    }
    if rng.percent(70) {
        t.insert("inputSchema".into(), json!({"type": "object", "properties": {"q": any_value(rng, 2)}}));
    }
    match rng.below(5) {
        0 => {
            t.insert("_meta".into(), json!({"k": "v"}));
        }
        1 => {
            t.insert("_meta".into(), any_value(rng, 1));
        }
        2 => {
            t.insert("_meta".into(), json!({META_KEY: {"old": true}}));
        }
        _ => {}
    }
    Value::Object(t)
}

/// Writes `members` as an object, in the given order, possibly with a member repeated or a key
/// escaped.
fn object(rng: &mut Rng, mut members: Vec<(String, Value)>, out: &mut String) {
    rng.shuffle(&mut members);
    if !members.is_empty() && rng.percent(10) {
        // A repeated key, with another value, before or after the first.
        let (k, _) = members[rng.below(members.len())].clone();
        let v = match k.as_str() {
            "tools" if rng.percent(50) => json!({}),
            "tools" => json!([{"name": "repeated"}]),
            "id" => json!(rng.below(3)),
            _ => any_value(rng, 1),
        };
        members.insert(rng.below(members.len() + 1), (k, v));
    }
    out.push('{');
    for (i, (k, v)) in members.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_str(rng, k, out);
        out.push(':');
        write(rng, v, out);
    }
    out.push('}');
}

fn message(rng: &mut Rng) -> Vec<u8> {
    let tools: Vec<Value> = (0..rng.below(6)).map(|i| tool(rng, i)).collect();
    let mut result: Vec<(String, Value)> = vec![("tools".into(), Value::Array(tools))];
    if rng.percent(40) {
        result.push(("nextCursor".into(), if rng.percent(30) { Value::Null } else { json!("c==") }));
    }
    if rng.percent(40) {
        result.push((
            "ttlMs".into(),
            json!(*rng.pick(&[json!(60000), json!(10), json!(6e4), json!("60000"), json!(-1)])),
        ));
    }
    if rng.percent(30) {
        result.push(("cacheScope".into(), json!(rng.pick_str(&["public", "private", "shared"]))));
    }
    if rng.percent(30) {
        result.push(("extra".into(), any_value(rng, 2)));
    }
    let mut result_text = String::new();
    if rng.percent(3) {
        let v = any_value(rng, 2);
        write(rng, &v, &mut result_text);
    } else {
        object(rng, result, &mut result_text);
    }
    let id = rng.pick(&[json!(1), json!("a"), json!(1.0), json!(null), json!([1]), json!({"x": 1}), json!(-0)]).clone();
    let mut envelope = vec![("jsonrpc".to_owned(), json!("2.0")), ("id".to_owned(), id)];
    if rng.percent(5) {
        envelope.push(("method".into(), json!("tools/list")));
    }
    if rng.percent(5) {
        envelope.retain(|(k, _)| k != "id");
    }
    // The result goes in as a placeholder so its own text (and its whitespace) is kept.
    envelope.push(("result".into(), json!("\u{1}RESULT\u{1}")));
    let mut out = String::new();
    object(rng, envelope, &mut out);
    let placeholder = "\"\\u0001RESULT\\u0001\"";
    let out = if out.contains(placeholder) { out.replacen(placeholder, &result_text, 1) } else { out };
    let mut bytes = out.into_bytes();
    if rng.percent(5) {
        bytes.extend_from_slice(b" \n");
    }
    bytes
}

/// Whether serde reads `v` as a `tools/list` answer (a `method` that is not a string does not
/// make it a request: the Python SDK reads such a message as the response it otherwise is).
fn serde_list(v: &Value) -> Option<&Vec<Value>> {
    if v.get("method").is_some_and(Value::is_string) || v.get("id").is_none() {
        return None;
    }
    v.get("result")?.get("tools")?.as_array()
}

/// What annotating `tool` with `meta` must give.
fn annotated(tool: &Value, meta: &Value) -> Value {
    let mut t = tool.clone();
    if let Some(obj) = t.as_object_mut() {
        match obj.get_mut("_meta") {
            None => {
                obj.insert("_meta".into(), json!({META_KEY: meta}));
            }
            Some(Value::Object(m)) => {
                m.insert(META_KEY.into(), meta.clone());
            }
            Some(_) => {}
        }
    }
    t
}

fn check_list(rng: &mut Rng, bytes: &[u8], accepted: &mut u64, lone: &mut u64) -> Result<(), String> {
    let serde_read: Result<Value, _> = serde_json::from_slice(bytes);
    let refusal = serde_read.as_ref().err().map(ToString::to_string);
    let serde = serde_read.ok();
    if serde.is_none() && serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok() {
        // JSON that serde's `Value` cannot hold (a lone surrogate escape, which JavaScript and
        // Python read): only the grammar is compared.
        *lone += 1;
        return Ok(());
    }
    let Some(list) = ListResult::parse(bytes) else {
        if let Some(v) = &serde
            && serde_list(v).is_some()
        {
            return Err("serde reads a tools/list answer the scanner does not see".into());
        }
        return Ok(());
    };
    *accepted += 1;
    let v = serde.ok_or_else(|| format!("the scanner accepts what serde refuses: {refusal:?}"))?;
    let tools = serde_list(&v).ok_or("the scanner accepts what serde does not read as a list")?;
    let ours: Vec<Value> = list
        .tools()
        .iter()
        .map(|t| serde_json::from_str(t.get()))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    if &ours != tools {
        return Err(format!("tools {ours:?}, serde {tools:?}"));
    }
    if serde_json::from_str::<Value>(list.id_text()).ok().as_ref() != v.get("id") {
        return Err(format!("id {}, serde {:?}", list.id_text(), v.get("id")));
    }
    // A next page is named by a cursor neither null nor empty (the SDKs stop at "").
    if list.has_next_page() != v["result"].get("nextCursor").is_some_and(|c| !c.is_null() && c != "") {
        return Err("has_next_page disagrees".into());
    }
    // A random rendering.
    let meta = json!({"tdqs": rng.below(50) as f64 / 10.0, "tier": "B"});
    let n = if rng.percent(10) { rng.below(tools.len() + 1) } else { tools.len() };
    let actions: Vec<ToolAction> = (0..n)
        .map(|_| match rng.below(3) {
            0 => ToolAction::Keep,
            1 => ToolAction::Drop,
            _ => ToolAction::Annotate(meta.clone()),
        })
        .collect();
    let cap = rng.percent(50).then(|| rng.below(100_000) as u64);
    let private = rng.percent(30);
    let rendered = bytes::Bytes::from(list.rendered_tools(&actions));
    let spliced = list.with_tools_scoped(Some(&rendered), cap, private);
    let out = spliced.to_vec();
    // The pieces the HTTP relay sends, sliced out of the buffer the message was read into,
    // are the same bytes as the joined answer.
    let whole = bytes::Bytes::copy_from_slice(bytes);
    let resliced = ListResult::parse(&whole).ok_or("a list no more")?;
    let frames = resliced.with_tools_scoped(Some(&rendered), cap, private).into_frames(&whole);
    if frames.concat() != out {
        return Err(format!("the frames differ from the joined answer: {}", show(&frames.concat())));
    }
    let got: Value =
        serde_json::from_slice(&out).map_err(|e| format!("the output is not JSON ({e}): {}", show(&out)))?;
    let kept: Vec<Value> = tools
        .iter()
        .zip(actions.iter().chain(std::iter::repeat(&ToolAction::Keep)))
        .filter_map(|(t, a)| match a {
            ToolAction::Keep => Some(t.clone()),
            ToolAction::Drop => None,
            ToolAction::Annotate(m) => Some(annotated(t, m)),
        })
        .collect();
    let mut expected = v.clone();
    let result = expected["result"].as_object_mut().ok_or("no result object")?;
    result.insert("tools".into(), Value::Array(kept));
    if let (Some(cap), Some(ttl)) = (cap, result.get("ttlMs").and_then(Value::as_u64))
        && ttl > cap
    {
        result.insert("ttlMs".into(), json!(cap));
    }
    if private && result.get("cacheScope").is_some_and(|s| s != "private") {
        result.insert("cacheScope".into(), json!("private"));
    }
    if got != expected {
        return Err(format!("rendered {got}, expected {expected}"));
    }
    Ok(())
}

/// `walk_object` against serde on the whole message.
fn check_walk(bytes: &[u8]) -> Result<(), String> {
    let mut members: Vec<(String, Value)> = Vec::new();
    let walked = scan::walk_object(bytes, 0, |key, at| {
        let span = scan::value(bytes, at).ok_or(Stop::NotIt)?;
        let v = serde_json::from_slice(&bytes[span.clone()]).map_err(|_| Stop::NotIt)?;
        members.push((String::from_utf8_lossy(key).into_owned(), v));
        Ok(Some(span.end))
    });
    let serde: Option<Map<String, Value>> = serde_json::from_slice(bytes).ok();
    match (walked, serde) {
        (Err(Stop::Unusual), _) => Ok(()),
        (Ok(end), Some(obj)) if scan::ws(bytes, end) == bytes.len() => {
            let mut last_wins = Map::new();
            for (k, v) in members {
                last_wins.insert(k, v);
            }
            if last_wins != obj {
                return Err(format!("walked {last_wins:?}, serde {obj:?}"));
            }
            Ok(())
        }
        (Ok(end), None) if scan::ws(bytes, end) == bytes.len() => Err("walked an object serde refuses".into()),
        (Ok(_), _) => Ok(()),
        (Err(Stop::NotIt), Some(_)) => Err("serde reads an object the walk refuses".into()),
        (Err(Stop::NotIt), None) => Ok(()),
    }
}

#[test]
fn the_scanner_reads_lists_as_serde_does_and_splices_exactly_the_tools_kept() {
    let budget = Budget::from_env(30.0, 0x7001);
    let mut rng = Rng::new(budget.seed);
    let mut tally = Tally::new("fuzz_tools_list");
    let (mut accepted, mut lone) = (0u64, 0u64);
    let mut previous = message(&mut rng);
    while budget.more(tally.runs) {
        let mut bytes = message(&mut rng);
        if rng.percent(50) {
            mutate(&mut rng, &mut bytes, TOKENS, &previous);
        }
        let mut case_rng = Rng::new(rng.next_u64());
        tally.run(
            || show(&bytes),
            || {
                // The gateway checks UTF-8 once for the whole message before it scans (serde
                // does not check the strings it skips): other bytes need only not panic.
                if std::str::from_utf8(&bytes).is_err() {
                    let _ = ListResult::parse(&bytes).map(|l| l.render(&[ToolAction::Drop], Some(1)));
                    let _ = scan::walk_object(&bytes, 0, |_, _| Ok(None));
                    return Ok(());
                }
                check_list(&mut case_rng, &bytes, &mut accepted, &mut lone)?;
                check_walk(&bytes)
            },
        );
        previous = bytes;
    }
    tally.add("lists", accepted);
    tally.add("with a lone surrogate (grammar only)", lone);
    assert!(accepted > tally.runs / 5, "most generated messages should be lists ({accepted} of {})", tally.runs);
    tally.finish(&budget);
}
