//! `tdqs-gateway wrap -- <server>`: the gateway as a stdio MCP server in front of a stdio server,
//! launched by real SDK clients (the Python SDK's `stdio_client`, the TypeScript SDK's
//! `StdioClientTransport`) as a desktop client would. Lists carry scores in `_meta`, calls work,
//! enforce hides and refuses, and when the client closes stdin the wrapper and its server exit by
//! themselves (no SIGTERM needed). A raw driver checks that stdout carries JSON-RPC lines only
//! (the server's garbage dropped, logs on stderr or in --log-file).
//!
//! Long: two SDK launches and four cases of a raw driver check one contract (JSON-RPC only on
//! stdout, an exit of its own when stdin closes) from both ends, with the same helpers.

use crate::support::stdio as support;
use crate::support::wrap::Wrap;

use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};
use support::{
    GIT_MIN_SCORE, Scratch, assert_scored, everything_js, listed, procs, score_of, steps, tool_names, venv_bin,
};

fn s(x: impl AsRef<std::ffi::OsStr>) -> String {
    x.as_ref().to_string_lossy().into_owned()
}

/// `tdqs-gateway wrap [--config F] --name NAME -- CMD...` as an argument list.
fn wrap_cmd(config: Option<&std::path::Path>, name: &str, server: &[String]) -> Vec<String> {
    let mut v = vec![s(support::gateway_bin()), "wrap".into()];
    if let Some(c) = config {
        v.extend(["--config".into(), s(c)]);
    }
    v.extend(["--name".into(), name.into(), "--".into()]);
    v.extend(server.iter().cloned());
    v
}

fn enforce_config(scratch: &Scratch, file: &str, extra: &str) -> std::path::PathBuf {
    let path = scratch.path(file);
    std::fs::write(&path, format!("[policy]\nmode = \"enforce\"\n{extra}")).unwrap();
    path
}

fn call(out: &Value, i: usize) -> Value {
    steps(out, "call").get(i).map(|v| (*v).clone()).unwrap_or_else(|| panic!("no call step {i}: {out}"))
}

fn ok_text(step: &Value, what: &str) -> String {
    assert!(step["ok"] == true && step["isError"] == false, "{what}: {step}");
    step["text"].as_str().unwrap_or_default().to_owned()
}

fn assert_refused(step: &Value, tool: &str, what: &str) {
    assert_eq!(step["ok"], false, "{what}: the call to hidden {tool} went through: {step}");
    assert_eq!(step["code"], -32602, "{what}: {step}");
    assert!(step["message"].as_str().unwrap_or_default().contains(tool), "{what}: {step}");
    assert_eq!(step["data"]["tool"], tool, "{what}: {step}");
}

fn tdqs(t: &Value) -> f64 {
    score_of(t).and_then(|s| s["tdqs"].as_f64()).unwrap_or_else(|| panic!("no score: {t}"))
}

/// Waits for every pid to be gone (exited and reaped).
async fn expect_gone(pids: &[i32], what: &str) {
    let gone = support::poll(Duration::from_secs(5), || pids.iter().all(|p| !procs::alive(*p)).then_some(())).await;
    let left: Vec<procs::ProcInfo> = procs::table().into_iter().filter(|p| pids.contains(&p.pid)).collect();
    assert!(gone.is_some(), "{what}: processes left after the client closed: {left:#?}");
}

