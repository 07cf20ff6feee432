#!/usr/bin/env python3
"""Writes benches/corpus/tools.json: a fixed benchmark corpus of MCP tool definitions.

The corpus is 20 made-up servers of 50 tools each (1,000 tools), one JSON array, one tool per
line. Tools of one server are contiguous, so consecutive slices of 50 are realistic servers with
unique names. Everything is generated from a fixed seed with the standard library only, so the
output is byte-for-byte reproducible:

    python3 scripts/make_bench_corpus.py            # rewrites benches/corpus/tools.json
    python3 scripts/make_bench_corpus.py --check    # exits 1 if the committed file differs

The mix is deliberate: descriptions from absent, blank and tautological through one-liners to
multi-paragraph guides (some non-ASCII); input schemas with no parameters, flat ones at varying
description coverage, enums, nested objects, arrays of objects, $defs/definitions with $ref,
oneOf/anyOf nullable idioms and real unions, allOf; titles, annotations, outputSchema, and
non-scoring extras (_meta, icons) on some tools.
"""

import json
import random
import sys
from pathlib import Path

SEED = 20260728
TOOLS_PER_SERVER = 50
OUT = Path(__file__).resolve().parent.parent / "benches" / "corpus" / "tools.json"

# Each server: (prefix, naming style, domain noun, resources). A resource is
# (singular, plural, fields); a field is (name, kind, description, extra) where kind is one of
# string, integer, number, boolean, enum, datetime, email, url, tags.
SERVERS = [
    ("gh", "snake", "code hosting", [
        ("issue", "issues", [("title", "string", "Short summary shown in issue lists", None),
                             ("body", "string", "Markdown body of the issue", None),
                             ("state", "enum", "Lifecycle state", ["open", "closed"]),
                             ("labels", "tags", "Label names to attach", None),
                             ("assignee", "string", "Login of the user to assign", None)]),
        ("pull_request", "pull_requests", [("head", "string", "Branch that contains the changes", None),
                                           ("base", "string", "Branch the changes should be merged into", None),
                                           ("draft", "boolean", "Open as a draft that cannot be merged yet", None),
                                           ("merge_method", "enum", "How commits are combined", ["merge", "squash", "rebase"])]),
        ("repository", "repositories", [("owner", "string", "Account or organization that owns the repository", None),
                                        ("visibility", "enum", "Who can see the repository", ["public", "private", "internal"]),
                                        ("default_branch", "string", "Name of the default branch", None)]),
        ("release", "releases", [("tag_name", "string", "Git tag the release points at", None),
                                 ("prerelease", "boolean", "Mark as not production ready", None),
                                 ("published_at", "datetime", "Publication time", None)]),
        ("workflow_run", "workflow_runs", [("status", "enum", "Run status", ["queued", "in_progress", "completed"]),
                                           ("branch", "string", "Branch that triggered the run", None)]),
    ]),
    ("slack", "snake", "team chat", [
        ("message", "messages", [("channel", "string", "Channel ID such as C0123ABCD", None),
                                 ("text", "string", "Message text; supports mrkdwn", None),
                                 ("thread_ts", "string", "Timestamp of the parent message to reply in a thread", None)]),
        ("channel", "channels", [("name", "string", "Lowercase channel name without the #", None),
                                 ("is_private", "boolean", "Create a private channel", None),
                                 ("topic", "string", "Channel topic", None)]),
        ("reaction", "reactions", [("emoji", "string", "Emoji name without colons, e.g. thumbsup", None),
                                   ("timestamp", "string", "Timestamp of the message to react to", None)]),
        ("user", "users", [("email", "email", "Work email address", None),
                           ("presence", "enum", "Presence filter", ["active", "away"])]),
        ("reminder", "reminders", [("time", "datetime", "When the reminder fires", None),
                                   ("text", "string", "What to be reminded about", None)]),
    ]),
    ("fs", "snake", "file system", [
        ("file", "files", [("path", "string", "Absolute path inside an allowed root", None),
                           ("encoding", "enum", "Text encoding", ["utf-8", "latin-1", "base64"]),
                           ("content", "string", "Full file contents", None)]),
        ("directory", "directories", [("path", "string", "Directory path", None),
                                      ("recursive", "boolean", "Descend into subdirectories", None),
                                      ("max_depth", "integer", "How deep to descend", {"minimum": 1, "maximum": 32})]),
        ("symlink", "symlinks", [("target", "string", "Path the link points to", None)]),
        ("archive", "archives", [("format", "enum", "Archive format", ["zip", "tar", "tar.gz", "tar.zst"]),
                                 ("level", "integer", "Compression level", {"minimum": 0, "maximum": 9})]),
    ]),
    ("pg", "snake", "relational database", [
        ("table", "tables", [("schema", "string", "Schema name, defaults to public", None),
                             ("table", "string", "Unquoted table name", None)]),
        ("query", "queries", [("sql", "string", "A single SQL statement", None),
                              ("params", "tags", "Positional parameters bound to $1, $2, ...", None),
                              ("timeout_ms", "integer", "Statement timeout in milliseconds", {"minimum": 1, "maximum": 600000})]),
        ("index", "indexes", [("columns", "tags", "Columns in index order", None),
                              ("method", "enum", "Index access method", ["btree", "hash", "gin", "gist", "brin"]),
                              ("unique", "boolean", "Enforce uniqueness", None)]),
        ("migration", "migrations", [("version", "string", "Migration version identifier", None),
                                     ("dry_run", "boolean", "Print the plan without applying it", None)]),
    ]),
    ("cal", "camel", "calendar", [
        ("event", "events", [("summary", "string", "Event title", None),
                             ("start", "datetime", "Start time in RFC 3339", None),
                             ("end", "datetime", "End time in RFC 3339", None),
                             ("attendees", "tags", "Attendee email addresses", None),
                             ("visibility", "enum", "Who sees the details", ["default", "public", "private"])]),
        ("calendar", "calendars", [("timeZone", "string", "IANA time zone, e.g. Europe/Lisbon", None),
                                   ("color", "string", "Hex color such as #1a73e8", None)]),
        ("availability", "availabilities", [("durationMinutes", "integer", "Meeting length", {"minimum": 5, "maximum": 480}),
                                            ("workingHoursOnly", "boolean", "Only suggest slots inside working hours", None)]),
    ]),
    ("crm", "snake", "customer relationship management", [
        ("contact", "contacts", [("email", "email", "Primary email", None),
                                 ("first_name", "string", "Given name", None),
                                 ("last_name", "string", "Family name", None),
                                 ("lifecycle_stage", "enum", "Funnel stage", ["subscriber", "lead", "opportunity", "customer", "evangelist"])]),
        ("deal", "deals", [("amount", "number", "Deal value in the account currency", {"minimum": 0}),
                           ("stage", "enum", "Pipeline stage", ["qualification", "proposal", "negotiation", "won", "lost"]),
                           ("close_date", "datetime", "Expected close date", None)]),
        ("company", "companies", [("domain", "string", "Primary web domain", None),
                                  ("employee_count", "integer", "Approximate headcount", {"minimum": 1})]),
        ("note", "notes", [("body", "string", "Note text", None),
                           ("pinned", "boolean", "Pin to the top of the timeline", None)]),
    ]),
    ("pay", "snake", "payments", [
        ("charge", "charges", [("amount", "integer", "Amount in the smallest currency unit (cents)", {"minimum": 50}),
                               ("currency", "enum", "Three-letter ISO currency code", ["usd", "eur", "gbp", "jpy", "brl"]),
                               ("capture", "boolean", "Capture immediately instead of authorizing only", None)]),
        ("refund", "refunds", [("charge", "string", "ID of the charge to refund", None),
                               ("reason", "enum", "Why the refund is issued", ["duplicate", "fraudulent", "requested_by_customer"])]),
        ("customer", "customers", [("email", "email", "Billing email", None),
                                   ("metadata", "string", "Free-form key=value pairs", None)]),
        ("invoice", "invoices", [("due_date", "datetime", "When payment is due", None),
                                 ("auto_advance", "boolean", "Finalize automatically after an hour", None)]),
        ("subscription", "subscriptions", [("price", "string", "Price ID to subscribe to", None),
                                           ("trial_days", "integer", "Free trial length", {"minimum": 0, "maximum": 730}),
                                           ("proration_behavior", "enum", "Proration on changes", ["create_prorations", "none", "always_invoice"])]),
    ]),
    ("k8s", "kebab", "container orchestration", [
        ("pod", "pods", [("namespace", "string", "Kubernetes namespace", None),
                         ("label_selector", "string", "Label selector such as app=web,tier!=cache", None),
                         ("container", "string", "Container name when the pod has several", None)]),
        ("deployment", "deployments", [("replicas", "integer", "Desired replica count", {"minimum": 0, "maximum": 1000}),
                                       ("image", "string", "Container image reference", None),
                                       ("strategy", "enum", "Rollout strategy", ["RollingUpdate", "Recreate"])]),
        ("service", "services", [("port", "integer", "Service port", {"minimum": 1, "maximum": 65535}),
                                 ("type", "enum", "Service type", ["ClusterIP", "NodePort", "LoadBalancer"])]),
        ("config_map", "config_maps", [("data", "string", "Key/value data as JSON text", None)]),
        ("node", "nodes", [("cordon", "boolean", "Mark unschedulable", None)]),
    ]),
    ("mail", "snake", "email", [
        ("email", "emails", [("to", "tags", "Recipient addresses", None),
                             ("subject", "string", "Subject line", None),
                             ("html", "string", "HTML body", None),
                             ("priority", "enum", "Delivery priority", ["low", "normal", "high"])]),
        ("draft", "drafts", [("body", "string", "Plain-text body", None)]),
        ("label", "labels", [("name", "string", "Label name, nested with /", None),
                             ("color", "string", "Background color", None)]),
        ("filter", "filters", [("from", "email", "Match sender", None),
                               ("has_attachment", "boolean", "Match only messages with attachments", None)]),
    ]),
    ("wx", "snake", "weather", [
        ("forecast", "forecasts", [("latitude", "number", "Latitude in decimal degrees", {"minimum": -90, "maximum": 90}),
                                   ("longitude", "number", "Longitude in decimal degrees", {"minimum": -180, "maximum": 180}),
                                   ("units", "enum", "Unit system", ["metric", "imperial", "standard"]),
                                   ("days", "integer", "Number of days", {"minimum": 1, "maximum": 16})]),
        ("alert", "alerts", [("area", "string", "State or marine zone code", None),
                             ("severity", "enum", "Minimum severity", ["minor", "moderate", "severe", "extreme"])]),
        ("observation", "observations", [("station", "string", "ICAO station identifier", None),
                                         ("since", "datetime", "Earliest observation", None)]),
    ]),
    ("maps", "camel", "maps and places", [
        ("place", "places", [("query", "string", "Free-text search such as 'coffee near Alfama'", None),
                             ("radiusMeters", "integer", "Search radius", {"minimum": 1, "maximum": 50000}),
                             ("openNow", "boolean", "Only places open right now", None)]),
        ("route", "routes", [("origin", "string", "Start address or lat,lng", None),
                             ("destination", "string", "End address or lat,lng", None),
                             ("mode", "enum", "Travel mode", ["driving", "walking", "bicycling", "transit"]),
                             ("avoid", "tags", "Features to avoid: tolls, highways, ferries", None)]),
        ("geocode", "geocodes", [("address", "string", "Address to resolve", None),
                                 ("region", "string", "ccTLD region bias", None)]),
    ]),
    ("metrics", "dotted", "observability", [
        ("dashboard", "dashboards", [("title", "string", "Dashboard title", None),
                                     ("refresh", "enum", "Auto refresh interval", ["off", "10s", "30s", "1m", "5m"])]),
        ("alert_rule", "alert_rules", [("expr", "string", "PromQL expression that fires the alert", None),
                                       ("for", "string", "How long the condition must hold, e.g. 5m", None),
                                       ("severity", "enum", "Routing severity", ["info", "warning", "critical"])]),
        ("series", "series", [("query", "string", "PromQL query", None),
                              ("step_seconds", "integer", "Resolution step", {"minimum": 1}),
                              ("start", "datetime", "Range start", None),
                              ("end", "datetime", "Range end", None)]),
        ("log", "logs", [("query", "string", "LogQL selector and filters", None),
                         ("limit", "integer", "Maximum lines", {"minimum": 1, "maximum": 5000}),
                         ("direction", "enum", "Sort order", ["forward", "backward"])]),
    ]),
    ("jira", "snake", "issue tracking", [
        ("ticket", "tickets", [("project_key", "string", "Project key such as OPS", None),
                               ("summary", "string", "One-line summary", None),
                               ("issue_type", "enum", "Ticket type", ["Bug", "Task", "Story", "Epic"]),
                               ("priority", "enum", "Priority", ["Lowest", "Low", "Medium", "High", "Highest"])]),
        ("sprint", "sprints", [("board_id", "integer", "Board the sprint belongs to", {"minimum": 1}),
                               ("goal", "string", "Sprint goal", None)]),
        ("comment", "comments", [("body", "string", "Comment text in wiki markup", None),
                                 ("internal", "boolean", "Visible to the team only", None)]),
        ("worklog", "worklogs", [("time_spent", "string", "Duration like 2h 30m", None),
                                 ("started", "datetime", "When work started", None)]),
    ]),
    ("docs", "camel", "documents and wikis", [
        ("page", "pages", [("parentId", "string", "Parent page or database ID", None),
                           ("title", "string", "Page title", None),
                           ("icon", "string", "Emoji or image URL", None)]),
        ("block", "blocks", [("blockType", "enum", "Kind of block", ["paragraph", "heading_1", "heading_2", "to_do", "code", "quote"]),
                             ("richText", "string", "Text content", None)]),
        ("database", "databases", [("filterProperty", "string", "Property to filter on", None),
                                   ("sortDirection", "enum", "Sort direction", ["ascending", "descending"])]),
        ("comment", "comments", [("discussionId", "string", "Existing discussion to reply to", None)]),
    ]),
    ("shop", "snake", "e-commerce", [
        ("product", "products", [("sku", "string", "Stock keeping unit", None),
                                 ("price", "number", "Unit price", {"minimum": 0, "multipleOf": 0.01}),
                                 ("status", "enum", "Catalog status", ["draft", "active", "archived"]),
                                 ("tags", "tags", "Search tags", None)]),
        ("order", "orders", [("financial_status", "enum", "Payment state", ["pending", "paid", "refunded", "voided"]),
                             ("fulfillment_status", "enum", "Shipping state", ["unfulfilled", "partial", "fulfilled"]),
                             ("created_after", "datetime", "Only orders created after this time", None)]),
        ("inventory_level", "inventory_levels", [("location_id", "integer", "Warehouse location", {"minimum": 1}),
                                                 ("available", "integer", "Units available", None)]),
        ("discount", "discounts", [("code", "string", "Code customers enter at checkout", None),
                                   ("percent_off", "number", "Percentage off", {"minimum": 0, "maximum": 100})]),
    ]),
    ("cloud", "kebab", "cloud storage", [
        ("bucket", "buckets", [("region", "enum", "Region", ["us-east-1", "eu-west-1", "ap-southeast-2", "sa-east-1"]),
                               ("versioning", "boolean", "Keep object versions", None)]),
        ("object", "objects", [("key", "string", "Object key", None),
                               ("prefix", "string", "Key prefix to filter by", None),
                               ("storage_class", "enum", "Storage class", ["STANDARD", "INTELLIGENT_TIERING", "GLACIER", "DEEP_ARCHIVE"])]),
        ("presigned_url", "presigned_urls", [("expires_in", "integer", "Lifetime in seconds", {"minimum": 1, "maximum": 604800}),
                                             ("method", "enum", "HTTP method the URL allows", ["GET", "PUT"])]),
        ("lifecycle_rule", "lifecycle_rules", [("days", "integer", "Age in days before the transition", {"minimum": 1})]),
    ]),
    ("hr", "snake", "human resources", [
        ("employee", "employees", [("employee_number", "string", "HR system identifier", None),
                                   ("department", "string", "Department name", None),
                                   ("employment_type", "enum", "Contract type", ["full_time", "part_time", "contractor", "intern"])]),
        ("time_off_request", "time_off_requests", [("start_date", "datetime", "First day off", None),
                                                   ("end_date", "datetime", "Last day off", None),
                                                   ("policy", "enum", "Leave policy", ["vacation", "sick", "parental", "unpaid"])]),
        ("review", "reviews", [("cycle", "string", "Review cycle such as 2026-H1", None),
                               ("rating", "integer", "Overall rating", {"minimum": 1, "maximum": 5})]),
    ]),
    ("search", "snake", "web search and fetch", [
        ("web_result", "web_results", [("q", "string", "Search query", None),
                                       ("count", "integer", "Results per page", {"minimum": 1, "maximum": 50}),
                                       ("freshness", "enum", "Recency filter", ["day", "week", "month", "year"]),
                                       ("safe_search", "enum", "Adult content filter", ["off", "moderate", "strict"])]),
        ("page", "pages", [("url", "url", "Absolute http(s) URL", None),
                           ("max_length", "integer", "Maximum characters returned", {"minimum": 1, "maximum": 1000000}),
                           ("raw", "boolean", "Return raw HTML instead of Markdown", None)]),
        ("news_article", "news_articles", [("topic", "string", "Topic keywords", None),
                                           ("language", "string", "BCP 47 language tag", None)]),
    ]),
    ("ml", "snake", "machine learning platform", [
        ("model", "models", [("framework", "enum", "Framework", ["pytorch", "jax", "onnx", "sklearn"]),
                             ("tags", "tags", "Model tags", None)]),
        ("training_job", "training_jobs", [("dataset", "string", "Dataset URI", None),
                                           ("epochs", "integer", "Training epochs", {"minimum": 1, "maximum": 1000}),
                                           ("learning_rate", "number", "Initial learning rate", {"exclusiveMinimum": 0, "maximum": 1}),
                                           ("accelerator", "enum", "Hardware", ["cpu", "gpu-a10", "gpu-h100", "tpu-v5e"])]),
        ("endpoint", "endpoints", [("min_replicas", "integer", "Replicas kept warm", {"minimum": 0}),
                                   ("max_replicas", "integer", "Autoscaling ceiling", {"minimum": 1})]),
        ("experiment", "experiments", [("metric", "string", "Metric to optimize", None),
                                       ("goal", "enum", "Direction", ["minimize", "maximize"])]),
    ]),
    ("iot", "camel", "smart home", [
        ("device", "devices", [("room", "string", "Room the device is in", None),
                               ("deviceType", "enum", "Device category", ["light", "thermostat", "lock", "camera", "sensor", "plug"])]),
        ("scene", "scenes", [("name", "string", "Scene name such as Movie night", None),
                             ("transitionSeconds", "number", "Fade duration", {"minimum": 0, "maximum": 60})]),
        ("automation", "automations", [("trigger", "string", "Trigger expression", None),
                                       ("enabled", "boolean", "Whether it runs", None)]),
        ("thermostat_setpoint", "thermostat_setpoints", [("celsius", "number", "Target temperature in °C", {"minimum": 5, "maximum": 35}),
                                                         ("mode", "enum", "HVAC mode", ["heat", "cool", "auto", "off"])]),
    ]),
]

