//! A seeded generator of MCP tool-definition documents for the differential test against the
//! reference implementation. It writes raw JSON *text* (never through serde) so it can reach
//! what serde cannot: lone surrogate escapes, duplicate keys, `NaN`, literals beyond the double
//! range, every escape form. Each tool records coverage tags for what the generator put in it,
//! so a regression that stops producing a category is caught by the test.
//!
//! Long: one generator: the character pools, the JSON text renderer and the generator share one
//! tree type, one random stream and one coverage tally.

use std::collections::BTreeSet;

/// Coverage tags of one tool or one server.
pub type Tags = BTreeSet<&'static str>;

pub use super::rng::Rng;

/// A JSON value as the generator builds it: strings are code-point sequences that may hold
/// lone surrogates, objects may repeat keys, and `Raw` is literal text (numbers, `NaN`, ...).
#[derive(Clone, Debug)]
pub enum J {
    Raw(String),
    Str(Vec<u32>),
    Arr(Vec<J>),
    Obj(Vec<(Vec<u32>, J)>),
}

pub fn cps(s: &str) -> Vec<u32> {
    s.chars().map(|c| c as u32).collect()
}

impl J {
    pub fn s(x: &str) -> J {
        J::Str(cps(x))
    }

    pub fn raw(x: impl Into<String>) -> J {
        J::Raw(x.into())
    }

    pub fn null() -> J {
        J::raw("null")
    }

    pub fn obj() -> J {
        J::Obj(Vec::new())
    }

    pub fn push(&mut self, key: &str, v: J) {
        self.push_key(cps(key), v);
    }

    pub fn push_key(&mut self, key: Vec<u32>, v: J) {
        match self {
            J::Obj(entries) => entries.push((key, v)),
            _ => panic!("push on a non-object"),
        }
    }

    /// Replaces every entry with this key (or appends one).
    pub fn set(&mut self, key: &str, v: J) {
        let k = cps(key);
        if let J::Obj(entries) = self {
            entries.retain(|(ek, _)| *ek != k);
            entries.push((k, v));
        }
    }

    pub fn remove(&mut self, key: &str) {
        let k = cps(key);
        if let J::Obj(entries) = self {
            entries.retain(|(ek, _)| *ek != k);
        }
    }

    /// The last value stored under `key` (the one a parser keeps).
    pub fn get_mut(&mut self, key: &str) -> Option<&mut J> {
        let k = cps(key);
        match self {
            J::Obj(entries) => entries.iter_mut().rev().find(|(ek, _)| *ek == k).map(|(_, v)| v),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Character pools.

/// Whitespace JavaScript's `trim` removes.
pub const JS_WS: &[(u32, &str)] = &[
    (0x09, "ws-js U+0009"),
    (0x0A, "ws-js U+000A"),
    (0x0B, "ws-js U+000B"),
    (0x0C, "ws-js U+000C"),
    (0x0D, "ws-js U+000D"),
    (0x20, "ws-js U+0020"),
    (0xA0, "ws-js U+00A0"),
    (0x1680, "ws-js U+1680"),
    (0x2000, "ws-js U+2000"),
    (0x2001, "ws-js U+2001"),
    (0x2002, "ws-js U+2002"),
    (0x2003, "ws-js U+2003"),
    (0x2004, "ws-js U+2004"),
    (0x2005, "ws-js U+2005"),
    (0x2006, "ws-js U+2006"),
    (0x2007, "ws-js U+2007"),
    (0x2008, "ws-js U+2008"),
    (0x2009, "ws-js U+2009"),
    (0x200A, "ws-js U+200A"),
    (0x2028, "ws-js U+2028"),
    (0x2029, "ws-js U+2029"),
    (0x202F, "ws-js U+202F"),
    (0x205F, "ws-js U+205F"),
    (0x3000, "ws-js U+3000"),
    (0xFEFF, "ws-js U+FEFF"),
];

/// Characters other languages call whitespace that JavaScript's `trim` keeps.
pub const NON_JS_WS: &[(u32, &str)] = &[
    (0x1C, "ws-other U+001C"),
    (0x1D, "ws-other U+001D"),
    (0x1E, "ws-other U+001E"),
    (0x1F, "ws-other U+001F"),
    (0x85, "ws-other U+0085"),
    (0x180E, "ws-other U+180E"),
];

const VERBS: &[&str] = &[
    "get", "list", "create", "update", "delete", "search", "fetch", "send", "run", "process", "sync", "export",
    "import", "archive", "move", "copy", "rename", "query", "find", "post",
];
const NOUNS: &[&str] = &[
    "user", "users", "item", "record", "file", "drive", "calls", "issue", "repo", "message", "channel", "invoice",
    "order", "ticket", "event", "note", "page", "table", "row", "task",
];
const FILLER: &[&str] = &[
    "the",
    "a",
    "for",
    "with",
    "from",
    "by",
    "and",
    "or",
    "when",
    "only",
    "all",
    "matching",
    "given",
    "current",
    "account",
    "workspace",
    "id",
    "returns",
    "results",
    "optional",
];
/// Words outside ASCII with simple, long-stable case mappings (Latin-1, Greek, Cyrillic,
/// Deseret), plus uncased scripts and symbols.
const WORDS_NON_ASCII: &[&str] = &[
    "ÉCOLE",
    "café",
    "Ωμέγα",
    "ΟΔΟΣ",
    "οδοσ",
    "ΣΟΦΙΑ",
    "привет",
    "ДАННЫЕ",
    "Ёлка",
    "ÀÖØÞ",
    "\u{10400}\u{10428}",
    "中文",
    "データ",
    "\u{FF61}\u{FF62}",
    "\u{1F600}",
    "\u{E000}x",
    "\u{1D11E}",
];
/// Suffixes that order differently by UTF-16 units and by code points (U+FF61 and U+E000 sort
/// after U+1F600 by code point, before it by UTF-16), used for cost ties.
const TIE_SUFFIXES: &[&str] = &["\u{FF61}", "\u{1F600}", "\u{E000}", "\u{10437}", "\u{FFFD}", "\u{D7FF}", "_", "A"];

pub const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "-0.0",
    "0.0",
    "1",
    "1.0",
    "-1",
    "2",
    "10",
    "255",
    "0.1",
    "0.5",
    "1.5",
    "-2.5",
    "4.35",
    "0.035",
    "3.141592653589793238462643383279",
    "0.30000000000000004",
    "1e-7",
    "1E-7",
    "-1e-7",
    "2e-7",
    "1e-6",
    "0.000001",
    "0.0000001",
    "0.000123",
    "1e20",
    "1e21",
    "1E+21",
    "1e+21",
    "1e22",
    "1e23",
    "9.999999999999999e22",
    "6.02214076e23",
    "100000000000000000000",
    "1000000000000000000000",
    "123456789e-30",
    "123e-20",
    "12345678901234567e-10",
    "1.25e+3",
    "123456.789e3",
    "0.1e1",
    "1e0",
    "5e-324",
    "-5e-324",
    "1e-323",
    "4.9406564584124654e-324",
    "2.2250738585072014e-308",
    "1e308",
    "1.7976931348623157e308",
    "-1.7976931348623157e308",
    "1.7976931348623157e+308",
    "1.7976931348623159e308",
    "1e400",
    "-1e400",
    "1E400",
    "1e-400",
    "9007199254740993",
    "9007199254740992",
    "-9007199254740993",
    "18446744073709551615",
    "18446744073709551617",
    "123456789012345678901234567890",
    "1.00000000000000011102230246251565404236316680908203125",
    "4611686018427387904",
    "1.2345678901234567e20",
    "123456789012345680000",
    "-18446744073709551616.0",
    "999999999999999868928",
];

/// Title and description pairs where lowercasing is more than a per-letter table: final
/// sigma, expansions, compatibility characters. Only mappings that have not changed since
/// Unicode 14 (the reference runs on whatever Python the venv has).
const TRICKY_CASE: &[(&str, &str)] = &[
    ("straße", "STRASSE"),
    ("\u{FB01}le", "FILE"),
    ("ΟΔΟΣ", "οδοσ"),
    ("οδος", "ΟΔΟΣ"),
    ("Σ", "ς"),
    ("ΑΣ\u{301}", "ας\u{301}"),
    ("i\u{307}x", "\u{130}X"),
    ("\u{212A}", "k"),
    ("Ω", "\u{2126}"),
    ("\u{1C5}", "\u{1C6}"),
    ("\u{1E9E}", "ß"),
    ("A\u{345}", "a\u{3B9}"),
    ("x\u{3A3}\u{345}y", "x\u{3C3}\u{345}y"),
    ("\u{10400}b", "\u{10428}B"),
];

/// The largest double written out as an integer literal (309 digits): valid, it is
/// `1.7976931348623157e308` exactly.
pub const MAX_DOUBLE_INT: &str = "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368";
/// 2^1024 - 2^970: halfway between the largest double and 2^1024, rounds (to even) to
/// infinity, so as an integer literal it is out of range.
pub const HALFWAY_INT: &str = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792";
/// One below [`HALFWAY_INT`]: rounds down to the largest double, so it is valid.
pub const BELOW_HALFWAY_INT: &str = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791";

fn number_tag(lit: &str) -> &'static str {
    let unsigned = lit.trim_start_matches('-');
    let is_int = unsigned.bytes().all(|b| b.is_ascii_digit());
    match lit {
        "1e400" | "-1e400" | "1E400" | "1.7976931348623159e308" => "number: float overflow",
        "-0" | "-0.0" => "number: negative zero",
        "5e-324" | "-5e-324" | "1e-323" | "4.9406564584124654e-324" => "number: subnormal",
        "1e-400" => "number: underflow to zero",
        _ if is_int && unsigned.len() > 16 => "number: integer beyond 2^53",
        _ if lit.contains(['e', 'E']) => "number: exponent",
        _ if lit.contains('.') => "number: fraction",
        _ => "number: small integer",
    }
}

/// Simple case flip for the letters the generator uses in tautologies.
fn flip_case(c: u32) -> u32 {
    match c {
        0x41..=0x5A | 0xC0..=0xDE | 0x391..=0x3A9 | 0x410..=0x42F if c != 0xD7 && c != 0x3A2 => c + 0x20,
        0x61..=0x7A | 0xE0..=0xFE | 0x3B1..=0x3C9 | 0x430..=0x44F if c != 0xF7 && c != 0x3C2 => c - 0x20,
        0x10400..=0x10427 => c + 0x28,
        0x10428..=0x1044F => c - 0x28,
        _ => c,
    }
}

fn is_high(c: u32) -> bool {
    (0xD800..0xDC00).contains(&c)
}

fn is_low(c: u32) -> bool {
    (0xDC00..0xE000).contains(&c)
}

fn utf16_len(s: &[u32]) -> usize {
    s.iter().map(|&c| if c > 0xFFFF { 2 } else { 1 }).sum()
}

/// Joins an adjacent high and low surrogate into the character a JSON parser would read.
fn normalize(s: &[u32]) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::with_capacity(s.len());
    for &c in s {
        if is_low(c)
            && let Some(&prev) = out.last()
            && is_high(prev)
        {
            out.pop();
            out.push(0x10000 + ((prev - 0xD800) << 10) + (c - 0xDC00));
            continue;
        }
        out.push(c);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Rendering J as JSON text.

struct Render<'a> {
    rng: &'a mut Rng,
    tags: &'a mut Tags,
    out: String,
}

impl Render<'_> {
    fn ws(&mut self) {
        if self.rng.chance(15) {
            let w = self.rng.pick_str(&[" ", "\t", "\r", "  ", " \r\t"]);
            self.out.push_str(w);
            self.tags.insert("json: insignificant whitespace");
        }
    }

