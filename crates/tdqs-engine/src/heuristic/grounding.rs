//! What the words of a description are about: whether it uses the tool's own words (its
//! name's, title's and parameters'), whether it is written in another language than the word
//! lists, and how many of its words are praise or hedges rather than content. A purpose stated
//! in none of the tool's own words may be another tool's; a text of hedges states nothing.

use super::text::{Text, split_identifier, stem};
use super::word_lists::{List, on};

/// Two stems of one word family: equal, or sharing their first four letters and more than half
/// of the shorter ("stat" and "statist", "configur" and "config").
pub fn akin(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let shared = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    shared >= 4 && 2 * shared > a.chars().count().min(b.chars().count())
}

/// Stems of the words a definition names itself with: its name, title and parameter names
/// (identifiers split at `_`, `-` and case changes), without function words, and the longer
/// words of its parameters' descriptions that are on none of the judge's lists ("memory" in
/// "the memory to store"), so that a description in other words than the name's still counts
/// as about the tool when the schema speaks the same language.
pub fn own_words(name: &[String], title: &[String], params: &[String], param_descriptions: &[String]) -> Vec<String> {
    // Enough to recognise the tool's vocabulary; bounded so that a schema of long descriptions
    // does not make every word of the description a long search.
    const MOST: usize = 96;
    let mut out: Vec<String> = Vec::new();
    let mut seen: rustc_hash::FxHashSet<String> = rustc_hash::FxHashSet::default();
    for w in name.iter().chain(title).cloned().chain(params.iter().flat_map(|p| split_identifier(p))) {
        let keep = w.chars().count() >= 3 && !on(&w, List::Stopword);
        let s = stem(&w);
        if keep && out.len() < MOST && seen.insert(s.clone()) {
            out.push(s);
        }
    }
    for d in param_descriptions {
        let lower = d.to_lowercase();
        for w in super::text::words_of(&lower) {
            let lists = super::word_lists::Lists::of(w);
            let listed = [List::Stopword, List::Meta, List::Generic, List::Hedge, List::Concrete, List::Function]
                .iter()
                .any(|l| lists.on(*l));
            if w.chars().count() >= 5 && w.chars().all(char::is_alphabetic) && !listed && out.len() < MOST {
                let s = stem(w);
                if seen.insert(s.clone()) {
                    out.push(s);
                }
            }
        }
    }
    out
}

/// Another language than English: mostly ideographs, or some words with letters beyond ASCII
/// and under a fifth of the words on the English lists.
pub fn foreign(desc: &Text) -> bool {
    if desc.mostly_ideographic() {
        return true;
    }
    let letters: Vec<&String> = desc.words.iter().filter(|w| w.chars().any(char::is_alphabetic)).collect();
    let accented = letters.iter().any(|w| w.chars().any(|c| c.is_alphabetic() && !c.is_ascii()));
    let english = letters
        .iter()
        .filter(|w| on(w, List::Stopword) || on(w, List::Function) || on(w, List::Meta) || on(w, List::Generic))
        .count();
    accented && 5 * english < letters.len()
}

/// Two shares of a text's words, counted in one pass: `filler` is (praise and hedge words,
/// content words), where content words are not function, cue or number words and not the
/// name's own; `echo` is (the name's words again in any form, "uploaded" for `upload_file`,
/// content words), where content words are not function, cue or number words.
pub fn shares(desc: &Text, known: &[String]) -> ((usize, usize), (usize, usize)) {
    let (mut idle, mut content) = (0, 0);
    let (mut again, mut echo_content) = (0, 0);
    for (i, w) in desc.words.iter().enumerate() {
        let lists = super::word_lists::Lists::of(w);
        if lists.on(List::Stopword) || lists.on(List::Function) || w.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let s = desc.stem_at(i);
        if lists.on(List::Generic) || lists.on(List::Hedge) {
            idle += 1;
            content += 1;
        } else if !lists.on(List::Meta) && !known.iter().any(|k| k == s) {
            content += 1;
        }
        if !lists.on(List::Meta) {
            echo_content += 1;
            again += usize::from(known.iter().any(|k| akin(k, s)));
        }
    }
    ((idle, content), (again, echo_content))
}

/// The praise and hedge words of a text, each once, in order.
pub fn filler_words(desc: &Text) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in &desc.words {
        if (on(w, List::Generic) || on(w, List::Hedge)) && !out.contains(w) {
            out.push(w.clone());
        }
    }
    out
}

/// Whether the first kept sentence says nothing but the name's words ("Creates a label for
/// shipping." for `create_shipping_label`), in at least two of them.
pub fn opening_restates_name(desc: &Text, name_words: &[String]) -> bool {
    let Some(first) = desc.sentences.first() else { return false };
    let lower = first.to_lowercase();
    let name: Vec<String> = name_words.iter().map(|w| stem(w)).collect();
    let mut said = 0;
    for w in super::text::words_of(&lower) {
        let listed =
            [List::Stopword, List::Function, List::Determiner, List::Generic, List::Hedge].iter().any(|l| on(w, *l));
        if listed || w.chars().count() < 3 {
            continue;
        }
        let s = stem(w);
        if !name.iter().any(|n| akin(n, &s)) {
            return false;
        }
        said += 1;
    }
    said >= 2
}

/// A text that goes round in circles: two thirds of its content words are the name's again
/// ("gets a user by getting the user record for that user"); `echo` as [`shares`] counts it.
pub fn circular(echo: (usize, usize)) -> bool {
    let (again, content) = echo;
    again >= 4 && 3 * again >= 2 * content
}
