//! A hostile client sending opaque garbage as bearer tokens: each distinct token would be a
//! request to the authorization server (introspection, and discovery of the issuer's metadata
//! while it is unknown). Both are bounded whatever the client sends: introspection by
//! `[auth.introspection].max_per_second` (beyond it the gateway fails closed with 503), a
//! refused token is refused again from a short cache, and a failed metadata discovery is not
//! retried before a second has passed. Requests are counted by a recording tap in front of the
//! real authorization server (oidc-provider) or a server that has no metadata at all.

use std::time::Duration;

use serde_json::json;

use crate::support::oidc::{Oidc, flood, status_with_token as status};
use crate::support::rig::{Gateway, Rig, Upstream, free_port, poll_async};
use crate::support::tap::Tap;

const RATE: u64 = 5;
const SECRET: (&str, &str) = ("INTROSPECT_SECRET", "gateway-introspector-secret-0123456789");

fn config(issuer: &str, endpoint: Option<&str>, upstream: &str) -> String {
    let endpoint = endpoint.map(|e| format!("endpoint = \"{e}\"\n")).unwrap_or_default();
    format!(
        r#"
[auth]
issuer = "{issuer}"
resource = "{{{{GATEWAY}}}}"
[auth.introspection]
{endpoint}client_id = "gateway-introspector"
client_secret_env = "INTROSPECT_SECRET"
max_per_second = {RATE}

[[upstream]]
name = "issues"
url = "{upstream}"
"#
    )
}

fn garbage(n: usize, tag: &str) -> Vec<String> {
    (0..n).map(|i| format!("garbage-{tag}-{i:04}-{}", "x".repeat(24))).collect()
}

fn count(tap: &Tap, prefix: &str) -> usize {
    tap.exchanges().iter().filter(|e| e.path.starts_with(prefix)).count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_tokens_cost_a_bounded_number_of_introspections() {
    let rig = Rig::new("auth-flood-introspect");
    let oidc = Oidc::start(&rig, free_port(), "oidc").await;
    let tap = Tap::start(&oidc.issuer()).await;
    let up = Upstream::fastmcp(&rig, &[]).await;
    let text = config(&oidc.issuer(), Some(&tap.url("/token/introspection")), &up.url());
    let gw = Gateway::start_with_env(&rig, "", &text, &[SECRET]).await;
    let route = gw.url("issues");

    let (statuses, took) = flood(&route, garbage(200, "a")).await;
    assert!(statuses.iter().all(|s| *s == 401 || *s == 503), "garbage is never let in: {statuses:?}");
    assert!(statuses.contains(&401), "the ones that were introspected are refused as invalid");
    let asked = count(&tap, "/token/introspection");
    // The budget: RATE at once, RATE a second after (one more for rounding).
    let bound = (RATE + RATE * took.as_secs_f64().ceil() as u64 + 1) as usize;
    eprintln!("200 garbage tokens in {took:?}: {asked} introspection requests (bound {bound})");
    assert!(asked <= bound, "{asked} introspections for 200 garbage tokens in {took:?} (bound {bound})");
    assert!(asked >= 1, "the budget lets some through");

    // The same garbage token, again and again: refused from the cache once it was refused.
    let http = reqwest::Client::new();
    let one = "garbage-retried-token-0123456789";
    let first = poll_async(Duration::from_secs(10), async || (status(&http, &route, one).await == 401).then_some(()));
    assert!(first.await.is_some(), "the budget refills and the token is introspected");
    let before = count(&tap, "/token/introspection");
    let (again, _) = flood(&route, vec![one.to_owned(); 100]).await;
    assert!(again.iter().all(|s| *s == 401), "{again:?}");
    assert_eq!(count(&tap, "/token/introspection"), before, "a refused token is not introspected again");

    // A real opaque token gets in once the budget has refilled (until then it is told 503, to
    // retry: a token the gateway has not seen costs an introspection like any other).
    let opaque = oidc.token("opaque-app", "mcp tools:read", &route).await;
    let mut seen = Vec::new();
    let admitted = poll_async(Duration::from_secs(10), async || {
        let s = status(&http, &route, &opaque).await;
        seen.push(s);
        (s == 200).then_some(())
    });
    assert!(admitted.await.is_some(), "a real token after the flood: {seen:?}");
    assert!(seen.iter().all(|s| *s == 200 || *s == 503), "{seen:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undiscoverable_issuer_is_asked_a_bounded_number_of_times() {
    let rig = Rig::new("auth-flood-metadata");
    let up = Upstream::fastmcp(&rig, &[]).await;
    // The "issuer" is a server with no authorization server metadata (every well-known path
    // answers 404), seen through a tap; the introspection endpoint must come from it.
    let tap = Tap::start(&up.base()).await;
    let text = config(&tap.url(""), None, &up.url());
    let gw = Gateway::start_with_env(&rig, "", &text, &[SECRET]).await;
    let route = gw.url("issues");

    let (statuses, took) = flood(&route, garbage(200, "b")).await;
    assert!(statuses.iter().all(|s| *s == 503), "the gateway cannot decide: fails closed: {statuses:?}");
    let asked = count(&tap, "/.well-known/");
    // Three metadata URLs per discovery, one discovery a second at most (plus the first).
    let bound = (3 * (1 + took.as_secs_f64().ceil() as u64)) as usize;
    eprintln!("200 garbage tokens in {took:?}: {asked} metadata requests (bound {bound})");
    assert!(asked <= bound, "{asked} metadata requests for 200 garbage tokens in {took:?} (bound {bound})");
    assert!(asked >= 3, "discovery was tried: {asked}");
    let resp =
        reqwest::Client::new().post(&route).bearer_auth("garbage-one-more").json(&json!({})).send().await.unwrap();
    assert_eq!(resp.status(), 503);
    assert_eq!(resp.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("1"), "when to ask again");
}
