//! Accesses of packed external memories (`width = N`: `N` elements a
//! word, `memories.rs`) as word accesses, combined where they share a
//! word. An element address `a` is word `a div N`, lane `a mod N`.
//!
//! Where the lane is known at compile time, accesses of one block that
//! fall in the same word share one access: the address is read as a sum
//! of terms (an induction variable or another value times a constant)
//! and a constant, and the terms' residue mod `N` follows from the loops'
//! constant lower bounds and steps (an unrolled loop's `i`, stepping by
//! 4 from 0, is 0 mod 4), so `A[i]` .. `A[i + 3]` are lanes 0 to 3 of
//! the word `i div 4`. Loads of a word read it once (a load extracts its
//! lane from the word); stores to a word in one block become one store
//! of the lanes written, each lane's write-enable its store's predicate,
//! placed where the last of them was. A store is not moved past an
//! access it may conflict with: a load of a lane it writes, or any
//! access of a word whose terms differ (it may be the same word); those
//! flush the pending store first. Loads after a store re-read the lanes
//! it wrote.
//!
//! Where the lane is not known, an access reads or writes its word with
//! the lane found at run time, alone: a load picks its lane by a
//! multiplexer tree on the lane's bits, a store writes its element
//! copied into every lane with the write enable of its lane alone (no
//! shifter as wide as the word on either path).

use crate::model::kernel::{Kernel, MemId, Node, NodeId, Op, Predicate, Val};

/// Makes every access of a packed memory of `k` a word access.
pub fn widen(k: &mut Kernel) {
    if k.memories.iter().all(|m| m.lanes <= 1) {
        return;
    }
    for b in 0..k.blocks.len() {
        let nodes = std::mem::take(&mut k.blocks[b]);
        let mut w = Block {
            k,
            block: b,
            out: Vec::with_capacity(nodes.len()),
            loads: Vec::new(),
            pending: Vec::new(),
        };
        for n in nodes {
            w.node(n);
        }
        w.flush(|_| true);
        let out = std::mem::take(&mut w.out);
        k.blocks[b] = out;
    }
    k.compact();
}

/// A word of a memory whose lane is known: the terms of its address
/// (sorted) and the word's index relative to their sum's word.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Word {
    memory: MemId,
    terms: Vec<(Val, i64)>,
    offset: i64,
}

impl Word {
    /// Whether an access of `self` and one of `other` may touch the same
    /// word of the same memory.
    fn may_alias(&self, other: &Word) -> bool {
        self.memory == other.memory && (self.terms != other.terms || self.offset == other.offset)
    }
}

/// A word read, and the lanes stores wrote since (which it no longer
/// holds).
struct Load {
    word: Word,
    predicate: Option<Val>,
    value: Val,
    stale: Vec<u32>,
}

/// Stores to one word not emitted yet: per lane, the data and the
/// predicate (none: always written).
struct Pending {
    word: Word,
    address: Val,
    lanes: Vec<(u32, Val, Option<Val>)>,
    /// The stores it stands for, in program order.
    stores: Vec<NodeId>,
}

struct Block<'a> {
    k: &'a mut Kernel,
    block: usize,
    out: Vec<NodeId>,
    loads: Vec<Load>,
    pending: Vec<Pending>,
}

