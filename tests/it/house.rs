//! The house's rules, checked on the source tree: no dependency cycle between top-level
//! modules of the gateway's crate, nor of the engine's (a module's `crate::x` paths are its
//! edges), and no source file over 400 lines (in either crate, or in the integration tests,
//! `tests/it/`) without a `//! Long:` line at its top saying why it is one file, and no two public
//! types of the two crates under one name.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::support::paths;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Top-level module -> the top-level modules its files name with `crate::`.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(src).unwrap();
        let first = rel.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
        let module = first.trim_end_matches(".rs").to_owned();
        if module == "lib" || module == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let edges = graph.entry(module.clone()).or_default();
        for (at, _) in text.match_indices("crate::") {
            let name: String = text[at + 7..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                .collect();
            if !name.is_empty() && name != module {
                edges.insert(name);
            }
        }
    }
    graph
}

/// A cycle through `graph`, if there is one (depth-first search, the path back to a module
/// still on the stack).
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        g: &BTreeMap<String, BTreeSet<String>>,
        node: &str,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = stack.iter().position(|n| n == node) {
            let mut cycle = stack[i..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        stack.push(node.to_owned());
        for next in g.get(node).into_iter().flatten() {
            if let Some(c) = visit(g, next, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|k| visit(graph, k, &mut Vec::new(), &mut done))
}

#[test]
fn no_top_level_module_depends_on_itself_through_others() {
    let graph = module_graph(&paths::root().join("src"));
    assert!(graph.len() > 10, "the walk found the crate's modules: {graph:?}");
    if let Some(cycle) = find_cycle(&graph) {
        panic!("dependency cycle: {}", cycle.join(" -> "));
    }
    // The engine crate's modules, among themselves (it cannot name the gateway's at all).
    let engine = module_graph(&paths::root().join("crates/tdqs-engine/src"));
    assert!(engine.contains_key("heuristic") && engine.contains_key("threat"), "{engine:?}");
    if let Some(cycle) = find_cycle(&engine) {
        panic!("dependency cycle in the engine: {}", cycle.join(" -> "));
    }
}

#[test]
fn the_cycle_check_finds_a_cycle() {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    g.entry("a".into()).or_default().insert("b".into());
    g.entry("b".into()).or_default().insert("c".into());
    assert_eq!(find_cycle(&g), None);
    g.entry("c".into()).or_default().insert("a".into());
    assert_eq!(find_cycle(&g).unwrap(), ["a", "b", "c", "a"]);
}

#[test]
fn long_files_say_why_they_are_one_file() {
    let mut files = Vec::new();
    rust_files(&paths::root().join("src"), &mut files);
    rust_files(&paths::root().join("crates/tdqs-engine/src"), &mut files);
    rust_files(&paths::root().join("tests/it"), &mut files);
    assert!(files.iter().any(|f| f.ends_with("heuristic/reading.rs")), "the engine crate's files are read too");
    assert!(files.iter().any(|f| f.ends_with("it/support/corpus.rs")), "and the integration tests' files");
    let unexplained: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            let lines = text.lines().count();
            let head: Vec<&str> = text.lines().take_while(|l| l.starts_with("//!") || l.is_empty()).collect();
            (lines > 400 && !head.iter().any(|l| l.starts_with("//! Long:")))
                .then(|| format!("{} ({lines})", f.display()))
        })
        .collect();
    assert!(unexplained.is_empty(), "over 400 lines with no `//! Long:` reason: {unexplained:#?}");
}

