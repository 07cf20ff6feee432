//! The upstream side of the proxy, one client per upstream: plain `http://` upstreams spoken to
//! by the gateway itself (HTTP/1.1 on the request's own task, `h1.rs`), `https://` ones through
//! hyper-util's pooled client (HTTP/2 where TLS negotiates it). Both replaced reqwest, whose
//! per-request machinery (a `Url` parsed from a string, a request builder, the redirect and
//! timeout layers, a copy of the headers) was most of what a proxied call cost
//! (benches/PROFILE.md).
//!
//! What reqwest gave the forward path and is kept: keep-alive connections, no Nagle delay, TCP keep-alive probes (15 s, 3 retries), no redirects followed (a 3xx goes back
//! to the client as it came), answers as they arrive (the gateway asks for `identity`), HTTPS
//! through rustls with the platform's roots (`rustls-platform-verifier`, as reqwest's `rustls`
//! feature has it, ALPN offering h2 and http/1.1), a connect timeout that covers TCP and TLS,
//! and `User-Agent` / `Accept: */*` when the client sent none. Not kept: `HTTP_PROXY` and
//! friends from the environment (reqwest honoured them without the gateway saying so); an
//! upstream is reached directly.
//!
//! Kept alive, a connection can be closed by the upstream at the moment a request is written on
//! it. Two defences: idle connections are given up after 4 s, before the 5 s after which
//! uvicorn, Node and hypercorn close theirs (nginx waits 75 s); and a request that died on a
//! reused connection before any byte of its answer came back is sent once more on a new
//! connection (`watched.rs` says why that is safe).
//! Long: the client, its pools per thread, its one resend and its reading of errors are one
//! object; the connection watch that the resend relies on is apart in `watched.rs`.

mod h1;
mod watched;

pub use h1::UpstreamBody;

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Request, Response, StatusCode, Uri, header};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioTimer};
use tokio_rustls::rustls;

use super::BoxError;
use watched::{Watch, WatchedConnector, connection_lost};

type Connector = Timed<HttpsConnector<WatchedConnector>>;

/// How long a connection may sit idle in the pool: under the shortest keep-alive of common
/// servers (5 s), so the gateway rarely writes on a connection the upstream is closing.
const POOL_IDLE: Duration = Duration::from_secs(4);

const USER_AGENT: &str = concat!("tdqs-gateway/", env!("CARGO_PKG_VERSION"));

/// Pools per upstream: one for the threads of the main runtime and one for each serving worker
/// of `--runtime per-core` (`server/workers.rs`), so that a worker's requests go out on
/// connections whose tasks run on its own thread. Workers past the last slot share.
const POOL_SLOTS: usize = 65;

type Pooled = Client<Connector, Full<Bytes>>;

thread_local! {
    /// The pool slot of this thread: 0 off the serving workers, `1 + i` on worker `i`.
    static POOL_SLOT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Makes the calling thread use pool `slot` of every upstream (set once by each serving
/// worker as it starts).
pub fn set_pool_slot(slot: usize) {
    POOL_SLOT.with(|s| s.set(slot));
}

/// The pool slot of the calling thread, within the slots there are.
fn pool_slot() -> usize {
    POOL_SLOT.with(std::cell::Cell::get) % POOL_SLOTS
}

/// A pooled client for one upstream (its own pools and connect timeout). Cloning shares the
/// pools.
#[derive(Clone)]
pub struct UpstreamClient {
    /// Plain `http://` upstreams: the gateway's own HTTP/1.1, connections pooled per thread
    /// (`h1.rs`).
    h1: Arc<h1::Pools>,
    /// `https://` upstreams (HTTP/2 where TLS negotiates it): hyper-util's pooled client.
    pools: Arc<[OnceLock<Pooled>]>,
    connector: Connector,
    /// The same connector without a pool: where a request lost on a reused connection goes
    /// once more, on a connection of its own.
    fresh: Client<Connector, Full<Bytes>>,
}

impl std::fmt::Debug for UpstreamClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UpstreamClient")
    }
}

/// Why a request got no answer head.
#[derive(Debug)]
pub enum SendError {
    /// TCP and TLS together took longer than the connect timeout.
    ConnectTimeout,
    /// The answer's head did not come within the response timeout.
    ResponseTimeout,
    /// Anything else, with its chain of causes in one line.
    Failed(String),
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SendError::ConnectTimeout => f.write_str("connect timeout"),
            SendError::ResponseTimeout => f.write_str("no answer within the response timeout"),
            SendError::Failed(s) => f.write_str(s),
        }
    }
}

