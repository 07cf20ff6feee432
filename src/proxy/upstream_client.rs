//! A prototype, not wired in: the upstream side of the proxy on hyper-util's pooled client
//! instead of reqwest, with everything that does not change between requests worked out once
//! per upstream (the URL split into scheme, authority and path; the configured headers'
//! `${VAR}` expanded and validated). `forward.rs` today parses the URL with `url::Url` and
//! expands and validates every configured header on every request, and reqwest adds its own
//! per-request machinery (a `Request` built from a `Url`, a `Pending` future, its timeouts and
//! redirect layers). benches/PROFILE.md has what each costs, measured with
//! `examples/upstream_client_bench.rs`; the integrator wires this in after the restructure of
//! the request path lands.
//!
//! Plain HTTP only: an `https://` upstream needs a rustls connector (hyper-rustls, which reqwest
//! already pulls in) in place of [`HttpConnector`]; until then reqwest stays.

use std::collections::BTreeMap;
use std::time::Duration;

use bytes::Bytes;
use http::uri::{Authority, PathAndQuery, Scheme};
use http::{HeaderMap, HeaderName, HeaderValue, Method, Request, Response, Uri};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

/// One upstream, resolved once: where requests go and the headers the config adds to each.
#[derive(Clone, Debug)]
pub struct UpstreamTarget {
    scheme: Scheme,
    authority: Authority,
    path: String,
    /// The configured headers with `${VAR}` already expanded.
    pub headers: HeaderMap,
}

impl UpstreamTarget {
    /// `url` as in `[[upstream]] url`; `headers` as in its `headers` table. Errors name the
    /// part that is wrong, for the config check at start.
    pub fn new(url: &str, headers: &BTreeMap<String, String>) -> Result<Self, String> {
        let uri: Uri = url.parse().map_err(|e| format!("url {url:?}: {e}"))?;
        let scheme = uri.scheme().cloned().ok_or_else(|| format!("url {url:?}: no scheme"))?;
        if scheme != Scheme::HTTP {
            return Err(format!("url {url:?}: only http:// in this prototype"));
        }
        let authority = uri.authority().cloned().ok_or_else(|| format!("url {url:?}: no host"))?;
        let path = uri.path_and_query().map_or("/", PathAndQuery::as_str).to_owned();
        let mut map = HeaderMap::with_capacity(headers.len());
        for (k, v) in headers {
            let value = crate::settings::expand_env(v).map_err(|e| format!("header {k}: {e}"))?;
            let name = HeaderName::try_from(k.as_str()).map_err(|e| format!("header {k}: {e}"))?;
            let value = HeaderValue::try_from(value).map_err(|e| format!("header {k}: {e}"))?;
            map.insert(name, value);
        }
        Ok(UpstreamTarget { scheme, authority, path, headers: map })
    }

    /// The request URI, with the client's query string appended when there is one.
    pub fn uri(&self, query: Option<&str>) -> Result<Uri, http::Error> {
        let pq = match query {
            None => PathAndQuery::try_from(self.path.as_str())?,
            Some(q) => {
                let sep = if self.path.contains('?') { '&' } else { '?' };
                PathAndQuery::try_from(format!("{}{sep}{q}", self.path))?
            }
        };
        Uri::builder().scheme(self.scheme.clone()).authority(self.authority.clone()).path_and_query(pq).build()
    }
}

/// The pooled client: HTTP/1.1 keep-alive connections, no Nagle delay, idle ones kept 90 s
/// (as the reqwest client is configured today).
#[derive(Clone)]
pub struct UpstreamClient {
    client: Client<HttpConnector, Full<Bytes>>,
}

impl Default for UpstreamClient {
    fn default() -> Self {
        Self::new()
    }
}

impl UpstreamClient {
    pub fn new() -> Self {
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        connector.set_connect_timeout(Some(Duration::from_secs(10)));
        let client = Client::builder(TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(90))
            .pool_timer(hyper_util::rt::TokioTimer::new())
            .build(connector);
        UpstreamClient { client }
    }

    /// Sends one request: `headers` are the client's end-to-end headers (see `headers.rs`),
    /// the target's configured headers replace any of the same name; `Host` and
    /// `Content-Length` are set by hyper.
    pub async fn send(
        &self,
        target: &UpstreamTarget,
        method: Method,
        mut headers: HeaderMap,
        query: Option<&str>,
        body: Bytes,
    ) -> Result<Response<Incoming>, String> {
        for (k, v) in &target.headers {
            headers.insert(k.clone(), v.clone());
        }
        let uri = target.uri(query).map_err(|e| e.to_string())?;
        let mut req = Request::new(Full::new(body));
        *req.method_mut() = method;
        *req.uri_mut() = uri;
        *req.headers_mut() = headers;
        self.client.request(req).await.map_err(|e| {
            let mut s = e.to_string();
            let mut src = std::error::Error::source(&e);
            while let Some(inner) = src {
                s.push_str(": ");
                s.push_str(&inner.to_string());
                src = inner.source();
            }
            s
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_is_split_once_and_the_query_appended() {
        let t = UpstreamTarget::new("http://127.0.0.1:9000/mcp", &BTreeMap::new()).unwrap();
        assert_eq!(t.uri(None).unwrap(), "http://127.0.0.1:9000/mcp");
        assert_eq!(t.uri(Some("a=1")).unwrap(), "http://127.0.0.1:9000/mcp?a=1");
        let t = UpstreamTarget::new("http://h/mcp?k=v", &BTreeMap::new()).unwrap();
        assert_eq!(t.uri(Some("a=1")).unwrap(), "http://h/mcp?k=v&a=1");
    }

    #[test]
    fn configured_headers_are_checked_at_start() {
        let mut h = BTreeMap::new();
        h.insert("x-team".to_owned(), "blue".to_owned());
        assert_eq!(UpstreamTarget::new("http://h/", &h).unwrap().headers["x-team"], "blue");
        h.insert("bad name".to_owned(), "x".to_owned());
        assert!(UpstreamTarget::new("http://h/", &h).unwrap_err().contains("bad name"));
        assert!(UpstreamTarget::new("ftp://h/", &BTreeMap::new()).is_err());
    }
}