    fn value(&mut self, v: &J) {
        match v {
            J::Raw(t) => self.out.push_str(t),
            J::Str(s) => self.string(s),
            J::Arr(items) => {
                self.out.push('[');
                self.ws();
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                        self.ws();
                    }
                    self.value(item);
                    self.ws();
                }
                self.out.push(']');
            }
            J::Obj(entries) => {
                self.out.push('{');
                self.ws();
                for (i, (k, item)) in entries.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                        self.ws();
                    }
                    self.string(k);
                    self.ws();
                    self.out.push(':');
                    self.ws();
                    self.value(item);
                    self.ws();
                }
                self.out.push('}');
            }
        }
    }

    fn escape(&mut self, unit: u32) {
        let upper = self.rng.chance(250);
        if upper {
            self.tags.insert("escape: uppercase hex");
            self.out.push_str(&format!("\\u{unit:04X}"));
        } else {
            self.out.push_str(&format!("\\u{unit:04x}"));
        }
    }

    fn string(&mut self, s: &[u32]) {
        let s = normalize(s);
        self.out.push('"');
        for &c in &s {
            let short = match c {
                0x22 => Some("\\\""),
                0x5C => Some("\\\\"),
                0x08 => Some("\\b"),
                0x0C => Some("\\f"),
                0x0A => Some("\\n"),
                0x0D => Some("\\r"),
                0x09 => Some("\\t"),
                0x2F => Some("\\/"),
                _ => None,
            };
            if let Some(short) = short
                && (c != 0x2F || self.rng.chance(150))
                && self.rng.chance(800)
            {
                self.out.push_str(short);
                self.tags.insert("escape: two-character");
                continue;
            }
            match c {
                0x22 | 0x5C | 0x00..=0x1F => {
                    self.escape(c);
                    self.tags.insert("escape: \\u00XX");
                }
                0xD800..=0xDFFF => {
                    self.escape(c);
                    self.tags.insert("escape: lone surrogate");
                }
                0x10000.. => {
                    if self.rng.chance(300) {
                        let v = c - 0x10000;
                        self.escape(0xD800 | (v >> 10));
                        self.escape(0xDC00 | (v & 0x3FF));
                        self.tags.insert("escape: surrogate pair");
                    } else {
                        self.out.push(char::from_u32(c).expect("scalar"));
                        self.tags.insert("raw: astral UTF-8");
                    }
                }
                _ => {
                    if c > 0x7F && self.rng.chance(100) {
                        self.escape(c);
                        self.tags.insert("escape: BMP character");
                    } else if c <= 0x7F && self.rng.chance(8) {
                        self.escape(c);
                        self.tags.insert("escape: ASCII character");
                    } else {
                        if c > 0x7F {
                            self.tags.insert("raw: BMP non-ASCII UTF-8");
                        }
                        self.out.push(char::from_u32(c).expect("scalar"));
                    }
                }
            }
        }
        self.out.push('"');
    }
}

/// Renders `v` as JSON text, recording which encodings it used.
pub fn render(v: &J, rng: &mut Rng, tags: &mut Tags) -> String {
    let mut r = Render { rng, tags, out: String::new() };
    r.value(v);
    r.out
}

// ---------------------------------------------------------------------------------------------
// The generator.

/// One generated server document.
pub struct Server {
    pub text: String,
    /// How many tool definitions the document holds.
    pub tool_count: usize,
    /// Why the generator meant the reference to refuse it, if it did.
    pub meant_invalid: Option<&'static str>,
    /// Coverage tags of each tool.
    pub tool_tags: Vec<Tags>,
    /// Coverage tags of the document itself.
    pub tags: Tags,
}

/// The corpus: a few fixed boundary documents, then random servers until `min_tools` tools
/// sit in servers the generator meant to be valid.
pub fn generate(seed: u64, min_tools: usize) -> Vec<Server> {
    let mut g = Gen { rng: Rng::new(seed), tags: Tags::new(), chains_left: 0, broken: 0 };
    let mut servers = g.specials();
    let mut tools = 0;
    while tools < min_tools {
        let s = g.server();
        if s.meant_invalid.is_none() {
            tools += s.tool_count;
        }
        servers.push(s);
    }
    servers
}

/// How much the required subtree of a tool should cost, to make shadow candidates common.
#[derive(Clone, Copy, PartialEq)]
enum Profile {
    Zero,
    Cheap,
    Dear,
    Rich,
}

/// `$defs` / `definitions` entries a tool's schema may point at.
#[derive(Clone)]
struct Def {
    container: &'static str,
    name: Vec<u32>,
}

struct Gen {
    rng: Rng,
    /// Tags of the tool being built.
    tags: Tags,
    /// Deep chains the tool being built may still get (they are large).
    chains_left: u32,
    /// The broken servers cycle through the ways of breaking one, so each is reached.
    broken: usize,
}

impl Gen {
    fn tag(&mut self, t: &'static str) {
        self.tags.insert(t);
    }

    // --- text -------------------------------------------------------------------------------

    fn js_ws(&mut self, n: usize) -> Vec<u32> {
        (0..n)
            .map(|_| {
                let (c, t) = *self.rng.pick(JS_WS);
                self.tags.insert(t);
                c
            })
            .collect()
    }

    fn other_ws(&mut self, n: usize) -> Vec<u32> {
        (0..n)
            .map(|_| {
                let (c, t) = *self.rng.pick(NON_JS_WS);
                self.tags.insert(t);
                c
            })
            .collect()
    }

    fn lone_surrogate(&mut self) -> Vec<u32> {
        let hi = 0xD800 + self.rng.below(0x400) as u32;
        let lo = 0xDC00 + self.rng.below(0x400) as u32;
        match self.rng.below(4) {
            0 => {
                self.tag("string: lone high surrogate");
                vec![hi]
            }
            1 => {
                self.tag("string: lone low surrogate");
                vec![lo]
            }
            2 => {
                self.tag("string: reversed surrogate pair");
                vec![lo, hi]
            }
            _ => {
                self.tag("string: lone high surrogate");
                vec![*self.rng.pick(&[0xD800, 0xDBFF, 0xD83D]), 'x' as u32]
            }
        }
    }

