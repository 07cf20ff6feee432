//! Durable scores on the embedded store: a restarted service serves every model score from
//! the SQLite file without calling the model again; a broken file is refused clearly.

use crate::support::gateway;
use crate::support::model_server;
use crate::support::process::run_to_exit;
use crate::support::scratch::Scratch;

use std::sync::Arc;
use std::time::Duration;

use model_server::{ModelServer, tool_answer};
use tdqs_gateway::judge::{Judge, ModelClient, ModelSettings, Prompts};
use tdqs_gateway::policy::ScoreState;
use tdqs_gateway::scoring::service::ScoringService;
use tdqs_gateway::store::{self, StoreUrl};
use tdqs_gateway::tdqs::definition::parse_tools;
use tdqs_gateway::tdqs::json;

/// Claim lease for model calls (one replica here: claims are always free).
const LEASE: Duration = Duration::from_secs(30);

fn judge(model: &ModelServer) -> Judge {
    let mut s = ModelSettings::new(model.base_url(), "scripted-model");
    s.backoff = Duration::from_millis(5);
    Judge::Model { client: ModelClient::new(s).unwrap(), prompts: Prompts::builtin() }
}

fn tools() -> Vec<tdqs_gateway::tdqs::definition::ToolDefinition> {
    let doc = json::parse(
        br#"[{"name":"alpha","description":"Reads alpha records by id."},
             {"name":"beta","description":"Deletes a beta record; cannot be undone."},
             {"name":"gamma","description":"Lists gamma items, newest first."}]"#,
    )
    .unwrap();
    parse_tools(&doc).unwrap().tools
}

async fn score_all(svc: &Arc<ScoringService>) -> Vec<ScoreState> {
    let tools = tools();
    let mut out = Vec::new();
    for t in &tools {
        out.push(svc.score_waiting("up", t, &Default::default(), Duration::from_secs(5)).await.state);
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_judges_nothing_again() {
    let scratch = Scratch::new("store-restart");
    let url = StoreUrl::Sqlite(scratch.path("data/scores.db"));
    let model = ModelServer::start();
    for name in ["alpha", "beta", "gamma"] {
        model.set_tool_answer(name, tool_answer([4, 4, 4, 4, 4, 4], false, "scripted"));
    }

    let first = ScoringService::with_store(judge(&model), 1000, store::open(&url).unwrap(), LEASE);
    let states = score_all(&first).await;
    assert!(states.iter().all(|s| matches!(s, ScoreState::Final(_))), "{states:?}");
    assert_eq!(model.requests().len(), 3);
    drop(first);
    // The writer flushes in the background: wait for the three rows to reach the file.
    let reopened = store::open(&url).unwrap();
    let count = || reopened.scores_for_judge("scripted-model", 100).unwrap().len();
    let all = crate::support::patience::poll(Duration::from_secs(10), || (count() == 3).then_some(())).await;
    assert!(all.is_some(), "all three model scores reached the file: {} did", count());

    // A new process's worth of service on the same file: final scores at once, no model call.
    let second = ScoringService::with_store(judge(&model), 1000, reopened, LEASE);
    for t in &tools() {
        let s = second.score("up", t, &Default::default());
        assert!(matches!(s.state, ScoreState::Final(_)), "{}: {:?}", t.name, s.state);
        assert_eq!(s.judge, "scripted-model");
    }
    assert_eq!(model.requests().len(), 3, "no judge call after the restart");
}

#[test]
fn serve_refuses_a_broken_store_file_with_one_clear_line() {
    let scratch = Scratch::new("store-broken");
    let db = scratch.path("scores.db");
    std::fs::write(&db, vec![b'x'; 4096]).unwrap();
    let mut cmd = gateway::command();
    cmd.args(["serve", "--listen", "127.0.0.1:0", "--upstream", "u=http://127.0.0.1:9/mcp", "--store"])
        .arg(format!("sqlite://{}", db.display()));
    let (status, err) = run_to_exit(&scratch.dir, "serve", cmd, Duration::from_secs(60));
    assert_eq!(status.code(), Some(2));
    let last = err.lines().last().unwrap_or_default();
    assert!(last.contains("scores.db") && last.contains("not a database"), "{err}");
}
