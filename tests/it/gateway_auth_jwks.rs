//! The issuer's JWKS is fetched on a bounded schedule whatever callers send: a flood of
//! tokens naming made-up `kid`s (which a hostile client makes without any key: the gateway
//! looks the key up before it can check a signature) costs the issuer at most one fetch per
//! `jwks_min_refresh_ms` (and does cost one after each window: unknown kids still refetch), a
//! rotated key is still picked up, and an issuer whose JWKS cannot be
//! read is asked at most once a second while every request fails closed with 503. The JWKS is
//! read through a recording tap in front of oidc-provider, which counts the fetches.

use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use serde_json::json;

use crate::support::oidc::{Oidc, flood, status_with_token as status};
use crate::support::rig::{Gateway, Rig, Upstream, eventually_async, free_port};
use crate::support::tap::Tap;

const MIN_REFRESH_MS: u64 = 200;

fn config(oidc: &Oidc, jwks: &str, min_refresh_ms: u64, upstream: &str) -> String {
    format!(
        r#"
[auth]
issuer = "{issuer}"
resource = "{{{{GATEWAY}}}}"
jwks_url = "{jwks}"
jwks_min_refresh_ms = {min_refresh_ms}
[[upstream]]
name = "issues"
url = "{upstream}"
"#,
        issuer = oidc.issuer(),
    )
}

/// A JWT naming key `kid`, with good claims and a signature nobody made.
fn forged(oidc: &Oidc, route: &str, kid: &str) -> String {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let header = json!({"alg": "RS256", "typ": "at+jwt", "kid": kid});
    let claims =
        json!({"iss": oidc.issuer(), "aud": route, "sub": "flood", "scope": "mcp", "iat": now, "exp": now + 600});
    let part = |v: serde_json::Value| B64.encode(serde_json::to_vec(&v).unwrap());
    format!("{}.{}.{}", part(header), part(claims), B64.encode([7u8; 256]))
}

fn fetches(tap: &Tap, path: &str) -> usize {
    tap.exchanges().iter().filter(|e| e.path == path).count()
}

/// The most fetches a limit of one per `gap` allows in `elapsed` (one at each end).
fn allowed(elapsed: Duration, gap: Duration) -> usize {
    (elapsed.as_millis() / gap.as_millis()) as usize + 1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_kids_cannot_make_the_gateway_hammer_the_issuer() {
    let rig = Rig::new("auth-jwks-flood");
    let port = free_port();
    // A slow JWKS (each fetch takes longer than the limit's gap), so requests pile up behind a
    // fetch, as they do at a busy gateway: they must not each fetch again when it ends.
    let slow = [("JWKS_DELAY_MS", "300")];
    let mut oidc = Oidc::start_with(&rig, port, "oidc", &slow).await;
    let upstream = Upstream::fastmcp(&rig, &[]).await;
    let tap = Tap::start(&oidc.issuer()).await;
    let gw = Gateway::start(&rig, "", &config(&oidc, &tap.url("/jwks"), MIN_REFRESH_MS, &upstream.url())).await;
    let route = gw.url("issues");
    let http = reqwest::Client::new();

    let good = oidc.token("alice-app", "mcp tools:read", &route).await;
    // The span the limit is checked over starts before the first fetch.
    let span = Instant::now();
    assert_eq!(status(&http, &route, &good).await, 200);
    assert_eq!(fetches(&tap, "/jwks"), 1, "the first token fetched the JWKS");

    // Rounds of made-up kids until the flood has spanned several refresh windows, and at least
    // three rounds whatever the clock says (on a loaded machine the first token alone can take
    // longer than the windows, and a flood that never ran would prove nothing).
    let mut n = 0;
    while n < 300 || span.elapsed() < Duration::from_millis(6 * MIN_REFRESH_MS) {
        let tokens = (n..n + 100).map(|i| forged(&oidc, &route, &format!("made-up-{i}"))).collect();
        let (statuses, _) = flood(&route, tokens).await;
        assert!(statuses.iter().all(|s| *s == 401), "every made-up kid is refused: {statuses:?}");
        n += 100;
    }
    let (total, elapsed) = (fetches(&tap, "/jwks"), span.elapsed());
    let bound = allowed(elapsed, Duration::from_millis(MIN_REFRESH_MS));
    eprintln!("{n} unknown-kid tokens in {elapsed:?}: {total} JWKS fetches in all (at most {bound} allowed)");
    assert!(
        (2..=bound).contains(&total),
        "{total} fetches in {elapsed:?} with {n} unknown kids; the limit allows 2 to {bound}"
    );
    assert_eq!(status(&http, &route, &good).await, 200, "the known key still works");

    // A real rotation is still picked up (within the limit), and the count stays bounded.
    let started = Instant::now();
    oidc.proc.stop();
    let oidc = Oidc::start_with(&rig, port, "oidc-rotated", &slow).await;
    let rotated = oidc.token("alice-app", "mcp tools:read", &route).await;
    eventually_async("the rotated key is accepted", Duration::from_secs(20), async || {
        (status(&http, &route, &rotated).await == 200).then_some(())
    })
    .await;
    let since = fetches(&tap, "/jwks") - total;
    let bound = allowed(started.elapsed(), Duration::from_millis(MIN_REFRESH_MS));
    assert!((1..=bound).contains(&since), "{since} fetches to pick up a rotation; the limit allows {bound}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_jwks_is_asked_once_a_second_and_requests_fail_closed() {
    let rig = Rig::new("auth-jwks-down");
    let oidc = Oidc::start(&rig, free_port(), "oidc").await;
    let upstream = Upstream::fastmcp(&rig, &[]).await;
    let tap = Tap::start(&oidc.issuer()).await;
    // oidc-provider answers 404 here: the issuer's keys cannot be read at all.
    let gw = Gateway::start(&rig, "", &config(&oidc, &tap.url("/gone/jwks"), 30_000, &upstream.url())).await;
    let route = gw.url("issues");

    let good = oidc.token("alice-app", "mcp tools:read", &route).await;
    let span = Instant::now();
    let mut n = 0;
    while span.elapsed() < Duration::from_millis(2200) {
        let mut tokens: Vec<String> = (n..n + 80).map(|i| forged(&oidc, &route, &format!("k-{i}"))).collect();
        tokens.extend(std::iter::repeat_n(good.clone(), 20));
        let (statuses, _) = flood(&route, tokens).await;
        assert!(statuses.iter().all(|s| *s == 503), "no keys: every request fails closed with 503: {statuses:?}");
        n += 100;
    }
    let (attempts, elapsed) = (fetches(&tap, "/gone/jwks"), span.elapsed());
    let bound = allowed(elapsed, Duration::from_secs(1));
    eprintln!("{n} tokens without readable keys in {elapsed:?}: {attempts} JWKS attempts (at most {bound})");
    assert!((2..=bound).contains(&attempts), "{attempts} attempts in {elapsed:?}; the limit allows 2 to {bound}");
    assert!(!gw.log_text().contains("panicked"));
}
