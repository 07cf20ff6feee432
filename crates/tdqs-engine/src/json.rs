//! A JSON value with JavaScript's data model, and a strict parser for it.
//!
//! TDQS hashes definitions the way a JavaScript program sees them, so two things `serde_json`
//! cannot represent must survive parsing: strings with lone UTF-16 surrogates (`"\ud800"` is
//! valid JSON) and numbers beyond the double range (`1e400` is `Infinity`, which serializes as
//! `null`). Strings are kept as WTF-8: UTF-8 that may also encode surrogate code points.
//!
//! Long: one parser with JavaScript semantics (WTF-8 strings, doubles), its value type and
//! serializer; the three must agree byte for byte with the reference.

use std::fmt;
use std::sync::Arc;

/// Deepest nesting accepted; deeper input is refused rather than risking the stack.
pub const MAX_DEPTH: usize = 512;

/// A string as JavaScript sees it: any sequence of code points, lone surrogates included,
/// stored as WTF-8. Shared, so copying a name into each finding and report row is a reference
/// count rather than an allocation.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct JsString(Arc<[u8]>);

impl JsString {
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn is_ascii(&self) -> bool {
        self.0.is_ascii()
    }

    /// The text when it holds no lone surrogate.
    pub fn as_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.0).ok()
    }

    /// The text with each lone surrogate replaced by U+FFFD, for display and prompts.
    pub fn to_string_lossy(&self) -> String {
        match self.as_str() {
            Some(s) => s.to_owned(),
            None => self.code_points().map(|c| char::from_u32(c).unwrap_or('\u{FFFD}')).collect(),
        }
    }

    /// Code points, surrogates included.
    pub fn code_points(&self) -> CodePoints<'_> {
        CodePoints { bytes: &self.0, pos: 0 }
    }

    fn from_wtf8(bytes: Vec<u8>) -> Self {
        JsString(bytes.into())
    }

    /// A string from code points (surrogates allowed).
    pub fn from_code_points(cps: &[u32]) -> Self {
        let mut out = Vec::with_capacity(cps.len());
        for &c in cps {
            push_code_point(&mut out, c);
        }
        JsString::from_wtf8(out)
    }

    /// True when the string holds a lone surrogate (it is not valid Unicode).
    pub fn has_lone_surrogate(&self) -> bool {
        self.as_str().is_none()
    }

    /// The part after `prefix`, if the string starts with it.
    pub fn strip_prefix(&self, prefix: &str) -> Option<JsString> {
        self.0.strip_prefix(prefix.as_bytes()).map(|rest| JsString(rest.into()))
    }
}

impl From<&str> for JsString {
    fn from(s: &str) -> Self {
        JsString(s.as_bytes().into())
    }
}

impl From<String> for JsString {
    fn from(s: String) -> Self {
        JsString(s.into_bytes().into())
    }
}

impl PartialEq<str> for JsString {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other.as_bytes()
    }
}

impl fmt::Debug for JsString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string_lossy(), f)
    }
}

impl fmt::Display for JsString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_str() {
            Some(s) => f.write_str(s),
            None => f.write_str(&self.to_string_lossy()),
        }
    }
}

impl serde::Serialize for JsString {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string_lossy())
    }
}

impl<'de> serde::Deserialize<'de> for JsString {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(JsString::from)
    }
}

/// Decodes WTF-8 into code points.
pub struct CodePoints<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Iterator for CodePoints<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        let b = self.bytes;
        let i = self.pos;
        let b0 = *b.get(i)? as u32;
        // The bytes were produced by our own encoder or by `str`, so they are well formed.
        let (cp, len) = if b0 < 0x80 {
            (b0, 1)
        } else if b0 < 0xE0 {
            (((b0 & 0x1F) << 6) | (b[i + 1] as u32 & 0x3F), 2)
        } else if b0 < 0xF0 {
            let cp = ((b0 & 0x0F) << 12) | ((b[i + 1] as u32 & 0x3F) << 6) | (b[i + 2] as u32 & 0x3F);
            (cp, 3)
        } else {
            let cp = ((b0 & 0x07) << 18)
                | ((b[i + 1] as u32 & 0x3F) << 12)
                | ((b[i + 2] as u32 & 0x3F) << 6)
                | (b[i + 3] as u32 & 0x3F);
            (cp, 4)
        };
        self.pos = i + len;
        Some(cp)
    }
}

