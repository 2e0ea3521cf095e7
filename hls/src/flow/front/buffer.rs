//! `buffer = true` on an external memory `A`: the kernel works on an
//! on-chip copy, `A_buf` (a `memref.alloc` of `A`'s type, an on-chip RAM
//! that `partition` and `ports` directives naming `A_buf` apply to). The
//! copy is filled from `A` before the kernel's body and, where the
//! kernel writes `A`, written back after it, so every element of `A`
//! crosses its ports once each way however often the body touches it.
//!
//! The copies of all buffered memories share one loop in (`copy_in`)
//! and one out (`copy_out`), so they use their ports at once (one pair
//! per count of lanes, `copy_in_4`, where those differ); under
//! `dataflow`, a copy that an op of the body before the last writer
//! writes last is written back right after that op (`copy_out_A`), so
//! that it crosses its ports while the later ops run. The loop steps
//! over the elements a word at a time (the `width` directive's
//! elements, which `widen.rs` reads or writes as one access; a memory of
//! fewer whole words under an `affine.if`), and the elements past the
//! last whole word follow the loop. The loops are marked `hls.copy`, so the
//! positions of the kernel's own loops in report paths stay as written.
//! A copy with no partition of its own is split into banks so that the
//! body's unrolled accesses reach distinct ones: along the dimension an
//! unrolled loop's counter indexes, as many banks as the loop's copies
//! (every index one where that many or more), else a bank a lane on its
//! last dimension, so that a word is written a cycle; a copy read and
//! written in one loop, or whose words' lanes share a bank (banks along
//! another dimension), gets two ports where none are asked for.
//! A memory passed to anything but loads and stores (a call, a DMA
//! transfer) stays where it is.

use super::arg_name;
use super::directives::{set_attr, write_array_attrs};
use super::names;
use super::partition::MAX_BANKS;
use super::scale_copy;
use crate::model::directives::{
    ArrayDirectives, Directives, Log, Origin, Partition, PartitionKind, Partitioning, Pipeline,
    Setting, Unroll,
};
use silica_affine::for_op::{self, Bound};
use silica_affine::loops::constant_trip_count;
use silica_affine::region::affine_access;
use silica_ir::affine::{AffineExpr, AffineMap, BinOp, IntegerSet};
use silica_ir::affine_flatten::flatten_linear;
use silica_ir::dialect::inherent_attr;
use silica_ir::{
    Attr, AttrKind, BlockId, Context, Ir, OpId, OpSpec, Type, TypeKind, ValueDef, ValueId,
};

/// The marker of a copy loop.
pub const COPY: &str = "hls.copy";

/// The name of the on-chip copy of array `array`.
pub fn buffer_name(array: &str) -> String {
    format!("{array}_buf")
}

/// Whether `op` is a copy loop this step made.
pub fn is_copy_loop(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    inherent_attr(ctx, ir, op, COPY).is_some()
}

