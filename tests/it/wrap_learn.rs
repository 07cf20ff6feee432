//! `wrap` under enforce: a call to a tool the client never listed is still decided by its
//! score (the gateway lists the wrapped server itself first). Real server-everything over stdio.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn send(stdin: &mut std::process::ChildStdin, v: Value) {
    writeln!(stdin, "{v}").expect("write to wrap's stdin");
}

#[test]
fn an_unlisted_low_tier_tool_is_refused() {
    let root = env!("CARGO_MANIFEST_DIR");
    let server = format!("{root}/tests/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(std::path::Path::new(&server).exists(), "run scripts/test-deps.sh first");
    let dir = std::env::temp_dir().join(format!("tdqs-wrap-learn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("gateway.toml");
    std::fs::write(&cfg, "[store]\nurl = \"memory\"\n[policy]\nmode = \"enforce\"\nmin_tier = \"A\"\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tdqs-gateway"))
        .args(["wrap", "--config"])
        .arg(&cfg)
        .args(["--", "node", &server, "stdio"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<Value>();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Ok(v) = serde_json::from_str(&line) {
                let _ = tx.send(v);
            }
        }
    });
    let wait_for = |id: i64| -> Value {
        let deadline = Instant::now() + crate::support::patience::scaled(Duration::from_secs(30));
        while Instant::now() < deadline {
            if let Ok(v) = rx.recv_timeout(Duration::from_millis(200))
                && v["id"] == id
            {
                return v;
            }
        }
        panic!("no answer to {id}");
    };
    send(
        &mut stdin,
        json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}),
    );
    assert!(wait_for(1)["result"]["serverInfo"].is_object());
    send(&mut stdin, json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
    // No tools/list from the client: echo (tier B) is called straight away.
    send(
        &mut stdin,
        json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"x"}}}),
    );
    let answer = wait_for(2);
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    assert!(answer["error"]["message"].as_str().unwrap().contains("below the minimum"));
    // A tool at tier A is still called.
    send(&mut stdin, json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get-env","arguments":{}}}));
    assert!(wait_for(3)["result"].is_object());
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    std::fs::remove_dir_all(&dir).ok();
}