/// Appends a code point (surrogates allowed) as WTF-8.
fn push_code_point(out: &mut Vec<u8>, cp: u32) {
    if cp < 0x80 {
        out.push(cp as u8);
    } else if cp < 0x800 {
        out.extend_from_slice(&[0xC0 | (cp >> 6) as u8, 0x80 | (cp & 0x3F) as u8]);
    } else if cp < 0x10000 {
        out.extend_from_slice(&[0xE0 | (cp >> 12) as u8, 0x80 | ((cp >> 6) & 0x3F) as u8, 0x80 | (cp & 0x3F) as u8]);
    } else {
        out.extend_from_slice(&[
            0xF0 | (cp >> 18) as u8,
            0x80 | ((cp >> 12) & 0x3F) as u8,
            0x80 | ((cp >> 6) & 0x3F) as u8,
            0x80 | (cp & 0x3F) as u8,
        ]);
    }
}

/// A JSON value as JavaScript holds it.
#[derive(Clone, Debug, PartialEq)]
pub enum JsValue {
    Null,
    Bool(bool),
    /// A double; `1e400` parses to infinity, which serializes as `null` like JavaScript.
    Number(f64),
    /// An integer literal too large for a double. The reference implementation cannot convert
    /// it and refuses the input; we keep it so validation can refuse it with a clear message.
    IntOverflow,
    String(JsString),
    Array(Vec<JsValue>),
    Object(JsObject),
}

