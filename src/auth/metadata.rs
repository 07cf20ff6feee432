//! RFC 9728 Protected Resource Metadata: what a client reads to learn which authorization
//! server issues tokens for the gateway. Served at `/.well-known/oauth-protected-resource`
//! for the gateway as a whole and at `/.well-known/oauth-protected-resource/mcp/{upstream}`
//! (and `/sse/`, `/messages/`) for each route, whose `resource` is the route's own URL.

use serde_json::json;

use super::Auth;

pub const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// The routes a client can hold a token for.
const ROUTE_PREFIXES: [&str; 3] = ["/mcp/", "/sse/", "/messages/"];

/// The route part of a metadata path (`""` for the gateway, `/mcp/x` for a route), when the
/// path is a metadata path at all.
pub fn route_of(path: &str) -> Option<&str> {
    let rest = path.strip_prefix(WELL_KNOWN)?;
    let rest = rest.trim_end_matches('/');
    if rest.is_empty() || ROUTE_PREFIXES.iter().any(|p| rest.starts_with(p) && rest.len() > p.len()) {
        Some(rest)
    } else {
        None
    }
}

impl Auth {
    /// The resource URI of a route (`""`: the gateway's).
    pub fn resource_of(&self, route: &str) -> String {
        format!("{}{route}", self.resource.trim_end_matches('/'))
    }

    /// Where the metadata for a route is published (the well-known part goes between the
    /// host and the resource's path, RFC 9728 §3.1).
    pub fn metadata_url(&self, route: &str) -> String {
        match reqwest::Url::parse(&self.resource) {
            Ok(u) => {
                format!("{}{WELL_KNOWN}{}{route}", u.origin().ascii_serialization(), u.path().trim_end_matches('/'))
            }
            Err(_) => format!("{}{WELL_KNOWN}{route}", self.resource.trim_end_matches('/')),
        }
    }

    /// The audiences a token may carry to be used on an upstream's routes: the gateway's
    /// resource, or any route of that upstream (a legacy client gets its token for
    /// `/sse/{upstream}` and posts to `/messages/{upstream}` with it).
    pub fn audiences(&self, upstream: &str) -> Vec<String> {
        let base = self.resource.trim_end_matches('/');
        let mut out = vec![base.to_owned(), format!("{base}/")];
        out.extend(ROUTE_PREFIXES.iter().map(|p| format!("{base}{p}{upstream}")));
        out.extend(self.cfg.audience.iter().cloned());
        out
    }

    /// The metadata document of a route.
    pub fn metadata(&self, route: &str) -> serde_json::Value {
        let mut doc = json!({
            "resource": self.resource_of(route),
            "authorization_servers": self.cfg.issuer.iter().collect::<Vec<_>>(),
            "bearer_methods_supported": ["header"],
            "resource_name": "tdqs-gateway",
        });
        if !self.cfg.required_scopes.is_empty() {
            doc["scopes_supported"] = json!(self.cfg.required_scopes);
        }
        doc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_paths() {
        assert_eq!(route_of("/.well-known/oauth-protected-resource"), Some(""));
        assert_eq!(route_of("/.well-known/oauth-protected-resource/mcp/x"), Some("/mcp/x"));
        assert_eq!(route_of("/.well-known/oauth-protected-resource/mcp/"), None);
        assert_eq!(route_of("/.well-known/oauth-protected-resource/admin"), None);
        assert_eq!(route_of("/.well-known/openid-configuration"), None);
    }
}
