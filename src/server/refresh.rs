//! Keeps the catalogue's decisions current while the gateway runs: when a background
//! judgement lands, that upstream's views are re-decided; when one upstream's tool names
//! change, every other upstream is (its cross-server findings may change). Each upstream
//! whose visible tools changed is announced, and its listening clients are told to list
//! again. What was re-scored is recorded here, the edge, as everywhere (`crate::record`).

use std::sync::{Arc, Weak};

use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::RecvError;

use crate::catalog::Catalog;
use crate::scoring::service::ScoringService;

/// Starts the two watchers; they end when the catalogue or the scoring service is dropped.
pub fn watch(catalog: &Arc<Catalog>, scoring: &Arc<ScoringService>) {
    let (weak, scoring_rx, svc) = (Arc::downgrade(catalog), scoring.subscribe(), Arc::downgrade(scoring));
    tokio::spawn(refinements(weak.clone(), svc.clone(), scoring_rx));
    tokio::spawn(roster(weak, svc, catalog.roster.subscribe()));
}

/// Re-decides every view of `upstream`; true when any tool's visibility changed.
fn redecide(catalog: &Catalog, scoring: &Arc<ScoringService>, upstream: &str) -> bool {
    let mut changed = false;
    for tools in catalog.all_views(upstream) {
        changed |= crate::record::refreshed(upstream, &tools.refresh(scoring));
    }
    changed
}

async fn refinements(catalog: Weak<Catalog>, scoring: Weak<ScoringService>, mut rx: Receiver<Arc<str>>) {
    loop {
        let upstream = match rx.recv().await {
            Ok(u) => u,
            Err(RecvError::Lagged(_)) => continue,
            Err(RecvError::Closed) => return,
        };
        let (Some(catalog), Some(scoring)) = (catalog.upgrade(), scoring.upgrade()) else { return };
        if redecide(&catalog, &scoring, &upstream) {
            tracing::info!(upstream = %upstream, "visible tools changed after scoring; notifying sessions");
            catalog.announce(upstream);
        }
    }
}

async fn roster(catalog: Weak<Catalog>, scoring: Weak<ScoringService>, mut rx: Receiver<Arc<str>>) {
    loop {
        let changed = match rx.recv().await {
            Ok(u) => Some(u),
            // Missed some: re-decide everyone.
            Err(RecvError::Lagged(_)) => None,
            Err(RecvError::Closed) => return,
        };
        let (Some(catalog), Some(scoring)) = (catalog.upgrade(), scoring.upgrade()) else { return };
        for name in catalog.upstreams.keys() {
            if changed.as_deref().is_some_and(|c| c == name.as_str()) {
                continue;
            }
            // Every view: an identity rule's table holds its own verdicts, and a look-alike
            // that appeared elsewhere must hide the tool in it too.
            if redecide(&catalog, &scoring, name) {
                tracing::info!(upstream = %name, cause = ?changed.as_deref(), "visible tools changed after another upstream's tools changed; notifying sessions");
                catalog.announce(Arc::from(name.as_str()));
            }
        }
    }
}
