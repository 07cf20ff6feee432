//! Fuzzing the engine's JSON parser (`tdqs_gateway::tdqs::json`) on the stable toolchain,
//! differentially against serde_json. Documents are generated (every kind of value, escapes,
//! surrogate pairs, numbers at the edges of the double range, repeated keys, deep nesting,
//! random whitespace) and often mutated byte by byte. For every input:
//!
//! - the parser never panics, and an error names a line and column inside the input;
//! - invalid UTF-8 is refused;
//! - on valid UTF-8 within the documented limits it accepts exactly what serde_json accepts,
//!   and reads the same value (repeated keys: the last value, at the first position);
//! - outside them, the intended differences hold and nothing else differs:
//!   - nesting: serde stops at 128 levels, the engine at `MAX_DEPTH` (512);
//!   - a lone surrogate escape (`"\ud800"`) is valid JSON that serde refuses; the engine keeps
//!     it (JavaScript strings may hold one);
//!   - a number beyond the double range (`1e400`) serde refuses; the engine reads it as
//!     JavaScript does (infinity), or as an integer overflow it refuses later.

use serde_json::Value;
use tdqs_gateway::tdqs::json::{JsValue, MAX_DEPTH, parse};

use crate::support::fuzz::{Budget, Tally, hostile_string, mutate, show};
use crate::support::rng::Rng;

const TOKENS: &[&[u8]] = &[
    b"\\ud800",
    b"\\udc00",
    b"\\ud83d\\ude00",
    b"\\u00e9",
    b"\\",
    b"\"",
    b"1e400",
    b"-0",
    b"1.",
    b".5",
    b"01",
    b"NaN",
    b"Infinity",
    b"-Infinity",
    b"tru",
    b"nul",
    b"[",
    b"]",
    b"{",
    b"}",
    b",",
    b":",
    b"\xEF\xBB\xBF",
    b"\x00",
    b"\t",
    b"\x0b",
    b"\xc3",
    b"\xed\xa0\x80",
    b"1E+2",
    b"-",
    b"9007199254740993",
];

const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "0.5",
    "1e3",
    "1E-3",
    "1.7976931348623157e308",
    "1.7976931348623159e308",
    "2e308",
    "1e400",
    "-1e400",
    "4.9e-324",
    "2.4e-324",
    "1e-400",
    "9007199254740993",
    "18446744073709551616",
    "-9223372036854775809",
    "123456789012345678901234567890",
    "0.1e1",
    "1e0",
    "-0.0",
];

/// A random JSON document (valid, unless a part of it is chosen to be a near miss).
fn doc(rng: &mut Rng, depth: usize, out: &mut String) {
    let ws = |rng: &mut Rng, out: &mut String| {
        if rng.percent(20) {
            out.push_str(rng.pick_str(&[" ", "\n", "\t", "\r", "\r\n  "]));
        }
    };
    ws(rng, out);
    match rng.below(if depth == 0 { 5 } else { 8 }) {
        0 => out.push_str(rng.pick_str(&["null", "true", "false"])),
        1 | 2 => out.push_str(rng.pick_str(NUMBERS)),
        3 | 4 => string(rng, out),
        5 if rng.percent(10) => {
            // A deep run of arrays or objects, near the limits.
            let n = *rng.pick(&[100, 127, 128, 129, 200, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1]);
            let obj = rng.percent(30);
            for _ in 0..n {
                out.push_str(if obj { "{\"k\":" } else { "[" });
            }
            out.push('1');
            for _ in 0..n {
                out.push(if obj { '}' } else { ']' });
            }
        }
        5 | 6 => {
            out.push('[');
            for i in 0..rng.below(5) {
                if i > 0 {
                    out.push(',');
                }
                doc(rng, depth - 1, out);
            }
            ws(rng, out);
            out.push(']');
        }
        _ => {
            out.push('{');
            let keys = ["a", "b", "name", "\\u0061", "", "é"];
            for i in 0..rng.below(5) {
                if i > 0 {
                    out.push(',');
                }
                ws(rng, out);
                if rng.percent(70) {
                    out.push('"');
                    out.push_str(rng.pick_str(&keys));
                    out.push('"');
                } else {
                    string(rng, out);
                }
                ws(rng, out);
                out.push(':');
                doc(rng, depth - 1, out);
            }
            ws(rng, out);
            out.push('}');
        }
    }
    ws(rng, out);
}

fn string(rng: &mut Rng, out: &mut String) {
    out.push('"');
    for c in hostile_string(rng, 4).chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    if rng.percent(20) {
        out.push_str(rng.pick_str(&[
            "\\ud83d\\ude00",
            "\\n\\t\\b\\f\\r\\/",
            "\\u0000",
            "\\uD800",
            "\\udfff",
            "\\ud800\\u0041",
            "\\ud800\\ud800\\udc00",
        ]));
    }
    out.push('"');
}