/// Buffers every external memory of function `func` (named `top`) whose
/// `buffer` directive in `d` asks for it (a copy with no partition gets
/// its default in `d`); the outcomes go to `log`.
pub fn buffer(
    ctx: &mut Context,
    ir: &mut Ir,
    func: OpId,
    top: &str,
    d: &mut Directives,
    log: &mut Log,
) {
    let (_, arrays) = names::collect(ctx, ir, func, top);
    let Some(entry) = ir.regions(func).next().and_then(|r| ir.entry_block(r)) else {
        return;
    };
    let mut copies = Vec::new();
    let arrays_wanted: Vec<(String, ArrayDirectives)> = d
        .arrays
        .iter()
        .map(|(n, a)| (n.clone(), a.clone()))
        .collect();
    for (name, ad) in &arrays_wanted {
        let Some(s) = ad.buffer.as_ref().filter(|s| s.value) else {
            continue;
        };
        let Some(arg) = arrays.iter().find(|a| &a.name == name).and_then(|a| a.arg) else {
            log.refused(
                s,
                name,
                "buffer".into(),
                "an on-chip array needs no copy".into(),
            );
            continue;
        };
        let memref = ir.block_args(entry)[arg];
        match of(ctx, ir, memref) {
            Err(why) => log.refused(s, name, "buffer".into(), why),
            Ok(mut copy) => {
                copy.name.clone_from(name);
                copy.lanes = ad.width.as_ref().map_or(1, |w| w.value.max(1));
                copy.fold = scale_copy::fold(ctx, ir, entry, memref, &copy.shape);
                copy.demand = demand(ctx, ir, memref, d);
                copies.push((copy, s.clone()));
            }
        }
    }
    let Some(body) = ir.first_op(entry).filter(|_| !copies.is_empty()) else {
        return;
    };
    let loc = ir.op_loc(func);
    for (copy, s) in &mut copies {
        let (partition, ports) = own_directives(copy, d, s);
        copy.buffer = Some(allocate(ctx, ir, copy, d, (body, loc)));
        let mut what = format!(
            "{}, an on-chip RAM of {} elements: read in before the body (copy_in)",
            buffer_name(&copy.name),
            copy.elements()
        );
        if let Some(f) = &copy.fold {
            let factor = match ir.value_def(f.factor) {
                ValueDef::Argument { index, .. } => arg_name(ctx, ir, func, index as usize)
                    .unwrap_or_else(|| crate::model::interface::names::arg(index as usize)),
                _ => "its scalar".into(),
            };
            what.push_str(&format!(
                ", each element multiplied by {factor} as it is read in (the body's products by it)"
            ));
        }
        if copy.writes {
            what.push_str(", written back after it (copy_out)");
        }
        if let Some(p) = &partition {
            let why = if copy.demand.parallel.is_empty() {
                "for a word a cycle"
            } else {
                "for the unrolled accesses"
            };
            let each: Vec<String> = (p.0.iter())
                .map(|q| match q.kind {
                    PartitionKind::Complete => format!("a bank an index of dimension {}", q.dim),
                    _ => format!("{} banks on dimension {}", q.factor, q.dim),
                })
                .collect();
            what.push_str(&format!("; {} {why}", each.join(" by ")));
        }
        if ports {
            what.push_str("; two ports, for the accesses of one loop");
        }
        log.honoured(s, &copy.name, "buffer".into(), what);
    }
    // One loop each way per count of lanes (a loop steps by a word); out,
    // under `dataflow`, one per count of lanes and op of the body that
    // writes the copies last, right after it: what the later ops leave
    // alone is written back while they run.
    let mut lanes: Vec<u32> = copies.iter().map(|(c, _)| c.lanes).collect();
    lanes.sort_unstable();
    lanes.dedup();
    let end = ir
        .last_op(entry)
        .expect("a function body ends with its return");
    let position: Vec<OpId> = ir.block_ops(entry).collect();
    let concurrent = d.dataflow.as_ref().is_some_and(|s| s.value);
    let last_writer = |ctx: &Context, ir: &Ir, c: &Copy| {
        let buffer = c.buffer.expect("a copy is allocated before its loops");
        (ir.uses(buffer).map(|u| ir.use_owner(u)))
            .filter(|&op| {
                matches!(ctx.str(ir.op_name(op)), "affine.store" | "memref.store")
                    && ir.operand(op, 1) == buffer
            })
            .filter_map(|op| {
                let top = top_level(ir, entry, op)?;
                position.iter().position(|&o| o == top)
            })
            .max()
    };
    for &l in &lanes {
        let label = |way: &str| match lanes.len() {
            1 => format!("copy_{way}"),
            _ => format!("copy_{way}_{l}"),
        };
        let group: Vec<&Copy> = copies
            .iter()
            .map(|(c, _)| c)
            .filter(|c| c.lanes == l)
            .collect();
        for op in copy_ops(ctx, ir, &group, true, (&label("in"), loc)) {
            ir.insert_op_before(body, op);
        }
        // Where each copy is written back: after the op at that position,
        // or (`None`) at the end, where one after another all copies out
        // share a loop and cross their ports at once.
        let mut out: Vec<(Option<usize>, &Copy)> = (group.iter())
            .filter(|c| c.writes)
            .map(|c| (concurrent.then(|| last_writer(ctx, ir, c)).flatten(), *c))
            .collect();
        let last = out.iter().filter_map(|&(at, _)| at).max();
        for (at, _) in &mut out {
            if *at == last {
                *at = None;
            }
        }
        out.sort_by_key(|&(at, _)| at);
        for these in out.chunk_by(|a, b| a.0 == b.0) {
            let copies: Vec<&Copy> = these.iter().map(|&(_, c)| c).collect();
            match these[0].0 {
                None => {
                    for op in copy_ops(ctx, ir, &copies, false, (&label("out"), loc)) {
                        ir.insert_op_before(end, op);
                    }
                }
                Some(at) => {
                    let name = format!("{}_{}", label("out"), copies[0].name);
                    let mut after = position[at];
                    for op in copy_ops(ctx, ir, &copies, false, (&name, loc)) {
                        ir.insert_op_after(after, op);
                        after = op;
                    }
                }
            }
        }
    }
}

