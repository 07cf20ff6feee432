//! Fuzzing the strict JSON-RPC reader (`tdqs_gateway::mcp::read`) on the stable toolchain: a
//! seeded generator mutates a corpus of real and hostile client messages (bytes replaced,
//! inserted, deleted; keys repeated, escaped, re-cased; BOMs, NaN, odd ids; messages spliced
//! into batches) and checks, for every input:
//!
//! - the reader never panics;
//! - whatever it accepts, a last-wins reader (Python's `json.loads`, JavaScript's `JSON.parse`,
//!   serde_json's `Value`) and a first-wins reader read the same way: the same kind, method,
//!   tool name and id (by value). So no upstream can run a call the gateway read differently.
//!
//! CI runs `FUZZ_ITERATIONS` (default 20,000) inputs; `scripts/fuzz.sh` runs it for longer.
//! Executions, accepted and refused inputs and crashes are printed at the end.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value, json};
use tdqs_gateway::mcp::message::{Kind, id_key};
use tdqs_gateway::mcp::read::{read_body, read_message};

use crate::support::rng::Rng;

const SEEDS: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_data","arguments":{"x":"y"}}}"#,
    r#"{"jsonrpc":"2.0","id":"a-1","method":"tools/list","params":{"cursor":"p2"}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    r#"{"jsonrpc":"2.0","id":7,"result":{"content":[]}}"#,
    r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x"}}]"#,
    r#"{"jsonrpc":"2.0","\u0069d":3,"\u006dethod":"tools/call","params":{"\u006eame":"get_data"}}"#,
    r#"{"jsonrpc":"2.0","id":1.0,"method":"tools/call","params":{"name":"a","_meta":{"progressToken":1}}}"#,
    r#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"a","arguments":{"n":1e308}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}"#,
];

/// Tokens the mutator splices in: the pieces a reader confusion is made of.
const TOKENS: &[&str] = &[
    r#","name":"hidden""#,
    r#","id":2"#,
    r#","method":"tools/call""#,
    r#","params":{"name":"hidden"}"#,
    r#""\u006eame""#,
    "NaN",
    "-Infinity",
    "\u{feff}",
    "\\ud800",
    "1e0",
    "1.0",
    "null",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "\"",
    "\\",
    " ",
    "\u{0}",
    "Tools/Call",
];

/// The shared mutator over this target's tokens, then now and again the result spliced into
/// a batch beside another seed (a hidden call inside a batch is what the reader must not miss).
fn mutate(rng: &mut Rng, input: &mut Vec<u8>) {
    let tokens: Vec<&[u8]> = TOKENS.iter().map(|t| t.as_bytes()).collect();
    let other = SEEDS[rng.below(SEEDS.len())].as_bytes();
    crate::support::fuzz::mutate(rng, input, &tokens, other);
    if rng.below(4) == 0 {
        *input = [b"[".as_slice(), input, b",", other, b"]"].concat();
    }
}

/// A JSON value where the first of a repeated key wins.
struct FirstWins(Value);

