//! The admin API's routes and its read-only answers: upstreams with their report summaries,
//! server reports (JSON, or markdown for people), tools weakest first, one tool with its
//! definition history and pins, definition history, refused calls, pending approvals.
//!
//! Long: the route table and each route's answer; every answer is a short function over the
//! console, and the table is easier to audit whole.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use http::{Method, Response};
use serde_json::{Value, json};

use super::Console;
use super::{AdminError, actions, events, json_ok, text_ok};
use crate::catalog::{ToolView, UpstreamTools};
use crate::config::Transport;
use crate::http::Body;
use crate::http::request_body::{ClientRequest, RequestBody};
use crate::policy::settings::Policy;
use crate::scoring::pins::PinStatus;
use crate::tdqs::score::Tier;

/// Largest page of tools.
const MAX_LIMIT: usize = 500;
const DEFAULT_LIMIT: usize = 50;

/// An API route, parsed from the path after `/admin/api/`.
#[derive(Debug, PartialEq, Eq)]
pub enum Route {
    Upstreams,
    Approvals,
    Events,
    Report(String),
    Tools(String),
    Tool(String, String),
    History(String),
    Refused(String),
    Rules,
    ApproveTool(String, String),
    ApproveAll(String),
    RescoreTool(String, String),
    RescoreAll(String),
}

impl Route {
    pub fn parse(path: &str) -> Result<Route, AdminError> {
        let not_found = || AdminError::NotFound(format!("no admin API route /admin/api/{path}"));
        let segments: Vec<String> =
            path.trim_end_matches('/').split('/').map(decode).collect::<Result<_, _>>().map_err(|_| not_found())?;
        let s: Vec<&str> = segments.iter().map(String::as_str).collect();
        let owned = |x: &str| x.to_owned();
        Ok(match s.as_slice() {
            ["upstreams"] => Route::Upstreams,
            ["approvals"] => Route::Approvals,
            ["events"] => Route::Events,
            ["rules"] => Route::Rules,
            ["servers", n, "report"] => Route::Report(owned(n)),
            ["servers", n, "tools"] => Route::Tools(owned(n)),
            ["servers", n, "tools", t] => Route::Tool(owned(n), owned(t)),
            ["servers", n, "tools", t, "approve"] => Route::ApproveTool(owned(n), owned(t)),
            ["servers", n, "tools", t, "rescore"] => Route::RescoreTool(owned(n), owned(t)),
            ["servers", n, "history"] => Route::History(owned(n)),
            ["servers", n, "refused"] => Route::Refused(owned(n)),
            ["servers", n, "approve"] => Route::ApproveAll(owned(n)),
            ["servers", n, "rescore"] => Route::RescoreAll(owned(n)),
            _ => return Err(not_found()),
        })
    }

    fn method(&self) -> Method {
        match self {
            Route::ApproveTool(..) | Route::ApproveAll(_) | Route::RescoreTool(..) | Route::RescoreAll(_) => {
                Method::POST
            }
            _ => Method::GET,
        }
    }

