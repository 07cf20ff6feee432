//! Fuzzing the SSE parser (`tdqs_gateway::mcp::sse`) on the stable toolchain: streams built
//! from real framings (CR, LF, CRLF, a BOM, comments, `id:`/`retry:`/`event:`, multi-line
//! `data:`, an unterminated last event) are mutated byte by byte and fed in random chunks.
//! For every input:
//!
//! - the parser never panics;
//! - any split of the stream gives the same events as the whole stream fed at once, and the
//!   same left-over event at the end;
//! - no byte is lost or invented: the events' raw bytes (and a leading BOM) are the stream;
//! - each event's data is what a reader written from the WHATWG rules (in this file) reads;
//! - the cap holds: a parser with a small limit refuses exactly when an unfinished event it
//!   holds is over the limit, and otherwise reads what the unbounded one reads;
//! - rewriting an event's data with its own data reads back as the same data.

use tdqs_gateway::mcp::sse::{Event, Parser};

use crate::support::fuzz::{Budget, Tally, mutate, random_splits, show};
use crate::support::rng::Rng;

const SEEDS: &[&[u8]] = &[
    b"event: message\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}}\n\n",
    b"id: 0\ndata:\n\n: keep-alive\n\ndata: {\"a\":1}\r\n\r\n",
    b"\xEF\xBB\xBFdata: first\n\n",
    b"retry: 500\ndata: a\ndata: b\r\ndata: c\rdata: d\n\n",
    b"data: x\r\rdata: y\n\r",
    b": comment only\r\n\r\n\r\ndata:no-space\n\ndata\n\n",
    b"data: unterminated",
    b"data: \xff\xfe invalid utf-8\n\nevent: e\n\n",
    b"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n",
];

const TOKENS: &[&[u8]] = &[
    b"\n",
    b"\r",
    b"\r\n",
    b"\n\n",
    b"\r\r",
    b"\r\n\r\n",
    b"data:",
    b"data: ",
    b"id: 7",
    b"event: message",
    b"retry: 1",
    b":",
    b": c",
    b"\xEF\xBB\xBF",
    b"\xEF\xBB",
    b" ",
    b"\0",
];

/// The events a reader following the WHATWG rules sees in the whole stream: lines end at CRLF,
/// LF or CR; a blank line ends an event; a line starting with `:` is a comment; a field's value
/// loses one leading space; `data` values are joined with `\n`. Returns each event's raw length
/// and data (the data absent when the event has no `data` field), the last one possibly
/// unterminated, and the length of a leading BOM.
fn reference(stream: &[u8]) -> (usize, Vec<(usize, Option<String>)>) {
    let bom = if stream.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let b = &stream[bom..];
    let mut events = Vec::new();
    let (mut start, mut line_start, mut data): (usize, usize, Option<Vec<String>>) = (0, 0, None);
    let mut i = 0;
    let field = |line: &[u8], data: &mut Option<Vec<String>>| {
        let line = String::from_utf8_lossy(line);
        if line.starts_with(':') {
            return;
        }
        let (name, value) = match line.split_once(':') {
            Some((n, v)) => (n.to_owned(), v.strip_prefix(' ').unwrap_or(v).to_owned()),
            None => (line.into_owned(), String::new()),
        };
        if name == "data" {
            data.get_or_insert_with(Vec::new).push(value);
        }
    };
    while i < b.len() {
        let end = match b[i] {
            b'\n' => Some(i + 1),
            b'\r' if b.get(i + 1) == Some(&b'\n') => Some(i + 2),
            b'\r' => Some(i + 1),
            _ => None,
        };
        let Some(next) = end else {
            i += 1;
            continue;
        };
        let line = &b[line_start..i];
        if line.is_empty() {
            events.push((next - start, data.take().map(|d| d.join("\n"))));
            start = next;
        } else {
            field(line, &mut data);
        }
        (i, line_start) = (next, next);
    }
    if line_start < b.len() {
        field(&b[line_start..], &mut data);
    }
    if start < b.len() {
        events.push((b.len() - start, data.take().map(|d| d.join("\n"))));
    }
    (bom, events)
}