/// The Python SDK's stdio_client launching wrap around mcp-server-time (annotate) and
/// mcp-server-git (annotate and enforce).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_stdio_client_launches_wrap() {
    let scratch = Scratch::new("wrap-python");
    let marker = support::marker("wrap-python");
    let repo = scratch.path("repo");
    std::fs::create_dir_all(&repo).unwrap();
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .args(["-c", "user.name=T", "-c", "user.email=t@t.invalid", "-c", "init.defaultBranch=main"])
            .args(args)
            .current_dir(&repo)
            .status()
            .expect("git");
        assert!(ok.success(), "git {args:?}");
    };
    git(&["init", "-q"]);
    std::fs::write(repo.join("notes.txt"), "one\n").unwrap();
    git(&["add", "notes.txt"]);
    git(&["commit", "-q", "-m", "first"]);

    let time_server = vec![s(venv_bin("mcp-server-time")), "--local-timezone".into(), "UTC".into()];
    let git_server = vec![s(venv_bin("mcp-server-git")), "--repository".into(), s(&repo)];
    let enforce = enforce_config(&scratch, "enforce.toml", &format!("min_score = {GIT_MIN_SCORE}\n"));
    let time_name = format!("{marker}-time");
    let git_name = format!("{marker}-git");
    let git_enf_name = format!("{marker}-gitenf");

    let plan = |extra: Value| {
        let mut p = vec![json!({"op": "list"}), json!({"op": "procs", "marker": "MARK"})];
        p.extend(extra.as_array().cloned().unwrap_or_default());
        p
    };
    let with_marker = |plan: Vec<Value>, m: &str| s(serde_json::to_string(&plan).unwrap().replace("MARK", m));
    let stdio_args = |plan: String, cmd: Vec<String>| {
        let mut a = vec!["stdio".to_owned(), plan, "--".into()];
        a.extend(cmd);
        a
    };
    let time_plan = plan(json!([
        {"op": "call", "tool": "convert_time",
         "args": {"source_timezone": "Europe/Paris", "time": "09:15", "target_timezone": "UTC"}},
    ]));
    let git_plan = plan(json!([{"op": "call", "tool": "git_log", "args": {"repo_path": s(&repo), "max_count": 5}}]));
    let (time, git_out) = tokio::join!(
        support::py_client(
            &scratch,
            "time-client",
            stdio_args(with_marker(time_plan, &time_name), wrap_cmd(None, &time_name, &time_server)),
        ),
        support::py_client(
            &scratch,
            "git-client",
            stdio_args(with_marker(git_plan, &git_name), wrap_cmd(None, &git_name, &git_server)),
        ),
    );

    // Time: scored list, the right conversion (09:15 in Paris, winter or summer, is 08:15 or
    // 07:15 UTC), no unparsable line on stdout.
    assert_eq!(time["serverName"], "mcp-time");
    let tools = listed(&time, 0);
    assert_eq!(tool_names(&tools), ["get_current_time", "convert_time"]);
    assert_scored(&tools, "wrap time");
    let converted: Value = serde_json::from_str(&ok_text(&call(&time, 0), "convert_time")).unwrap();
    let utc = converted["target"]["datetime"].as_str().unwrap_or_default();
    assert!(utc.ends_with("T08:15:00+00:00") || utc.ends_with("T07:15:00+00:00"), "{converted}");
    assert_eq!(time["exceptions"], json!([]), "every stdout line was a JSON-RPC message: {time}");

    // Git: scored, git_log shows the scratch commit.
    let git_tools = listed(&git_out, 0);
    assert_scored(&git_tools, "wrap git");
    assert!(ok_text(&call(&git_out, 0), "git_log").contains("first"), "{git_out}");

    // Both clients closed stdin: each wrapper exited by itself at once (the SDK would wait 2 s
    // and then SIGTERM), and took its server along.
    for (out, what) in [(&time, "time"), (&git_out, "git")] {
        let close = out["closeSeconds"].as_f64().unwrap_or(99.0);
        eprintln!("{what}: the client's close took {close} s");
        assert!(close < 1.9, "{what}: the wrapper did not exit when stdin closed ({close} s)");
        let ps = steps(out, "procs")[0]["procs"].as_array().cloned().unwrap_or_default();
        assert!(ps.len() >= 2, "{what}: the wrapper and its server were running: {ps:?}");
        let pids: Vec<i32> = ps.iter().filter_map(|p| p["pid"].as_i64()).map(|p| p as i32).collect();
        expect_gone(&pids, what).await;
    }

    // Enforce: the tools below the minimum are gone; calling one is refused.
    let lowest =
        git_tools.iter().min_by(|a, b| tdqs(a).total_cmp(&tdqs(b))).unwrap()["name"].as_str().unwrap().to_owned();
    assert!(tdqs(git_tools.iter().find(|t| t["name"] == lowest.as_str()).unwrap()) < GIT_MIN_SCORE, "{git_tools:?}");
    let enf_plan = plan(json!([
        {"op": "call", "tool": lowest, "args": {"repo_path": s(&repo), "branch_name": "main"}},
        {"op": "call", "tool": "git_status", "args": {"repo_path": s(&repo)}},
    ]));
    let enf = support::py_client(
        &scratch,
        "git-enforce-client",
        stdio_args(with_marker(enf_plan, &git_enf_name), wrap_cmd(Some(&enforce), &git_enf_name, &git_server)),
    )
    .await;
    let visible = listed(&enf, 0);
    let expected: Vec<String> =
        tool_names(&git_tools.iter().filter(|t| tdqs(t) >= GIT_MIN_SCORE).cloned().collect::<Vec<_>>());
    assert!(!expected.is_empty() && expected.len() < git_tools.len(), "the minimum splits the tools: {git_tools:?}");
    assert_eq!(tool_names(&visible), expected, "enforce keeps exactly the tools at or above {GIT_MIN_SCORE}");
    assert_scored(&visible, "wrap git enforce");
    assert_refused(&call(&enf, 0), &lowest, "wrap git enforce");
    if expected.iter().any(|t| t == "git_status") {
        assert!(ok_text(&call(&enf, 1), "git_status").contains("main"));
    }
    let pids: Vec<i32> = steps(&enf, "procs")[0]["procs"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["pid"].as_i64())
        .map(|p| p as i32)
        .collect();
    expect_gone(&pids, "git enforce").await;
}