    pub async fn run(
        self,
        console: Arc<Console>,
        req: ClientRequest,
        body: &RequestBody,
    ) -> Result<Response<Body>, AdminError> {
        let expected = self.method();
        let method = req.method().clone();
        if method != expected && !(expected == Method::GET && method == Method::HEAD) {
            return Err(AdminError::MethodNotAllowed(if expected == Method::POST { "POST" } else { "GET, HEAD" }));
        }
        let query = Query::parse(req.uri().query().unwrap_or(""))?;
        match self {
            Route::Upstreams => Ok(json_ok(&upstreams(&console).await)),
            Route::Approvals => Ok(json_ok(&json!({ "approvals": approvals(&console).await }))),
            Route::Events => Ok(events::stream(&console)),
            Route::Report(n) => report(&console, upstream(&console, &n)?, &query).await,
            Route::Tools(n) => Ok(json_ok(&tools(upstream(&console, &n)?, &query)?)),
            Route::Tool(n, t) => Ok(json_ok(&tool(&console, upstream(&console, &n)?, &t).await?)),
            Route::History(n) => {
                let up = upstream(&console, &n)?;
                let name = up.name.clone();
                let sightings = blocking(&console, move |s| s.upstream_history(&name)).await?;
                Ok(json_ok(&json!({ "upstream": up.name, "sightings": sightings.unwrap_or_default() })))
            }
            Route::Refused(n) => {
                let up = upstream(&console, &n)?;
                // Every view's refusals (the upstream's policy and each identity rule), newest first.
                let mut refused: Vec<_> =
                    console.catalog.all_views(&up.name).iter().flat_map(|v| v.refused_calls()).collect();
                refused.sort_by_key(|r| std::cmp::Reverse(r.at));
                Ok(json_ok(&json!({ "upstream": up.name, "refused": refused })))
            }
            Route::Rules => Ok(json_ok(&rules(&console))),
            Route::ApproveTool(n, t) => actions::approve(&console, upstream(&console, &n)?, Some(&t), req, body).await,
            Route::ApproveAll(n) => actions::approve(&console, upstream(&console, &n)?, None, req, body).await,
            Route::RescoreTool(n, t) => actions::rescore(&console, upstream(&console, &n)?, Some(&t)).await,
            Route::RescoreAll(n) => actions::rescore(&console, upstream(&console, &n)?, None).await,
        }
    }
}

/// Percent-decodes one path segment or query value.
fn decode(s: &str) -> Result<String, std::str::Utf8Error> {
    percent_encoding::percent_decode_str(s).decode_utf8().map(|c| c.into_owned())
}

/// The query parameters the API knows.
#[derive(Debug, Default)]
pub struct Query {
    offset: Option<usize>,
    limit: Option<usize>,
    sort: Option<String>,
    format: Option<String>,
}

impl Query {
    fn parse(q: &str) -> Result<Query, AdminError> {
        let mut out = Query::default();
        for pair in q.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let v = decode(&v.replace('+', " ")).map_err(|_| AdminError::BadRequest(format!("`{k}` is not UTF-8")))?;
            let number = |v: &str| {
                v.parse::<usize>()
                    .map_err(|_| AdminError::BadRequest(format!("`{k}` must be a whole number, got {v:?}")))
            };
            match k {
                "offset" => out.offset = Some(number(&v)?),
                "limit" => out.limit = Some(number(&v)?),
                "sort" => out.sort = Some(v),
                "format" => out.format = Some(v),
                _ => {} // unknown parameters (cache busters) are ignored
            }
        }
        Ok(out)
    }
}

pub(super) fn upstream<'a>(console: &'a Console, name: &str) -> Result<&'a Arc<UpstreamTools>, AdminError> {
    console
        .catalog
        .upstreams
        .get(name)
        .ok_or_else(|| AdminError::NotFound(format!("no upstream named {name:?} is configured")))
}

/// Runs a store read off the async threads; `None` when there is no store.
pub(super) async fn blocking<T: Send + 'static>(
    console: &Console,
    f: impl FnOnce(&dyn crate::store::Store) -> Result<T, crate::store::StoreError> + Send + 'static,
) -> Result<Option<T>, AdminError> {
    let Some(store) = console.scoring.store().cloned() else { return Ok(None) };
    tokio::task::spawn_blocking(move || f(&*store))
        .await
        .map_err(|e| AdminError::Internal(format!("store task failed: {e}")))?
        .map(Some)
        .map_err(|e| AdminError::Internal(e.to_string()))
}

fn policy_json(p: &Policy) -> Value {
    json!({
        "mode": p.mode,
        "minimum": p.minimum.as_f64(),
        "minimumTier": Tier::of(p.minimum).as_str(),
        "pending": p.pending,
        "dryRun": p.dry_run,
        "fail": p.fail,
        "pin": p.pin,
        "allow": p.allow,
        "deny": p.deny,
        "threats": p.threats,
        "allowThreats": p.allow_threats,
    })
}

fn component(score: Option<crate::tdqs::score::Tenths>, tier: Option<Tier>) -> Value {
    json!({ "score": score.map(|s| s.as_f64()), "tier": tier.map(Tier::as_str) })
}

