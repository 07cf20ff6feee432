//! The PostgreSQL store against a real server: migrations applied once by concurrent
//! openers, every store operation, claims that exclude other owners until their lease runs
//! out (on the database's clock), and an outage that fails calls promptly instead of hanging.
//! Over TLS (a server with `ssl=on` and a test CA): each `sslmode`, `sslrootcert`, and the
//! failures a wrong host name, a wrong CA or a server that insists on TLS must give.

use crate::support::pg as pg_support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use pg_support::{Hba, PgServer};
use tdqs_gateway::store::{PostgresStore, Sighting, Store, StoredKey};

fn key(h: &str) -> StoredKey {
    StoredKey { input_hash: h.into(), spec_version: "1.3".into(), judge: "m".into(), prompts_sha256: "p".into() }
}

#[test]
fn every_operation_round_trips() {
    let pg = PgServer::start();
    // Three replicas starting at once: one applies the migrations, none fails.
    let url = pg.url();
    let opened: Vec<_> = (0..3)
        .map(|_| {
            let url = url.clone();
            std::thread::spawn(move || PostgresStore::open(&url))
        })
        .collect();
    for o in opened {
        o.join().unwrap().expect("open and migrate");
    }
    let s = PostgresStore::open(&url).unwrap();
    let version: i32 = pg.client().query_one("SELECT version FROM tdqs_schema", &[]).unwrap().get(0);
    assert_eq!(version, 2);

    s.put_scores(&[(key("a"), serde_json::json!({"tdqs": 4.3}))]).unwrap();
    s.put_scores(&[(key("a"), serde_json::json!({"tdqs": 4.4})), (key("b"), serde_json::json!({}))]).unwrap();
    assert_eq!(s.get_score(&key("a")).unwrap(), Some(serde_json::json!({"tdqs": 4.4})));
    assert_eq!(s.get_score(&key("zzz")).unwrap(), None);
    assert_eq!(s.scores_for_judge("m", 10).unwrap().len(), 2);

    let seen = |h: &str, at: i64| Sighting {
        upstream: "u".into(),
        tool: "t".into(),
        input_hash: h.into(),
        first_seen: at,
        last_seen: at,
    };
    s.record_sightings(&[seen("h1", 10), seen("h2", 30)]).unwrap();
    s.record_sightings(&[seen("h1", 20)]).unwrap();
    let h = s.history("u", "t").unwrap();
    assert_eq!((h[0].input_hash.as_str(), h[0].first_seen, h[0].last_seen), ("h1", 10, 20));
    assert_eq!(s.upstream_history("u").unwrap().len(), 2);

    s.put_coherence("k", "srv", &serde_json::json!({"summary": "x"})).unwrap();
    assert_eq!(s.get_coherence("k").unwrap(), Some(serde_json::json!({"summary": "x"})));
    s.put_server_report("srv", &serde_json::json!({"n": 1})).unwrap();
    s.put_server_report("srv", &serde_json::json!({"n": 2})).unwrap();
    assert_eq!(s.server_reports().unwrap(), vec![("srv".to_owned(), serde_json::json!({"n": 2}))]);

    let pin = |h: &str| tdqs_gateway::store::Pin {
        upstream: "u".into(),
        tool: "t".into(),
        input_hash: h.into(),
        approved_at: 1,
        approved_by: "test".into(),
    };
    assert!(s.pin_first(&pin("h1")).unwrap());
    assert!(!s.pin_first(&pin("h2")).unwrap());
    s.approve(&[pin("h2"), pin("h2")]).unwrap();
    assert_eq!(s.pins().unwrap().len(), 2);
}

