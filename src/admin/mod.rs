//! The admin API (`/admin/api/...`, JSON) and the dashboard (`/admin/`, static files compiled
//! into the binary). A request's path through it:
//!
//! ```text
//! Host check (DNS rebinding) -> static asset, or: bearer token (when configured)
//!   -> POST: Origin and JSON content type (CSRF) -> route -> handler -> JSON or an error
//! ```
//!
//! The API serves on the main listener, or on its own when `admin.addr` is set. Errors become
//! responses in one place ([`AdminError::into_response`]).

mod actions;
mod api;
mod assets;
mod auth;
mod events;
pub(crate) mod nearest;
pub(crate) mod threat_report;

use std::net::SocketAddr;
use std::sync::Arc;

use http::{HeaderValue, Method, Response, StatusCode, header};

use crate::catalog::Catalog;
use crate::config::{Config, ConfigError, ServeSettings};
use crate::http::Body;
use crate::http::body::{full, json_response};
pub use crate::http::error::AdminError;
use crate::http::error::no_store;
use crate::http::request_body::{ClientRequest, RequestBody};
use crate::scoring::service::ScoringService;

/// The admin API's settings, resolved once at start.
pub struct Admin {
    token: Option<auth::Token>,
    /// The separate listener's address, when `admin.addr` is set.
    separate: Option<SocketAddr>,
}

impl std::fmt::Debug for Admin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Admin").field("token", &self.token.is_some()).field("separate", &self.separate).finish()
    }
}

impl Admin {
    /// The admin settings of a config (`None` when `admin.enabled = false`), with the token
    /// read from the environment. Refuses an admin API reachable beyond loopback without one.
    pub fn from_config(cfg: &Config) -> Result<Option<Admin>, ConfigError> {
        let Some(at) = cfg.admin.reachable_at(&cfg.listen) else { return Ok(None) };
        let token = auth::Token::from_env(&cfg.admin.token_env);
        if token.is_none() && !at.ip().is_loopback() {
            return Err(ConfigError::Invalid {
                key: "admin.token_env".into(),
                message: format!(
                    "the admin API would be reachable on {at}, a non-loopback address, without a token: \
                     put a secret in the environment variable {}, or set admin.addr to a loopback \
                     address, or set admin.enabled = false",
                    cfg.admin.token_env
                ),
            });
        }
        Ok(Some(Admin { token, separate: cfg.admin.addr }))
    }

    /// The separate listener's address, when there is one.
    pub fn separate_addr(&self) -> Option<SocketAddr> {
        self.separate
    }

    /// Whether API requests must carry the bearer token.
    pub fn token_required(&self) -> bool {
        self.token.is_some()
    }
}

/// What the admin API works on: the listener's bounds and the upstreams' sections, the scores
/// and the catalogue (never the whole configuration, nor the proxy's connections or sessions).
pub struct Console {
    pub serve: Arc<ServeSettings>,
    pub settings: Admin,
    pub scoring: Arc<ScoringService>,
    pub catalog: Arc<Catalog>,
    /// Whether callers authenticate (`[auth]` on), for the rules view.
    pub auth_on: bool,
}

impl Console {
    /// Whether the main listener hands this path to the admin module.
    pub fn on_main_listener(&self, path: &str) -> bool {
        self.settings.separate.is_none() && is_admin_path(path)
    }
}

fn is_admin_path(path: &str) -> bool {
    path == "/admin" || path.starts_with("/admin/")
}

/// Every request of the separate admin listener.
pub async fn serve_admin_listener(console: Arc<Console>, req: ClientRequest, body: &RequestBody) -> Response<Body> {
    if !is_admin_path(req.uri().path()) {
        return AdminError::NotFound("not found; the dashboard is at /admin/".into()).into_response();
    }
    serve_admin(console, req, body).await
}

/// An `/admin` request.
pub async fn serve_admin(console: Arc<Console>, req: ClientRequest, body: &RequestBody) -> Response<Body> {
    let admin = &console.settings;
    if let Err(e) = auth::check_host(&console.serve.listen, &req) {
        return e.into_response();
    }
    let path = req.uri().path().to_owned();
    let Some(api_path) = path.strip_prefix("/admin/api/") else {
        return assets::serve(req.method(), &path);
    };
    if let Err(e) = auth::check_token(admin, &req) {
        return e.into_response();
    }
    if req.method() == Method::POST
        && let Err(e) = auth::check_post(&console.serve.listen, &req)
    {
        return e.into_response();
    }
    let result = match api::Route::parse(api_path) {
        Ok(route) => route.run(console.clone(), req, body).await,
        Err(e) => Err(e),
    };
    match result {
        Ok(resp) => resp,
        Err(e) => e.into_response(),
    }
}

/// A JSON answer of the API.
fn json_ok(value: &serde_json::Value) -> Response<Body> {
    no_store(json_response(StatusCode::OK, serde_json::to_vec(value).unwrap_or_default()))
}

/// A text answer of the API (markdown reports).
fn text_ok(content_type: &'static str, text: String) -> Response<Body> {
    let mut resp = Response::new(full(text));
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    no_store(resp)
}