VERBS = {
    # verb: (kind, annotation hints)
    "list": ("read", dict(readOnlyHint=True, destructiveHint=False, idempotentHint=True)),
    "get": ("read", dict(readOnlyHint=True, idempotentHint=True)),
    "search": ("read", dict(readOnlyHint=True, openWorldHint=True)),
    "create": ("write", dict(readOnlyHint=False, destructiveHint=False, idempotentHint=False)),
    "update": ("write", dict(readOnlyHint=False, destructiveHint=False, idempotentHint=True)),
    "delete": ("destroy", dict(readOnlyHint=False, destructiveHint=True, idempotentHint=True)),
    "archive": ("write", dict(readOnlyHint=False, destructiveHint=False)),
    "export": ("read", dict(readOnlyHint=True, openWorldHint=False)),
    "bulk_update": ("write", dict(readOnlyHint=False, destructiveHint=True, idempotentHint=False)),
    "count": ("read", dict(readOnlyHint=True, idempotentHint=True)),
}

PHRASES = {
    "list": "Lists {plural} in the {domain} account, newest first",
    "get": "Fetches one {singular} by its ID, including every field",
    "search": "Searches {plural} with a free-text query and optional filters",
    "create": "Creates {a_singular}",
    "update": "Changes fields of an existing {singular}; fields you leave out keep their current values",
    "delete": "Permanently deletes {a_singular}",
    "archive": "Archives {a_singular} so it disappears from default listings but can be restored",
    "export": "Exports {plural} as a downloadable file",
    "bulk_update": "Applies the same change to many {plural} at once",
    "count": "Counts {plural} that match a filter without returning them",
}