impl Block<'_> {
    /// A new node of the block, after those emitted, with `like`'s
    /// location and source.
    fn emit(&mut self, like: NodeId, op: Op, args: Vec<Val>, width: u32) -> Val {
        let (loc, source) = (self.k.nodes[like].loc, self.k.nodes[like].source);
        let id = self.k.nodes.len();
        self.k.nodes.push(Node {
            op,
            args,
            width,
            loc,
            block: self.block,
            source,
        });
        self.out.push(id);
        Val::Node(id)
    }

    /// `v` shifted left by `by` bits at `width` (none for 0).
    fn shifted(&mut self, like: NodeId, v: Val, by: u32, width: u32) -> Val {
        let v = self.emit(like, Op::ZExt, vec![v], width);
        if by == 0 {
            return v;
        }
        let s = self.k.constant(i128::from(by), width);
        self.emit(like, Op::Shl, vec![v, s], width)
    }

    fn node(&mut self, n: NodeId) {
        let (m, store) = match self.k.nodes[n].op {
            Op::Load(m) => (m, false),
            Op::Store(m) => (m, true),
            _ => {
                self.out.push(n);
                return;
            }
        };
        let lanes = self.k.memories[m].lanes;
        if lanes <= 1 {
            self.out.push(n);
            return;
        }
        let address = self.k.nodes[n].args[0];
        match (known_lane(self.k, m, address, lanes), store) {
            (Some((word, lane)), false) => self.load(n, word, lane),
            (Some((word, lane)), true) => self.store(n, word, lane, address),
            (None, store) => self.at_run_time(n, m, store),
        }
    }

    /// Load `n` of lane `lane` of `word`: the word read (by an earlier
    /// load where one holds the lane), the lane taken from it.
    fn load(&mut self, n: NodeId, word: Word, lane: u32) {
        self.flush(|p| {
            p.word.may_alias(&word)
                && (p.word != word || p.lanes.iter().any(|&(l, _, _)| l == lane))
        });
        let predicate = self.k.nodes[n].args.get(1).copied();
        let m = word.memory;
        let held = self.loads.iter().find(|l| {
            l.word == word
                && (l.predicate.is_none() || l.predicate == predicate)
                && !l.stale.contains(&lane)
        });
        let value = match held {
            Some(l) => {
                let value = l.value;
                self.stands_also_for(value, n);
                value
            }
            None => {
                let address = self.word_address(n, self.k.nodes[n].args[0], word.memory);
                let width = self.k.memories[word.memory].word_width();
                let mut args = vec![address];
                args.extend(predicate);
                let value = self.emit(n, Op::Load(word.memory), args, width);
                self.loads.push(Load {
                    word,
                    predicate,
                    value,
                    stale: Vec::new(),
                });
                value
            }
        };
        self.lane_of(n, value, m, None, lane);
    }

    /// Node `n` made lane `lane` (or the lane `at`, found at run time) of
    /// `word`, a word of memory `m`.
    fn lane_of(&mut self, n: NodeId, word: Val, m: MemId, at: Option<Val>, lane: u32) {
        let (bits, width) = (
            self.k.memories[m].element_width,
            self.k.memories[m].word_width(),
        );
        let shifted = match at {
            Some(shift) => self.emit(n, Op::ShrU, vec![word, shift], width),
            None if lane == 0 => word,
            None => {
                let s = self.k.constant(i128::from(lane * bits), width);
                self.emit(n, Op::ShrU, vec![word, s], width)
            }
        };
        let node = &mut self.k.nodes[n];
        node.op = Op::Trunc;
        node.args = vec![shifted];
        node.width = bits;
        self.out.push(n);
    }

    /// Node `n` made the lane `lane` (an index found at run time, below
    /// the memory's lanes) of `word`, a word of memory `m`: the lanes
    /// cut from the word, chosen by a multiplexer tree on the lane's
    /// bits (or by comparisons where the lanes are no power of two).
    fn lane_at(&mut self, n: NodeId, word: Val, m: MemId, lane: Val) {
        let (bits, lanes, width) = (
            self.k.memories[m].element_width,
            self.k.memories[m].lanes,
            self.k.memories[m].word_width(),
        );
        let index = self.k.index_width;
        let mut picks: Vec<Val> = (0..lanes)
            .map(|j| {
                let s = self.k.constant(i128::from(j * bits), width);
                let at = self.emit(n, Op::ShrU, vec![word, s], width);
                self.emit(n, Op::Trunc, vec![at], bits)
            })
            .collect();
        // Multiplexers of `(condition, hi, lo)`, level by level; the last
        // one is `n` itself.
        let mut last = None;
        if lanes.is_power_of_two() {
            let mut level = 0;
            while picks.len() > 1 {
                let s = self.k.constant(i128::from(level), index);
                let shifted = self.emit(n, Op::ShrU, vec![lane, s], index);
                let bit = self.emit(n, Op::Trunc, vec![shifted], 1);
                let pairs: Vec<(Val, Val)> = picks.chunks(2).map(|p| (p[1], p[0])).collect();
                if pairs.len() == 1 {
                    last = Some((bit, pairs[0].0, pairs[0].1));
                    break;
                }
                picks = pairs
                    .into_iter()
                    .map(|(hi, lo)| self.emit(n, Op::Mux, vec![bit, hi, lo], bits))
                    .collect();
                level += 1;
            }
        } else {
            let mut acc = picks[0];
            for (j, &p) in picks.iter().enumerate().skip(1) {
                let c = self.k.constant(j as i128, index);
                let is = self.emit(n, Op::Cmp(Predicate::Eq), vec![lane, c], 1);
                if j + 1 == picks.len() {
                    last = Some((is, p, acc));
                } else {
                    acc = self.emit(n, Op::Mux, vec![is, p, acc], bits);
                }
            }
        }
        let Some((condition, hi, lo)) = last else {
            unreachable!("a packed memory has two lanes or more")
        };
        let node = &mut self.k.nodes[n];
        node.op = Op::Mux;
        node.args = vec![condition, hi, lo];
        node.width = bits;
        self.out.push(n);
    }

    /// Store `n` to lane `lane` of `word` (element address `address`):
    /// pending, with the other stores to the word in the block.
    fn store(&mut self, n: NodeId, word: Word, lane: u32, address: Val) {
        self.flush(|p| p.word.may_alias(&word) && p.word != word);
        let args = self.k.nodes[n].args.clone();
        let (data, predicate) = (args[1], args.get(2).copied());
        let i = match self.pending.iter().position(|p| p.word == word) {
            Some(i) => i,
            None => {
                self.pending.push(Pending {
                    word,
                    address,
                    lanes: Vec::new(),
                    stores: Vec::new(),
                });
                self.pending.len() - 1
            }
        };
        let earlier = self.pending[i]
            .lanes
            .iter()
            .position(|&(l, _, _)| l == lane);
        let written = match earlier {
            None => (lane, data, predicate),
            Some(e) => {
                let (_, d1, p1) = self.pending[i].lanes.remove(e);
                match predicate {
                    None => (lane, data, None),
                    Some(p2) => {
                        let bits = self.k.width(data);
                        let d = self.emit(n, Op::Mux, vec![p2, data, d1], bits);
                        let p = p1.map(|p1| self.emit(n, Op::Or, vec![p1, p2], 1));
                        (lane, d, p)
                    }
                }
            }
        };
        self.pending[i].lanes.push(written);
        self.pending[i].stores.push(n);
    }

    /// Emits the pending stores `which` selects, each a store of its
    /// word's lanes; the loads they make stale are marked.
    fn flush(&mut self, which: impl Fn(&Pending) -> bool) {
        let (go, keep): (Vec<Pending>, Vec<Pending>) = std::mem::take(&mut self.pending)
            .into_iter()
            .partition(|p| which(p));
        self.pending = keep;
        for p in go {
            self.emit_store(p);
        }
    }

    fn emit_store(&mut self, p: Pending) {
        let m = p.word.memory;
        let (bits, lanes, width) = (
            self.k.memories[m].element_width,
            self.k.memories[m].lanes,
            self.k.memories[m].word_width(),
        );
        let like = p.stores[0];
        let address = self.word_address(like, p.address, m);
        let mut data: Option<Val> = None;
        let mut fixed = 0u128;
        let mut enables: Vec<Val> = Vec::new();
        for &(lane, d, predicate) in &p.lanes {
            let placed = self.shifted(like, d, lane * bits, width);
            data = Some(match data {
                Some(x) => self.emit(like, Op::Or, vec![x, placed], width),
                None => placed,
            });
            match predicate {
                None => fixed |= 1 << lane,
                Some(q) => enables.push(self.shifted(like, q, lane, lanes)),
            }
        }
        let mut mask = self.k.constant(fixed as i128, lanes);
        for e in enables {
            mask = self.emit(like, Op::Or, vec![mask, e], lanes);
        }
        let data = data.unwrap_or_else(|| self.k.constant(0, width));
        let store = self.emit(like, Op::Store(m), vec![address, data, mask], 0);
        for &n in &p.stores[1..] {
            self.stands_also_for(store, n);
        }
        for l in &mut self.loads {
            if l.word == p.word {
                l.stale.extend(p.lanes.iter().map(|&(lane, _, _)| lane));
            } else if l.word.may_alias(&p.word) {
                l.stale.extend(0..lanes);
            }
        }
    }

    /// Records that word access `word` stands for the input access node
    /// `n` stood for too (the dependences of both are its).
    fn stands_also_for(&mut self, word: Val, n: NodeId) {
        let Val::Node(w) = word else { return };
        let source = self.k.nodes[n].source;
        if self.k.nodes[w].source != source {
            self.k.combined.entry(w).or_default().push(source);
        }
    }

    /// The word address of element address `address` of memory `m`.
    fn word_address(&mut self, like: NodeId, address: Val, m: MemId) -> Val {
        let lanes = i64::from(self.k.memories[m].lanes);
        match self.k.const_value(address) {
            Some(c) => self
                .k
                .constant(c.div_euclid(i128::from(lanes)), self.k.index_width),
            None => self.emit(
                like,
                Op::FloorDivC(lanes),
                vec![address],
                self.k.index_width,
            ),
        }
    }

    /// Access `n` of a packed memory whose lane is found at run time:
    /// after every pending store of the memory, alone.
    fn at_run_time(&mut self, n: NodeId, m: MemId, store: bool) {
        self.flush(|p| p.word.memory == m);
        let (bits, lanes, width) = (
            self.k.memories[m].element_width,
            self.k.memories[m].lanes,
            self.k.memories[m].word_width(),
        );
        let args = self.k.nodes[n].args.clone();
        let address = self.word_address(n, args[0], m);
        let lane = self.emit(
            n,
            Op::ModC(i64::from(lanes)),
            vec![args[0]],
            self.k.index_width,
        );
        if !store {
            let mut load_args = vec![address];
            load_args.extend(args.get(1).copied());
            let word = self.emit(n, Op::Load(m), load_args, width);
            return self.lane_at(n, word, m, lane);
        }
        // The element in every lane; the write enable picks its lane.
        let mut data = self.emit(n, Op::ZExt, vec![args[1]], width);
        let mut filled = 1;
        while filled < lanes {
            let s = self.k.constant(i128::from(filled * bits), width);
            let up = self.emit(n, Op::Shl, vec![data, s], width);
            data = self.emit(n, Op::Or, vec![data, up], width);
            filled *= 2;
        }
        let enable = match args.get(2) {
            Some(&p) => self.emit(n, Op::ZExt, vec![p], lanes),
            None => self.k.constant(1, lanes),
        };
        let at = self.emit(n, Op::ZExt, vec![lane], lanes);
        let mask = self.emit(n, Op::Shl, vec![enable, at], lanes);
        for l in &mut self.loads {
            if l.word.memory == m {
                l.stale.extend(0..lanes);
            }
        }
        let node = &mut self.k.nodes[n];
        node.args = vec![address, data, mask];
        self.out.push(n);
    }
}