/// Whether an upstream accepts a TCP connection (`None` for stdio: a process per session).
async fn reachable(url: Option<&str>) -> Option<bool> {
    let url = reqwest::Url::parse(url?).ok()?;
    let addr = format!("{}:{}", url.host_str().unwrap_or(""), url.port_or_known_default().unwrap_or(80));
    let ok = tokio::time::timeout(Duration::from_millis(800), tokio::net::TcpStream::connect(addr)).await;
    Some(matches!(ok, Ok(Ok(_))))
}

/// Counts and the tier histogram of the listed tools.
fn tool_counts(views: &[ToolView]) -> (Value, Value) {
    let mut histogram: BTreeMap<&str, usize> = ["A", "B", "C", "D", "F"].into_iter().map(|t| (t, 0)).collect();
    for v in views {
        if let Some(s) = &v.score {
            *histogram.entry(s.tier.as_str()).or_default() += 1;
        }
    }
    let count = |f: &dyn Fn(&ToolView) -> bool| views.iter().filter(|v| f(v)).count();
    let counts = json!({
        "listed": views.len(),
        "visible": count(&|v| v.visible),
        "hidden": count(&|v| !v.visible),
        "provisional": count(&|v| v.state != "final"),
        "awaitingApproval": count(&|v| v.pin.is_some_and(PinStatus::awaits_approval)),
        "threats": count(&|v| !v.threats.is_empty()),
    });
    (counts, json!(histogram))
}

async fn upstreams(console: &Console) -> Value {
    let checks = console.serve.upstreams().map(|u| reachable(u.transport().http_url()));
    let reach = futures_util::future::join_all(checks).await;
    let list: Vec<Value> = console
        .serve
        .upstreams()
        .zip(reach)
        .filter_map(|(u, reachable)| {
            let tools = console.catalog.upstreams.get(&u.name)?;
            let transport: &'static str = u.transport().into();
            let target = match u.transport() {
                Transport::StreamableHttp(url) | Transport::LegacySse(url) => url.to_owned(),
                Transport::Stdio(cmd) => cmd.join(" "),
            };
            let views = tools.snapshot();
            let (counts, histogram) = tool_counts(&views);
            let report = tools.report().map(|r| {
                let s = &r.report.server_score;
                json!({
                    "generatedAt": r.report.generated_at,
                    "judge": r.report.model,
                    "coherenceJudge": r.coherence_judge,
                    "toolCount": r.report.server.tool_count,
                    "overall": component(s.overall_score, s.overall_tier),
                    "descriptionQuality": component(s.description_quality_score, s.description_quality_tier),
                    "coherence": component(s.coherence_score, s.coherence_tier),
                    "meanTdqs": s.mean_tdqs.map(|t| t.as_f64()),
                    "minTdqs": s.min_tdqs.map(|t| t.as_f64()),
                })
            });
            Some(json!({
                "name": u.name,
                "transport": transport,
                "target": target,
                "policy": policy_json(&tools.policy),
                "status": { "reachable": reachable },
                "tools": counts,
                "tierHistogram": histogram,
                "report": report,
                "refusedCalls": console.catalog.all_views(&u.name).iter().map(|v| v.refused_calls().len()).sum::<usize>(),
            }))
        })
        .collect();
    json!({ "judge": console.scoring.judge().identity(), "upstreams": list })
}

/// The identity rules of each upstream in the order they are tried: whom each matches and the
/// policy its callers get; callers no rule matches get the upstream's policy.
fn rules(console: &Console) -> Value {
    let list: Vec<Value> = console
        .serve
        .upstreams()
        .map(|u| {
            let rules: Vec<Value> = console
                .catalog
                .rules
                .get(&u.name)
                .into_iter()
                .flatten()
                .map(|(rule, tools)| {
                    json!({
                        "name": rule.name,
                        "match": rule.conditions(),
                        "sets": rule.sets(),
                        "policy": policy_json(&tools.policy),
                        "hiddenTools": tools.snapshot().iter().filter(|t| !t.visible).map(|t| t.name.clone()).collect::<Vec<_>>(),
                        "refusedCalls": tools.refused_calls().len(),
                    })
                })
                .collect();
            let fallback = console.catalog.upstreams.get(&u.name).map(|t| policy_json(&t.policy));
            json!({ "upstream": u.name, "rules": rules, "otherwise": fallback })
        })
        .collect();
    json!({ "auth": console.auth_on, "upstreams": list })
}

