//! Scores a blind batch of definitions (written without reading the rules) at first sight, as
//! `scan` reads a single tool: how many poisoned cases get a high finding, how many honest
//! look-alikes do. The files are `{"cases": [{"id", "tool", ...}]}`, as in `tests/data/threats/`.
//!
//!     cargo run --release -p tdqs-engine --example blind_batch -- POISONED.json LOOKALIKES.json [-v]
//!
//! `--cross` adds each case's cross-server findings as `scan` reads a server of that one tool.
//! `-v` lists each miss and each look-alike flagged high, with its findings (a look-alike's high
//! ones with their field and evidence). `--emit DIR`
//! writes the cases that come out right to `DIR/poisoned.json` and `DIR/lookalikes.json`, each
//! poisoned case expecting the kinds it was found high for (the writer's label kept as `label`),
//! ready to join the corpus under `tests/data/threats/`.

use tdqs_engine::threat::{Severity, analyze_tool, cross_server};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "-v");
    // `--cross`: each case also read as `scan` reads a server of one tool, its cross-server
    // findings included (a direction about a tool the server does not have).
    let cross = args.iter().any(|a| a == "--cross");
    let emit = args.iter().position(|a| a == "--emit").and_then(|i| args.get(i + 1)).cloned();
    let files: Vec<&String> =
        args.iter().filter(|a| *a != "-v" && *a != "--cross" && *a != "--emit" && Some(*a) != emit.as_ref()).collect();
    for (file, poisoned) in files.iter().zip([true, false]) {
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(file).expect("read the batch")).expect("the batch is JSON");
        let cases = doc["cases"].as_array().expect("a `cases` array");
        let mut high = 0;
        let mut right = Vec::new();
        for case in cases {
            let mut found = analyze_tool(&case["tool"]);
            if cross {
                let name = case["tool"]["name"].as_str().unwrap_or("");
                found.extend(cross_server(&case["tool"], &[name], &[]));
            }
            let is_high = found.iter().any(|f| f.severity == Severity::High);
            high += usize::from(is_high);
            if is_high == poisoned {
                let mut case = case.clone();
                if poisoned {
                    let mut kinds: Vec<&str> =
                        found.iter().filter(|f| f.severity == Severity::High).map(|f| f.kind.as_str()).collect();
                    kinds.sort_unstable();
                    kinds.dedup();
                    case["label"] = case["expect"].clone();
                    case["expect"] = serde_json::json!(kinds);
                }
                right.push(case);
            }
            if verbose && is_high != poisoned {
                let what: Vec<String> = found.iter().map(|f| format!("{}/{:?}", f.kind, f.severity)).collect();
                println!("{} {} {}", if poisoned { "MISS" } else { "HIGH" }, case["id"], what.join(" "));
                for f in found.iter().filter(|f| !poisoned && f.severity == Severity::High) {
                    println!("    {} {}: {}", f.kind, f.field, f.evidence);
                }
            }
        }
        println!("{file}: {high}/{} with a high finding", cases.len());
        if let Some(dir) = &emit {
            let name = if poisoned { "poisoned.json" } else { "lookalikes.json" };
            let text = serde_json::to_string_pretty(&serde_json::json!({ "cases": right })).expect("JSON");
            std::fs::write(format!("{dir}/{name}"), text).expect("write the cases");
        }
    }
}
