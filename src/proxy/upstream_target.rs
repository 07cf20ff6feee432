//! Each network upstream worked out once, when the gateway starts, from its `[[upstream]]`
//! table: where its requests go (the URL parsed and split, userinfo taken out), the `Host` an
//! HTTP/1 request carries, its bounds, and the pooled client that sends to it. Nothing here is
//! parsed, expanded or looked up again per request.
//!
//! The configured `headers` are checked here too: a `${VAR}` that is not set, or a value that
//! is not a valid header, stops the gateway at start with the upstream, the header and the
//! variable named, instead of failing every request to that upstream with a 502. (They are
//! applied by `auth::upstream`, which expands them once as well.) A variable that changes
//! while the gateway runs needs a restart, as every other setting does.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::uri::{Authority, PathAndQuery, Scheme};
use http::{HeaderName, HeaderValue, Uri};

use super::upstream_client::UpstreamClient;
use crate::auth::upstream::UpstreamCredentials;
use crate::config::{Config, UpstreamConfig};

/// One upstream's destination and bounds, ready for every request.
pub struct UpstreamTarget {
    scheme: Scheme,
    authority: Authority,
    /// The path and query of the configured URL, `/` when it has none.
    path: PathAndQuery,
    /// The URI without a client query string (most requests): cloned, not built.
    plain: Uri,
    /// `Host` for HTTP/1 requests over plain HTTP (for HTTPS the client sets it, since the
    /// connection may turn out to be HTTP/2, which carries the authority instead).
    pub host: Option<HeaderValue>,
    /// `Authorization: Basic ...` from userinfo in the URL, sent when the request carries no
    /// `Authorization` of its own (as reqwest did with such URLs).
    pub url_credentials: Option<HeaderValue>,
    pub response_timeout: Duration,
    pub connect_timeout: Duration,
    /// What the gateway presents to this upstream (configured headers, its own token; the
    /// caller's credentials removed with `[auth]` on).
    pub credentials: Option<Arc<UpstreamCredentials>>,
    pub client: UpstreamClient,
}

impl std::fmt::Debug for UpstreamTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the URL's userinfo.
        f.debug_struct("UpstreamTarget").field("uri", &self.plain).finish_non_exhaustive()
    }
}

impl UpstreamTarget {
    /// The target of a Streamable HTTP upstream (`url`); `None` for stdio and legacy SSE
    /// upstreams, which do not send through it. Errors say what is wrong with the URL.
    pub fn from_config(u: &UpstreamConfig) -> Result<Option<UpstreamTarget>, String> {
        let Some(url) = u.transport().streamable_url() else { return Ok(None) };
        let mut t = UpstreamTarget::for_url(url, Duration::from_millis(u.connect_timeout_ms))?;
        t.response_timeout = Duration::from_millis(u.response_timeout_ms);
        Ok(Some(t))
    }

    /// A target for `url` with its own client, connections up within `connect_timeout`, and
    /// the default response timeout.
    pub fn for_url(url: &str, connect_timeout: Duration) -> Result<UpstreamTarget, String> {
        let Parsed { uri, scheme, authority, path, url_credentials } = parse_url(url)?;
        let client = match scheme == Scheme::HTTPS {
            true => UpstreamClient::new(connect_timeout)?,
            false => UpstreamClient::plain(connect_timeout),
        };
        let host = (scheme == Scheme::HTTP)
            .then(|| {
                let host: &'static str = Box::leak(authority.as_str().into());
                HeaderValue::from_maybe_shared(Bytes::from_static(host.as_bytes()))
            })
            .transpose()
            .map_err(|e| format!("url {url:?}: {e}"))?;
        Ok(UpstreamTarget {
            plain: uri,
            scheme,
            authority,
            path,
            host,
            url_credentials,
            response_timeout: Duration::from_millis(crate::config::limits::response_timeout_ms()),
            connect_timeout,
            credentials: None,
            client,
        })
    }

    /// The request URI: the configured one, with the client's query string appended after
    /// any query the configured URL has.
    pub fn uri(&self, query: Option<&str>) -> Result<Uri, http::Error> {
        let Some(q) = query else { return Ok(self.plain.clone()) };
        let base = self.path.as_str();
        let sep = if self.path.query().is_some() { '&' } else { '?' };
        let mut pq = String::with_capacity(base.len() + 1 + q.len());
        pq.push_str(base);
        pq.push(sep);
        pq.push_str(q);
        Uri::builder()
            .scheme(self.scheme.clone())
            .authority(self.authority.clone())
            .path_and_query(PathAndQuery::from_maybe_shared(Bytes::from(pq))?)
            .build()
    }
}

