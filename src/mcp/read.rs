//! The one strict reading of what a client sends. A body is read the way the most lenient
//! upstream could read it, and anything that two readers could read differently is refused
//! instead of guessed at: bytes that are not UTF-8 (a BOM, UTF-16 or UTF-32 included), JSON
//! that is not JSON (`NaN`, `Infinity`, trailing bytes), a key given twice in any object (Python's
//! `json.loads` takes the last, others the first), ids that are neither string, number nor
//! null, a `method` that is not a string, a `tools/call` without a readable tool name. Escaped
//! keys (`"\u006dethod"`) are read as what they decode to, and ids are compared by value.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::message::{IdKey, Kind, Message, Payload, number_key, string_key};

mod members;
mod quick;
use members::{Members, Params};

/// Why a body or one message of it cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    #[error("the body starts with a byte order mark; MCP messages are UTF-8 without one")]
    Bom,
    #[error("the body is not UTF-8")]
    NotUtf8,
    #[error("the body is sent as {0}; send it as uncompressed UTF-8")]
    Encoded(String),
    #[error("the body is not JSON: {0}")]
    NotJson(String),
    #[error("the message repeats a key or holds a value JSON-RPC readers disagree on: {0}")]
    Ambiguous(String),
    #[error("an empty batch")]
    EmptyBatch,
    #[error("not a JSON-RPC message: {0}")]
    NotRpc(&'static str),
}

impl Unreadable {
    /// Whether the bytes are not JSON at all (a parse error), rather than JSON that is not a
    /// message the gateway can read unambiguously (an invalid request).
    pub fn is_parse_error(&self) -> bool {
        matches!(self, Unreadable::Bom | Unreadable::NotUtf8 | Unreadable::Encoded(_) | Unreadable::NotJson(_))
    }
}

/// One member of a body, as read.
#[derive(Clone, Debug)]
pub struct Item<'a> {
    /// Its bytes, as the client sent them.
    pub raw: &'a [u8],
    pub read: Result<Read, Unreadable>,
}

/// What one readable message says.
#[derive(Clone, Debug, PartialEq)]
pub struct Read {
    pub message: Message,
    /// The `id` member's JSON text as sent (`null` included); `None` when there is none.
    pub id_text: Option<String>,
}

impl Read {
    /// A `tools/call`, or a method any server could take for one (case, surrounding blanks).
    pub fn is_call(&self) -> bool {
        self.message.method().is_some_and(names_call)
    }
}

/// A whole body: one message or a batch of them.
#[derive(Clone, Debug)]
pub struct BodyReading<'a> {
    pub items: Vec<Item<'a>>,
    pub batch: bool,
}

/// Reads a body as sent with its `Content-Encoding` (if any): an encoded body is not read at
/// all (the gateway does not inflate what a client compressed; see [`Unreadable::Encoded`]).
pub fn read_sent<'a>(bytes: &'a [u8], encoding: Option<&str>) -> Result<BodyReading<'a>, Unreadable> {
    match encoding.map(str::trim).filter(|e| !e.is_empty() && !e.eq_ignore_ascii_case("identity")) {
        Some(e) => Err(Unreadable::Encoded(e.to_owned())),
        None => read_body(bytes),
    }
}

impl BodyReading<'_> {
    /// What the body carries, member by member, for the request's bookkeeping (its span's
    /// labels, its place in the session's order): each readable member as read, each other one
    /// as a lenient reading classifies it.
    pub fn payload(&self) -> Payload {
        let message = |i: &Item<'_>| match &i.read {
            Ok(r) => r.message.clone(),
            Err(_) => super::message::classify(i.raw),
        };
        match (self.batch, self.items.as_slice()) {
            (false, [one]) => Payload::Single(message(one)),
            (_, items) => Payload::Batch(items.iter().map(message).collect()),
        }
    }
}

/// [`BodyReading::payload`] for a body read or not: one that could not be read at all is given the
/// lenient reading (`None` when it is not JSON either).
pub fn payload_of(reading: &Result<BodyReading<'_>, Unreadable>, bytes: &[u8]) -> Option<Payload> {
    match reading {
        Ok(r) => Some(r.payload()),
        Err(_) => super::message::parse_body(bytes),
    }
}

