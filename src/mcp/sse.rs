//! Server-sent events, incrementally: bytes in, whole events out, each with its exact raw
//! bytes so an event the gateway does not change is forwarded byte for byte (ids, `retry:`,
//! comments, priming events with empty data included).

use bytes::{Bytes, BytesMut};

/// Largest single event accepted from an upstream.
pub const MAX_EVENT_BYTES: usize = 16 * 1024 * 1024;

/// One complete event: its raw bytes (through the blank line that ends it) and its data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub raw: Bytes,
    /// The `data:` lines joined by `\n`, or `None` when the event has no data field.
    pub data: Option<String>,
}

impl Event {
    /// The same event with its data replaced; every other line is kept as it was, in order,
    /// and the event ends the way the original did.
    pub fn with_data(&self, data: &str) -> Bytes {
        let text = String::from_utf8_lossy(&self.raw);
        let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let mut out = String::with_capacity(self.raw.len() + data.len());
        let mut wrote_data = false;
        for line in split_lines(&text) {
            if line.is_empty() {
                continue;
            }
            if field_name(line) == "data" {
                if !wrote_data {
                    for part in data.split('\n') {
                        out.push_str("data: ");
                        out.push_str(part);
                        out.push_str(eol);
                    }
                    wrote_data = true;
                }
                continue;
            }
            out.push_str(line);
            out.push_str(eol);
        }
        out.push_str(eol);
        Bytes::from(out)
    }
}

/// An event that grew past the parser's limit (its value).
#[derive(Debug, thiserror::Error)]
#[error("an SSE event exceeded {0} bytes")]
pub struct EventTooLarge(pub usize);

/// The byte order mark a stream may start with; clients drop it (WHATWG `EventSource`), so
/// the gateway reads past it too.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Splits a byte stream into events.
pub struct Parser {
    buf: BytesMut,
    /// Where scanning for the end of the current event resumes.
    scan: usize,
    /// Whether `scan` is at the start of a line (where a blank line would end the event).
    line_start: bool,
    /// Whether the start of the stream (where a BOM may be) is behind.
    started: bool,
    max_event: usize,
}

impl Default for Parser {
    fn default() -> Self {
        Parser::with_max(MAX_EVENT_BYTES)
    }
}

impl Parser {
    pub fn new() -> Self {
        Self::default()
    }

    /// A parser refusing events over `max_event` bytes.
    pub fn with_max(max_event: usize) -> Self {
        Parser { buf: BytesMut::new(), scan: 0, line_start: true, started: false, max_event }
    }

    /// The unfinished event left when the stream ended, as an event: a client may still act on
    /// it (a last line ended by a lone CR, or no blank line at all), so it is read like any
    /// other. `None` when nothing is left.
    pub fn finish(&mut self) -> Option<Event> {
        if self.buf.is_empty() {
            return None;
        }
        let raw = self.buf.split().freeze();
        (self.scan, self.line_start) = (0, true);
        Some(Event { data: data_of(&raw), raw })
    }

    /// Feeds bytes; returns every event completed by them.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<Event>, EventTooLarge> {
        self.buf.extend_from_slice(chunk);
        if !self.started {
            if self.buf.len() < BOM.len() && BOM.starts_with(&self.buf) {
                return Ok(Vec::new());
            }
            self.started = true;
            if self.buf.starts_with(BOM) {
                let _ = self.buf.split_to(BOM.len());
            }
        }
        let mut events = Vec::new();
        while let Some(end) = self.find_event_end() {
            let raw = self.buf.split_to(end).freeze();
            (self.scan, self.line_start) = (0, true);
            events.push(Event { data: data_of(&raw), raw });
        }
        if self.buf.len() > self.max_event {
            return Err(EventTooLarge(self.max_event));
        }
        Ok(events)
    }

    /// Bytes of an unfinished event left when the stream ended.
    pub fn remainder(&self) -> &[u8] {
        &self.buf
    }

    /// Index just past the blank line that ends the first event, if it has arrived. Jumps
    /// from line end to line end (a list answer is one long `data:` line).
    fn find_event_end(&mut self) -> Option<usize> {
        let b = &self.buf;
        let (mut i, mut line_start) = (self.scan, self.line_start);
        loop {
            // A blank line: a line terminator right at the start of a line.
            if line_start {
                match b.get(i) {
                    Some(b'\n') => return Some(i + 1),
                    Some(b'\r') if i + 1 < b.len() => return Some(if b[i + 1] == b'\n' { i + 2 } else { i + 1 }),
                    // A CR at the end: wait for the next byte to know whether it is CRLF.
                    Some(b'\r') | None => break,
                    Some(_) => {}
                }
            }
            let Some(at) = memchr::memchr2(b'\n', b'\r', &b[i..]).map(|k| i + k) else {
                (i, line_start) = (b.len(), false);
                break;
            };
            if b[at] == b'\r' && at + 1 == b.len() {
                (i, line_start) = (at, false);
                break;
            }
            i = if b[at] == b'\r' && b[at + 1] == b'\n' { at + 2 } else { at + 1 };
            line_start = true;
        }
        (self.scan, self.line_start) = (i, line_start);
        None
    }
}