/// The op of block `entry` that holds `op`, if any.
fn top_level(ir: &Ir, entry: BlockId, mut op: OpId) -> Option<OpId> {
    while ir.op_block(op)? != entry {
        op = ir.parent_op(op)?;
    }
    Some(op)
}

/// One memory's copy.
struct Copy {
    name: String,
    memref: ValueId,
    ty: Type,
    shape: Vec<i64>,
    element: Type,
    writes: bool,
    /// Elements a word of the memory's ports.
    lanes: u32,
    /// What the body's accesses ask of the copy.
    demand: Demand,
    /// The product by a scalar the copy in applies (the body's).
    fold: Option<scale_copy::Fold>,
    /// The on-chip copy, once made.
    buffer: Option<ValueId>,
}

/// What the body's accesses of a memory ask of its copy.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Demand {
    /// Each dimension (from 0) an unrolled loop's counter indexes, and
    /// the loop's copies (the most of any access), in the order of the
    /// dimensions.
    parallel: Vec<(usize, u64)>,
    /// Some access has an unrolled loop indexing two of its dimensions,
    /// or a dimension indexed by two unrolled loops (its bank along such
    /// a dimension moves with more than one of its copies).
    tangled: bool,
    /// Accessed more than once in the body of one loop (read and
    /// written, or read twice).
    shared: bool,
}

impl Copy {
    fn elements(&self) -> i64 {
        self.shape.iter().product()
    }

    /// The whole words of the memory's ports.
    fn words(&self) -> i64 {
        self.elements() / i64::from(self.lanes)
    }
}

/// The copy of `memref`, or why it stays where it is.
fn of(ctx: &Context, ir: &Ir, memref: ValueId) -> Result<Copy, String> {
    let ty = ir.value_type(memref);
    let TypeKind::MemRef { shape, element, .. } = ctx.type_kind(ty) else {
        return Err("it is not a memref".into());
    };
    let mut writes = false;
    for u in ir.uses(memref) {
        let owner = ir.use_owner(u);
        match ctx.str(ir.op_name(owner)) {
            "affine.load" | "memref.load" => {}
            "affine.store" | "memref.store" if ir.operand(owner, 1) == memref => writes = true,
            op => {
                return Err(format!(
                    "it is passed to '{op}', which works on the memory itself"
                ))
            }
        }
    }
    Ok(Copy {
        name: String::new(),
        memref,
        ty,
        shape: shape.to_vec(),
        element: *element,
        writes,
        lanes: 1,
        demand: Demand::default(),
        fold: None,
        buffer: None,
    })
}

