// tdqs-gateway dashboard: reads the admin API, renders with DOM nodes only (tool definitions
// come from upstream servers and are never parsed as HTML), refreshes on the event stream.
"use strict";

const TOKEN_KEY = "tdqs-admin-token";
const PAGE = 25;
const DIMENSIONS = [
  ["purpose_clarity", "Purpose clarity"],
  ["usage_guidelines", "Usage guidelines"],
  ["behavioral_transparency", "Behavioral transparency"],
  ["parameter_semantics", "Parameter semantics"],
  ["conciseness_structure", "Conciseness & structure"],
  ["contextual_completeness", "Contextual completeness"],
];
const TIERS = ["A", "B", "C", "D", "F"];
const TIER_COLORS = { A: "var(--a)", B: "var(--b)", C: "var(--c)", D: "var(--d)", F: "var(--f)" };

const state = { selected: null, offset: 0, expanded: new Set(), upstreams: [], stream: null };
const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    // Through the CSSOM: the page's Content-Security-Policy forbids inline style attributes.
    else if (k === "style") Object.assign(node.style, v);
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

class Unauthorized extends Error {}

function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

async function api(path, options = {}) {
  const headers = { Accept: "application/json" };
  if (token()) headers.Authorization = "Bearer " + token();
  const init = { method: options.method || "GET", headers, cache: "no-store" };
  if (init.method === "POST") {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(options.body || {});
  }
  const resp = await fetch("/admin/api/" + path, init);
  if (resp.status === 401) throw new Unauthorized();
  if (!resp.ok) {
    let msg = resp.status + " " + resp.statusText;
    try { msg = (await resp.json()).error || msg; } catch (_) { /* not JSON */ }
    throw new Error(msg);
  }
  return options.text ? resp.text() : resp.json();
}

const enc = encodeURIComponent;

function tierBadge(tier, score) {
  const label = tier ? `tier ${tier}` + (score !== null && score !== undefined ? `, score ${score.toFixed(1)}` : "") : "no score";
  return el("span", {},
    el("span", { class: "tier tier-" + (tier || "none"), "aria-label": label, title: label, text: tier || "–" }),
    score !== null && score !== undefined ? " " + score.toFixed(1) : "");
}

function histogram(h) {
  const total = TIERS.reduce((n, t) => n + (h[t] || 0), 0);
  const text = TIERS.filter((t) => h[t]).map((t) => `${t} ${h[t]}`).join(" · ") || "none scored";
  const bar = el("div", { class: "hist", role: "img", "aria-label": "tool tiers: " + text });
  for (const t of TIERS) {
    if (!h[t]) continue;
    bar.append(el("span", { style: { width: `${(100 * h[t]) / total}%`, background: TIER_COLORS[t] }, title: `${t}: ${h[t]}` }));
  }
  return el("div", {}, bar, el("div", { class: "hist-legend", "aria-hidden": "true", text }));
}

function showMessage(text) {
  $("message").textContent = text || "";
}

// ---- servers and approvals -------------------------------------------------------------

function renderServers(data) {
  $("judge").textContent = "judge: " + data.judge;
  const body = $("servers").tBodies[0];
  body.replaceChildren();
  for (const u of data.upstreams) {
    const r = u.report;
    const reach = u.status.reachable;
    const policy = u.policy.mode + (u.policy.mode === "enforce" ? ` (min ${u.policy.minimumTier})` : "") +
      (u.policy.pin ? " · pinned" : "") + (u.policy.dryRun ? " · dry run" : "");
    body.append(el("tr", { "data-server": u.name },
      el("th", { scope: "row" }, el("button", {
        type: "button", class: "open-server", "aria-pressed": String(state.selected === u.name), "data-key": "open:" + u.name,
        onclick: () => selectServer(u.name),
      }, u.name)),
      el("td", {}, u.transport.replace("_", " ")),
      el("td", {}, policy),
      el("td", {}, reach === null ? "per session" : reach ? el("span", { class: "badge ok" }, "reachable") : el("span", { class: "badge warn" }, "unreachable")),
      el("td", {}, `${u.tools.visible} visible · ${u.tools.hidden} hidden`,
        u.tools.awaitingApproval ? el("div", {}, el("span", { class: "badge warn" }, `${u.tools.awaitingApproval} awaiting approval`)) : null),
      el("td", { class: "overall" }, r ? tierBadge(r.overall.tier, r.overall.score) : el("span", { class: "muted" }, "not listed yet")),
      el("td", { class: "dq" }, r ? tierBadge(r.descriptionQuality.tier, r.descriptionQuality.score) : "–"),
      el("td", { class: "coherence" }, r ? tierBadge(r.coherence.tier, r.coherence.score) : "–"),
      el("td", {}, histogram(u.tierHistogram)),
    ));
  }
}

