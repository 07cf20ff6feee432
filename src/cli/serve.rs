//! `tdqs-gateway serve` (the proxy) and `check-config`. Logs go to stderr; their level comes
//! from `TDQS_LOG` or `RUST_LOG` (e.g. `info`, `tdqs_gateway=debug`), else
//! `telemetry.log_level`; their format from `--log-format`, else `telemetry.log_format`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};

use super::Outcome;
use crate::config::{Config, JudgeKind, Transport, UpstreamConfig};
use crate::judge::{Judge, ModelClient, ModelSettings, Prompts};
use crate::policy::settings::Mode;
use crate::scoring::service::{CacheLimits, ScoringService};
use crate::server::workers::Workers;
use crate::server::{App, serve_on};

#[derive(Args)]
pub struct ServeArgs {
    /// A TOML config (see config/gateway.toml for every key).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Listen address, overriding the config (e.g. 127.0.0.1:8080).
    #[arg(long)]
    listen: Option<std::net::SocketAddr>,
    /// An upstream as NAME=URL (Streamable HTTP); repeatable; added to the config's.
    #[arg(long = "upstream", value_name = "NAME=URL")]
    upstreams: Vec<String>,
    /// A stdio upstream as NAME='CMD ARGS' (one process per session); repeatable.
    #[arg(long = "upstream-cmd", value_name = "NAME=CMD")]
    upstream_cmds: Vec<String>,
    /// Policy mode for every upstream, overriding the config's default.
    #[arg(long, value_enum)]
    mode: Option<ModeArg>,
    /// Where scores are kept: sqlite://PATH or memory (overrides store.url).
    #[arg(long)]
    store: Option<String>,
    /// Log line format, overriding telemetry.log_format.
    #[arg(long, value_enum)]
    log_format: Option<LogFormat>,
    #[command(flatten)]
    runtime: RuntimeArgs,
}

/// Which Tokio runtime runs the gateway (benches/PROFILE.md has what each costs).
#[derive(Args, Clone, Copy)]
pub struct RuntimeArgs {
    /// `per-core` (the default): a current-thread runtime per core, each connection run whole
    /// on one of them with its own upstream pool (no cross-thread wake-ups per request);
    /// `multi-thread`: a worker per core, tasks stolen between them; `current-thread`: one
    /// thread runs every connection, using one core at most.
    #[arg(long, value_enum, env = "TDQS_RUNTIME", default_value = "per-core")]
    runtime: RuntimeKind,
    /// Worker threads of the multi-thread runtime, or serving threads of `per-core`
    /// (default: one per core).
    #[arg(long, env = "TDQS_WORKER_THREADS")]
    worker_threads: Option<usize>,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
enum RuntimeKind {
    MultiThread,
    PerCore,
    CurrentThread,
}

impl RuntimeArgs {
    fn build(self) -> anyhow::Result<tokio::runtime::Runtime> {
        let mut b = match self.runtime {
            RuntimeKind::MultiThread | RuntimeKind::PerCore => tokio::runtime::Builder::new_multi_thread(),
            RuntimeKind::CurrentThread => tokio::runtime::Builder::new_current_thread(),
        };
        match (self.runtime, self.worker_threads) {
            (RuntimeKind::MultiThread, Some(n)) => drop(b.worker_threads(n.max(1))),
            // The main runtime keeps the listener and background work (judging, the store,
            // telemetry); the connections run on the serving workers.
            (RuntimeKind::PerCore, _) => drop(b.worker_threads(1)),
            _ => {}
        }
        b.enable_all().build().context("cannot start the runtime")
    }