/// The TypeScript SDK's StdioClientTransport launching wrap around server-everything.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typescript_stdio_client_launches_wrap() {
    let scratch = Scratch::new("wrap-ts");
    let marker = support::marker("wrap-ts");
    let server = vec!["node".to_owned(), s(everything_js()), "stdio".into()];
    let enforce = enforce_config(&scratch, "enforce.toml", "min_tier = \"A\"\n");
    let args = |plan: Value, cfg: Option<&std::path::Path>, name: &str| {
        let mut a = vec!["stdio".to_owned(), plan.to_string(), "--".into()];
        a.extend(wrap_cmd(cfg, name, &server));
        a
    };
    let annotate_plan = json!([
        {"op": "list"},
        {"op": "procs"},
        {"op": "call", "tool": "echo", "args": {"message": marker}},
        {"op": "call", "tool": "get-sum", "args": {"a": 2, "b": 40}},
    ]);
    let out = support::ts_client(&scratch, "ts-annotate", args(annotate_plan, None, &format!("{marker}-a"))).await;
    let tools = listed(&out, 0);
    assert_eq!(tools.len(), 13, "{:?}", tool_names(&tools));
    assert_scored(&tools, "wrap everything");
    assert_eq!(ok_text(&call(&out, 0), "echo"), format!("Echo: {marker}"));
    assert!(ok_text(&call(&out, 1), "get-sum").contains("42"));
    assert_eq!(out["errors"], json!([]), "{out}");
    assert_eq!(out["exit"], json!({"code": 0, "signal": null}), "wrap exits 0 by itself when stdin closes: {out}");
    eprintln!("ts: the client's close took {} ms", out["closeMs"]);
    assert!(out["closeMs"].as_i64().unwrap_or(99_999) < 1900, "{out}");
    let p = &steps(&out, "procs")[0];
    let mut pids = vec![p["pid"].as_i64().unwrap() as i32];
    pids.extend(p["children"].as_array().unwrap().iter().map(|c| c.as_i64().unwrap() as i32));
    assert_eq!(pids.len(), 2, "wrap runs exactly one server: {p}");
    expect_gone(&pids, "ts annotate").await;

    // Enforce at tier A: only tier-A tools remain; echo (below A) is refused.
    let hidden: Vec<String> = tool_names(
        &tools
            .iter()
            .filter(|t| score_of(t).and_then(|s| s["tier"].as_str()) != Some("A"))
            .cloned()
            .collect::<Vec<_>>(),
    );
    let visible: Vec<String> = tool_names(&tools).into_iter().filter(|n| !hidden.contains(n)).collect();
    assert!(!hidden.is_empty() && !visible.is_empty(), "{tools:?}");
    let victim = hidden[0].clone();
    let enforce_plan = json!([
        {"op": "list"},
        {"op": "call", "tool": victim, "args": {}},
        {"op": "call", "tool": "get-env", "args": {}},
    ]);
    let enf =
        support::ts_client(&scratch, "ts-enforce", args(enforce_plan, Some(&enforce), &format!("{marker}-e"))).await;
    assert_eq!(tool_names(&listed(&enf, 0)), visible);
    assert_refused(&call(&enf, 0), &victim, "wrap everything enforce");
    assert!(ok_text(&call(&enf, 1), "get-env").contains("PATH"));
    assert_eq!(enf["exit"], json!({"code": 0, "signal": null}), "{enf}");
}

