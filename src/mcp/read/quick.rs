//! The common message read without serde: a call's 100-odd bytes cost about 5,000 instructions
//! through serde_json's deserializer and visitors, most of a proxied call's JSON work
//! (`benches/PROFILE.md`). This reader takes only a plain subset of JSON: strings without
//! escapes or control characters, integers of up to 18 digits (no `-0`, no fraction or
//! exponent), objects of up to `MAX_KEYS` keys, at most `MAX_DEPTH` levels, and `id`, `method`
//! and `params.name` that are scalars. On anything outside it (or wrong) it gives up and the
//! strict serde reading decides, so it never refuses, never explains, and is never the only
//! reader of a text it did not fully take; within the subset every key is its raw bytes (no
//! escapes), so a repeat is a byte-equal key. `fuzz_reader` checks that whatever it takes, the
//! serde reading takes the same way.

use serde_json::Value;

use super::members::{Members, Params};

/// The most keys an object may have here (the serde reading takes the rest, with its set).
const MAX_KEYS: usize = 16;
/// The deepest nesting taken here (serde_json stops at 128).
const MAX_DEPTH: usize = 64;

/// The members of a message that is a JSON object within the subset; `None` when the serde
/// reading must decide (not an object, outside the subset, or not JSON).
pub(super) fn members(bytes: &[u8]) -> Option<Members> {
    let mut r = Reader { bytes, at: 0 };
    r.blank();
    let m = r.message()?;
    r.blank();
    (r.at == bytes.len()).then_some(m)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn blank(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, b: u8) -> Option<()> {
        self.blank();
        (self.peek() == Some(b)).then(|| self.at += 1)
    }

    /// The top-level object, its members kept as `members::read` keeps them.
    fn message(&mut self) -> Option<Members> {
        let mut m = Members { id: None, method: None, params: None, answers: false };
        self.object(|r, key| {
            match key {
                b"id" => m.id = Some(r.scalar()?),
                b"method" => m.method = Some(r.scalar()?),
                b"params" => m.params = Some(r.params()?),
                b"result" | b"error" => {
                    r.value(1)?;
                    m.answers = true;
                }
                _ => r.value(1)?,
            }
            Some(())
        })?;
        Some(m)
    }

    fn params(&mut self) -> Option<Params> {
        self.blank();
        match self.peek()? {
            b'{' => {
                let mut name = None;
                self.object(|r, key| {
                    if key == b"name" {
                        name = Some(r.scalar()?);
                    } else {
                        r.value(2)?;
                    }
                    Some(())
                })?;
                Some(Params::Object { name })
            }
            b'[' => self.value(1).map(|()| Params::Array),
            _ => self.value(1).map(|()| Params::Other),
        }
    }

    /// An object at the reader, each member's value read by `each` (given its raw key); gives up
    /// on a repeated key or more than `MAX_KEYS`.
    fn object(&mut self, mut each: impl FnMut(&mut Self, &'a [u8]) -> Option<()>) -> Option<()> {
        self.eat(b'{')?;
        let mut keys: [&[u8]; MAX_KEYS] = [&[]; MAX_KEYS];
        let mut n = 0;
        self.items(b'}', |r| {
            let key = r.string()?;
            if n == MAX_KEYS || keys[..n].contains(&key) {
                return None;
            }
            keys[n] = key;
            n += 1;
            r.eat(b':')?;
            each(r, key)
        })
    }

    /// The items of an object or array whose opening is read, each read by `item` (blanks
    /// before it skipped), separated by commas, up to and including `close`; gives up on
    /// anything else (a trailing comma included).
    fn items(&mut self, close: u8, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.blank();
        if self.peek() == Some(close) {
            self.at += 1;
            return Some(());
        }
        loop {
            self.blank();
            item(self)?;
            self.blank();
            match self.peek()? {
                b',' => self.at += 1,
                b if b == close => {
                    self.at += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// A value checked and not kept, `depth` levels down.
    fn value(&mut self, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.blank();
        match self.peek()? {
            b'{' => self.object(|r, _| r.value(depth + 1)),
            b'[' => {
                self.at += 1;
                self.items(b']', |r| r.value(depth + 1))
            }
            b'"' => self.string().map(drop),
            b't' => self.word(b"true"),
            b'f' => self.word(b"false"),
            b'n' => self.word(b"null"),
            _ => self.integer().map(drop),
        }
    }

    /// `id`, `method` or `params.name`: a scalar built as serde's reading builds it (an object
    /// or array there is left to the serde reading, which builds those).
    fn scalar(&mut self) -> Option<Value> {
        self.blank();
        match self.peek()? {
            b'"' => Some(Value::String(std::str::from_utf8(self.string()?).ok()?.to_owned())),
            b't' => self.word(b"true").map(|()| Value::Bool(true)),
            b'f' => self.word(b"false").map(|()| Value::Bool(false)),
            b'n' => self.word(b"null").map(|()| Value::Null),
            b'{' | b'[' => None,
            _ => self.integer(),
        }
    }

    /// A string's raw bytes, quotes excluded; gives up on an escape or a control character.
    fn string(&mut self) -> Option<&'a [u8]> {
        if self.peek() != Some(b'"') {
            return None;
        }
        let start = self.at + 1;
        let len = memchr::memchr2(b'"', b'\\', &self.bytes[start..])?;
        if self.bytes[start + len] != b'"' || self.bytes[start..start + len].iter().any(|&b| b < 0x20) {
            return None;
        }
        self.at = start + len + 1;
        Some(&self.bytes[start..start + len])
    }

    fn word(&mut self, w: &[u8]) -> Option<()> {
        self.bytes[self.at..].starts_with(w).then(|| self.at += w.len())
    }

    /// An integer as serde_json reads one: non-negative as `u64`, negative as `i64`. Gives up on
    /// `-0` (a float to serde_json), a leading zero, a fraction or exponent, or 19 digits or more.
    fn integer(&mut self) -> Option<Value> {
        let negative = self.peek() == Some(b'-');
        let start = self.at + usize::from(negative);
        let digits = self.bytes[start..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || digits > 18 || (digits > 1 || negative) && self.bytes[start] == b'0' {
            return None;
        }
        if matches!(self.bytes.get(start + digits), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        let n = self.bytes[start..start + digits].iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
        self.at = start + digits;
        Some(if negative { Value::from(-(n as i64)) } else { Value::from(n) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn serde_members(text: &str) -> Option<Members> {
        let mut de = serde_json::Deserializer::from_str(text);
        super::super::members::read(&mut de).and_then(|m| de.end().map(|()| m)).ok().flatten()
    }

    #[test]
    fn what_it_takes_it_reads_as_serde_does() {
        for text in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"q":"a","n":[1,-2,{"k":null}]}}}"#,
            r#" { "id" : "a-1" , "method" : "tools/list" , "params" : { } } "#,
            r#"{"id":-9,"result":{"content":[],"isError":false}}"#,
            r#"{"method":"notifications/initialized"}"#,
            r#"{"id":null,"method":"tools/call","params":["x"]}"#,
            r#"{"id":true,"method":"x","params":3}"#,
            r#"{"id":0,"method":"x","error":{"code":-32600}}"#,
            r#"{"id":123456789012345678,"method":"ping"}"#,
            "{\"id\":1,\"method\":\"caf\u{e9}\"}",
        ] {
            let quick = members(text.as_bytes()).unwrap_or_else(|| panic!("not taken: {text}"));
            assert_eq!(Some(quick), serde_members(text), "{text}");
        }
    }

    #[test]
    fn outside_the_subset_it_gives_up() {
        for text in [
            r#"{"id":1,"id":2,"method":"x"}"#,
            r#"{"id":1,"method":"tools/call","params":{"name":"a","name":"b"}}"#,
            r#"{"id":1,"method":"x","params":{"arguments":{"k":1,"k":2}}}"#,
            r#"{"\u0069d":1,"method":"x"}"#,
            r#"{"id":"a\"b","method":"x"}"#,
            "{\"id\":\"a\u{1}b\",\"method\":\"x\"}",
            r#"{"id":1.0,"method":"x"}"#,
            r#"{"id":1e0,"method":"x"}"#,
            r#"{"id":-0,"method":"x"}"#,
            r#"{"id":01,"method":"x"}"#,
            r#"{"id":1234567890123456789,"method":"x"}"#,
            r#"{"id":[1],"method":"x"}"#,
            r#"{"id":1,"method":"x","params":{"n":NaN}}"#,
            r#"{"id":1,"method":"x"} {}"#,
            r#"{"id":1,"method":"x",}"#,
            r#"{"id":1 "method":"x"}"#,
            r#"[{"id":1,"method":"x"}]"#,
            r#""text""#,
            r#"{"id":1,"method":"x""#,
            r#"{"id":tru,"method":"x"}"#,
        ] {
            assert!(members(text.as_bytes()).is_none(), "taken: {text}");
        }
        let deep = format!(r#"{{"id":1,"method":"x","params":{{"a":{}1{}}}}}"#, "[".repeat(80), "]".repeat(80));
        assert!(members(deep.as_bytes()).is_none(), "deeper than taken");
        let keys: Vec<String> = (0..20).map(|i| format!("\"k{i}\":{i}")).collect();
        let many = format!(r#"{{"id":1,"method":"x","params":{{{}}}}}"#, keys.join(","));
        assert!(members(many.as_bytes()).is_none(), "more keys than taken");
    }
}
