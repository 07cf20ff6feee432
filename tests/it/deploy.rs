//! The deployment files in `deploy/`, checked offline as CI can: Kubernetes manifests against
//! the Kubernetes schemas (kubernetes-validate), the compose file against the compose
//! specification (check-jsonschema's vendored copy), the Dockerfile with hadolint, the
//! Prometheus config with promtool, the files' references to each other, and the image's build
//! command and start command run outside Docker until `/healthz` answers.
//!
//! The tools come from `scripts/deps/deploy.sh` (run by `scripts/test`); a missing tool fails
//! the test with that hint. Every linter is also shown a broken file, so a linter that passes
//! everything would fail here.
//!
//! Long: the deployment files are checked against each other (the image's paths in the manifests,
//! in compose and in the image's own run) through one set of readers of the Dockerfile and the
//! YAML.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use serde_json::Value;

use crate::support::paths::root;
use crate::support::patience::poll_async;
use crate::support::process::Guarded;
use crate::support::scratch::Scratch;

const K8S_VERSIONS: [&str; 2] = ["1.32.0", "1.37.0"];
/// sha256 of `compose-spec.json` vendored in check-jsonschema 0.39.0: the schema we validate with.
const COMPOSE_SCHEMA_SHA256: &str = "d549057ebc2925f39f62799eab0db7b9e2c18b35b6c00595199116da3ed10e64";

fn deploy(rel: &str) -> PathBuf {
    root().join("deploy").join(rel)
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// A tool installed by scripts/deps/deploy.sh into .venv-deploy/.
fn venv_tool(name: &str) -> PathBuf {
    let p = root().join(".venv-deploy/bin").join(name);
    assert!(p.is_file(), "{} is missing: run scripts/deps/deploy.sh (scripts/test runs it)", p.display());
    p
}

/// A program from a Debian package that scripts/deps/deploy.sh installs.
fn system_tool(name: &str, package: &str) -> PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{name} is not on PATH: run scripts/deps/deploy.sh (Debian package {package})"))
}

/// Runs a command; returns whether it succeeded and its stdout and stderr together.
fn run(cmd: &mut Command) -> (bool, String) {
    let started = Instant::now();
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    eprintln!("{cmd:?}: {:?} in {:.2?}", out.status, started.elapsed());
    (out.status.success(), text)
}