/// Pinned tools whose current definition is not approved, on every upstream.
async fn approvals(console: &Console) -> Vec<Value> {
    let mut names: Vec<&String> = console.catalog.upstreams.keys().collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let up = &console.catalog.upstreams[name];
        let held: Vec<_> =
            up.snapshot().into_iter().filter(|v| v.pin.is_some_and(PinStatus::awaits_approval)).collect();
        if held.is_empty() {
            continue;
        }
        // What was approved: the store's (approved names no longer listed, approvals before a
        // restart), then what this gateway saw approved while listing.
        let upstream = name.clone();
        // A store that cannot answer leaves the diff to what is in memory, not the view empty.
        let stored = match blocking(console, move |s| crate::store::approved::latest_approved(s, &upstream)).await {
            Ok(stored) => stored.unwrap_or_default(),
            Err(e) => {
                tracing::warn!(upstream = %name, error = %e, "cannot read approved definitions from the store");
                Vec::new()
            }
        };
        let approved = crate::store::approved::merged(stored, up.approved_definitions());
        for v in held {
            let hash = v.score.as_ref().map(|s| s.context_signals.input_hash.clone());
            // A new name is compared with the nearest definition approved under another name
            // (a rename); a changed one with its own approved definition.
            let candidates: Vec<super::nearest::Candidate> = approved
                .iter()
                .filter(|(t, _, _)| (v.pin == Some(PinStatus::New)) != (*t == v.name))
                .map(|(tool, hash, definition)| super::nearest::Candidate { tool, hash, definition })
                .collect();
            let nearest = v.definition.as_ref().and_then(|d| super::nearest::nearest(d, &candidates));
            out.push(json!({
                "pin": v.pin,
                "nearestApproved": nearest,
                "threats": v.threats,
                "upstream": name,
                "tool": v.name,
                "currentHash": hash,
                "approvedHashes": console.scoring.pins().approved(name, &v.name),
                "visible": v.visible,
                "hideReason": v.hide_reason,
                "tdqs": v.score.as_ref().map(|s| s.tdqs.as_f64()),
                "tier": v.score.as_ref().map(|s| s.tier.as_str()),
                "description": v.definition.as_ref().and_then(|d| d.get("description").cloned()),
            }));
        }
    }
    out
}

async fn report(console: &Console, up: &UpstreamTools, query: &Query) -> Result<Response<Body>, AdminError> {
    let markdown = match query.format.as_deref() {
        None | Some("json") => false,
        Some("markdown" | "md") => true,
        Some(other) => return Err(AdminError::BadRequest(format!("format must be json or markdown, got {other:?}"))),
    };
    if let Some(r) = up.report() {
        return Ok(if markdown {
            let mut md = crate::render::score_markdown(&r.report);
            md.push_str(&super::threat_report::threats_markdown(&up.threats_json()));
            text_ok("text/markdown; charset=utf-8", md)
        } else {
            let mut json = serde_json::to_value(&r.report).map_err(|e| AdminError::Internal(e.to_string()))?;
            if let Some(obj) = json.as_object_mut() {
                obj.insert("threats".to_owned(), up.threats_json());
            }
            json_ok(&json)
        });
    }
    // None built since the start (a restart, before any client listed): the latest one kept
    // in the store.
    let name = up.name.clone();
    let stored = blocking(console, move |s| s.server_reports()).await?.unwrap_or_default();
    let Some((_, json)) = stored.into_iter().find(|(n, _)| *n == up.name) else {
        return Err(AdminError::NotFound(format!(
            "no report for {name:?} yet: it is built once a client lists the upstream's tools through the gateway"
        )));
    };
    if !markdown {
        return Ok(json_ok(&json));
    }
    let threats = json.get("threats").map(super::threat_report::threats_markdown);
    match serde_json::from_value::<crate::scoring::ScoreReport>(json) {
        Ok(report) => {
            let mut md = crate::render::score_markdown(&report);
            md.push_str(threats.as_deref().unwrap_or_default());
            Ok(text_ok("text/markdown; charset=utf-8", md))
        }
        // Written by another version (another spec or judge kind): the JSON still serves.
        Err(e) => Err(AdminError::NotFound(format!(
            "the stored report for {name:?} cannot be rendered by this version ({e}); ask for JSON, or list the upstream's tools to rebuild it"
        ))),
    }
}