/// Nesting depth of valid JSON text (brackets outside strings).
fn depth(text: &[u8]) -> usize {
    let (mut d, mut max, mut in_str, mut esc) = (0usize, 0usize, false, false);
    for &b in text {
        if in_str {
            match (esc, b) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'[' | b'{' => {
                d += 1;
                max = max.max(d);
            }
            b']' | b'}' => d = d.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// Whether a string escape in `text` is a lone surrogate (a high one not followed by a low
/// one, or a low one alone).
fn has_lone_surrogate(text: &str) -> bool {
    let b = text.as_bytes();
    let unit = |i: usize| -> Option<u32> {
        let hex = b.get(i + 2..i + 6)?;
        (b.get(i) == Some(&b'\\') && b.get(i + 1) == Some(&b'u'))
            .then(|| u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok())?
    };
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if let Some(u) = unit(i) {
                if (0xD800..0xDC00).contains(&u) {
                    if unit(i + 6).is_some_and(|l| (0xDC00..0xE000).contains(&l)) {
                        i += 12;
                        continue;
                    }
                    return true;
                }
                if (0xDC00..0xE000).contains(&u) {
                    return true;
                }
            }
            i += 2;
            continue;
        }
        i += 1;
    }
    false
}

/// The engine's value as serde's, where both can hold it.
fn same(ours: &JsValue, theirs: &Value) -> bool {
    match (ours, theirs) {
        (JsValue::Null, Value::Null) => true,
        (JsValue::Bool(a), Value::Bool(b)) => a == b,
        (JsValue::Number(a), Value::Number(b)) => b.as_f64().is_some_and(|b| b == *a || (a.is_nan() && b.is_nan())),
        (JsValue::String(a), Value::String(b)) => a.as_str() == Some(b.as_str()),
        (JsValue::Array(a), Value::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y)),
        (JsValue::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter().zip(b.iter()).all(|((ka, va), (kb, vb))| ka.as_str() == Some(kb.as_str()) && same(va, vb))
        }
        _ => false,
    }
}

/// Whether any number literal in the text (outside strings) is beyond the double range,
/// which serde refuses; a repeated key may have dropped it from the value read.
fn out_of_range(text: &[u8]) -> bool {
    let (mut i, mut in_str, mut esc) = (0, false, false);
    while i < text.len() {
        let b = text[i];
        if in_str {
            match (esc, b) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        if b == b'"' {
            in_str = true;
            i += 1;
            continue;
        }
        if b == b'-' || b.is_ascii_digit() {
            let start = i;
            while i < text.len() && matches!(text[i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
                i += 1;
            }
            let literal = std::str::from_utf8(&text[start..i]).unwrap_or("0");
            if literal.parse::<f64>().is_ok_and(f64::is_infinite) {
                return true;
            }
            continue;
        }
        i += 1;
    }
    false
}

fn check(bytes: &[u8], tally: &mut (u64, u64)) -> Result<(), String> {
    let ours = parse(bytes);
    if let Err(e) = &ours {
        // The position is inside the input (or just past its end).
        let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
        if e.line == 0 || e.line > lines || e.column == 0 {
            return Err(format!("error at line {} column {} of a {lines}-line input", e.line, e.column));
        }
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return match ours {
            Ok(_) => Err("accepted invalid UTF-8".into()),
            Err(_) => Ok(()),
        };
    };
    let theirs: Result<Value, _> = serde_json::from_str(text);
    match (&ours, &theirs) {
        (Ok(v), Ok(s)) => {
            tally.0 += 1;
            if !same(v, s) {
                return Err(format!("read {v:?}, serde {s:?}"));
            }
        }
        (Err(_), Err(_)) => {}
        (Ok(_), Err(e)) => {
            // Only the documented differences (serde's deepest is 127 levels).
            let deep = depth(bytes) > 127;
            if !(deep || has_lone_surrogate(text) || out_of_range(bytes)) {
                return Err(format!("accepted what serde refuses ({e})"));
            }
            tally.1 += 1;
        }
        (Err(e), Ok(_)) => {
            if depth(bytes) <= MAX_DEPTH {
                return Err(format!("refused what serde reads ({e})"));
            }
        }
    }
    if ours.is_ok() && depth(bytes) > MAX_DEPTH {
        return Err(format!("accepted nesting deeper than {MAX_DEPTH}"));
    }
    Ok(())
}

#[test]
fn the_engine_parser_agrees_with_serde_within_its_limits() {
    let budget = Budget::from_env(30.0, 0x150);
    let mut rng = Rng::new(budget.seed);
    let mut tally = Tally::new("fuzz_json");
    let mut counts = (0u64, 0u64);
    let mut previous = Vec::new();
    while budget.more(tally.runs) {
        let mut text = String::new();
        doc(&mut rng, 4, &mut text);
        let mut bytes = text.into_bytes();
        if rng.percent(60) {
            mutate(&mut rng, &mut bytes, TOKENS, &previous);
        }
        tally.run(|| show(&bytes), || check(&bytes, &mut counts));
        previous = bytes;
    }
    tally.add("accepted alike", counts.0);
    tally.add("accepted beyond serde's limits", counts.1);
    assert!(counts.0 > tally.runs / 10, "the generator should make valid JSON ({} of {})", counts.0, tally.runs);
    tally.finish(&budget);
}