/// Feeds `stream` in chunks of the given lengths: the events of every push, then the
/// left-over one, or the index of the chunk whose push was refused.
fn feed(parser: &mut Parser, stream: &[u8], chunks: &[usize]) -> Result<Vec<Event>, usize> {
    let (mut events, mut at) = (Vec::new(), 0);
    for (k, &n) in chunks.iter().enumerate() {
        match parser.push(&stream[at..at + n]) {
            Ok(got) => events.extend(got),
            Err(_) => return Err(k),
        }
        at += n;
    }
    events.extend(parser.finish());
    Ok(events)
}

fn check(rng: &mut Rng, stream: &[u8], tally: &mut u64) -> Result<(), String> {
    let whole = feed(&mut Parser::new(), stream, &[stream.len()]).map_err(|_| "the unbounded parser refused")?;
    *tally += whole.len() as u64;
    for _ in 0..3 {
        let chunks = random_splits(rng, stream.len());
        let split = feed(&mut Parser::new(), stream, &chunks).map_err(|_| "the unbounded parser refused")?;
        if split != whole {
            return Err(format!("chunks {chunks:?} give {split:?}, the whole stream {whole:?}"));
        }
    }
    // Nothing lost or invented, and the data as the rules read it.
    let (bom, expected) = reference(stream);
    let joined: Vec<u8> = whole.iter().flat_map(|e| e.raw.iter().copied()).collect();
    if joined != stream[bom..] {
        return Err(format!("the events' bytes are not the stream: {whole:?}"));
    }
    let got: Vec<(usize, Option<String>)> = whole.iter().map(|e| (e.raw.len(), e.data.clone())).collect();
    if got != expected {
        return Err(format!("read {got:?}, the WHATWG rules read {expected:?}"));
    }
    // The cap: refused exactly when the unfinished event held is over it.
    let max = rng.range(8, 256);
    let chunks = random_splits(rng, stream.len());
    let mut reference_parser = Parser::new();
    let mut capped = Parser::with_max(max);
    let mut at = 0;
    for &n in &chunks {
        let piece = &stream[at..at + n];
        at += n;
        let free = reference_parser.push(piece).map_err(|_| "the unbounded parser refused")?;
        match capped.push(piece) {
            Ok(events) if events != free => return Err(format!("with a cap of {max}: {events:?} against {free:?}")),
            Ok(_) if capped.remainder().len() > max => {
                return Err(format!("holds {} bytes over a cap of {max}", capped.remainder().len()));
            }
            Ok(_) => {}
            Err(_) if reference_parser.remainder().len() <= max => {
                return Err(format!(
                    "refused at {at} with {} bytes held, cap {max}",
                    reference_parser.remainder().len()
                ));
            }
            Err(_) => return Ok(()),
        }
    }
    // Rewriting an event with its own data reads back as that data.
    for e in whole.iter().filter(|e| e.raw.ends_with(b"\n") || e.raw.ends_with(b"\r")) {
        let Some(data) = &e.data else { continue };
        // Read mid-stream, as the client does (a BOM at the very start would be dropped).
        let mut client = Parser::new();
        client.push(b":\n\n").map_err(|_| "a comment was refused")?;
        let again = client.push(&e.with_data(data)).map_err(|_| "the rewritten event was refused")?;
        if again.len() != 1 || again[0].data.as_deref() != Some(data) {
            return Err(format!("{e:?} rewritten reads as {again:?}"));
        }
    }
    Ok(())
}

#[test]
fn any_split_of_any_stream_reads_the_same_events_within_the_cap() {
    let budget = Budget::from_env(30.0, 0x55e);
    let mut rng = Rng::new(budget.seed);
    let mut tally = Tally::new("fuzz_sse");
    let mut events = 0u64;
    while budget.more(tally.runs) {
        let mut stream: Vec<u8> = Vec::new();
        for _ in 0..1 + rng.below(4) {
            stream.extend_from_slice(SEEDS[rng.below(SEEDS.len())]);
        }
        let other = SEEDS[rng.below(SEEDS.len())];
        if rng.percent(80) {
            mutate(&mut rng, &mut stream, TOKENS, other);
        }
        let mut case_rng = Rng::new(rng.next_u64());
        tally.run(|| show(&stream), || check(&mut case_rng, &stream, &mut events));
    }
    tally.add("events", events);
    assert!(tally.get("events") > tally.runs, "the streams should carry events");
    tally.finish(&budget);
}
