//! JavaScript string semantics over our strings: UTF-16 lengths and ordering, `trim`,
//! lowercase. TDQS is defined in terms of a JavaScript implementation, so every comparison the
//! method makes goes through here rather than through Rust's `str` defaults.

use std::cmp::Ordering;

use super::json::JsString;

/// Whitespace and line terminators as ECMAScript's `String.prototype.trim` knows them.
/// U+001C..U+001F, U+0085 and U+180E are deliberately absent: JavaScript does not trim them.
pub fn is_js_whitespace(c: u32) -> bool {
    matches!(
        c,
        0x09..=0x0D
            | 0x20
            | 0xA0
            | 0x1680
            | 0x2000..=0x200A
            | 0x2028
            | 0x2029
            | 0x202F
            | 0x205F
            | 0x3000
            | 0xFEFF
    )
}

/// Whitespace as Python's `str.strip()` knows it (the reference trims `serverName` so).
pub fn is_python_whitespace(c: u32) -> bool {
    matches!(
        c,
        0x09..=0x0D | 0x1C..=0x20 | 0x85 | 0xA0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000
    )
}

/// `s` with Python-whitespace removed at both ends.
pub fn python_strip(s: &JsString) -> JsString {
    let cps: Vec<u32> = s.code_points().collect();
    let start = cps.iter().position(|&c| !is_python_whitespace(c)).unwrap_or(cps.len());
    let end = cps.iter().rposition(|&c| !is_python_whitespace(c)).map_or(start, |e| e + 1);
    JsString::from_code_points(&cps[start..end])
}

/// The string with leading and trailing JavaScript whitespace removed, as code points.
pub fn js_trim(s: &JsString) -> Vec<u32> {
    let cps: Vec<u32> = s.code_points().collect();
    let start = cps.iter().position(|&c| !is_js_whitespace(c));
    match start {
        None => Vec::new(),
        Some(start) => {
            let end = cps.iter().rposition(|&c| !is_js_whitespace(c)).unwrap_or(start);
            cps[start..=end].to_vec()
        }
    }
}

/// True when the string is empty after `trim`.
pub fn trims_to_empty(s: &JsString) -> bool {
    // Skip ASCII whitespace; an ASCII byte after it settles the question without decoding.
    let b = s.as_bytes();
    match b.iter().position(|c| !matches!(c, 0x09..=0x0D | 0x20)) {
        None => true,
        Some(i) if b[i] < 0x80 => false,
        Some(_) => s.code_points().all(is_js_whitespace),
    }
}

/// Full Unicode lowercase of a code-point sequence, keeping lone surrogates as they are.
/// Uses Rust's `to_lowercase`, which, like Python's `str.lower` and JavaScript's
/// `toLowerCase`, applies the final-sigma rule.
pub fn lowercase(cps: &[u32]) -> Vec<u32> {
    // Lowercase runs of real characters as strings so context rules (final sigma) apply.
    let mut out = Vec::with_capacity(cps.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut Vec<u32>| {
        if !run.is_empty() {
            out.extend(run.to_lowercase().chars().map(|c| c as u32));
            run.clear();
        }
    };
    for &cp in cps {
        match char::from_u32(cp) {
            Some(c) => run.push(c),
            None => {
                flush(&mut run, &mut out);
                out.push(cp);
            }
        }
    }
    flush(&mut run, &mut out);
    out
}

/// Number of UTF-16 code units (JavaScript's `length`).
pub fn utf16_len(s: &JsString) -> usize {
    s.code_points().map(|c| if c > 0xFFFF { 2 } else { 1 }).sum()
}

/// Code points as UTF-16 code units (lone surrogates stay single units).
pub fn utf16_units(s: &JsString) -> impl Iterator<Item = u16> + '_ {
    s.code_points().flat_map(|c| {
        if c > 0xFFFF {
            let v = c - 0x10000;
            [Some(0xD800 | (v >> 10) as u16), Some(0xDC00 | (v & 0x3FF) as u16)]
        } else {
            [Some(c as u16), None]
        }
        .into_iter()
        .flatten()
    })
}

/// Orders two strings by UTF-16 code units, as JavaScript's default sort does.
#[inline]
pub fn cmp_utf16(a: &JsString, b: &JsString) -> Ordering {
    // Byte order is code-point order, which is UTF-16 order except where a supplementary
    // character (lead byte F0+) or a surrogate (ED A0+) meets U+E000..U+FFFF: decide from the
    // first differing byte, decoding only in that case.
    let (x, y) = (a.as_bytes(), b.as_bytes());
    // Most keys differ in their first byte.
    if let (Some(&p), Some(&q)) = (x.first(), y.first())
        && p != q
        && p < 0xED
        && q < 0xED
    {
        return p.cmp(&q);
    }
    match first_difference(x, y) {
        None => x.len().cmp(&y.len()),
        Some(i) if x[i] < 0xED && y[i] < 0xED => x[i].cmp(&y[i]),
        Some(_) => utf16_units(a).cmp(utf16_units(b)),
    }
}

/// Index of the first byte where `x` and `y` differ, within the shorter length.
fn first_difference(x: &[u8], y: &[u8]) -> Option<usize> {
    let n = x.len().min(y.len());
    let (x, y) = (&x[..n], &y[..n]);
    // Eight bytes at a time (object keys share prefixes such as "description"/"destructive").
    let mut i = 0;
    for (p, q) in x.chunks_exact(8).zip(y.chunks_exact(8)) {
        let diff =
            u64::from_le_bytes(p.try_into().unwrap_or_default()) ^ u64::from_le_bytes(q.try_into().unwrap_or_default());
        if diff != 0 {
            return Some(i + (diff.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    x[i..].iter().zip(&y[i..]).position(|(p, q)| p != q).map(|j| i + j)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn js(s: &str) -> JsString {
        JsString::from(s)
    }

    #[test]
    fn trim_follows_javascript() {
        let s = js("\u{FEFF}\u{A0} a b\u{2029}\u{3000}");
        assert_eq!(js_trim(&s), vec!['a' as u32, ' ' as u32, 'b' as u32]);
        // Not JavaScript whitespace: stays.
        for c in ['\u{1C}', '\u{1F}', '\u{85}', '\u{180E}'] {
            assert!(!trims_to_empty(&js(&c.to_string())), "{:?}", c);
        }
        assert!(trims_to_empty(&js(" \t\n\u{B}\u{C}\r")));
    }

    #[test]
    fn utf16_ordering_differs_from_code_points() {
        // U+FF61 sorts after U+1F600 by code point, before it in UTF-16 (0xD83D < 0xFF61).
        let a = js("\u{FF61}");
        let b = js("\u{1F600}");
        assert_eq!(cmp_utf16(&a, &b), Ordering::Greater);
        assert_eq!(utf16_len(&b), 2);
    }

    #[test]
    fn lowercase_applies_final_sigma() {
        let cps: Vec<u32> = "ΟΔΟΣ".chars().map(|c| c as u32).collect();
        let lower: String = lowercase(&cps).into_iter().filter_map(char::from_u32).collect();
        assert_eq!(lower, "οδος");
    }
}