struct Parsed {
    uri: Uri,
    scheme: Scheme,
    authority: Authority,
    path: PathAndQuery,
    url_credentials: Option<HeaderValue>,
}

fn parse_url(url: &str) -> Result<Parsed, String> {
    // The same reading of the URL reqwest gave it (IDNA hosts, percent-encoding, default
    // ports dropped), once.
    let mut parsed = reqwest::Url::parse(url).map_err(|e| format!("url {url:?}: {e}"))?;
    let scheme = match parsed.scheme() {
        "http" => Scheme::HTTP,
        "https" => Scheme::HTTPS,
        other => return Err(format!("url {url:?}: scheme {other:?} is not http or https")),
    };
    let url_credentials = basic_credentials(&parsed);
    let _ = parsed.set_username("");
    let _ = parsed.set_password(None);
    parsed.set_fragment(None);
    // The prepared URI's bytes are kept for the life of the process rather than counted: every
    // request clones its parts, and a shared count was a cache line both serving threads wrote
    // on every request (`benches/PROFILE.md`, session 27). One per configured upstream.
    let text: &'static str = Box::leak(parsed.as_str().into());
    let uri = Uri::from_maybe_shared(Bytes::from_static(text.as_bytes())).map_err(|e| format!("url {url:?}: {e}"))?;
    let authority = uri.authority().cloned().ok_or_else(|| format!("url {url:?}: no host"))?;
    let path = uri.path_and_query().cloned().unwrap_or_else(|| PathAndQuery::from_static("/"));
    Ok(Parsed { uri, scheme, authority, path, url_credentials })
}

/// `Basic` credentials from a URL's userinfo, percent-decoded.
fn basic_credentials(url: &reqwest::Url) -> Option<HeaderValue> {
    use base64::Engine;
    if url.username().is_empty() && url.password().is_none() {
        return None;
    }
    let decode = |s: &str| percent_encoding::percent_decode_str(s).decode_utf8_lossy().into_owned();
    let pair = format!("{}:{}", decode(url.username()), url.password().map(decode).unwrap_or_default());
    let encoded = base64::engine::general_purpose::STANDARD.encode(pair);
    let mut v = HeaderValue::try_from(format!("Basic {encoded}")).ok()?;
    v.set_sensitive(true);
    Some(v)
}

/// Checks one upstream's configured headers: each name valid, each `${VAR}` set, each expanded
/// value a valid header value.
pub fn check_headers(u: &UpstreamConfig) -> Result<(), String> {
    for (k, v) in &u.headers {
        HeaderName::try_from(k.as_str()).map_err(|e| format!("header {k}: {e}"))?;
        let value = crate::settings::expand_env(v).map_err(|e| format!("header {k}: {e}"))?;
        HeaderValue::try_from(value).map_err(|e| format!("header {k}: not a valid header value ({e})"))?;
    }
    Ok(())
}

