//! CIRCT's canonicalizations of seq's clocks and registers, as patterns
//! of the greedy driver (`--canonicalize`):
//!
//! - clocks: `to_clock(from_clock c)` is `c` and back; `to_clock` of a
//!   constant, `clock_inv` of a constant and `clock_mux` on a constant
//!   become `seq.const_clock`s or the chosen clock; two inversions
//!   cancel; nested dividers add their powers of two; a clock gate that
//!   is always on is its input, one always off (or gating a low clock) is
//!   a low clock, a constant-false test enable is dropped, and a gate
//!   already applied up the chain of gates is not applied again;
//! - `seq.compreg.ce` with an always-true enable is a `seq.compreg`, and
//!   its input may skip a mux on its own enable;
//! - `seq.firreg` without an inner symbol: a register that never changes
//!   (its next value is itself, or it is never clocked) is its power-up
//!   value; a register asynchronously always in reset is its reset value;
//!   a constant-false reset is dropped; a register that only ever loads
//!   one constant (`mux(c, reg, K)`) is K.
//!
//! Every rewrite keeps `silica sim`'s meaning, in which a register powers
//! up at its preset (zero without one). Where CIRCT treats the power-up
//! value as undefined and folds further, silica folds only when the value
//! the register takes agrees with its power-up value: a held register
//! with a constant reset folds only when the reset value is that value, a
//! synchronous reset held true only then, and `mux(c, reg, K)` only when K
//! is (and any reset value is K too).

use crate::seq::reg_operands;
use crate::types::{hw_type, HwType};
use silica_ir::dialect::inherent_attr;
use silica_ir::rewrite::{FoldCtx, FoldResult, Pattern, Rewriter};
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, Type, ValueId};

fn name_of<'c>(ctx: &'c Context, ir: &Ir, op: OpId) -> &'c str {
    ctx.str(ir.op_name(op))
}

/// The op defining `v` when it is named `name`.
fn made_by(ctx: &Context, ir: &Ir, v: ValueId, name: &str) -> Option<OpId> {
    ir.defining_op(v).filter(|&d| name_of(ctx, ir, d) == name)
}

/// The value of an `hw.constant` defining `v`.
fn constant_attr(ctx: &Context, ir: &Ir, v: ValueId) -> Option<Attr> {
    let d = made_by(ctx, ir, v, "hw.constant")?;
    inherent_attr(ctx, ir, d, "value")
}

/// `v` as a constant `i1`.
fn constant_bool(ctx: &Context, ir: &Ir, v: ValueId) -> Option<bool> {
    match ctx.attr_kind(constant_attr(ctx, ir, v)?) {
        AttrKind::Integer { value, .. } => Some(value.sign() != silica_ir::Sign::NoSign),
        _ => None,
    }
}

/// `v` as a constant clock: a `seq.const_clock`, or `seq.to_clock` of a
/// constant.
pub(crate) fn constant_clock(ctx: &Context, ir: &Ir, v: ValueId) -> Option<bool> {
    if let Some(c) = made_by(ctx, ir, v, "seq.const_clock") {
        return Some(crate::seq::memory_ops::int_prop(ctx, ir, c, "value").unwrap_or(0) != 0);
    }
    let t = made_by(ctx, ir, v, "seq.to_clock")?;
    constant_bool(ctx, ir, ir.operands(t).next()?)
}

fn has_symbol(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    inherent_attr(ctx, ir, op, "inner_sym").is_some()
}

/// `op`'s properties with `key` set to `value`, or removed without one.
fn props_with(rw: &mut Rewriter<'_>, op: OpId, key: &str, value: Option<Attr>) -> Attr {
    let key = rw.ctx.sym(key);
    let mut props: Vec<_> = rw
        .ir
        .op_props(op)
        .map(|p| rw.ctx.dict_entries(p).to_vec())
        .unwrap_or_default();
    props.retain(|(k, _)| *k != key);
    props.extend(value.map(|v| (key, v)));
    rw.ctx.dict_attr(props)
}

/// Replaces `op` by a `name` op of `operands`, `props` and `attrs` with
/// `op`'s location and result types.
fn replace_with(
    rw: &mut Rewriter<'_>,
    op: OpId,
    name: &str,
    operands: &[ValueId],
    props: Option<Attr>,
    attrs: Attr,
) {
    let results: Vec<Type> = rw.ir.results(op).map(|r| rw.ir.value_type(r)).collect();
    let (name, loc) = (rw.ctx.sym(name), rw.ir.op_loc(op));
    rw.set_insertion_point(op);
    let new = rw.create(silica_ir::OpSpec {
        name,
        loc,
        operands,
        result_types: &results,
        successors: &[],
        regions: &[],
        attrs,
        props,
    });
    let values: Vec<ValueId> = rw.ir.results(new).collect();
    rw.replace_op(op, &values);
}

