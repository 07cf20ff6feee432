//! What `[auth]` checks in a token, each setting shown to take effect at run time: the leeway
//! on `exp`/`nbf` (`clock_skew_ms`), the algorithm allow-list (`algorithms`, a token the
//! issuer really signed with an algorithm the operator did not list is refused), HS256 tokens
//! verified with `hmac_secret_env`, and an opaque token introspected once and then answered
//! from the cache (the introspection requests counted by a recording tap in front of the real
//! authorization server, oidc-provider).

use serde_json::{Value, json};

use crate::support::jwt::{hs256, now};
use crate::support::oidc::Oidc;
use crate::support::rig::http::Mcp;
use crate::support::rig::{Gateway, Rig, Upstream, free_port};
use crate::support::tap::Tap;

const VERSION: &str = "2025-06-18";

/// `[auth]` with `extra` keys, enforcing, over the rig's FastMCP as `issues`.
fn config(issuer: &str, extra: &str, upstream: &str) -> String {
    format!(
        r#"
[auth]
issuer = "{issuer}"
resource = "{{{{GATEWAY}}}}"
{extra}

[policy]
mode = "enforce"
min_score = 0

[[policy.rule]]
name = "interns"
claims = {{ groups = "interns" }}
deny = ["create_issue"]

[[upstream]]
name = "issues"
url = "{upstream}"
"#
    )
}

/// The status of an initialize with this token, and the `WWW-Authenticate` it got.
async fn status(gw: &Gateway, token: &str) -> (u16, String) {
    let reply = Mcp::new(gw.url("issues"))
        .with_header("authorization", &format!("Bearer {token}"))
        .post(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": VERSION, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}))
        .await;
    (reply.status, reply.header("www-authenticate").unwrap_or_default().to_owned())
}

async fn tools(gw: &Gateway, token: &str) -> Vec<String> {
    let mut c = Mcp::new(gw.url("issues")).with_header("authorization", &format!("Bearer {token}"));
    c.initialize(VERSION, json!({})).await;
    let list = c.call("tools/list", json!({})).await;
    let mut names: Vec<String> = list["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{list}"))
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leeway_and_allowed_algorithms_hold_at_run_time() {
    let rig = Rig::new("auth-leeway");
    let oidc = Oidc::start(&rig, free_port(), "oidc").await;
    let up = Upstream::fastmcp(&rig, &[]).await;
    let start = |extra: &'static str| {
        let text = config(&oidc.issuer(), extra, &up.url());
        let rig = &rig;
        async move { Gateway::start(rig, "", &text).await }
    };
    let lenient = start("clock_skew_ms = 60000").await;
    let strict = start("clock_skew_ms = 0").await;
    let narrow = start("algorithms = [\"PS256\", \"ES256\"]").await;

    // Times 20 s off, well inside a minute's leeway and well outside none: no race with the
    // clock either way.
    let signed = |gw: &Gateway, times: Value| {
        let mut claims = json!({"sub": "clock", "client_id": "clock-app", "scope": "mcp", "aud": gw.url("issues")});
        claims.as_object_mut().unwrap().extend(times.as_object().unwrap().clone());
        oidc.sign(claims, false)
    };
    let late = json!({"iat": now() - 100, "exp": now() - 20});
    let early = json!({"nbf": now() + 20});
    let long_gone = json!({"iat": now() - 300, "exp": now() - 120});
    assert_eq!(status(&lenient, &signed(&lenient, late.clone()).await).await.0, 200, "expired 20 s ago, 60 s skew");
    assert_eq!(status(&lenient, &signed(&lenient, early.clone()).await).await.0, 200, "valid in 20 s, 60 s skew");
    let (code, www) = status(&lenient, &signed(&lenient, long_gone).await).await;
    assert_eq!(code, 401, "expired beyond the leeway");
    assert!(www.contains("expired"), "{www}");
    assert_eq!(status(&strict, &signed(&strict, json!({})).await).await.0, 200, "the strict gateway's baseline");
    let (code, www) = status(&strict, &signed(&strict, late).await).await;
    assert_eq!(code, 401, "expired 20 s ago, no skew");
    assert!(www.contains("expired"), "{www}");
    let (code, www) = status(&strict, &signed(&strict, early).await).await;
    assert_eq!(code, 401, "not valid for 20 s, no skew");
    assert!(www.contains("not valid yet"), "{www}");

    // A genuine token of the issuer, RS256, which the narrow gateway does not allow.
    let for_lenient = oidc.token("alice-app", "mcp tools:read", &lenient.url("issues")).await;
    assert_eq!(status(&lenient, &for_lenient).await.0, 200, "RS256 is allowed by default");
    let for_narrow = oidc.token("alice-app", "mcp tools:read", &narrow.url("issues")).await;
    let (code, www) = status(&narrow, &for_narrow).await;
    assert_eq!(code, 401, "RS256 is not in algorithms");
    assert!(www.contains("invalid_token") && www.contains("algorithm"), "{www}");

    // Algorithm confusion: an HS256 token (keyed with anything, the issuer's public key
    // included) where no shared secret is configured.
    let confused =
        hs256("a-secret-of-at-least-thirty-two-bytes", &oidc.issuer(), &lenient.url("issues"), json!({"sub": "x"}));
    assert_eq!(status(&lenient, &confused).await.0, 401, "HS256 without hmac_secret_env");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hs256_tokens_verify_with_the_shared_secret() {
    const SECRET: &str = "gateway-shared-hmac-secret-0123456789";
    const ISSUER: &str = "https://idp.example.test";
    let rig = Rig::new("auth-hs256");
    let up = Upstream::fastmcp(&rig, &[]).await;
    let text = config(ISSUER, "algorithms = [\"HS256\"]\nhmac_secret_env = \"HS_SECRET\"", &up.url());
    let gw = Gateway::start_with_env(&rig, "", &text, &[("HS_SECRET", SECRET)]).await;
    let route = gw.url("issues");

    // Identities from the token's claims, and rules matching them.
    let finance = hs256(SECRET, ISSUER, &route, json!({"sub": "alice", "groups": ["finance"]}));
    let intern = hs256(SECRET, ISSUER, &route, json!({"sub": "bob", "groups": ["interns"]}));
    assert!(tools(&gw, &finance).await.contains(&"create_issue".to_owned()));
    let theirs = tools(&gw, &intern).await;
    assert!(!theirs.is_empty() && !theirs.contains(&"create_issue".to_owned()), "rule interns: {theirs:?}");

    let refused = [
        ("another secret", hs256("another-secret-of-thirty-two-bytes!!", ISSUER, &route, json!({"sub": "m"}))),
        ("another issuer", hs256(SECRET, "https://evil.example.test", &route, json!({"sub": "m"}))),
        ("another audience", hs256(SECRET, ISSUER, "http://elsewhere.test/mcp", json!({"sub": "m"}))),
        ("expired", hs256(SECRET, ISSUER, &route, json!({"sub": "m", "exp": now() - 3600}))),
    ];
    for (what, token) in refused {
        let (code, www) = status(&gw, &token).await;
        assert_eq!(code, 401, "{what}");
        assert!(www.contains("invalid_token"), "{what}: {www}");
    }
    // The same secret under an algorithm the operator did not list.
    let claims = json!({"iss": ISSUER, "aud": route, "sub": "m", "scope": "mcp", "exp": now() + 600});
    let key = jsonwebtoken::EncodingKey::from_secret(SECRET.as_bytes()).unwrap();
    let hs384 =
        jsonwebtoken::encode(&jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS384), &claims, &key).unwrap();
    let (code, www) = status(&gw, &hs384).await;
    assert_eq!(code, 401, "HS384 is not in algorithms");
    assert!(www.contains("algorithm"), "{www}");
}

