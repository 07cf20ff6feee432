//! Session-less (2026-07-28) requests on a stdio upstream. That revision has no session: each
//! request carries its envelope in `params._meta` and stands alone. A stdio server still needs a
//! process to answer, so the gateway keeps idle children per caller and view: a request takes
//! one (or starts one, under the upstream's `max_sessions` cap, which counts these too), has it
//! to itself until its answer ends, and gives it back.
//!
//! Exclusive use is what keeps requests apart. Two callers may both send id 1; a server's
//! progress or log notification names no request on stdio. Because only one request at a time
//! holds a child, whatever the child writes belongs to that request's stream, with no id
//! rewriting. A child is never shared between callers (principals) or policy views. One given
//! back with requests still open (the client left mid-call) is ended, not reused, so a late
//! answer cannot reach the next holder; one given back clean has its backlog emptied first.

use std::sync::{Arc, Weak};
use std::time::Duration;

use super::{StdioSession, StdioUpstream};
use crate::catalog::UpstreamTools;
use crate::mcp::message::Payload;

/// How long a session-less request waits for a child when the cap is reached and every child
/// is busy, before it is answered 503: long enough to ride out a burst of short calls.
const WAIT_FOR_CHILD: Duration = Duration::from_secs(10);

/// Who a pooled child belongs to: the authenticated caller (issuer and subject), or nobody when
/// `[auth]` is off.
pub fn owner_of(caller: Option<&crate::auth::Principal>) -> String {
    caller.map(|p| format!("{}\u{0}{}", p.issuer, p.subject)).unwrap_or_default()
}

/// Whether a POST without `Mcp-Session-Id` is a 2026-07-28 request that needs no session: one
/// request (2026-07-28 has no batches), not `initialize`, whose `params._meta` names a protocol
/// revision. Anything else keeps needing a session, as before that revision.
pub fn is_sessionless(parsed: Option<&Payload>, body: &[u8]) -> bool {
    let Some(Payload::Single(m)) = parsed else { return false };
    let Some(method) = m.method() else { return false };
    m.request_id().is_some() && method != "initialize" && crate::mcp::envelope::of_request(body).is_some()
}

/// A child held by one session-less request; given back (or ended) when dropped.
pub struct Lease {
    session: Arc<StdioSession>,
    upstream: Weak<StdioUpstream>,
}

impl Lease {
    pub fn session(&self) -> &Arc<StdioSession> {
        &self.session
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let Some(up) = self.upstream.upgrade() else { return };
        let s = self.session.clone();
        if s.is_ended() {
            return;
        }
        if s.has_pending() {
            tracing::debug!(upstream = %up.config.name, session = %s.id, "session-less child given back mid-request; ended");
            if let Ok(rt) = tokio::runtime::Handle::try_current() {
                rt.spawn(async move {
                    s.end(Some("its request was abandoned".into())).await;
                    up.remove(&s.id);
                });
            }
            return;
        }
        s.clear_backlog();
        s.touch();
        if let Ok(mut idle) = up.idle.lock() {
            idle.push(s);
        }
        up.given_back.notify_waiters();
    }
}

/// A session-less request's way to a child, borrowed only when something must reach the process:
/// the exchange's own listing (to decide on a call), then what the exchange forwards. A request
/// the exchange answers itself (unreadable, refused) neither starts nor waits for a process.
pub struct Borrowing<'a> {
    upstream: &'a Arc<StdioUpstream>,
    gw: &'a super::Gateway,
    tools: &'a Arc<UpstreamTools>,
    owner: String,
    lease: tokio::sync::OnceCell<Result<Lease, String>>,
}

impl<'a> Borrowing<'a> {
    pub fn new(
        upstream: &'a Arc<StdioUpstream>,
        gw: &'a super::Gateway,
        tools: &'a Arc<UpstreamTools>,
        owner: String,
    ) -> Self {
        Borrowing { upstream, gw, tools, owner, lease: tokio::sync::OnceCell::new() }
    }

    async fn borrowed(&self) -> &Result<Lease, String> {
        self.lease.get_or_init(|| self.upstream.checkout(self.gw, self.tools, self.owner.clone())).await
    }

    /// The child for what the exchange forwards: the one its listing borrowed, else one now.
    pub async fn into_lease(self) -> Result<Lease, String> {
        match self.lease.into_inner() {
            Some(lease) => lease,
            None => self.upstream.checkout(self.gw, self.tools, self.owner).await,
        }
    }
}

impl crate::proxy::exchange::Lister for Borrowing<'_> {
    fn list_page<'b>(
        &'b self,
        id: &'b str,
        request: Vec<u8>,
    ) -> futures_util::future::BoxFuture<'b, Result<Vec<u8>, String>> {
        Box::pin(async move {
            match self.borrowed().await {
                Ok(lease) => lease.session().list_page(id, request).await,
                Err(why) => Err(why.clone()),
            }
        })
    }
}

impl StdioUpstream {
    /// A child for one session-less request of `owner` seeing `tools`: an idle one of theirs
    /// (the most recently used, so one caller's requests keep meeting the same process), else a
    /// new one; at the cap, the next one given back, for up to [`WAIT_FOR_CHILD`]. Errs when
    /// none comes or the process cannot start.
    pub async fn checkout(
        self: &Arc<Self>,
        gw: &super::Gateway,
        tools: &Arc<UpstreamTools>,
        owner: String,
    ) -> Result<Lease, String> {
        let deadline = tokio::time::Instant::now() + WAIT_FOR_CHILD;
        loop {
            // Registered before looking, so a child given back meanwhile is not missed.
            let given_back = self.given_back.notified();
            let reused = self.idle.lock().ok().and_then(|mut idle| {
                idle.retain(|s| !s.is_ended());
                let pos =
                    idle.iter().rposition(|s| s.owner.as_deref() == Some(&owner) && Arc::ptr_eq(&s.tools, tools))?;
                Some(idle.remove(pos))
            });
            let started = match reused {
                Some(s) => Ok(s),
                None => self.start(gw, tools.clone(), Some(owner.clone())),
            };
            match started {
                Ok(session) => return Ok(Lease { session, upstream: Arc::downgrade(self) }),
                Err(super::Refused::Full(why)) => {
                    if tokio::time::timeout_at(deadline, given_back).await.is_err() {
                        return Err(why);
                    }
                }
                Err(e) => return Err(e.to_string()),
            }
        }
    }
}
