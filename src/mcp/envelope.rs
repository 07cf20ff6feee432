//! The per-request envelope of protocol revision 2026-07-28. Without `initialize` there is no
//! session to remember a client by, so every request says in `params._meta` which revision it
//! speaks and what the client can do, and servers refuse requests that do not. A request the
//! gateway sends in a caller's stead (listing an upstream to decide on the caller's call) carries
//! the caller's envelope, so the upstream answers it as it would answer the caller.

use serde_json::{Map, Value};

/// The `_meta` key naming the protocol revision a request speaks.
pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

/// The envelope keys that describe the client rather than one request (a progress token or a
/// log level is the caller's own business and stays out of the gateway's requests).
const CLIENT_KEYS: [&str; 3] =
    [PROTOCOL_VERSION, "io.modelcontextprotocol/clientCapabilities", "io.modelcontextprotocol/clientInfo"];

/// The envelope of a single request's `body`: its client keys from `params._meta`, or `None`
/// when it names no protocol revision there (a 2025-era request, a batch, anything else).
pub fn of_request(body: &[u8]) -> Option<Map<String, Value>> {
    let message: Value = serde_json::from_slice(body).ok()?;
    let meta = message.get("params")?.get("_meta")?.as_object()?;
    meta.get(PROTOCOL_VERSION)?.as_str()?;
    Some(CLIENT_KEYS.iter().filter_map(|k| Some(((*k).to_owned(), meta.get(*k)?.clone()))).collect())
}

/// The `_meta` key naming, on a notification sent on a `subscriptions/listen` stream, the
/// subscription it belongs to (the listen request's id).
pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// The gateway's own `notifications/tools/list_changed` (the tools a client may see changed).
/// On a 2026-07-28 `subscriptions/listen` stream it names the subscription, `listen_id` (an
/// [`IdKey`](super::message::IdKey), the listen request's id), as servers' own notices do.
pub fn list_changed(listen_id: Option<&str>) -> Vec<u8> {
    let id = listen_id.and_then(|id| serde_json::from_str::<Value>(id).ok());
    let message = match id {
        Some(id) => serde_json::json!({
            "jsonrpc": "2.0",
            "method": "notifications/tools/list_changed",
            "params": {"_meta": {SUBSCRIPTION_ID: id}},
        }),
        None => serde_json::json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}),
    };
    message.to_string().into_bytes()
}

/// `request` (a request of the gateway's own) with `envelope` added to its `params._meta`.
pub fn stamp(request: &mut Value, envelope: &Map<String, Value>) {
    let Some(message) = request.as_object_mut() else { return };
    let params = message.entry("params").or_insert_with(|| Value::Object(Map::new()));
    let Some(params) = params.as_object_mut() else { return };
    let meta = params.entry("_meta").or_insert_with(|| Value::Object(Map::new()));
    if let Some(meta) = meta.as_object_mut() {
        meta.extend(envelope.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn list_changed_names_the_subscription_on_a_listen_stream() {
        let plain: Value = serde_json::from_slice(&list_changed(None)).unwrap();
        assert_eq!(plain, json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}));
        for (key, id) in [("3", json!(3)), ("\"sub-1\"", json!("sub-1"))] {
            let on_listen: Value = serde_json::from_slice(&list_changed(Some(key))).unwrap();
            assert_eq!(on_listen["params"]["_meta"][SUBSCRIPTION_ID], id);
        }
    }

    #[test]
    fn a_2026_request_lends_its_client_keys_and_nothing_else() {
        let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "t", "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
            "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "2"},
            "io.modelcontextprotocol/logLevel": "debug",
            "progressToken": 3,
        }}});
        let envelope = of_request(call.to_string().as_bytes()).expect("an envelope");
        let mut list = crate::mcp::message::list_request("x", Some("page-2"));
        stamp(&mut list, &envelope);
        assert_eq!(
            list,
            json!({"jsonrpc": "2.0", "id": "x", "method": "tools/list", "params": {"cursor": "page-2", "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
                "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "2"},
            }}})
        );
    }

    #[test]
    fn requests_of_older_revisions_have_none() {
        for body in [
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t"}}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "_meta": {"progressToken": 1}}}),
            json!([{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]),
        ] {
            assert_eq!(of_request(body.to_string().as_bytes()), None, "{body}");
        }
        assert_eq!(of_request(b"not json"), None);
    }
}
