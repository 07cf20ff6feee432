//! The listener: accepts TCP (or TLS through rustls when a certificate is configured) and
//! serves each connection with its own HTTP/1.1 server (`h1/`) until a request that server
//! does not take, then with hyper (HTTP/1.1 and HTTP/2), within the `[listen]` bounds: a
//! cap on connections (past it the gateway stops accepting), a TLS handshake deadline, a
//! deadline for a request's headers and for a connection's first request, HTTP/2 streams per
//! connection, and an idle keep-alive limit. On shutdown every connection is asked to finish
//! and the listener waits for them up to a grace period.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio_rustls::TlsAcceptor;

use super::App;
use super::activity::{Activity, Limits, Tracked, watched};
use super::h1;
use super::rewind::Rewind;
use super::routes::{self, Role};
use super::workers::Workers;
use crate::http::BoxError;
use crate::http::request_body::{ClientBody, RequestBody};

/// A running listener (and the admin API's own, when `admin.addr` is set).
pub struct Listening {
    pub local_addr: SocketAddr,
    pub tls: bool,
    /// The separate admin listener's address.
    pub admin_addr: Option<SocketAddr>,
    pub task: tokio::task::JoinHandle<()>,
    stop: watch::Sender<bool>,
    connections: Arc<Semaphore>,
    max_connections: usize,
}

impl Listening {
    /// Stops accepting, asks every connection to finish what it is doing, and waits until they
    /// have or `grace` is over. Returns how many connections were still open then.
    pub async fn shutdown(self, grace: Duration) -> usize {
        let _ = self.stop.send(true);
        self.task.abort();
        let all = u32::try_from(self.max_connections).unwrap_or(u32::MAX);
        match tokio::time::timeout(grace, self.connections.acquire_many(all)).await {
            Ok(_) => 0,
            Err(_) => self.max_connections - self.connections.available_permits(),
        }
    }
}

/// Binds the configured address (and `admin.addr`) and serves until shut down or the task is
/// dropped or aborted, every connection a task of the runtime that runs the listener.
pub async fn serve(app: Arc<App>) -> Result<Listening, BoxError> {
    serve_on(app, None).await
}

/// [`serve`], with each connection handed whole to one of `workers` when given
/// (`--runtime per-core`, `workers.rs`).
pub async fn serve_on(app: Arc<App>, workers: Option<Arc<Workers>>) -> Result<Listening, BoxError> {
    let serve = app.gateway.serve.clone();
    let listen = &serve.listen;
    let tcp = TcpListener::bind(listen.addr).await.map_err(|e| format!("cannot listen on {}: {e}", listen.addr))?;
    let local_addr = tcp.local_addr()?;
    let admin_tcp = match app.console.as_ref().and_then(|c| c.settings.separate_addr()) {
        Some(addr) => {
            Some(TcpListener::bind(addr).await.map_err(|e| format!("cannot listen on {addr} (admin.addr): {e}"))?)
        }
        None => None,
    };
    let admin_addr = admin_tcp.as_ref().map(TcpListener::local_addr).transpose()?;
    let tls = match (&listen.tls_cert, &listen.tls_key) {
        // Resolved against the config file's folder when the settings were taken out.
        (Some(cert), Some(key)) => Some(tls_acceptor(cert, key)?),
        _ => None,
    };
    let is_tls = tls.is_some();
    let max_connections = listen.max_connections;
    let connections = Arc::new(Semaphore::new(max_connections));
    let (stop, stopped) = watch::channel(false);
    let shared = Accepting { app, tls, connections: connections.clone(), stopped, workers };
    let task = tokio::spawn(async move {
        let main = accept_loop(shared.clone(), tcp, Role::Main);
        match admin_tcp {
            Some(admin) => drop(tokio::join!(main, accept_loop(shared, admin, Role::Admin))),
            None => main.await,
        }
    });
    Ok(Listening { local_addr, tls: is_tls, admin_addr, task, stop, connections, max_connections })
}

/// What every accepted connection shares.
#[derive(Clone)]
struct Accepting {
    app: Arc<App>,
    tls: Option<TlsAcceptor>,
    connections: Arc<Semaphore>,
    stopped: watch::Receiver<bool>,
    workers: Option<Arc<Workers>>,
}

