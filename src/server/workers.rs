//! Thread-per-core serving (`serve --runtime per-core`): one current-thread Tokio runtime per
//! core, each running the connections handed to it whole. A connection's request, the
//! handler, the upstream connection it is sent on (each worker has its own pool, see
//! `proxy/upstream_client.rs`) and the answer then run on one thread, with no wake-up of a
//! second worker for each request, which is what the multi-thread runtime costs on a loaded
//! hop (benches/PROFILE.md: a third more CPU per call at one connection).
//!
//! The accept loop stays on the main runtime and hands each accepted socket to the worker
//! with the fewest open connections (one cross-thread wake per connection, not per request).
//! Background work (judging, the store, telemetry export) stays on the main runtime too.
//! What a worker gives up is stealing: a task that holds its thread (scoring a very large
//! first list) delays the other connections of that worker, not those of the others.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::runtime::Handle;
use tokio::sync::oneshot;

/// The serving workers.
pub struct Workers {
    workers: Vec<Worker>,
}

struct Worker {
    handle: Handle,
    /// Connections open on this worker, for handing the next one to the least busy.
    open: Arc<AtomicUsize>,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

/// Decrements a worker's open count when its connection ends, however it ends.
struct Open(Arc<AtomicUsize>);

impl Drop for Open {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Workers {
    /// Starts `n` workers (at least one), each a thread running its own current-thread runtime.
    pub fn start(n: usize) -> std::io::Result<Workers> {
        let mut workers = Vec::with_capacity(n.max(1));
        for i in 0..n.max(1) {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            let handle = runtime.handle().clone();
            let (stop, stopped) = oneshot::channel::<()>();
            let thread = std::thread::Builder::new().name(format!("tdqs-serve-{i}")).spawn(move || {
                // Its requests go out on a pool of its own.
                crate::proxy::upstream_client::set_pool_slot(i + 1);
                // The thread drives its runtime until told to stop; the connections run as
                // tasks spawned onto it through `handle`.
                let _ = runtime.block_on(stopped);
                runtime.shutdown_timeout(Duration::from_millis(500));
            })?;
            workers.push(Worker {
                handle,
                open: Arc::new(AtomicUsize::new(0)),
                stop: Some(stop),
                thread: Some(thread),
            });
        }
        Ok(Workers { workers })
    }

    /// Runs the connection `serve` makes on the worker with the fewest open connections. The
    /// future is built on the worker's thread, so the sockets it registers (the accepted one
    /// turned back from `std`, the upstream's) belong to that worker's reactor.
    pub fn run<F, Fut>(&self, serve: F)
    where
        F: FnOnce() -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let w = self.workers.iter().min_by_key(|w| w.open.load(Ordering::Relaxed)).expect("at least one worker");
        w.open.fetch_add(1, Ordering::Relaxed);
        let open = Open(w.open.clone());
        drop(w.handle.spawn(async move {
            let _open = open;
            serve().await;
        }));
    }

    /// Stops every worker: their runtimes drop what is still running (the listener has
    /// already waited out its grace period) and their threads are joined.
    pub fn stop(mut self) {
        self.signal();
        for w in &mut self.workers {
            if let Some(t) = w.thread.take() {
                let _ = t.join();
            }
        }
    }

    /// Tells every worker not yet told to stop.
    fn signal(&mut self) {
        for w in &mut self.workers {
            if let Some(stop) = w.stop.take() {
                let _ = stop.send(());
            }
        }
    }
}

/// Dropped without [`Workers::stop`] (the listener still held them): the threads are told to
/// stop and end on their own.
impl Drop for Workers {
    fn drop(&mut self) {
        self.signal();
    }
}