/// A `seq.const_clock` before `at`.
fn make_const_clock(rw: &mut Rewriter<'_>, at: OpId, high: bool) -> ValueId {
    let i1 = rw.ctx.signless(1);
    let value = rw.ctx.int_attr(i1, i64::from(high));
    let key = rw.ctx.sym("value");
    let props = rw.ctx.dict_attr(vec![(key, value)]);
    let clock = crate::types::clock(rw.ctx);
    let loc = rw.ir.op_loc(at);
    rw.set_insertion_point(at);
    let c = rw.create_simple("seq.const_clock", &[], &[clock], Some(props), loc);
    rw.ir.result(c, 0)
}

/// An `hw.constant` (or, for aggregates, an `hw.aggregate_constant` of
/// zeros; for clocks, a low clock) of `ty` before `at`: `value` when
/// given, else zero.
fn make_constant(
    rw: &mut Rewriter<'_>,
    at: OpId,
    ty: Type,
    value: Option<Attr>,
) -> Option<ValueId> {
    if crate::types::is_clock(rw.ctx, ty) {
        return Some(make_const_clock(rw, at, false));
    }
    // An integer is an `hw.constant`; an aggregate an
    // `hw.aggregate_constant` of zeros.
    let (name, key, value) = if rw.ctx.int_width(ty).is_some() {
        let v = match value {
            Some(v) => v,
            None => rw.ctx.int_attr(ty, 0),
        };
        ("hw.constant", "value", v)
    } else {
        ("hw.aggregate_constant", "fields", zero_fields(rw.ctx, ty)?)
    };
    let key = rw.ctx.sym(key);
    let attrs = rw.ctx.dict_attr(vec![(key, value)]);
    let name = rw.ctx.sym(name);
    let loc = rw.ir.op_loc(at);
    rw.set_insertion_point(at);
    let c = rw.create(silica_ir::OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[ty],
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    });
    Some(rw.ir.result(c, 0))
}

/// The `fields` of an all-zero `hw.aggregate_constant` of type `ty`.
fn zero_fields(ctx: &mut Context, ty: Type) -> Option<Attr> {
    if ctx.int_width(ty).is_some() {
        return Some(ctx.int_attr(ty, 0));
    }
    let elements: Vec<Type> = match hw_type(ctx, ty)? {
        HwType::Array(n, e) => vec![e; n as usize],
        HwType::Struct(fields) => fields.into_iter().map(|f| f.1).collect(),
        _ => return None,
    };
    let items = elements
        .into_iter()
        .map(|e| zero_fields(ctx, e))
        .collect::<Option<Vec<_>>>()?;
    Some(ctx.array_attr(&items))
}

// ----- clocks -------------------------------------------------------------------

/// Folds of the clock ops; a constant clock is an `i1` attribute (what
/// `seq.const_clock` holds), materialised as a `seq.const_clock`.
pub(crate) fn fold_clock(fc: &mut FoldCtx<'_>, op: OpId, consts: &[Option<Attr>]) -> FoldResult {
    let (ctx, ir) = (&*fc.ctx, &*fc.ir);
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let bit = |i: usize| {
        consts
            .get(i)
            .copied()
            .flatten()
            .and_then(|a| match ctx.attr_kind(a) {
                AttrKind::Integer { value, .. } => Some(value.sign() != silica_ir::Sign::NoSign),
                _ => None,
            })
    };
    let through = |name: &str| {
        operands
            .first()
            .and_then(|&v| made_by(ctx, ir, v, name))
            .and_then(|d| ir.operands(d).next())
    };
    let constant = |fc: &mut FoldCtx<'_>, high: bool| {
        let i1 = fc.ctx.signless(1);
        FoldResult::attr(fc.ctx.int_attr(i1, i64::from(high)))
    };
    match name_of(ctx, ir, op) {
        "seq.const_clock" => match inherent_attr(ctx, ir, op, "value") {
            Some(v) => FoldResult::attr(v),
            None => FoldResult::Fail,
        },
        "seq.to_clock" => match (through("seq.from_clock"), bit(0)) {
            (Some(clock), _) => FoldResult::value(clock),
            (None, Some(high)) => constant(fc, high),
            _ => FoldResult::Fail,
        },
        "seq.from_clock" => match (through("seq.to_clock"), bit(0)) {
            (Some(b), _) => FoldResult::value(b),
            (None, Some(high)) => constant(fc, high),
            _ => FoldResult::Fail,
        },
        "seq.clock_inv" => match (through("seq.clock_inv"), bit(0)) {
            (Some(clock), _) => FoldResult::value(clock),
            (None, Some(high)) => constant(fc, !high),
            _ => FoldResult::Fail,
        },
        "seq.clock_mux" => match bit(0) {
            Some(c) => FoldResult::value(operands[if c { 1 } else { 2 }]),
            None => FoldResult::Fail,
        },
        "seq.clock_gate" if !has_symbol(ctx, ir, op) => {
            let test = operands.get(2).map(|_| bit(2));
            if bit(1) == Some(true) || test.flatten() == Some(true) {
                return FoldResult::value(operands[0]);
            }
            let off = bit(1) == Some(false) && test.is_none_or(|t| t == Some(false));
            if off || bit(0) == Some(false) {
                return constant(fc, false);
            }
            FoldResult::Fail
        }
        _ => FoldResult::Fail,
    }
}

