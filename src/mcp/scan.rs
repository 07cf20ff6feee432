//! Finding a few members of a JSON message where they lie, without building the message: the
//! object structure is read here, and every value nobody looks into is skipped by serde_json,
//! which validates it on the way. A repeat `tools/list` answer is then read in one pass over
//! its envelope instead of several over all of it.

use std::ops::Range;

use serde::de::IgnoredAny;

/// Why a walk stopped.
#[derive(Debug, PartialEq, Eq)]
pub enum Stop {
    /// The text is not the shape asked for (or not JSON).
    NotIt,
    /// A key is escaped or repeated: only a full parse reads it as every parser would.
    Unusual,
}

/// The index of the first non-whitespace byte at or after `i`.
pub fn ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\n' | b'\r' | b'\t') {
        i += 1;
    }
    i
}

/// The span of the JSON value at `at` (whitespace before it allowed), validated.
pub fn value(b: &[u8], at: usize) -> Option<Range<usize>> {
    let start = ws(b, at);
    let mut values = serde_json::Deserializer::from_slice(b.get(start..)?).into_iter::<IgnoredAny>();
    values.next()?.ok()?;
    Some(start..start + values.byte_offset())
}

/// Walks the members of the object at `at`. For each, `visit(key, value_start)` returns where
/// the value ends when it read the value itself, or `None` to have it skipped (and validated).
/// Returns the end of the object. Keys with escapes stop the walk as [`Stop::Unusual`], since
/// `"\u0074ools"` is `"tools"` to every parser.
pub fn walk_object(
    b: &[u8],
    at: usize,
    mut visit: impl FnMut(&[u8], usize) -> Result<Option<usize>, Stop>,
) -> Result<usize, Stop> {
    let mut i = ws(b, at);
    if b.get(i) != Some(&b'{') {
        return Err(Stop::NotIt);
    }
    i = ws(b, i + 1);
    if b.get(i) == Some(&b'}') {
        return Ok(i + 1);
    }
    loop {
        if b.get(i) != Some(&b'"') {
            return Err(Stop::NotIt);
        }
        let key_start = i + 1;
        let len = b[key_start..].iter().position(|&c| c == b'"' || c == b'\\').ok_or(Stop::NotIt)?;
        let key_end = key_start + len;
        if b[key_end] == b'\\' {
            return Err(Stop::Unusual);
        }
        // A raw control character in a key is not JSON to any parser, so not here either (the
        // fuzz target found such keys walked). UTF-8 is the caller's to check, once.
        if b[key_start..key_end].iter().any(|&c| c < 0x20) {
            return Err(Stop::NotIt);
        }
        i = ws(b, key_end + 1);
        if b.get(i) != Some(&b':') {
            return Err(Stop::NotIt);
        }
        let start = ws(b, i + 1);
        let end = match visit(&b[key_start..key_end], start)? {
            Some(end) => end,
            None => value(b, start).ok_or(Stop::NotIt)?.end,
        };
        i = ws(b, end);
        match b.get(i) {
            Some(b',') => i = ws(b, i + 1),
            Some(b'}') => return Ok(i + 1),
            _ => return Err(Stop::NotIt),
        }
    }
}

/// Records a member's span, refusing a second one of the same key.
pub fn once(slot: &mut Option<Range<usize>>, span: Range<usize>) -> Result<Option<usize>, Stop> {
    if slot.is_some() {
        return Err(Stop::Unusual);
    }
    let end = span.end;
    *slot = Some(span);
    Ok(Some(end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(text: &str) -> Result<Vec<(String, String)>, Stop> {
        let b = text.as_bytes();
        let mut out = Vec::new();
        let end = walk_object(b, 0, |k, at| {
            let span = value(b, at).ok_or(Stop::NotIt)?;
            out.push((String::from_utf8_lossy(k).into_owned(), text[span.clone()].to_owned()));
            Ok(Some(span.end))
        })?;
        assert_eq!(ws(b, end), b.len(), "object ends the text");
        Ok(out)
    }

    #[test]
    fn reads_members_with_their_original_text() {
        let got = members(r#" { "a" : 1.50 , "b":{"c":[1,"]}"]},"d":"x\"y" } "#).unwrap();
        assert_eq!(
            got,
            [("a".into(), "1.50".into()), ("b".into(), r#"{"c":[1,"]}"]}"#.into()), ("d".into(), r#""x\"y""#.into())]
        );
        assert_eq!(members("{}").unwrap(), []);
    }

    #[test]
    fn rejects_what_is_not_an_object_or_not_json() {
        for bad in [
            "[1]",
            "{",
            r#"{"a"}"#,
            r#"{"a":}"#,
            r#"{"a":1,}"#,
            r#"{"a":1 "b":2}"#,
            r#"{"a":tru}"#,
            r#"{"a":1]"#,
            "",
            "\"x\"",
        ] {
            assert_eq!(members(bad), Err(Stop::NotIt), "{bad}");
        }
    }

    #[test]
    fn a_control_character_in_a_key_is_not_json() {
        // Found by tests/it/fuzz_tools_list.rs: a raw control character in a key was walked as
        // if it were JSON.
        assert_eq!(members("{\"a\u{1}\":1}"), Err(Stop::NotIt));
        assert_eq!(members("{\"a\":{\"\n\":1}}"), Err(Stop::NotIt), "serde checks the values");
    }

    #[test]
    fn escaped_keys_are_unusual() {
        assert_eq!(members(r#"{"\u0074ools":[]}"#), Err(Stop::Unusual));
    }

    #[test]
    fn a_repeated_member_is_unusual() {
        let mut slot = None;
        assert_eq!(once(&mut slot, 1..3), Ok(Some(3)));
        assert_eq!(once(&mut slot, 5..9), Err(Stop::Unusual));
    }
}