    /// Random unusual characters sprinkled into a text.
    fn sprinkle(&mut self, s: &mut Vec<u32>, rate: usize) {
        let n = s.len();
        let src = std::mem::take(s);
        let mut out = Vec::with_capacity(n + 8);
        for i in 0..=n {
            if self.rng.chance(rate) {
                let extra: Vec<u32> = match self.rng.below(9) {
                    0 => {
                        self.tag("string: astral character");
                        vec![*self.rng.pick(&[0x1F600, 0x1F4A9, 0x10437, 0x1D11E, 0x10FFFD])]
                    }
                    1 | 2 => {
                        self.tag("string: BMP non-ASCII");
                        vec![*self.rng.pick(&[0xE9, 0x4E2D, 0xFF61, 0xE000, 0xFFFF, 0xFFFD, 0x0301, 0x7F, 0xAD])]
                    }
                    3 => {
                        self.tag("string: control character");
                        vec![self.rng.below(0x20) as u32]
                    }
                    4 if self.rng.chance(300) => self.lone_surrogate(),
                    5 => {
                        self.tag("string: quote, backslash or slash");
                        vec![*self.rng.pick(&[0x22, 0x5C, 0x2F])]
                    }
                    6 => {
                        let (c, t) = *self.rng.pick(JS_WS);
                        self.tags.insert(t);
                        vec![c]
                    }
                    7 => {
                        let (c, t) = *self.rng.pick(NON_JS_WS);
                        self.tags.insert(t);
                        vec![c]
                    }
                    _ => {
                        self.tag("string: U+0000");
                        vec![0]
                    }
                };
                out.extend(extra);
            }
            if let Some(&c) = src.get(i) {
                out.push(c);
            }
        }
        *s = out;
    }

    fn word(&mut self) -> Vec<u32> {
        match self.rng.below(10) {
            0 => cps(self.rng.pick_str(WORDS_NON_ASCII)),
            1..=3 => cps(self.rng.pick_str(VERBS)),
            4..=6 => cps(self.rng.pick_str(NOUNS)),
            _ => cps(self.rng.pick_str(FILLER)),
        }
    }

    fn prose(&mut self) -> Vec<u32> {
        let n = self.rng.range(1, 14);
        let mut s = Vec::new();
        for i in 0..n {
            if i > 0 {
                s.push(' ' as u32);
            }
            let mut w = self.word();
            if i == 0 && self.rng.chance(600) {
                w[0] = flip_case(w[0]);
            }
            s.extend(w);
        }
        if self.rng.chance(700) {
            s.push('.' as u32);
        }
        if self.rng.chance(150) {
            s.extend(cps("\n\nUse it when the other tools do not fit."));
        }
        self.sprinkle(&mut s, 25);
        s
    }

    /// A few words, for parameter descriptions.
    fn short_prose(&mut self) -> Vec<u32> {
        let n = self.rng.range(1, 5);
        let mut s = Vec::new();
        for i in 0..n {
            if i > 0 {
                s.push(' ' as u32);
            }
            s.extend(self.word());
        }
        self.sprinkle(&mut s, 15);
        s
    }

    fn name_base(&mut self) -> Vec<u32> {
        let v = cps(self.rng.pick_str(VERBS));
        let n = cps(self.rng.pick_str(NOUNS));
        let join = |a: &[u32], sep: &str, b: &[u32]| -> Vec<u32> {
            let mut s = a.to_vec();
            s.extend(cps(sep));
            s.extend_from_slice(b);
            s
        };
        match self.rng.weighted(&[500, 100, 60, 80, 50, 30, 20, 20, 50, 30, 20, 3]) {
            0 => join(&v, "_", &n),
            1 => {
                let mut n2 = n.clone();
                n2[0] = flip_case(n2[0]);
                join(&v, "", &n2)
            }
            2 => join(&v, self.rng.pick_str(&["-", ".", "/", ":", " "]), &n),
            3 => {
                self.tag("name: non-ASCII");
                let w = cps(self.rng.pick_str(WORDS_NON_ASCII));
                join(&v, "_", &w)
            }
            4 => {
                self.tag("name: UTF-16 ordering suffix");
                let s = cps(self.rng.pick_str(TIE_SUFFIXES));
                join(&join(&v, "_", &n), "", &s)
            }
            5 => {
                self.tag("name: padded with whitespace");
                let mut s = if self.rng.chance(600) { self.js_ws(1) } else { self.other_ws(1) };
                s.extend(join(&v, "_", &n));
                if self.rng.chance(500) {
                    s.extend(self.js_ws(1));
                }
                s
            }
            6 => {
                self.tag("name: control character");
                let mut s = join(&v, "_", &n);
                s.insert(1, self.rng.below(0x20) as u32);
                s
            }
            7 => cps(self.rng.pick_str(&["a", "b", "x", "A", "0", "_", "é", "\u{1F600}", "Σ"])),
            8 => join(&v, "_", &n).into_iter().map(flip_case).collect(),
            9 => {
                self.tag("name: dotted capital I");
                join(&cps("\u{130}"), "_", &n)
            }
            10 => {
                self.tag("name: Kelvin sign");
                join(&cps("\u{212A}"), "_", &n)
            }
            _ => {
                // The reference refuses a name it cannot encode; so must we.
                self.tag("name: lone surrogate");
                let mut s = join(&v, "_", &n);
                s.extend(self.lone_surrogate());
                s
            }
        }
    }

    /// A name not yet used in `taken` (compared as code points, as both parsers see them).
    fn unique_name(&mut self, taken: &mut Vec<Vec<u32>>) -> Vec<u32> {
        let mut name = self.name_base();
        let mut i = 2;
        while taken.iter().any(|t| normalize(t) == normalize(&name)) {
            name.extend(cps(&i.to_string()));
            i += 1;
        }
        taken.push(name.clone());
        name
    }

    fn title(&mut self, name: &[u32]) -> Option<J> {
        let pick = self.rng.weighted(&[35, 8, 8, 5, 5, 5, 4, 18, 3, 5, 2, 2]);
        let t: Vec<u32> = match pick {
            0 => {
                self.tag("title: absent");
                return None;
            }
            1 => {
                self.tag("title: null");
                return Some(J::null());
            }
            2 => {
                self.tag("title: equal to name");
                name.to_vec()
            }
            3 => {
                // Same code point count, one more UTF-16 unit.
                self.tag("title: longer only in UTF-16 units");
                let mut t = name.to_vec();
                let last = t.len() - 1;
                t[last] = *self.rng.pick(&[0x1F600, 0x10437, 0x1D11E]);
                t
            }
            4 => {
                self.tag("title: shorter");
                name[..name.len().div_ceil(2)].to_vec()
            }
            5 => {
                self.tag("title: equal length");
                let mut t = name.to_vec();
                t[0] = if t[0] == 'Z' as u32 { 'Y' as u32 } else { 'Z' as u32 };
                t
            }
            6 => {
                self.tag("title: case variant of name");
                name.iter().map(|&c| flip_case(c)).collect()
            }
            7 => {
                self.tag("title: human phrase");
                let mut t = Vec::new();
                for w in name.split(|&c| c == '_' as u32) {
                    if !t.is_empty() {
                        t.push(' ' as u32);
                    }
                    let mut w = w.to_vec();
                    if let Some(c) = w.first_mut() {
                        *c = flip_case(*c);
                    }
                    t.extend(w);
                }
                t
            }
            8 => {
                self.tag("title: padded name");
                let mut t = self.js_ws(1);
                t.extend_from_slice(name);
                t
            }
            9 => {
                self.tag("title: prose");
                self.prose()
            }
            10 => {
                if utf16_len(name) > name.len() {
                    self.tag("title: longer in code points only");
                    vec!['a' as u32; name.len() + 1]
                } else {
                    self.tag("title: prose");
                    self.prose()
                }
            }
            _ => {
                let mut t = name.to_vec();
                t.extend(self.lone_surrogate());
                t
            }
        };
        Some(J::Str(t))
    }

    /// Text whose trimmed lowercase equals `target`'s, with different case and padding.
    fn tautology_of(&mut self, target: &[u32]) -> Vec<u32> {
        let mut d = if self.rng.chance(600) {
            let n = self.rng.range(1, 3);
            self.js_ws(n)
        } else {
            Vec::new()
        };
        let flip_all = self.rng.chance(300);
        for &c in target {
            let c = if flip_all || self.rng.chance(400) { flip_case(c) } else { c };
            let c = if c == 'k' as u32 && self.rng.chance(300) {
                self.tag("tautology: Kelvin sign");
                0x212A
            } else {
                c
            };
            d.push(c);
        }
        if self.rng.chance(600) {
            let n = self.rng.range(1, 3);
            d.extend(self.js_ws(n));
        }
        d
    }