/// What the accesses of `memref` ask of its copy: the unrolled loops
/// (their `unroll` and `jam` directives in `d`, or every loop inside a
/// loop to be pipelined, which unrolls fully) whose counter indexes one dimension
/// of an access, with coefficient 1.
fn demand(ctx: &mut Context, ir: &mut Ir, memref: ValueId, d: &Directives) -> Demand {
    let mut out = Demand::default();
    let users: Vec<OpId> = ir.uses(memref).map(|u| ir.use_owner(u)).collect();
    let mut bodies: Vec<OpId> = Vec::new();
    for op in users {
        let Some((_, map, operands, _)) = affine_access(ctx, ir, op) else {
            continue;
        };
        if let Some(parent) = ir.parent_op(op) {
            bodies.push(parent);
        }
        // The loops around the access, innermost first, each with whether
        // a loop around it is pipelined (which unrolls it fully).
        let mut loops = Vec::new();
        let mut at = ir.parent_op(op);
        while let Some(l) = at {
            if for_op::is_for(ctx, ir, l) {
                loops.push((l, false));
            }
            at = ir.parent_op(l);
        }
        let mut pipelined_around = false;
        // The dimensions this access's unrolled loops index.
        let mut dims_indexed: Vec<usize> = Vec::new();
        for (l, in_pipelined) in loops.iter_mut().rev() {
            *in_pipelined = pipelined_around;
            let pipelined = d.loops.get(l).and_then(|ld| ld.pipeline.as_ref());
            pipelined_around |= pipelined.is_some_and(|p| p.value != Pipeline::Off);
        }
        for (l, in_pipelined) in loops {
            let copies = match d.loops.get(&l).and_then(|ld| ld.unroll.as_ref()) {
                Some(u) => match u.value {
                    Unroll::Factor(k) => k,
                    Unroll::Full => constant_trip_count(ctx, ir, l).unwrap_or(1),
                },
                None if in_pipelined => constant_trip_count(ctx, ir, l).unwrap_or(1),
                None => 1,
            };
            // Unroll-and-jam runs as many of its iterations side by side.
            let jam = d.loops.get(&l).and_then(|ld| ld.jam.as_ref());
            let copies = copies.saturating_mul(jam.map_or(1, |j| j.value));
            let Some(iv) = for_op::induction_var(ir, l).filter(|_| copies > 1) else {
                continue;
            };
            let (nd, ns) = (map.num_dims, map.num_symbols);
            let Some(p) = operands
                .iter()
                .position(|&v| v == iv)
                .filter(|&p| p < nd as usize)
            else {
                continue;
            };
            let indexed: Vec<(usize, i64)> = (map.results.iter().enumerate())
                .filter_map(|(k, e)| Some((k, flatten_linear(e, nd, ns)?[p])))
                .filter(|&(_, c)| c != 0)
                .collect();
            out.tangled |= indexed.len() > 1;
            for &(k, _) in &indexed {
                out.tangled |= dims_indexed.contains(&k);
                dims_indexed.push(k);
            }
            if let [(k, 1 | -1)] = indexed[..] {
                match out.parallel.iter_mut().find(|(dim, _)| *dim == k) {
                    Some((_, u)) => *u = (*u).max(copies),
                    None => out.parallel.push((k, copies)),
                }
            }
        }
    }
    out.parallel.sort_unstable();
    out.shared = (bodies.iter().enumerate()).any(|(i, b)| bodies[i + 1..].contains(b));
    out
}