#[test]
fn claims_hold_until_released_or_expired() {
    let pg = PgServer::start();
    let s = Arc::new(PostgresStore::open(&pg.url()).unwrap());
    // Ten owners race for one key: exactly one wins.
    let racers: Vec<_> = (0..10)
        .map(|i| {
            let s = s.clone();
            std::thread::spawn(move || s.claim("race", &format!("owner-{i}"), 60_000).unwrap())
        })
        .collect();
    let winners = racers.into_iter().map(|r| r.join().unwrap()).filter(|w| *w).count();
    assert_eq!(winners, 1);

    assert!(s.claim("k", "a", 1_000).unwrap());
    assert!(!s.claim("k", "b", 1_000).unwrap());
    assert!(s.claim("k", "a", 1_000).unwrap(), "renewal by the holder");
    // b takes the key over once a's lease has run out.
    let taken = crate::support::patience::poll_blocking(Duration::from_secs(5), || {
        s.claim("k", "b", 60_000).unwrap().then_some(())
    });
    assert!(taken.is_some(), "a's lease ran out");
    s.release("k", "a").unwrap();
    assert!(!s.claim("k", "a", 60_000).unwrap(), "releasing someone else's claim does nothing");
    s.release("k", "b").unwrap();
    assert!(s.claim("k", "a", 60_000).unwrap());

    // Renewals extend the owner's claims only, and a renewal after a release (one that was
    // in flight when its claim was let go) leaves nothing behind.
    assert!(s.claim("r", "b", 60_000).unwrap());
    let keys = ["k".to_owned(), "r".to_owned(), "never".to_owned()];
    assert_eq!(s.renew(&keys, "a", 60_000).unwrap(), ["k"]);
    s.release("k", "a").unwrap();
    assert!(s.renew(&keys, "a", 60_000).unwrap().is_empty());
    assert_eq!(pg.count("SELECT count(*) FROM claims WHERE key = 'k'"), 0, "the released claim stays gone");
}

#[test]
fn an_outage_fails_calls_promptly_and_the_pool_reconnects() {
    let mut pg = PgServer::start();
    let s = PostgresStore::open(&pg.url()).unwrap();
    s.ping().unwrap();
    pg.stop();
    let started = Instant::now();
    let e = s.get_score(&key("a")).expect_err("the database is down");
    assert!(started.elapsed() < Duration::from_secs(10), "failed within the connect timeout");
    assert!(!e.to_string().is_empty());
    pg.resume();
    let reconnected = crate::support::patience::poll_blocking(Duration::from_secs(20), || s.ping().ok());
    assert!(reconnected.is_some(), "the pool never reconnected");
    s.put_scores(&[(key("after"), serde_json::json!({}))]).unwrap();
}

#[test]
fn an_unreachable_database_is_a_clear_error_without_the_password() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("postgres://app:s3cret@127.0.0.1:{port}/tdqs");
    let e = PostgresStore::open(&url).err().expect("refused").to_string();
    assert!(e.contains(&format!("postgres://app:***@127.0.0.1:{port}/tdqs")), "{e}");
    assert!(!e.contains("s3cret"), "{e}");
}

/// TLS connections the store holds open on the server (its pool keeps them idle after use).
fn tls_connections(pg: &PgServer) -> i64 {
    pg.count(
        "SELECT count(*) FROM pg_stat_ssl JOIN pg_stat_activity USING (pid)
         WHERE application_name = 'tdqs-gateway' AND ssl",
    )
}

