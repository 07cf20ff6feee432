//! A message read as strictly as a whole JSON value would be, keeping only the members that
//! say what it is (`id`, `method`, `params.name`, whether it has a `result` or an `error`).
//! Everything else (a call's `arguments`, an answer's `result`) is checked just as strictly,
//! repeated keys at every depth refused, but not built: no `String` per key and value, no map
//! per object, which was most of what reading a call cost.

use std::borrow::Cow;
use std::collections::HashSet;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::Strict;

/// The members of a message that say what it is; `None` when it is not a JSON object.
#[derive(Debug, PartialEq)]
pub(super) struct Members {
    pub id: Option<Value>,
    pub method: Option<Value>,
    pub params: Option<Params>,
    /// Whether it has a `result` or an `error`.
    pub answers: bool,
}

/// What a message's `params` is: of an object, only `name` is kept.
#[derive(Debug, PartialEq)]
pub(super) enum Params {
    Object { name: Option<Value> },
    Array,
    Other,
}

/// Reads one message; `Ok(None)` when it is JSON but not an object.
pub(super) fn read<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Members>, D::Error> {
    d.deserialize_any(MessageVisitor)
}

/// An object's keys so far, to refuse a repeat. The first few are kept in place and compared
/// one by one (most objects of a message have a handful of keys: no allocation for them); past
/// that a keyed hash set (a hostile client's many keys cost neither quadratic time nor
/// collisions).
struct Seen<'de> {
    few: smallvec::SmallVec<[Cow<'de, str>; FEW]>,
    many: Option<HashSet<Cow<'de, str>>>,
}

const FEW: usize = 8;

impl<'de> Seen<'de> {
    fn new() -> Self {
        Seen { few: smallvec::SmallVec::new(), many: None }
    }

    fn insert<E: de::Error>(&mut self, key: Cow<'de, str>) -> Result<(), E> {
        let repeated = match &mut self.many {
            Some(set) => set.contains(&key),
            None => self.few.contains(&key),
        };
        if repeated {
            return Err(E::custom(format!("the key {key:?} appears twice")));
        }
        match &mut self.many {
            Some(set) => {
                set.insert(key);
            }
            None if self.few.len() < FEW => self.few.push(key),
            None => {
                let mut set: HashSet<Cow<'de, str>> = self.few.drain(..).collect();
                set.insert(key);
                self.many = Some(set);
            }
        }
        Ok(())
    }
}

/// A key as it decodes: borrowed from the input unless it holds escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

/// A value checked (repeated keys at any depth refused, numbers finite) and not kept.
struct Checked;

impl<'de> Deserialize<'de> for Checked {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(CheckVisitor)
    }
}

struct CheckVisitor;

/// The scalars every visitor here takes as they come (numbers checked finite), each giving
/// `$out`.
macro_rules! scalars {
    ($out:expr) => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            if v.is_finite() { Ok($out) } else { Err(E::custom("a number out of range")) }
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok($out)
        }
    };
}

impl<'de> Visitor<'de> for CheckVisitor {
    type Value = Checked;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    scalars!(Checked);

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Checked, A::Error> {
        every_element(seq).map(|()| Checked)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Checked, A::Error> {
        let mut seen = Seen::new();
        while let Some(Key(key)) = map.next_key()? {
            seen.insert(key)?;
            map.next_value::<Checked>()?;
        }
        Ok(Checked)
    }
}

fn every_element<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<Checked>()?.is_some() {}
    Ok(())
}

struct MessageVisitor;

impl<'de> Visitor<'de> for MessageVisitor {
    type Value = Option<Members>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    scalars!(None);

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Option<Members>, A::Error> {
        every_element(seq).map(|()| None)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<Members>, A::Error> {
        let mut m = Members { id: None, method: None, params: None, answers: false };
        let mut seen = Seen::new();
        while let Some(Key(key)) = map.next_key()? {
            // A repeat is refused before its value is read, as the whole-value reading did.
            seen.insert(key.clone())?;
            match &*key {
                "id" => m.id = Some(map.next_value::<Strict>()?.0),
                "method" => m.method = Some(map.next_value::<Strict>()?.0),
                "params" => m.params = Some(map.next_value_seed(ParamsVisitor)?),
                "result" | "error" => {
                    map.next_value::<Checked>()?;
                    m.answers = true;
                }
                _ => {
                    map.next_value::<Checked>()?;
                }
            }
        }
        Ok(Some(m))
    }
}

struct ParamsVisitor;

impl<'de> DeserializeSeed<'de> for ParamsVisitor {
    type Value = Params;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Params, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ParamsVisitor {
    type Value = Params;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    scalars!(Params::Other);

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Params, A::Error> {
        every_element(seq).map(|()| Params::Array)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Params, A::Error> {
        let mut name = None;
        let mut seen = Seen::new();
        while let Some(Key(key)) = map.next_key()? {
            let is_name = key == "name";
            seen.insert(key)?;
            if is_name {
                name = Some(map.next_value::<Strict>()?.0);
            } else {
                map.next_value::<Checked>()?;
            }
        }
        Ok(Params::Object { name })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(text: &str) -> Result<Option<Members>, serde_json::Error> {
        let mut de = serde_json::Deserializer::from_str(text);
        read(&mut de).and_then(|m| de.end().map(|()| m))
    }

    #[test]
    fn many_keys_are_still_checked_for_a_repeat() {
        let keys: Vec<String> = (0..100).map(|i| format!("\"k{i}\":{i}")).collect();
        let fine = format!(r#"{{"id":1,"method":"x","params":{{"arguments":{{{}}}}}}}"#, keys.join(","));
        assert!(members(&fine).unwrap().is_some());
        let repeated = format!(r#"{{"id":1,"method":"x","params":{{"arguments":{{{},"k7":0}}}}}}"#, keys.join(","));
        let e = members(&repeated).expect_err("a repeat past the first few keys");
        assert!(e.to_string().contains("\"k7\" appears twice"), "{e}");
    }

    #[test]
    fn what_is_not_an_object_is_read_through_and_refused_as_a_message() {
        assert!(members("[1,{\"a\":2}]").unwrap().is_none());
        assert!(members("[{\"a\":1,\"a\":2}]").is_err(), "checked inside an array too");
        assert!(members("\"text\"").unwrap().is_none());
        let m = members(r#"{"id":1,"result":{"deep":[{"x":1}]},"params":[1]}"#).unwrap().unwrap();
        assert!(m.answers && matches!(m.params, Some(Params::Array)));
    }
}