/// The partition and ports of `copy`'s buffer where no directive sets
/// them (set in `d`, derived at `s`, and given back): banks for
/// the demand's unrolled accesses, else a bank a lane of the last
/// dimension (those for unrolled accesses divided by the copy's
/// `bank_divisors` entry in `d`); two ports where one loop accesses it more than once.
fn own_directives(
    copy: &Copy,
    d: &mut Directives,
    s: &Setting<bool>,
) -> (Option<Partitioning>, bool) {
    // Only banks for unrolled accesses are made fewer (not a bank a lane).
    let divisor = (d.bank_divisors.get(&buffer_name(&copy.name)).copied())
        .filter(|_| !copy.demand.parallel.is_empty())
        .unwrap_or(1);
    let ad = d.arrays.entry(buffer_name(&copy.name)).or_default();
    let (partition, shared) = if ad.partition.is_some() {
        (None, copy.demand.shared)
    } else {
        let p = partitioning(copy).and_then(|p| fewer_banks(p, divisor, &copy.shape));
        // The lanes of a copied word that land in one bank are written
        // in one cycle through two ports.
        let spread = p.as_ref().is_some_and(|p| spreads_lanes(p, copy));
        (p, copy.demand.shared || (copy.lanes > 1 && !spread))
    };
    let ports = ad.ports.is_none() && shared;
    if ports {
        ad.ports = Some(Setting::new(2, s.loc, Origin::Derived));
    }
    if let Some(p) = &partition {
        ad.partition = Some(Setting::new(p.clone(), s.loc, Origin::Derived));
    }
    (partition, ports)
}

/// `p` with its banks divided by `divisor` or more (the dimension split
/// most divided, to the largest divisor of its banks that many times
/// fewer: a bank that was fixed for an access stays fixed); none where
/// a single bank is left.
fn fewer_banks(mut p: Partitioning, divisor: u64, shape: &[i64]) -> Option<Partitioning> {
    if divisor <= 1 {
        return Some(p);
    }
    let banks = |q: &Partition| match q.kind {
        PartitionKind::Complete => u64::try_from(shape[q.dim as usize - 1]).unwrap_or(1),
        _ => q.factor,
    };
    let most = (0..p.0.len()).max_by_key(|&i| banks(&p.0[i]))?;
    let n = banks(&p.0[most]);
    let fewer = (1..=n / divisor).rev().find(|f| n % f == 0).unwrap_or(1);
    if fewer <= 1 {
        p.0.remove(most);
    } else {
        p.0[most] = Partition {
            dim: p.0[most].dim,
            kind: PartitionKind::Cyclic,
            factor: fewer,
        };
    }
    (!p.0.is_empty()).then_some(p)
}

/// Whether the banks of `p` put the lanes of each of `copy`'s words in
/// distinct banks known at compile time: split cyclically along the last
/// dimension by a multiple of the lanes that divides its size (or a bank
/// an index, of a size the lanes divide), so that lane `j`'s banks are
/// those `j` modulo the lanes.
fn spreads_lanes(p: &Partitioning, copy: &Copy) -> bool {
    let lanes = u64::from(copy.lanes);
    let Some(size) = copy.shape.last().and_then(|&s| u64::try_from(s).ok()) else {
        return false;
    };
    p.of_dim(copy.shape.len() as u32)
        .is_some_and(|p| match p.kind {
            PartitionKind::Complete => size % lanes == 0,
            PartitionKind::Cyclic => p.factor % lanes == 0 && size % p.factor == 0,
            PartitionKind::Block => false,
        })
}