impl JsValue {
    pub fn as_object(&self) -> Option<&JsObject> {
        match self {
            JsValue::Object(o) => Some(o),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[JsValue]> {
        match self {
            JsValue::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&JsString> {
        match self {
            JsValue::String(s) => Some(s),
            _ => None,
        }
    }

    /// True when an integer literal beyond the double range occurs anywhere inside.
    pub fn contains_int_overflow(&self) -> bool {
        match self {
            JsValue::IntOverflow => true,
            JsValue::Array(a) => a.iter().any(JsValue::contains_int_overflow),
            JsValue::Object(o) => o.iter().any(|(_, v)| v.contains_int_overflow()),
            _ => false,
        }
    }
}

/// An object with JavaScript's semantics for repeated keys: the last value wins, at the
/// position where the key first appeared. Entries keep the author's order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct JsObject {
    entries: Vec<(JsString, JsValue)>,
}

impl JsObject {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn get(&self, key: &str) -> Option<&JsValue> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn get_js(&self, key: &JsString) -> Option<&JsValue> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&JsString, &JsValue)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// Inserts or replaces, keeping a replaced key's original position.
    pub fn insert(&mut self, key: JsString, value: JsValue) {
        match self.entries.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.entries.push((key, value)),
        }
    }
}

impl JsObject {
    /// Like [`JsObject::insert`], with a hash index built once the object grows large, so a
    /// hostile document with many keys parses in linear time.
    fn insert_indexed(
        &mut self,
        key: JsString,
        value: JsValue,
        index: &mut Option<std::collections::HashMap<JsString, usize>>,
    ) {
        const INDEX_FROM: usize = 32;
        if index.is_none() && self.entries.len() < INDEX_FROM {
            return self.insert(key, value);
        }
        let map =
            index.get_or_insert_with(|| self.entries.iter().enumerate().map(|(i, (k, _))| (k.clone(), i)).collect());
        match map.get(&key) {
            Some(&i) => self.entries[i].1 = value,
            None => {
                map.insert(key.clone(), self.entries.len());
                self.entries.push((key, value));
            }
        }
    }
}

impl FromIterator<(JsString, JsValue)> for JsObject {
    fn from_iter<I: IntoIterator<Item = (JsString, JsValue)>>(iter: I) -> Self {
        let mut o = JsObject::new();
        for (k, v) in iter {
            o.insert(k, v);
        }
        o
    }
}

/// Why a document is not JSON, with the 1-based line and column where parsing stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} at line {line} column {column}")]
pub struct JsonError {
    pub message: String,
    pub line: usize,
    pub column: usize,
}

/// Parses a complete JSON document: strict grammar, no NaN/Infinity literals, no trailing
/// data, UTF-8 input, nesting up to [`MAX_DEPTH`].
pub fn parse(input: &[u8]) -> Result<JsValue, JsonError> {
    if let Err(e) = std::str::from_utf8(input) {
        return Err(error_at(input, e.valid_up_to(), "invalid UTF-8"));
    }
    let mut p = Parser { s: input, i: 0 };
    p.skip_ws();
    let v = p.value(0)?;
    p.skip_ws();
    if p.i < p.s.len() {
        return Err(p.err("unexpected data after the JSON value"));
    }
    Ok(v)
}

fn error_at(s: &[u8], pos: usize, message: &str) -> JsonError {
    let before = &s[..pos.min(s.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
    JsonError { message: message.to_owned(), line, column }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn err(&self, message: &str) -> JsonError {
        error_at(self.s, self.i, message)
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn literal(&mut self, word: &[u8], v: JsValue) -> Result<JsValue, JsonError> {
        if self.s[self.i..].starts_with(word) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(self.err("invalid literal"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<JsValue, JsonError> {
        match self.peek() {
            None => Err(self.err("unexpected end of input")),
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => Ok(JsValue::String(self.string()?)),
            Some(b't') => self.literal(b"true", JsValue::Bool(true)),
            Some(b'f') => self.literal(b"false", JsValue::Bool(false)),
            Some(b'n') => self.literal(b"null", JsValue::Null),
            Some(b'N') | Some(b'I') => Err(self.err("NaN and Infinity are not valid JSON")),
            Some(b'-') if self.s.get(self.i + 1) == Some(&b'I') => Err(self.err("NaN and Infinity are not valid JSON")),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.err("expected a JSON value")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<JsValue, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.err("nesting is too deep"));
        }
        self.i += 1;
        let mut obj = JsObject::new();
        let mut index = None;
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(JsValue::Object(obj));
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.err("expected a string key"));
            }
            let key = self.string()?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.err("expected ':'"));
            }
            self.i += 1;
            self.skip_ws();
            let v = self.value(depth)?;
            obj.insert_indexed(key, v, &mut index);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(JsValue::Object(obj));
                }
                _ => return Err(self.err("expected ',' or '}'")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<JsValue, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.err("nesting is too deep"));
        }
        self.i += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(JsValue::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value(depth)?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(JsValue::Array(items));
                }
                _ => return Err(self.err("expected ',' or ']'")),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let digits = self.s.get(self.i..self.i + 4).ok_or_else(|| self.err("truncated \\u escape"))?;
        let mut v = 0u32;
        for &d in digits {
            let n = (d as char).to_digit(16).ok_or_else(|| self.err("invalid \\u escape"))?;
            v = v * 16 + n;
        }
        self.i += 4;
        Ok(v)
    }