function renderApprovals(list) {
  const box = $("approvals");
  box.replaceChildren();
  if (!list.length) {
    box.append(el("p", { class: "muted" }, "Nothing awaits approval."));
    return;
  }
  const upstreams = [...new Set(list.map((a) => a.upstream))];
  for (const a of list) {
    box.append(el("div", { class: "approval", "data-tool": a.tool, "data-upstream": a.upstream },
      el("p", {}, el("strong", {}, a.tool), " on ", a.upstream, " · ", tierBadge(a.tier, a.tdqs), " · ",
        a.visible ? "still visible (not enforced)" : el("span", { class: "badge hidden" }, "hidden until approved")),
      el("p", { class: "muted" }, "new definition ", el("code", {}, (a.currentHash || "").slice(0, 16)),
        " · approved before: ", a.approvedHashes.map((h) => h.slice(0, 16)).join(", ") || "none"),
      a.pin === "new" ? el("p", {}, el("span", { class: "badge warn" }, "new name since the first listing")) : null,
      a.description ? el("p", {}, "Description: ", el("q", {}, revealHidden(a.description))) : null,
      threatList(a.threats),
      nearestDiff(a),
      el("button", {
        type: "button", class: "primary approve", "data-key": `approve:${a.upstream}/${a.tool}`,
        "aria-label": `Approve the new definition of ${a.tool} on ${a.upstream}`,
        onclick: (e) => act(e.target, `servers/${enc(a.upstream)}/tools/${enc(a.tool)}/approve`, { hash: a.currentHash }),
      }, "Approve"),
    ));
  }
  for (const u of upstreams) {
    box.append(el("button", {
      type: "button", class: "approve-all", "data-key": "approve-all:" + u,
      onclick: (e) => act(e.target, `servers/${enc(u)}/approve`, {}),
    }, `Approve every changed or new definition on ${u}`));
  }
}

async function act(button, path, body) {
  button.disabled = true;
  showMessage("");
  try {
    await api(path, { method: "POST", body });
  } catch (e) {
    if (e instanceof Unauthorized) return showLogin();
    showMessage(e.message);
  } finally {
    button.disabled = false;
  }
  await refresh();
}

// ---- one server ------------------------------------------------------------------------

function selectServer(name) {
  state.selected = name;
  state.offset = 0;
  state.expanded.clear();
  $("markdown").hidden = true;
  $("show-markdown").setAttribute("aria-expanded", "false");
  // Focus goes to the server's title once it is drawn, unless the user has moved it meanwhile
  // (to a control the first render already drew): a slow refresh must not take it back.
  // (Re-rendering puts focus back on a redrawn control with the same data-key: the same place.)
  const place = (n) => (n && n !== document.body ? (n.dataset && n.dataset.key) || n : null);
  const from = place(document.activeElement);
  refresh().then(() => {
    const now = place(document.activeElement);
    if (now === null || now === from) $("server-title").focus();
  });
}

function dimensionBars(score) {
  const grid = el("div", { class: "bars" });
  for (const [key, label] of DIMENSIONS) {
    const v = score.scores[key];
    grid.append(el("span", {}, label),
      el("div", { class: "bar", role: "img", "aria-label": `${label} ${v} of 5` }, el("span", { style: { width: `${v * 20}%` } })),
      el("span", { "aria-hidden": "true" }, String(v)));
  }
  return grid;
}

function toolDetail(t, id) {
  const cells = [threatList(t.threats)];
  if (t.score) {
    const dl = el("dl", { class: "just" });
    for (const [key, label] of DIMENSIONS) {
      const j = t.score.justifications[key];
      dl.append(el("dt", {}, label), el("dd", {}, `${j.score}/5`), el("dd", { class: "justification" }, j.justification));
    }
    cells.push(el("p", {}, el("strong", {}, "Summary: "), t.score.summary), dl);
    const off = t.score.disagreements || [];
    if (off.length) {
      const label = (key) => (DIMENSIONS.find(([k]) => k === key) || [key, key])[1];
      cells.push(el("p", { class: "disagreements" }, el("strong", {}, "The model and the heuristic disagree: "),
        off.map((d) => `${label(d.dimension)} model ${d.model}, heuristic ${d.heuristic}`).join("; "),
        " (the model's scores stand; the heuristic reads only the evidence in the text)"));
    }
    cells.push(el("p", { class: "muted" }, `judge ${t.judge || "?"} · hash `, el("code", {}, t.score.contextSignals.inputHash)));
  }
  cells.push(el("button", {
    type: "button", class: "rescore", "data-key": "rescore:" + t.name,
    onclick: (e) => act(e.target, `servers/${enc(state.selected)}/tools/${enc(t.name)}/rescore`, {}),
  }, `Re-score ${t.name}`));
  cells.push(el("details", {}, el("summary", {}, "Definition"), el("pre", {}, JSON.stringify(t.definition, null, 2))));
  return el("tr", { class: "detail", id }, el("td", { colspan: "7" }, cells));
}

