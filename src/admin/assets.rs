//! The dashboard's files, compiled into the binary (no build step, nothing fetched from
//! elsewhere: the page's Content-Security-Policy allows only its own origin).

use http::{HeaderValue, Method, Response, StatusCode, header};

use super::AdminError;
use crate::http::Body;
use crate::http::body::full;

const INDEX: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");
const THREATS_JS: &str = include_str!("assets/threats.js");
const IDENTITY_JS: &str = include_str!("assets/identity.js");

const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; \
                   img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// A static file of the dashboard, or a redirect from `/admin` to `/admin/`.
pub fn serve(method: &Method, path: &str) -> Response<Body> {
    if method != Method::GET && method != Method::HEAD {
        return AdminError::MethodNotAllowed("GET, HEAD").into_response();
    }
    let (content_type, text) = match path {
        "/admin" => {
            let mut resp = Response::new(full(""));
            *resp.status_mut() = StatusCode::PERMANENT_REDIRECT;
            resp.headers_mut().insert(header::LOCATION, HeaderValue::from_static("/admin/"));
            return resp;
        }
        "/admin/" | "/admin/index.html" => ("text/html; charset=utf-8", INDEX),
        "/admin/app.js" => ("text/javascript; charset=utf-8", APP_JS),
        "/admin/threats.js" => ("text/javascript; charset=utf-8", THREATS_JS),
        "/admin/identity.js" => ("text/javascript; charset=utf-8", IDENTITY_JS),
        "/admin/app.css" => ("text/css; charset=utf-8", APP_CSS),
        _ => return AdminError::NotFound(format!("no dashboard file at {path}")).into_response(),
    };
    let mut resp = Response::new(full(text));
    let h = resp.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    resp
}
