//! What the gateway writes into a `tools/list` answer, and how to take it out again to compare
//! with the upstream's own answer.

use serde_json::{Map, Value};

/// The `_meta` key the gateway writes (DESIGN.md, "What the gateway does to messages").
pub const META_KEY: &str = "tdqs-gateway/score";

/// The keys of the score object, in the documented order.
pub const SCORE_KEYS: [&str; 9] =
    ["tdqs", "tier", "flags", "serverFlags", "smells", "inputHash", "judge", "specVersion", "provisional"];

/// The tools of a `tools/list` answer message.
pub fn tools(msg: &Value) -> &Vec<Value> {
    msg["result"]["tools"].as_array().unwrap_or_else(|| panic!("not a tools/list answer: {msg}"))
}

pub fn names(msg: &Value) -> Vec<String> {
    tools(msg).iter().map(|t| t["name"].as_str().unwrap_or_default().to_owned()).collect()
}

/// The gateway's score object on a tool, if any.
pub fn score(tool: &Value) -> Option<&Map<String, Value>> {
    tool.get("_meta")?.get(META_KEY)?.as_object()
}

/// The score on a tool, checked against the documented shape; panics naming the tool.
pub fn checked_score(tool: &Value) -> &Map<String, Value> {
    let name = tool["name"].as_str().unwrap_or("?");
    let s = score(tool).unwrap_or_else(|| panic!("tool {name} has no _meta[{META_KEY:?}]: {tool}"));
    let keys: Vec<&str> = s.keys().map(String::as_str).collect();
    let mut sorted_keys = keys.clone();
    sorted_keys.sort_unstable();
    let mut expected = SCORE_KEYS.to_vec();
    expected.sort_unstable();
    assert_eq!(sorted_keys, expected, "tool {name}: score keys");
    let tdqs = s["tdqs"].as_f64().unwrap_or_else(|| panic!("tool {name}: tdqs is not a number"));
    assert!((0.0..=5.0).contains(&tdqs), "tool {name}: tdqs {tdqs} out of range");
    assert_eq!((tdqs * 10.0).round() / 10.0, tdqs, "tool {name}: tdqs has one decimal");
    let tier = s["tier"].as_str().unwrap_or_else(|| panic!("tool {name}: tier is not a string"));
    assert_eq!(tier, tier_of(tdqs), "tool {name}: tier {tier} does not match tdqs {tdqs}");
    for k in ["flags", "serverFlags", "smells"] {
        let arr = s[k].as_array().unwrap_or_else(|| panic!("tool {name}: {k} is not an array"));
        assert!(arr.iter().all(Value::is_string), "tool {name}: {k} holds non-strings");
    }
    let hash = s["inputHash"].as_str().unwrap_or_else(|| panic!("tool {name}: inputHash is not a string"));
    assert!(hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit()), "tool {name}: inputHash {hash}");
    assert!(s["judge"].as_str().is_some_and(|j| !j.is_empty()), "tool {name}: judge");
    assert!(s["specVersion"].as_str().is_some_and(|v| !v.is_empty()), "tool {name}: specVersion");
    assert!(s["provisional"].is_boolean(), "tool {name}: provisional");
    s
}

/// TDQS tiers: A >= 3.5, B >= 3.0, C >= 2.0, D >= 1.0, else F.
pub fn tier_of(tdqs: f64) -> &'static str {
    let tenths = (tdqs * 10.0).round() as u32;
    match tenths {
        35.. => "A",
        30.. => "B",
        20.. => "C",
        10.. => "D",
        _ => "F",
    }
}

/// `gateway` (a `tools/list` answer through the gateway) with the gateway's score taken out of
/// every tool; a `_meta` the gateway created (absent from the same tool in `direct`) goes too.
pub fn strip(gateway: &Value, direct: &Value) -> Value {
    let mut out = gateway.clone();
    let direct_tools = direct["result"]["tools"].as_array().cloned().unwrap_or_default();
    if let Some(tools) = out["result"]["tools"].as_array_mut() {
        for tool in tools {
            let name = tool["name"].clone();
            let had_meta = direct_tools.iter().any(|d| d["name"] == name && d.get("_meta").is_some());
            let Some(obj) = tool.as_object_mut() else { continue };
            let empty = match obj.get_mut("_meta").and_then(Value::as_object_mut) {
                Some(m) => {
                    m.shift_remove(META_KEY);
                    m.is_empty()
                }
                None => false,
            };
            if empty && !had_meta {
                obj.shift_remove("_meta");
            }
        }
    }
    out
}

/// `direct` with the tools named in `hidden` removed (what enforce should leave).
pub fn without(direct: &Value, hidden: &[&str]) -> Value {
    let mut out = direct.clone();
    if let Some(tools) = out["result"]["tools"].as_array_mut() {
        tools.retain(|t| !hidden.iter().any(|h| t["name"] == *h));
    }
    out
}

/// Asserts two JSON values are equal including the order of object keys (compares their
/// serializations; serde_json keeps insertion order here).
#[track_caller]
pub fn assert_same_json(actual: &Value, expected: &Value, what: &str) {
    let a = serde_json::to_string_pretty(actual).unwrap();
    let e = serde_json::to_string_pretty(expected).unwrap();
    if a != e {
        let first = a.lines().zip(e.lines()).position(|(x, y)| x != y).unwrap_or(0);
        let ctx = |s: &str| s.lines().skip(first.saturating_sub(3)).take(8).collect::<Vec<_>>().join("\n");
        panic!("{what}: JSON differs at line {}\n--- actual:\n{}\n--- expected:\n{}", first + 1, ctx(&a), ctx(&e));
    }
}