FLAVOR = [
    "Results are paginated; pass the cursor from the previous response to continue.",
    "Requires an API token with write scope.",
    "Rate limited to 60 requests per minute per token; a 429 response carries Retry-After.",
    "Times are interpreted in UTC unless a time zone is given.",
    "The call is synchronous and returns once the change is committed.",
    "Large results are truncated to 1,000 items — narrow the filter instead of paging forever.",
    "Deleted items cannot be recovered, even by an administrator.",
    "Unknown fields are rejected rather than ignored.",
    "Returns an empty list, not an error, when nothing matches.",
    "IDs are opaque strings; do not parse them.",
    "Works on the caller's default workspace unless workspace_id is given.",
    "Safe to retry: repeating the call with the same idempotency key has no further effect.",
    "The response includes an etag; send it back on update to avoid overwriting concurrent edits.",
    "Supports naïve and zone-aware timestamps alike → both are normalized.",
    "Note: this endpoint is eventually consistent; new items may take a few seconds to appear.",
    "Emoji in text fields are preserved as-is 👍.",
    "Localized names (e.g. 東京, São Paulo, Zürich) are matched accent-insensitively.",
]

WHEN_NOT = [
    "Do not use it to {alt_action}; call {alt} for that.",
    "Prefer {alt} when you already know the exact ID.",
    "For a single {singular}, {alt} is cheaper.",
    "Use {alt} instead if you only need to {alt_action}.",
]


