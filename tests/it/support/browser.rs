//! A headless Chromium driven over WebDriver (chromedriver on a loopback port, spoken to with
//! reqwest), for the dashboard tests: real clicks and typed keys, scripts that read the page,
//! screenshots to `tests/artifacts/`.
//!
//! Needs the Debian packages `chromium` and `chromium-driver` (`scripts/deps/browser.sh`); a
//! test fails, never skips, without them.

use std::path::PathBuf;
use std::time::Duration;

use base64::Engine;
use serde_json::{Value, json};

use super::paths::root;
use super::patience::{poll_async, scaled};
use super::process::Proc;
use super::rig::{Rig, free_port};

/// WebDriver's key for an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";
pub const WAIT: Duration = Duration::from_secs(30);

fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin"), PathBuf::from("/usr/lib/chromium")])
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// A chromedriver process and one browser session on it.
pub struct Browser {
    _driver: Proc,
    base: String,
    http: reqwest::Client,
}

impl Browser {
    pub async fn start(rig: &Rig) -> Browser {
        let driver = find_program(&["chromedriver"]).unwrap_or_else(|| {
            panic!("chromedriver not found: install the Debian packages chromium and chromium-driver (scripts/deps/browser.sh)")
        });
        let chromium = find_program(&["chromium", "chromium-browser"]).unwrap_or_else(|| {
            panic!(
                "chromium not found: install the Debian packages chromium and chromium-driver (scripts/deps/browser.sh)"
            )
        });
        let port = free_port();
        let proc = Proc::spawn(&rig.dir, "chromedriver", &driver, &[format!("--port={port}")], &[]);
        let http = reqwest::Client::new();
        let base = format!("http://127.0.0.1:{port}");
        let ready = poll_async(WAIT, async || {
            let r = http.get(format!("{base}/status")).send().await.ok()?;
            r.json::<Value>().await.is_ok_and(|v| v["value"]["ready"] == true).then_some(())
        });
        assert!(ready.await.is_some(), "chromedriver did not start\n{}", proc.logs());
        let profile = rig.path("chromium-profile");
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1400,1000",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([format!("--user-data-dir={}", profile.display())])
        .collect::<Vec<_>>();
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium.display().to_string(), "args": args}
        }}});
        let resp = http.post(format!("{base}/session")).json(&caps).send().await.expect("new session");
        let v: Value = resp.json().await.expect("session JSON");
        let id = v["value"]["sessionId"].as_str().unwrap_or_else(|| panic!("no browser session: {v}\n{}", proc.logs()));
        Browser { base: format!("{base}/session/{id}"), _driver: proc, http }
    }

    pub async fn cmd(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut rb = self.http.request(method.clone(), format!("{}{path}", self.base));
        if let Some(b) = body {
            rb = rb.json(&b);
        }
        let resp = rb.send().await.unwrap_or_else(|e| panic!("WebDriver {method} {path}: {e}"));
        let status = resp.status();
        let v: Value = resp.json().await.expect("WebDriver JSON");
        assert!(status.is_success(), "WebDriver {method} {path}: {status} {v}");
        v["value"].clone()
    }

    pub async fn goto(&self, url: &str) {
        self.cmd(reqwest::Method::POST, "/url", Some(json!({ "url": url }))).await;
    }

    pub async fn js(&self, script: &str, args: Value) -> Value {
        self.cmd(reqwest::Method::POST, "/execute/sync", Some(json!({ "script": script, "args": args }))).await
    }

    pub async fn find(&self, css: &str) -> String {
        let v = self.cmd(reqwest::Method::POST, "/element", Some(json!({"using": "css selector", "value": css}))).await;
        v[ELEMENT].as_str().unwrap_or_else(|| panic!("no element {css}: {v}")).to_owned()
    }

    /// A real click (the browser's pointer, not a script), as a person would. The page may
    /// re-render between finding the element and clicking it (a live refresh): then the element
    /// is found again.
    pub async fn click(&self, css: &str) {
        self.on_element(css, "click", json!({})).await;
    }

    /// Keys typed into the element, as a person would (the element must be interactable).
    pub async fn type_into(&self, css: &str, text: &str) {
        self.on_element(css, "value", json!({ "text": text })).await;
    }

    /// An action on the element `css` names, finding it again when a live refresh replaced it
    /// between the find and the action (stale, or detached and so not interactable).
    pub async fn on_element(&self, css: &str, action: &str, body: Value) {
        let landed = poll_async(Duration::from_secs(2), async || {
            let id = self.find(css).await;
            let url = format!("{}/element/{id}/{action}", self.base);
            let resp = self.http.post(url).json(&body).send().await.expect("WebDriver element action");
            let (status, v) = (resp.status(), resp.json::<Value>().await.expect("WebDriver JSON"));
            if status.is_success() {
                return Some(());
            }
            let error = v["value"]["error"].as_str().unwrap_or_default();
            assert!(
                error == "stale element reference" || error == "element not interactable",
                "{action} on {css}: {status} {v}"
            );
            None
        });
        assert!(landed.await.is_some(), "{css} kept being replaced before the {action} could land");
    }

    /// Evaluates `script` (which returns a value, `null` while not ready) until it is not null.
    pub async fn until(&self, what: &str, script: &str, args: Value) -> Value {
        let found = poll_async(WAIT, async || {
            let v = self.js(script, args.clone()).await;
            (!v.is_null() && v != false).then_some(v)
        });
        if let Some(v) = found.await {
            return v;
        }
        let page = self.js("return document.body.innerText", json!([])).await;
        self.screenshot(&format!("failed-{}", what.replace(' ', "-"))).await;
        panic!("{what}: not so after {:?}; the page says:\n{}", scaled(WAIT), page.as_str().unwrap_or(""));
    }

    /// Opens the dashboard at `base` and signs in with the admin `token` (kept for the tab).
    pub async fn sign_in(&self, base: &str, token: &str) {
        self.goto(&format!("{base}/admin/")).await;
        self.until("the sign-in form", "return !document.getElementById('login').hidden || null", json!([])).await;
        self.type_into("#token", token).await;
        self.click("#login-form button[type=submit]").await;
    }

    /// Opens the page of `server` once its row is listed.
    pub async fn open_server(&self, server: &str) {
        let row = format!("#servers tr[data-server='{server}']");
        let listed = format!("return document.querySelector(`{row}`) ? true : null");
        self.until("the server row", &listed, json!([])).await;
        self.click(&format!("{row} button.open-server")).await;
    }

    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let b64 = self.cmd(reqwest::Method::GET, "/screenshot", None).await;
        let png = base64::engine::general_purpose::STANDARD.decode(b64.as_str().unwrap_or("")).expect("PNG base64");
        assert!(png.starts_with(b"\x89PNG"), "a screenshot is a PNG");
        let dir = root().join("tests/artifacts");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("admin-{name}.png"));
        std::fs::write(&path, png).unwrap();
        path
    }

    pub async fn close(self) {
        let _ = self.http.delete(&self.base).send().await;
    }
}
