//! The triggers' Aho-Corasick automaton, built here rather than taken from `aho-corasick`: the
//! states near the root (where nearly every step of a text stays) are a DFA, each a full row
//! of resolved transitions by byte class, and the deeper ones (most of the trie, a chain per
//! literal) keep only their own transitions and a failure link, which leads back towards the
//! root's rows within a step or two. Each state carries the rules of every literal ending
//! there, its failure chain's included, so a text's candidates are the union over the states
//! it passes through, as an overlapping search of the literals would report them.
//!
//! Measured on the bench's 100-tool list (callgrind, steady state, 2026-12-06, 10,333 literals
//! in 56,124 states over 149 byte classes): `aho-corasick`'s contiguous NFA (dense to depth 4)
//! stepped the list's 32,900 bytes of folded text for 1.45 million instructions, 44 a byte,
//! most in its failure loops and bounds checks on dense states holding unresolved transitions;
//! this automaton, 0.90 million, with fewer simulated cache misses. The whole trie as a DFA
//! would be 33 MB; rows to depth 3 were 1.4 MB (1.16 million instructions in a first form of
//! it, 1.0 to depth 4); with rows to depth 4 (5,119 of them) the automaton is 4.07 MB in all,
//! against the NFA's 4.18 MB. Rows to depth 5 (8,768) cut the list by 0.16 million more (9.60
//! -> 9.43 million, simulated D1 read misses 167k -> 158k) for 2.1 MB more (6.2 MB, the
//! example's peak RSS 65.7 -> 67.7 MB): taken, within the few MB the gateway's start allows.
//!
//! The literals of 30 languages took the alphabet to 155 classes and the rows to 14,132 (10.5
//! MB, session 36), 2,449 of them for states reached through bytes outside ASCII, two or more
//! bytes of which make one letter. Those deeper than two bytes keep only their own transitions
//! now (9.2 MB), and the bench's English list steps as before (25.52 million instructions for
//! three passes under callgrind, before and after).

use std::collections::HashMap;

use super::Rules;

/// Depth up to which a state has a full row of resolved transitions.
const ROW_DEPTH: usize = 5;
/// Depth up to which a state reached through a byte outside ASCII has one too.
const FOREIGN_ROW_DEPTH: usize = 2;

pub struct Automaton {
    /// Each byte's class: 0 for a byte no literal holds, else 1 and up.
    classes: [u8; 256],
    /// The rows of the states up to [`ROW_DEPTH`], one after another. A state is named by
    /// where its row begins (the root 0), a deeper one by [`Automaton::rows_end`] and up, and
    /// either with [`OUT`] set when literals end there.
    table: Vec<u32>,
    rows_end: u32,
    /// The deeper states' transitions, `deep[s - rows_end]`.
    deep: Vec<Deep>,
    edges: Vec<(u8, u32)>,
    /// The rules of the literals ending at each state with a row, by row, as an index into
    /// `masks` (0: none).
    row_out: Vec<u32>,
    masks: Vec<Rules>,
}

/// The bit of a state's name that says literals end there.
const OUT: u32 = 1 << 31;

/// A state without a row: its transitions are `edges[from..from + len]`, any other byte is
/// read from its failure state, and `out` is as [`Automaton::row_out`].
struct Deep {
    fail: u32,
    from: u32,
    len: u16,
    out: u16,
}

