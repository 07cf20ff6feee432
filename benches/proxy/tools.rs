//! The tool set of the proxy benchmarks: `n` realistic tool definitions generated
//! deterministically (the same bytes on every run and every machine), varied in names,
//! description quality and length, schema shapes, titles, annotations and output schemas.
//! Shared by `examples/bench_upstream.rs` (served over HTTP) and `benches/proxy.rs` (in-process).

use serde_json::{Value, json};

/// A small deterministic generator (SplitMix64), so the tool set never depends on a crate's
/// algorithm choices.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// A domain: the noun a server's tools act on, its id field and some attributes.
struct Domain {
    noun: &'static str,
    plural: &'static str,
    id: &'static str,
    id_example: &'static str,
    fields: &'static [(&'static str, &'static str, &'static str)],
    system: &'static str,
}

const DOMAINS: &[Domain] = &[
    Domain {
        noun: "issue",
        plural: "issues",
        id: "issue_number",
        id_example: "1042",
        fields: &[
            ("title", "string", "Short summary shown in lists"),
            ("labels", "array", "Label names to apply"),
            ("assignee", "string", "Login of the user to assign"),
        ],
        system: "the repository's issue tracker",
    },
    Domain {
        noun: "file",
        plural: "files",
        id: "path",
        id_example: "src/main.rs",
        fields: &[
            ("content", "string", "Full text to write, UTF-8"),
            ("encoding", "string", "Text encoding of the content"),
            ("mode", "string", "Unix permission bits, e.g. 0644"),
        ],
        system: "the workspace folder",
    },
    Domain {
        noun: "event",
        plural: "events",
        id: "event_id",
        id_example: "evt_8f2c",
        fields: &[
            ("start", "string", "Start time, RFC 3339"),
            ("end", "string", "End time, RFC 3339"),
            ("attendees", "array", "Email addresses to invite"),
        ],
        system: "the user's primary calendar",
    },
    Domain {
        noun: "table",
        plural: "tables",
        id: "table",
        id_example: "public.orders",
        fields: &[
            ("schema", "string", "Schema that holds the table"),
            ("limit", "integer", "Most rows to return"),
            ("where", "string", "SQL condition, without WHERE"),
        ],
        system: "the connected PostgreSQL database",
    },
    Domain {
        noun: "message",
        plural: "messages",
        id: "message_id",
        id_example: "msg_7731",
        fields: &[
            ("channel", "string", "Channel name without #"),
            ("text", "string", "Message text, Markdown allowed"),
            ("thread_ts", "string", "Timestamp of the parent message"),
        ],
        system: "the team chat workspace",
    },
    Domain {
        noun: "invoice",
        plural: "invoices",
        id: "invoice_id",
        id_example: "in_1Nv0",
        fields: &[
            ("customer", "string", "Customer id, e.g. cus_123"),
            ("amount", "number", "Amount in the currency's major unit"),
            ("currency", "string", "ISO 4217 code"),
        ],
        system: "the billing account",
    },
    Domain {
        noun: "deployment",
        plural: "deployments",
        id: "deployment",
        id_example: "web-frontend",
        fields: &[
            ("namespace", "string", "Kubernetes namespace"),
            ("replicas", "integer", "Desired number of pods"),
            ("image", "string", "Container image reference"),
        ],
        system: "the cluster in the current kubeconfig context",
    },
    Domain {
        noun: "document",
        plural: "documents",
        id: "doc_id",
        id_example: "d-2024-117",
        fields: &[
            ("query", "string", "Words to search for"),
            ("folder", "string", "Folder path to search in"),
            ("format", "string", "Export format"),
        ],
        system: "the shared document store",
    },
    Domain {
        noun: "ticket",
        plural: "tickets",
        id: "ticket_id",
        id_example: "T-1042",
        fields: &[
            ("status", "string", "Workflow state"),
            ("priority", "string", "Urgency of the ticket"),
            ("body", "string", "Text of the reply"),
        ],
        system: "the support desk",
    },
    Domain {
        noun: "metric",
        plural: "metrics",
        id: "metric",
        id_example: "http_requests_total",
        fields: &[
            ("from", "string", "Start of the range, RFC 3339"),
            ("to", "string", "End of the range, RFC 3339"),
            ("step", "string", "Resolution, e.g. 30s"),
        ],
        system: "the monitoring backend",
    },
];

/// Verbs: (name prefix, what it does, read-only, destructive, takes the id).
const VERBS: &[(&str, &str, bool, bool, bool)] = &[
    ("list", "Lists", true, false, false),
    ("get", "Fetches one", true, false, true),
    ("search", "Searches", true, false, false),
    ("create", "Creates a new", false, false, false),
    ("update", "Updates an existing", false, false, true),
    ("delete", "Permanently deletes a", false, true, true),
    ("export", "Exports", true, false, true),
    ("archive", "Archives a", false, false, true),
    ("count", "Counts", true, false, false),
    ("watch", "Subscribes to changes of", true, false, true),
];

