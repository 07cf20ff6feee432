//! JSON-RPC messages as the gateway needs to see them: what kind each is, its id, method and
//! (for `tools/call`) the tool name; everything else stays raw bytes so it passes untouched.

use serde::Deserialize;
use serde_json::value::RawValue;

/// The fields the gateway reads; unknown fields are ignored here and kept in the raw bytes.
#[derive(Deserialize, Debug, Default)]
struct Envelope<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(default)]
    method: Option<String>,
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
    #[serde(borrow, default)]
    result: Option<&'a RawValue>,
    #[serde(borrow, default)]
    error: Option<&'a RawValue>,
}

/// A JSON-RPC id in a form usable as a map key: its JSON text, numbers by value (`1`, `1.0` and
/// `1e0` are all `1`: any upstream takes them for the same id), strings as serde writes them
/// (`"\u0061"` is `"a"`).
pub type IdKey = String;

/// The key of an id given as JSON text; `None` for `null` or text that is not JSON.
pub fn id_key(text: &str) -> Option<IdKey> {
    match serde_json::from_str::<serde_json::Value>(text).ok()? {
        serde_json::Value::Null => None,
        serde_json::Value::Number(_) => Some(number_key(text.trim())),
        // A string that reads as a number is that number to the SDKs (Python's `int(id)`,
        // JavaScript's `Number(id)` turn "1", " 01 " or "1e0" back into the 1 they sent), so
        // an answer with it answers the request with the number.
        serde_json::Value::String(s) => Some(string_key(&s)),
        other => Some(other.to_string()),
    }
}

/// Whether a `method` member (its JSON text, as written) makes a message a request or a
/// notification: only a string does. A response that also carries `"method": null` (or `0`,
/// `{}`) is still a response to the Python SDK, so it is read as one.
pub fn names_method(raw: &[u8]) -> bool {
    raw.trim_ascii_start().first() == Some(&b'"')
}

/// The key of a string id: the number it reads as, if it does, else the string as JSON.
pub fn string_key(s: &str) -> IdKey {
    let t = s.trim();
    if numeric(t) { number_key(t) } else { serde_json::Value::String(s.to_owned()).to_string() }
}

/// Whether a string id reads as a finite number.
fn numeric(s: &str) -> bool {
    s.bytes().next().is_some_and(|b| b.is_ascii_digit() || b"+-.".contains(&b))
        && s.parse::<f64>().is_ok_and(f64::is_finite)
}

/// The key of a numeric id: its value as a double (JavaScript servers hold no more), written
/// as an integer when it is one.
pub fn number_key(text: &str) -> IdKey {
    // A plain integer of up to 15 digits is its own key (a double holds it exactly): no
    // round trip through a double and a formatter for the ids most clients send.
    let digits = text.strip_prefix('-').unwrap_or(text);
    if (1..=15).contains(&digits.len())
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits.len() == 1 || !digits.starts_with('0'))
        && text != "-0"
    {
        return text.to_owned();
    }
    match text.parse::<f64>() {
        Ok(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 9.0e18 => (f as i64).to_string(),
        Ok(f) => f.to_string(),
        Err(_) => text.to_owned(),
    }
}

/// One message's role in the conversation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Request {
        id: IdKey,
        method: String,
    },
    Notification {
        method: String,
    },
    Response {
        id: IdKey,
    },
    /// Valid JSON that is not a JSON-RPC message the gateway recognises.
    Other,
}

/// A parsed message: its kind plus what the gateway may act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub kind: Kind,
    /// `params.name` of a `tools/call`.
    pub tool_name: Option<String>,
}

impl Message {
    pub fn method(&self) -> Option<&str> {
        match &self.kind {
            Kind::Request { method, .. } | Kind::Notification { method } => Some(method),
            _ => None,
        }
    }

    /// The id a response answers.
    pub fn answer_id(&self) -> Option<IdKey> {
        match &self.kind {
            Kind::Response { id } => Some(id.clone()),
            _ => None,
        }
    }

    pub fn request_id(&self) -> Option<&IdKey> {
        match &self.kind {
            Kind::Request { id, .. } => Some(id),
            _ => None,
        }
    }
}

/// What a body carries: one message or a batch (2025-03-26).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Payload {
    Single(Message),
    Batch(Vec<Message>),
}

impl Payload {
    pub fn messages(&self) -> &[Message] {
        match self {
            Payload::Single(m) => std::slice::from_ref(m),
            Payload::Batch(b) => b,
        }
    }
}