function renderTools(page) {
  const body = $("tools").tBodies[0];
  body.replaceChildren();
  page.tools.forEach((t, i) => {
    const id = "tool-detail-" + (page.offset + i);
    const open = state.expanded.has(t.name);
    const s = t.score;
    const marks = [threatBadge(t.threats), ...(s ? s.flags : []).map((f) => el("span", { class: "badge warn" }, f)),
      ...(s ? s.serverFlags : []).map((f) => el("span", { class: "badge warn" }, f)),
      ...(s ? s.smells : []).map((m) => el("span", { class: "badge" }, "smell: " + m)),
      ...(s && s.disagreements && s.disagreements.length
        ? [el("span", { class: "badge warn", title: "model and heuristic differ by 3 or more" }, `disagrees with heuristic: ${s.disagreements.length}`)] : [])];
    const toggle = el("button", {
      type: "button", class: "expand", "aria-expanded": String(open), "aria-controls": id, "data-key": "expand:" + t.name,
      "aria-label": `Justifications for ${t.name}`,
    }, open ? "Hide" : "Why?");
    const detail = toolDetail(t, id);
    detail.hidden = !open;
    toggle.addEventListener("click", () => {
      const now = detail.hidden;
      detail.hidden = !now;
      toggle.setAttribute("aria-expanded", String(now));
      toggle.textContent = now ? "Hide" : "Why?";
      if (now) state.expanded.add(t.name); else state.expanded.delete(t.name);
    });
    body.append(el("tr", { "data-tool": t.name },
      el("th", { scope: "row" }, t.name),
      el("td", {}, s ? tierBadge(s.tier, s.tdqs) : tierBadge(null)),
      el("td", {}, t.state.replace("_", " "), t.pin ? el("div", { class: "muted" }, "pin: " + t.pin) : null),
      el("td", { class: "visibility" }, t.visible ? "visible" : el("span", { class: "badge hidden" }, "hidden: " + (t.hideReason || "").replace("_", " "))),
      el("td", {}, s ? dimensionBars(s) : "–"),
      el("td", {}, marks.some(Boolean) ? marks : el("span", { class: "muted" }, "none")),
      el("td", {}, toggle)), detail);
  });
  const last = page.offset + page.tools.length;
  $("page-info").textContent = page.total ? `${page.offset + 1}–${last} of ${page.total}` : "no tools listed yet";
  $("prev").disabled = page.offset === 0;
  $("next").disabled = page.nextOffset === null;
}

function renderHidden(all) {
  const hidden = all.tools.filter((t) => !t.visible);
  const box = $("hidden-tools");
  box.replaceChildren(hidden.length
    ? el("ul", {}, hidden.map((t) => el("li", {}, el("strong", {}, t.name), " — ", (t.hideReason || "").replace("_", " "),
        t.score ? ` (TDQS ${t.score.tdqs.toFixed(1)}, tier ${t.score.tier})` : "")))
    : el("p", { class: "muted" }, "No tool is hidden."));
}

async function renderServer(summary) {
  const name = state.selected;
  const [page, all, refused, rules] = await Promise.all([
    api(`servers/${enc(name)}/tools?sort=weakest&offset=${state.offset}&limit=${PAGE}`),
    api(`servers/${enc(name)}/tools?sort=weakest&limit=500`),
    api(`servers/${enc(name)}/refused`),
    api("rules"),
  ]);
  $("server").hidden = false;
  $("server-title").textContent = "Server " + name;
  const r = summary && summary.report;
  $("server-summary").textContent = r
    ? `overall ${r.overall.tier || "–"} ${fmt(r.overall.score)} · description quality ${r.descriptionQuality.tier || "–"} ${fmt(r.descriptionQuality.score)} · coherence ${r.coherence.tier || "–"} ${fmt(r.coherence.score)} · ${r.toolCount} tools · report of ${r.generatedAt} by ${r.judge}`
    : "No report yet: it is built once a client lists this server's tools through the gateway.";
  renderTools(page);
  renderHidden(all);
  renderRefused(refused);
  renderRules(rules, name);
}

