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

/// An event that grew past [`MAX_EVENT_BYTES`].
#[derive(Debug, thiserror::Error)]
#[error("an SSE event exceeded {MAX_EVENT_BYTES} bytes")]
pub struct EventTooLarge;

/// Splits a byte stream into events.
#[derive(Default)]
pub struct Parser {
    buf: BytesMut,
    /// Where scanning for the end of the current event resumes.
    scan: usize,
}

impl Parser {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds bytes; returns every event completed by them.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<Event>, EventTooLarge> {
        self.buf.extend_from_slice(chunk);
        let mut events = Vec::new();
        while let Some(end) = self.find_event_end() {
            let raw = self.buf.split_to(end).freeze();
            self.scan = 0;
            events.push(Event { data: data_of(&raw), raw });
        }
        if self.buf.len() > MAX_EVENT_BYTES {
            return Err(EventTooLarge);
        }
        Ok(events)
    }

    /// Bytes of an unfinished event left when the stream ended.
    pub fn remainder(&self) -> &[u8] {
        &self.buf
    }

    /// Index just past the blank line that ends the first event, if it has arrived.
    fn find_event_end(&mut self) -> Option<usize> {
        let b = &self.buf;
        let mut i = self.scan;
        // A blank line is a line terminator directly after another one (or at the start).
        while i < b.len() {
            let at_line_start = i == 0 || matches!(b[i - 1], b'\n') || (b[i - 1] == b'\r' && b[i] != b'\n');
            if at_line_start {
                match b[i] {
                    b'\n' => return Some(i + 1),
                    b'\r' => {
                        if i + 1 < b.len() {
                            return Some(if b[i + 1] == b'\n' { i + 2 } else { i + 1 });
                        }
                        // Wait for the next byte to know whether this is CRLF.
                        self.scan = i;
                        return None;
                    }
                    _ => {}
                }
            }
            i += 1;
        }
        self.scan = i.saturating_sub(1);
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
    fn rewriting_keeps_other_fields() {
        let ev = all(&[b"event: message\nid: 7\ndata: {\"old\":1}\nretry: 10\n\n"]).remove(0);
        assert_eq!(&ev.with_data("{\"new\":2}")[..], b"event: message\nid: 7\ndata: {\"new\":2}\nretry: 10\n\n");
    }

    #[test]
    fn oversized_event_is_refused() {
        let mut p = Parser::new();
        assert!(p.push(&vec![b'a'; MAX_EVENT_BYTES + 1]).is_err());
    }
}