/// Every YAML document of a file, as JSON (PyYAML from the tools' venv: no YAML crate needed).
fn yaml(path: &Path) -> Vec<Value> {
    let script = "import json, sys, yaml; json.dump(list(yaml.safe_load_all(open(sys.argv[1]))), sys.stdout)";
    let out = Command::new(venv_tool("python")).args(["-c", script]).arg(path).output().unwrap();
    assert!(out.status.success(), "{} is not YAML: {}", path.display(), String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn yaml1(path: &Path) -> Value {
    let mut docs = yaml(path);
    assert_eq!(docs.len(), 1, "{} should hold one document", path.display());
    docs.remove(0)
}

fn strs(v: &Value) -> Vec<&str> {
    v.as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default()
}

/// The Dockerfile as (instruction, arguments), continuation lines joined, comments dropped.
fn dockerfile() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in read(&deploy("Dockerfile")).lines() {
        if line.trim_start().starts_with('#') {
            continue;
        }
        current.push_str(line.trim_end_matches('\\').trim());
        current.push(' ');
        if !line.ends_with('\\') {
            let text = std::mem::take(&mut current);
            if let Some((word, rest)) = text.trim().split_once(' ') {
                out.push((word.to_uppercase(), rest.trim().to_owned()));
            }
        }
    }
    out
}

/// The one `name` instruction of the runtime (last) stage.
fn instruction(name: &str) -> String {
    let steps = dockerfile();
    let last_from = steps.iter().rposition(|(w, _)| w == "FROM").expect("a FROM");
    let all: Vec<String> = steps[last_from..].iter().filter(|(w, _)| w == name).map(|(_, a)| a.clone()).collect();
    assert_eq!(all.len(), 1, "the runtime stage should have one {name}, has {all:?}");
    all[0].clone()
}

fn exec_form(text: &str) -> Vec<String> {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not an exec-form JSON array: {text}: {e}"))
}

/// The image's config path (the last argument of CMD, after --config).
fn image_config_path() -> String {
    let cmd = exec_form(&instruction("CMD"));
    assert_eq!(cmd[..cmd.len() - 1], ["serve", "--config"], "CMD should be serve --config PATH");
    cmd[cmd.len() - 1].clone()
}

#[test]
fn dockerfile_passes_hadolint_and_has_what_the_issue_asks() {
    let hadolint = venv_tool("hadolint");
    let (ok, text) = run(Command::new(&hadolint).args(["--no-color", "-t", "style"]).arg(deploy("Dockerfile")));
    assert!(ok, "hadolint found problems in deploy/Dockerfile:\n{text}");
    let mut bad = Command::new(&hadolint);
    bad.args(["--no-color", "-t", "style", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped());
    let mut child = bad.spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"FROM debian\nRUN apt-get install curl\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success(), "hadolint passed a Dockerfile with an untagged base: it checks nothing");

    let steps = dockerfile();
    let froms: Vec<&String> = steps.iter().filter(|(w, _)| w == "FROM").map(|(_, a)| a).collect();
    assert_eq!(froms.len(), 2, "a build stage and a runtime stage: {froms:?}");
    assert!(steps.iter().any(|(w, a)| w == "RUN" && a.contains("cargo build --release --locked")));
    let user = instruction("USER");
    assert!(!user.starts_with("root") && !user.starts_with('0'), "runs as root: USER {user}");
    assert!(steps.iter().any(|(w, a)| w == "RUN" && a.contains("ca-certificates")), "no CA certificates");
    assert!(instruction("HEALTHCHECK").contains("/healthz"));
    let volumes = exec_form(&instruction("VOLUME"));
    let config_dir = Path::new(&image_config_path()).parent().unwrap().to_str().unwrap().to_owned();
    assert!(volumes.contains(&config_dir), "the config folder {config_dir} is not a volume: {volumes:?}");
    // .dockerignore keeps everything out but what the COPY instructions take from the context.
    let ignore = read(&root().join(".dockerignore"));
    let patterns: Vec<&str> = ignore.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    assert_eq!(patterns.first(), Some(&"*"), ".dockerignore should start by excluding everything");
    for (_, args) in steps.iter().filter(|(w, a)| w == "COPY" && !a.starts_with("--from")) {
        let words: Vec<&str> = args.split_whitespace().collect();
        for source in &words[..words.len() - 1] {
            let let_in = patterns.iter().any(|p| p.strip_prefix('!').map(|p| p.trim_end_matches('/')) == Some(source));
            assert!(let_in, "COPY {source} needs a `!{source}` line in .dockerignore");
        }
    }
}

#[test]
fn kubernetes_manifests_match_the_schemas() {
    let dir = deploy("kubernetes");
    let kustomization = yaml1(&dir.join("kustomization.yaml"));
    let mut files: Vec<PathBuf> = strs(&kustomization["resources"]).iter().map(|r| dir.join(r)).collect();
    for f in &files {
        assert!(f.is_file(), "kustomization.yaml lists {} which does not exist", f.display());
    }
    // Every manifest in the folder is either applied or the documented example Secret.
    for entry in fs::read_dir(&dir).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_owned();
        if name.ends_with(".yaml") && name != "kustomization.yaml" && name != "secret.example.yaml" {
            assert!(files.contains(&p), "{name} is not listed in kustomization.yaml");
        }
    }
    files.push(dir.join("secret.example.yaml"));
    let validate = venv_tool("kubernetes-validate");
    for version in K8S_VERSIONS {
        let (ok, text) = run(Command::new(&validate).args(["--strict", "-k", version]).args(&files));
        assert!(ok, "Kubernetes {version} schemas refuse a manifest:\n{text}");
        assert_eq!(text.matches("passed").count(), files.len(), "one pass per manifest:\n{text}");
    }
    let scratch = Scratch::new("deploy-kubernetes");
    let bad = scratch.path("bad.yaml");
    fs::write(&bad, "apiVersion: v1\nkind: Service\nmetadata: {name: x}\nspec: {ports: [{port: http}], bogus: 1}\n")
        .unwrap();
    let (ok, text) = run(Command::new(&validate).args(["--strict", "-k", K8S_VERSIONS[1]]).arg(&bad));
    assert!(!ok, "kubernetes-validate passed a Service with a bad port and an unknown key:\n{text}");
}

#[test]
fn kubernetes_deployment_runs_the_image_as_the_issue_asks() {
    let dir = deploy("kubernetes");
    let d = yaml1(&dir.join("deployment.yaml"));
    assert_eq!(d["spec"]["replicas"], 3);
    let pod = &d["spec"]["template"]["spec"];
    let c = &pod["containers"][0];
    assert!(c.get("args").is_none() && c.get("command").is_none(), "runs the image's ENTRYPOINT and CMD");
    assert_eq!(c["livenessProbe"]["httpGet"]["path"], "/healthz");
    assert_eq!(c["readinessProbe"]["httpGet"]["path"], "/readyz");
    for kind in ["requests", "limits"] {
        assert!(c["resources"][kind]["cpu"].is_string() && c["resources"][kind]["memory"].is_string());
    }
    let uid = instruction("USER").split(':').next().unwrap().parse::<u64>().unwrap();
    assert_eq!(pod["securityContext"]["runAsUser"], uid, "the image's user");
    assert_eq!(pod["securityContext"]["runAsNonRoot"], true);
    assert_eq!(c["securityContext"]["readOnlyRootFilesystem"], true);
    assert_eq!(c["securityContext"]["allowPrivilegeEscalation"], false);
    assert_eq!(strs(&c["securityContext"]["capabilities"]["drop"]), ["ALL"]);

    // Volumes: the ConfigMap where the image reads its config; emptyDirs where it writes.
    let mounts: Vec<(&str, &str)> = c["volumeMounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["name"].as_str().unwrap(), m["mountPath"].as_str().unwrap()))
        .collect();
    let volume = |name: &str| pod["volumes"].as_array().unwrap().iter().find(|v| v["name"] == name).unwrap().clone();
    let config_dir = Path::new(&image_config_path()).parent().unwrap().to_str().unwrap().to_owned();
    let (config_volume, _) = mounts.iter().find(|(_, p)| *p == config_dir).expect("config folder mounted");
    let generated = &yaml1(&dir.join("kustomization.yaml"))["configMapGenerator"][0];
    assert_eq!(volume(config_volume)["configMap"]["name"], generated["name"]);
    assert_eq!(strs(&generated["files"]), ["gateway.toml"]);
    let volumes = exec_form(&instruction("VOLUME"));
    for path in volumes.iter().filter(|v| **v != config_dir).map(String::as_str).chain(["/tmp"]) {
        let (name, _) = mounts.iter().find(|(_, p)| *p == path).unwrap_or_else(|| panic!("{path} not mounted"));
        assert!(volume(name).get("emptyDir").is_some(), "{path} should be an emptyDir");
    }

    // Secrets: the three environment variables the config names, from one Secret.
    let cfg: toml::Value = toml::from_str(&read(&dir.join("gateway.toml"))).unwrap();
    assert_eq!(cfg["store"]["url"].as_str(), Some("${TDQS_DATABASE_URL}"));
    assert_eq!(cfg["admin"]["token_env"].as_str(), Some("TDQS_ADMIN_TOKEN"));
    assert_eq!(cfg["listen"]["addr"].as_str(), Some("0.0.0.0:8080"));
    assert_eq!(c["ports"][0]["containerPort"], 8080);
    let example = yaml1(&dir.join("secret.example.yaml"));
    for (var, key) in
        [("TDQS_DATABASE_URL", "database-url"), ("TDQS_ADMIN_TOKEN", "admin-token"), ("TDQS_API_KEY", "api-key")]
    {
        let env = c["env"].as_array().unwrap().iter().find(|e| e["name"] == var).unwrap_or_else(|| panic!("{var}"));
        let r = &env["valueFrom"]["secretKeyRef"];
        assert_eq!((r["name"].as_str(), r["key"].as_str()), (example["metadata"]["name"].as_str(), Some(key)));
        assert!(example["stringData"].get(key).is_some(), "secret.example.yaml lacks {key}");
    }

    // The Service, PDB and HPA select and target this Deployment.
    let labels = &d["spec"]["template"]["metadata"]["labels"];
    assert_eq!(&yaml1(&dir.join("service.yaml"))["spec"]["selector"], labels);
    assert_eq!(&yaml1(&dir.join("poddisruptionbudget.yaml"))["spec"]["selector"]["matchLabels"], labels);
    let hpa = yaml1(&dir.join("horizontalpodautoscaler.yaml"));
    assert_eq!(hpa["spec"]["scaleTargetRef"]["name"], d["metadata"]["name"]);
    assert_eq!(hpa["spec"]["minReplicas"], d["spec"]["replicas"]);
}

#[test]
fn compose_matches_the_compose_spec_and_wires_the_stack() {
    let check = venv_tool("check-jsonschema");
    let schema = root().join(".venv-deploy/lib");
    let vendored = walk(&schema).into_iter().find(|p| p.ends_with("builtin_schemas/vendor/compose-spec.json"));
    let vendored = vendored.expect("check-jsonschema's vendored compose-spec.json");
    let (ok, sum) = run(Command::new("sha256sum").arg(&vendored));
    assert!(ok && sum.starts_with(COMPOSE_SCHEMA_SHA256), "a different compose schema than pinned: {sum}");
    let compose = deploy("compose.yaml");
    let (ok, text) = run(Command::new(&check).args(["--builtin-schema", "vendor.compose-spec"]).arg(&compose));
    assert!(ok, "compose.yaml does not match the compose specification:\n{text}");
    let scratch = Scratch::new("deploy-compose");
    let bad = scratch.path("bad.compose.yaml");
    fs::write(&bad, "services:\n  a:\n    image: x\n    prots: [\"80:80\"]\n").unwrap();
    let (ok, _) = run(Command::new(&check).args(["--builtin-schema", "vendor.compose-spec"]).arg(&bad));
    assert!(!ok, "check-jsonschema passed a compose file with an unknown key");

    let c = yaml1(&compose);
    let services = c["services"].as_object().unwrap();
    let mut names: Vec<&str> = services.keys().map(String::as_str).collect();
    names.sort();
    assert_eq!(names, ["everything", "gateway", "grafana", "otel-collector", "postgres", "prometheus"]);
    let volumes_of = |s: &str| strs(&services[s]["volumes"]).into_iter().map(str::to_owned).collect::<Vec<_>>();
    let gw = &services["gateway"];
    assert_eq!(gw["build"]["dockerfile"], "deploy/Dockerfile");
    assert!(volumes_of("gateway").contains(&format!("./compose/gateway.toml:{}:ro", image_config_path())));
    for var in ["TDQS_DATABASE_URL", "TDQS_ADMIN_TOKEN", "TDQS_API_KEY"] {
        assert!(gw["environment"].get(var).is_some(), "gateway lacks {var}");
    }
    // Files the other branches ship, referenced by these exact paths.
    assert!(volumes_of("otel-collector").iter().any(|v| v.starts_with("./otel-collector.yaml:")));
    let dashboard = volumes_of("grafana").into_iter().find(|v| v.starts_with("./grafana/tdqs-gateway.json:")).unwrap();
    let dashboard_dir = Path::new(dashboard.split(':').nth(1).unwrap()).parent().unwrap().to_owned();
    let provider = yaml1(&deploy("compose/grafana/provisioning/dashboards/tdqs-gateway.yaml"));
    assert_eq!(provider["providers"][0]["options"]["path"].as_str(), dashboard_dir.to_str());
    let datasource = yaml1(&deploy("compose/grafana/provisioning/datasources/prometheus.yaml"));
    assert_eq!(datasource["datasources"][0]["url"], "http://prometheus:9090");
    // Each mounted local file exists, except the two the other branches are writing.
    for service in names.iter() {
        for v in volumes_of(service).iter().filter(|v| v.starts_with("./")) {
            let local = v.split(':').next().unwrap();
            if local != "./otel-collector.yaml" && local != "./grafana/tdqs-gateway.json" {
                assert!(deploy(local).exists(), "{service} mounts {local}, which is not in deploy/");
            }
        }
    }

    // The sample upstream serves where the compose gateway config looks for it.
    let ev = &services["everything"];
    assert!(strs(&ev["command"]).ends_with(&["streamableHttp"]) && ev["environment"]["PORT"] == "3001");
    let cfg: toml::Value = toml::from_str(&read(&deploy("compose/gateway.toml"))).unwrap();
    assert_eq!(cfg["upstream"][0]["url"].as_str(), Some("http://everything:3001/mcp"));
    assert_eq!(cfg["store"]["url"].as_str(), Some("${TDQS_DATABASE_URL}"));
    let prom = yaml1(&deploy("compose/prometheus.yml"));
    assert_eq!(strs(&prom["scrape_configs"][0]["static_configs"][0]["targets"]), ["gateway:8080"]);
}

#[test]
fn prometheus_config_passes_promtool() {
    let promtool = system_tool("promtool", "prometheus");
    let (ok, text) = run(Command::new(&promtool).args(["check", "config"]).arg(deploy("compose/prometheus.yml")));
    assert!(ok, "promtool refuses deploy/compose/prometheus.yml:\n{text}");
    let scratch = Scratch::new("deploy-prometheus");
    let bad = scratch.path("bad.prometheus.yml");
    fs::write(&bad, "scrape_configs:\n  - job_name: x\n    scrape_interval: soon\n").unwrap();
    let (ok, _) = run(Command::new(&promtool).args(["check", "config"]).arg(&bad));
    assert!(!ok, "promtool passed a config with a bad duration");
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = entry.path();
        if p.is_dir() { out.extend(walk(&p)) } else { out.push(p) }
    }
    out
}

fn check_config(path: &Path) -> (bool, String) {
    run(Command::new(env!("CARGO_BIN_EXE_tdqs-gateway"))
        .args(["check-config", "--config"])
        .arg(path)
        .env("TDQS_DATABASE_URL", "postgres://tdqs@127.0.0.1:5432/tdqs")
        .env("TDQS_ADMIN_TOKEN", "a-token-as-the-deployments-set-one"))
}

#[test]
fn the_image_default_config_passes_check_config() {
    let (ok, text) = check_config(&deploy("container/gateway.toml"));
    assert!(ok, "deploy/container/gateway.toml:\n{text}");
    let copy = format!("deploy/container/gateway.toml {}", image_config_path());
    assert!(dockerfile().iter().any(|(w, a)| w == "COPY" && *a == copy), "the image ships it at {copy}");
}

/// Every shipped config passes `check-config`; the collector config and the dashboard parse.
#[test]
fn shipped_configs_pass_check_config() {
    for rel in ["compose/gateway.toml", "kubernetes/gateway.toml"] {
        let (ok, text) = check_config(&deploy(rel));
        assert!(ok, "deploy/{rel}:\n{text}");
    }
    yaml1(&deploy("otel-collector.yaml"));
    let dashboard = read(&deploy("grafana/tdqs-gateway.json"));
    serde_json::from_str::<Value>(&dashboard).expect("the dashboard is JSON");
    assert!(
        !dashboard.contains("${DS_"),
        "a provisioned dashboard cannot use import inputs: use datasource uid \"prometheus\""
    );
}

/// GET `http://127.0.0.1:<port><path>`: the status code and the body, or None while nothing
/// listens.
async fn http_get(port: u16, path: &str) -> Option<(u16, String)> {
    let http = reqwest::Client::builder().timeout(Duration::from_secs(5)).build().unwrap();
    let resp = http.get(format!("http://127.0.0.1:{port}{path}")).send().await.ok()?;
    Some((resp.status().as_u16(), resp.text().await.ok()?))
}

/// The image's two stages, outside Docker: the build stage's `cargo build --release --locked`,
/// then the runtime's ENTRYPOINT + CMD with its ENV, as its USER (when the test may switch
/// user), with the image's config. Only what a container provides is mapped: the image's paths
/// (binary, tini, config and data folders) onto the built binary and a scratch folder, and port
/// 8080 onto a free port. Then its HEALTHCHECK command must pass, and SIGTERM must stop it.
#[tokio::test]
async fn the_release_binary_runs_as_the_image_runs_it() {
    let tini = system_tool("tini", "tini");
    let curl = system_tool("curl", "curl");
    let build = dockerfile().into_iter().find(|(w, a)| w == "RUN" && a.contains("cargo build")).unwrap().1;
    // RUN's own options (cache mounts) are not part of the command.
    let args: Vec<&str> =
        build.split("&&").next().unwrap().split_whitespace().filter(|a| !a.starts_with("--mount=")).collect();
    assert_eq!(args, ["cargo", "build", "--release", "--locked"]);
    // The test binary's target folder, so the release build lands beside the dev one.
    let target = Path::new(env!("CARGO_BIN_EXE_tdqs-gateway")).parent().unwrap().parent().unwrap().to_owned();
    let started = Instant::now();
    let (ok, text) = run(Command::new(option_env!("CARGO").unwrap_or("cargo"))
        .args(&args[1..])
        .current_dir(root())
        .env("CARGO_TARGET_DIR", &target));
    assert!(ok, "the image's build command failed:\n{text}");
    eprintln!("release build (cargo build --release --locked): {:.1?}", started.elapsed());
    let binary = target.join("release/tdqs-gateway");

    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let scratch = Scratch::new("deploy-image");
    let data = scratch.path("var/lib/tdqs-gateway");
    fs::create_dir_all(&data).unwrap();
    let image_config = image_config_path();
    let config = scratch.path(image_config.trim_start_matches('/'));
    fs::create_dir_all(config.parent().unwrap()).unwrap();
    let shipped = read(&deploy("container/gateway.toml"));
    assert!(shipped.contains("\"0.0.0.0:8080\"") && shipped.contains("/var/lib/tdqs-gateway/"));
    let mapped = shipped.replace("0.0.0.0:8080", &format!("0.0.0.0:{port}"));
    fs::write(&config, mapped.replace("/var/lib/tdqs-gateway", data.to_str().unwrap())).unwrap();

    let map = |arg: &str| -> String {
        match arg {
            "/usr/local/bin/tdqs-gateway" => binary.display().to_string(),
            "/usr/bin/tini" => tini.display().to_string(),
            a if a == image_config => config.display().to_string(),
            a => a.to_owned(),
        }
    };
    let argv: Vec<String> =
        exec_form(&instruction("ENTRYPOINT")).iter().chain(&exec_form(&instruction("CMD"))).map(|a| map(a)).collect();
    assert_eq!(argv[0], tini.display().to_string(), "tini is PID 1");
    let user = instruction("USER");
    let (uid, gid) = user.split_once(':').unwrap();
    // /proc/self belongs to the effective user.
    let as_root = std::os::unix::fs::MetadataExt::uid(&fs::metadata("/proc/self").unwrap()) == 0;
    let mut cmd = if as_root {
        // The image's USER: the data folder is the only place it may write, as in the image.
        let (uid, gid) = (uid.parse().unwrap(), gid.parse().unwrap());
        std::os::unix::fs::chown(&data, Some(uid), Some(gid)).unwrap();
        let mut c = Command::new(system_tool("setpriv", "util-linux"));
        c.args([format!("--reuid={uid}"), format!("--regid={gid}"), "--clear-groups".into(), "--".into()]);
        c.args(&argv);
        c
    } else {
        let mut c = Command::new(&argv[0]);
        c.args(&argv[1..]);
        c
    };
    // The image's ENV, its data path mapped; nothing else from the test's environment but PATH.
    cmd.env_clear().env("PATH", std::env::var_os("PATH").unwrap_or_default());
    for pair in instruction("ENV").split_whitespace() {
        let (k, v) = pair.split_once('=').unwrap_or_else(|| panic!("ENV in KEY=VALUE form: {pair}"));
        cmd.env(k, v.replace("/var/lib/tdqs-gateway", data.to_str().unwrap()));
    }
    assert_eq!(instruction("WORKDIR"), "/var/lib/tdqs-gateway");
    cmd.current_dir(&data).stdin(Stdio::null());
    let mut gateway = Guarded::spawn(&scratch.dir, "gateway", cmd, None);
    let (out, err) = (gateway.out.clone(), gateway.err.clone());
    let logs = move || {
        format!("{}{}", fs::read_to_string(&out).unwrap_or_default(), fs::read_to_string(&err).unwrap_or_default())
    };

    let health = poll_async(Duration::from_secs(20), async || {
        let answer = http_get(port, "/healthz").await;
        if answer.is_none()
            && let Some(status) = gateway.exited()
        {
            panic!("the gateway exited with {status} before answering /healthz:\n{}", logs());
        }
        answer
    })
    .await;
    let health = health.unwrap_or_else(|| panic!("no answer on /healthz within 20 s:\n{}", logs()));
    assert_eq!(health, (200, r#"{"status":"ok"}"#.to_owned()), "{}", logs());
    // The upstream of the image's default config does not exist here: not ready, but alive.
    let (code, body) = http_get(port, "/readyz").await.unwrap();
    assert!(code == 503 && body.contains("everything"), "/readyz: {code} {body}");
    let db = data.join("scores.db");
    assert!(db.is_file(), "the store is not on the data volume:\n{}", logs());
    if as_root {
        use std::os::unix::fs::MetadataExt;
        assert_eq!(fs::metadata(&db).unwrap().uid().to_string(), uid, "written as the image's user");
    }

    let healthcheck = instruction("HEALTHCHECK");
    let probe = exec_form(healthcheck.split_once("CMD ").unwrap().1);
    assert_eq!(probe[0], "curl");
    let probe: Vec<String> =
        probe[1..].iter().map(|a| a.replace("127.0.0.1:8080", &format!("127.0.0.1:{port}"))).collect();
    let (ok, text) = run(Command::new(&curl).args(&probe));
    assert!(ok, "the HEALTHCHECK command fails against a healthy gateway: {text}");

    // No STOPSIGNAL: Docker and Kubernetes send SIGTERM, to tini, which passes it on.
    assert!(!dockerfile().iter().any(|(w, _)| w == "STOPSIGNAL"), "the test sends SIGTERM, as the runtimes do");
    kill(Pid::from_raw(gateway.pid), Signal::SIGTERM).unwrap();
    let status = gateway.wait_timeout(Duration::from_secs(10));
    let status = status.unwrap_or_else(|| panic!("SIGTERM did not stop the gateway within 10 s:\n{}", logs()));
    assert!(status.success(), "the gateway did not stop cleanly ({status}):\n{}", logs());
    assert!(logs().contains("shutting down"), "{}", logs());
    let (ok, _) = run(Command::new(&curl).args(&probe));
    assert!(!ok, "the HEALTHCHECK command passes with no gateway running: it checks nothing");
}