impl UpstreamClient {
    /// A client whose connections must be up (TCP, and TLS for `https://`) within
    /// `connect_timeout`. The platform's roots are loaded the first time an HTTPS client is
    /// made, once for every upstream.
    pub fn new(connect_timeout: Duration) -> Result<UpstreamClient, String> {
        Ok(UpstreamClient::with_tls(connect_timeout, platform_tls()?))
    }

    /// A client for plain `http://` upstreams only: no roots are loaded, and a TLS handshake,
    /// were one asked for, would trust nothing.
    pub fn plain(connect_timeout: Duration) -> UpstreamClient {
        static NONE: OnceLock<rustls::ClientConfig> = OnceLock::new();
        let tls = NONE.get_or_init(|| {
            rustls::ClientConfig::builder_with_provider(provider())
                .with_safe_default_protocol_versions()
                .expect("the provider's default protocol versions")
                .with_root_certificates(rustls::RootCertStore::empty())
                .with_no_client_auth()
        });
        UpstreamClient::with_tls(connect_timeout, tls.clone())
    }

    fn with_tls(connect_timeout: Duration, tls: rustls::ClientConfig) -> UpstreamClient {
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        http.set_nodelay(true);
        http.set_keepalive(Some(Duration::from_secs(15)));
        http.set_keepalive_interval(Some(Duration::from_secs(15)));
        http.set_keepalive_retries(Some(3));
        let https = HttpsConnectorBuilder::new()
            .with_tls_config(tls)
            .https_or_http()
            .enable_http1()
            .enable_http2()
            .wrap_connector(WatchedConnector { inner: http });
        let connector = Timed { inner: https, limit: connect_timeout };
        let fresh = Client::builder(TokioExecutor::new())
            .pool_max_idle_per_host(0)
            .timer(TokioTimer::new())
            .build(connector.clone());
        let pools = (0..POOL_SLOTS).map(|_| OnceLock::new()).collect();
        UpstreamClient { h1: h1::Pools::new(connect_timeout), pools, connector, fresh }
    }

    /// The pool of the calling thread (made on its first request).
    fn pool(&self) -> &Pooled {
        self.pools[pool_slot()].get_or_init(|| {
            Client::builder(TokioExecutor::new())
                .pool_idle_timeout(POOL_IDLE)
                .pool_timer(TokioTimer::new())
                .timer(TokioTimer::new())
                .build(self.connector.clone())
        })
    }

    /// Sends `req` (absolute URI; `headers` already end to end, see `headers.rs`) and waits for
    /// the answer's head, for at most `within` (`SendError::ResponseTimeout`). `Content-Length`
    /// is hyper's to set from the body.
    pub async fn send(&self, req: Request<Full<Bytes>>, within: Duration) -> Result<UpstreamResponse, SendError> {
        let until = tokio::time::Instant::now() + within;
        if req.uri().scheme() == Some(&http::uri::Scheme::HTTP) {
            // Plain HTTP/1.1 keeps its clock on the pooled connection (see `h1.rs`).
            return self.send_until(req, until).await;
        }
        match tokio::time::timeout_at(until, self.send_until(req, until)).await {
            Ok(sent) => sent,
            Err(_) => Err(SendError::ResponseTimeout),
        }
    }

    async fn send_until(
        &self,
        mut req: Request<Full<Bytes>>,
        until: tokio::time::Instant,
    ) -> Result<UpstreamResponse, SendError> {
        let h = req.headers_mut();
        if !h.contains_key(header::USER_AGENT) {
            h.insert(header::USER_AGENT, HeaderValue::from_static(USER_AGENT));
        }
        if !h.contains_key(header::ACCEPT) {
            h.insert(header::ACCEPT, HeaderValue::from_static("*/*"));
        }
        if req.uri().scheme() == Some(&http::uri::Scheme::HTTP) {
            let resp = self.h1.send_until(req, Some(until)).await?;
            let (parts, body) = resp.into_parts();
            return Ok(UpstreamResponse { status: parts.status, headers: parts.headers, body });
        }
        // The body is whole in memory, so the request can be made again; hyper takes this one.
        let again = copy(&req);
        let failed = match self.pool().request(req).await {
            Ok(resp) => return Ok(UpstreamResponse::from(resp)),
            Err(e) => e,
        };
        let lost_unanswered = failed.connect_info().and_then(Watch::of).is_some_and(|w| w.reused_and_unanswered())
            && connection_lost(&failed);
        if !lost_unanswered {
            return Err(send_error(&failed));
        }
        tracing::debug!(error = %describe(&failed), "a reused upstream connection closed under a request; sent once more");
        match self.fresh.request(again).await {
            Ok(resp) => Ok(UpstreamResponse::from(resp)),
            Err(e) => Err(send_error(&e)),
        }
    }
}

