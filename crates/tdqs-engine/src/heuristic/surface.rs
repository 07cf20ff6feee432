//! The description as a person reads it, before the sentences are weighed: text in capitals
//! read in sentence case, and a record of labels (`{"returns": "data", "use_when": "needed"}`)
//! read as one labelled line each.
//!
//! Both change how the text looks, not what it says, and both would otherwise pass for
//! evidence: in capitals every word looks like an acronym (a concrete name), and a record is
//! one long "sentence" whose labels are the cue words and whose values say nothing.

/// Shouted text in sentence case; a record of labels as lines; markup as the text it shows;
/// anything else as it is.
pub fn as_read(written: String) -> String {
    let text = unmark(&written).unwrap_or(written);
    let text = unrecord(&text).unwrap_or(text);
    unshout(text)
}

/// HTML tags that break a line when shown.
const BLOCK_TAGS: &[&str] = &["li", "ul", "ol", "br", "p", "div", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd"];

/// The text markup shows (`<b>Returns</b> <i>data</i>` as "Returns data"), block tags as line
/// breaks; `None` when the text holds fewer than two tags (a `<div>` named in prose stays).
fn unmark(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let (mut rest, mut tags) = (text, 0);
    while let Some(open) = rest.find('<') {
        let Some(len) = rest[open..].find('>').filter(|&l| (2..=40).contains(&l)) else {
            out.push_str(&rest[..open + 1]);
            rest = &rest[open + 1..];
            continue;
        };
        let tag = &rest[open + 1..open + len];
        let name: String = tag.trim_start_matches('/').chars().take_while(char::is_ascii_alphanumeric).collect();
        if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
            out.push_str(&rest[..open + 1]);
            rest = &rest[open + 1..];
            continue;
        }
        tags += 1;
        out.push_str(&rest[..open]);
        if BLOCK_TAGS.contains(&name.to_ascii_lowercase().as_str()) {
            out.push('\n');
        }
        rest = &rest[open + len + 1..];
    }
    out.push_str(rest);
    (tags >= 2).then_some(out)
}

/// Cased letters before a text counts as shouted, and the share of them in upper case.
const SHOUT_LETTERS: usize = 20;
const SHOUT_PERCENT: usize = 70;

fn unshout(text: String) -> String {
    let (mut upper, mut lower) = (0, 0);
    for c in text.chars() {
        upper += usize::from(c.is_uppercase());
        lower += usize::from(c.is_lowercase());
    }
    if upper < SHOUT_LETTERS || 100 * upper < SHOUT_PERCENT * (upper + lower) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut start = true;
    for c in text.chars() {
        if c.is_alphabetic() {
            if start {
                out.extend(c.to_uppercase());
            } else {
                out.extend(c.to_lowercase());
            }
            start = false;
        } else {
            out.push(c);
            if matches!(c, '.' | '!' | '?' | '\n' | ':') {
                start = true;
            }
        }
    }
    out
}

/// `{"a": "b", "c_d": "e"}` (quoted or not) as "A: b\nC d: e"; `None` for anything else.
fn unrecord(text: &str) -> Option<String> {
    let inner = text.trim().strip_prefix('{')?.strip_suffix('}')?;
    let mut lines = Vec::new();
    for part in split_top(inner) {
        let (key, value) = part.split_once(':')?;
        let key = key.trim().trim_matches(['"', '\'']).replace(['_', '-'], " ");
        let value = value.trim().trim_matches(['"', '\'']);
        if key.is_empty() || key.contains(['{', '[']) {
            return None;
        }
        let mut k = key.chars();
        let first = k.next()?;
        lines.push(format!("{}{}: {value}", first.to_uppercase(), k.as_str()));
    }
    (lines.len() >= 2).then(|| lines.join("\n"))
}

/// The comma-separated parts of a record's inside, commas within quotes or brackets kept.
fn split_top(s: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut quote, mut from) = (Vec::new(), 0i32, None, 0);
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '{' | '[') => depth += 1,
            (None, '}' | ']') => depth -= 1,
            (None, ',') if depth == 0 => {
                parts.push(&s[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[from..]);
    parts.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capitals_read_in_sentence_case() {
        assert_eq!(as_read("RETURNS WEATHER. USE WHEN NEEDED.".into()), "Returns weather. Use when needed.");
        let kept = "Returns the HTTP status of a URL as JSON, with the TLS version.";
        assert_eq!(as_read(kept.into()), kept, "acronyms in ordinary text stay");
        assert_eq!(as_read("GET /users".into()), "GET /users", "too short to be shouting");
    }

    #[test]
    fn markup_reads_as_the_text_it_shows() {
        assert_eq!(
            as_read("<b>Returns</b> <i>data</i>.<ul><li>Use when: needed</li></ul>".into()),
            "Returns data.\n\nUse when: needed\n\n"
        );
        let prose = "Renders a <div> template; a < b compares.";
        assert_eq!(as_read(prose.into()), prose);
    }

    #[test]
    fn a_record_of_labels_reads_as_lines() {
        let r = as_read(r#"{"returns": "data", "use_when": "needed", "side_effects": "none"}"#.into());
        assert_eq!(r, "Returns: data\nUse when: needed\nSide effects: none");
        assert_eq!(as_read("{returns: data, errors: handled}".into()), "Returns: data\nErrors: handled");
        let json_example = r#"Returns {"id": 1} for a new row."#;
        assert_eq!(as_read(json_example.into()), json_example, "a record inside prose stays");
        assert_eq!(as_read("{just text}".into()), "{just text}");
    }
}
