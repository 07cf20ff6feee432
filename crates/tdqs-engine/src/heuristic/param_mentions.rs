//! How a description refers to each of the tool's parameters: not at all, by a distinctive part
//! of the name, by the whole name, or with an explanation after it (`url: the page to fetch`).

use crate::definition::ToolDefinition;
use crate::json::JsValue;

use super::lexicon;
use super::text::{Text, plain, split_identifier, stem};

/// How a description refers to a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mention {
    None,
    /// A distinctive part of the name occurs (`results` for `num_results`).
    Partial,
    /// The name itself, or all of its words in order.
    Full,
    /// The name followed by an explanation (`url: the page to fetch`, `dry_run=true`).
    Explained,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub described: bool,
    pub mention: Mention,
}

pub(super) fn param_keys(tool: &ToolDefinition) -> Vec<String> {
    let props = tool.input_schema.as_ref().and_then(|s| s.get("properties")).and_then(JsValue::as_object);
    props.map(|p| p.iter().map(|(k, _)| plain(k)).collect()).unwrap_or_default()
}

/// The descriptions the input schema gives its parameters, as written.
pub(super) fn param_descriptions(tool: &ToolDefinition) -> Vec<String> {
    let props = tool.input_schema.as_ref().and_then(|s| s.get("properties")).and_then(JsValue::as_object);
    let described = props
        .into_iter()
        .flat_map(|p| p.iter())
        .filter_map(|(_, v)| v.as_object().and_then(|o| o.get("description")).and_then(JsValue::as_str).map(plain));
    described.collect()
}

pub(super) fn params(tool: &ToolDefinition, desc: &Text) -> Vec<Param> {
    let Some(props) = tool.input_schema.as_ref().and_then(|s| s.get("properties")).and_then(JsValue::as_object) else {
        return Vec::new();
    };
    props
        .iter()
        .map(|(key, value)| {
            let name = plain(key);
            let described = value
                .as_object()
                .and_then(|o| o.get("description"))
                .and_then(JsValue::as_str)
                .is_some_and(|d| !d.is_empty());
            Param { mention: mention(desc, &name), name, described }
        })
        .collect()
}

fn mention(desc: &Text, name: &str) -> Mention {
    let lower = name.to_lowercase();
    let words = split_identifier(name);
    if explained(&desc.lower, &lower) {
        return Mention::Explained;
    }
    if desc.idents().any(|i| i == lower) || (!words.is_empty() && desc.has(&words.join(" "))) {
        return Mention::Full;
    }
    let distinctive = |w: &&String| w.len() >= 4 && !lexicon::STOPWORDS.contains(&w.as_str());
    if words.iter().filter(distinctive).any(|w| desc.has_stem(&[stem(w).as_str()])) {
        Mention::Partial
    } else {
        Mention::None
    }
}

/// The parameter name at a word boundary followed by `:`, `=`, `(`, a dash or a verb of
/// explanation, or written in backticks or quotes.
fn explained(lower: &str, name: &str) -> bool {
    #[rustfmt::skip]
    const AFTER: &[&str] = &[
        ":", " :", "=", " (", " -", " \u{2014}", " is ", " must ", " should ", " can ", " accepts ", " sets ",
        " controls ", " defaults ", " takes ",
    ];
    const QUOTES: [char; 3] = ['`', '\'', '"'];
    if name.is_empty() {
        return false;
    }
    // One pass over the name's occurrences answers both questions. Between quotes is asked
    // of each occurrence, which finds every quoted one unless occurrences overlap, which
    // takes a quote inside the name: such a name is looked up with its quotes instead.
    let quoted_inside = name.contains(QUOTES);
    let quoted = quoted_inside && QUOTES.iter().any(|q| lower.contains(&format!("{q}{name}{q}")));
    quoted
        || lower.match_indices(name).any(|(i, _)| {
            let before = lower[..i].chars().next_back();
            let rest = &lower[i + name.len()..];
            let between_quotes = !quoted_inside && QUOTES.iter().any(|q| before == Some(*q) && rest.starts_with(*q));
            let before_ok = before.is_none_or(|c| !c.is_alphanumeric() && c != '_');
            // A mark with nothing after it on its line (`user_id:` in an unfilled `Args:` block,
            // `@param owner -`) explains nothing.
            let said = |a: &str| {
                let tail = &rest[a.len()..];
                a.ends_with(' ') && a.trim().chars().all(char::is_alphabetic)
                    || tail.split('\n').next().is_some_and(|line| line.chars().any(char::is_alphanumeric))
            };
            between_quotes || (before_ok && AFTER.iter().any(|a| rest.starts_with(a) && said(a)))
        })
}

#[cfg(test)]
mod tests {
    use super::explained;

    #[test]
    fn a_name_with_nothing_after_its_mark_is_not_explained() {
        assert!(explained("user_id: the user's id, e.g. u-1.", "user_id"));
        assert!(explained("set dry_run=true to preview", "dry_run"));
        assert!(explained("the `owner` of the repository", "owner"));
        assert!(explained("limit is the most results", "limit"));
        assert!(!explained("args:\n    user_id: \n    include_deleted: \nreturns:", "user_id"));
        assert!(!explained("@param {string} owner - \n@param {string} repo - \n", "owner"));
    }
}
