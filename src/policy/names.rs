//! How `allow` and `deny` name tools: exactly, or with `*` standing for any run of characters
//! (`delete_*`, `*_admin`, `*`). "Deny everything, allow these three" is then one rule:
//! `deny = ["*"]`, `allow = ["a", "b", "c"]` (`allow` wins over `deny`, never over a threat).
//! `allow_threats` stays exact: an exception for a threat names the tool it excuses.

/// Whether `pattern` names `tool`.
pub fn names(pattern: &str, tool: &str) -> bool {
    let Some((first, rest)) = pattern.split_once('*') else { return pattern == tool };
    let Some(mut left) = tool.strip_prefix(first) else { return false };
    let mut parts: Vec<&str> = rest.split('*').collect();
    let last = parts.pop().unwrap_or_default();
    for part in parts {
        match left.find(part) {
            Some(at) => left = &left[at + part.len()..],
            None => return false,
        }
    }
    left.len() >= last.len() && left.ends_with(last)
}

/// Whether any of `patterns` names `tool`.
pub fn any_names(patterns: &[String], tool: &str) -> bool {
    patterns.iter().any(|p| names(p, tool))
}

#[cfg(test)]
mod tests {
    use super::names;

    #[test]
    fn exact_names_and_wildcards() {
        let yes = [
            ("echo", "echo"),
            ("*", "anything"),
            ("*", ""),
            ("delete_*", "delete_user"),
            ("delete_*", "delete_"),
            ("*_admin", "reset_admin"),
            ("get_*_by_id", "get_user_by_id"),
            ("a*b*c", "abc"),
            ("a*b*c", "a-b-b-c"),
            ("**", "x"),
        ];
        for (p, t) in yes {
            assert!(names(p, t), "{p} names {t}");
        }
        let no = [
            ("echo", "echo2"),
            ("echo", "Echo"),
            ("delete_*", "undelete_user"),
            ("*_admin", "admin_reset"),
            ("get_*_by_id", "get_user_by_name"),
            ("a*b*c", "acb"),
            // The suffix may not reuse what the prefix matched.
            ("ab*ba", "aba"),
        ];
        for (p, t) in no {
            assert!(!names(p, t), "{p} does not name {t}");
        }
    }
}