/// What `prepare` would refuse, without making clients (for `check-config`): every upstream's
/// headers, every Streamable HTTP URL and every `${VAR}` of a stdio upstream's `env` (a
/// missing variable stops the start, not each session's spawn). Every problem is named, one
/// per line, with its upstream (`upstream "x": header X-Key: environment variable KEY is not
/// set`).
pub fn check(cfg: &Config) -> Result<(), String> {
    let mut problems = Vec::new();
    for u in &cfg.upstreams {
        let mut named = |r: Result<(), String>| {
            if let Err(e) = r {
                problems.push(format!("upstream \"{}\": {e}", u.name));
            }
        };
        named(check_headers(u));
        if let Some(url) = u.transport().streamable_url() {
            named(parse_url(url).map(drop));
        }
        for (k, v) in &u.env {
            named(crate::settings::expand_env(v).map(drop).map_err(|e| format!("env {k}: {e}")));
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n")) }
}

/// Every network upstream's target, by name, each with its credentials (from `credentials`,
/// by upstream name), after [`check`].
pub fn prepare(
    cfg: &Config,
    credentials: &crate::by_name::ByName<Arc<UpstreamCredentials>>,
) -> Result<crate::by_name::ByName<Arc<UpstreamTarget>>, String> {
    check(cfg)?;
    let mut out = crate::by_name::ByName::default();
    for u in &cfg.upstreams {
        let named = |e: String| format!("upstream \"{}\": {e}", u.name);
        if let Some(mut t) = UpstreamTarget::from_config(u).map_err(named)? {
            t.credentials = credentials.get(&u.name).cloned();
            out.insert(u.name.clone(), Arc::new(t));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(url: &str) -> UpstreamTarget {
        UpstreamTarget::for_url(url, Duration::from_secs(1)).unwrap()
    }

    #[test]
    fn the_url_is_split_once_and_the_query_appended() {
        let t = target("http://127.0.0.1:9000/mcp");
        assert_eq!(t.uri(None).unwrap(), "http://127.0.0.1:9000/mcp");
        assert_eq!(t.uri(Some("a=1")).unwrap(), "http://127.0.0.1:9000/mcp?a=1");
        assert_eq!(t.host.as_ref().unwrap(), "127.0.0.1:9000");
        let t = target("http://h/mcp?k=v#frag");
        assert_eq!(t.uri(None).unwrap(), "http://h/mcp?k=v");
        assert_eq!(t.uri(Some("a=1")).unwrap(), "http://h/mcp?k=v&a=1");
        assert_eq!(t.host.as_ref().unwrap(), "h", "a default port is not written");
        assert_eq!(target("http://h").uri(None).unwrap(), "http://h/");
        let t = target("https://h:8443/mcp");
        assert_eq!(t.uri(None).unwrap(), "https://h:8443/mcp");
        assert!(t.host.is_none(), "over TLS the client sets the authority itself");
    }

    #[test]
    fn userinfo_becomes_basic_credentials_and_leaves_the_uri() {
        let t = target("http://al%40ice:s3cret@h:81/mcp");
        assert_eq!(t.uri(None).unwrap(), "http://h:81/mcp");
        // base64("al@ice:s3cret")
        assert_eq!(t.url_credentials.as_ref().unwrap(), "Basic YWxAaWNlOnMzY3JldA==");
        assert!(format!("{t:?}").find("s3cret").is_none(), "{t:?}");
        assert!(target("http://h/").url_credentials.is_none());
    }

    #[test]
    fn urls_that_cannot_be_sent_to_are_refused() {
        let second = Duration::from_secs(1);
        assert!(UpstreamTarget::for_url("ftp://h/", second).unwrap_err().contains("ftp"));
        assert!(UpstreamTarget::for_url("not a url", second).is_err());
    }

    #[test]
    fn a_missing_variable_in_a_header_is_named_at_start() {
        let mut cfg = Config::parse("[[upstream]]\nname = \"up\"\nurl = \"http://127.0.0.1:1/mcp\"\n").unwrap();
        cfg.upstreams[0].headers.insert("X-Key".into(), "k-${TDQS_TARGET_TEST_SURELY_UNSET}".into());
        let none = crate::by_name::ByName::default();
        let e = prepare(&cfg, &none).unwrap_err();
        assert_eq!(check(&cfg).unwrap_err(), e, "check-config says the same");
        assert!(
            e.contains("upstream \"up\"") && e.contains("X-Key") && e.contains("TDQS_TARGET_TEST_SURELY_UNSET"),
            "{e}"
        );
        cfg.upstreams[0].headers.insert("X-Key".into(), "line\nbreak".into());
        assert!(prepare(&cfg, &none).unwrap_err().contains("not a valid header value"));
        cfg.upstreams[0].headers.clear();
        cfg.upstreams[0].headers.insert("bad name".into(), "x".into());
        assert!(prepare(&cfg, &none).unwrap_err().contains("bad name"));
        cfg.upstreams[0].headers.clear();
        cfg.upstreams[0].headers.insert("X-Team".into(), "blue-${PATH}".into());
        let targets = prepare(&cfg, &none).unwrap();
        assert_eq!(targets["up"].uri(None).unwrap(), "http://127.0.0.1:1/mcp");
    }

    #[test]
    fn every_missing_variable_stops_the_start_stdio_env_included() {
        let text = "[[upstream]]\nname = \"a\"\ncommand = [\"srv\"]\nenv = { TOKEN = \"${TDQS_TEST_UNSET_A}\" }\n\
                    [[upstream]]\nname = \"b\"\nurl = \"http://127.0.0.1:1/mcp\"\nheaders = { X-Key = \"${TDQS_TEST_UNSET_B}\" }\n";
        let cfg = Config::parse(text).unwrap();
        let e = check(&cfg).unwrap_err();
        assert!(e.contains("upstream \"a\": env TOKEN: environment variable TDQS_TEST_UNSET_A is not set"), "{e}");
        assert!(e.contains("upstream \"b\"") && e.contains("TDQS_TEST_UNSET_B"), "{e}");
    }
}
