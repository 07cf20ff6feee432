//! Every JSON-RPC error the gateway answers with itself, in one table: which code each kind
//! of failure carries, and its message and data. The transports only choose where the bytes
//! go (an HTTP body with a status from `http::error`, a stdio line, an SSE event); what a
//! client reads is decided here, with the id of the request it answers.

use serde_json::Value;

use super::read::Unreadable;

/// One error the gateway answers with instead of the upstream.
#[derive(Debug)]
pub enum RpcError<'a> {
    /// A message the strict reading refuses (not UTF-8 JSON, a BOM, a repeated key, `NaN`).
    Unreadable(&'a Unreadable),
    /// A body that is not JSON at all.
    Parse(&'a str),
    /// A request the gateway will not forward as sent (a `tools/list` without an id).
    Invalid(&'a str),
    /// A `tools/call` the policy refuses: the tool is hidden, unknown or unlearnable.
    Refused { message: &'a str, data: &'a Value },
    /// An upstream answer that could not be inspected, under a policy that fails closed.
    Uninspected { upstream: &'a str, reason: &'static str, why: &'static str },
    /// The gateway could not serve the request (an unreachable upstream, a limit, a route).
    Gateway(&'a str),
    /// A header that contradicts the body (the 2026-07-28 routing headers).
    HeaderMismatch(&'a str),
    /// The session is unknown, ended, or another principal's.
    Session(&'a str),
    /// The upstream did not answer in time.
    Timeout(&'a str),
    /// A server's request to a client that offers no such capability (the CLI's client).
    NotSupported,
}

impl RpcError<'_> {
    pub fn code(&self) -> i64 {
        match self {
            RpcError::Unreadable(e) if e.is_parse_error() => -32700,
            RpcError::Parse(_) => -32700,
            RpcError::Unreadable(_) | RpcError::Invalid(_) => -32600,
            RpcError::NotSupported => -32601,
            RpcError::Refused { .. } => -32602,
            RpcError::Uninspected { .. } => -32603,
            RpcError::Gateway(_) => -32000,
            RpcError::Session(_) | RpcError::Timeout(_) => -32001,
            RpcError::HeaderMismatch(_) => -32020,
        }
    }

    fn message(&self) -> String {
        match self {
            RpcError::Unreadable(e) => format!("tdqs-gateway: {e}"),
            RpcError::Refused { message, .. } => (*message).to_owned(),
            RpcError::Uninspected { upstream, why, .. } => format!(
                "tdqs-gateway: the answer of upstream \"{upstream}\" could not be inspected ({why}), so under enforce it is not passed on"
            ),
            RpcError::NotSupported => "not supported".to_owned(),
            RpcError::Parse(m)
            | RpcError::Invalid(m)
            | RpcError::Gateway(m)
            | RpcError::HeaderMismatch(m)
            | RpcError::Session(m)
            | RpcError::Timeout(m) => format!("tdqs-gateway: {m}"),
        }
    }

    fn data(&self) -> Option<Value> {
        match self {
            RpcError::Refused { data, .. } => Some((*data).clone()),
            RpcError::Uninspected { upstream, reason, .. } => {
                Some(serde_json::json!({ "reason": reason, "upstream": upstream }))
            }
            _ => None,
        }
    }

    /// The error response to the request whose id is `id` (its JSON text; `null` when the
    /// request's id is unknown), as bytes.
    pub fn answer(&self, id: &str) -> Vec<u8> {
        let mut error = serde_json::json!({ "code": self.code(), "message": self.message() });
        if let Some(d) = self.data() {
            error["data"] = d;
        }
        let id: Value = serde_json::from_str(id).unwrap_or(Value::Null);
        serde_json::to_vec(&serde_json::json!({ "jsonrpc": "2.0", "id": id, "error": error })).unwrap_or_default()
    }

    /// The same for a request whose id may be unknown.
    pub fn answer_to(&self, id: Option<&str>) -> Vec<u8> {
        self.answer(id.unwrap_or("null"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Value {
        serde_json::from_slice(bytes).unwrap()
    }

    #[test]
    fn the_answer_keeps_the_id_as_sent() {
        let e = read(&RpcError::Invalid("no").answer("\"x\""));
        assert_eq!((e["id"].clone(), e["error"]["code"].clone()), (Value::from("x"), Value::from(-32600)));
        assert_eq!(read(&RpcError::Gateway("no").answer("3"))["id"], 3);
        assert_eq!(read(&RpcError::Gateway("no").answer_to(None))["id"], Value::Null);
        assert_eq!(read(&RpcError::Gateway("no").answer("3"))["error"]["message"], "tdqs-gateway: no");
    }

    #[test]
    fn each_kind_has_its_code_and_data() {
        let data = serde_json::json!({"tool": "t"});
        let refused = read(&RpcError::Refused { message: "hidden", data: &data }.answer("1"));
        assert_eq!(refused["error"], serde_json::json!({"code": -32602, "message": "hidden", "data": {"tool": "t"}}));
        let un = read(&RpcError::Uninspected { upstream: "u", reason: "too_large", why: "it is big" }.answer("1"));
        assert_eq!(un["error"]["code"], -32603);
        assert_eq!(un["error"]["data"], serde_json::json!({"reason": "too_large", "upstream": "u"}));
        assert!(un["error"]["message"].as_str().unwrap().contains("(it is big)"));
        assert_eq!(RpcError::Unreadable(&Unreadable::Bom).code(), -32700);
        assert_eq!(RpcError::Timeout("slow").code(), -32001);
        assert_eq!(RpcError::NotSupported.code(), -32601);
    }
}