/// The banks `copy`'s buffer is split into where no directive says: for
/// the demand's unrolled accesses, each dimension an unrolled loop
/// indexes split by its copies, the most copied first while the banks
/// stay within [`MAX_BANKS`] (the most copied alone where an access has
/// an unrolled loop indexing two dimensions, or a dimension indexed by
/// two unrolled loops), else a bank
/// a lane of the last dimension; none where a single bank serves.
fn partitioning(copy: &Copy) -> Option<Partitioning> {
    let rank = copy.shape.len();
    let lanes = u64::from(copy.lanes);
    let wanted: Vec<(usize, u64)> = match copy.demand.parallel.as_slice() {
        [] if lanes > 1 && rank > 0 => vec![(rank - 1, lanes)],
        [] => return None,
        all => (all.iter())
            .map(|&(k, u)| {
                // The copy's words land in distinct banks too where the
                // lanes are a multiple of the unrolled copies.
                if k + 1 == rank && lanes > u && lanes % u == 0 {
                    (k, lanes)
                } else {
                    (k, u)
                }
            })
            .collect(),
    };
    let mut order: Vec<usize> = (0..wanted.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(wanted[i].1));
    if copy.demand.tangled {
        // Banks in several dimensions serve only where each access's
        // bank is fixed in each: with a loop indexing two dimensions, or
        // a dimension indexed by two loops of one access, most accesses would reach
        // every bank. The most copied dimension alone is split then.
        order.truncate(1);
    }
    let mut splits: Vec<Partition> = Vec::new();
    let mut banks = 1u64;
    for i in order {
        let (dim, factor) = wanted[i];
        let size = u64::try_from(copy.shape[dim]).unwrap_or(0);
        if size <= 1 {
            continue;
        }
        let p = if factor >= size {
            Partition {
                dim: dim as u32 + 1,
                kind: PartitionKind::Complete,
                factor: 0,
            }
        } else {
            Partition {
                dim: dim as u32 + 1,
                kind: PartitionKind::Cyclic,
                factor,
            }
        };
        let n = if p.kind == PartitionKind::Complete {
            size
        } else {
            factor
        };
        if banks.saturating_mul(n) > MAX_BANKS {
            continue;
        }
        banks *= n;
        splits.push(p);
    }
    splits.sort_by_key(|p| p.dim);
    (!splits.is_empty()).then_some(Partitioning(splits))
}

/// The on-chip copy of `copy`, allocated before `at`, with its own
/// directives as attributes; the kernel's accesses of the memory are
/// pointed at it.
fn allocate(
    ctx: &mut Context,
    ir: &mut Ir,
    copy: &Copy,
    d: &Directives,
    (at, loc): (OpId, Attr),
) -> ValueId {
    let seg = ctx.int_array_attr(32, &[0, 0]);
    let key = ctx.sym("operandSegmentSizes");
    let props = Some(ctx.dict_attr(vec![(key, seg)]));
    let alloc = create(ctx, ir, "memref.alloc", &[], &[copy.ty], props, loc);
    ir.insert_op_before(at, alloc);
    let name = buffer_name(&copy.name);
    let name_attr = ctx.string_attr(name.as_bytes());
    set_attr(ctx, ir, alloc, "hls.name", name_attr);
    if let Some(cd) = d.arrays.get(&name) {
        let own = ArrayDirectives {
            partition: cd.partition.clone(),
            ports: cd.ports.clone(),
            ..ArrayDirectives::default()
        };
        write_array_attrs(ctx, ir, alloc, &own);
    }
    let buffer = ir.result(alloc, 0);
    ir.replace_all_uses(copy.memref, buffer);
    buffer
}

