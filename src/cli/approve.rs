//! `tdqs-gateway approve`: records the current definition of pinned tools as approved, in the
//! store the config names. Running gateways read approvals back within seconds (a fleet from
//! the shared PostgreSQL), and tools hidden for a changed definition come back.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;

use super::Outcome;
use crate::config::Config;
use crate::store::{Pin, Sighting, StoreUrl, now_ms};

#[derive(Args)]
pub struct ApproveArgs {
    /// The gateway's config (its store is where approvals go).
    #[arg(long)]
    config: PathBuf,
    /// The upstream whose tools to approve.
    #[arg(long)]
    upstream: String,
    /// One tool; without it, the latest definition of every tool of the upstream.
    #[arg(long)]
    tool: Option<String>,
    /// Approve this definition hash (`sha256:...`) instead of the latest one seen.
    #[arg(long, requires = "tool")]
    hash: Option<String>,
}

pub fn run(args: ApproveArgs) -> anyhow::Result<Outcome> {
    let cfg = Config::load(&args.config)?;
    if cfg.upstream(&args.upstream).is_none() {
        bail!("no upstream named {:?} in {}", args.upstream, args.config.display());
    }
    let url = cfg.store_url()?;
    if url == StoreUrl::Memory {
        bail!("store.url is \"memory\": approvals would not outlive this command; approve through the admin API");
    }
    let store = crate::store::open(&url).with_context(|| format!("cannot use the store {url:?}"))?;
    let history = store.upstream_history(&args.upstream)?;
    let targets: Vec<(String, String)> = match (&args.tool, &args.hash) {
        (Some(tool), Some(hash)) => {
            if !history.iter().any(|s| &s.tool == tool && &s.input_hash == hash) {
                bail!("{}/{tool} was never listed with definition {hash}", args.upstream);
            }
            vec![(tool.clone(), hash.clone())]
        }
        (tool, _) => {
            let latest = latest_per_tool(&history, tool.as_deref());
            if latest.is_empty() {
                match tool {
                    Some(t) => bail!("{}/{t} has not been listed through the gateway yet", args.upstream),
                    None => bail!("no tool of {} has been listed through the gateway yet", args.upstream),
                }
            }
            latest
        }
    };
    let approved: Vec<Pin> = store.pins()?.into_iter().filter(|p| p.upstream == args.upstream).collect();
    let is_approved = |tool: &str, hash: &str| approved.iter().any(|p| p.tool == tool && p.input_hash == hash);
    let now = now_ms();
    let new: Vec<Pin> = targets
        .iter()
        .filter(|(tool, hash)| !is_approved(tool, hash))
        .map(|(tool, hash)| Pin {
            upstream: args.upstream.clone(),
            tool: tool.clone(),
            input_hash: hash.clone(),
            approved_at: now,
            approved_by: "cli".to_owned(),
        })
        .collect();
    store.approve(&new)?;
    for (tool, hash) in &targets {
        let what = if is_approved(tool, hash) { "already approved" } else { "approved" };
        println!("{what}: {}/{tool} {hash}", args.upstream);
    }
    Ok(Outcome::Done)
}

/// The most recently seen hash of each tool (or of one tool).
fn latest_per_tool(history: &[Sighting], only: Option<&str>) -> Vec<(String, String)> {
    let mut latest: BTreeMap<&str, &Sighting> = BTreeMap::new();
    for s in history.iter().filter(|s| only.is_none_or(|t| t == s.tool)) {
        let newer =
            latest.get(s.tool.as_str()).is_none_or(|l| (s.last_seen, s.first_seen) > (l.last_seen, l.first_seen));
        if newer {
            latest.insert(&s.tool, s);
        }
    }
    latest.into_iter().map(|(t, s)| (t.to_owned(), s.input_hash.clone())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_latest_sighting_wins() {
        let s = |tool: &str, hash: &str, first: i64, last: i64| Sighting {
            upstream: "u".into(),
            tool: tool.into(),
            input_hash: hash.into(),
            first_seen: first,
            last_seen: last,
        };
        let h = [s("a", "h1", 1, 50), s("a", "h2", 40, 45), s("a", "h3", 60, 60), s("b", "x", 1, 1)];
        assert_eq!(latest_per_tool(&h, None), [("a".into(), "h3".into()), ("b".into(), "x".into())]);
        assert_eq!(latest_per_tool(&h, Some("b")), [("b".to_owned(), "x".to_owned())]);
    }
}