impl Automaton {
    /// The automaton of `literals` (non-empty), each of which may begin or end the rules
    /// `rules_of` gives it.
    pub fn new(literals: &[Vec<u8>], rules_of: &[Rules]) -> Automaton {
        let mut classes = [0u8; 256];
        let mut alphabet = 1;
        for &b in literals.iter().flatten() {
            if classes[usize::from(b)] == 0 {
                classes[usize::from(b)] = u8::try_from(alphabet).expect("at most 255 bytes in literals");
                alphabet += 1;
            }
        }
        // The trie, its states numbered as they are made; then renumbered breadth first.
        let mut children: Vec<Vec<(u8, u32)>> = vec![Vec::new()];
        let mut own: Vec<Rules> = vec![Rules::default()];
        for (lit, rules) in literals.iter().zip(rules_of) {
            let mut s = 0usize;
            for &b in lit {
                let c = classes[usize::from(b)];
                s = match children[s].iter().find(|(k, _)| *k == c) {
                    Some(&(_, to)) => to as usize,
                    None => {
                        let to = children.len();
                        children[s].push((c, to as u32));
                        children.push(Vec::new());
                        own.push(Rules::default());
                        to
                    }
                };
            }
            own[s] |= *rules;
        }
        let mut order = vec![0u32];
        let mut depth = vec![0usize; children.len()];
        let mut at = 0;
        while at < order.len() {
            let s = order[at] as usize;
            for &(_, to) in &children[s] {
                depth[to as usize] = depth[s] + 1;
                order.push(to);
            }
            at += 1;
        }
        let mut new_id = vec![0u32; children.len()];
        for (i, &s) in order.iter().enumerate() {
            new_id[s as usize] = i as u32;
        }
        let n = order.len();
        let kids: Vec<Vec<(u8, u32)>> = order
            .iter()
            .map(|&s| children[s as usize].iter().map(|&(c, to)| (c, new_id[to as usize])).collect())
            .collect();
        // A state has a row when it is near the root and reached by ASCII bytes (or is within
        // [`FOREIGN_ROW_DEPTH`] of the root): the row states are closed under failure (a
        // suffix of an ASCII path is one, and a shorter one), so every row resolves from a row.
        let ascii = {
            let mut ascii = [false; 256];
            (0..128).filter(|&b| classes[b] != 0).for_each(|b| ascii[usize::from(classes[b])] = true);
            ascii
        };
        let mut foreign = vec![false; n];
        for s in 0..n {
            for &(c, to) in &kids[s] {
                foreign[to as usize] = foreign[s] || !ascii[usize::from(c)];
            }
        }
        let has_row = |s: usize| {
            let d = depth[order[s] as usize];
            d <= ROW_DEPTH && (!foreign[s] || d <= FOREIGN_ROW_DEPTH)
        };
        // Row states first, each group in breadth-first order: `place[s]` is where state `s`
        // (numbered breadth first) sits among its group.
        let rows = (0..n).filter(|&s| has_row(s)).count();
        let mut place = vec![0usize; n];
        let (mut next_row, mut next_deep) = (0, 0);
        for (s, at) in place.iter_mut().enumerate() {
            if has_row(s) {
                *at = next_row;
                next_row += 1;
            } else {
                *at = next_deep;
                next_deep += 1;
            }
        }
        // Failure links and outputs, breadth first: a state's failure state is shallower.
        let child = |s: usize, c: u8| kids[s].iter().find(|(k, _)| *k == c).map(|&(_, to)| to as usize);
        let mut fail = vec![0usize; n];
        let mut union: Vec<Rules> = order.iter().map(|&s| own[s as usize]).collect();
        for s in 0..n {
            if s > 0 {
                let inherited = union[fail[s]];
                union[s] |= inherited;
            }
            for &(c, to) in &kids[s] {
                fail[to as usize] = if s == 0 {
                    0
                } else {
                    let mut f = fail[s];
                    loop {
                        if let Some(next) = child(f, c) {
                            break next;
                        }
                        if f == 0 {
                            break 0;
                        }
                        f = fail[f];
                    }
                };
            }
        }
        let mut masks = vec![Rules::default()];
        let mut index: HashMap<Rules, usize> = HashMap::new();
        let out: Vec<usize> = union
            .iter()
            .map(|&m| {
                if m.is_empty() {
                    return 0;
                }
                *index.entry(m).or_insert_with(|| {
                    masks.push(m);
                    masks.len() - 1
                })
            })
            .collect();
        let rows_end = u32::try_from(rows * alphabet).ok().filter(|e| *e < OUT / 2).expect("rows fit in a name");
        let name = |s: usize| {
            let at = if has_row(s) { place[s] * alphabet } else { rows_end as usize + place[s] };
            at as u32 | if out[s] != 0 { OUT } else { 0 }
        };
        assert!(n - rows < (OUT / 2) as usize && masks.len() <= usize::from(u16::MAX), "automaton too large");
        // Filled breadth first, so a row's failure state (shallower, and a row) is filled first.
        let mut table = vec![0u32; rows * alphabet];
        let mut row_out = vec![0u32; rows];
        for s in (0..n).filter(|&s| has_row(s)) {
            let at = place[s] * alphabet;
            for c in 0..alphabet {
                table[at + c] = match child(s, c as u8) {
                    Some(to) => name(to),
                    None if s == 0 => 0,
                    None => table[place[fail[s]] * alphabet + c],
                };
            }
            row_out[place[s]] = out[s] as u32;
        }
        let mut edges = Vec::new();
        let deep = (0..n)
            .filter(|&s| !has_row(s))
            .map(|s| {
                let from = edges.len() as u32;
                edges.extend(kids[s].iter().map(|&(c, to)| (c, name(to as usize))));
                Deep { fail: name(fail[s]), from, len: kids[s].len() as u16, out: out[s] as u16 }
            })
            .collect();
        Automaton { classes, table, rows_end, deep, edges, row_out, masks }
    }

    /// The rules of every literal `text` holds.
    pub fn rules_in(&self, text: &[u8]) -> Rules {
        let mut found = Rules::default();
        let mut s = 0u32;
        for &b in text {
            s = self.next(s & !OUT, self.classes[usize::from(b)]);
            if s & OUT != 0 {
                found |= self.rules_at(s & !OUT);
            }
        }
        found
    }

    /// The rules of the literals ending at state `s` (named without [`OUT`]).
    #[cold]
    fn rules_at(&self, s: u32) -> Rules {
        let o = if s < self.rows_end {
            let alphabet = self.table.len() / self.row_out.len();
            self.row_out[s as usize / alphabet] as usize
        } else {
            usize::from(self.deep[(s - self.rows_end) as usize].out)
        };
        self.masks[o]
    }

    #[inline(always)]
    fn next(&self, mut s: u32, c: u8) -> u32 {
        loop {
            if s < self.rows_end {
                return self.table[(s + u32::from(c)) as usize];
            }
            let d = &self.deep[(s - self.rows_end) as usize];
            let from = d.from as usize;
            if let Some(&(_, to)) = self.edges[from..from + usize::from(d.len)].iter().find(|(k, _)| *k == c) {
                return to;
            }
            s = d.fail & !OUT;
        }
    }

    /// Bytes held, for the comment's measure.
    #[cfg(test)]
    pub fn memory(&self) -> usize {
        self.table.len() * 4
            + self.deep.len() * std::mem::size_of::<Deep>()
            + self.edges.len() * std::mem::size_of::<(u8, u32)>()
            + self.row_out.len() * 4
            + self.masks.len() * std::mem::size_of::<Rules>()
    }
}
