//! Client bodies that two JSON readers could read differently, or that a lenient upstream reads
//! where a strict one would not: each names a hidden tool, so an upstream that runs it proves a
//! hole. And a seeded generator of mixed traffic built from them.

use serde_json::{Value, json};

use crate::support::rng::Rng;

/// One way of hiding a call from a reader that is stricter than the upstream's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    DupId,
    DupMethod,
    DupParams,
    DupName,
    DupArguments,
    DupMeta,
    NaN,
    Infinity,
    Bom,
    Utf16,
    Utf32,
    Gzip,
    NullId,
    NoId,
    EscapedKeys,
    EscapedName,
    FloatId,
    Batch,
    BatchOfOddOnes,
}

pub const SHAPES: [Shape; 19] = [
    Shape::DupId,
    Shape::DupMethod,
    Shape::DupParams,
    Shape::DupName,
    Shape::DupArguments,
    Shape::DupMeta,
    Shape::NaN,
    Shape::Infinity,
    Shape::Bom,
    Shape::Utf16,
    Shape::Utf32,
    Shape::Gzip,
    Shape::NullId,
    Shape::NoId,
    Shape::EscapedKeys,
    Shape::EscapedName,
    Shape::FloatId,
    Shape::Batch,
    Shape::BatchOfOddOnes,
];

