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

/// A running listener (and the admin API's own, when `admin.addr` is set).
pub struct Listening {
    pub local_addr: SocketAddr,
    pub tls: bool,
    /// The separate admin listener's address.
    pub admin_addr: Option<SocketAddr>,
    pub task: tokio::task::JoinHandle<()>,
}

/// Which routes a listener serves.
#[derive(Clone, Copy)]
enum Role {
    Main,
    Admin,
}

/// Binds the configured address (and `admin.addr`) and serves until the task is dropped or
/// aborted.
pub async fn serve(gw: Arc<Gateway>) -> Result<Listening, BoxError> {
    let listen = &gw.config.listen;
    let tcp = TcpListener::bind(listen.addr).await.map_err(|e| format!("cannot listen on {}: {e}", listen.addr))?;
    let local_addr = tcp.local_addr()?;
    let admin_tcp = match gw.admin.as_ref().and_then(|a| a.separate_addr()) {
        Some(addr) => {
            Some(TcpListener::bind(addr).await.map_err(|e| format!("cannot listen on {addr} (admin.addr): {e}"))?)
        }
        None => None,
    };
    let admin_addr = admin_tcp.as_ref().map(TcpListener::local_addr).transpose()?;
    let tls = match (&listen.tls_cert, &listen.tls_key) {
        (Some(cert), Some(key)) => Some(tls_acceptor(&gw.config.resolve(cert), &gw.config.resolve(key))?),
        _ => None,
    };
    let is_tls = tls.is_some();
    let task = tokio::spawn(async move {
        let main = accept_loop(gw.clone(), tcp, tls.clone(), Role::Main);
        match admin_tcp {
            Some(admin) => drop(tokio::join!(main, accept_loop(gw, admin, tls, Role::Admin))),
            None => main.await,
        }
    });
    Ok(Listening { local_addr, tls: is_tls, admin_addr, task })
}

async fn accept_loop(gw: Arc<Gateway>, tcp: TcpListener, tls: Option<TlsAcceptor>, role: Role) {
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
                async move {
                    Ok::<_, std::convert::Infallible>(match role {
                        Role::Main => routes::handle(gw, req).await,
                        Role::Admin => crate::admin::handle_listener(gw, req).await,
                    })
                }
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