function fmt(x) {
  return x === null || x === undefined ? "" : x.toFixed(1);
}

// ---- refresh, events, sign-in ----------------------------------------------------------

let refreshing = null;
let again = false;

// Re-rendering replaces nodes: focus goes back to the control with the same data-key. The key
// is the last one focused, tracked as it happens: a control focused while a render is awaiting
// the API (after the render began) is the one to restore, not whatever had focus at its start.
let focusKey = null;
document.addEventListener("focusin", (e) => {
  focusKey = (e.target && e.target.dataset && e.target.dataset.key) || null;
});

function keepFocus(render) {
  return Promise.resolve(render()).then(() => {
    if (!focusKey) return;
    const target = [...document.querySelectorAll("[data-key]")].find((n) => n.dataset.key === focusKey);
    // Only where the old node's removal dropped focus: a user who moved it meanwhile keeps it.
    const lost = !document.activeElement || document.activeElement === document.body;
    if (target && lost) target.focus();
  });
}

async function refresh() {
  if (refreshing) { again = true; return refreshing; }
  refreshing = keepFocus(async () => {
    try {
      const [ups, appr] = await Promise.all([api("upstreams"), api("approvals")]);
      state.upstreams = ups.upstreams;
      showApp();
      renderServers(ups);
      renderApprovals(appr.approvals);
      if (state.selected) await renderServer(ups.upstreams.find((u) => u.name === state.selected));
    } catch (e) {
      if (e instanceof Unauthorized) showLogin();
      else showMessage("Cannot reach the admin API: " + e.message);
    }
  });
  await refreshing;
  refreshing = null;
  if (again) { again = false; await refresh(); }
}

let pending = null;
function refreshSoon() {
  clearTimeout(pending);
  pending = setTimeout(refresh, 250);
}

async function listen() {
  if (state.stream) state.stream.abort();
  const ctrl = new AbortController();
  state.stream = ctrl;
  const headers = {};
  if (token()) headers.Authorization = "Bearer " + token();
  try {
    const resp = await fetch("/admin/api/events", { headers, signal: ctrl.signal, cache: "no-store" });
    if (resp.status === 401) return showLogin();
    if (!resp.ok || !resp.body) throw new Error("status " + resp.status);
    setLive(true);
    const reader = resp.body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += value;
      let cut;
      while ((cut = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        if (/^event: (scores|changed)$/m.test(block)) refreshSoon();
      }
    }
  } catch (e) {
    if (ctrl.signal.aborted) return;
  }
  setLive(false);
  setTimeout(() => { if (state.stream === ctrl) { listen(); refreshSoon(); } }, 2000);
}

function setLive(on) {
  $("live").textContent = on ? "live" : "reconnecting…";
  $("live").classList.toggle("on", on);
}

function showLogin() {
  if (state.stream) { state.stream.abort(); state.stream = null; }
  $("app").hidden = true;
  $("login").hidden = false;
  $("forget").hidden = !token();
  if (token()) $("login-error").textContent = "That token was refused.";
  $("live").textContent = "signed out";
  $("token").focus();
}

function showApp() {
  if (!$("app").hidden) return;
  $("login").hidden = true;
  $("app").hidden = false;
  $("forget").hidden = !token();
}

document.addEventListener("DOMContentLoaded", () => {
  $("login-form").addEventListener("submit", (e) => {
    e.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, $("token").value.trim());
    $("token").value = "";
    $("login-error").textContent = "";
    refresh().then(() => { if (!$("app").hidden) listen(); });
  });
  $("forget").addEventListener("click", () => {
    sessionStorage.removeItem(TOKEN_KEY);
    $("login-error").textContent = "";
    showLogin();
  });
  $("prev").addEventListener("click", () => { state.offset = Math.max(0, state.offset - PAGE); refresh(); });
  $("next").addEventListener("click", () => { state.offset += PAGE; refresh(); });
  $("rescore-all").addEventListener("click", (e) => act(e.target, `servers/${enc(state.selected)}/rescore`, {}));
  $("show-markdown").addEventListener("click", async (e) => {
    const pre = $("markdown");
    if (!pre.hidden) {
      pre.hidden = true;
      e.target.setAttribute("aria-expanded", "false");
      return;
    }
    try {
      pre.textContent = await api(`servers/${enc(state.selected)}/report?format=markdown`, { text: true });
    } catch (err) {
      if (err instanceof Unauthorized) return showLogin();
      pre.textContent = err.message;
    }
    pre.hidden = false;
    e.target.setAttribute("aria-expanded", "true");
  });
  refresh().then(() => { if (!$("app").hidden) listen(); });
});
