// tdqs-gateway dashboard: threat findings. Evidence comes from upstream servers and is shown
// as text only; any invisible or deceptive character still in it is spelled U+XXXX, so what
// an agent would read but a person would not see is on the page.
"use strict";

const SEVERITY_ORDER = { high: 3, medium: 2, low: 1 };

// Format, control, tag-block, variation-selector, bidi and separator characters, spelled out.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Co}\p{Zl}\p{Zp}\u{E0000}-\u{E007F}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]/gu;
function revealHidden(text) {
  return String(text).replace(HIDDEN, (c) => "U+" + c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0"));
}

function worstSeverity(findings) {
  return (findings || []).reduce((w, f) => (SEVERITY_ORDER[f.severity] > (SEVERITY_ORDER[w] || 0) ? f.severity : w), null);
}

// The badge in a tool list row: the worst severity and how many findings.
function threatBadge(findings) {
  const worst = worstSeverity(findings);
  if (!worst) return null;
  const kinds = [...new Set(findings.map((f) => f.kind))].join(", ");
  return el("span", {
    class: "badge threat threat-" + worst, "data-threat": worst, title: kinds,
    "aria-label": `threat: ${worst}, ${findings.length} finding${findings.length === 1 ? "" : "s"}: ${kinds}`,
  }, `threat: ${worst}` + (findings.length > 1 ? ` ×${findings.length}` : ""));
}

// Each finding with its field and evidence (and the decoded message of smuggled text).
function threatList(findings) {
  if (!findings || !findings.length) return null;
  const sorted = [...findings].sort((a, b) => SEVERITY_ORDER[b.severity] - SEVERITY_ORDER[a.severity]);
  return el("section", { class: "threats", "aria-label": "Threat findings" },
    el("h3", {}, "Threats"),
    el("ul", {}, sorted.map((f) => el("li", { class: "finding", "data-kind": f.kind },
      el("span", { class: "badge threat threat-" + f.severity }, f.severity), " ",
      el("strong", {}, f.kind), " in ", el("code", {}, f.field),
      el("div", {}, "Evidence: ", el("code", { class: "evidence" }, revealHidden(f.evidence))),
      f.decoded ? el("div", {}, "Decoded: ", el("code", { class: "decoded" }, revealHidden(f.decoded))) : null))));
}

// For a held new name: the diff against the nearest definition approved before.
function nearestDiff(a) {
  const n = a.nearestApproved;
  if (!n) return null;
  return el("details", { class: "nearest" },
    el("summary", {}, `Compared with ${n.tool} (approved ${String(n.hash).slice(0, 16)}, similarity ${n.similarity})`),
    el("pre", { class: "diff" }, revealHidden(n.diff)));
}
