//! What an upstream's operator approved, as definitions: for each pinned tool name its most
//! recently approved hash that has a kept text. The approval views (admin API, `approve`) compare
//! a held definition with these, so they read the same answer from the store whether or not the
//! approved names are still listed, the gateway restarted, or no gateway runs at all.

use std::collections::BTreeMap;

use super::{Store, StoreError};

/// One approved definition: tool name, hash, the definition as the upstream listed it.
pub type Approved = (String, String, serde_json::Value);

/// The latest approved definition of each tool of `upstream` whose text the store kept, sorted
/// by tool name. Tools approved before texts were kept have none and are left out.
pub fn latest_approved(store: &dyn Store, upstream: &str) -> Result<Vec<Approved>, StoreError> {
    // Every approved hash of each tool, newest approval first: an older approval stands in
    // when the newest one's text was never kept.
    let mut by_tool: BTreeMap<String, Vec<(i64, String)>> = BTreeMap::new();
    for p in store.pins()?.into_iter().filter(|p| p.upstream == upstream) {
        by_tool.entry(p.tool).or_default().push((p.approved_at, p.input_hash));
    }
    let hashes: Vec<String> = by_tool.values().flatten().map(|(_, h)| h.clone()).collect();
    let texts: BTreeMap<String, String> =
        store.definition_texts(upstream, &hashes)?.into_iter().map(|t| (t.input_hash, t.definition)).collect();
    let mut out = Vec::new();
    for (tool, mut approvals) in by_tool {
        approvals.sort_by(|a, b| b.cmp(a));
        let found = approvals.into_iter().find_map(|(_, hash)| {
            let text = texts.get(&hash)?;
            Some((hash, serde_json::from_str(text).ok()?))
        });
        if let Some((hash, definition)) = found {
            out.push((tool, hash, definition));
        }
    }
    Ok(out)
}

/// The kept definition of `upstream`'s hash `hash`, if any.
pub fn definition(store: &dyn Store, upstream: &str, hash: &str) -> Result<Option<serde_json::Value>, StoreError> {
    let texts = store.definition_texts(upstream, &[hash.to_owned()])?;
    Ok(texts.into_iter().next().and_then(|t| serde_json::from_str(&t.definition).ok()))
}

/// `store` and `in_memory` merged by tool name; `in_memory` (what the running gateway saw
/// approved while listing) wins for a name both have.
pub fn merged(store: Vec<Approved>, in_memory: Vec<Approved>) -> Vec<Approved> {
    let mut by_tool: BTreeMap<String, Approved> = store.into_iter().map(|a| (a.0.clone(), a)).collect();
    for a in in_memory {
        by_tool.insert(a.0.clone(), a);
    }
    by_tool.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{DefinitionText, Pin, SqliteStore};

    fn pin(tool: &str, hash: &str, at: i64) -> Pin {
        Pin {
            upstream: "u".into(),
            tool: tool.into(),
            input_hash: hash.into(),
            approved_at: at,
            approved_by: "t".into(),
        }
    }

    fn text(upstream: &str, tool: &str, hash: &str) -> DefinitionText {
        DefinitionText {
            upstream: upstream.into(),
            tool: tool.into(),
            input_hash: hash.into(),
            definition: format!("{{\"name\":\"{tool}\",\"v\":\"{hash}\"}}"),
        }
    }

    #[test]
    fn the_newest_approval_with_a_text_wins_per_tool() {
        let s = SqliteStore::in_memory().unwrap();
        s.approve(&[pin("a", "h1", 1), pin("a", "h2", 2), pin("a", "h3", 3), pin("b", "x", 1), pin("c", "y", 1)])
            .unwrap();
        // h3 (newest) has no text; another upstream's text under h2 must not count for "u".
        s.put_definition_texts(&[
            text("u", "a", "h1"),
            text("u", "a", "h2"),
            text("v", "a", "h3"),
            text("u", "b", "x"),
        ])
        .unwrap();
        s.put_definition_texts(&[DefinitionText { definition: "{\"replaced\":true}".into(), ..text("u", "a", "h2") }])
            .unwrap();
        let got = latest_approved(&s, "u").unwrap();
        let summary: Vec<(&str, &str, &str)> =
            got.iter().map(|(t, h, d)| (t.as_str(), h.as_str(), d["v"].as_str().unwrap_or("?"))).collect();
        assert_eq!(summary, [("a", "h2", "h2"), ("b", "x", "x")], "the first text kept stays; c has none");
        assert_eq!(definition(&s, "u", "h1").unwrap().unwrap()["v"], "h1");
        assert!(definition(&s, "u", "h3").unwrap().is_none());
    }

    #[test]
    fn memory_wins_a_name_both_have() {
        let a = |t: &str, h: &str| (t.to_owned(), h.to_owned(), serde_json::Value::Null);
        let m = merged(vec![a("a", "old"), a("b", "b1")], vec![a("a", "new"), a("c", "c1")]);
        let hashes: Vec<&str> = m.iter().map(|x| x.1.as_str()).collect();
        assert_eq!(hashes, ["new", "b1", "c1"]);
    }
}