/// Reads a body strictly. `Err` when nothing of it can be read (the bytes, or the batch).
pub fn read_body(bytes: &[u8]) -> Result<BodyReading<'_>, Unreadable> {
    if bytes.starts_with(b"\xEF\xBB\xBF") || bytes.starts_with(b"\xFE\xFF") || bytes.starts_with(b"\xFF\xFE") {
        return Err(Unreadable::Bom);
    }
    if simdutf8::basic::from_utf8(bytes).is_err() {
        return Err(Unreadable::NotUtf8);
    }
    if bytes.trim_ascii_start().first() == Some(&b'[') {
        let members: Vec<&RawValue> = serde_json::from_slice(bytes).map_err(not_json)?;
        if members.is_empty() {
            return Err(Unreadable::EmptyBatch);
        }
        let items = members
            .into_iter()
            .map(|m| Item { raw: m.get().as_bytes(), read: read_message(m.get().as_bytes()) })
            .collect();
        return Ok(BodyReading { items, batch: true });
    }
    // The plain common case without serde; anything else, or anything wrong, is serde's.
    if let Some(m) = quick::members(bytes) {
        return Ok(BodyReading { items: vec![Item { raw: bytes, read: interpret(Some(m)) }], batch: false });
    }
    let read = match strict_members(bytes) {
        Err(e @ Unreadable::NotJson(_)) => return Err(e),
        Ok(m) => interpret(m),
        Err(e) => Err(e),
    };
    Ok(BodyReading { items: vec![Item { raw: bytes, read }], batch: false })
}

/// Reads one message (not a batch) strictly.
pub fn read_message(bytes: &[u8]) -> Result<Read, Unreadable> {
    interpret(strict_members(bytes)?)
}

fn not_json(e: serde_json::Error) -> Unreadable {
    Unreadable::NotJson(e.to_string())
}

/// The members that say what the bytes are as a message (`None`: JSON, but not an object),
/// the whole text read strictly: repeated keys refused at every depth.
fn strict_members(bytes: &[u8]) -> Result<Option<Members>, Unreadable> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let members = members::read(&mut de).and_then(|m| de.end().map(|()| m));
    members.map_err(|e| match e.classify() {
        serde_json::error::Category::Data => Unreadable::Ambiguous(e.to_string()),
        _ => not_json(e),
    })
}

/// Whether a method is `tools/call` as any server could take it (case, surrounding blanks).
fn names_call(method: &str) -> bool {
    method.trim().eq_ignore_ascii_case("tools/call")
}

/// What a message's members say as a JSON-RPC message.
fn interpret(members: Option<Members>) -> Result<Read, Unreadable> {
    let m = members.ok_or(Unreadable::NotRpc("a message is a JSON object"))?;
    let id_text = m.id.as_ref().map(|id| match id {
        // What `Value` writes for an integer, without its formatter.
        Value::Number(n) if n.is_i64() => itoa::Buffer::new().format(n.as_i64().unwrap_or_default()).to_owned(),
        Value::Number(n) if n.is_u64() => itoa::Buffer::new().format(n.as_u64().unwrap_or_default()).to_owned(),
        id => id.to_string(),
    });
    let id: Option<IdKey> = match m.id {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(string_key(&s)),
        // A number's text is what `Value` writes for it, already in `id_text`.
        Some(Value::Number(_)) => id_text.as_deref().map(number_key),
        Some(_) => return Err(Unreadable::NotRpc("an id is a string, a number or null")),
    };
    let method = match m.method {
        None => None,
        Some(Value::String(m)) => Some(m),
        Some(_) => return Err(Unreadable::NotRpc("a method is a string")),
    };
    if matches!(m.params, Some(Params::Other)) {
        return Err(Unreadable::NotRpc("params are an object or an array"));
    }
    let kind = match (id, method) {
        (Some(id), Some(method)) => Kind::Request { id, method },
        (None, Some(method)) => Kind::Notification { method },
        (Some(id), None) if m.answers => Kind::Response { id },
        _ => return Err(Unreadable::NotRpc("neither a request, a notification nor an answer")),
    };
    let mut message = Message { kind, tool_name: None };
    if message.method().is_some_and(names_call) {
        let name = match m.params {
            Some(Params::Object { name: Some(Value::String(name)) }) => name,
            _ => return Err(Unreadable::NotRpc("a tools/call names its tool in params.name")),
        };
        message.tool_name = Some(name);
    }
    Ok(Read { message, id_text })
}

