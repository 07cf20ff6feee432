//! The `Connection` field as both of the gateway's own HTTP/1 readers take it: the listener's
//! server (`server/h1/`) from a request, the upstream client (`proxy/upstream_client/h1.rs`)
//! from an answer.

/// The options a `Connection` value lists, blanks trimmed.
pub fn options(value: &[u8]) -> impl Iterator<Item = &[u8]> {
    value.split(|b| *b == b',').map(<[u8]>::trim_ascii)
}
