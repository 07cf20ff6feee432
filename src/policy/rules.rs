//! Per-identity policy: `[[policy.rule]]` (every upstream) and `[[upstream.policy.rule]]`
//! (one upstream) match a caller by issuer, subject, client id, scopes and claims, and set
//! policy keys over the upstream's policy. An upstream's own rules are tried first, then the
//! global ones, in file order; the first match decides, and no match means the upstream's
//! policy.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::settings::PolicyConfig;
use crate::auth::Principal;

/// What a claim must hold: one value, or any of several. An array claim (`groups`) matches
/// when any of its elements does.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(untagged)]
pub enum ClaimMatch {
    One(String),
    Any(Vec<String>),
}

impl ClaimMatch {
    fn accepts(&self, v: &str) -> bool {
        match self {
            ClaimMatch::One(s) => s == v,
            ClaimMatch::Any(list) => list.iter().any(|s| s == v),
        }
    }

    fn matches(&self, claim: &Value) -> bool {
        match claim {
            Value::String(s) => self.accepts(s),
            Value::Array(items) => items.iter().any(|i| !i.is_array() && self.matches(i)),
            Value::Number(n) => self.accepts(&n.to_string()),
            Value::Bool(b) => self.accepts(if *b { "true" } else { "false" }),
            _ => false,
        }
    }
}

/// One `[[policy.rule]]`: who it is for, and the policy keys it sets.
#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "RuleTable")]
pub struct RuleConfig {
    /// Shown in logs, metrics (a bounded label) and the admin API.
    pub name: String,
    /// For a global rule, the upstreams it applies to (all when empty).
    #[serde(default)]
    pub upstreams: Vec<String>,
    pub issuer: Option<String>,
    pub subject: Option<String>,
    pub client_id: Option<String>,
    /// Scopes the caller must all have.
    #[serde(default)]
    pub scopes: Vec<String>,
    /// Claim path (dots for nested claims) → value or values.
    #[serde(default)]
    pub claims: BTreeMap<String, ClaimMatch>,
    /// The policy keys the rule sets (any of `[policy]`'s).
    pub policy: PolicyConfig,
}

/// A rule as written: its match keys and policy keys side by side in one table. (Serde's
/// `flatten` would accept any misspelt key silently, so the table is split by hand and each
/// half read with unknown keys refused.)
#[derive(Deserialize)]
struct RuleTable(serde_json::Map<String, Value>);

