//! The listener: accepts TCP (or TLS through rustls when a certificate is configured) and
//! serves HTTP/1.1 and HTTP/2 on each connection with hyper.

use std::net::SocketAddr;
use std::sync::Arc;

use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

use super::{BoxError, Gateway, routes};

/// A running listener.
pub struct Listening {
    pub local_addr: SocketAddr,
    pub tls: bool,
    pub task: tokio::task::JoinHandle<()>,
}

/// Binds the configured address and serves until the task is dropped or aborted.
pub async fn serve(gw: Arc<Gateway>) -> Result<Listening, BoxError> {
    let listen = &gw.config.listen;
    let tcp = TcpListener::bind(listen.addr).await.map_err(|e| format!("cannot listen on {}: {e}", listen.addr))?;
    let local_addr = tcp.local_addr()?;
    let tls = match (&listen.tls_cert, &listen.tls_key) {
        (Some(cert), Some(key)) => Some(tls_acceptor(&gw.config.resolve(cert), &gw.config.resolve(key))?),
        _ => None,
    };
    let is_tls = tls.is_some();
    let task = tokio::spawn(async move {
        loop {
            let (stream, peer) = match tcp.accept().await {
                Ok(s) => s,
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            };
            let _ = stream.set_nodelay(true);
            let (gw, tls) = (gw.clone(), tls.clone());
            tokio::spawn(async move {
                let service = service_fn(move |req| {
                    let gw = gw.clone();
                    async move { Ok::<_, std::convert::Infallible>(routes::handle(gw, req).await) }
                });
                let builder = auto::Builder::new(TokioExecutor::new());
                let result = match tls {
                    Some(acceptor) => match acceptor.accept(stream).await {
                        Ok(s) => builder.serve_connection(TokioIo::new(s), service).await,
                        Err(e) => {
                            tracing::debug!(%peer, error = %e, "TLS handshake failed");
                            return;
                        }
                    },
                    None => builder.serve_connection(TokioIo::new(stream), service).await,
                };
                if let Err(e) = result {
                    tracing::debug!(%peer, error = %e, "connection ended with an error");
                }
            });
        }
    });
    Ok(Listening { local_addr, tls: is_tls, task })
}

fn tls_acceptor(cert: &std::path::Path, key: &std::path::Path) -> Result<TlsAcceptor, BoxError> {
    let read = |p: &std::path::Path| std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()));
    let certs = rustls_pemfile::certs(&mut read(cert)?.as_slice())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("{}: {e}", cert.display()))?;
    let key = rustls_pemfile::private_key(&mut read(key)?.as_slice())
        .map_err(|e| format!("{}: {e}", key.display()))?
        .ok_or_else(|| format!("{}: no private key found", key.display()))?;
    let mut config =
        tokio_rustls::rustls::ServerConfig::builder().with_no_client_auth().with_single_cert(certs, key)?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}
