//! Evidence as a person can read it: an excerpt around what was found, bounded, with every
//! character that renders as nothing (or moves the cursor) written as `[U+XXXX]`.

use super::normalize::{is_invisible, is_whitespace};
use super::text::floor;

/// Characters of context kept on each side of a match.
const CONTEXT: usize = 40;
/// Most characters of a match shown before it is cut.
const MAX_MATCH: usize = 160;
/// Most invisible characters spelled out in one run before the rest is counted.
const MAX_RUN: usize = 12;

/// `s` with invisible and control characters as `[U+XXXX]`; newlines and tabs become spaces,
/// and a long run of invisible characters is shortened with a count.
pub fn show_invisible(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut run = 0usize;
    let mut hidden_in_run = 0usize;
    let mut spaces = 0usize;
    for c in s.chars() {
        let shown = needs_code(c);
        if shown {
            run += 1;
            if run > MAX_RUN {
                hidden_in_run += 1;
                continue;
            }
        } else {
            flush_run(&mut out, &mut hidden_in_run);
            run = 0;
        }
        if shown {
            out.push_str(&format!("[U+{:04X}]", c as u32));
            spaces = 0;
        } else if c == ' ' || c == '\n' || c == '\t' || c == '\r' {
            spaces += 1;
            if spaces <= 3 {
                out.push(' ');
            } else if spaces == 4 {
                out.push('…');
            }
        } else {
            spaces = 0;
            out.push(c);
        }
    }
    flush_run(&mut out, &mut hidden_in_run);
    out
}

fn flush_run(out: &mut String, hidden: &mut usize) {
    if *hidden > 0 {
        out.push_str(&format!("[+{} more]", *hidden));
        *hidden = 0;
    }
}

/// Invisible, control (other than tab/newline/CR, shown as space) and blank-letter characters.
fn needs_code(c: char) -> bool {
    if matches!(c, ' ' | '\n' | '\t' | '\r') {
        return false;
    }
    is_invisible(c) || c.is_control() || (is_whitespace(c) && c != ' ')
}

/// The excerpt of `s` around byte range `start..end`: up to [`CONTEXT`] characters each side,
/// the match cut at [`MAX_MATCH`] characters, `…` where text was left out.
pub fn excerpt(s: &str, start: usize, end: usize) -> String {
    let start = floor(s, start.min(s.len()));
    let end = floor(s, end.min(s.len()).max(start));
    let before_start = s[..start].char_indices().rev().nth(CONTEXT - 1).map(|(i, _)| i).unwrap_or(0);
    let after_end = s[end..].char_indices().nth(CONTEXT).map(|(i, _)| end + i).unwrap_or(s.len());
    let matched = &s[start..end];
    let matched = match matched.char_indices().nth(MAX_MATCH) {
        Some((cut, _)) => format!("{}…", &matched[..cut]),
        None => matched.to_owned(),
    };
    let mut out = String::new();
    if before_start > 0 {
        out.push('…');
    }
    out.push_str(&show_invisible(&s[before_start..start]));
    out.push_str(&show_invisible(&matched));
    out.push_str(&show_invisible(&s[end..after_end]));
    if after_end < s.len() {
        out.push('…');
    }
    out.trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_characters_are_spelled_out() {
        assert_eq!(show_invisible("a\u{200b}b\u{202e}c\x1b[8m"), "a[U+200B]b[U+202E]c[U+001B][8m");
        assert_eq!(show_invisible("x\u{e0041}"), "x[U+E0041]");
        let long: String = std::iter::repeat_n('\u{e0041}', 20).collect();
        assert_eq!(show_invisible(&long), format!("{}[+8 more]", "[U+E0041]".repeat(12)));
        assert_eq!(show_invisible("a\n\n\n\n\n\nb"), "a   …b");
        assert_eq!(show_invisible("عربي 中文 👩\u{200d}💻"), "عربي 中文 👩[U+200D]💻");
    }

    #[test]
    fn excerpts_are_bounded_and_marked() {
        let s = format!("{}MATCH{}", "a".repeat(100), "b".repeat(100));
        let e = excerpt(&s, 100, 105);
        assert_eq!(e, format!("…{}MATCH{}…", "a".repeat(40), "b".repeat(40)));
        assert_eq!(excerpt("short", 0, 5), "short");
        assert_eq!(excerpt("héllo", 2, 3), "héllo");
    }
}