/// A JSON value read with every object's keys checked for repeats.
struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        serde_json::Number::from_f64(v).map(Value::Number).ok_or_else(|| E::custom("a number out of range"))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(de::Error::custom(format!("the key {key:?} appears twice")));
            }
            let Strict(v) = map.next_value()?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(bytes: &[u8]) -> Result<Read, Unreadable> {
        read_body(bytes).and_then(|b| b.items.into_iter().next().unwrap().read)
    }

    #[test]
    fn a_plain_call_reads() {
        let r =
            one(br#"{"jsonrpc":"2.0","id":1.0,"method":"tools/call","params":{"name":"x","arguments":{}}}"#).unwrap();
        assert_eq!(r.message.request_id().map(String::as_str), Some("1"));
        assert_eq!(r.id_text.as_deref(), Some("1.0"));
        assert_eq!(r.message.tool_name.as_deref(), Some("x"));
    }

    #[test]
    fn an_id_is_written_back_as_json_writes_it() {
        for id in ["0", "-7", "42", "18446744073709551615", "-9223372036854775808", "1.5", "1e400", "\"a\"", "null"] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
            let Ok(r) = one(body.as_bytes()) else { continue };
            let json: Value = serde_json::from_str(id).unwrap_or(Value::Null);
            assert_eq!(r.id_text, Some(json.to_string()), "{id}");
        }
    }

    #[test]
    fn repeats_at_any_depth_are_refused() {
        for body in [
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/call","params":{"name":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","name":"b"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"k":1,"k":2}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"},"params":{"name":"b"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","\u006eame":"b"}}"#,
        ] {
            assert!(matches!(one(body.as_bytes()), Err(Unreadable::Ambiguous(_))), "{body}");
        }
    }

    #[test]
    fn bytes_other_readers_would_decode_are_refused() {
        assert_eq!(read_body(b"\xEF\xBB\xBF{}").unwrap_err(), Unreadable::Bom);
        let utf16: Vec<u8> = "{\"id\":1}".encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        assert!(read_body(&utf16).is_err());
        assert_eq!(read_body(b"{\"a\":\"\xff\"}").unwrap_err(), Unreadable::NotUtf8);
        assert!(matches!(read_body(br#"{"id":1,"method":"x","params":{"n":NaN}}"#), Err(Unreadable::NotJson(_))));
        assert!(matches!(read_body(br#"{"id":1,"method":"x","params":{"n":Infinity}}"#), Err(Unreadable::NotJson(_))));
        assert!(read_body(br#"{"id":1,"method":"x"} {}"#).is_err());
        assert_eq!(read_body(b"[]").unwrap_err(), Unreadable::EmptyBatch);
    }

    #[test]
    fn escaped_keys_read_as_what_they_decode_to() {
        let r = one(br#"{"jsonrpc":"2.0","\u0069d":3,"\u006dethod":"tools/call","params":{"\u006eame":"x"}}"#).unwrap();
        assert_eq!(r.message.tool_name.as_deref(), Some("x"));
        assert_eq!(r.message.request_id().map(String::as_str), Some("3"));
    }

    #[test]
    fn calls_without_an_id_or_a_name_are_still_calls() {
        let r = one(br#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"x"}}"#).unwrap();
        assert!(r.is_call() && r.message.request_id().is_none());
        assert_eq!(r.id_text.as_deref(), Some("null"));
        let r = one(br#"{"jsonrpc":"2.0","method":" Tools/Call","params":{"name":"x"}}"#).unwrap();
        assert!(r.is_call() && r.id_text.is_none());
        assert!(one(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":3}}"#).is_err());
        assert!(one(br#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#).is_err());
    }

    #[test]
    fn batch_members_are_read_one_by_one() {
        let b = read_body(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"id":1,"id":1},7]"#).unwrap();
        assert!(b.batch);
        assert!(b.items[0].read.is_ok());
        assert!(b.items[1].read.is_err() && b.items[2].read.is_err());
    }
}
