//! Which answer tells a client to authenticate, for each way authentication failed; the
//! answers themselves (statuses, `WWW-Authenticate`, bodies) are `http::error::Challenge`.

use http::Response;

use super::{Auth, AuthError};
use crate::http::Body;
use crate::http::error::Challenge;

impl Auth {
    pub fn challenge(&self, route: &str, err: &AuthError) -> Response<Body> {
        let challenge = match err {
            AuthError::Missing => Challenge::Missing,
            AuthError::Invalid(why) => Challenge::Invalid(why),
            AuthError::InsufficientScope(missing) => Challenge::InsufficientScope(missing),
            AuthError::Unavailable(why) => Challenge::Unavailable(why),
        };
        challenge.into_response(&self.metadata_url(route), &self.cfg.required_scopes.join(" "))
    }

    /// 403 for a request on a session another principal opened.
    pub fn not_your_session() -> Response<Body> {
        crate::http::error::GatewayError::NotYourSession.into_response(None)
    }
}
