//! The canonical JSON text of a definition, byte-compatible with JavaScript's
//! `safe-stable-stringify`: compact with keys sorted by UTF-16 units for hashing, and the
//! author's key order with 2-space indentation (like `JSON.stringify(v, null, 2)`) for prompts.

use sha2::{Digest, Sha256};

use super::json::{JsObject, JsString, JsValue};
use super::text::cmp_utf16;

/// Compact text with object keys sorted at every depth by UTF-16 code units.
pub fn to_sorted_compact(v: &JsValue) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    write_compact(&mut out, v);
    out
}

/// 2-space indented text in JavaScript's property order (integer-like keys first,
/// ascending, then insertion order), as shown to a judge.
pub fn to_author_pretty(v: &JsValue) -> String {
    let mut out = Vec::with_capacity(256);
    write_pretty(&mut out, v, 0);
    // Only our own escaper wrote into `out`; lone surrogates were escaped, so it is UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// First 16 lowercase hex characters of SHA-256 over `bytes`.
pub fn short_sha256(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digest = Sha256::digest(bytes);
    let mut hex = String::with_capacity(16);
    for b in &digest[..8] {
        hex.push(HEX[(b >> 4) as usize] as char);
        hex.push(HEX[(b & 0xF) as usize] as char);
    }
    hex
}

/// Compact sorted text of an object, appended to `out`.
pub fn write_sorted_object(out: &mut Vec<u8>, o: &JsObject) {
    // Keys usually arrive sorted (or the object is tiny): one comparison per neighbour pair,
    // and no copy of the entries.
    if o.iter().zip(o.iter().skip(1)).all(|((a, _), (b, _))| cmp_utf16(a, b).is_lt()) {
        return write_entries(out, o.iter());
    }
    // Most objects are small: sort their entries on the stack.
    let mut entries: smallvec::SmallVec<[(&JsString, &JsValue); 16]> = o.iter().collect();
    entries.sort_by(|a, b| cmp_utf16(a.0, b.0));
    write_entries(out, entries.into_iter());
}

fn write_entries<'a>(out: &mut Vec<u8>, entries: impl Iterator<Item = (&'a JsString, &'a JsValue)>) {
    out.push(b'{');
    for (i, (k, v)) in entries.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_string(out, k);
        out.push(b':');
        write_compact(out, v);
    }
    out.push(b'}');
}

fn write_compact(out: &mut Vec<u8>, v: &JsValue) {
    match v {
        JsValue::Object(o) => write_sorted_object(out, o),
        JsValue::Array(a) => {
            out.push(b'[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_compact(out, v);
            }
            out.push(b']');
        }
        scalar => write_scalar(out, scalar),
    }
}

fn write_pretty(out: &mut Vec<u8>, v: &JsValue, level: usize) {
    let indent = |out: &mut Vec<u8>, level: usize| {
        out.push(b'\n');
        out.extend(std::iter::repeat_n(b' ', 2 * level));
    };
    match v {
        JsValue::Object(o) if !o.is_empty() => {
            out.push(b'{');
            for (i, (k, v)) in javascript_order(o).into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                indent(out, level + 1);
                write_string(out, k);
                out.extend_from_slice(b": ");
                write_pretty(out, v, level + 1);
            }
            indent(out, level);
            out.push(b'}');
        }
        JsValue::Array(a) if !a.is_empty() => {
            out.push(b'[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                indent(out, level + 1);
                write_pretty(out, v, level + 1);
            }
            indent(out, level);
            out.push(b']');
        }
        JsValue::Object(_) => out.extend_from_slice(b"{}"),
        JsValue::Array(_) => out.extend_from_slice(b"[]"),
        scalar => write_scalar(out, scalar),
    }
}

/// Property order of a JavaScript object: array-index keys ascending, then the rest in
/// insertion order.
fn javascript_order(o: &JsObject) -> Vec<(&JsString, &JsValue)> {
    let mut indexed: Vec<(u32, &JsString, &JsValue)> = Vec::new();
    let mut rest = Vec::new();
    for (k, v) in o.iter() {
        match array_index(k) {
            Some(n) => indexed.push((n, k, v)),
            None => rest.push((k, v)),
        }
    }
    indexed.sort_by_key(|e| e.0);
    indexed.into_iter().map(|(_, k, v)| (k, v)).chain(rest).collect()
}