    fn description(&mut self, name: &[u32], title: Option<&[u32]>) -> Option<J> {
        let pick = self.rng.weighted(&[7, 4, 3, 4, 2, 9, 5, 3, 63]);
        let d = match pick {
            0 => {
                self.tag("description: absent");
                return None;
            }
            1 => {
                self.tag("description: null");
                return Some(J::null());
            }
            2 => {
                self.tag("description: empty");
                Vec::new()
            }
            3 => {
                self.tag("description: JavaScript whitespace only");
                let n = self.rng.range(1, 4);
                self.js_ws(n)
            }
            4 => {
                self.tag("description: other whitespace only");
                let mut d = self.other_ws(1);
                if self.rng.chance(500) {
                    d.extend(self.js_ws(1));
                }
                d
            }
            5 => {
                self.tag("description: restates the name");
                self.tautology_of(name)
            }
            6 => match title {
                Some(t) => {
                    self.tag("description: restates the title");
                    let t = t.to_vec();
                    self.tautology_of(&t)
                }
                None => {
                    self.tag("description: restates the name");
                    self.tautology_of(name)
                }
            },
            7 => {
                // Padding JavaScript keeps: not a tautology there, one in other languages.
                self.tag("description: name padded with other whitespace");
                let mut d = self.other_ws(1);
                d.extend_from_slice(name);
                if self.rng.chance(500) {
                    d.extend(self.other_ws(1));
                }
                d
            }
            _ => self.prose(),
        };
        Some(J::Str(d))
    }

    // --- numbers and keys -------------------------------------------------------------------

    fn number(&mut self) -> J {
        let lit = if self.rng.chance(10) {
            self.tag("number: largest double as a 309-digit integer");
            MAX_DOUBLE_INT
        } else {
            self.rng.pick_str(NUMBERS)
        };
        self.tag(number_tag(lit));
        J::raw(lit)
    }

    fn scalar(&mut self) -> J {
        match self.rng.below(7) {
            0 | 1 => self.number(),
            2 => J::raw(self.rng.pick_str(&["true", "false", "null"])),
            3 => J::Str(self.word()),
            4 => J::Arr(vec![self.number(), J::s("x")]),
            5 => J::obj(),
            _ => {
                let mut s = self.word();
                self.sprinkle(&mut s, 100);
                J::Str(s)
            }
        }
    }

    fn prop_key(&mut self) -> Vec<u32> {
        match self.rng.below(12) {
            0 => {
                self.tag("key: integer-like");
                cps(self.rng.pick_str(&[
                    "0",
                    "1",
                    "10",
                    "2",
                    "01",
                    "4294967294",
                    "4294967295",
                    "4294967296",
                    "9007199254740993",
                    "-1",
                    "1e3",
                    "1.5",
                ]))
            }
            1 => {
                self.tag("key: UTF-16 vs code point order");
                cps(self.rng.pick_str(&[
                    "\u{FF61}",
                    "\u{1F600}",
                    "\u{E000}",
                    "\u{10437}",
                    "\u{FFFD}",
                    "é",
                    "e\u{301}",
                    "Z",
                    "a",
                    "_",
                ]))
            }
            2 if self.rng.chance(200) => {
                self.tag("key: lone surrogate");
                vec![*self.rng.pick(&[0xD800, 0xDC00, 0xDBFF, 0xD83D])]
            }
            3 => cps(self.rng.pick_str(&["", " ", "__proto__", "constructor", "a b", "$ref"])),
            _ => {
                let mut w = cps(self.rng.pick_str(NOUNS));
                if self.rng.chance(300) {
                    w.extend(cps(self.rng.pick_str(&["_id", "Id", "2", "_at"])));
                }
                w
            }
        }
    }

    /// Extra keys that only reach the hash: numbers, integer-like keys, nested values.
    fn decorate(&mut self, o: &mut J, rate: usize) {
        if self.rng.chance(rate) {
            let k =
                self.rng.pick_str(&["default", "minimum", "maximum", "const", "multipleOf", "examples", "x-weight"]);
            let v = if k == "examples" { J::Arr(vec![self.number(), self.number()]) } else { self.number() };
            o.push(k, v);
        }
        if self.rng.chance(rate / 3) {
            let k = self.prop_key();
            let v = self.scalar();
            o.push_key(k, v);
        }
        if self.rng.chance(rate / 4) {
            self.tag("key: duplicate in one object");
            let k = self.rng.pick_str(&["format", "default", "title"]);
            let v1 = self.scalar();
            let v2 = self.scalar();
            o.push(k, v1);
            o.push(k, v2);
        }
    }

    // --- schemas ------------------------------------------------------------------------------

    fn param_description(&mut self, o: &mut J) {
        let v = match self.rng.weighted(&[60, 6, 5, 3, 3, 2, 21]) {
            0 => J::Str(self.short_prose()),
            1 => {
                self.tag("param description: empty");
                J::s("")
            }
            2 => {
                self.tag("param description: whitespace only");
                let n = self.rng.range(1, 2);
                J::Str(self.js_ws(n))
            }
            3 => {
                self.tag("param description: not a string");
                J::raw(self.rng.pick_str(&["5", "true", "[]", "{}"]))
            }
            4 => J::null(),
            5 => {
                self.tag("param description: lone surrogate");
                J::Str(self.lone_surrogate())
            }
            _ => return,
        };
        o.push("description", v);
    }

    fn param_enum(&mut self, o: &mut J) {
        let v = match self.rng.weighted(&[12, 2, 2, 1, 1, 82]) {
            0 => {
                self.tag("enum: array");
                let n = self.rng.range(1, 4);
                J::Arr((0..n).map(|_| if self.rng.chance(700) { J::Str(self.word()) } else { self.number() }).collect())
            }
            1 => {
                self.tag("enum: empty array");
                J::Arr(vec![])
            }
            2 => {
                self.tag("enum: not an array");
                J::raw(self.rng.pick_str(&["\"a\"", "null", "{}", "3"]))
            }
            3 => J::obj(),
            4 => J::null(),
            _ => return,
        };
        o.push("enum", v);
    }

    fn primitive(&mut self) -> J {
        let mut o = J::obj();
        let ty = match self.rng.below(12) {
            0..=4 => J::s("string"),
            5 | 6 => J::s("integer"),
            7 => J::s("number"),
            8 => J::s("boolean"),
            9 => J::Arr(vec![J::s("string"), J::s("null")]),
            10 => J::s(self.rng.pick_str(&["Object", "objects", "OBJECT"])),
            _ => J::null(),
        };
        if self.rng.chance(900) {
            o.push("type", ty);
        }
        self.param_description(&mut o);
        self.param_enum(&mut o);
        self.decorate(&mut o, 250);
        o
    }

    fn required_list(&mut self, keys: &[Vec<u32>]) -> Option<J> {
        match self.rng.weighted(&[70, 5, 4, 3, 3, 15]) {
            0 => {
                let mut r: Vec<J> = keys.iter().filter(|_| self.rng.chance(650)).map(|k| J::Str(k.clone())).collect();
                if self.rng.chance(100) {
                    self.tag("required: names missing from properties");
                    r.push(J::s(self.rng.pick_str(&["missing", "ghost", "id"])));
                }
                if self.rng.chance(80) && !keys.is_empty() {
                    self.tag("required: duplicates");
                    r.push(J::Str(keys[0].clone()));
                }
                if self.rng.chance(60) {
                    self.tag("required: non-strings");
                    r.insert(0, J::raw(self.rng.pick_str(&["1", "null", "true", "{}"])));
                }
                self.rng.shuffle(&mut r);
                Some(J::Arr(r))
            }
            1 => {
                self.tag("required: a string");
                Some(J::Str(keys.first().cloned().unwrap_or_else(|| cps("x"))))
            }
            2 => Some(J::Arr(vec![])),
            3 => Some(J::null()),
            4 => Some(J::obj()),
            _ => None,
        }
    }

    /// An object schema with `n` properties at `level` (the root's properties are level 1).
    fn object_node(&mut self, level: u32, n: usize, budget: &mut i32, defs: &[Def], required_all: bool) -> J {
        let mut o = J::obj();
        match self.rng.weighted(&[70, 10, 15, 5]) {
            0 => o.push("type", J::s("object")),
            1 => {
                self.tag("type: [\"object\"]");
                o.push("type", J::Arr(vec![J::s("object")]));
            }
            2 => {}
            _ => o.push("type", J::Arr(vec![J::s("object"), J::s("null")])),
        }
        let mut props = J::obj();
        let mut keys: Vec<Vec<u32>> = Vec::new();
        for _ in 0..n {
            let mut k = self.prop_key();
            if keys.contains(&k) {
                if self.rng.chance(300) {
                    self.tag("key: duplicate property");
                } else {
                    k.extend(cps(&keys.len().to_string()));
                }
            }
            let v = self.prop(level, budget, defs);
            keys.push(k.clone());
            props.push_key(k, v);
        }
        o.push("properties", props);
        let req = if required_all {
            Some(J::Arr(keys.iter().map(|k| J::Str(k.clone())).collect()))
        } else {
            self.required_list(&keys)
        };
        if let Some(r) = req {
            o.push("required", r);
        }
        if self.rng.chance(100) {
            o.push("additionalProperties", J::raw("false"));
        }
        self.param_description(&mut o);
        self.decorate(&mut o, 80);
        o
    }

