//! What the gateway remembers per MCP session: the ids of the client's recent `tools/list`
//! requests, so that an answer replayed later (a GET with `Last-Event-ID`) is still recognised
//! and rewritten. A session is forgotten after `listen.session_idle_ms` without a request, on
//! DELETE, or when the upstream no longer knows it (404).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::mcp::message::IdKey;

/// Recent list request ids kept per session.
const IDS_PER_SESSION: usize = 256;

#[derive(Default)]
pub struct Session {
    list_ids: Mutex<VecDeque<IdKey>>,
    /// The principal the session belongs to (with `[auth]` on) and whether the gateway saw
    /// the session issued to it: the one that opened it, or the first to use it when the
    /// gateway did not see it open (a restart). An issue seen later overrides a first use, so
    /// a caller who sends an id before the upstream issues it to someone else (a guessed or
    /// predicted id) does not own that session.
    owner: Mutex<Option<(String, bool)>>,
    /// The session's GET streams still opening upstream, which later requests wait for.
    pub order: super::order::Order,
}

impl Session {
    /// Binds the session to `p`, or checks that it is `p`'s: false when another principal
    /// owns it.
    pub fn bind(&self, p: &crate::auth::Principal) -> bool {
        let mut owner = self.owner.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match &*owner {
            Some((o, _)) => p.is_bound_as(o),
            None => {
                *owner = Some((p.binding(), false));
                true
            }
        }
    }

    /// Whether the gateway saw the session issued (by the upstream's answer to its opening).
    pub fn seen_issued(&self) -> bool {
        matches!(&*self.owner.lock().unwrap_or_else(std::sync::PoisonError::into_inner), Some((_, true)))
    }

    /// Whether the session is `p`'s or nobody's yet (a read; [`Session::bind`] takes it).
    pub fn belongs_to(&self, p: &crate::auth::Principal) -> bool {
        let owner = self.owner.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        owner.as_ref().is_none_or(|(o, _)| p.is_bound_as(o))
    }

    /// The session was just issued to `p` (an answer opened it for `p`'s request): `p` owns
    /// it, whoever used the id before the issue. A session already seen issued keeps its
    /// first owner.
    pub fn issued_to(&self, p: &crate::auth::Principal) {
        let mut owner = self.owner.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if !matches!(&*owner, Some((_, true))) {
            *owner = Some((p.binding(), true));
        }
    }

    /// Remembers a list request's id (a key, see [`IdKey`]). A poisoned lock is still read:
    /// the queue holds no invariant a panic could break.
    pub fn remember_list_id(&self, id: &IdKey) {
        let mut ids = self.list_ids.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if ids.contains(id) {
            return;
        }
        if ids.len() == IDS_PER_SESSION {
            ids.pop_front();
        }
        ids.push_back(id.clone());
    }

    /// Whether `id` (a key, see [`IdKey`]) is one of the remembered list requests'.
    pub fn is_list_id(&self, id: &str) -> bool {
        self.list_ids.lock().unwrap_or_else(std::sync::PoisonError::into_inner).iter().any(|l| l == id)
    }
}

/// Sessions by (upstream, session id).
pub struct Sessions {
    cache: moka::sync::Cache<(String, String), Arc<Session>>,
    /// Requests that may open a session, in flight (see `openings.rs`).
    pub openings: super::openings::OpeningsInFlight,
}

/// Sessions remembered at most; past it the least recently used are forgotten first.
const MAX_SESSIONS: u64 = 100_000;

impl Sessions {
    pub fn new(idle: Duration) -> Self {
        Sessions {
            cache: moka::sync::Cache::builder().max_capacity(MAX_SESSIONS).time_to_idle(idle).build(),
            openings: Default::default(),
        }
    }

    pub fn get(&self, upstream: &str, session_id: &str) -> Arc<Session> {
        self.cache.get_with((upstream.to_owned(), session_id.to_owned()), || Arc::new(Session::default()))
    }

    /// Sessions remembered for `upstream` (a walk over the table: for metric collection, not
    /// the request path).
    pub fn count(&self, upstream: &str) -> u64 {
        self.cache.iter().filter(|(k, _)| k.0 == upstream).count() as u64
    }

    pub fn end(&self, upstream: &str, session_id: &str) {
        self.cache.invalidate(&(upstream.to_owned(), session_id.to_owned()));
    }

    /// A session the upstream (or a stdio child) just opened belongs to the caller who opened
    /// it, even if someone sent its id before it was issued. An answer that only repeats the
    /// id the request carried (`sent`) issues nothing (that request was bound on its way in).
    pub fn bind_issued(
        &self,
        upstream: &str,
        sent: Option<&str>,
        answer: &http::HeaderMap,
        caller: Option<&crate::auth::Principal>,
    ) {
        let issued = answer.get(super::headers::SESSION_HEADER).and_then(|v| v.to_str().ok());
        if let (Some(p), Some(sid)) = (caller, issued)
            && sent != Some(sid)
        {
            self.get(upstream, sid).issued_to(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::principal::{Principal, Proof};

    fn who(sub: &str) -> Principal {
        let mut claims = serde_json::Map::new();
        claims.insert("iss".into(), "https://as.example".into());
        claims.insert("sub".into(), sub.into());
        Principal::from_claims(claims, Proof::Jwt)
    }

    #[test]
    fn an_id_sent_before_it_was_issued_does_not_win_the_session() {
        let (mallory, alice) = (who("mallory"), who("alice"));
        let s = Session::default();
        // Mallory sends a predicted id first; then the upstream issues it to Alice.
        assert!(s.bind(&mallory));
        s.issued_to(&alice);
        assert!(!s.bind(&mallory), "the session is Alice's once issued to her");
        assert!(s.bind(&alice));
        // A later answer naming the same id for Mallory's request does not take it back.
        s.issued_to(&mallory);
        assert!(!s.bind(&mallory) && s.bind(&alice));
        // Without an issue seen (a gateway restart), the first to use it owns it.
        let restarted = Session::default();
        assert!(restarted.bind(&alice) && !restarted.bind(&mallory));
    }
}