/// The word and lane of element address `address` of memory `m`
/// (`lanes` a word), where the lane is known at compile time.
fn known_lane(k: &Kernel, m: MemId, address: Val, lanes: u32) -> Option<(Word, u32)> {
    let n = i64::from(lanes);
    let (mut terms, constant) = linear(k, address, 16)?;
    let mut residue = 0i64;
    for &(v, c) in &terms {
        if c.rem_euclid(n) == 0 {
            continue;
        }
        let Val::Iv(l) = v else { return None };
        let lp = &k.loops[l];
        if lp.test.is_some() || (c * lp.step).rem_euclid(n) != 0 {
            return None;
        }
        residue += c * lp.lower.constant()?;
    }
    let element = residue.rem_euclid(n) + constant;
    terms.sort_by_key(|&(v, c)| (order(v), c));
    let word = Word {
        memory: m,
        terms,
        offset: element.div_euclid(n),
    };
    Some((word, element.rem_euclid(n) as u32))
}

/// A sort key of a value.
fn order(v: Val) -> (u8, usize, usize) {
    match v {
        Val::Node(n) => (0, n, 0),
        Val::Arg(a) => (1, a, 0),
        Val::Iv(l) => (2, l, 0),
        Val::Carried(l, i) => (3, l, i),
        Val::Const(c) => (4, c, 0),
        Val::Result(c, i) => (5, c, i),
    }
}

