//! A rewritten message as the few pieces it is made of: stretches of the message as it came,
//! borrowed, and the text the rewrite put between them (a rendered `tools` array, a capped
//! `ttlMs`), shared. A cached list answer is mostly such pieces; joining them into one buffer
//! would copy the whole answer once per request. The HTTP relay sends the pieces as they are
//! ([`into_frames`](Spliced::into_frames)); the line- and event-framed transports join them
//! once ([`to_vec`](Spliced::to_vec)).

use bytes::Bytes;

#[derive(Clone, Debug)]
enum Piece<'a> {
    /// A stretch of the message being rewritten.
    Original(&'a [u8]),
    /// Text the rewrite put in.
    New(Bytes),
}

impl Piece<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Piece::Original(b) => b,
            Piece::New(b) => b,
        }
    }
}

/// A message made of pieces, in order; empty pieces are not kept.
#[derive(Clone, Debug, Default)]
pub struct Spliced<'a> {
    pieces: Vec<Piece<'a>>,
    len: usize,
}

impl<'a> Spliced<'a> {
    /// Empty, with room for `pieces` pieces.
    pub fn with_capacity(pieces: usize) -> Self {
        Spliced { pieces: Vec::with_capacity(pieces), len: 0 }
    }

    /// Appends a stretch of the original message.
    pub fn push_original(&mut self, part: &'a [u8]) {
        if !part.is_empty() {
            self.len += part.len();
            self.pieces.push(Piece::Original(part));
        }
    }

    /// Appends new text.
    pub fn push_new(&mut self, text: Bytes) {
        if !text.is_empty() {
            self.len += text.len();
            self.pieces.push(Piece::New(text));
        }
    }

    /// The message's length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The message in one buffer: one copy of each byte, into room made once.
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len);
        for p in &self.pieces {
            out.extend_from_slice(p.bytes());
        }
        out
    }

    /// The pieces as buffers to send, without copying: a stretch of `whole` (the buffer the
    /// original message was read into) becomes a slice of it, new text is shared. A stretch of
    /// anything else (a message split out of a batch) is copied, once.
    pub fn into_frames(self, whole: &Bytes) -> Vec<Bytes> {
        let within = whole.as_ptr_range();
        self.pieces
            .into_iter()
            .map(|p| match p {
                Piece::New(b) => b,
                Piece::Original(part) => {
                    let at = part.as_ptr_range();
                    if within.start <= at.start && at.end <= within.end {
                        whole.slice_ref(part)
                    } else {
                        Bytes::copy_from_slice(part)
                    }
                }
            })
            .collect()
    }
}

impl From<Vec<u8>> for Spliced<'_> {
    fn from(bytes: Vec<u8>) -> Self {
        let mut s = Spliced::default();
        s.push_new(Bytes::from(bytes));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_slice_the_original_and_join_to_the_same_bytes() {
        let whole = Bytes::from_static(b"{\"tools\":[1],\"ttlMs\":9}");
        let mut s = Spliced::default();
        s.push_original(&whole[..9]);
        s.push_new(Bytes::from_static(b"[2,3]"));
        s.push_original(&whole[12..21]);
        s.push_new(Bytes::from_static(b"5"));
        s.push_original(&whole[22..]);
        s.push_original(&whole[..0]);
        let joined = s.to_vec();
        assert_eq!(joined, b"{\"tools\":[2,3],\"ttlMs\":5}");
        assert_eq!(s.len(), joined.len());
        let frames = s.into_frames(&whole);
        assert_eq!(frames.len(), 5, "the empty piece is not a frame");
        assert_eq!(frames.concat(), joined);
        // The stretches of the original are the original's own bytes, not copies.
        assert_eq!(frames[0].as_ptr(), whole.as_ptr());
        assert_eq!(frames[4].as_ptr(), whole[22..].as_ptr());
    }

    #[test]
    fn a_stretch_of_another_buffer_is_copied() {
        let other = b"abc".to_vec();
        let mut s = Spliced::default();
        s.push_original(&other);
        let frames = s.into_frames(&Bytes::from_static(b"xyz"));
        assert_eq!(&frames[0][..], b"abc");
    }
}