    /// The serving workers of `per-core`, started.
    fn workers(self) -> anyhow::Result<Option<Arc<Workers>>> {
        if self.runtime != RuntimeKind::PerCore {
            return Ok(None);
        }
        let n = self.worker_threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        Ok(Some(Arc::new(Workers::start(n).context("cannot start the serving threads")?)))
    }
}

#[derive(Args)]
pub struct WrapArgs {
    /// A TOML config: its judge, cache and policy apply; an [[upstream]] named like this one
    /// contributes its policy and env.
    #[arg(long)]
    config: Option<PathBuf>,
    /// The upstream's name in logs and policy (default: the program's file name).
    #[arg(long)]
    name: Option<String>,
    /// Append logs to this file instead of stderr.
    #[arg(long)]
    log_file: Option<PathBuf>,
    /// Where scores are kept: sqlite://PATH or memory (overrides store.url).
    #[arg(long)]
    store: Option<String>,
    /// Log line format, overriding telemetry.log_format.
    #[arg(long, value_enum)]
    log_format: Option<LogFormat>,
    /// The stdio MCP server to launch, after `--`.
    #[arg(last = true, required = true, value_name = "CMD")]
    command: Vec<String>,
}

#[derive(Args)]
pub struct CheckConfigArgs {
    #[arg(long)]
    config: PathBuf,
}

#[derive(Clone, Copy, ValueEnum)]
enum ModeArg {
    Observe,
    Annotate,
    Enforce,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum LogFormat {
    Human,
    Json,
}

impl From<LogFormat> for crate::config::LogFormat {
    fn from(f: LogFormat) -> Self {
        match f {
            LogFormat::Human => crate::config::LogFormat::Human,
            LogFormat::Json => crate::config::LogFormat::Json,
        }
    }
}

/// Telemetry and logs (to stderr, or appended to `file`; never to stdout).
fn init_telemetry(
    cfg: &Config,
    format: Option<LogFormat>,
    file: Option<&std::path::Path>,
) -> anyhow::Result<crate::telemetry::Telemetry> {
    let options = crate::telemetry::LogOptions { format: format.map(Into::into), file };
    Ok(crate::telemetry::init(&cfg.telemetry, options)?)
}

/// The scoring service over the configured judge and store.
pub fn build_scoring(cfg: &Config) -> anyhow::Result<std::sync::Arc<ScoringService>> {
    let judge = build_judge(cfg)?;
    let url = cfg.store_url()?;
    let store = crate::store::open(&url).with_context(|| format!("cannot use the store {url:?}"))?;
    let limits = CacheLimits { max_entries: cfg.cache.max_entries, max_bytes: cfg.cache.max_bytes };
    Ok(ScoringService::with_store_limits(judge, limits, store, Duration::from_millis(cfg.store.lease_ms)))
}

/// The configured judge, with its key read from the environment.
pub fn build_judge(cfg: &Config) -> anyhow::Result<Judge> {
    let j = &cfg.judge;
    if j.kind == JudgeKind::Heuristic {
        return Ok(Judge::Heuristic);
    }
    let mut s = ModelSettings::new(j.base_url.clone().unwrap_or_default(), j.model.clone().unwrap_or_default());
    s.api_key = std::env::var(&j.api_key_env).ok().filter(|k| !k.is_empty());
    s.concurrency = j.concurrency;
    s.timeout = Duration::from_millis(j.timeout_ms);
    s.max_attempts = j.max_attempts;
    s.request_overrides = j.request_overrides.clone();
    let prompts = match &j.prompts_dir {
        Some(dir) => Prompts::from_dir(&cfg.resolve(dir))?,
        None => Prompts::builtin(),
    };
    Ok(Judge::Model { client: ModelClient::new(s)?, prompts })
}

fn load(args: &ServeArgs) -> anyhow::Result<Config> {
    let mut cfg = match &args.config {
        Some(path) => Config::load(path)?,
        None => Config::default(),
    };
    if let Some(addr) = args.listen {
        cfg.listen.addr = addr;
    }
    for spec in &args.upstreams {
        let Some((name, url)) = spec.split_once('=') else { bail!("--upstream expects NAME=URL, got {spec:?}") };
        cfg.upstreams.push(UpstreamConfig::http(name, url));
    }
    for spec in &args.upstream_cmds {
        let Some((name, cmd)) = spec.split_once('=') else {
            bail!("--upstream-cmd expects NAME='CMD ARGS', got {spec:?}")
        };
        let command =
            shell_words::split(cmd).with_context(|| format!("--upstream-cmd {name}: cannot split {cmd:?}"))?;
        cfg.upstreams.push(UpstreamConfig::stdio(name, command));
    }
    if let Some(store) = &args.store {
        cfg.store.url = Some(store.clone());
    }
    if let Some(mode) = args.mode {
        cfg.policy.mode = Some(match mode {
            ModeArg::Observe => Mode::Observe,
            ModeArg::Annotate => Mode::Annotate,
            ModeArg::Enforce => Mode::Enforce,
        });
    }
    cfg.validate()?;
    if cfg.upstreams.is_empty() {
        bail!("no upstreams: give --upstream NAME=URL or a config with [[upstream]] entries");
    }
    Ok(cfg)
}

pub fn run(args: ServeArgs) -> anyhow::Result<Outcome> {
    let cfg = load(&args)?;
    let runtime = args.runtime.build()?;
    let workers = args.runtime.workers()?;
    let telemetry = runtime.block_on(async { init_telemetry(&cfg, args.log_format, None) })?;
    let serving = workers.clone();
    let served = runtime.block_on(async move {
        // The threat rules compile once per process (about 280 million instructions): from the
        // start, off the runtime's threads, rather than inside the first list a client waits
        // for (a list that comes sooner waits for the same compilation, no longer).
        drop(tokio::task::spawn_blocking(crate::tdqs::threat::warm_up));
        let scoring = build_scoring(&cfg)?;
        let names: Vec<String> = cfg
            .upstreams
            .iter()
            .map(|u| match u.transport() {
                Transport::StreamableHttp(url) => format!("{} -> {url}", u.name),
                Transport::Stdio(cmd) => format!("{} -> stdio: {}", u.name, cmd.join(" ")),
                Transport::LegacySse(url) => format!("{} -> legacy SSE {url} (clients: /sse/{})", u.name, u.name),
            })
            .collect();
        let app = App::new(cfg, scoring).map_err(|e| anyhow::anyhow!("{e}"))?;
        let listening = serve_on(app.clone(), serving).await.map_err(|e| anyhow::anyhow!("{e}"))?;
        let gw = &app.gateway;
        let scheme = if listening.tls { "https" } else { "http" };
        tracing::info!(
            addr = %listening.local_addr,
            judge = %gw.scoring.judge().identity(),
            upstreams = ?names,
            "tdqs-gateway listening; MCP endpoints at {scheme}://{}/mcp/<upstream>",
            listening.local_addr
        );
        if let Some(admin) = app.console.as_ref().map(|c| &c.settings) {
            let at = listening.admin_addr.unwrap_or(listening.local_addr);
            tracing::info!(token_required = admin.token_required(), "admin dashboard at {scheme}://{at}/admin/");
        }
        shutdown_signal().await;
        let grace = Duration::from_millis(gw.serve.listen.shutdown_grace_ms);
        tracing::info!(grace_ms = grace.as_millis() as u64, "shutting down: finishing requests in flight");
        let left = listening.shutdown(grace).await;
        if left > 0 {
            tracing::info!(connections = left, "closing connections still open after the grace period");
        }
        let scoring = gw.scoring.clone();
        let flushed = tokio::task::spawn_blocking(move || scoring.flush_store(Duration::from_secs(5))).await;
        if !matches!(flushed, Ok(true)) {
            tracing::warn!("some scores were not written to the store before exit; they will be judged again");
        }
        Ok::<_, anyhow::Error>(())
    });
    // Tasks still running (streams past the grace period, a list being scored) are dropped
    // instead of waited for: shutdown stays bounded.
    runtime.shutdown_timeout(Duration::from_millis(500));
    if let Some(workers) = workers.and_then(|w| Arc::try_unwrap(w).ok()) {
        workers.stop();
    }
    // Flush queued telemetry (outside async code: the SDK blocks on its export threads).
    telemetry.shutdown();
    served?;
    Ok(Outcome::Done)
}

/// Ctrl-C, or SIGTERM (what a container runtime sends before it kills).
async fn shutdown_signal() {
    let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(s) => s,
        Err(_) => {
            tokio::signal::ctrl_c().await.ok();
            return;
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}

pub fn wrap(args: WrapArgs) -> anyhow::Result<Outcome> {
    let mut cfg = match &args.config {
        Some(path) => Config::load(path)?,
        None => Config::default(),
    };
    let program = std::path::Path::new(&args.command[0]);
    let name = args.name.clone().unwrap_or_else(|| {
        program.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_else(|| "wrapped".to_owned())
    });
    let mut upstream = cfg.upstream(&name).cloned().unwrap_or_default();
    upstream.name = name;
    upstream.launch(args.command.clone());
    cfg.upstreams = vec![upstream.clone()];
    if let Some(store) = &args.store {
        cfg.store.url = Some(store.clone());
    }
    cfg.validate()?;
    let policy = cfg.effective_policy(&upstream);
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start the runtime")?;
    let telemetry = runtime.block_on(async { init_telemetry(&cfg, args.log_format, args.log_file.as_deref()) })?;
    let code = runtime.block_on(async move {
        let scoring = build_scoring(&cfg)?;
        let tools = std::sync::Arc::new(crate::catalog::UpstreamTools::new(upstream.name.clone(), policy));
        Ok::<_, anyhow::Error>(crate::proxy::stdio::wrap::run(upstream, tools, scoring).await)
    });
    telemetry.shutdown();
    let code = code?;
    runtime.shutdown_timeout(Duration::from_millis(200));
    if code != 0 {
        bail!("the wrapped server exited with status {code}");
    }
    Ok(Outcome::Done)
}

pub fn check_config(args: CheckConfigArgs) -> anyhow::Result<Outcome> {
    let cfg = Config::load(&args.config)?;
    crate::proxy::upstream_target::check(&cfg).map_err(anyhow::Error::msg)?;
    let oauth = cfg.upstreams.iter().filter_map(|u| Some((u.name.as_str(), u.oauth.as_ref()?)));
    crate::auth::environment::check(&cfg.auth, oauth).map_err(anyhow::Error::msg)?;
    println!("{}: ok ({} upstreams, judge {:?})", args.config.display(), cfg.upstreams.len(), cfg.judge.kind);
    Ok(Outcome::Done)
}