/// `v` as a sum of terms (a value times a constant, values the sum does
/// not see into) and a constant, through `depth` levels of additions,
/// subtractions and products and shifts by constants.
fn linear(k: &Kernel, v: Val, depth: u32) -> Option<(Vec<(Val, i64)>, i64)> {
    if let Some(c) = k.const_value(v) {
        return Some((Vec::new(), i64::try_from(c).ok()?));
    }
    let atom = || Some((vec![(v, 1)], 0));
    let Val::Node(n) = v else { return atom() };
    let node = &k.nodes[n];
    if depth == 0 || node.width != k.index_width {
        return atom();
    }
    let arg = |i: usize| linear(k, node.args[i], depth - 1);
    let constant = |i: usize| {
        k.const_value(node.args[i])
            .and_then(|c| i64::try_from(c).ok())
    };
    let scaled = |(t, c): (Vec<(Val, i64)>, i64), by: i64| {
        let t = t
            .into_iter()
            .map(|(v, x)| Some((v, x.checked_mul(by)?)))
            .collect::<Option<Vec<_>>>()?;
        Some((t, c.checked_mul(by)?))
    };
    let sum = |a: (Vec<(Val, i64)>, i64), b: (Vec<(Val, i64)>, i64), sign: i64| {
        let mut t = a.0;
        for (v, x) in b.0 {
            let x = x.checked_mul(sign)?;
            match t.iter_mut().find(|(w, _)| *w == v) {
                Some(e) => e.1 = e.1.checked_add(x)?,
                None => t.push((v, x)),
            }
        }
        t.retain(|&(_, x)| x != 0);
        Some((t, a.1.checked_add(b.1.checked_mul(sign)?)?))
    };
    match node.op {
        Op::Add => sum(arg(0)?, arg(1)?, 1),
        Op::Sub => sum(arg(0)?, arg(1)?, -1),
        Op::Mul => match (constant(0), constant(1)) {
            (Some(c), _) => scaled(arg(1)?, c),
            (_, Some(c)) => scaled(arg(0)?, c),
            _ => atom(),
        },
        Op::Shl => match constant(1).filter(|&s| (0..32).contains(&s)) {
            Some(s) => scaled(arg(0)?, 1 << s),
            None => atom(),
        },
        _ => atom(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::kernel;

    /// The kernel `f` of `text` with memory `a` packed `lanes` a word,
    /// widened.
    fn widened(text: &str, lanes: u32) -> Kernel {
        let mut k = kernel(text, "f");
        let a = k.memories.iter().position(|m| m.name == "a").unwrap();
        k.memories[a].lanes = lanes;
        widen(&mut k);
        k
    }

    fn count(k: &Kernel, f: impl Fn(Op) -> bool) -> usize {
        k.blocks
            .iter()
            .flatten()
            .filter(|&&n| f(k.nodes[n].op))
            .count()
    }

    #[test]
    fn an_unrolled_body_reads_and_writes_one_word() {
        let k = widened(
            "func.func @f(%a: memref<16xi16> {hls.name = \"a\"}) {
               affine.for %i = 0 to 16 step 4 {
                 %x0 = affine.load %a[%i] : memref<16xi16>
                 %x1 = affine.load %a[%i + 1] : memref<16xi16>
                 %x2 = affine.load %a[%i + 2] : memref<16xi16>
                 %x3 = affine.load %a[%i + 3] : memref<16xi16>
                 %y0 = arith.addi %x0, %x1 : i16
                 %y1 = arith.addi %x2, %x3 : i16
                 affine.store %y0, %a[%i] : memref<16xi16>
                 affine.store %y1, %a[%i + 3] : memref<16xi16>
               }
               return
             }",
            4,
        );
        assert_eq!(count(&k, |o| matches!(o, Op::Load(_))), 1);
        assert_eq!(count(&k, |o| matches!(o, Op::Store(_))), 1);
        let store = k
            .blocks
            .iter()
            .flatten()
            .find(|&&n| matches!(k.nodes[n].op, Op::Store(_)))
            .unwrap();
        // Lanes 0 and 3 written.
        assert_eq!(
            k.const_value(k.nodes[*store].args[2]).map(|m| m & 0xf),
            Some(0b1001)
        );
    }

    #[test]
    fn a_store_between_loads_of_its_lane_reads_again() {
        let k = widened(
            "func.func @f(%a: memref<16xi16> {hls.name = \"a\"}) {
               affine.for %i = 0 to 16 step 2 {
                 %x0 = affine.load %a[%i] : memref<16xi16>
                 %y0 = arith.addi %x0, %x0 : i16
                 affine.store %y0, %a[%i] : memref<16xi16>
                 %x1 = affine.load %a[%i] : memref<16xi16>
                 %x2 = affine.load %a[%i + 1] : memref<16xi16>
                 %y1 = arith.addi %x1, %x2 : i16
                 affine.store %y1, %a[%i + 1] : memref<16xi16>
               }
               return
             }",
            2,
        );
        // The first load serves lane 1 too; the store to lane 0 comes
        // before the second read of lane 0, which reads again.
        assert_eq!(count(&k, |o| matches!(o, Op::Load(_))), 2);
        assert_eq!(count(&k, |o| matches!(o, Op::Store(_))), 2);
    }

    #[test]
    fn an_unknown_lane_is_found_at_run_time() {
        let k = widened(
            "func.func @f(%a: memref<16xi16> {hls.name = \"a\"}, %j: index) {
               %x = affine.load %a[%j] : memref<16xi16>
               affine.store %x, %a[%j + 1] : memref<16xi16>
               return
             }",
            4,
        );
        assert_eq!(count(&k, |o| matches!(o, Op::ModC(4))), 2);
        assert_eq!(count(&k, |o| matches!(o, Op::Load(_))), 1);
        assert_eq!(count(&k, |o| matches!(o, Op::Store(_))), 1);
    }
}