    fn null_branch(&mut self) -> J {
        let mut o = J::obj();
        match self.rng.below(5) {
            0 | 1 => {
                self.tag("union: {\"type\":\"null\"} branch");
                o.push("type", J::s("null"));
            }
            2 => {
                self.tag("union: {\"type\":[\"null\"]} branch");
                o.push("type", J::Arr(vec![J::s("null")]));
            }
            3 => {
                self.tag("union: [\"null\",\"null\"] branch");
                o.push("type", J::Arr(vec![J::s("null"), J::s("null")]));
            }
            _ => {
                o.push("type", J::s(self.rng.pick_str(&["NULL", "Null", " null"])));
            }
        }
        if self.rng.chance(150) {
            o.push("description", J::s("nothing"));
        }
        o
    }

    fn branches(&mut self, level: u32, budget: &mut i32, defs: &[Def], union: bool) -> J {
        match self.rng.weighted(&[85, 5, 5]) {
            0 => {}
            1 => {
                self.tag("union: empty array");
                return J::Arr(vec![]);
            }
            _ => {
                self.tag("union: not an array");
                return J::raw(self.rng.pick_str(&["{}", "\"x\"", "null", "1"]));
            }
        }
        let n = self.rng.range(1, 4);
        let mut bs = Vec::new();
        for _ in 0..n {
            let b = match self.rng.weighted(&[25, 30, 25, 8, 7]) {
                0 if union => self.null_branch(),
                0 | 1 => {
                    let k = self.rng.range(1, 4);
                    self.object_node(level, k, budget, defs, false)
                }
                2 => self.prop(level, budget, defs),
                3 => {
                    self.tag("union: non-object branch");
                    J::raw(self.rng.pick_str(&["true", "false", "5", "\"s\"", "null", "[]"]))
                }
                _ => self.reference(defs),
            };
            bs.push(b);
        }
        J::Arr(bs)
    }

    /// A property's schema; `level` is the level of the object holding it.
    fn prop(&mut self, level: u32, budget: &mut i32, defs: &[Def]) -> J {
        *budget -= 1;
        if *budget <= 0 {
            return self.primitive();
        }
        match self.rng.weighted(&[40, 14, 8, 10, 4, 3, 7, 4, 2]) {
            0 => self.primitive(),
            1 => {
                let n = self.rng.range(1, 4);
                self.object_node(level + 1, n, budget, defs, false)
            }
            2 => {
                let mut o = J::obj();
                o.push("type", J::s("array"));
                match self.rng.below(5) {
                    0..=2 => {
                        self.tag("items: object");
                        let n = self.rng.range(1, 3);
                        let it = self.object_node(level + 1, n, budget, defs, false);
                        o.push("items", it);
                    }
                    3 => {
                        self.tag("items: array");
                        let a = self.object_node(level + 1, 1, budget, defs, true);
                        let b = self.primitive();
                        o.push("items", J::Arr(vec![a, b]));
                    }
                    _ => {
                        let it = self.primitive();
                        o.push("items", it);
                    }
                }
                self.param_description(&mut o);
                o
            }
            3 => {
                let mut o = J::obj();
                let key = self.rng.pick_str(&["oneOf", "anyOf", "oneOf", "anyOf", "both"]);
                if key == "both" {
                    self.tag("union: oneOf and anyOf together");
                    let a = self.branches(level, budget, defs, true);
                    let b = self.branches(level, budget, defs, true);
                    o.push("oneOf", a);
                    o.push("anyOf", b);
                } else {
                    self.tag(if key == "oneOf" { "union: oneOf" } else { "union: anyOf" });
                    let a = self.branches(level, budget, defs, true);
                    o.push(key, a);
                }
                self.param_description(&mut o);
                o
            }
            4 => {
                self.tag("allOf");
                let mut o = J::obj();
                let a = self.branches(level, budget, defs, false);
                o.push("allOf", a);
                o
            }
            5 => {
                self.tag("not");
                let mut o = J::obj();
                let inner = if self.rng.chance(700) {
                    let n = self.rng.range(1, 2);
                    self.object_node(level + 1, n, budget, defs, true)
                } else {
                    J::raw("true")
                };
                o.push("not", inner);
                o
            }
            6 => self.reference(defs),
            7 => {
                self.tag("property: not an object");
                J::raw(self.rng.pick_str(&["true", "false", "5", "\"string\"", "null", "[]"]))
            }
            _ if self.chains_left > 0 => self.chain(level, budget, defs),
            _ => self.primitive(),
        }
    }

    /// A chain of 8..14 required object levels with a union at the bottom.
    fn chain(&mut self, level: u32, budget: &mut i32, defs: &[Def]) -> J {
        self.chains_left = self.chains_left.saturating_sub(1);
        let len = self.rng.range(8, 14) as u32;
        self.tag("schema: chain of 8..14 levels");
        if level + len > 10 {
            self.tag("schema: depth beyond 10");
        }
        let mut bottom = J::obj();
        let n = self.rng.range(2, 3);
        let mut a = Vec::new();
        for _ in 0..n {
            let b = if self.rng.chance(300) {
                self.null_branch()
            } else {
                let k = self.rng.range(1, 3);
                self.object_node(level + len + 1, k, budget, defs, true)
            };
            a.push(b);
        }
        bottom.push(if self.rng.chance(500) { "oneOf" } else { "anyOf" }, J::Arr(a));
        if self.rng.chance(500) {
            let mut props = J::obj();
            props.push("leaf", self.primitive());
            bottom.push("properties", props);
            bottom.push("required", J::Arr(vec![J::s("leaf")]));
        }
        let mut node = bottom;
        for i in 0..len {
            let mut o = J::obj();
            o.push("type", J::s("object"));
            let mut props = J::obj();
            let key = if i % 3 == 0 { "next" } else { "child" };
            let inner = if i % 4 == 3 && self.rng.chance(300) {
                // An array level: items add no level of their own.
                let mut arr = J::obj();
                arr.push("type", J::s("array"));
                arr.push("items", node);
                arr
            } else {
                node
            };
            props.push(key, inner);
            if self.rng.chance(300) {
                props.push("extra", self.primitive());
            }
            o.push("properties", props);
            o.push("required", J::Arr(vec![J::s(key)]));
            node = o;
        }
        node
    }

    /// A `$ref` node in every form the traversal has to handle.
    fn reference(&mut self, defs: &[Def]) -> J {
        let mut o = J::obj();
        let r: J = match self.rng.weighted(&[45, 10, 8, 6, 6, 5, 5, 5, 5, 5]) {
            0..=2 if !defs.is_empty() => {
                let d = self.rng.pick(defs).clone();
                let how = self.rng.below(3);
                let text = self.encode_ref_name(&d, how);
                J::Str(text)
            }
            0..=3 => {
                self.tag("$ref: missing target");
                J::s(self.rng.pick_str(&["#/$defs/Nope", "#/definitions/Nope", "#/$defs/"]))
            }
            4 => {
                self.tag("$ref: external or not into $defs");
                J::s(self.rng.pick_str(&[
                    "http://x/y.json#/a",
                    "other.json#/$defs/X",
                    "#/properties/a",
                    "#",
                    "#/",
                    "#/$defs",
                    "#/%24defs/X",
                    "#/$defs/X/properties/a",
                    "X",
                    "#X",
                ]))
            }
            5 => {
                self.tag("$ref: not a string");
                J::raw(self.rng.pick_str(&["5", "null", "{}", "[\"#/$defs/X\"]", "true"]))
            }
            6 => {
                self.tag("$ref: invalid percent escape");
                J::s(self.rng.pick_str(&[
                    "#/$defs/%ZZ",
                    "#/$defs/%",
                    "#/$defs/%5",
                    "#/$defs/%E9",
                    "#/$defs/%C3",
                    "#/$defs/%ED%A0%80",
                    "#/$defs/%F0%9F%98",
                    "#/definitions/%FF",
                ]))
            }
            7 => {
                self.tag("$ref: JSON pointer escapes");
                J::s(self.rng.pick_str(&["#/$defs/a~1b", "#/$defs/a~0b", "#/definitions/~1"]))
            }
            8 => {
                self.tag("$ref: lone surrogate");
                let mut s = cps("#/$defs/");
                s.push(0xD800);
                J::Str(s)
            }
            _ => {
                self.tag("$ref: missing target");
                J::s("#/definitions/X")
            }
        };
        o.push("$ref", r);
        if self.rng.chance(150) {
            self.tag("$ref: with sibling keywords");
            let mut props = J::obj();
            props.push("sib", self.primitive());
            o.push("properties", props);
            o.push("required", J::Arr(vec![J::s("sib")]));
        }
        if self.rng.chance(200) {
            o.push("description", J::Str(self.short_prose()));
        }
        o
    }