/// Weakest first: unscored tools, then by score, then by name.
fn sort_views(views: &mut [ToolView], sort: &str) -> Result<(), AdminError> {
    let score = |v: &ToolView| v.score.as_ref().map(|s| s.tdqs);
    match sort {
        "weakest" => views.sort_by(|a, b| score(a).cmp(&score(b)).then_with(|| a.name.cmp(&b.name))),
        "strongest" => views.sort_by(|a, b| score(b).cmp(&score(a)).then_with(|| a.name.cmp(&b.name))),
        "name" => views.sort_by(|a, b| a.name.cmp(&b.name)),
        other => {
            return Err(AdminError::BadRequest(format!("sort must be weakest, strongest or name, got {other:?}")));
        }
    }
    Ok(())
}

fn tools(up: &UpstreamTools, query: &Query) -> Result<Value, AdminError> {
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT);
    if limit == 0 || limit > MAX_LIMIT {
        return Err(AdminError::BadRequest(format!("limit must be between 1 and {MAX_LIMIT}")));
    }
    let offset = query.offset.unwrap_or(0);
    let sort = query.sort.as_deref().unwrap_or("weakest");
    let mut views = up.snapshot();
    sort_views(&mut views, sort)?;
    let total = views.len();
    let page: Vec<ToolView> = views.into_iter().skip(offset).take(limit).collect();
    let next = (offset.saturating_add(page.len()) < total).then(|| offset + page.len());
    Ok(json!({
        "upstream": up.name,
        "total": total,
        "offset": offset,
        "limit": limit,
        "sort": sort,
        "nextOffset": next,
        "tools": page,
    }))
}

async fn tool(console: &Console, up: &UpstreamTools, name: &str) -> Result<Value, AdminError> {
    let view = up
        .snapshot()
        .into_iter()
        .find(|v| v.name == name)
        .ok_or_else(|| AdminError::NotFound(format!("upstream {:?} has listed no tool named {name:?}", up.name)))?;
    let (u, t) = (up.name.clone(), name.to_owned());
    let history = blocking(console, move |s| s.history(&u, &t)).await?.unwrap_or_default();
    let current = view.score.as_ref().map(|s| s.context_signals.input_hash.clone());
    let pins = up.policy.pin.then(|| {
        json!({
            "status": view.pin,
            "currentHash": current,
            "approvedHashes": console.scoring.pins().approved(&up.name, name),
        })
    });
    Ok(json!({ "upstream": up.name, "tool": view, "history": history, "pins": pins }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes() {
        assert_eq!(Route::parse("upstreams").unwrap(), Route::Upstreams);
        assert_eq!(Route::parse("upstreams/").unwrap(), Route::Upstreams);
        assert_eq!(Route::parse("servers/a/tools/get%20it").unwrap(), Route::Tool("a".into(), "get it".into()));
        assert_eq!(
            Route::parse("servers/a/tools/x%2Fy/approve").unwrap(),
            Route::ApproveTool("a".into(), "x/y".into())
        );
        assert!(matches!(Route::parse("servers/a"), Err(AdminError::NotFound(_))));
        assert!(matches!(Route::parse("servers/%FF/report"), Err(AdminError::NotFound(_))));
        assert_eq!(Route::RescoreAll("a".into()).method(), Method::POST);
    }

    #[test]
    fn queries() {
        let q = Query::parse("offset=5&limit=10&sort=name&format=markdown&_=1").unwrap();
        assert_eq!(
            (q.offset, q.limit, q.sort.as_deref(), q.format.as_deref()),
            (Some(5), Some(10), Some("name"), Some("markdown"))
        );
        assert!(matches!(Query::parse("limit=-1"), Err(AdminError::BadRequest(_))));
        assert!(matches!(Query::parse("offset=x"), Err(AdminError::BadRequest(_))));
    }
}