/// What a request is made of, for sending it again.
fn copy(req: &Request<Full<Bytes>>) -> Request<Full<Bytes>> {
    let mut again = Request::new(req.body().clone());
    *again.method_mut() = req.method().clone();
    *again.uri_mut() = req.uri().clone();
    *again.version_mut() = req.version();
    *again.headers_mut() = req.headers().clone();
    again
}

fn send_error(e: &hyper_util::client::legacy::Error) -> SendError {
    match caused_by::<ConnectTimeout>(e) {
        true => SendError::ConnectTimeout,
        false => SendError::Failed(describe(e)),
    }
}

/// An upstream's answer: its head, and its body as it arrives.
pub struct UpstreamResponse {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: UpstreamBody,
}

impl From<Response<Incoming>> for UpstreamResponse {
    fn from(resp: Response<Incoming>) -> Self {
        let (parts, body) = resp.into_parts();
        UpstreamResponse { status: parts.status, headers: parts.headers, body: UpstreamBody::from(body) }
    }
}

impl UpstreamResponse {
    pub fn status(&self) -> StatusCode {
        self.status
    }

    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The body's length when the upstream declared it.
    pub fn content_length(&self) -> Option<u64> {
        http_body::Body::size_hint(&self.body).exact()
    }

    /// The body's data, chunk by chunk (trailers, if any, are left out).
    pub fn bytes_stream(self) -> http_body_util::BodyDataStream<UpstreamBody> {
        http_body_util::BodyExt::into_data_stream(self.body)
    }

    /// The body as it goes on to the client, data only, its length kept: an answer the upstream
    /// sized reaches the client with the same `Content-Length`, not re-framed as chunks (which
    /// also costs the client a second parse). Trailers stay behind, as on every other path.
    pub fn into_body(self) -> crate::http::Body {
        use http_body_util::BodyExt;
        DataOnly(self.body).map_err(|e| Box::new(e) as crate::http::BoxError).boxed()
    }

    /// The same answer as a `reqwest::Response`, for code shared with the `scan` client.
    pub fn into_reqwest(self) -> reqwest::Response {
        let mut r = Response::new(reqwest::Body::wrap(self.body));
        *r.status_mut() = self.status;
        *r.headers_mut() = self.headers;
        reqwest::Response::from(r)
    }
}

/// The crypto provider reqwest would use: the process default if one is installed, else
/// aws-lc-rs.
fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    rustls::crypto::CryptoProvider::get_default()
        .cloned()
        .unwrap_or_else(|| Arc::new(rustls::crypto::aws_lc_rs::default_provider()))
}

/// TLS with the platform's roots, built once.
fn platform_tls() -> Result<rustls::ClientConfig, String> {
    static TLS: OnceLock<Result<rustls::ClientConfig, String>> = OnceLock::new();
    TLS.get_or_init(|| {
        let provider = provider();
        let verifier = rustls_platform_verifier::Verifier::new(provider.clone())
            .map_err(|e| format!("cannot load the platform's TLS roots: {e}"))?;
        Ok(rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(verifier))
            .with_no_client_auth())
    })
    .clone()
}

/// The error's text and its causes', `: `-joined.
fn describe(e: &(dyn std::error::Error + 'static)) -> String {
    let mut s = e.to_string();
    let mut src = e.source();
    while let Some(inner) = src {
        s.push_str(": ");
        s.push_str(&inner.to_string());
        src = inner.source();
    }
    s
}

fn caused_by<E: std::error::Error + 'static>(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cur = Some(e);
    while let Some(err) = cur {
        if err.is::<E>() {
            return true;
        }
        cur = err.source();
    }
    false
}

/// A connection not up within the connect timeout.
#[derive(Debug)]
struct ConnectTimeout;

impl std::fmt::Display for ConnectTimeout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("connect timeout")
    }
}

impl std::error::Error for ConnectTimeout {}