    fn string(&mut self) -> Result<JsString, JsonError> {
        self.i += 1; // opening quote
        let mut out = Vec::new();
        loop {
            // Copy the run of plain bytes in one go.
            let start = self.i;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.i += 1;
            }
            out.extend_from_slice(&self.s[start..self.i]);
            match self.peek() {
                None => return Err(self.err("unterminated string")),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(JsString::from_wtf8(out));
                }
                Some(b'\\') => {
                    self.i += 1;
                    let esc = self.peek().ok_or_else(|| self.err("unterminated string"))?;
                    self.i += 1;
                    match esc {
                        b'"' => out.push(b'"'),
                        b'\\' => out.push(b'\\'),
                        b'/' => out.push(b'/'),
                        b'b' => out.push(0x08),
                        b'f' => out.push(0x0C),
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'u' => {
                            let mut cp = self.hex4()?;
                            // A high surrogate escape directly followed by a low one is a pair.
                            if (0xD800..0xDC00).contains(&cp)
                                && self.s.get(self.i) == Some(&b'\\')
                                && self.s.get(self.i + 1) == Some(&b'u')
                            {
                                let save = self.i;
                                self.i += 2;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                                } else {
                                    self.i = save;
                                }
                            }
                            push_code_point(&mut out, cp);
                        }
                        _ => {
                            self.i -= 1;
                            return Err(self.err("invalid escape"));
                        }
                    }
                }
                Some(_) => return Err(self.err("control character in string")),
            }
        }
    }

    fn number(&mut self) -> Result<JsValue, JsonError> {
        let start = self.i;
        let digits = |p: &mut Self| {
            let s = p.i;
            while matches!(p.peek(), Some(b'0'..=b'9')) {
                p.i += 1;
            }
            p.i - s
        };
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                digits(self);
            }
            _ => return Err(self.err("invalid number")),
        }
        let mut integral = true;
        if self.peek() == Some(b'.') {
            self.i += 1;
            integral = false;
            if digits(self) == 0 {
                return Err(self.err("invalid number"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            integral = false;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if digits(self) == 0 {
                return Err(self.err("invalid number"));
            }
        }
        // The grammar above admits only ASCII, so this cannot fail.
        let text = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("0");
        let v: f64 = text.parse().map_err(|_| self.err("invalid number"))?;
        if integral && v.is_infinite() {
            return Ok(JsValue::IntOverflow);
        }
        Ok(JsValue::Number(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_lone_surrogates_and_joins_pairs() {
        let v = parse(br#""\ud800x\ud83d\ude00\udc00""#).unwrap();
        let s = v.as_str().unwrap();
        let cps: Vec<u32> = s.code_points().collect();
        assert_eq!(cps, vec![0xD800, 'x' as u32, 0x1F600, 0xDC00]);
        assert!(s.as_str().is_none());
    }

    #[test]
    fn numbers_follow_double_semantics() {
        assert_eq!(parse(b"1e400").unwrap(), JsValue::Number(f64::INFINITY));
        assert_eq!(parse(b"9007199254740993").unwrap(), JsValue::Number(9007199254740992.0));
        let huge = format!("1{}", "0".repeat(400));
        assert_eq!(parse(huge.as_bytes()).unwrap(), JsValue::IntOverflow);
        assert!(parse(b"NaN").is_err());
        assert!(parse(b"-Infinity").is_err());
        assert!(parse(b"01").is_err());
        assert!(parse(b"1.").is_err());
    }

    #[test]
    fn repeated_keys_keep_first_position_last_value() {
        let v = parse(br#"{"a":1,"b":2,"a":3}"#).unwrap();
        let o = v.as_object().unwrap();
        let keys: Vec<String> = o.iter().map(|(k, _)| k.to_string()).collect();
        assert_eq!(keys, ["a", "b"]);
        assert_eq!(o.get("a"), Some(&JsValue::Number(3.0)));
    }

    #[test]
    fn errors_name_the_position() {
        let e = parse(b"{\n  \"a\": tru }").unwrap_err();
        assert_eq!((e.line, e.column), (2, 8));
        assert!(parse(b"[1] x").is_err());
        assert!(parse(b"\"a\x01\"").is_err());
        let deep = "[".repeat(MAX_DEPTH + 1);
        assert!(parse(deep.as_bytes()).unwrap_err().message.contains("deep"));
    }
}