def casing(style, words):
    if style == "snake":
        return "_".join(words)
    if style == "kebab":
        return "-".join(words)
    if style == "dotted":
        # namespace.action_resource, e.g. metrics.list_dashboards
        return words[0] + "." + "_".join(words[1:])
    # camel
    flat = "_".join(words).split("_")
    return flat[0] + "".join(w[:1].upper() + w[1:] for w in flat[1:])


def article(noun):
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


LOCALES = ["ar-SA", "bn-BD", "cs-CZ", "da-DK", "de-DE", "el-GR", "en-GB", "en-US", "es-ES", "es-MX",
           "fa-IR", "fi-FI", "fr-CA", "fr-FR", "he-IL", "hi-IN", "hu-HU", "id-ID", "it-IT", "ja-JP",
           "ko-KR", "nl-NL", "no-NO", "pl-PL", "pt-BR", "pt-PT", "ro-RO", "ru-RU", "sv-SE", "th-TH",
           "tr-TR", "uk-UA", "vi-VN", "zh-CN", "zh-TW"]


def title_case(s):
    return " ".join(w[:1].upper() + w[1:] for w in s.replace("_", " ").split())


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def chance(self, p):
        return self.r.random() < p

    # ---- schemas --------------------------------------------------------------------------

    def field_schema(self, kind, desc, extra, describe):
        r = self.r
        if kind == "string":
            s = {"type": "string"}
            if self.chance(0.2):
                s["minLength"] = 1
            if self.chance(0.1):
                s["maxLength"] = r.choice([64, 255, 4096, 65536])
        elif kind == "integer":
            s = {"type": "integer"}
        elif kind == "number":
            s = {"type": "number"}
        elif kind == "boolean":
            s = {"type": "boolean"}
            if self.chance(0.5):
                s["default"] = r.choice([True, False])
        elif kind == "enum":
            s = {"type": "string", "enum": list(extra)}
            if self.chance(0.4):
                s["default"] = extra[0]
            extra = None
        elif kind == "datetime":
            s = {"type": "string", "format": r.choice(["date-time", "date-time", "date"])}
        elif kind == "email":
            s = {"type": "string", "format": "email"}
        elif kind == "url":
            s = {"type": "string", "format": "uri", "pattern": "^https?://"}
        elif kind == "tags":
            s = {"type": "array", "items": {"type": "string"}}
            if self.chance(0.3):
                s["uniqueItems"] = True
            if self.chance(0.3):
                s["maxItems"] = r.choice([10, 50, 100])
        else:
            raise ValueError(kind)
        if isinstance(extra, dict):
            s.update(extra)
        if describe:
            d = desc
            if self.chance(0.15):
                d += ". " + r.choice(["Optional.", "Case-sensitive.", "Max 255 characters.",
                                      "Defaults to the account setting.", "Example: see the API guide."])
            if self.chance(0.03):
                d = " "  # whitespace-only still counts as a description
            s["description"] = d
        if self.chance(0.05):
            s = {"oneOf": [s, {"type": "null"}]} if self.chance(0.5) else {"anyOf": [s, {"type": "null"}]}
            if describe:
                s["description"] = desc
        elif kind in ("string", "integer") and self.chance(0.06):
            s["type"] = [s["type"], "null"]
        if self.chance(0.04):
            s["examples"] = [r.choice(["abc_123", 42, 0.5, 1e-3, 12345678901234567890, "2026-07-28T09:00:00Z"])]
        return s

    def pagination(self, props, style):
        r = self.r
        flat = "snake" if style == "dotted" else style
        cur = casing(flat, ["page", "token"]) if self.chance(0.3) else "cursor"
        lim = "limit" if self.chance(0.7) else casing(flat, ["page", "size"])
        props[cur] = {"type": "string", "description": "Opaque cursor from a previous page"}
        lim_s = {"type": "integer", "minimum": 1, "maximum": r.choice([100, 200, 500, 1000]),
                 "default": r.choice([20, 25, 50, 100])}
        if self.chance(0.7):
            lim_s["description"] = "Maximum number of items to return"
        props[lim] = lim_s

    def filter_object(self, fields, coverage):
        """A nested `filter` object built from the resource's fields."""
        props, req = {}, []
        for name, kind, desc, extra in self.r.sample(fields, k=min(len(fields), self.r.randint(1, 3))):
            props[name] = self.field_schema(kind, desc, extra, self.chance(coverage))
        if self.chance(0.3):
            req.append(next(iter(props)))
        obj = {"type": "object", "properties": props, "additionalProperties": False}
        if req:
            obj["required"] = req
        if self.chance(0.7):
            obj["description"] = "Only items matching every given condition are returned"
        return obj

    def input_schema(self, verb, res, style, coverage):
        r = self.r
        singular, plural, fields = res
        id_name = casing("snake" if style in ("kebab", "dotted") else style, [singular, "id"])
        props, required, defs = {}, [], {}
        schema = {}
        if self.chance(0.15):
            schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["type"] = "object"

        def add(name, s, req=False):
            props[name] = s
            if req:
                required.append(name)

        def idref():
            s = {"type": "string", "description": f"ID of the {singular.replace('_', ' ')}"}
            if not self.chance(coverage):
                del s["description"]
            return s

        if verb in ("get", "delete", "archive"):
            add(id_name, idref(), True)
            if verb == "get" and self.chance(0.4):
                add("expand", {"type": "array", "items": {"type": "string", "enum": [f[0] for f in fields][:4]},
                               "description": "Related objects to inline in the response"})
            if verb == "delete" and self.chance(0.5):
                add("confirm", {"type": "boolean", "const": True,
                                "description": "Must be true; guards against accidental deletion"}, self.chance(0.5))
        elif verb in ("list", "export", "count"):
            if self.chance(0.6):
                add("filter", self.filter_object(fields, coverage))
            else:
                for name, kind, desc, extra in fields[: r.randint(0, len(fields))]:
                    add(name, self.field_schema(kind, desc, extra, self.chance(coverage)))
            if verb == "list":
                self.pagination(props, style)
                if self.chance(0.08):
                    add("locale", {"type": "string", "enum": LOCALES, "default": "en-US",
                                   "description": "Language and region for localized fields"})
                if self.chance(0.4):
                    add("sort", {"type": "string", "enum": ["created_at", "-created_at", "updated_at", "-updated_at"]})
            if verb == "export":
                add("format", {"type": "string", "enum": ["csv", "json", "ndjson", "xlsx"],
                               "description": "File format"}, True)
        elif verb == "search":
            add("query", {"type": "string", "minLength": 1, "description": "Search terms; quotes match a phrase"}, True)
            if self.chance(0.5):
                add("filter", self.filter_object(fields, coverage))
            self.pagination(props, style)
        elif verb in ("create", "update"):
            if verb == "update":
                add(id_name, idref(), True)
            use_defs = self.chance(0.35)
            body = {}
            body_req = []
            for name, kind, desc, extra in fields:
                if verb == "create" or self.chance(0.6):
                    body[name] = self.field_schema(kind, desc, extra, self.chance(coverage))
                    if verb == "create" and self.chance(0.5):
                        body_req.append(name)
            if self.chance(0.5) or use_defs:
                # The resource's fields live under a nested object, often through $defs.
                obj = {"type": "object", "properties": body}
                if body_req:
                    obj["required"] = body_req
                key = casing("camel" if style == "camel" else "snake", [singular]) if not use_defs else singular
                if use_defs:
                    defs_key = "$defs" if self.chance(0.75) else "definitions"
                    def_name = title_case(singular).replace(" ", "")
                    if self.chance(0.1):
                        def_name += " Input"  # exercises percent-decoding of the ref
                        ref = f"#/{defs_key}/{def_name.replace(' ', '%20')}"
                    else:
                        ref = f"#/{defs_key}/{def_name}"
                    defs[defs_key] = {def_name: obj}
                    if self.chance(0.3):
                        defs[defs_key]["Metadata"] = {
                            "type": "object",
                            "additionalProperties": {"type": "string"},
                            "description": "Arbitrary string key/value pairs",
                        }
                        obj["properties"]["metadata"] = {"$ref": f"#/{defs_key}/Metadata"}
                    add(key, {"$ref": ref, "description": f"The {singular.replace('_', ' ')} to write"}
                        if self.chance(0.6) else {"$ref": ref}, verb == "create")
                else:
                    obj["description"] = f"Fields of the {singular.replace('_', ' ')}"
                    add(key, obj, verb == "create")
            else:
                for name, s in body.items():
                    add(name, s, name in body_req)
            if self.chance(0.25):
                # A real union: identify the owner either by ID or by email.
                add("owner", {
                    "description": "Who owns it; give an ID or an email",
                    "oneOf": [
                        {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
                        {"type": "object", "properties": {"email": {"type": "string", "format": "email"},
                                                          "notify": {"type": "boolean"}}, "required": ["email"]},
                        {"type": "null"},
                    ],
                }, self.chance(0.4))
            if self.chance(0.2):
                add("idempotency_key", {"type": "string", "maxLength": 255,
                                        "description": "Reuse to make retries safe"})
        elif verb == "bulk_update":
            item = {"type": "object", "properties": {"id": {"type": "string"}, "changes": {
                "type": "object",
                "properties": {n: self.field_schema(k, d, e, self.chance(coverage)) for n, k, d, e in fields[:3]},
                "minProperties": 1,
            }}, "required": ["id", "changes"]}
            if self.chance(0.4):
                item = {"allOf": [item, {"type": "object", "properties": {"version": {"type": "integer"}}}]}
            add("items", {"type": "array", "items": item, "minItems": 1, "maxItems": 100,
                          "description": "Changes to apply, one entry per item"}, True)
            add("stop_on_error", {"type": "boolean", "default": False}, False)
            if self.chance(0.3):
                add("mode", {"anyOf": [{"type": "string", "enum": ["all_or_nothing"]},
                                       {"type": "string", "enum": ["best_effort"]},
                                       {"type": "null"}],
                             "description": "Failure semantics"}, self.chance(0.5))

        if len(props) > 1 and self.chance(0.08):
            props.pop(list(props)[-1])  # schemas drift: a required name with no property
        if props or self.chance(0.5):
            schema["properties"] = props
        required = [x for x in required if x in props]
        if required:
            schema["required"] = required
        if defs:
            schema.update(defs)
        if self.chance(0.5):
            schema["additionalProperties"] = False
        return schema

    def output_schema(self, verb, res):
        singular, plural, fields = res
        item = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
        for name, kind, desc, extra in fields:
            item["properties"][name] = self.field_schema(kind, desc, extra, self.chance(0.5))
        if verb in ("list", "search", "export"):
            return {"type": "object", "properties": {
                plural: {"type": "array", "items": item},
                "next_cursor": {"type": ["string", "null"], "description": "Pass back to get the next page"},
            }, "required": [plural]}
        if verb == "count":
            return {"type": "object", "properties": {"count": {"type": "integer", "minimum": 0}}, "required": ["count"]}
        if verb in ("delete", "archive"):
            return {"type": "object", "properties": {"deleted": {"type": "boolean"}, "id": {"type": "string"}}}
        if verb == "bulk_update":
            return {"type": "object", "properties": {
                "updated": {"type": "integer"},
                "errors": {"type": "array", "items": {"type": "object", "properties": {
                    "id": {"type": "string"}, "message": {"type": "string"}}}},
            }}
        return item

    # ---- descriptions ---------------------------------------------------------------------

    def description(self, verb, res, domain, name, title, siblings):
        r = self.r
        singular, plural, _ = res
        sg, pl = singular.replace("_", " "), plural.replace("_", " ")
        roll = r.random()
        if roll < 0.025:
            return None  # absent
        if roll < 0.04:
            return r.choice(["", "   ", "\n\t"])
        if roll < 0.07:
            base = title if (title and self.chance(0.5)) else name
            return r.choice([base, base.upper(), f"  {base} ", base.lower()])
        lead = PHRASES[verb].format(singular=sg, plural=pl, domain=domain, a_singular=article(sg))
        if roll < 0.22:
            noun = pl if verb in ("list", "search", "export", "count", "bulk_update") else sg
            return r.choice([lead + ".", f"{verb.replace('_', ' ').capitalize()} {noun}", lead])
        parts = [lead + "."]
        alt = r.choice(siblings) if siblings else None
        if roll < 0.62:
            parts += r.sample(FLAVOR, k=r.randint(0, 2))
            if alt and self.chance(0.3):
                parts.append(r.choice(WHEN_NOT).format(alt=alt, alt_action=f"look up a {sg}", singular=sg))
            return " ".join(parts)
        # Detailed: purpose, usage, behaviour, returns; sometimes markdown structure.
        parts.append(f"Use it when you need {pl} from {domain} that the user refers to by name or attribute.")
        if alt:
            parts.append(r.choice(WHEN_NOT).format(alt=alt, alt_action=f"change a {sg}", singular=sg))
        parts += r.sample(FLAVOR, k=r.randint(1, 4))
        if VERBS[verb][0] == "destroy":
            parts.append(f"This removes the {sg} and everything attached to it; ask the user to confirm first.")
        text = " ".join(parts)
        if roll > 0.9:
            bullets = "\n".join(f"- {s}" for s in r.sample(FLAVOR, k=r.randint(2, 5)))
            text += f"\n\n## Behaviour\n{bullets}\n\n## Returns\nThe {sg} as JSON" + \
                (", plus a `next_cursor` when more pages exist." if verb in ("list", "search") else ".")
            if self.chance(0.5):
                text += f"\n\nExample: `{name}` with {{\"limit\": 10}} returns at most ten {pl}."
        if roll > 0.96:
            # The occasional manual: a paragraph per field, caveats and a worked example.
            paras = []
            for fname, kind, fdesc, extra in res[2]:
                p = f"**{fname}** ({kind}): {fdesc}."
                if isinstance(extra, list):
                    p += " Accepted values: " + ", ".join(f"`{v}`" for v in extra) + "."
                p += " " + " ".join(r.sample(FLAVOR, k=2))
                paras.append(p)
            text += "\n\n### Parameters\n\n" + "\n\n".join(paras)
            text += "\n\n### Caveats\n\n" + "\n".join(f"{i}. {c}" for i, c in enumerate(r.sample(FLAVOR, k=4), 1))
            text += (f"\n\n### Example\n\nTo {verb.replace('_', ' ')} {pl} for the current user, call `{name}` "
                     "with only the required fields and inspect the response before chaining further calls.")
        return text

    # ---- tools ----------------------------------------------------------------------------

    def server(self, prefix, style, domain, resources):
        r = self.r
        coverage = r.choice([0.2, 0.5, 0.75, 0.9, 1.0])
        annotate = r.choice([0.0, 0.3, 0.7, 1.0])
        with_output = r.choice([0.0, 0.2, 0.5, 0.9])
        combos = [(v, res) for res in resources for v in VERBS]
        r.shuffle(combos)
        names, tools = set(), []
        for verb, res in combos:
            if len(tools) == TOOLS_PER_SERVER:
                break
            words = verb.split("_") + res[0].split("_")
            if verb in ("list", "search", "export", "count"):
                words = verb.split("_") + res[1].split("_")
            if style == "dotted" or self.chance(0.3):
                words = [prefix] + words
            name = casing(style, words)
            if name in names:
                continue
            names.add(name)
            tools.append((verb, res, name))
        # Top up with variants when the combinations run out.
        n = 2
        while len(tools) < TOOLS_PER_SERVER:
            verb, res = r.choice(combos)
            name = casing(style, [prefix] + verb.split("_") + res[0].split("_") + [f"v{n}"])
            n += 1
            if name not in names:
                names.add(name)
                tools.append((verb, res, name))
        all_names = [t[2] for t in tools]
        out = []
        for verb, res, name in tools:
            tool = {"name": name}
            title = None
            if self.chance(0.45):
                title = name if self.chance(0.1) else title_case(f"{verb} {res[0]}")
                tool["title"] = title
            siblings = [x for x in all_names if x != name and res[0].split("_")[0] in x]
            desc = self.description(verb, res, domain, name, title, r.sample(siblings, k=min(3, len(siblings))))
            if desc is not None or self.chance(0.5):
                tool["description"] = desc
            if self.chance(0.97):
                tool["inputSchema"] = self.input_schema(verb, res, style, coverage)
            if self.chance(with_output):
                tool["outputSchema"] = self.output_schema(verb, res)
            if self.chance(annotate):
                hints = dict(VERBS[verb][1])
                if self.chance(0.3):
                    hints.pop(r.choice(list(hints)))
                if self.chance(0.05):
                    hints["readOnlyHint"] = "yes"  # not a boolean: reads as null
                if self.chance(0.5):
                    hints["openWorldHint"] = domain in ("web search and fetch", "maps and places", "weather")
                ann = {}
                if self.chance(0.3):
                    ann["title"] = title_case(f"{verb} {res[1]}")
                ann.update(hints)
                tool["annotations"] = ann if not self.chance(0.05) else {}
            if self.chance(0.08):
                tool["_meta"] = {"vendor/x-category": domain, "vendor/x-version": r.randint(1, 9)}
            if self.chance(0.03):
                tool["icons"] = [{"src": f"https://example.com/icons/{prefix}.svg", "mimeType": "image/svg+xml"}]
            out.append(tool)
        return out


def render():
    g = Gen(SEED)
    tools = []
    for prefix, style, domain, resources in SERVERS:
        tools += g.server(prefix, style, domain, resources)
    lines = [json.dumps(t, ensure_ascii=False, separators=(",", ":")) for t in tools]
    return "[\n" + ",\n".join(lines) + "\n]\n"


def main():
    text = render()
    if sys.argv[1:] == ["--check"]:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{OUT} differs from the generator's output")
        sys.exit(0 if same else 1)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {OUT} ({len(text.encode('utf-8'))} bytes)")


if __name__ == "__main__":
    main()
