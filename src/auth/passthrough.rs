//! With `[auth]` off, an upstream's own OAuth keeps working through the gateway. The client
//! only ever talks to the gateway's URL, so what the upstream says about itself is said about
//! the gateway's route instead: the `resource_metadata` of its `401`/`403` challenge becomes
//! the gateway's `/.well-known/oauth-protected-resource/{route}`, and that document is the
//! upstream's own Protected Resource Metadata (RFC 9728) with `resource` set to the route's URL,
//! the audience the client then asks its token for (RFC 8707). The authorization servers it
//! names are left alone: the client signs in there directly, and its token goes to the
//! upstream as it always did.
//!
//! A hostile upstream gets no reach through this: its metadata is fetched only from its own
//! origin (a challenge naming another host is rewritten but never followed), read within a size
//! cap and a timeout, never through a redirect, and only its `resource` is changed (its
//! `signed_metadata`, which would contradict that, is dropped).

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Mutex;

use http::{HeaderMap, HeaderValue, Response, StatusCode, header};

use super::jwks::get_json;
use super::metadata::WELL_KNOWN;
use crate::http::Body;
use crate::http::body::json_response;

/// Where each upstream said its metadata is, when that is on its own origin.
pub struct AdvertisedMetadata {
    http: reqwest::Client,
    advertised: Mutex<HashMap<String, String>>,
}

impl AdvertisedMetadata {
    pub fn new(http: reqwest::Client) -> AdvertisedMetadata {
        AdvertisedMetadata { http, advertised: Mutex::default() }
    }

    /// Points the challenges of an upstream's answer on `route` (`/mcp/{upstream}`) at the
    /// gateway's metadata for that route, remembering where the upstream's own is.
    pub fn rewrite_challenges(&self, headers: &mut HeaderMap, base: &str, route: &str, upstream_url: &str) {
        if !headers.contains_key(header::WWW_AUTHENTICATE) {
            return;
        }
        let ours = format!("{}{WELL_KNOWN}{route}", base.trim_end_matches('/'));
        let values: Vec<HeaderValue> = headers.get_all(header::WWW_AUTHENTICATE).iter().cloned().collect();
        headers.remove(header::WWW_AUTHENTICATE);
        for value in values {
            let rewritten = value.to_str().ok().and_then(|text| {
                let (span, theirs) = param(text, "resource_metadata")?;
                if same_origin(&theirs, upstream_url)
                    && let Ok(mut m) = self.advertised.lock()
                {
                    m.insert(route.to_owned(), theirs);
                }
                HeaderValue::from_str(&format!("{}\"{ours}\"{}", &text[..span.start], &text[span.end..])).ok()
            });
            headers.append(header::WWW_AUTHENTICATE, rewritten.unwrap_or(value));
        }
    }

    /// The upstream's protected resource metadata as the gateway's route's: 404 when the
    /// upstream publishes none (or none the gateway may read).
    pub async fn metadata(&self, base: &str, route: &str, upstream_url: &str) -> Response<Body> {
        let remembered = self.advertised.lock().ok().and_then(|m| m.get(route).cloned());
        for url in remembered.into_iter().chain(default_locations(upstream_url)) {
            match get_json::<serde_json::Map<String, serde_json::Value>>(&self.http, &url).await {
                Ok(mut doc) => {
                    let resource = format!("{}{route}", base.trim_end_matches('/'));
                    doc.insert("resource".into(), resource.into());
                    // Signed metadata would name the upstream as the resource, and takes
                    // precedence over the plain values where a client checks it (RFC 9728 §2.2).
                    doc.remove("signed_metadata");
                    return json_response(StatusCode::OK, serde_json::to_vec(&doc).unwrap_or_default());
                }
                Err(e) => tracing::debug!(url = %url, error = %e, "no protected resource metadata here"),
            }
        }
        crate::http::error::GatewayError::NotFound.into_response(None)
    }
}

/// The gateway's base URL as a client reaches it: `auth.resource` when set (the public URL
/// behind a TLS-terminating proxy), else the request's validated `Host` with the listener's
/// scheme (`tls`: the listener serves HTTPS).
pub fn gateway_base(resource: Option<&str>, tls: bool, host: &str) -> String {
    match resource {
        Some(r) => r.trim_end_matches('/').to_owned(),
        None => {
            let scheme = if tls { "https" } else { "http" };
            format!("{scheme}://{host}")
        }
    }
}

/// RFC 9728 §3.1: the path form first (well-known between the host and the resource's path),
/// then the origin's.
fn default_locations(upstream_url: &str) -> Vec<String> {
    let Ok(url) = reqwest::Url::parse(upstream_url) else { return vec![] };
    let origin = url.origin().ascii_serialization();
    let path = url.path().trim_end_matches('/');
    let mut out = vec![format!("{origin}{WELL_KNOWN}{path}")];
    if !path.is_empty() {
        out.push(format!("{origin}{WELL_KNOWN}"));
    }
    out
}