fn clock_div(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(input) = rw.ir.operands(op).next() else {
        return false;
    };
    let Some(inner) = made_by(rw.ctx, rw.ir, input, "seq.clock_div") else {
        return false;
    };
    let (ctx, ir) = (&*rw.ctx, &*rw.ir);
    let pow = |o| crate::seq::memory_ops::int_prop(ctx, ir, o, "pow2");
    let (Some(a), Some(b), Some(clock)) = (pow(inner), pow(op), ir.operands(inner).next()) else {
        return false;
    };
    let i64t = rw.ctx.signless(64);
    let total = rw.ctx.int_attr(i64t, a + b);
    let props = props_with(rw, op, "pow2", Some(total));
    let attrs = rw.ctx.empty_dict();
    replace_with(rw, op, "seq.clock_div", &[clock], Some(props), attrs);
    true
}

/// A gate already applied up the chain of gates is not applied again; a
/// constant-false test enable is dropped.
fn clock_gate(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    if has_symbol(rw.ctx, rw.ir, op) {
        return false;
    }
    let operands: Vec<ValueId> = rw.ir.operands(op).collect();
    let (input, enable, test) = (operands[0], operands[1], operands.get(2).copied());
    let (ctx, ir) = (&*rw.ctx, &*rw.ir);
    let mut up = input;
    while let Some(g) = made_by(ctx, ir, up, "seq.clock_gate") {
        let theirs: Vec<ValueId> = ir.operands(g).collect();
        if theirs[1] == enable && theirs.get(2).copied() == test {
            rw.replace_op(op, &[input]);
            return true;
        }
        up = theirs[0];
    }
    if test.and_then(|t| constant_bool(ctx, ir, t)) == Some(false) {
        let (props, attrs) = (ir.op_props(op), rw.ctx.empty_dict());
        replace_with(rw, op, "seq.clock_gate", &[input, enable], props, attrs);
        return true;
    }
    false
}

// ----- registers ------------------------------------------------------------------

/// A `seq.compreg` of `input` with the other operands, name and symbol of
/// the `seq.compreg.ce` `op`, in its place.
fn compreg_without_enable(rw: &mut Rewriter<'_>, op: OpId, input: ValueId) {
    let r = reg_operands(rw.ctx, rw.ir, op);
    let Some(clock) = r.clock else { return };
    let (operands, sizes) = crate::seq::compreg_operands(&r, input, clock);
    let segments = rw.ctx.int_array_attr(32, &sizes);
    let props = props_with(rw, op, "operandSegmentSizes", Some(segments));
    let attrs = rw.ctx.empty_dict();
    replace_with(rw, op, "seq.compreg", &operands, Some(props), attrs);
}

fn compreg_ce(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let r = reg_operands(rw.ctx, rw.ir, op);
    let (Some(input), Some(enable)) = (r.input, r.enable) else {
        return false;
    };
    if constant_bool(rw.ctx, rw.ir, enable) == Some(true) {
        compreg_without_enable(rw, op, input);
        return true;
    }
    // `mux(en, d, x)` loaded only when `en` holds is `d`.
    let def = rw.ir.defining_op(input);
    let mux = def.filter(|&d| matches!(name_of(rw.ctx, rw.ir, d), "comb.mux" | "arith.select"));
    let Some(mux) = mux else { return false };
    let ops: Vec<ValueId> = rw.ir.operands(mux).collect();
    if ops.len() != 3 || ops[0] != enable {
        return false;
    }
    rw.set_operand(op, 0, ops[1]);
    true
}