/// The canonical array index a key spells (`"0"`, `"17"`, but not `"01"` or `"4294967295"`).
fn array_index(k: &JsString) -> Option<u32> {
    let b = k.as_bytes();
    if b.is_empty() || b.len() > 10 || (b.len() > 1 && b[0] == b'0') || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n: u64 = std::str::from_utf8(b).ok()?.parse().ok()?;
    (n < u32::MAX as u64).then_some(n as u32)
}

fn write_scalar(out: &mut Vec<u8>, v: &JsValue) {
    match v {
        JsValue::Null | JsValue::IntOverflow => out.extend_from_slice(b"null"),
        JsValue::Bool(true) => out.extend_from_slice(b"true"),
        JsValue::Bool(false) => out.extend_from_slice(b"false"),
        JsValue::Number(n) => write_number(out, *n),
        JsValue::String(s) => write_string(out, s),
        JsValue::Object(_) | JsValue::Array(_) => {}
    }
}

/// ECMAScript `Number::toString`; non-finite numbers are `null`, as in `JSON.stringify`.
pub fn write_number(out: &mut Vec<u8>, n: f64) {
    if !n.is_finite() {
        out.extend_from_slice(b"null");
    } else if n == 0.0 {
        out.push(b'0'); // also -0
    } else if n.fract() == 0.0 && n.abs() < 9007199254740992.0 {
        // Whole numbers below 2^53 (most numbers in schemas) are exact integers: their digits.
        out.extend_from_slice(itoa::Buffer::new().format(n as i64).as_bytes());
    } else if n.fract() == 0.0 && n.abs() < 1e21 {
        // Whole numbers from 2^53 up to 1e21 print as their exact value, as the reference
        // implementation does (JavaScript would pad its shortest digits with zeros).
        out.extend_from_slice((n as i128).to_string().as_bytes());
    } else {
        let mut buf = ryu_js::Buffer::new();
        out.extend_from_slice(buf.format_finite(n).as_bytes());
    }
}

/// Bytes that end a plain run in [`write_string`]: controls, `"`, `\\`, and 0xED (which
/// starts a WTF-8 surrogate, or a real character from U+D000 to U+D7FF).
const SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[0xED] = true;
    t
};

/// A JSON string literal with `JSON.stringify`'s escapes (well-formed: lone surrogates
/// become `\uXXXX`).
pub fn write_string(out: &mut Vec<u8>, s: &JsString) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut run_start = 0;
    let mut i = 0;
    // Most strings have nothing to escape: one scan, one copy.
    while let Some(at) = next_special(bytes, i) {
        let b = bytes[at];
        // WTF-8 surrogates are ED A0..BF xx; real UTF-8 never has ED followed by A0 or more.
        if b == 0xED && bytes.get(at + 1).is_none_or(|&n| n < 0xA0) {
            i = at + 1;
            continue;
        }
        out.extend_from_slice(&bytes[run_start..at]);
        i = at + 1;
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0C => out.extend_from_slice(b"\\f"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0xED => {
                let cp =
                    ((b as u32 & 0x0F) << 12) | ((bytes[at + 1] as u32 & 0x3F) << 6) | (bytes[at + 2] as u32 & 0x3F);
                push_hex4(out, cp);
                i = at + 3;
            }
            _ => push_hex4(out, b as u32),
        }
        run_start = i;
    }
    out.extend_from_slice(&bytes[run_start..]);
    out.push(b'"');
}