    fn encode_ref_name(&mut self, d: &Def, how: usize) -> Vec<u32> {
        let mut s = cps("#/");
        s.extend(cps(d.container));
        s.push('/' as u32);
        if d.container == "$defs" {
            self.tag("$ref: into $defs");
        } else {
            self.tag("$ref: into definitions");
        }
        let name = normalize(&d.name);
        if name.contains(&('/' as u32)) {
            self.tag("$ref: name containing /");
        }
        match how {
            0 => s.extend(name),
            _ => {
                // Percent-encode some or all of the name's UTF-8 bytes.
                let all = how == 2;
                let text: String = name.iter().filter_map(|&c| char::from_u32(c)).collect();
                for ch in text.chars() {
                    let mut buf = [0u8; 4];
                    let bytes = ch.encode_utf8(&mut buf).as_bytes();
                    if all || ch == '/' || !ch.is_ascii() || self.rng.chance(300) {
                        self.tag("$ref: percent-encoded name");
                        if ch == '/' {
                            self.tag("$ref: %2F");
                        }
                        if !ch.is_ascii() {
                            self.tag("$ref: percent-encoded UTF-8");
                        }
                        for b in bytes {
                            let hex = if self.rng.chance(300) { format!("%{b:02x}") } else { format!("%{b:02X}") };
                            s.extend(cps(&hex));
                        }
                    } else {
                        s.push(ch as u32);
                    }
                }
            }
        }
        s
    }

    fn def_names(&mut self) -> Vec<Def> {
        let n = self.rng.range(1, 4);
        let mut out: Vec<Def> = Vec::new();
        for _ in 0..n {
            let name = if self.rng.chance(60) {
                // A lone surrogate, and U+FFFD, which a lossy conversion would turn it into.
                self.tag("$defs: name with a lone surrogate");
                vec![0xD800]
            } else {
                cps(self.rng.pick_str(&[
                    "X",
                    "Y",
                    "Node",
                    "Tree",
                    "a/b",
                    "é",
                    "a b",
                    "%41",
                    "a~b",
                    "\u{FFFD}",
                    "0",
                    "",
                    "ref",
                    "\u{1F600}",
                    "%",
                ]))
            };
            let container = if self.rng.chance(650) { "$defs" } else { "definitions" };
            if !out.iter().any(|d| d.name == name && d.container == container) {
                out.push(Def { container, name });
            }
        }
        out
    }

    fn def_body(&mut self, budget: &mut i32, defs: &[Def]) -> J {
        match self.rng.weighted(&[60, 15, 10, 10, 5]) {
            0 => {
                let n = self.rng.range(1, 3);
                let all = self.rng.chance(500);
                let mut o = self.object_node(1, n, budget, defs, all);
                if self.rng.chance(300) {
                    // Point back into the definitions: cycles and chains.
                    self.tag("$ref: recursive definition");
                    let mut props = J::obj();
                    let r = self.reference(defs);
                    props.push("self", r);
                    o.set("properties", {
                        let mut p = props;
                        if let J::Obj(e) = &mut p {
                            e.push((cps("leaf"), J::s("x")));
                        }
                        p
                    });
                    o.set("required", J::Arr(vec![J::s("self"), J::s("leaf")]));
                }
                o
            }
            1 => {
                self.tag("$ref: chain of references");
                self.reference(defs)
            }
            2 => self.primitive(),
            3 => {
                let mut o = J::obj();
                let a = self.branches(1, budget, defs, true);
                o.push("oneOf", a);
                o
            }
            _ => J::raw(self.rng.pick_str(&["true", "null", "5", "[]"])),
        }
    }

    fn input_schema(&mut self, profile: Profile) -> Option<J> {
        let zero = |g: &mut Gen| -> Option<J> {
            match g.rng.below(12) {
                0 | 1 => {
                    g.tag("inputSchema: absent");
                    None
                }
                2 => {
                    g.tag("inputSchema: null");
                    Some(J::null())
                }
                3 => {
                    g.tag("inputSchema: {}");
                    Some(J::obj())
                }
                4 | 5 => {
                    let mut o = J::obj();
                    o.push("type", J::s("object"));
                    Some(o)
                }
                6 => {
                    g.tag("properties: empty object");
                    let mut o = J::obj();
                    o.push("type", J::s("object"));
                    o.push("properties", J::obj());
                    Some(o)
                }
                7 => {
                    g.tag("properties: array");
                    let mut o = J::obj();
                    o.push("type", J::s("object"));
                    let p = g.primitive();
                    o.push("properties", J::Arr(vec![p]));
                    o.push("required", J::Arr(vec![J::s("0")]));
                    Some(o)
                }
                8 => {
                    g.tag("properties: string");
                    let mut o = J::obj();
                    o.push("properties", J::s("x"));
                    o.push("required", J::Arr(vec![J::s("x")]));
                    Some(o)
                }
                _ => {
                    // Parameters, none required.
                    let n = g.rng.range(1, 5);
                    let mut budget = 8;
                    let mut o = g.object_node(0, n, &mut budget, &[], false);
                    o.remove("required");
                    if g.rng.chance(300) {
                        g.tag("required: absent");
                    } else {
                        let r = J::raw(*g.rng.pick(&["[]", "\"a\"", "null", "{}"]));
                        o.push("required", r);
                    }
                    Some(o)
                }
            }
        };
        let mut budget: i32 = match profile {
            Profile::Zero => return zero(self),
            Profile::Cheap => 3,
            Profile::Dear => 10,
            Profile::Rich => self.rng.range(3, 16) as i32,
        };
        let defs = if profile == Profile::Rich && self.rng.chance(350) { self.def_names() } else { Vec::new() };
        let (n, required_all) = match profile {
            Profile::Cheap => (self.rng.range(1, 3), false),
            Profile::Dear => (self.rng.range(4, 10), true),
            _ => (self.rng.range(1, 7), self.rng.chance(300)),
        };
        let mut root = if profile == Profile::Cheap {
            let mut o = J::obj();
            o.push("type", J::s("object"));
            let mut props = J::obj();
            let mut keys = Vec::new();
            for i in 0..n {
                let mut k = self.prop_key();
                k.extend(cps(&i.to_string()));
                props.push_key(k.clone(), self.primitive());
                keys.push(J::Str(k));
            }
            keys.truncate(self.rng.range(1, 2));
            o.push("properties", props);
            o.push("required", J::Arr(keys));
            o
        } else {
            self.object_node(0, n, &mut budget, &defs, required_all)
        };
        if profile == Profile::Dear && self.rng.chance(500) {
            // One nested required object to make it dearer still.
            let k = self.rng.range(2, 4);
            let mut b = 6;
            let nested = self.object_node(1, k, &mut b, &[], true);
            if let Some(J::Obj(p)) = root.get_mut("properties") {
                p.push((cps("nested"), nested));
            }
            if let Some(J::Arr(r)) = root.get_mut("required") {
                r.push(J::s("nested"));
            }
        }
        if profile == Profile::Rich && self.chains_left > 0 && self.rng.chance(80) {
            let c = self.chain(1, &mut budget, &defs);
            if let Some(J::Obj(p)) = root.get_mut("properties") {
                p.push((cps("deep"), c));
            }
            if let Some(J::Arr(r)) = root.get_mut("required") {
                r.push(J::s("deep"));
            }
        }
        if !defs.is_empty() {
            let mut containers: Vec<(&'static str, J)> = Vec::new();
            for d in &defs {
                let mut b = 6;
                let body = self.def_body(&mut b, &defs);
                match containers.iter_mut().find(|(c, _)| *c == d.container) {
                    Some((_, o)) => o.push_key(d.name.clone(), body),
                    None => {
                        let mut o = J::obj();
                        o.push_key(d.name.clone(), body);
                        containers.push((d.container, o));
                    }
                }
            }
            for (c, o) in containers {
                root.push(c, o);
            }
            if self.rng.chance(150) {
                self.tag("$ref: on the root");
                let d = self.rng.pick(&defs).clone();
                let r = self.encode_ref_name(&d, 0);
                root.push("$ref", J::Str(r));
            }
        }
        if self.rng.chance(100) {
            root.push("$schema", J::s("https://json-schema.org/draft/2020-12/schema"));
        }
        if self.rng.chance(30) {
            self.tag("type: not object on the root");
            root.set("type", J::s("string"));
        }
        Some(root)
    }

    fn output_schema(&mut self) -> Option<J> {
        match self.rng.weighted(&[45, 8, 10, 10, 27]) {
            0 => {
                self.tag("outputSchema: absent");
                None
            }
            1 => {
                self.tag("outputSchema: null");
                Some(J::null())
            }
            2 => {
                self.tag("outputSchema: {}");
                Some(J::obj())
            }
            3 => {
                let mut o = J::obj();
                o.push("type", J::s("object"));
                Some(o)
            }
            _ => {
                self.tag("outputSchema: non-empty");
                let n = self.rng.range(1, 4);
                let mut b = 6;
                Some(self.object_node(0, n, &mut b, &[], false))
            }
        }
    }

    fn annotations(&mut self) -> Option<J> {
        match self.rng.weighted(&[30, 8, 8, 6, 48]) {
            0 => {
                self.tag("annotations: absent");
                None
            }
            1 => {
                self.tag("annotations: null");
                Some(J::null())
            }
            2 => {
                self.tag("annotations: {}");
                Some(J::obj())
            }
            3 => {
                self.tag("annotations: unknown keys only");
                let mut o = J::obj();
                let k = self.rng.pick_str(&["title", "x-cost", "readOnly", "hint"]);
                let v = self.scalar();
                o.push(k, v);
                Some(o)
            }
            _ => {
                let mut o = J::obj();
                for key in ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] {
                    let v = match self.rng.weighted(&[35, 20, 20, 4, 4, 4, 3, 2]) {
                        0 => continue,
                        1 => J::raw("true"),
                        2 => J::raw("false"),
                        3 => {
                            self.tag("annotations: hint as the string \"true\"");
                            J::s("true")
                        }
                        4 => {
                            self.tag("annotations: hint as a number");
                            J::raw(self.rng.pick_str(&["1", "0", "-0", "1.0"]))
                        }
                        5 => {
                            self.tag("annotations: hint null");
                            J::null()
                        }
                        6 => J::raw(self.rng.pick_str(&["[]", "{}", "[true]"])),
                        _ => {
                            self.tag("key: duplicate in one object");
                            o.push(key, J::raw("true"));
                            J::raw("false")
                        }
                    };
                    o.push(key, v);
                }
                if self.rng.chance(200) {
                    o.push("title", J::Str(self.prose()));
                }
                if let J::Obj(e) = &mut o {
                    self.rng.shuffle(e);
                }
                Some(o)
            }
        }
    }

