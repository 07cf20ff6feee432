//! Validation at start: everything types alone cannot check, every problem reported with its
//! key path.

use super::*;
use crate::policy::settings as policy;
use crate::settings::invalid;

impl Config {
    /// Checks what types alone cannot: tiers, names, URLs, TLS pairs, judge settings. Every
    /// problem is reported (one per line, each with its key), not only the first.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let mut problems = self.problems();
        match problems.len() {
            0 => Ok(()),
            1 => Err(problems.remove(0)),
            _ => Err(ConfigError::Several(problems)),
        }
    }

    /// Every problem of the configuration, in file order.
    fn problems(&self) -> Vec<ConfigError> {
        let mut out = Vec::new();
        let check = |out: &mut Vec<ConfigError>, r: Result<(), ConfigError>| {
            if let Err(e) = r {
                out.push(e);
            }
        };
        check(&mut out, policy::resolve("policy", &self.policy, None).map(drop));
        let mut seen = std::collections::HashSet::new();
        for (i, u) in self.upstreams.iter().enumerate() {
            let key = format!("upstream[{i}]");
            check(&mut out, self.upstream_name(&key, u, &mut seen));
            check(&mut out, self.upstream_transport(&key, u));
            check(&mut out, policy::resolve(&format!("{key}.policy"), &u.policy, Some(&self.policy)).map(drop));
            for (field, v) in [
                ("connect_timeout_ms", u.connect_timeout_ms),
                ("response_timeout_ms", u.response_timeout_ms),
                ("read_idle_timeout_ms", u.read_idle_timeout_ms),
                ("stream_idle_timeout_ms", u.stream_idle_timeout_ms),
                ("max_answer_bytes", u.max_answer_bytes as u64),
                ("max_list_tools", u.max_list_tools as u64),
            ] {
                if v == 0 {
                    check(&mut out, Err(invalid(format!("{key}.{field}"), "must be at least 1")));
                }
            }
            if let Some(o) = &u.oauth {
                o.validate(&format!("{key}.oauth"), &mut out);
            }
            self.validate_rules(&format!("{key}.policy"), u, &mut out);
        }
        let l = &self.listen;
        for (field, v) in [
            ("header_read_timeout_ms", l.header_read_timeout_ms),
            ("body_read_timeout_ms", l.body_read_timeout_ms),
            ("tls_handshake_timeout_ms", l.tls_handshake_timeout_ms),
            ("keep_alive_timeout_ms", l.keep_alive_timeout_ms),
            ("max_connections", l.max_connections as u64),
            ("max_streams_per_connection", u64::from(l.max_streams_per_connection)),
        ] {
            if v == 0 {
                check(&mut out, Err(invalid(format!("listen.{field}"), "must be at least 1")));
            }
        }
        self.validate_rules("policy", &UpstreamConfig::default(), &mut out);
        self.auth.validate(&mut out);
        if self.listen.tls_cert.is_some() != self.listen.tls_key.is_some() {
            check(&mut out, Err(invalid("listen.tls_cert", "tls_cert and tls_key must be set together")));
        }
        for (field, v) in [
            ("concurrency", self.judge.concurrency as u64),
            ("max_attempts", u64::from(self.judge.max_attempts)),
            ("timeout_ms", self.judge.timeout_ms),
        ] {
            if v == 0 {
                check(&mut out, Err(invalid(format!("judge.{field}"), "must be at least 1")));
            }
        }
        if self.judge.kind == JudgeKind::Openai {
            if self.judge.base_url.is_none() {
                check(&mut out, Err(invalid("judge.base_url", "required when judge.kind = \"openai\"")));
            }
            if self.judge.model.is_none() {
                check(&mut out, Err(invalid("judge.model", "required when judge.kind = \"openai\"")));
            }
        }
        if let Some(dir) = &self.judge.prompts_dir {
            let dir = self.resolve(dir);
            check(
                &mut out,
                crate::judge::Prompts::from_dir(&dir)
                    .map(drop)
                    .map_err(|e| invalid("judge.prompts_dir", e.to_string())),
            );
        }
        check(&mut out, self.store_url().map(drop));
        if self.store.lease_ms < 1000 {
            check(
                &mut out,
                Err(invalid("store.lease_ms", "must be at least 1000 (claims are renewed every third of it)")),
            );
        }
        if self.cache.max_entries == 0 {
            check(&mut out, Err(invalid("cache.max_entries", "must be at least 1")));
        }
        if self.cache.max_bytes < 64 * 1024 {
            check(&mut out, Err(invalid("cache.max_bytes", "must be at least 65536 (a few scores)")));
        }
        self.telemetry.validate(&mut out);
        if self.admin.token_env.is_empty() {
            check(&mut out, Err(invalid("admin.token_env", "must name an environment variable")));
        }
        if self.admin.enabled && self.admin.addr == Some(self.listen.addr) {
            check(
                &mut out,
                Err(invalid("admin.addr", "must differ from listen.addr (leave it unset to share that listener)")),
            );
        }
        out
    }

    fn upstream_name<'a>(
        &self,
        key: &str,
        u: &'a UpstreamConfig,
        seen: &mut std::collections::HashSet<&'a String>,
    ) -> Result<(), ConfigError> {
        if u.name.is_empty() || !u.name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) {
            return Err(invalid(format!("{key}.name"), "use letters, digits, '-', '_' or '.' (it appears in URLs)"));
        }
        if !seen.insert(&u.name) {
            return Err(invalid(format!("{key}.name"), format!("\"{}\" is used by an earlier upstream", u.name)));
        }
        Ok(())
    }

    /// Exactly one transport, and what that transport needs.
    fn upstream_transport(&self, key: &str, u: &UpstreamConfig) -> Result<(), ConfigError> {
        let http_url = |field: &str, url: &str| -> Result<(), ConfigError> {
            let parsed = reqwest::Url::parse(url).map_err(|e| invalid(format!("{key}.{field}"), e.to_string()))?;
            if !matches!(parsed.scheme(), "http" | "https") {
                return Err(invalid(format!("{key}.{field}"), "must be an http or https URL"));
            }
            Ok(())
        };
        match (&u.url, &u.command, &u.sse_url) {
            (Some(url), None, None) => http_url("url", url),
            (None, None, Some(url)) => http_url("sse_url", url),
            (None, Some(cmd), None) if cmd.is_empty() || cmd[0].is_empty() => {
                Err(invalid(format!("{key}.command"), "needs at least the program to run"))
            }
            (None, Some(_), None) if u.max_sessions == 0 => {
                Err(invalid(format!("{key}.max_sessions"), "must be at least 1"))
            }
            (None, Some(_), None) => Ok(()),
            _ => Err(invalid(
                key,
                "give exactly one of `url` (Streamable HTTP), `command` (stdio) or `sse_url` (legacy HTTP+SSE)",
            )),
        }
    }

    /// Every problem of the rules of `[policy]` (when `upstream` is the default one) or of one
    /// upstream's policy.
    fn validate_rules(&self, key: &str, upstream: &UpstreamConfig, out: &mut Vec<ConfigError>) {
        let (rules, base) = if upstream.name.is_empty() {
            (&self.policy.rule, self.policy.clone())
        } else {
            (&upstream.policy.rule, policy::overlay(&self.policy, &upstream.policy))
        };
        let mut names = std::collections::HashSet::new();
        for (i, r) in rules.iter().enumerate() {
            let key = format!("{key}.rule[{i}]");
            if !self.auth.active() {
                out.push(invalid(key, "rules match callers, which only [auth] identifies: configure [auth]"));
                continue;
            }
            if r.name.is_empty() || !r.name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) {
                out.push(invalid(format!("{key}.name"), "use letters, digits, '-', '_' or '.' (a metric label)"));
            } else if !names.insert(&r.name) {
                out.push(invalid(format!("{key}.name"), format!("\"{}\" is used by an earlier rule", r.name)));
            }
            if !r.policy.rule.is_empty() {
                out.push(invalid(format!("{key}.rule"), "rules do not nest"));
            }
            if !upstream.name.is_empty() && !r.upstreams.is_empty() {
                out.push(invalid(format!("{key}.upstreams"), "only a global [[policy.rule]] names upstreams"));
            }
            for (j, u) in r.upstreams.iter().enumerate() {
                if self.upstream(u).is_none() {
                    out.push(invalid(format!("{key}.upstreams[{j}]"), format!("no upstream is named \"{u}\"")));
                }
            }
            if let Err(e) = policy::resolve(&key, &r.policy, Some(&base)) {
                out.push(e);
            }
        }
    }
}
