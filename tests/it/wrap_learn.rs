//! `wrap` under enforce: a call to a tool the client never listed is still decided by its
//! score (the gateway lists the wrapped server itself first). Real server-everything over stdio.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::paths::{everything_js, require};
use crate::support::scratch::Scratch;
use crate::support::wrap::Wrap;

/// The answer to request `id` (other messages before it are passed over).
fn answer(wrap: &Wrap, id: i64) -> Value {
    wrap.until(&format!("the answer to {id}"), Duration::from_secs(30), |v| v["id"] == id).pop().unwrap()
}

#[test]
fn an_unlisted_low_tier_tool_is_refused() {
    let server = everything_js();
    require(std::slice::from_ref(&server), "scripts/test-deps.sh");
    let scratch = Scratch::new("wrap-learn");
    let cfg = scratch.path("gateway.toml");
    std::fs::write(&cfg, "[store]\nurl = \"memory\"\n[policy]\nmode = \"enforce\"\nmin_tier = \"A\"\n").unwrap();
    let args = ["--config".to_owned(), cfg.display().to_string()];
    let mut wrap =
        Wrap::start(&scratch.dir, "wrap", &args, &["node".into(), server.display().to_string(), "stdio".into()]);
    wrap.send(
        &json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}),
    );
    assert!(answer(&wrap, 1)["result"]["serverInfo"].is_object());
    wrap.send(&json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
    // No tools/list from the client: echo (tier B) is called straight away.
    wrap.send(
        &json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"x"}}}),
    );
    let refused = answer(&wrap, 2);
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(refused["error"]["message"].as_str().unwrap().contains("below the minimum"));
    // A tool at tier A is still called.
    wrap.send(&json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get-env","arguments":{}}}));
    assert!(answer(&wrap, 3)["result"].is_object());
    let status = wrap.close(Duration::from_secs(30));
    assert!(status.is_some_and(|s| s.success()), "{status:?}\n{}", wrap.proc.logs());
}