/// The copies of `copies` (of as many lanes each) into their buffers
/// (`inward`) or back (detached ops, in order): the loop `label` over
/// the elements, a word an iteration, then the elements past each
/// memory's last whole word.
fn copy_ops(
    ctx: &mut Context,
    ir: &mut Ir,
    copies: &[&Copy],
    inward: bool,
    (label, loc): (&str, Attr),
) -> Vec<OpId> {
    let Some(lanes) = copies.first().map(|c| i64::from(c.lanes)) else {
        return Vec::new();
    };
    let words = copies.iter().map(|c| c.words()).max().unwrap_or(0);
    let mut ops = Vec::new();
    if words > 0 {
        let l = for_op::create_for(
            ctx,
            ir,
            loc,
            &Bound::constant(0),
            &Bound::constant(words * lanes),
            lanes,
        );
        let label = ctx.string_attr(label.as_bytes());
        set_attr(ctx, ir, l, "hls.label", label);
        let unit = ctx.unit_attr();
        set_attr(ctx, ir, l, COPY, unit);
        let body = for_op::body(ir, l).expect("a loop has a body");
        let w = for_op::induction_var(ir, l).expect("a loop has a counter");
        let end = ir.last_op(body).expect("a loop body ends with its yield");
        for c in copies.iter().filter(|c| c.words() > 0) {
            let mut word = Vec::new();
            for j in 0..lanes {
                let at = AffineExpr::Dim(0).plus(AffineExpr::Constant(j));
                let map = AffineMap {
                    num_dims: 1,
                    num_symbols: 0,
                    results: delinearized(&at, &c.shape).into(),
                };
                word.extend(element_copy(ctx, ir, c, inward, (&map, &[w]), loc));
            }
            // A memory of fewer words copies them under `e < its words'
            // elements`.
            let at = if c.words() < words {
                let set = IntegerSet {
                    num_dims: 1,
                    num_symbols: 0,
                    constraints: Box::new([AffineExpr::Dim(0)
                        .times(AffineExpr::Constant(-1))
                        .plus(AffineExpr::Constant(c.words() * lanes - 1))]),
                    eq: Box::new([false]),
                };
                let (guard, then_end) = create_if(ctx, ir, set, &[w], loc);
                ir.insert_op_before(end, guard);
                then_end
            } else {
                end
            };
            for op in word {
                ir.insert_op_before(at, op);
            }
        }
        ops.push(l);
    }
    for c in copies {
        for e in c.words() * i64::from(c.lanes)..c.elements() {
            let map = AffineMap {
                num_dims: 0,
                num_symbols: 0,
                results: delinearized(&AffineExpr::Constant(e), &c.shape).into(),
            };
            ops.extend(element_copy(ctx, ir, c, inward, (&map, &[]), loc));
        }
    }
    ops
}

/// A load and a store (detached) that copy the element `map` gives over
/// `operands` from `c`'s memory to its buffer (`inward`, scaled where
/// `c` folds a product) or back.
fn element_copy(
    ctx: &mut Context,
    ir: &mut Ir,
    c: &Copy,
    inward: bool,
    (map, operands): (&AffineMap, &[ValueId]),
    loc: Attr,
) -> Vec<OpId> {
    let buffer = c.buffer.expect("allocated before its copies");
    let (src, dst) = if inward {
        (c.memref, buffer)
    } else {
        (buffer, c.memref)
    };
    let a = ctx.intern_attr(AttrKind::AffineMap(map.clone()));
    let key = ctx.sym("map");
    let props = Some(ctx.dict_attr(vec![(key, a)]));
    let mut args = vec![src];
    args.extend_from_slice(operands);
    let load = create(ctx, ir, "affine.load", &args, &[c.element], props, loc);
    let value = ir.result(load, 0);
    let store = |ctx: &mut Context, ir: &mut Ir, value| {
        let mut args = vec![value, dst];
        args.extend_from_slice(operands);
        create(ctx, ir, "affine.store", &args, &[], props, loc)
    };
    let Some(f) = c.fold.as_ref().filter(|_| inward) else {
        return vec![load, store(ctx, ir, value)];
    };
    let product = f.product(ir, value, loc);
    let scaled = store(ctx, ir, ir.result(product, 0));
    if f.domain.is_empty() {
        return vec![load, product, scaled];
    }
    // Only the elements of the fold's domain are scaled.
    let set = IntegerSet {
        num_dims: map.num_dims,
        num_symbols: 0,
        constraints: (f.domain.iter())
            .map(|e| e.replace(&map.results, &[]))
            .collect(),
        eq: vec![false; f.domain.len()].into(),
    };
    let (guard, then_end) = create_if(ctx, ir, set, operands, loc);
    ir.insert_op_before(then_end, product);
    ir.insert_op_before(then_end, scaled);
    let else_block = ir.create_block();
    let else_region = ir
        .regions(guard)
        .nth(1)
        .expect("an affine.if has an else region");
    ir.append_block(else_region, else_block);
    let plain = store(ctx, ir, value);
    ir.append_op(else_block, plain);
    let end = create(ctx, ir, "affine.yield", &[], &[], None, loc);
    ir.append_op(else_block, end);
    vec![load, guard]
}