fn same_origin(a: &str, b: &str) -> bool {
    match (reqwest::Url::parse(a), reqwest::Url::parse(b)) {
        (Ok(a), Ok(b)) => a.origin() == b.origin(),
        _ => false,
    }
}

/// The span (quotes included) and the value of auth-param `name` in a `WWW-Authenticate`
/// value, read as RFC 9110 §11 lays it out: a `name=` inside another parameter's quoted string
/// is text, not a parameter.
fn param(text: &str, name: &str) -> Option<(Range<usize>, String)> {
    let b = text.as_bytes();
    let is_token = |c: u8| c.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&c);
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && (b[i] == b' ' || b[i] == b'\t' || b[i] == b',') {
            i += 1;
        }
        let start = i;
        while i < b.len() && is_token(b[i]) {
            i += 1;
        }
        if i == start {
            i += 1; // not a token: skip the byte
            continue;
        }
        let key = &text[start..i];
        let mut j = i;
        while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
            j += 1;
        }
        if j >= b.len() || b[j] != b'=' {
            continue; // a scheme name (or token68)
        }
        j += 1;
        while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
            j += 1;
        }
        let value_start = j;
        let mut value = String::new();
        if j < b.len() && b[j] == b'"' {
            j += 1;
            while j < b.len() && b[j] != b'"' {
                if b[j] == b'\\' && j + 1 < b.len() {
                    j += 1;
                }
                value.push(b[j] as char);
                j += 1;
            }
            j = (j + 1).min(b.len());
        } else {
            while j < b.len() && b[j] != b',' && b[j] != b' ' && b[j] != b'\t' {
                value.push(b[j] as char);
                j += 1;
            }
        }
        if key.eq_ignore_ascii_case(name) {
            return Some((value_start..j, value));
        }
        i = j;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_parameter_not_text_that_looks_like_it() {
        let h = r#"Bearer error="invalid_token", error_description="see resource_metadata=\"http://evil\"", resource_metadata="http://up:1/.well-known/oauth-protected-resource/mcp""#;
        let (span, v) = param(h, "resource_metadata").unwrap();
        assert_eq!(v, "http://up:1/.well-known/oauth-protected-resource/mcp");
        assert_eq!(&h[span], "\"http://up:1/.well-known/oauth-protected-resource/mcp\"");
        assert_eq!(param("Bearer realm=x, Resource_Metadata=http://a/b", "resource_metadata").unwrap().1, "http://a/b");
        assert!(param(r#"Bearer error="resource_metadata=x""#, "resource_metadata").is_none());
        assert!(param("Basic", "resource_metadata").is_none());
        assert!(param(r#"Bearer resource_metadata="unterminated"#, "resource_metadata").is_some());
    }

    #[test]
    fn rewrites_each_challenge_and_remembers_only_the_upstreams_own_origin() {
        let o = AdvertisedMetadata::new(reqwest::Client::new());
        let mut h = HeaderMap::new();
        h.append(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static(
                r#"Bearer error="invalid_token", resource_metadata="http://up:1/.well-known/oauth-protected-resource/mcp", scope="mcp""#,
            ),
        );
        h.append(header::WWW_AUTHENTICATE, HeaderValue::from_static(r#"Basic realm="x""#));
        o.rewrite_challenges(&mut h, "http://gw:8080/", "/mcp/up", "http://up:1/mcp");
        let got: Vec<&str> = h.get_all(header::WWW_AUTHENTICATE).iter().map(|v| v.to_str().unwrap()).collect();
        assert_eq!(
            got,
            [
                r#"Bearer error="invalid_token", resource_metadata="http://gw:8080/.well-known/oauth-protected-resource/mcp/up", scope="mcp""#,
                r#"Basic realm="x""#
            ]
        );
        assert!(o.advertised.lock().unwrap().contains_key("/mcp/up"));

        let mut h = HeaderMap::new();
        h.insert(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static(r#"Bearer resource_metadata="http://169.254.169.254/x""#),
        );
        o.rewrite_challenges(&mut h, "http://gw:8080", "/mcp/other", "http://up:1/mcp");
        assert!(
            h[header::WWW_AUTHENTICATE]
                .to_str()
                .unwrap()
                .contains("http://gw:8080/.well-known/oauth-protected-resource/mcp/other")
        );
        assert!(!o.advertised.lock().unwrap().contains_key("/mcp/other"), "a foreign origin is never fetched");
    }

    #[test]
    fn default_locations_follow_rfc_9728() {
        assert_eq!(
            default_locations("http://up:1/mcp/"),
            [
                "http://up:1/.well-known/oauth-protected-resource/mcp",
                "http://up:1/.well-known/oauth-protected-resource"
            ]
        );
        assert_eq!(default_locations("http://up:1"), ["http://up:1/.well-known/oauth-protected-resource"]);
    }
}
