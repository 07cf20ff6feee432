//! A byte stream that tells an observer what passes through it: the client side (a
//! connection's idle and header clocks, `server/activity.rs`) and the upstream side (a pooled
//! connection's exchanges, `proxy/upstream_client/watched.rs`) both wrap their sockets in it.
//! Bytes pass unchanged; the observer only counts or notes the time.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// What a stream's observer is told.
pub trait Observer {
    /// Bytes were read (never called with none).
    fn read(&mut self, bytes: &[u8]);
    /// `n` bytes (at least one) were written.
    fn wrote(&mut self, _n: usize) {}
}

/// `stream`, with `observer` told of every read and write.
pub struct Observed<S, O> {
    pub stream: S,
    pub observer: O,
}

impl<S: AsyncRead + Unpin, O: Observer + Unpin> AsyncRead for Observed<S, O> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let this = &mut *self;
        let polled = Pin::new(&mut this.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            this.observer.read(&buf.filled()[before..]);
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin, O: Observer + Unpin> Observed<S, O> {
    fn wrote(&mut self, polled: &Poll<io::Result<usize>>) {
        if let Poll::Ready(Ok(n)) = polled
            && *n > 0
        {
            self.observer.wrote(*n);
        }
    }
}

impl<S: AsyncWrite + Unpin, O: Observer + Unpin> AsyncWrite for Observed<S, O> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.wrote(&polled);
        polled
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.wrote(&polled);
        polled
    }
    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
