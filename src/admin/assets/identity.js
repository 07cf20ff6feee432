// tdqs-gateway dashboard: identity. Who made each refused call and the rule that decided, and
// which rule applies to whom. Subjects and client ids come from callers' tokens (any text a
// client chooses) and rule conditions from the config: all of it becomes text nodes only.
"use strict";

// Who made a refused call, as the token (or API key) named them. Every part is text from the
// caller's credential, so it only ever becomes text nodes.
function callerCell(p) {
  if (!p) return el("span", { class: "muted" }, "not authenticated");
  return el("div", { class: "caller" },
    el("div", { class: "subject" }, p.subject || "(no subject)"),
    el("div", { class: "muted" }, "client ", el("span", { class: "client-id" }, p.clientId || "–")),
    el("div", { class: "muted" }, "issuer ", el("span", { class: "issuer" }, p.issuer || "–")));
}

function ruleName(rule) {
  return rule ? el("code", { class: "rule" }, rule) : el("span", { class: "muted rule-none" }, "the server's policy");
}

function renderRefused(data) {
  const box = $("refused");
  if (!data.refused.length) {
    box.replaceChildren(el("p", { class: "muted" }, "No call was refused."));
    return;
  }
  const head = ["When", "Caller", "Tool", "Reason", "Decided by"].map((h) => el("th", { scope: "col" }, h));
  box.replaceChildren(el("div", { class: "scroll" }, el("table", {},
    el("thead", {}, el("tr", {}, head)),
    el("tbody", {}, data.refused.slice(0, 50).map((r) => el("tr", { "data-tool": r.tool },
      el("td", {}, new Date(r.at).toLocaleString()), el("td", {}, callerCell(r.principal)), el("td", {}, r.tool),
      el("td", {}, r.reason.replace("_", " ")), el("td", {}, ruleName(r.rule))))))));
}

// A rule's conditions as "key = value" lines; every value is the operator's text, shown as text.
function ruleMatches(m) {
  const out = [];
  const one = (v) => Array.isArray(v) ? "any of " + v.join(", ") : String(v);
  if (m.issuer) out.push("issuer = " + m.issuer);
  if (m.subject) out.push("subject = " + m.subject);
  if (m.clientId) out.push("client id = " + m.clientId);
  if (m.scopes && m.scopes.length) out.push("scopes include " + m.scopes.join(", "));
  for (const [k, v] of Object.entries(m.claims || {})) out.push(`claim ${k} = ${one(v)}`);
  if (m.upstreams && m.upstreams.length) out.push("on " + m.upstreams.join(", "));
  return out.length ? out : ["every authenticated caller"];
}

function ruleSets(s) {
  const out = Object.entries(s || {}).map(([k, v]) => `${k} = ${Array.isArray(v) ? v.join(", ") : v}`);
  return out.length ? out : ["nothing (the server's policy)"];
}

function lines(list, cls) {
  return el("ul", { class: "plain " + cls }, list.map((t) => el("li", {}, t)));
}

function renderRules(data, name) {
  const box = $("rules");
  const up = data.upstreams.find((u) => u.upstream === name);
  const rules = up ? up.rules : [];
  const otherwise = up && up.otherwise
    ? `${up.otherwise.mode}` + (up.otherwise.mode === "enforce" ? ` (min ${up.otherwise.minimumTier})` : "") : "?";
  if (!data.auth) {
    box.replaceChildren(el("p", { class: "muted" }, "Callers are not authenticated ([auth] is off): every caller gets the server's policy."));
    return;
  }
  if (!rules.length) {
    box.replaceChildren(el("p", { class: "muted" }, `No identity rule applies to this server: every caller gets its policy (${otherwise}).`));
    return;
  }
  const head = ["#", "Rule", "Applies to callers with", "Sets", "Hidden for them", "Refused calls"].map((h) => el("th", { scope: "col" }, h));
  box.replaceChildren(el("div", { class: "scroll" }, el("table", { id: "rules-table" },
    el("caption", { class: "sr-only" }, "Identity rules of this server, tried in order; the first that matches decides"),
    el("thead", {}, el("tr", {}, head)),
    el("tbody", {}, rules.map((r, i) => el("tr", { "data-rule": r.name },
      el("td", {}, String(i + 1)), el("th", { scope: "row" }, el("code", {}, r.name)),
      el("td", {}, lines(ruleMatches(r.match), "matches")), el("td", {}, lines(ruleSets(r.sets), "sets")),
      el("td", {}, r.hiddenTools.length ? r.hiddenTools.join(", ") : el("span", { class: "muted" }, "none")),
      el("td", {}, String(r.refusedCalls))))))),
  el("p", { class: "muted otherwise" }, `Tried in this order, the first match decides; callers no rule matches get the server's policy (${otherwise}).`));
}