async fn accept_loop(a: Accepting, tcp: TcpListener, role: Role) {
    loop {
        // At the cap, stop accepting until a connection closes: new ones wait in the backlog.
        let Ok(permit) = a.connections.clone().acquire_owned().await else { return };
        let (stream, peer) = match tcp.accept().await {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!(error = %e, "accept failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let Some(workers) = a.workers.clone() else {
            tokio::spawn(connection(a.clone(), stream, peer, role, permit));
            continue;
        };
        // Off this runtime's reactor, onto the worker's (registered again on its thread).
        match stream.into_std() {
            Ok(std) => {
                let a = a.clone();
                workers.run(move || async move {
                    match tokio::net::TcpStream::from_std(std) {
                        Ok(stream) => connection(a, stream, peer, role, permit).await,
                        Err(e) => tracing::warn!(%peer, error = %e, "cannot hand a connection to its worker"),
                    }
                });
            }
            Err(e) => tracing::warn!(%peer, error = %e, "cannot hand a connection to a worker"),
        }
    }
}

/// One accepted connection: its TLS handshake (within the deadline), then HTTP on it; the
/// permit counts it against the connection cap until it ends.
async fn connection(
    a: Accepting,
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    role: Role,
    permit: tokio::sync::OwnedSemaphorePermit,
) {
    let _permit = permit;
    let limits = &a.app.gateway.serve.listen;
    let handshake = Duration::from_millis(limits.tls_handshake_timeout_ms);
    match &a.tls {
        Some(acceptor) => match tokio::time::timeout(handshake, acceptor.accept(stream)).await {
            Ok(Ok(s)) => serve_connection(&a, s, role, peer).await,
            Ok(Err(e)) => tracing::debug!(%peer, error = %e, "TLS handshake failed"),
            Err(_) => tracing::debug!(%peer, "TLS handshake timed out"),
        },
        None => serve_connection(&a, stream, role, peer).await,
    }
}

/// Serves one connection until it ends, it idles past the keep-alive limit, it starts a request
/// whose headers do not arrive in time (or sends no first request in time), or the listener
/// shuts down. The clocks are `activity.rs`'s, whichever server reads the connection.
async fn serve_connection<S>(a: &Accepting, stream: S, role: Role, peer: SocketAddr)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let config = &a.app.gateway.serve.listen;
    let limits = Limits {
        header_read: Duration::from_millis(config.header_read_timeout_ms),
        keep_alive: Duration::from_millis(config.keep_alive_timeout_ms),
    };
    let activity = Activity::new();
    let stopped = on_this_thread(&a.stopped);
    let own = h1::Conn { app: a.app.clone(), role, limits, activity: activity.clone(), stopped, peer };
    let (stream, read, served) = match h1::serve(stream, own).await {
        h1::Outcome::Closed => return,
        h1::Outcome::HandOff { io, read, served } => (io, read, served),
    };
    let (app, requests) = (a.app.clone(), activity.clone());
    let service = service_fn(move |req: http::Request<hyper::body::Incoming>| {
        let app = app.clone();
        let in_flight = requests.begin();
        async move {
            let req = req.map(ClientBody::from);
            let body = RequestBody::of(&req);
            let resp = routes::answer(&app, role, req, &body).await;
            Ok::<_, std::convert::Infallible>(body.close_if_unread(resp).map(|b| Tracked::new(b, in_flight)))
        }
    });
    let mut builder = auto::Builder::new(TokioExecutor::new());
    if served {
        // hyper's auto-detection takes the HTTP/2 preface at the start of what it reads for an
        // HTTP/2 connection. After a request the own server answered, that is mid-connection:
        // hyper, had it read the connection from its first byte, would be on HTTP/1.1 and close
        // at the preface; so it does here, rather than switch the connection to HTTP/2.
        builder = builder.http1_only();
    }
    builder.http2().timer(TokioTimer::new()).max_concurrent_streams(config.max_streams_per_connection);
    let conn = builder.serve_connection(TokioIo::new(watched(Rewind::new(read, stream), activity.clone())), service);
    tokio::pin!(conn);
    // The loop wakes only on its timer (`Activity::next_look`), never per request.
    let sleep = tokio::time::sleep(limits.header_read);
    tokio::pin!(sleep);
    let mut stopped = a.stopped.clone();
    let mut closing = false;
    loop {
        sleep.as_mut().reset(activity.next_look(limits, Instant::now()).into());
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(e) = result {
                    tracing::debug!(%peer, error = %e, "connection ended with an error");
                }
                return;
            }
            () = &mut sleep, if !closing => {
                if activity.deadline(limits).is_some_and(|d| d <= Instant::now()) {
                    if !activity.is_h2() {
                        // Nothing is in flight: an idle HTTP/1 connection or a request head
                        // that did not arrive in time (which hyper's graceful close would wait
                        // for on a first request) is simply closed.
                        tracing::debug!(%peer, "connection closed: idle, or a request's headers came too late");
                        return;
                    }
                    // HTTP/2: GOAWAY, so the client knows not to open more streams here.
                    conn.as_mut().graceful_shutdown();
                    closing = true;
                }
            }
            Ok(()) = stopped.changed(), if !closing => {
                conn.as_mut().graceful_shutdown();
                closing = true;
            }
        }
    }
}

thread_local! {
    /// The listeners' stop signals as this thread's connections watch them (see
    /// [`on_this_thread`]): (the listener's receiver, this thread's).
    static STOPS: std::cell::RefCell<Vec<(watch::Receiver<bool>, watch::Receiver<bool>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The listener's stop signal, relayed to a channel of the calling thread's own. A connection
/// waiting for its next request registers with the channel it watches and leaves it when the
/// request comes: on the listener's one channel that was a lock every serving thread took,
/// twice per request (`benches/PROFILE.md`, session 27). A relay task per thread and listener
/// passes the signal on (and ends with the listener, closing the thread's channel).
fn on_this_thread(global: &watch::Receiver<bool>) -> watch::Receiver<bool> {
    STOPS.with(|stops| {
        let mut stops = stops.borrow_mut();
        // Relays whose listener is gone are forgotten.
        stops.retain(|(g, _)| g.has_changed().is_ok());
        if let Some((_, local)) = stops.iter().find(|(g, _)| g.same_channel(global)) {
            return local.clone();
        }
        let (tx, local) = watch::channel(*global.borrow());
        let mut relayed = global.clone();
        tokio::spawn(async move {
            while relayed.changed().await.is_ok() {
                let now = *relayed.borrow_and_update();
                if tx.send(now).is_err() {
                    return;
                }
            }
        });
        stops.push((global.clone(), local.clone()));
        local
    })
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
