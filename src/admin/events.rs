//! `GET /admin/api/events`: a server-sent event stream telling the dashboard when to refresh.
//! `scores` comes at once when a judgement lands or an approval changes decisions (the scoring
//! service's change feed); `changed` when anything else the dashboard shows moved (a first
//! listing, a server report finished in the background, a refused call), noticed by comparing
//! a fingerprint of the admin state every second. A comment every 15 s keeps proxies from
//! closing an idle stream.

use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::Response;
use serde_json::json;
use tokio::sync::broadcast;

use super::Console;
use crate::http::Body;
use crate::http::body::{channel_body, sse_response};

const TICK: Duration = Duration::from_secs(1);
const KEEPALIVE_TICKS: u32 = 15;

/// A hash of what the dashboard shows: tool decisions and scores, reports, refused calls.
pub fn fingerprint(console: &Console) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    console.scoring.generation().hash(&mut h);
    let mut names: Vec<&String> = console.catalog.upstreams.keys().collect();
    names.sort();
    for name in names {
        let up = &console.catalog.upstreams[name];
        name.hash(&mut h);
        for v in up.snapshot() {
            (v.name, v.visible, v.state, v.pin.map(|p| p as u8)).hash(&mut h);
            v.score.as_ref().map(|s| (s.tdqs, s.context_signals.input_hash.clone())).hash(&mut h);
        }
        up.report().map(|r| r.report.generated_at.clone()).hash(&mut h);
        let refused = up.refused_calls();
        (refused.len(), refused.last().map(|r| r.at)).hash(&mut h);
    }
    h.finish()
}

fn event(name: &str, data: &serde_json::Value) -> Bytes {
    Bytes::from(format!("event: {name}\ndata: {data}\n\n"))
}

pub fn stream(console: &Arc<Console>) -> Response<Body> {
    let (tx, body) = channel_body();
    let mut changes = console.scoring.subscribe();
    let weak = Arc::downgrade(console);
    let mut last = fingerprint(console);
    tokio::spawn(async move {
        let send = |b: Bytes| tx.send(Ok(http_body::Frame::data(b)));
        if send(event("hello", &json!({ "retryMs": 2000 }))).await.is_err() {
            return;
        }
        let mut tick = tokio::time::interval(TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut ticks = 0u32;
        loop {
            let frame = tokio::select! {
                change = changes.recv() => match change {
                    Ok(upstream) => Some(event("scores", &json!({ "upstream": &*upstream }))),
                    Err(broadcast::error::RecvError::Lagged(_)) => Some(event("scores", &json!({ "upstream": "*" }))),
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                _ = tick.tick() => {
                    if tx.is_closed() {
                        return;
                    }
                    let Some(console) = weak.upgrade() else { return };
                    let now = fingerprint(&console);
                    ticks += 1;
                    if now != last {
                        last = now;
                        Some(event("changed", &json!({})))
                    } else if ticks.is_multiple_of(KEEPALIVE_TICKS) {
                        Some(Bytes::from_static(b": keepalive\n\n"))
                    } else {
                        None
                    }
                }
            };
            // The client went away: the body (and its receiver) was dropped.
            if let Some(frame) = frame
                && send(frame).await.is_err()
            {
                return;
            }
        }
    });
    sse_response(body)
}
