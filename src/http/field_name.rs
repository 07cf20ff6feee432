//! A field name read off the wire as the `http` crate's `HeaderName`, with MCP's own fields
//! (every request's and most answers') known without the lower-cased copy and allocation a
//! name outside the crate's standard set otherwise costs. Both sides of the gateway's own
//! HTTP/1.1 (the listener's server, the upstream client) read names here.

use http::HeaderName;

/// MCP's own fields.
const MCP_FIELDS: [HeaderName; 5] = [
    HeaderName::from_static("mcp-protocol-version"),
    HeaderName::from_static("mcp-session-id"),
    HeaderName::from_static("last-event-id"),
    HeaderName::from_static("mcp-method"),
    HeaderName::from_static("mcp-name"),
];

pub fn of(name: &str) -> Option<HeaderName> {
    if matches!(name.as_bytes().first(), Some(b'm' | b'M' | b'l' | b'L'))
        && let Some(known) = MCP_FIELDS.iter().find(|k| k.as_str().eq_ignore_ascii_case(name))
    {
        return Some(known.clone());
    }
    HeaderName::from_bytes(name.as_bytes()).ok()
}
