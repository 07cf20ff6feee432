//! The steady-state cost of the threat analysis of one string, for counting instructions under
//! callgrind (the rules compiled and their lazy automata warmed before the counted part):
//!
//!     valgrind --tool=callgrind --toggle-collect='probe_cost::run' \
//!         target/release/examples/probe_cost 100 3
//!
//! The second argument picks one of the built-in strings (0-3: three parameter descriptions and
//! a tool description of the bench corpus), or with 4 the text of the file named third. The
//! counted total over the first argument is the instructions per analysis.

use std::hint::black_box;

const TEXTS: [&str; 4] = [
    "Maximum number of items to return",
    "Opaque cursor from a previous page",
    "Search terms; quotes match a phrase",
    "Searches reviews with a free-text query and optional filters. Use it when you need reviews from human resources that the user refers to by name or attribute. Prefer hr_create_review when you already know the exact ID. Requires an API token with write scope. Emoji in text fields are preserved as-is 👍.",
];

fn main() {
    tdqs_engine::threat::warm_up();
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let which: usize = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(0);
    let text: String = match TEXTS.get(which) {
        Some(t) => (*t).to_owned(),
        None => std::fs::read_to_string(std::env::args().nth(3).expect("a file to read")).expect("readable file"),
    };
    warm(&text);
    println!("{} findings", run(n, &text));
}

#[inline(never)]
fn warm(text: &str) {
    for _ in 0..10 {
        black_box(tdqs_engine::threat::analyze_instructions(black_box(text)));
    }
}

#[inline(never)]
fn run(n: usize, text: &str) -> usize {
    (0..n).map(|_| black_box(tdqs_engine::threat::analyze_instructions(black_box(text))).len()).sum()
}