/// Reads a body; `None` when it is not JSON at all (the upstream decides what to do with it).
pub fn parse_body(bytes: &[u8]) -> Option<Payload> {
    let trimmed = bytes.trim_ascii_start();
    if trimmed.first() == Some(&b'[') {
        let items: Vec<&RawValue> = serde_json::from_slice(bytes).ok()?;
        Some(Payload::Batch(items.iter().map(|r| classify(r.get().as_bytes())).collect()))
    } else {
        let _: &RawValue = serde_json::from_slice(bytes).ok()?;
        Some(Payload::Single(classify(bytes)))
    }
}

/// Classifies one message's bytes.
pub fn classify(bytes: &[u8]) -> Message {
    let Ok(env) = serde_json::from_slice::<Envelope>(bytes) else {
        return Message { kind: Kind::Other, tool_name: None };
    };
    let id = env.id.and_then(|i| id_key(i.get()));
    let kind = match (id, env.method) {
        (Some(id), Some(method)) => Kind::Request { id, method },
        (None, Some(method)) => Kind::Notification { method },
        (Some(id), None) if env.result.is_some() || env.error.is_some() => Kind::Response { id },
        _ => Kind::Other,
    };
    let tool_name = match &kind {
        Kind::Request { method, .. } if method == "tools/call" => env.params.and_then(|p| {
            #[derive(Deserialize)]
            struct Call {
                name: String,
            }
            serde_json::from_str::<Call>(p.get()).ok().map(|c| c.name)
        }),
        _ => None,
    };
    Message { kind, tool_name }
}

/// Most `tools/list` pages followed, by the gateway's own listings and by `lint`/`score` on a
/// live server, before giving up on a server that never stops paginating.
pub const LIST_PAGES: usize = 100;

/// A `tools/list` request with `id`, asking for the page after `cursor`.
pub fn list_request(id: impl Into<serde_json::Value>, cursor: Option<&str>) -> serde_json::Value {
    let mut msg = serde_json::json!({ "jsonrpc": "2.0", "id": id.into(), "method": "tools/list" });
    if let Some(c) = cursor {
        msg["params"] = serde_json::json!({ "cursor": c });
    }
    msg
}

/// An id for one of the gateway's own `tools/list` requests (it lists an upstream itself to
/// decide on a call to a tool nobody listed): random, shaped like the ids many clients use, so
/// an upstream cannot answer the gateway differently from its clients.
pub fn own_list_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_integer_is_its_own_key_as_a_double_would_write_it() {
        let slow = |t: &str| match t.parse::<f64>() {
            Ok(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 9.0e18 => (f as i64).to_string(),
            Ok(f) => f.to_string(),
            Err(_) => t.to_owned(),
        };
        for t in [
            "0",
            "-0",
            "7",
            "-7",
            "10",
            "007",
            "-01",
            "123456789012345",
            "1234567890123456",
            "99999999999999999",
            "1.0",
            "1e3",
            "-1.5",
        ] {
            assert_eq!(number_key(t), slow(t), "{t}");
        }
    }

    #[test]
    fn kinds() {
        let m = classify(br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{}}}"#);
        assert_eq!(m.kind, Kind::Request { id: "7".into(), method: "tools/call".into() });
        assert_eq!(m.tool_name.as_deref(), Some("echo"));
        let n = classify(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        assert_eq!(n.method(), Some("notifications/initialized"));
        let r = classify(br#"{"jsonrpc":"2.0","id":"a","result":{}}"#);
        assert_eq!(r.kind, Kind::Response { id: "\"a\"".into() });
        assert_eq!(classify(b"{\"x\":1}").kind, Kind::Other);
        assert_eq!(classify(b"nope").kind, Kind::Other);
    }

    #[test]
    fn ids_compare_by_value() {
        // A string that reads as a number is that number, as the SDKs read it back.
        for text in ["1", "1.0", "1e0", "10e-1", " 1 ", "\"1\"", "\" 01 \"", "\"+1\"", "\"1e0\""] {
            assert_eq!(id_key(text).as_deref(), Some("1"), "{text}");
        }
        assert_ne!(id_key("\"a1\""), id_key("1"));
        assert_ne!(id_key("\"inf\""), id_key("1"));
        assert_eq!(id_key(r#""\u0061""#).as_deref(), Some(r#""a""#));
        assert_eq!(id_key("null"), None);
        assert_eq!(id_key("9007199254740993"), id_key("9007199254740992.0"));
    }

    #[test]
    fn batches() {
        let b =
            parse_body(br#" [{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","method":"x"}]"#).unwrap();
        assert_eq!(b.messages().len(), 2);
        assert!(parse_body(b"{oops").is_none());
    }
}
