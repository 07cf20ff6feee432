//! JSON as the engine's parser reads it (`tdqs::json`, which accepts what JavaScript accepts,
//! lone surrogates included) turned into `serde_json` values, lone surrogates as U+FFFD. For
//! messages serde refuses but a client would read: the gateway must still see what is in them.

use serde_json::{Map, Value};

use crate::tdqs::json::{JsObject, JsString, JsValue};

pub fn string(s: &JsString) -> Value {
    Value::String(s.to_string_lossy())
}

pub fn object(o: &JsObject) -> Value {
    Value::Object(o.iter().map(|(k, v)| (k.to_string_lossy(), value(v))).collect::<Map<_, _>>())
}

pub fn value(v: &JsValue) -> Value {
    match v {
        JsValue::Null | JsValue::IntOverflow => Value::Null,
        JsValue::Bool(b) => Value::Bool(*b),
        JsValue::Number(n) => serde_json::Number::from_f64(*n).map_or(Value::Null, Value::Number),
        JsValue::String(s) => string(s),
        JsValue::Array(a) => Value::Array(a.iter().map(value).collect()),
        JsValue::Object(o) => object(o),
    }
}

/// Parses `bytes` with serde, or failing that with the engine's parser, lossily.
pub fn parse(bytes: &[u8]) -> Option<Value> {
    serde_json::from_slice(bytes).ok().or_else(|| crate::tdqs::json::parse(bytes).ok().map(|v| value(&v)))
}