/// `n` tool definitions, the same on every call.
pub fn tool_definitions(n: usize) -> Vec<Value> {
    let mut rng = Rng(0x7D95_2026_0728_0001);
    let mut tools = Vec::with_capacity(n);
    for i in 0..n {
        let d = &DOMAINS[i % DOMAINS.len()];
        let (verb, does, read_only, destructive, takes_id) = VERBS[(i / DOMAINS.len()) % VERBS.len()];
        let round = i / (DOMAINS.len() * VERBS.len());
        let object = if takes_id || verb == "create" || verb == "archive" { d.noun } else { d.plural };
        let mut name = format!("{verb}_{object}");
        if round > 0 {
            name.push_str(&format!("_v{}", round + 1));
        }
        // Description quality varies: a good one (purpose, usage, return), a terse one, an
        // empty-ish one that restates the name, and occasionally none at all.
        let quality = rng.below(10);
        let description = match quality {
            0 => None,
            1 => Some(name.replace('_', " ")),
            2 | 3 => Some(format!("{does} {object}.")),
            _ => {
                let mut s = format!("{does} {object} in {}.", d.system);
                if takes_id {
                    s.push_str(&format!(" Identify it by `{}` (e.g. {}).", d.id, d.id_example));
                }
                if read_only {
                    s.push_str(" Read-only: nothing is changed.");
                } else if destructive {
                    s.push_str(" This cannot be undone; confirm with the user first.");
                } else {
                    s.push_str(" Returns the stored record with its new revision.");
                }
                if verb == "search" || verb == "list" {
                    s.push_str(&format!(
                        " Results are paged: pass the returned cursor to get the next page. Use get_{} when you already know the id.",
                        d.noun
                    ));
                }
                if rng.chance(30) {
                    s.push_str(" Rate limited to 10 calls per second per user; errors carry a retry_after in seconds.");
                }
                Some(s)
            }
        };
        let mut props = serde_json::Map::new();
        let mut required = Vec::new();
        if takes_id {
            props.insert(
                d.id.to_owned(),
                json!({"type": "string", "description": format!("Identifier, e.g. {}", d.id_example)}),
            );
            required.push(d.id);
        }
        let nfields = 1 + rng.below(d.fields.len());
        for &(field, ty, desc) in d.fields.iter().take(nfields) {
            let mut p = json!({ "type": ty });
            if rng.chance(75) {
                p["description"] = json!(desc);
            }
            match ty {
                "array" => p["items"] = json!({"type": "string"}),
                "integer" => {
                    p["minimum"] = json!(1);
                    p["maximum"] = json!(1000);
                }
                "string" if field == "status" || field == "priority" || field == "format" || field == "encoding" => {
                    p["enum"] = match field {
                        "status" => json!(["open", "pending", "solved", "closed"]),
                        "priority" => json!(["low", "normal", "high", "urgent"]),
                        "format" => json!(["pdf", "docx", "markdown"]),
                        _ => json!(["utf-8", "base64"]),
                    };
                }
                _ => {}
            }
            if rng.chance(40) && !required.contains(&field) {
                required.push(field);
            }
            props.insert(field.to_owned(), p);
        }
        if verb == "list" || verb == "search" {
            props.insert(
                "cursor".to_owned(),
                json!({"type": "string", "description": "Opaque cursor from a previous page"}),
            );
            props.insert(
                "page_size".to_owned(),
                json!({"type": "integer", "minimum": 1, "maximum": 200, "default": 50}),
            );
        }
        let mut schema = json!({ "type": "object", "properties": props });
        if !required.is_empty() {
            schema["required"] = json!(required);
        }
        if rng.chance(30) {
            schema["additionalProperties"] = json!(false);
        }
        let mut tool = serde_json::Map::new();
        tool.insert("name".to_owned(), json!(name));
        if rng.chance(40) {
            let mut title = format!("{} {}", capitalize(verb), object);
            if round > 0 {
                title.push_str(&format!(" (v{})", round + 1));
            }
            tool.insert("title".to_owned(), json!(title));
        }
        if let Some(desc) = description {
            tool.insert("description".to_owned(), json!(desc));
        }
        tool.insert("inputSchema".to_owned(), schema);
        if rng.chance(50) {
            tool.insert(
                "annotations".to_owned(),
                json!({
                    "readOnlyHint": read_only,
                    "destructiveHint": destructive,
                    "idempotentHint": read_only || verb == "update",
                    "openWorldHint": false,
                }),
            );
        }
        if read_only && rng.chance(35) {
            tool.insert(
                "outputSchema".to_owned(),
                json!({
                    "type": "object",
                    "properties": {
                        "items": {"type": "array", "items": {"type": "object"}},
                        "next_cursor": {"type": ["string", "null"]},
                    },
                    "required": ["items"],
                }),
            );
        }
        tools.push(Value::Object(tool));
    }
    tools
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}
