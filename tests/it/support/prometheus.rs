//! Debian's Prometheus server for the telemetry tests, started on a free loopback port with its
//! own config and data folder.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::patience::{poll_async, scaled};
use super::process::Proc;
use super::rig::free_port;

/// Debian's Prometheus server scraping one target every 500 ms, held by a [`Proc`] (so it ends
/// with the test, even a crashed one).
pub struct Prometheus {
    proc: Proc,
    pub port: u16,
    dir: PathBuf,
}

impl Prometheus {
    /// Starts `prometheus` scraping `target` (host:port, path `/metrics`). Panics when the
    /// binary is missing: the test needs it (scripts/deps/telemetry.sh installs it).
    pub async fn start(dir: &Path, target: SocketAddr) -> Prometheus {
        let binary =
            ["/usr/bin/prometheus", "/usr/local/bin/prometheus"].into_iter().map(PathBuf::from).find(|p| p.exists());
        let binary = binary.unwrap_or_else(|| {
            panic!("the `prometheus` binary is missing: run scripts/deps/telemetry.sh (Debian package `prometheus`)")
        });
        let dir = dir.join("prometheus");
        std::fs::create_dir_all(dir.join("data")).unwrap();
        let config = format!(
            "global:\n  scrape_interval: 500ms\n  scrape_timeout: 400ms\n  evaluation_interval: 1s\n\
             scrape_configs:\n  - job_name: tdqs-gateway\n    static_configs:\n      - targets: ['{target}']\n"
        );
        std::fs::write(dir.join("prometheus.yml"), config).unwrap();
        for attempt in 0..5 {
            let port = free_port();
            let args = vec![
                format!("--config.file={}", dir.join("prometheus.yml").display()),
                format!("--storage.tsdb.path={}", dir.join("data").display()),
                format!("--web.listen-address=127.0.0.1:{port}"),
            ];
            let mut proc = Proc::spawn(&dir, &format!("prometheus-{attempt}"), &binary, &args, &[]);
            let http = reqwest::Client::new();
            let ready = poll_async(Duration::from_secs(30), async || {
                if proc.exited().is_some() {
                    return Some(false);
                }
                let ready = http.get(format!("http://127.0.0.1:{port}/-/ready")).send().await;
                ready.is_ok_and(|r| r.status() == 200).then_some(true)
            });
            if ready.await == Some(true) {
                return Prometheus { proc, port, dir };
            }
            eprintln!("prometheus attempt {attempt} failed:\n{}", proc.logs());
        }
        panic!("prometheus would not start");
    }

    pub fn log(&self) -> String {
        self.proc.logs()
    }

    /// An instant query through Prometheus' HTTP API: the `result` vector.
    pub async fn query(&self, promql: &str) -> Vec<serde_json::Value> {
        let base = format!("http://127.0.0.1:{}/api/v1/query", self.port);
        let url = reqwest::Url::parse_with_params(&base, &[("query", promql)]).unwrap();
        let resp = reqwest::get(url).await.expect("query prometheus");
        let body: serde_json::Value = resp.json().await.expect("prometheus answers JSON");
        assert_eq!(body["status"], "success", "{promql}: {body}");
        body["data"]["result"].as_array().cloned().unwrap_or_default()
    }

    /// Queries until the result is not empty.
    pub async fn query_until(&self, promql: &str, timeout: Duration) -> Vec<serde_json::Value> {
        let found = poll_async(timeout, async || Some(self.query(promql).await).filter(|r| !r.is_empty())).await;
        found.unwrap_or_else(|| panic!("prometheus has no {promql} after {:?}\n{}", scaled(timeout), self.log()))
    }
}