/// A connector whose connections (TCP and TLS) must be up within `limit`.
#[derive(Clone)]
struct Timed<C> {
    inner: C,
    limit: Duration,
}

impl<C> tower_service::Service<Uri> for Timed<C>
where
    C: tower_service::Service<Uri>,
    C::Error: Into<BoxError>,
    C::Future: Send + 'static,
{
    type Response = C::Response;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<C::Response, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        self.inner.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, dst: Uri) -> Self::Future {
        let connecting = self.inner.call(dst);
        let limit = self.limit;
        Box::pin(async move {
            match tokio::time::timeout(limit, connecting).await {
                Ok(done) => done.map_err(Into::into),
                Err(_) => Err(Box::new(ConnectTimeout) as BoxError),
            }
        })
    }
}

/// An answer's body less its trailers, with its size hint (which `map_frame` would lose).
struct DataOnly(UpstreamBody);

impl http_body::Body for DataOnly {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        let inner = Pin::new(&mut self.get_mut().0);
        // Trailers end the body: nothing comes after them.
        Poll::Ready(match std::task::ready!(http_body::Body::poll_frame(inner, cx)) {
            Some(Ok(frame)) => frame.into_data().ok().map(|data| Ok(http_body::Frame::data(data))),
            other => other,
        })
    }

    fn is_end_stream(&self) -> bool {
        http_body::Body::is_end_stream(&self.0)
    }

    fn size_hint(&self) -> http_body::SizeHint {
        http_body::Body::size_hint(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(uri: &str) -> Request<Full<Bytes>> {
        let mut r = Request::new(Full::new(Bytes::new()));
        *r.uri_mut() = uri.parse().unwrap();
        r
    }

    #[tokio::test]
    async fn a_refused_connection_says_why() {
        // A port nothing listens on: bind one, note it, close it.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let client = UpstreamClient::plain(Duration::from_secs(5));
        match client.send(request(&format!("http://127.0.0.1:{port}/mcp")), Duration::from_secs(30)).await {
            Err(SendError::Failed(why)) => assert!(why.to_lowercase().contains("refused"), "{why}"),
            other => panic!("expected a refusal, got {:?}", other.map(|r| r.status)),
        }
    }

    #[tokio::test]
    async fn a_connection_that_never_comes_up_is_a_connect_timeout() {
        // A listener whose backlog is full never completes another handshake... not portable;
        // a TLS upstream that never answers the ClientHello is: the TCP part succeeds, the
        // handshake stalls, and the timeout covers both.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let held = tokio::spawn(async move {
            let mut open = Vec::new();
            loop {
                let (s, _) = listener.accept().await.unwrap();
                open.push(s);
            }
        });
        let client = UpstreamClient::new(Duration::from_millis(200)).unwrap();
        let started = std::time::Instant::now();
        let got = client.send(request(&format!("https://{addr}/mcp")), Duration::from_secs(30)).await;
        assert!(matches!(got, Err(SendError::ConnectTimeout)), "{:?}", got.map(|r| r.status));
        assert!(started.elapsed() < Duration::from_secs(3));
        held.abort();
    }

    #[tokio::test]
    async fn answers_come_back_with_head_and_body() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let (mut s, _) = listener.accept().await.unwrap();
            let mut buf = vec![0; 4096];
            let n = s.read(&mut buf).await.unwrap();
            let head = String::from_utf8_lossy(&buf[..n]).to_lowercase();
            s.write_all(b"HTTP/1.1 201 Created\r\ncontent-length: 5\r\nx-up: 1\r\n\r\nhello").await.unwrap();
            head
        });
        let client = UpstreamClient::plain(Duration::from_secs(5));
        let resp = client.send(request(&format!("http://{addr}/mcp?a=1")), Duration::from_secs(30)).await.unwrap();
        assert_eq!(resp.status(), 201);
        assert_eq!(resp.headers()["x-up"], "1");
        assert_eq!(resp.content_length(), Some(5));
        let body = http_body_util::BodyExt::collect(resp.body).await.unwrap().to_bytes();
        assert_eq!(&body[..], b"hello");
        let head = server.await.unwrap();
        assert!(head.starts_with("get /mcp?a=1 http/1.1\r\n"), "origin form on the wire: {head}");
        assert!(head.contains(&format!("host: {addr}\r\n")), "{head}");
        assert!(head.contains("user-agent: tdqs-gateway/"), "{head}");
    }
}