impl<'de> Deserialize<'de> for FirstWins {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Value;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
                Ok(json!(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
                Ok(json!(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
                Ok(json!(v))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
                Ok(json!(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Value, E> {
                Ok(json!(v))
            }
            fn visit_unit<E>(self) -> Result<Value, E> {
                Ok(Value::Null)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Value, A::Error> {
                let mut out = Vec::new();
                while let Some(FirstWins(v)) = s.next_element()? {
                    out.push(v);
                }
                Ok(Value::Array(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Value, A::Error> {
                let mut out = Map::new();
                while let Some(k) = m.next_key::<String>()? {
                    let FirstWins(v) = m.next_value()?;
                    out.entry(k).or_insert(v);
                }
                Ok(Value::Object(out))
            }
        }
        d.deserialize_any(V).map(FirstWins)
    }
}

/// What a reader takes a message to be: (method, tool name, id key).
fn reading(v: &Value) -> (Option<String>, Option<String>, Option<String>) {
    let method = v.get("method").and_then(Value::as_str).map(str::to_owned);
    let tool = v.pointer("/params/name").and_then(Value::as_str).map(str::to_owned);
    let id = v.get("id").and_then(|i| id_key(&i.to_string()));
    let is_call = method.as_deref().is_some_and(|m| m.trim().eq_ignore_ascii_case("tools/call"));
    (method, tool.filter(|_| is_call), id)
}

/// Checks one accepted message against both lenient readings.
fn agree(bytes: &[u8]) -> Result<(), String> {
    let Ok(read) = read_message(bytes) else { return Ok(()) };
    let ours = (
        read.message.method().map(str::to_owned),
        read.message.tool_name.clone(),
        match &read.message.kind {
            Kind::Request { id, .. } | Kind::Response { id } => Some(id.clone()),
            _ => None,
        },
    );
    let last: Value = serde_json::from_slice(bytes).map_err(|e| format!("last-wins refuses what we accept: {e}"))?;
    let first: FirstWins =
        serde_json::from_slice(bytes).map_err(|e| format!("first-wins refuses what we accept: {e}"))?;
    for (name, v) in [("last-wins", &last), ("first-wins", &first.0)] {
        if reading(v) != ours {
            return Err(format!("{name} reads {:?}, the gateway {ours:?}", reading(v)));
        }
    }
    Ok(())
}

fn check(bytes: &[u8]) -> Result<(), String> {
    let body = match read_body(bytes) {
        Ok(b) => b,
        Err(_) => return Ok(()),
    };
    if std::str::from_utf8(bytes).is_err() || bytes.starts_with("\u{feff}".as_bytes()) {
        return Err("accepted bytes that are not plain UTF-8".into());
    }
    // A single message may be read without serde (`read/quick.rs`): it must read as serde's
    // strict reading does, and refuse what that refuses.
    if !body.batch {
        let quick = &body.items[0].read;
        match (quick, read_message(bytes)) {
            (Ok(a), Ok(b)) if *a == b => {}
            (Err(_), Err(_)) => {}
            (a, b) => return Err(format!("the body's reading {a:?} and serde's {b:?} differ")),
        }
    }
    for item in &body.items {
        if item.read.is_ok() {
            agree(item.raw)?;
        }
    }
    Ok(())
}

#[test]
fn the_strict_reader_agrees_with_every_lenient_reader_on_what_it_accepts() {
    let iterations: u64 = std::env::var("FUZZ_ITERATIONS").ok().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let seconds: Option<u64> = std::env::var("FUZZ_SECONDS").ok().and_then(|s| s.parse().ok());
    let seed: u64 = std::env::var("FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x7d95);
    let started = std::time::Instant::now();
    let mut rng = Rng::new(seed);
    let (mut runs, mut accepted, mut crashes, mut disagreements) = (0u64, 0u64, 0u64, Vec::new());
    while match seconds {
        Some(s) => started.elapsed().as_secs() < s,
        None => runs < iterations,
    } {
        let mut input = SEEDS[rng.below(SEEDS.len())].as_bytes().to_vec();
        mutate(&mut rng, &mut input);
        runs += 1;
        match std::panic::catch_unwind(|| check(&input)) {
            Ok(Ok(())) => {
                accepted += u64::from(read_body(&input).is_ok_and(|b| b.items.iter().any(|i| i.read.is_ok())))
            }
            Ok(Err(why)) => disagreements.push((String::from_utf8_lossy(&input).into_owned(), why)),
            Err(_) => {
                crashes += 1;
                eprintln!("crash on {:?}", String::from_utf8_lossy(&input));
            }
        }
    }
    eprintln!(
        "fuzz_reader: {runs} executions in {:.1} s, {accepted} accepted, {} refused, {crashes} crashes, {} disagreements (seed {seed})",
        started.elapsed().as_secs_f64(),
        runs - accepted,
        disagreements.len()
    );
    assert_eq!(crashes, 0, "the reader panicked");
    assert!(disagreements.is_empty(), "readings disagree: {:#?}", &disagreements[..disagreements.len().min(5)]);
    assert!(accepted > runs / 20, "the mutator should keep some inputs readable ({accepted} of {runs})");
}

/// A message inside the plain subset the quick reader takes (or just outside it): keys from a
/// small set (so repeats happen), integers with signs and leading zeros, strings with and
/// without escapes, nesting, blanks anywhere.
fn plain(rng: &mut Rng, depth: usize, out: &mut String) {
    let blank = |rng: &mut Rng, out: &mut String| {
        if rng.percent(20) {
            out.push_str(rng.pick_str(&[" ", "\n", "\t", "\r\n ", "  "]));
        }
    };
    blank(rng, out);
    // Mostly what the subset takes, now and again what it must leave to serde.
    let odd = rng.percent(10);
    match if depth > 3 { rng.below(4) } else { rng.below(6) } {
        0 if odd => out.push_str(rng.pick_str(&["\"a\\\"b\"", "\"\\u0041\"", "\"a\u{1}\""])),
        0 => out.push_str(rng.pick_str(&["\"tools/call\"", "\"x\"", "\"\"", "\"caf\u{e9}\"", "\"tools/list\""])),
        1 if odd => out.push_str(rng.pick_str(&["-0", "01", "1.5", "1e2", "1234567890123456789", "-", "NaN"])),
        1 => out.push_str(rng.pick_str(&["0", "7", "-12", "123456789012345678", "-123456789012345678"])),
        2 if odd => out.push_str(rng.pick_str(&["tru", "nul", "True"])),
        2 => out.push_str(rng.pick_str(&["true", "false", "null"])),
        3 => out.push_str(rng.pick_str(&["{}", "[]", "[1]", "[ ]", "{ }"])),
        4 => {
            out.push('[');
            for i in 0..rng.below(4) {
                if i > 0 {
                    out.push(',');
                }
                plain(rng, depth + 1, out);
            }
            out.push(']');
        }
        _ => {
            out.push('{');
            for i in 0..rng.below(6) {
                if i > 0 {
                    out.push(',');
                }
                blank(rng, out);
                out.push_str(rng.pick_str(&[
                    "\"id\"",
                    "\"method\"",
                    "\"params\"",
                    "\"name\"",
                    "\"result\"",
                    "\"error\"",
                    "\"arguments\"",
                    "\"k\"",
                    "\"\\u0069d\"",
                ]));
                blank(rng, out);
                out.push(':');
                plain(rng, depth + 1, out);
            }
            out.push('}');
        }
    }
    blank(rng, out);
}

#[test]
fn plain_messages_read_the_same_with_and_without_serde() {
    let iterations: u64 = std::env::var("FUZZ_ITERATIONS").ok().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let mut rng = Rng::new(0x51ab);
    let (mut taken, mut problems) = (0u64, Vec::new());
    for _ in 0..iterations {
        let mut text = String::from("{\"jsonrpc\":\"2.0\"");
        let mut keys = ["\"id\":", "\"method\":", "\"params\":{\"name\":", "\"params\":", "\"result\":"];
        rng.shuffle(&mut keys[..3]);
        // Usually an id, a method and params, in any order; now and again a key twice.
        let n = 2 + rng.below(2);
        let repeat = rng.percent(10).then(|| rng.below(5));
        for i in 0..n + usize::from(repeat.is_some()) {
            text.push(',');
            let key = keys[if i < n { i } else { repeat.unwrap_or(0) }];
            text.push_str(key);
            match key {
                // Usually what a message has there, so that most messages are readable.
                "\"id\":" if rng.percent(80) => text.push_str(rng.pick_str(&["1", "\"a-1\"", "-3", "null", "0"])),
                "\"method\":" if rng.percent(80) => {
                    text.push_str(rng.pick_str(&["\"tools/call\"", "\"ping\"", "\"x\""]))
                }
                _ => plain(&mut rng, 1, &mut text),
            }
            if key.ends_with("\"name\":") {
                if rng.percent(50) {
                    text.push_str(",\"arguments\":");
                    plain(&mut rng, 2, &mut text);
                }
                text.push('}');
            }
        }
        text.push('}');
        if let Err(why) = check(text.as_bytes()) {
            problems.push((text.clone(), why));
        }
        taken += u64::from(read_body(text.as_bytes()).is_ok_and(|b| b.items[0].read.is_ok()));
    }
    eprintln!("plain messages: {iterations} generated, {taken} read as messages, {} problems", problems.len());
    assert!(problems.is_empty(), "readings disagree: {:#?}", &problems[..problems.len().min(5)]);
    assert!(taken > iterations / 5, "the generator should make some readable messages ({taken})");
}