/// Position of the first byte at or after `from` that [`SPECIAL`] marks.
fn next_special(bytes: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    // Eight bytes at a time; the lowest flagged byte of a word is exact (borrows only run
    // upwards from a flagged byte), so it is the first special byte.
    while let Some(word) = bytes.get(i..i + 8) {
        let mask = special_mask(u64::from_le_bytes(word.try_into().unwrap_or_default()));
        if mask != 0 {
            return Some(i + (mask.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    bytes[i..].iter().position(|&b| SPECIAL[b as usize]).map(|j| i + j)
}

/// The high bit of each byte of `w` that is special (see [`SPECIAL`]): below 0x20, `"`, `\\`
/// or 0xED, plus possibly bytes above a special one (the classic SWAR tests).
fn special_mask(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
    below_space | has_zero(w ^ (ONES * 0x22)) | has_zero(w ^ (ONES * 0x5C)) | has_zero(w ^ (ONES * 0xED))
}

/// `\u` and four lowercase hex digits.
fn push_hex4(out: &mut Vec<u8>, v: u32) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.extend_from_slice(b"\\u");
    for shift in [12, 8, 4, 0] {
        out.push(HEX[((v >> shift) & 0xF) as usize]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn compact(src: &str) -> String {
        String::from_utf8(to_sorted_compact(&parse(src.as_bytes()).unwrap())).unwrap()
    }

    #[test]
    fn numbers_print_like_javascript() {
        assert_eq!(
            compact("[1.0, -0, 1e-7, 1e21, 1.5e21, 123e-20, 1e400, 0.1, 100, 9007199254740993]"),
            "[1,0,1e-7,1e+21,1.5e+21,1.23e-18,null,0.1,100,9007199254740992]"
        );
        assert_eq!(
            compact("[-5, -0.0, 2e15, 9007199254740991, -9007199254740991.0, 1e20, -1.5, 4294967296]"),
            "[-5,0,2000000000000000,9007199254740991,-9007199254740991,100000000000000000000,-1.5,4294967296]"
        );
    }

    #[test]
    fn keys_sort_by_utf16_units() {
        assert_eq!(
            compact(r#"{"b":1,"a":{"y":1,"x":2},"\uff61":1,"😀":2,"10":0,"9":0}"#),
            "{\"10\":0,\"9\":0,\"a\":{\"x\":2,\"y\":1},\"b\":1,\"😀\":2,\"｡\":1}"
        );
    }

    #[test]
    fn strings_escape_like_json_stringify() {
        assert_eq!(
            compact(r#""a\u0001\u001f\b\f\n\r\t\"\\\/\u007f\u2028\udfff\ud800""#),
            "\"a\\u0001\\u001f\\b\\f\\n\\r\\t\\\"\\\\/\u{7f}\u{2028}\\udfff\\ud800\""
        );
    }

    #[test]
    fn eight_byte_skipping_finds_every_special_byte() {
        for special in [0x00u8, 0x08, 0x1F, b'"', b'\\', b'\n'] {
            for pos in 0..20 {
                let mut text = vec![b'a'; 20];
                text[pos] = special;
                let s = JsString::from(String::from_utf8(text).unwrap());
                let mut out = Vec::new();
                write_string(&mut out, &s);
                assert!(out.len() > 22, "byte {special:#x} at {pos} was not escaped");
            }
        }
        assert_eq!(special_mask(u64::from_le_bytes(*b"plain ok")), 0);
        assert_eq!(special_mask(u64::from_le_bytes(*b"quo\"tes!")).trailing_zeros() / 8, 3);
    }

    #[test]
    fn escaping_is_exact_at_every_offset() {
        // U+D7FF is ED 9F BF (kept); a lone surrogate is ED A0..BF xx (escaped).
        for pad in 0..17 {
            let p = "a".repeat(pad);
            assert_eq!(
                compact(&format!(r#""{p}\ud7ff{p}\udc00{p}\u0007{p}""#)),
                format!("\"{p}\u{d7ff}{p}\\udc00{p}\\u0007{p}\"")
            );
        }
    }

    #[test]
    fn pretty_keeps_javascript_property_order() {
        let v = parse(br#"{"b":[],"a":{},"2":[1,{"z":null}],"01":true,"1":"x"}"#).unwrap();
        assert_eq!(
            to_author_pretty(&v),
            "{\n  \"1\": \"x\",\n  \"2\": [\n    1,\n    {\n      \"z\": null\n    }\n  ],\n  \"b\": [],\n  \"a\": {},\n  \"01\": true\n}"
        );
    }
}