/// Our side of a raw wrap process ([`Wrap`], debug logs on stderr), and every stdout line read.
struct RawWrap {
    wrap: Wrap,
    seen: Vec<String>,
}

impl RawWrap {
    fn start(scratch: &Scratch, args: &[String], server: &[String]) -> RawWrap {
        let mut cmd = Wrap::command(args, server);
        cmd.env("TDQS_LOG", "debug").envs(scratch.envs());
        RawWrap { wrap: Wrap::spawn(&scratch.dir, "wrap", cmd), seen: vec![] }
    }

    fn send(&mut self, msg: Value) {
        self.wrap.send(&msg);
    }

    /// Reads lines until the answer to `id`; every line must be a JSON-RPC 2.0 object.
    fn answer(&mut self, id: Value) -> Value {
        loop {
            let line = self.wrap.next_line(Duration::from_secs(30)).unwrap_or_else(|e| {
                panic!("no answer to {id} ({e}); lines so far: {:#?}\n{}", self.seen, self.wrap.proc.logs())
            });
            self.seen.push(line.clone());
            let msg = assert_jsonrpc_line(&line);
            if msg["id"] == id && msg.get("method").is_none() {
                return msg;
            }
        }
    }

    /// Closes stdin, waits for the exit and returns the remaining stdout lines.
    fn close(&mut self) -> (Option<std::process::ExitStatus>, Vec<String>) {
        let status = self.wrap.close(Duration::from_secs(5));
        (status, self.wrap.pending_lines())
    }
}

fn assert_jsonrpc_line(line: &str) -> Value {
    let msg: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line:?}"));
    assert!(msg.is_object() && msg["jsonrpc"] == "2.0", "stdout line is not a JSON-RPC 2.0 message: {line}");
    assert!(
        msg.get("method").is_some() || msg.get("result").is_some() || msg.get("error").is_some(),
        "stdout line is neither a request, a notification nor an answer: {line}"
    );
    msg
}

fn init(id: i64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}})
}

fn bad_server(marker: &str, flags: &[&str]) -> Vec<String> {
    let mut v = vec![s(support::python()), s(support::rig("bad_server.py")), "--marker".into(), marker.into()];
    v.extend(flags.iter().map(|f| f.to_string()));
    v
}

/// A server that writes non-JSON lines between its messages: wrap's stdout still carries only
/// JSON-RPC lines (with debug logging on, logs go to stderr), the answers all arrive, and
/// closing stdin ends the wrapper (status 0) and the server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raw_stdout_is_jsonrpc_only_and_close_exits() {
    let scratch = Scratch::new("wrap-raw");
    let marker = support::marker("wrap-raw");
    let mut w = RawWrap::start(&scratch, &["--name".into(), "bad".into()], &bad_server(&marker, &["--garbage"]));
    w.send(init(1));
    assert_eq!(w.answer(json!(1))["result"]["serverInfo"]["name"], "bad-server");
    w.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    w.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let tools = w.answer(json!(2))["result"]["tools"].as_array().cloned().unwrap();
    assert_eq!(tool_names(&tools), ["echo", "crash", "hang", "slow"]);
    assert_scored(&tools, "wrap bad");
    w.send(json!({"jsonrpc": "2.0", "id": "three", "method": "tools/call",
        "params": {"name": "echo", "arguments": {"text": marker}}}));
    let answer = w.answer(json!("three"));
    assert_eq!(answer["result"]["content"][0]["text"], format!("echo: {marker}"), "{answer}");
    let server = procs::children(w.wrap.proc.pid);
    assert_eq!(server.len(), 1, "one wrapped server: {server:#?}");
    assert!(server[0].cmdline.contains(&marker), "the server is the wrapper's child: {server:#?}");

    let (status, rest) = w.close();
    for line in &rest {
        assert_jsonrpc_line(line);
    }
    let status =
        status.unwrap_or_else(|| panic!("wrap did not exit within 5 s of stdin closing\n{}", w.wrap.proc.logs()));
    assert!(status.success(), "wrap exit status {status}\n{}", w.wrap.proc.logs());
    expect_gone(&[server[0].pid], "the wrapped server").await;
    // The server's log notifications came through as messages; the logs went to stderr.
    assert!(w.seen.iter().any(|l| l.contains("notifications/message")), "{:#?}", w.seen);
    let stderr = std::fs::read_to_string(&w.wrap.proc.err).unwrap();
    assert!(stderr.contains("wrapped server ended"), "wrap logs on stderr: {stderr}");
    assert!(stderr.contains("not JSON"), "the dropped garbage is logged: {stderr}");
}