    fn extras(&mut self, tool: &mut J) {
        if !self.rng.chance(200) {
            return;
        }
        self.tag("tool: extra fields (_meta, icons, execution)");
        match self.rng.below(4) {
            0 => {
                let mut m = J::obj();
                m.push("io.modelcontextprotocol/related", J::Str(self.word()));
                m.push("n", self.number());
                tool.push("_meta", m);
            }
            1 => {
                let mut icon = J::obj();
                icon.push("src", J::s("data:image/png;base64,iVBORw0KGgo="));
                icon.push("mimeType", J::s("image/png"));
                tool.push("icons", J::Arr(vec![icon]));
            }
            2 => {
                let mut e = J::obj();
                e.push("taskSupport", J::s("optional"));
                tool.push("execution", e);
            }
            _ => {
                tool.push("x-vendor", self.scalar());
                tool.push("_meta", J::null());
            }
        }
    }

    /// One tool definition.
    fn tool(&mut self, name: Vec<u32>, schema: Option<J>) -> J {
        let mut t = J::obj();
        let title = self.title(&name);
        let title_text = match &title {
            Some(J::Str(s)) => Some(s.clone()),
            _ => None,
        };
        let mut desc = self.description(&name, title_text.as_deref());
        let mut title = title;
        if self.rng.chance(15) {
            self.tag("tautology: tricky case mapping");
            let (a, b) = *self.rng.pick(TRICKY_CASE);
            let (a, b) = if self.rng.chance(500) { (a, b) } else { (b, a) };
            title = Some(J::s(a));
            desc = Some(J::s(b));
        }
        t.push_key(cps("name"), J::Str(name));
        if let Some(v) = title {
            t.push("title", v);
        }
        if let Some(v) = desc {
            t.push("description", v);
        }
        if let Some(v) = schema {
            t.push("inputSchema", v);
        }
        if let Some(v) = self.output_schema() {
            t.push("outputSchema", v);
        }
        if let Some(v) = self.annotations() {
            t.push("annotations", v);
        }
        self.extras(&mut t);
        if let J::Obj(e) = &mut t {
            if self.rng.chance(500) {
                self.rng.shuffle(e);
            }
            if self.rng.chance(40) {
                // An earlier value of the same key that the later one overrides.
                self.tag("tool: duplicate key (last wins)");
                let k = self.rng.pick_str(&["description", "title", "inputSchema", "annotations"]);
                let decoy = match self.rng.below(3) {
                    0 => J::raw("5"),
                    1 => J::s("decoy"),
                    _ => J::obj(),
                };
                e.insert(0, (cps(k), decoy));
                if !e[1..].iter().any(|(ek, _)| *ek == cps(k)) {
                    e.push((cps(k), J::null()));
                }
            }
        }
        t
    }

    fn profile(&mut self) -> Profile {
        match self.rng.weighted(&[25, 20, 20, 35]) {
            0 => Profile::Zero,
            1 => Profile::Cheap,
            2 => Profile::Dear,
            _ => Profile::Rich,
        }
    }

    /// The tools of one server (each with its tags), valid as far as the generator knows.
    fn tools(&mut self, n: usize) -> (Vec<J>, Vec<Tags>) {
        let mut taken = Vec::new();
        let mut tools = Vec::new();
        let mut tags = Vec::new();
        // Sometimes a group of equally cheap tools whose names differ where UTF-16 order and
        // code point order disagree, so the shadow tie-break is exercised.
        let tie = if n >= 3 && self.rng.chance(250) { self.rng.range(2, 3.min(n - 1)) } else { 0 };
        let mut tie_schema: Option<Option<J>> = None;
        let mut base = self.name_base();
        if base.iter().any(|&c| (0xD800..0xE000).contains(&c)) {
            base = cps("tie");
        }
        self.tags.clear();
        let mut suffixes: Vec<&str> = TIE_SUFFIXES.to_vec();
        self.rng.shuffle(&mut suffixes);
        for (i, suffix) in (0..n).zip(suffixes.iter().cycle()) {
            self.tags = Tags::new();
            self.chains_left = 1;
            let (name, schema) = if i < tie {
                self.tag("server: cost tie among cheap siblings");
                let mut name = base.clone();
                name.extend(cps(suffix));
                taken.push(name.clone());
                let schema = match &tie_schema {
                    Some(s) => s.clone(),
                    None => {
                        let p = if self.rng.chance(600) { Profile::Zero } else { Profile::Cheap };
                        let s = self.input_schema(p);
                        tie_schema = Some(s.clone());
                        s
                    }
                };
                (name, schema)
            } else {
                let name = self.unique_name(&mut taken);
                let p = self.profile();
                (name, self.input_schema(p))
            };
            tools.push(self.tool(name, schema));
            tags.push(std::mem::take(&mut self.tags));
        }
        // Put the tie group at random places.
        let mut order: Vec<usize> = (0..n).collect();
        self.rng.shuffle(&mut order);
        let tools = order.iter().map(|&i| tools[i].clone()).collect();
        let tags = order.iter().map(|&i| tags[i].clone()).collect();
        (tools, tags)
    }

    fn server_name(&mut self, tags: &mut Tags) -> Option<J> {
        let (tag, v) = match self.rng.weighted(&[30, 35, 5, 5, 3, 3, 2, 7, 5, 3]) {
            0 => ("serverName: absent", None),
            1 => ("serverName: plain", Some(J::Str(self.name_base()))),
            2 => ("serverName: empty", Some(J::s(""))),
            3 => {
                let mut s = self.js_ws(1);
                s.extend(cps("srv"));
                s.extend(self.js_ws(1));
                ("serverName: padded with JavaScript whitespace", Some(J::Str(s)))
            }
            4 => {
                let mut s = self.other_ws(1);
                s.extend(cps("srv"));
                ("serverName: padded with other whitespace", Some(J::Str(s)))
            }
            5 => {
                let n = self.rng.range(1, 3);
                ("serverName: whitespace only", Some(J::Str(self.js_ws(n))))
            }
            6 => ("serverName: other whitespace only", Some(J::Str(self.other_ws(1)))),
            7 => ("serverName: not a string", Some(J::raw(self.rng.pick_str(&["5", "null", "{}", "true", "[\"a\"]"])))),
            8 => {
                let mut s = cps("srv ");
                s.extend(cps(self.rng.pick_str(WORDS_NON_ASCII)));
                if self.rng.chance(300) {
                    s.extend(self.lone_surrogate());
                }
                ("serverName: unicode", Some(J::Str(s)))
            }
            _ => {
                let mut s = cps("\u{FEFF}srv");
                if self.rng.chance(500) {
                    s = cps("\u{200B}");
                }
                ("serverName: BOM or zero-width", Some(J::Str(s)))
            }
        };
        tags.insert(tag);
        v
    }

    /// Wraps tool texts in one of the three input shapes.
    fn wrap(&mut self, tool_texts: &[String], tags: &mut Tags) -> String {
        let shape = if tool_texts.len() == 1 && self.rng.chance(400) { 2 } else { self.rng.weighted(&[65, 35]) };
        match shape {
            0 => {
                tags.insert("shape: tools/list result");
                let mut parts = vec![format!("\"tools\":[{}]", tool_texts.join(","))];
                if let Some(name) = self.server_name(tags) {
                    let mut t = Tags::new();
                    let text = render(&name, &mut self.rng, &mut t);
                    parts.push(format!("\"serverName\":{text}"));
                }
                if self.rng.chance(100) {
                    parts.push("\"nextCursor\":null".into());
                }
                if self.rng.chance(50) {
                    parts.push("\"name\":\"not-a-tool\"".into());
                }
                self.rng.shuffle(&mut parts);
                format!("{{{}}}", parts.join(","))
            }
            1 => {
                tags.insert("shape: bare array");
                format!("[{}]", tool_texts.join(","))
            }
            _ => {
                tags.insert("shape: single tool");
                let text = tool_texts[0].clone();
                if self.rng.chance(150) {
                    // `tools` that is not an array does not make it a tools/list result.
                    tags.insert("shape: single tool with a non-array tools field");
                    let v = self.rng.pick_str(&["5", "{}", "null", "\"x\""]);
                    format!("{{\"tools\":{v},{}", &text[1..])
                } else {
                    text
                }
            }
        }
    }