/// The value `reg` powers up at: its preset, or zero.
fn power_up(ctx: &Context, ir: &Ir, reg: OpId) -> num_bigint::BigInt {
    match inherent_attr(ctx, ir, reg, "preset").map(|p| ctx.attr_kind(p)) {
        Some(AttrKind::Integer { value, .. }) => value.clone(),
        _ => num_bigint::BigInt::from(0),
    }
}

/// Whether the constant `v` (of an integer type) is the power-up value
/// `p`, compared as bits of `v`'s width.
fn is_value(ctx: &Context, ir: &Ir, v: ValueId, p: &num_bigint::BigInt) -> bool {
    let (Some(c), Some(width)) = (constant_attr(ctx, ir, v), ctx.int_width(ir.value_type(v)))
    else {
        return false;
    };
    let AttrKind::Integer { value, .. } = ctx.attr_kind(c) else {
        return false;
    };
    let m = num_bigint::BigInt::from(1) << width;
    let norm = |x: &num_bigint::BigInt| ((x % &m) + &m) % &m;
    norm(value) == norm(p)
}

fn firreg(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    if has_symbol(rw.ctx, rw.ir, op) {
        return false;
    }
    let (ctx, ir) = (&*rw.ctx, &*rw.ir);
    let r = reg_operands(ctx, ir, op);
    let (Some(next), Some(clock)) = (r.input, r.clock) else {
        return false;
    };
    let state = ir.result(op, 0);
    let ty = ir.value_type(state);
    let start = power_up(ctx, ir, op);
    let has_preset = inherent_attr(ctx, ir, op, "preset").is_some();
    if let (Some(rst), Some(v)) = (r.reset, r.reset_value) {
        match constant_bool(ctx, ir, rst) {
            // Asynchronously always in reset: the reset value from the
            // start; synchronously, only once a clock edge came, unless
            // that is the power-up value anyway.
            Some(true) if crate::seq::is_async(ctx, ir, op) || is_value(ctx, ir, v, &start) => {
                rw.replace_op(op, &[v]);
                return true;
            }
            Some(false) => {
                drop_reset(rw, op);
                return true;
            }
            _ => {}
        }
    }
    let reset_agrees = r.reset_value.is_none_or(|v| is_value(ctx, ir, v, &start));
    let holds = next == state || constant_clock(ctx, ir, clock).is_some();
    if holds {
        // Aggregates and clocks fold only from zero.
        let integer = ctx.int_width(ty).is_some();
        if !reset_agrees || (!integer && has_preset) {
            return false;
        }
        let value = integer.then(|| rw.ctx.int_attr(ty, start));
        let Some(c) = make_constant(rw, op, ty, value) else {
            return false;
        };
        rw.replace_op(op, &[c]);
        return true;
    }
    // `mux(c, reg, K)` or `mux(c, K, reg)`: the register only ever loads K.
    let Some(mux) = made_by(ctx, ir, next, "comb.mux") else {
        return false;
    };
    let ops: Vec<ValueId> = ir.operands(mux).collect();
    let other = if ops[1] == state {
        ops[2]
    } else if ops[2] == state {
        ops[1]
    } else {
        return false;
    };
    if !is_value(ctx, ir, other, &start) || !reset_agrees {
        return false;
    }
    rw.replace_op(op, &[other]);
    true
}

/// The register without its reset (a constant-false one).
fn drop_reset(rw: &mut Rewriter<'_>, op: OpId) {
    let r = reg_operands(rw.ctx, rw.ir, op);
    let (Some(next), Some(clock)) = (r.input, r.clock) else {
        return;
    };
    let props = props_with(rw, op, "isAsync", None);
    let attrs = rw.ir.op_attrs(op);
    replace_with(rw, op, "seq.firreg", &[next, clock], Some(props), attrs);
}

pub(crate) static CLOCK_DIV: [Pattern; 1] = [Pattern::new("CombineClockDividers", clock_div)];
pub(crate) static CLOCK_GATE: [Pattern; 1] = [Pattern::new("SimplifyClockGate", clock_gate)];
pub(crate) static COMPREG_CE: [Pattern; 1] = [Pattern::new("SimplifyCompRegCE", compreg_ce)];
pub(crate) static FIRREG: [Pattern; 1] = [Pattern::new("FoldFirReg", firreg)];

// ----- memories -------------------------------------------------------------------