/// A body in `shape` calling `hidden` (with `visible` as the decoy where there is one).
pub fn hostile(shape: Shape, hidden: &str, visible: &str, n: u64) -> Body {
    let call =
        |id: &str, params: &str| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{params}}}"#);
    let plain = call(&n.to_string(), &format!(r#"{{"name":"{hidden}","arguments":{{}}}}"#));
    let text = match shape {
        Shape::DupId => call(&format!(r#"{n},"id":"x{n}""#), &format!(r#"{{"name":"{hidden}","arguments":{{}}}}"#)),
        Shape::DupMethod => format!(
            r#"{{"jsonrpc":"2.0","id":{n},"method":"ping","method":"tools/call","params":{{"name":"{hidden}","arguments":{{}}}}}}"#
        ),
        Shape::DupParams => {
            call(&n.to_string(), &format!(r#"{{"name":"{visible}"}},"params":{{"name":"{hidden}","arguments":{{}}}}"#))
        }
        Shape::DupName => {
            call(&n.to_string(), &format!(r#"{{"name":"{visible}","arguments":{{}},"name":"{hidden}"}}"#))
        }
        Shape::DupArguments => {
            call(&n.to_string(), &format!(r#"{{"name":"{hidden}","arguments":{{"a":1}},"arguments":{{"a":2}}}}"#))
        }
        Shape::DupMeta => {
            call(&n.to_string(), &format!(r#"{{"name":"{hidden}","_meta":{{}},"_meta":{{"k":1}},"arguments":{{}}}}"#))
        }
        Shape::NaN => call(&n.to_string(), &format!(r#"{{"name":"{hidden}","arguments":{{"n":NaN}}}}"#)),
        Shape::Infinity => call(&n.to_string(), &format!(r#"{{"name":"{hidden}","arguments":{{"n":-Infinity}}}}"#)),
        Shape::Bom => return Body::bytes([b"\xEF\xBB\xBF".as_slice(), plain.as_bytes()].concat()),
        Shape::Utf16 => {
            let mut b = vec![0xFF, 0xFE];
            b.extend(plain.encode_utf16().flat_map(u16::to_le_bytes));
            return Body::bytes(b);
        }
        Shape::Utf32 => {
            let b: Vec<u8> = plain.chars().flat_map(|c| (c as u32).to_be_bytes()).collect();
            return Body::bytes(b);
        }
        Shape::Gzip => return Body { bytes: gzip(plain.as_bytes()), gzip: true },
        Shape::NullId => call("null", &format!(r#"{{"name":"{hidden}","arguments":{{}}}}"#)),
        Shape::NoId => {
            format!(r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"name":"{hidden}","arguments":{{}}}}}}"#)
        }
        Shape::EscapedKeys => format!(
            r#"{{"jsonrpc":"2.0","\u0069d":{n},"\u006dethod":"tools/call","params":{{"\u006eame":"{hidden}","arguments":{{}}}}}}"#
        ),
        Shape::EscapedName => {
            let escaped: String = hidden.chars().map(|c| format!("\\u{:04x}", c as u32)).collect();
            call(&n.to_string(), &format!(r#"{{"name":"{escaped}","arguments":{{}}}}"#))
        }
        Shape::FloatId => call(&format!("{n}.0"), &format!(r#"{{"name":"{hidden}","arguments":{{}}}}"#)),
        Shape::Batch => format!(
            r#"[{{"jsonrpc":"2.0","id":"p{n}","method":"ping"}},{}]"#,
            call(&(n + 1).to_string(), &format!(r#"{{"name":"{hidden}","arguments":{{}}}}"#))
        ),
        Shape::BatchOfOddOnes => {
            let null_id = call("null", &format!(r#"{{"name":"{hidden}"}}"#));
            let repeated = call(&format!("{n}e0"), &format!(r#"{{"name":"{visible}","name":"{hidden}"}}"#));
            let no_id = format!(r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"name":"{hidden}"}}}}"#);
            format!("[{null_id},{repeated},{no_id}]")
        }
    };
    Body::bytes(text.into_bytes())
}

/// What a client sends: bytes, and whether they are gzip (`Content-Encoding: gzip` on HTTP).
#[derive(Clone, Debug)]
pub struct Body {
    pub bytes: Vec<u8>,
    pub gzip: bool,
}

impl Body {
    pub fn bytes(bytes: Vec<u8>) -> Body {
        Body { bytes, gzip: false }
    }

    pub fn json(v: &Value) -> Body {
        Body::bytes(serde_json::to_vec(v).unwrap())
    }
}

/// gzip of `data` (Python's, so the test needs no compression crate).
pub fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut child = std::process::Command::new(super::python())
        .args(["-c", "import gzip,sys; sys.stdout.buffer.write(gzip.compress(sys.stdin.buffer.read()))"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python for gzip");
    child.stdin.take().unwrap().write_all(data).unwrap();
    child.wait_with_output().unwrap().stdout
}

/// An id in one of the spellings clients and attackers use.
pub fn odd_id(rng: &mut Rng, n: u64) -> String {
    match rng.below(6) {
        0 => n.to_string(),
        1 => format!("{n}.0"),
        2 => format!("{n}e0"),
        3 => format!("\"s{n}\""),
        4 => format!("\"\\u0073{n}\""), // "s{n}" escaped
        _ => format!("{}", n * 10) + "e-1",
    }
}

/// One message of ordinary traffic: a list (odd id), a call to a visible tool, a call to a
/// hidden one, a ping.
fn ordinary(rng: &mut Rng, n: u64, hidden: &[String], visible: &[String], args: &Value) -> String {
    let id = odd_id(rng, n);
    match rng.below(4) {
        0 => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#),
        1 => {
            let tool = rng.pick(visible);
            let params = json!({"name": tool, "arguments": args.get(tool).cloned().unwrap_or(json!({}))});
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{params}}}"#)
        }
        2 => {
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{}"}}}}"#, rng.pick(hidden))
        }
        _ => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#),
    }
}

/// `count` bodies of mixed traffic: singles and batches of ordinary and hostile messages, in
/// the encodings `shapes` allows.
pub fn generate(
    seed: u64,
    count: usize,
    hidden: &[String],
    visible: &[String],
    args: &Value,
    shapes: &[Shape],
) -> Vec<Body> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let n = 1000 + 10 * i as u64;
        let body = match rng.below(5) {
            0 | 1 => Body::bytes(ordinary(&mut rng, n, hidden, visible, args).into_bytes()),
            2 => {
                let members: Vec<String> =
                    (0..2 + rng.below(3)).map(|k| ordinary(&mut rng, n + k as u64, hidden, visible, args)).collect();
                Body::bytes(format!("[{}]", members.join(",")).into_bytes())
            }
            _ => {
                let shape = *rng.pick(shapes);
                hostile(shape, rng.pick(hidden).as_str(), rng.pick(visible).as_str(), n)
            }
        };
        out.push(body);
    }
    out
}