/// The indices of the element at row-major position `at` of an array of
/// `shape`: `at floordiv stride_k mod size_k` for each dimension (the
/// outermost without the `mod`, the innermost without the `floordiv`).
pub fn delinearized(at: &AffineExpr, shape: &[i64]) -> Vec<AffineExpr> {
    let mut stride: i64 = shape.iter().product();
    let mut out = Vec::with_capacity(shape.len());
    for (k, &size) in shape.iter().enumerate() {
        stride /= size.max(1);
        let mut e = at.clone();
        if stride != 1 {
            e = e.apply(BinOp::FloorDiv, AffineExpr::Constant(stride));
        }
        if k > 0 {
            e = e.apply(BinOp::Mod, AffineExpr::Constant(size));
        }
        out.push(e);
    }
    out
}

/// A detached `affine.if` of `set` over `operands` with an empty `else`;
/// the `yield` that ends its `then` block.
pub(super) fn create_if(
    ctx: &mut Context,
    ir: &mut Ir,
    set: IntegerSet,
    operands: &[ValueId],
    loc: Attr,
) -> (OpId, OpId) {
    let then_region = ir.create_region();
    let then_block: BlockId = ir.create_block();
    ir.append_block(then_region, then_block);
    let end = create(ctx, ir, "affine.yield", &[], &[], None, loc);
    ir.append_op(then_block, end);
    let else_region = ir.create_region();
    let set = ctx.intern_attr(AttrKind::IntegerSet(set));
    let key = ctx.sym("condition");
    let props = Some(ctx.dict_attr(vec![(key, set)]));
    let name = ctx.sym("affine.if");
    let attrs = ctx.empty_dict();
    let op = ir.create_op(OpSpec {
        name,
        loc,
        operands,
        result_types: &[],
        successors: &[],
        regions: &[then_region, else_region],
        attrs,
        props,
    });
    (op, end)
}

fn create(
    ctx: &mut Context,
    ir: &mut Ir,
    name: &str,
    operands: &[ValueId],
    results: &[Type],
    props: Option<Attr>,
    loc: Attr,
) -> OpId {
    let name = ctx.sym(name);
    let attrs = ctx.empty_dict();
    ir.create_op(OpSpec {
        name,
        loc,
        operands,
        result_types: results,
        successors: &[],
        regions: &[],
        attrs,
        props,
    })
}

#[cfg(test)]
mod tests {
    use super::fewer_banks;
    use crate::model::directives::{Partition, PartitionKind, Partitioning};

    fn split(dim: u32, kind: PartitionKind, factor: u64) -> Partition {
        Partition { dim, kind, factor }
    }

    #[test]
    fn fewer_banks_divide_the_most_split_dimension_to_a_divisor_of_its_banks() {
        use PartitionKind::{Complete, Cyclic};
        let shape = [20, 30];
        // A bank a column (30): halved 15; a quarter at most 7, 6 dividing 30.
        let complete = Partitioning(vec![split(2, Complete, 0)]);
        assert_eq!(
            fewer_banks(complete.clone(), 2, &shape),
            Some(Partitioning(vec![split(2, Cyclic, 15)]))
        );
        assert_eq!(
            fewer_banks(complete.clone(), 4, &shape),
            Some(Partitioning(vec![split(2, Cyclic, 6)]))
        );
        assert_eq!(fewer_banks(complete.clone(), 1, &shape), Some(complete));
        // Along two dimensions, the one of more banks is divided; a split
        // left with one bank goes.
        let both = Partitioning(vec![split(1, Cyclic, 4), split(2, Cyclic, 2)]);
        assert_eq!(
            fewer_banks(both.clone(), 2, &shape),
            Some(Partitioning(vec![split(1, Cyclic, 2), split(2, Cyclic, 2)]))
        );
        let two = Partitioning(vec![split(2, Cyclic, 2)]);
        assert_eq!(fewer_banks(two, 2, &shape), None);
    }
}
