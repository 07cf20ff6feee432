//! Each upstream connection keeps count of its exchanges and of the answer bytes read since the
//! latest one began, so that a failed request can say whether it died on a reused keep-alive
//! connection before a single byte of answer came back: the keep-alive race, where the upstream
//! closes an idle connection at the moment the gateway writes the next request on it. Such a
//! request never reached the upstream's application (the upstream had already given the
//! connection up), so sending it once more on a new connection is what every browser and
//! reverse proxy does. A request that got any byte of answer is never sent again.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::task::{Context, Poll};

use http::Uri;
use hyper_util::client::legacy::connect::{Connected, Connection, HttpConnector};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use crate::http::observed::{Observed, Observer};

/// One connection's exchanges. HTTP/1.1 on a client connection alternates: the request is
/// written, then its answer read. A write that follows a read (or the first write) begins the
/// next exchange.
#[derive(Default)]
struct Exchanges {
    started: AtomicU32,
    read_since_start: AtomicU64,
    read_last: AtomicBool,
}

/// A handle on a connection's [`Exchanges`], carried in its `Connected` info (and so in every
/// error hyper-util returns for a request sent on it).
#[derive(Clone, Default)]
pub(super) struct Watch(Arc<Exchanges>);

impl Watch {
    /// The connection had carried an exchange before this one, and nothing of this one's
    /// answer has been read.
    pub(super) fn reused_and_unanswered(&self) -> bool {
        self.0.started.load(Ordering::Relaxed) >= 2 && self.0.read_since_start.load(Ordering::Relaxed) == 0
    }

    /// The watch of the connection a failed request was sent on, if hyper-util says which
    /// (HTTP/2 connections are not watched: their streams interleave, and a server that stops
    /// one sends GOAWAY with the last stream it took).
    pub(super) fn of(info: &Connected) -> Option<Watch> {
        if info.is_negotiated_h2() {
            return None;
        }
        let mut ext = http::Extensions::new();
        info.get_extras(&mut ext);
        ext.get::<Watch>().cloned()
    }
}

/// `HttpConnector` whose connections are watched.
#[derive(Clone)]
pub(super) struct WatchedConnector {
    pub(super) inner: HttpConnector,
}

impl tower_service::Service<Uri> for WatchedConnector {
    type Response = WatchedIo;
    type Error = <HttpConnector as tower_service::Service<Uri>>::Error;
    type Future = Pin<Box<dyn Future<Output = Result<WatchedIo, Self::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, dst: Uri) -> Self::Future {
        let connecting = self.inner.call(dst);
        Box::pin(async move { Ok(WatchedIo::over(connecting.await?.into_inner()).0) })
    }
}

/// The TCP stream, counting as it goes.
type Counting = Observed<TcpStream, Watch>;

impl Observer for Watch {
    fn read(&mut self, bytes: &[u8]) {
        self.0.read_since_start.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        self.0.read_last.store(true, Ordering::Relaxed);
    }

    fn wrote(&mut self, _: usize) {
        let e = &self.0;
        if e.read_last.swap(false, Ordering::Relaxed) || e.started.load(Ordering::Relaxed) == 0 {
            e.started.fetch_add(1, Ordering::Relaxed);
            e.read_since_start.store(0, Ordering::Relaxed);
        }
    }
}

/// What the TLS layer (or hyper, for `http://`) reads and writes.
pub(super) struct WatchedIo(TokioIo<Counting>);

impl WatchedIo {
    /// A new connection's stream, watched, and its watch.
    pub(super) fn over(tcp: TcpStream) -> (WatchedIo, Watch) {
        let watch = Watch::default();
        (WatchedIo(TokioIo::new(Observed { stream: tcp, observer: watch.clone() })), watch)
    }
}

impl Connection for WatchedIo {
    fn connected(&self) -> Connected {
        let inner = self.0.inner();
        inner.stream.connected().extra(inner.observer.clone())
    }
}

impl hyper::rt::Read for WatchedIo {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: hyper::rt::ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl hyper::rt::Write for WatchedIo {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.0.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }
}

/// The upstream gave the connection up under the request: it ended (EOF before an answer
/// head) or reset it, or the write found it gone.
pub(super) fn connection_lost(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cur = Some(e);
    while let Some(err) = cur {
        if let Some(h) = err.downcast_ref::<hyper::Error>()
            && h.is_incomplete_message()
        {
            return true;
        }
        if let Some(io) = err.downcast_ref::<io::Error>()
            && matches!(
                io.kind(),
                io::ErrorKind::ConnectionReset
                    | io::ErrorKind::ConnectionAborted
                    | io::ErrorKind::BrokenPipe
                    | io::ErrorKind::UnexpectedEof
            )
        {
            return true;
        }
        cur = err.source();
    }
    false
}
