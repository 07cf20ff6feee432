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