/// The graph the README's "Where things are" states: the code block after "Top-level imports".
/// A line names modules, `->`, and what the last of them uses (`(none)` for nothing); two
/// such statements may share a line.
fn readme_graph() -> BTreeMap<String, BTreeSet<String>> {
    let readme = std::fs::read_to_string(paths::root().join("README.md")).unwrap();
    let after = &readme[readme.find("Top-level imports").expect("the README states the module graph")..];
    let block = after.split("```").nth(1).expect("a code block after it");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in block.lines() {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let arrows: Vec<usize> = tokens.iter().enumerate().filter(|(_, t)| **t == "->").map(|(i, _)| i).collect();
        for (n, &a) in arrows.iter().enumerate() {
            let subjects = if n == 0 { &tokens[..a] } else { &tokens[a - 1..a] };
            let end = arrows.get(n + 1).map_or(tokens.len(), |next| next - 1);
            let uses: BTreeSet<String> =
                tokens[a + 1..end].iter().filter(|t| **t != "(none)").map(|t| (*t).to_owned()).collect();
            for s in subjects {
                graph.insert((*s).to_owned(), uses.clone());
            }
        }
    }
    graph
}

#[test]
fn the_readme_states_the_module_graph_as_it_is() {
    let stated = readme_graph();
    let actual = module_graph(&paths::root().join("src"));
    let mut wrong = Vec::new();
    for module in stated.keys().chain(actual.keys()).collect::<BTreeSet<_>>() {
        // `tdqs` is the engine crate under the name the gateway gives it, not a file of src/.
        if module == "tdqs" {
            continue;
        }
        let (s, a) = (stated.get(module), actual.get(module));
        if s != a {
            wrong.push(format!("{module}: README says {s:?}, the code has {a:?}"));
        }
    }
    assert!(wrong.is_empty(), "the README's module graph is out of date:\n{}", wrong.join("\n"));
}

/// Errors become responses in one place: no file but `src/http/error.rs` names a 4xx or 5xx
/// status to answer with (comparing an upstream's status is reading, not answering). The
/// readiness probe's 503 is its state, not an error, and is the one exception.
#[test]
fn error_statuses_are_chosen_in_one_place() {
    const ERRORS: &[&str] = &[
        "BAD_REQUEST",
        "UNAUTHORIZED",
        "FORBIDDEN",
        "NOT_FOUND",
        "METHOD_NOT_ALLOWED",
        "CONFLICT",
        "UNSUPPORTED_MEDIA_TYPE",
        "INTERNAL_SERVER_ERROR",
        "SERVICE_UNAVAILABLE",
        "BAD_GATEWAY",
        "GATEWAY_TIMEOUT",
        "PAYLOAD_TOO_LARGE",
        "REQUEST_TIMEOUT",
        "TOO_MANY_REQUESTS",
    ];
    let mut files = Vec::new();
    rust_files(&paths::root().join("src"), &mut files);
    let mut elsewhere = Vec::new();
    for f in files.iter().filter(|f| !f.ends_with("http/error.rs")) {
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in text.lines().enumerate() {
            let chosen = ERRORS.iter().any(|e| line.contains(&format!("StatusCode::{e}")))
                && !line.contains("==")
                && !line.contains("!=")
                && !line.trim_start().starts_with("//");
            let probe = f.ends_with("server/routes.rs") && line.contains("\"unready\"");
            if chosen && !probe {
                elsewhere.push(format!("{}:{}: {}", f.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(elsewhere.is_empty(), "error statuses chosen outside http/error.rs:\n{}", elsewhere.join("\n"));
}

/// Every `pub struct`, `pub enum` and `pub type` of both crates with the files that declare it.
fn public_type_names() -> BTreeMap<String, Vec<PathBuf>> {
    let mut files = Vec::new();
    rust_files(&paths::root().join("src"), &mut files);
    rust_files(&paths::root().join("crates/tdqs-engine/src"), &mut files);
    let mut names: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for line in text.lines() {
            let line = line.trim_start();
            let Some(rest) = ["pub struct ", "pub enum ", "pub type "].iter().find_map(|k| line.strip_prefix(k)) else {
                continue;
            };
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            names.entry(name).or_default().push(file.clone());
        }
    }
    names
}

#[test]
fn no_two_public_types_share_a_name() {
    let repeated: Vec<String> = public_type_names()
        .into_iter()
        .filter(|(_, files)| files.len() > 1)
        .map(|(name, files)| format!("{name}: {files:?}"))
        .collect();
    assert!(repeated.is_empty(), "one name, one meaning: {repeated:#?}");
}