/// The keys of a rule that say whom it matches.
const MATCH_KEYS: [&str; 7] = ["name", "upstreams", "issuer", "subject", "client_id", "scopes", "claims"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MatchKeys {
    name: String,
    #[serde(default)]
    upstreams: Vec<String>,
    issuer: Option<String>,
    subject: Option<String>,
    client_id: Option<String>,
    #[serde(default)]
    scopes: Vec<String>,
    #[serde(default)]
    claims: BTreeMap<String, ClaimMatch>,
}

impl TryFrom<RuleTable> for RuleConfig {
    type Error = String;

    fn try_from(t: RuleTable) -> Result<Self, String> {
        let (matching, policy): (serde_json::Map<_, _>, serde_json::Map<_, _>) =
            t.0.into_iter().partition(|(k, _)| MATCH_KEYS.contains(&k.as_str()));
        let m: MatchKeys = serde_json::from_value(Value::Object(matching)).map_err(|e| e.to_string())?;
        let policy: PolicyConfig = serde_json::from_value(Value::Object(policy))
            .map_err(|e| format!("rule \"{}\": {e} (or one of {})", m.name, MATCH_KEYS.join(", ")))?;
        Ok(RuleConfig {
            name: m.name,
            upstreams: m.upstreams,
            issuer: m.issuer,
            subject: m.subject,
            client_id: m.client_id,
            scopes: m.scopes,
            claims: m.claims,
            policy,
        })
    }
}

impl RuleConfig {
    pub fn matches(&self, p: &Principal) -> bool {
        self.issuer.as_ref().is_none_or(|i| *i == p.issuer)
            && self.subject.as_ref().is_none_or(|s| *s == p.subject)
            && self.client_id.as_ref().is_none_or(|c| p.client_id.as_ref() == Some(c))
            && p.has_scopes(&self.scopes)
            && self.claims.iter().all(|(path, want)| p.claim(path).is_some_and(|v| want.matches(v)))
    }

    pub fn applies_to(&self, upstream: &str) -> bool {
        self.upstreams.is_empty() || self.upstreams.iter().any(|u| u == upstream)
    }

    /// The rule's conditions, for the admin API.
    pub fn conditions(&self) -> Value {
        serde_json::json!({
            "issuer": self.issuer, "subject": self.subject, "clientId": self.client_id,
            "scopes": self.scopes, "claims": self.claims, "upstreams": self.upstreams,
        })
    }

    /// The policy keys the rule itself sets (as written, without the ones it leaves to the
    /// upstream's policy), for the admin API.
    pub fn sets(&self) -> Value {
        let mut keys = match serde_json::to_value(&self.policy) {
            Ok(Value::Object(m)) => m,
            _ => serde_json::Map::new(),
        };
        keys.retain(|_, v| !v.is_null() && v.as_array().is_none_or(|a| !a.is_empty()));
        Value::Object(keys)
    }
}

/// The first rule (of an upstream's ordered list) that matches the caller.
pub fn select<'a, T>(rules: &'a [(RuleConfig, T)], caller: Option<&Principal>) -> Option<&'a (RuleConfig, T)> {
    let p = caller?;
    rules.iter().find(|(r, _)| r.matches(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::principal::Proof;
    use serde_json::json;

    fn principal(claims: Value) -> Principal {
        Principal::from_claims(claims.as_object().unwrap().clone(), Proof::Jwt)
    }

    fn rule(text: &str) -> RuleConfig {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn matching() {
        let alice = principal(json!({"iss": "https://i", "sub": "alice", "client_id": "app", "scope": "mcp read",
            "groups": ["finance", "staff"], "org": {"unit": "ops"}, "level": 3}));
        assert!(rule("name = \"a\"\nclaims = { groups = \"finance\" }").matches(&alice));
        assert!(rule("name = \"a\"\nclaims = { groups = [\"x\", \"staff\"] }").matches(&alice));
        assert!(!rule("name = \"a\"\nclaims = { groups = \"interns\" }").matches(&alice));
        assert!(rule("name = \"a\"\nclaims = { \"org.unit\" = \"ops\", level = \"3\" }").matches(&alice));
        assert!(!rule("name = \"a\"\nclaims = { missing = \"x\" }").matches(&alice));
        assert!(rule("name = \"a\"\nscopes = [\"mcp\", \"read\"]\nissuer = \"https://i\"").matches(&alice));
        assert!(!rule("name = \"a\"\nscopes = [\"mcp\", \"write\"]").matches(&alice));
        assert!(!rule("name = \"a\"\nclient_id = \"other\"").matches(&alice));
        assert!(rule("name = \"a\"\nsubject = \"alice\"\nmode = \"enforce\"").matches(&alice));
        let rules = vec![(rule("name = \"first\"\nsubject = \"bob\""), 1), (rule("name = \"second\""), 2)];
        assert_eq!(select(&rules, Some(&alice)).map(|r| r.1), Some(2));
        assert!(select(&rules, None).is_none(), "no caller, no rule");
    }

    #[test]
    fn policy_keys_are_checked() {
        let e = toml::from_str::<RuleConfig>("name = \"a\"\nmdoe = \"enforce\"").unwrap_err().to_string();
        assert!(e.contains("mdoe"), "{e}");
        let r = rule("name = \"a\"\nmode = \"enforce\"\ndeny = [\"x\"]");
        assert_eq!(r.policy.deny, ["x"]);
        assert_eq!(r.sets(), json!({"mode": "enforce", "deny": ["x"]}), "only the keys the rule sets");
    }
}