/// `v` as a constant whose bits are all `ones` (all set) or all clear.
fn constant_all(ctx: &Context, ir: &Ir, v: ValueId, ones: bool) -> bool {
    let (Some(c), Some(width)) = (constant_attr(ctx, ir, v), ctx.int_width(ir.value_type(v)))
    else {
        return false;
    };
    let AttrKind::Integer { value, .. } = ctx.attr_kind(c) else {
        return false;
    };
    let m = num_bigint::BigInt::from(1) << width;
    let bits = ((value % &m) + &m) % &m;
    if ones {
        bits == m - 1
    } else {
        bits == num_bigint::BigInt::from(0)
    }
}

/// A copy of the port `op` without its enable (`drop_enable`) and mask
/// (`drop_mask`), in its place.
fn rebuild_port(
    rw: &mut Rewriter<'_>,
    op: OpId,
    p: &crate::seq::memory_ops::FirPortOperands,
    drop_enable: bool,
    drop_mask: bool,
) {
    let write = name_of(rw.ctx, rw.ir, op) == "seq.firmem.write_port";
    let (Some(memory), Some(address), Some(clock)) = (p.memory, p.address, p.clock) else {
        return;
    };
    let enable = p.enable.filter(|_| !drop_enable);
    let mask = p.mask.filter(|_| !drop_mask);
    let mut operands = vec![memory, address, clock];
    operands.extend(enable);
    operands.extend(p.data);
    operands.extend(mask);
    let props = if write {
        let sizes = [
            1,
            1,
            1,
            i64::from(enable.is_some()),
            1,
            i64::from(mask.is_some()),
        ];
        let seg = rw.ctx.int_array_attr(32, &sizes);
        Some(props_with(rw, op, "operandSegmentSizes", Some(seg)))
    } else {
        rw.ir.op_props(op)
    };
    let (name, attrs) = (name_of(rw.ctx, rw.ir, op).to_string(), rw.ir.op_attrs(op));
    replace_with(rw, op, &name, &operands, props, attrs);
}

/// A write that never happens (enable or mask constant zero) goes; an
/// always-true enable and an all-ones mask are dropped.
fn firmem_write(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let (ctx, ir) = (&*rw.ctx, &*rw.ir);
    let p = crate::seq::memory_ops::fir_port_operands(
        ctx,
        ir,
        op,
        crate::seq::memory_ops::FirPort::Write,
    );
    // (A write on a constant clock never happens either, but the
    // simulator clocks memory ports by the module's clock: it stays.)
    let never = p
        .enable
        .is_some_and(|e| constant_bool(ctx, ir, e) == Some(false))
        || p.mask.is_some_and(|m| constant_all(ctx, ir, m, false));
    if never {
        rw.erase_op(op);
        return true;
    }
    let drop_enable = p
        .enable
        .is_some_and(|e| constant_bool(ctx, ir, e) == Some(true));
    let drop_mask = p.mask.is_some_and(|m| constant_all(ctx, ir, m, true));
    if !drop_enable && !drop_mask {
        return false;
    }
    rebuild_port(rw, op, &p, drop_enable, drop_mask);
    true
}

/// An always-true read enable is dropped.
fn firmem_read(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let (ctx, ir) = (&*rw.ctx, &*rw.ir);
    let p = crate::seq::memory_ops::fir_port_operands(
        ctx,
        ir,
        op,
        crate::seq::memory_ops::FirPort::Read,
    );
    let always = p.enable.and_then(|e| constant_bool(ctx, ir, e));
    if always != Some(true) {
        return false;
    }
    rebuild_port(rw, op, &p, true, false);
    true
}

/// A memory nothing reads (no symbol, no initial contents) goes, with
/// its writes.
fn firmem_unread(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let (ctx, ir) = (&*rw.ctx, &*rw.ir);
    if has_symbol(ctx, ir, op) || inherent_attr(ctx, ir, op, "init").is_some() {
        return false;
    }
    let mem = ir.result(op, 0);
    let users: Vec<OpId> = ir.uses(mem).map(|u| ir.use_owner(u)).collect();
    if users
        .iter()
        .any(|&u| name_of(ctx, ir, u) != "seq.firmem.write_port")
    {
        return false;
    }
    for u in users {
        rw.erase_op(u);
    }
    rw.erase_op(op);
    true
}

pub(crate) static FIRMEM: [Pattern; 1] = [Pattern::new("EraseUnreadFirMem", firmem_unread)];
pub(crate) static FIRMEM_WRITE: [Pattern; 1] = [Pattern::new("SimplifyFirMemWrite", firmem_write)];
pub(crate) static FIRMEM_READ: [Pattern; 1] = [Pattern::new("SimplifyFirMemRead", firmem_read)];