    fn render_tools(&mut self, tools: &[J], tags: &mut [Tags]) -> Vec<String> {
        tools.iter().zip(tags.iter_mut()).map(|(t, tg)| render(t, &mut self.rng, tg)).collect()
    }

    /// A random server: valid (about 97%) or broken on purpose.
    fn server(&mut self) -> Server {
        let n = *self.rng.pick(&[1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 8, 9, 10, 11, 12]);
        let (mut tools, mut tool_tags) = self.tools(n);
        let mut tags = Tags::new();
        let mut meant_invalid = if self.rng.chance(30) { Some(self.break_server(&mut tools)) } else { None };
        if meant_invalid.is_none() && tool_tags.iter().any(|t| t.contains("name: lone surrogate")) {
            // The reference cannot take such a name, so it refuses the whole document.
            meant_invalid = Some("invalid: name with a lone surrogate");
        }
        if meant_invalid == Some("invalid: empty tools list") {
            tools.clear();
            tool_tags.clear();
        }
        let texts = self.render_tools(&tools, &mut tool_tags);
        let mut text = if texts.is_empty() {
            if self.rng.chance(500) { "[]".to_string() } else { "{\"tools\":[],\"serverName\":\"empty\"}".to_string() }
        } else {
            self.wrap(&texts, &mut tags)
        };
        if meant_invalid == Some("invalid: JSON syntax") {
            text = self.break_syntax(&text);
        }
        if meant_invalid == Some("invalid: not a tools document") {
            text = (self.rng.pick_str(&[
                "5",
                "\"tools\"",
                "null",
                "true",
                "{}",
                "{\"tools\":\"x\"}",
                "{\"tools\":{}}",
                "{\"name\":5}",
                "{\"name\":null,\"description\":\"x\"}",
                "{\"name\":\"a\",\"tools\":[]}",
                "[[]]",
            ]))
            .to_string();
        }
        if let Some(t) = meant_invalid {
            tags.insert(t);
        }
        if self.rng.chance(20) {
            tags.insert("json: whitespace around the document");
            let (a, b) = (self.rng.pick_str(&[" ", "\t", "\r", ""]), self.rng.pick_str(&[" ", "\t\r", "", "  "]));
            text = format!("{a}{text}{b}");
        }
        Server { text, tool_count: tools.len(), meant_invalid, tool_tags, tags }
    }

    /// Breaks a server in one of the ways the reference must refuse.
    fn break_server(&mut self, tools: &mut [J]) -> &'static str {
        let i = self.rng.below(tools.len());
        let kinds = [
            "invalid: duplicate names",
            "invalid: tool is not an object",
            "invalid: name empty",
            "invalid: name missing",
            "invalid: name not a string",
            "invalid: description not a string",
            "invalid: title not a string",
            "invalid: inputSchema is an array",
            "invalid: outputSchema not an object",
            "invalid: annotations is a string",
            "invalid: empty tools list",
            "invalid: NaN or Infinity literal",
            "invalid: JSON syntax",
            "invalid: not a tools document",
        ];
        let mut kind = kinds[self.broken % kinds.len()];
        self.broken += 1;
        if kind == "invalid: duplicate names" {
            if tools.len() < 2 {
                kind = "invalid: name empty";
            } else {
                let j = (i + 1) % tools.len();
                let name = tools[j].get_mut("name").cloned().expect("generated tools have names");
                tools[i].set("name", name);
                return kind;
            }
        }
        let t = &mut tools[i];
        match kind {
            "invalid: tool is not an object" => {
                *t = J::raw(self.rng.pick_str(&["5", "\"tool\"", "null", "[]", "true"]));
            }
            "invalid: name empty" => t.set("name", J::s("")),
            "invalid: name missing" => t.remove("name"),
            "invalid: name not a string" => {
                t.set("name", J::raw(self.rng.pick_str(&["5", "true", "[]", "{}", "null"])))
            }
            "invalid: description not a string" => {
                t.set("description", J::raw(self.rng.pick_str(&["5", "[]", "{}", "false"])))
            }
            "invalid: title not a string" => t.set("title", J::raw(self.rng.pick_str(&["5", "[\"t\"]", "{}", "true"]))),
            "invalid: inputSchema is an array" => {
                t.set("inputSchema", J::Arr(vec![J::obj()]));
            }
            "invalid: outputSchema not an object" => {
                t.set("outputSchema", J::raw(self.rng.pick_str(&["[]", "\"x\"", "5"])));
            }
            "invalid: annotations is a string" => t.set("annotations", J::s("readOnly")),
            "invalid: NaN or Infinity literal" => {
                let lit = self.rng.pick_str(&["NaN", "Infinity", "-Infinity"]);
                let mut s = J::obj();
                s.push("type", J::s("object"));
                s.push("default", J::raw(lit));
                let field = self.rng.pick_str(&["inputSchema", "outputSchema", "annotations"]);
                t.set(field, s);
            }
            _ => {}
        }
        kind
    }

    fn break_syntax(&mut self, text: &str) -> String {
        match self.rng.below(5) {
            0 => format!("{text},"),
            1 => {
                let cut = (0..=text.len() / 2).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
                text[..cut].to_string()
            }
            2 => text.replacen(':', "=", 1),
            3 => format!("{text} {text}"),
            _ => text.replacen("\"", "\"\t", 1),
        }
    }

    /// A valid single tool for the fixed documents, as an object to tamper with.
    fn plain_tool(&mut self, name: &str) -> J {
        let mut t = J::obj();
        t.push("name", J::s(name));
        t.push("description", J::s("Returns the thing."));
        let mut s = J::obj();
        s.push("type", J::s("object"));
        let mut p = J::obj();
        p.push("x", J::obj());
        s.push("properties", p);
        t.push("inputSchema", s);
        t
    }

    /// Fixed boundary documents, the same for every seed.
    fn specials(&mut self) -> Vec<Server> {
        let mut out = Vec::new();
        let mut doc = |name: &'static str, text: String, tools: usize, invalid: bool| {
            let mut tags = Tags::new();
            tags.insert(name);
            out.push(Server {
                text,
                tool_count: tools,
                meant_invalid: invalid.then_some(name),
                tool_tags: vec![Tags::new(); tools],
                tags,
            });
        };
        let many = |n: usize| -> String {
            let tools: Vec<String> = (0..n)
                .map(|i| {
                    if i % 7 == 0 {
                        format!(
                            "{{\"name\":\"t{i}\",\"inputSchema\":{{\"properties\":{{\"a\":{{}},\"b\":{{}},\"c\":{{}},\"d\":{{}}}},\"required\":[\"a\",\"b\",\"c\",\"d\"]}}}}"
                        )
                    } else {
                        format!("{{\"name\":\"t{i}\",\"description\":\"Tool {i}.\"}}")
                    }
                })
                .collect();
            format!("[{}]", tools.join(","))
        };
        doc("special: 500 tools (the limit)", many(500), 500, false);
        doc("special: 501 tools", many(501), 501, true);
        let mut tags = Tags::new();
        let with_literal = |g: &mut Gen, field: &str, lit: &str, tags: &mut Tags| -> String {
            let mut t = g.plain_tool("big");
            let mut o = J::obj();
            o.push("type", J::s("object"));
            let mut inner = J::obj();
            inner.push("default", J::raw(lit));
            o.push("deep", J::Arr(vec![inner]));
            t.set(field, o);
            render(&t, &mut g.rng, tags)
        };
        let huge = format!("1{}", "0".repeat(400));
        let neg_huge = format!("-9{}", "9".repeat(320));
        let cases: Vec<(&'static str, String, bool)> = vec![
            (
                "special: integer literal beyond the double range in inputSchema",
                with_literal(self, "inputSchema", &huge, &mut tags),
                true,
            ),
            (
                "special: negative integer literal beyond the double range in outputSchema",
                with_literal(self, "outputSchema", &neg_huge, &mut tags),
                true,
            ),
            (
                "special: integer literal beyond the double range in annotations",
                with_literal(self, "annotations", &huge, &mut tags),
                true,
            ),
            (
                "special: 309-digit integer halfway to 2^1024 (rounds to infinity)",
                with_literal(self, "inputSchema", HALFWAY_INT, &mut tags),
                true,
            ),
            (
                "special: 309-digit integer just below halfway (rounds to the largest double)",
                with_literal(self, "inputSchema", BELOW_HALFWAY_INT, &mut tags),
                false,
            ),
            ("special: NaN literal", with_literal(self, "inputSchema", "NaN", &mut tags), true),
            ("special: -Infinity literal", with_literal(self, "annotations", "-Infinity", &mut tags), true),
            (
                "special: integer literal beyond the double range in _meta (not an input)",
                with_literal(self, "_meta", &huge, &mut tags),
                false,
            ),
        ];
        for (name, text, invalid) in cases {
            doc(name, text, 1, invalid);
        }
        out
    }
}