fn introspections(tap: &Tap) -> usize {
    tap.exchanges().iter().filter(|e| e.path.starts_with("/token/introspection")).count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_opaque_token_is_introspected_once_then_served_from_the_cache() {
    let rig = Rig::new("auth-introspect-cache");
    let oidc = Oidc::start(&rig, free_port(), "oidc").await;
    let tap = Tap::start(&oidc.issuer()).await;
    let up = Upstream::fastmcp(&rig, &[]).await;
    let extra = format!(
        "[auth.introspection]\nendpoint = \"{}\"\nclient_id = \"gateway-introspector\"\nclient_secret_env = \"INTROSPECT_SECRET\"",
        tap.url("/token/introspection")
    );
    let text = config(&oidc.issuer(), &extra, &up.url());
    let env = [("INTROSPECT_SECRET", "gateway-introspector-secret-0123456789")];
    let gw = Gateway::start_with_env(&rig, "", &text, &env).await;

    let opaque = oidc.token("opaque-app", "mcp tools:read", &gw.url("issues")).await;
    assert!(!opaque.contains('.'), "an opaque token: {opaque}");
    let first = tools(&gw, &opaque).await;
    assert!(first.contains(&"create_issue".to_owned()), "introspected as opaque-app (finance): {first:?}");
    assert_eq!(introspections(&tap), 1, "the first request introspects");
    for _ in 0..3 {
        assert_eq!(tools(&gw, &opaque).await, first);
    }
    assert_eq!(introspections(&tap), 1, "three more sessions, each several requests, from the cache");
    let second = oidc.token("opaque-app", "mcp tools:read", &gw.url("issues")).await;
    assert_eq!(tools(&gw, &second).await, first);
    assert_eq!(introspections(&tap), 2, "another token is introspected on its own");
}
