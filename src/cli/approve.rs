//! `tdqs-gateway approve`: records the current definition of pinned tools as approved, in the
//! store the config names. Running gateways read approvals back within seconds (a fleet from
//! the shared PostgreSQL), and tools hidden for a changed definition come back.
//!
//! Before each approval it prints what is being approved as a diff against what was approved
//! before: for a changed definition its own approved one, for a name new to the upstream (a
//! rename, held under `pin_new_tools = "hold"`) the nearest definition approved under another
//! name, as the admin API's approvals view shows it (on stderr; stdout keeps one line per tool).
//! `--dry-run` prints and approves nothing.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;

use super::Outcome;
use crate::admin::nearest::{Candidate, nearest};
use crate::config::Config;
use crate::store::approved::{definition, latest_approved};
use crate::store::{Pin, Sighting, Store, StoreUrl, now_ms};

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
    /// Show what would be approved (with the diffs) and approve nothing.
    #[arg(long)]
    dry_run: bool,
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
    let before = latest_approved(&*store, &args.upstream)?;
    // The comparisons are for the person at the terminal (stderr); stdout keeps one line per
    // tool saying what was done, as scripts read it.
    for p in &new {
        eprint!("{}", against_approved(&*store, &before, &approved, p)?);
    }
    if args.dry_run {
        for (tool, hash) in &targets {
            let what = if is_approved(tool, hash) { "already approved" } else { "would approve" };
            println!("{what}: {}/{tool} {hash}", args.upstream);
        }
        return Ok(Outcome::Done);
    }
    store.approve(&new)?;
    for (tool, hash) in &targets {
        let what = if is_approved(tool, hash) { "already approved" } else { "approved" };
        println!("{what}: {}/{tool} {hash}", args.upstream);
    }
    Ok(Outcome::Done)
}

/// What approving `pin` changes, for a person: its definition as a diff against its own
/// approved one (a changed definition) or the nearest one approved under another name (a
/// name new to the upstream); the same comparison as the admin API's approvals view.
fn against_approved(
    store: &dyn Store,
    before: &[crate::store::approved::Approved],
    pins: &[Pin],
    pin: &Pin,
) -> anyhow::Result<String> {
    let new_name = !pins.iter().any(|p| p.tool == pin.tool);
    let kind = if new_name { "a name new to this upstream" } else { "a changed definition" };
    let mut out = format!("{}/{} {}: {kind}\n", pin.upstream, pin.tool, pin.input_hash);
    let Some(held) = definition(store, &pin.upstream, &pin.input_hash)? else {
        out.push_str("  (its text is not in the store: listed before texts were kept, or too large to keep)\n\n");
        return Ok(out);
    };
    let candidates: Vec<Candidate> = before
        .iter()
        .filter(|(t, _, _)| new_name != (*t == pin.tool))
        .map(|(tool, hash, definition)| Candidate { tool, hash, definition })
        .collect();
    match nearest(&held, &candidates) {
        Some(n) => {
            let (tool, similarity) = (n["tool"].as_str().unwrap_or(""), n["similarity"].as_f64().unwrap_or(0.0));
            out.push_str(&format!("nearest approved definition: {tool} (similarity {similarity})\n"));
            out.push_str(n["diff"].as_str().unwrap_or(""));
        }
        None => out.push_str("  (no approved definition of this upstream to compare with)\n"),
    }
    out.push('\n');
    Ok(out)
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