fn open_err(url: &str) -> String {
    match PostgresStore::open(url) {
        Ok(_) => panic!("{url} should have been refused"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn tls_require_and_prefer_encrypt_without_verifying() {
    let pg = PgServer::start_tls(Hba::Any);
    // require: a certificate from a CA the gateway has never seen is fine (as in libpq).
    let s = PostgresStore::open(&format!("{}?sslmode=require", pg.url())).expect("require");
    s.put_scores(&[(key("tls"), serde_json::json!({"tdqs": 4.0}))]).unwrap();
    assert!(tls_connections(&pg) >= 1, "the store's connection is encrypted");
    drop(s);
    // No sslmode is libpq's prefer: TLS when the server offers it.
    let s = PostgresStore::open(&pg.url()).expect("prefer");
    s.ping().unwrap();
    assert!(tls_connections(&pg) >= 1);
}

#[test]
fn tls_verify_full_with_the_private_ca_succeeds() {
    let pg = PgServer::start_tls(Hba::Any);
    let ca = pg.ca_file();
    let url = pg.tls_url(&format!("sslmode=verify-full&sslrootcert={}", ca.display()));
    let s = PostgresStore::open(&url).expect("verify-full with the CA");
    assert_eq!(s.get_score(&key("none")).unwrap(), None);
    assert!(tls_connections(&pg) >= 1);
    // The certificate also names 127.0.0.1: an address is checked against its IP entries.
    let by_ip =
        format!("postgres://tdqs@127.0.0.1:{}/postgres?sslmode=verify-full&sslrootcert={}", pg.port, ca.display());
    PostgresStore::open(&by_ip).expect("verify-full by address");
    // verify-ca checks the chain only, so another name is accepted.
    let other = by_ip.replace("127.0.0.1", "other.test").replace("verify-full", "verify-ca") + "&hostaddr=127.0.0.1";
    PostgresStore::open(&other).expect("verify-ca ignores the host name");
}

#[test]
fn tls_verification_failures_are_clear_and_keep_the_password_out() {
    let pg = PgServer::start_tls(Hba::Any);
    let (ca, other_ca) = (pg.ca_file(), pg.other_ca_file());
    let with_password = |url: String| url.replace("tdqs@", "tdqs:s3cret@");

    let wrong_host = with_password(format!(
        "postgres://tdqs@other.test:{}/postgres?hostaddr=127.0.0.1&sslmode=verify-full&sslrootcert={}",
        pg.port,
        ca.display()
    ));
    let e = open_err(&wrong_host);
    assert!(e.contains("TLS") && e.contains("not valid for name") && e.contains("other.test"), "{e}");
    assert!(e.contains("tdqs:***@other.test") && !e.contains("s3cret"), "{e}");

    let wrong_ca = with_password(pg.tls_url(&format!("sslmode=verify-full&sslrootcert={}", other_ca.display())));
    let e = open_err(&wrong_ca);
    assert!(e.contains("TLS") && e.contains("UnknownIssuer") && e.contains("not signed by a CA in sslrootcert"), "{e}");
    assert!(!e.contains("s3cret"), "{e}");

    // As in libpq, a root file makes require verify the chain.
    let e = open_err(&format!("{}?sslmode=require&sslrootcert={}", pg.url(), other_ca.display()));
    assert!(e.contains("UnknownIssuer"), "{e}");
    // verify-ca without sslrootcert uses the system's CAs, which do not know the test CA.
    let e = open_err(&pg.tls_url("sslmode=verify-ca"));
    assert!(e.contains("UnknownIssuer"), "{e}");

    // Bad parameters are refused before connecting, naming them.
    let e = open_err(&with_password(pg.tls_url("sslmode=verify")));
    assert!(e.contains("sslmode=\"verify\"") && !e.contains("s3cret"), "{e}");
    let e = open_err(&pg.tls_url("sslmode=verify-full&sslrootcert=/nonexistent/ca.pem"));
    assert!(e.contains("sslrootcert /nonexistent/ca.pem"), "{e}");
    let e = open_err(&pg.tls_url("sslcert=client.pem"));
    assert!(e.contains("sslcert"), "{e}");
}

#[test]
fn tls_disable_against_a_server_that_insists_on_tls_fails_clearly() {
    let pg = PgServer::start_tls(Hba::HostSslOnly);
    let e = open_err(&format!("{}?sslmode=disable", pg.url()));
    assert!(e.contains("no pg_hba.conf entry") && e.contains("no encryption"), "{e}");
    let url = pg.tls_url(&format!("sslmode=verify-full&sslrootcert={}", pg.ca_file().display()));
    PostgresStore::open(&url).expect("the same server over TLS");
}