/// Lines of an event, split on CRLF, LF or CR.
fn split_lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n').flat_map(|l| l.strip_suffix('\r').unwrap_or(l).split('\r'))
}

fn field_name(line: &str) -> &str {
    line.split_once(':').map_or(line, |(name, _)| name)
}

fn data_of(raw: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(raw);
    let mut parts: Vec<&str> = Vec::new();
    for line in split_lines(&text) {
        if line.is_empty() || line.starts_with(':') {
            continue;
        }
        let (name, value) = match line.split_once(':') {
            Some((n, v)) => (n, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        if name == "data" {
            parts.push(value);
        }
    }
    (!parts.is_empty()).then(|| parts.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(chunks: &[&[u8]]) -> Vec<Event> {
        let mut p = Parser::new();
        chunks.iter().flat_map(|c| p.push(c).unwrap()).collect()
    }

    #[test]
    fn events_split_across_chunks_keep_raw_bytes() {
        let stream: &[u8] = b"id: 1\nevent: message\ndata: {\"a\":1}\n\n: comment\nretry: 500\nid: 2\ndata:\n\n";
        for split in 0..stream.len() {
            let ev = all(&[&stream[..split], &stream[split..]]);
            assert_eq!(ev.len(), 2, "split at {split}");
            assert_eq!(&ev[0].raw[..], b"id: 1\nevent: message\ndata: {\"a\":1}\n\n");
            assert_eq!(ev[0].data.as_deref(), Some("{\"a\":1}"));
            assert_eq!(ev[1].data.as_deref(), Some(""), "priming event: empty data");
        }
    }

    #[test]
    fn crlf_and_cr_line_endings() {
        let ev = all(&[b"data: x\r\n\r\ndata: y\r\rdata: z\n", b"data: w\n\n"]);
        assert_eq!(ev.len(), 3);
        assert_eq!(ev[0].data.as_deref(), Some("x"));
        assert_eq!(ev[1].data.as_deref(), Some("y"));
        assert_eq!(ev[2].data.as_deref(), Some("z\nw"));
        assert_eq!(&ev[0].raw[..], b"data: x\r\n\r\n");
    }

    #[test]
    fn any_split_of_any_line_ending_gives_the_same_events() {
        let stream: &[u8] = b"\r\ndata: a\r\n\r\nid: 2\rdata: b\r\rdata: c\n\n: x\r\ndata: d\ndata: e\r\n\n";
        let whole = all(&[stream]);
        assert_eq!(whole.len(), 5, "{whole:?}");
        assert_eq!(
            whole.iter().map(|e| e.data.as_deref()).collect::<Vec<_>>(),
            [None, Some("a"), Some("b"), Some("c"), Some("d\ne")]
        );
        for i in 0..=stream.len() {
            for j in i..=stream.len() {
                assert_eq!(all(&[&stream[..i], &stream[i..j], &stream[j..]]), whole, "split at {i} and {j}");
            }
        }
    }

    #[test]
    fn rewriting_keeps_other_fields() {
        let ev = all(&[b"event: message\nid: 7\ndata: {\"old\":1}\nretry: 10\n\n"]).remove(0);
        assert_eq!(&ev.with_data("{\"new\":2}")[..], b"event: message\nid: 7\ndata: {\"new\":2}\nretry: 10\n\n");
    }

    #[test]
    fn a_leading_bom_is_read_past_at_any_split() {
        let stream: &[u8] = b"\xEF\xBB\xBFdata: x\n\n";
        for split in 0..stream.len() {
            let ev = all(&[&stream[..split], &stream[split..]]);
            assert_eq!(ev.len(), 1, "split at {split}");
            assert_eq!(ev[0].data.as_deref(), Some("x"));
        }
        // Only at the start: a BOM later is part of a line.
        let ev = all(&[b"data: a\n\n\xEF\xBB\xBFdata: b\n\n"]);
        assert_eq!(ev[1].data, None);
    }

    #[test]
    fn what_is_left_at_the_end_is_an_event_too() {
        for tail in [&b"data: x\r\r"[..], b"data: x\n\r", b"data: x\n", b"data: x"] {
            let mut p = Parser::new();
            assert!(p.push(tail).unwrap().is_empty(), "{tail:?}");
            let last = p.finish().expect("left over");
            assert_eq!(last.data.as_deref(), Some("x"), "{tail:?}");
            assert_eq!(&last.raw[..], tail);
            assert!(p.finish().is_none());
        }
    }

    #[test]
    fn oversized_event_is_refused() {
        let mut p = Parser::new();
        assert!(p.push(&vec![b'a'; MAX_EVENT_BYTES + 1]).is_err());
    }
}
