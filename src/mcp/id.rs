//! JSON-RPC ids compared by value: `1`, `1.0` and `1e0` are one id to every JSON parser a
//! client uses (JavaScript reads numbers as doubles, Python compares `1 == 1.0`), and `"\u0061"`
//! is `"a"`. Answers are matched to requests through [`id_key`], never through the id's text,
//! so an upstream cannot make an answer unrecognisable by spelling its id differently.

/// The id's value as a key: a number as JavaScript would print it (`Number(x).toString()`),
/// a string re-encoded after decoding its escapes, anything else as its compact JSON. Text that
/// is not JSON stays as it is (it matches only itself).
pub fn id_key(raw: &str) -> String {
    let t = raw.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
    match t.as_bytes().first() {
        Some(b'-' | b'0'..=b'9') => match t.parse::<f64>() {
            Ok(n) => {
                // -0 and 0 are the same key, as they are the same number to a client.
                let n = if n == 0.0 { 0.0 } else { n };
                ryu_js::Buffer::new().format(n).to_owned()
            }
            Err(_) => t.to_owned(),
        },
        Some(b'"') => match serde_json::from_str::<String>(t) {
            Ok(s) => serde_json::to_string(&s).unwrap_or_else(|_| t.to_owned()),
            Err(_) => t.to_owned(),
        },
        _ => match serde_json::from_str::<serde_json::Value>(t) {
            Ok(v) => v.to_string(),
            Err(_) => t.to_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::id_key;

    #[test]
    fn numbers_by_value_strings_by_content() {
        for same in ["1", "1.0", "1e0", "10e-1", " 1 ", "1.000000000000000000001"] {
            assert_eq!(id_key(same), "1", "{same}");
        }
        assert_eq!(id_key("-0"), id_key("0"));
        assert_ne!(id_key("1"), id_key("\"1\""), "a string id is not the number");
        assert_eq!(id_key(r#""\u0061""#), id_key(r#""a""#));
        assert_eq!(id_key("1e400"), id_key("2e400"), "both are Infinity to JavaScript");
        assert_eq!(id_key("9007199254740993"), id_key("9007199254740992"));
        assert_ne!(id_key("2"), id_key("1"));
        assert_eq!(id_key("null"), "null");
    }
}