/// `--log-file`: the logs go to the file, nothing at all to stderr, and stdout stays clean.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raw_log_file_takes_the_logs() {
    let scratch = Scratch::new("wrap-logfile");
    let marker = support::marker("wrap-logfile");
    let log = scratch.path("wrap.log");
    let mut w = RawWrap::start(&scratch, &["--log-file".into(), s(&log)], &bad_server(&marker, &["--garbage"]));
    w.send(init(1));
    w.answer(json!(1));
    w.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    assert_scored(w.answer(json!(2))["result"]["tools"].as_array().unwrap(), "wrap --log-file");
    let (status, rest) = w.close();
    rest.iter().for_each(|l| {
        assert_jsonrpc_line(l);
    });
    assert!(status.is_some_and(|s| s.success()), "wrap exit: {status:?}\n{}", w.wrap.proc.logs());
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(text.contains("wrapped server ended"), "log file: {text}");
    let stderr = std::fs::read_to_string(&w.wrap.proc.err).unwrap();
    let ours: Vec<&str> = stderr.lines().filter(|l| !l.contains("bad_server")).collect();
    assert!(ours.is_empty(), "with --log-file nothing but the server's own stderr reaches stderr: {ours:#?}");
}

/// The wrapped server dies mid-call: wrap does not hang; it exits with an error status and the
/// server is reaped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raw_server_crash_ends_wrap() {
    let scratch = Scratch::new("wrap-crash");
    let marker = support::marker("wrap-crash");
    let mut w = RawWrap::start(&scratch, &[], &bad_server(&marker, &[]));
    w.send(init(1));
    w.answer(json!(1));
    let server = procs::children(w.wrap.proc.pid).pop().expect("the wrapped server runs");
    assert!(server.cmdline.contains(&marker), "{server:?}");
    w.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "crash", "arguments": {}}}));
    let status = w.wrap.proc.wait_timeout(Duration::from_secs(10));
    let status = status.unwrap_or_else(|| panic!("wrap still runs after its server died\n{}", w.wrap.proc.logs()));
    assert!(!status.success(), "wrap reports the server's failure in its exit status: {status}");
    for line in w.wrap.pending_lines() {
        assert_jsonrpc_line(&line);
    }
    assert!(!procs::alive(server.pid), "the crashed server is reaped");
    let stderr = std::fs::read_to_string(&w.wrap.proc.err).unwrap();
    assert!(stderr.contains("exit status 3"), "wrap names how its server ended: {stderr}");
}

/// JSON lines that are not JSON-RPC messages (a structured log line, `42`, `null`, `[1,2,3]`)
/// are server garbage too: they must not reach the client's stdout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raw_json_garbage_is_dropped() {
    let scratch = Scratch::new("wrap-json-garbage");
    let marker = support::marker("wrap-json-garbage");
    let mut w = RawWrap::start(&scratch, &[], &bad_server(&marker, &["--json-garbage"]));
    w.send(init(1));
    w.answer(json!(1));
    w.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    w.answer(json!(2));
    let (status, rest) = w.close();
    rest.iter().for_each(|l| {
        assert_jsonrpc_line(l);
    });
    assert!(status.is_some_and(|s| s.success()));
}
