//! The `seq` dialect's registers and clock ops in CIRCT's syntax:
//! `seq.compreg`, `seq.compreg.ce` (with reset and initial value),
//! `seq.firreg` (sync/async reset, preset), `seq.to_clock`,
//! `seq.from_clock`, `seq.clock_inv`, `seq.clock_gate`, `seq.clock_mux`,
//! `seq.clock_div` and `seq.const_clock`. A register's `name` property is
//! its result's SSA name (CIRCT's implicit SSA names).
//!
//! Beside them: the memories, shift registers and FIFOs ([`memory_ops`]),
//! the one view of a memory that the simulator and the Verilog emitter
//! share ([`memory`]) and its initialisation files ([`mem_init`]),
//! `seq.initial` ([`initial`]), and the canonicalizations
//! ([`canonicalize`]).

pub mod canonicalize;
pub mod initial;
pub mod mem_init;
pub mod memory;
pub mod memory_ops;

use crate::hw::{name_attr, named_result};
use crate::seq::memory_ops as m;
use crate::types;
use silica_ir::dialect::{inherent_attr, DialectDef, Effects, OpDef, Traits, TypeHooks};
use silica_ir::format::{
    parse_op, print_op, Arity, AttrParam, AttrSyntax, Signature, TypeConstraint, ValueParam,
};
use silica_ir::graph::OpSpec;
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult, UnresolvedOperand};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, Symbol, Type};

/// Operand roles of a register, in operand order.
#[derive(Clone, Copy, Debug, Default)]
pub struct RegOperands {
    pub input: Option<silica_ir::ValueId>,
    pub clock: Option<silica_ir::ValueId>,
    pub enable: Option<silica_ir::ValueId>,
    pub reset: Option<silica_ir::ValueId>,
    pub reset_value: Option<silica_ir::ValueId>,
    pub initial: Option<silica_ir::ValueId>,
}

/// The operands of a `seq.compreg`, `seq.compreg.ce` or `seq.firreg` by
/// role.
pub fn reg_operands(ctx: &Context, ir: &Ir, op: OpId) -> RegOperands {
    let ops: Vec<_> = ir.operands(op).collect();
    let name = ctx.str(ir.op_name(op));
    if name == "seq.firreg" {
        return RegOperands {
            input: ops.first().copied(),
            clock: ops.get(1).copied(),
            reset: ops.get(2).copied(),
            reset_value: ops.get(3).copied(),
            ..RegOperands::default()
        };
    }
    let sizes = inherent_attr(ctx, ir, op, "operandSegmentSizes")
        .and_then(|a| ctx.int_array_values(a))
        .unwrap_or_default();
    let mut it = ops.into_iter();
    let mut take = |i: usize| {
        if sizes.get(i).copied().unwrap_or(0) > 0 {
            it.next()
        } else {
            None
        }
    };
    let ce = name == "seq.compreg.ce";
    let input = take(0);
    let clock = take(1);
    let enable = if ce { take(2) } else { None };
    let base = if ce { 3 } else { 2 };
    RegOperands {
        input,
        clock,
        enable,
        reset: take(base),
        reset_value: take(base + 1),
        initial: take(base + 2),
    }
}

/// The operands of a `seq.compreg` loading `input` on `clock` with the
/// reset and initial value of `r`, and its `operandSegmentSizes`.
pub fn compreg_operands(
    r: &RegOperands,
    input: silica_ir::ValueId,
    clock: silica_ir::ValueId,
) -> (Vec<silica_ir::ValueId>, Vec<i64>) {
    let mut operands = vec![input, clock];
    let mut sizes = vec![1, 1];
    match (r.reset, r.reset_value) {
        (Some(rst), Some(v)) => {
            operands.extend([rst, v]);
            sizes.extend([1, 1]);
        }
        _ => sizes.extend([0, 0]),
    }
    operands.extend(r.initial);
    sizes.push(i64::from(r.initial.is_some()));
    (operands, sizes)
}

/// Whether a `seq.firreg` resets asynchronously.
pub fn is_async(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    inherent_attr(ctx, ir, op, "isAsync").is_some()
}

pub(crate) fn entry(ctx: &mut Context, name: &str, value: Attr) -> (Symbol, Attr) {
    (ctx.sym(name), value)
}

/// The implicit name: an explicit `name "x"` when one is next, else the
/// result's SSA name unless it is a number (CIRCT's `ImplicitSSAName`).
pub(crate) fn parse_implicit_name(p: &mut AsmParser<'_, '_>) -> PResult<Attr> {
    if p.eat_keyword("name") {
        let bytes = p.parse_string()?;
        return Ok(p.ctx().string_attr(&bytes));
    }
    Ok(implicit_name(p))
}

fn implicit_name(p: &mut AsmParser<'_, '_>) -> Attr {
    let n = p
        .result_name()
        .filter(|n| !n.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .unwrap_or("")
        .to_string();
    p.ctx().string_attr(n.as_bytes())
}

/// A register's name (a `name` in its attribute dictionary overrides
/// the implicit one) and its remaining attributes.
fn split_name(ctx: &mut Context, extra: Attr, implicit: Attr) -> (Attr, Attr) {
    let entries = ctx.dict_entries(extra).to_vec();
    let is_name = |ctx: &Context, k: Symbol| ctx.str(k) == "name";
    let name = entries
        .iter()
        .find(|e| is_name(ctx, e.0))
        .map_or(implicit, |e| e.1);
    let rest: Vec<_> = entries.into_iter().filter(|e| !is_name(ctx, e.0)).collect();
    (name, ctx.dict_attr(rest))
}

/// ` name "x"` when the op's `name` differs from its result's SSA name.
pub(crate) fn print_implicit_name(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let shown = ir.results(op).next().map(|r| p.value_name(r));
    if let Some(name) = name_attr(ctx, ir, op) {
        if shown != Some(format!("%{name}")) {
            p.write(" name ");
            p.string(name.as_bytes());
        }
    }
}

pub(crate) fn parse_sym(p: &mut AsmParser<'_, '_>, props: &mut Vec<(Symbol, Attr)>) -> PResult<()> {
    crate::hw::inner_sym::parse_clause(p, props)
}

/// `seq.compreg[.ce] [sym @s] %in, %clk[, %en] [reset %r, %v] [initial %i]
/// attr-dict : type`
fn parse_compreg_like(p: &mut AsmParser<'_, '_>, ce: bool) -> PResult<OpId> {
    let mut props = Vec::new();
    parse_sym(p, &mut props)?;
    let name = parse_implicit_name(p)?;
    let input = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let clk = p.parse_operand()?;
    let enable = if ce {
        p.expect(Tok::Comma, "','")?;
        Some(p.parse_operand()?)
    } else {
        None
    };
    let mut reset: Option<(UnresolvedOperand<'_>, UnresolvedOperand<'_>)> = None;
    if p.eat_keyword("reset") {
        let r = p.parse_operand()?;
        p.expect(Tok::Comma, "','")?;
        reset = Some((r, p.parse_operand()?));
    }
    let initial = if p.eat_keyword("initial") {
        Some(p.parse_operand()?)
    } else {
        None
    };
    let extra = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let ty = p.parse_type()?;
    let clock = types::clock(p.ctx());
    let i1 = p.ctx().signless(1);
    let mut operands = vec![
        p.resolve_operand(input, ty)?,
        p.resolve_operand(clk, clock)?,
    ];
    let mut sizes = vec![1, 1];
    if ce {
        let e = enable.map(|e| p.resolve_operand(e, i1)).transpose()?;
        operands.extend(e);
        sizes.push(1);
    }
    match reset {
        Some((r, v)) => {
            operands.push(p.resolve_operand(r, i1)?);
            operands.push(p.resolve_operand(v, ty)?);
            sizes.extend([1, 1]);
        }
        None => sizes.extend([0, 0]),
    }
    match initial {
        Some(i) => {
            let immutable = types::immutable(p.ctx(), ty);
            operands.push(p.resolve_operand(i, immutable)?);
            sizes.push(1);
        }
        None => sizes.push(0),
    }
    let loc = p.op_loc();
    let ctx = p.ctx();
    let (name, attrs) = split_name(ctx, extra, name);
    props.push(entry(ctx, "name", name));
    let seg = ctx.int_array_attr(32, &sizes);
    props.push(entry(ctx, "operandSegmentSizes", seg));
    let props = ctx.dict_attr(props);
    let op_name = ctx.sym(if ce { "seq.compreg.ce" } else { "seq.compreg" });
    Ok(p.create_op(OpSpec {
        name: op_name,
        loc,
        operands: &operands,
        result_types: &[ty],
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    }))
}

fn parse_compreg(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    parse_compreg_like(p, false)
}

fn parse_compreg_ce(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    parse_compreg_like(p, true)
}

pub(crate) fn print_sym(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    crate::hw::inner_sym::print_clause(p, op);
}

/// The attributes a register prints: `name` only when it differs from
/// the SSA name.
fn print_reg_attrs(p: &mut AsmPrinter<'_, '_>, op: OpId, elided: &[&str]) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let shown = ir.results(op).next().map(|r| p.value_name(r));
    let name = name_attr(ctx, ir, op);
    let mut elide: Vec<&str> = elided.to_vec();
    if name.is_none() || shown == name.map(|n| format!("%{n}")) {
        elide.push("name");
    }
    print_attrs(p, op, &elide);
}

/// Prints the attributes of `op` except `elided` ones.
pub(crate) fn print_attrs(p: &mut AsmPrinter<'_, '_>, op: OpId, elided: &[&str]) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let mut entries: Vec<(Symbol, Attr)> = ir
        .op_props(op)
        .map(|d| ctx.dict_entries(d).to_vec())
        .unwrap_or_default();
    entries.extend(ctx.dict_entries(ir.op_attrs(op)).iter().copied());
    entries.retain(|(k, _)| !elided.contains(&ctx.str(*k)));
    entries.sort_by(|a, b| ctx.str(a.0).cmp(ctx.str(b.0)));
    p.attr_entries(&entries, false);
}

fn print_compreg(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let r = reg_operands(ctx, ir, op);
    print_sym(p, op);
    print_implicit_name(p, op);
    p.write(" ");
    let ops: Vec<_> = [r.input, r.clock, r.enable].into_iter().flatten().collect();
    p.operands(ops);
    if let (Some(rst), Some(v)) = (r.reset, r.reset_value) {
        p.write(" reset ");
        p.operand(rst);
        p.write(", ");
        p.operand(v);
    }
    if let Some(i) = r.initial {
        p.write(" initial ");
        p.operand(i);
    }
    print_reg_attrs(p, op, &["inner_sym", "operandSegmentSizes", "name"]);
    p.write(" : ");
    if let Some(i) = r.input {
        p.ty(p.ir().value_type(i));
    }
    p.write("  ");
}

/// `seq.firreg %next clock %clk [sym @s] [reset sync|async %r, %v]
/// [preset N] attr-dict : type`
fn parse_firreg(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let next = p.parse_operand()?;
    p.expect_keyword("clock")?;
    let clk = p.parse_operand()?;
    let mut props = Vec::new();
    parse_sym(p, &mut props)?;
    let mut reset = None;
    let mut is_async = false;
    if p.eat_keyword("reset") {
        is_async = match p.parse_keyword()? {
            "sync" => false,
            "async" => true,
            _ => return p.expected("'sync' or 'async'"),
        };
        let r = p.parse_operand()?;
        p.expect(Tok::Comma, "','")?;
        reset = Some((r, p.parse_operand()?));
    }
    let preset = if p.eat_keyword("preset") {
        Some(p.parse_integer()?)
    } else {
        None
    };
    let extra = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let ty = p.parse_type()?;
    let clock = types::clock(p.ctx());
    let i1 = p.ctx().signless(1);
    let mut operands = vec![p.resolve_operand(next, ty)?, p.resolve_operand(clk, clock)?];
    if let Some((r, v)) = reset {
        operands.push(p.resolve_operand(r, i1)?);
        operands.push(p.resolve_operand(v, ty)?);
    }
    if let Some(v) = &preset {
        let width = p.ctx().int_width(ty).unwrap_or(0);
        if v.sign() == num_bigint::Sign::Minus {
            return p.op_error("custom op 'seq.firreg' preset value must not be negative");
        }
        if v.bits() > u64::from(width) {
            return p.op_error("custom op 'seq.firreg' preset value too large");
        }
    }
    let name = implicit_name(p);
    let loc = p.op_loc();
    let ctx = p.ctx();
    if is_async {
        let u = ctx.unit_attr();
        props.push(entry(ctx, "isAsync", u));
    }
    let (name, attrs) = split_name(ctx, extra, name);
    props.push(entry(ctx, "name", name));
    if let Some(v) = preset {
        let a = ctx.int_attr(ty, v);
        props.push(entry(ctx, "preset", a));
    }
    let props = ctx.dict_attr(props);
    let op_name = ctx.sym("seq.firreg");
    Ok(p.create_op(OpSpec {
        name: op_name,
        loc,
        operands: &operands,
        result_types: &[ty],
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    }))
}

fn print_firreg(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let r = reg_operands(ctx, ir, op);
    let asynchronous = is_async(ctx, ir, op);
    let preset = inherent_attr(ctx, ir, op, "preset").map(|a| ctx.attr_kind(a).clone());
    p.write(" ");
    if let Some(i) = r.input {
        p.operand(i);
    }
    p.write(" clock ");
    if let Some(c) = r.clock {
        p.operand(c);
    }
    print_sym(p, op);
    if let (Some(rst), Some(v)) = (r.reset, r.reset_value) {
        p.write(if asynchronous {
            " reset async "
        } else {
            " reset sync "
        });
        p.operand(rst);
        p.write(", ");
        p.operand(v);
    }
    if let Some(AttrKind::Integer { value, .. }) = preset {
        p.write(" preset ");
        p.write(&value.to_string());
    }
    print_reg_attrs(p, op, &["inner_sym", "isAsync", "preset"]);
    p.write(" : ");
    if let Some(i) = r.input {
        p.ty(p.ir().value_type(i));
    }
}

/// An asynchronous `seq.firreg` needs a reset; a reset needs its value.
fn verify_firreg(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    crate::hw::inner_sym::verify_op(v, op)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    let n = ir.operands(op).count();
    if n == 3 || (n == 2 && is_async(ctx, ir, op)) {
        return Err(v.op_error(op, "must specify reset and reset value"));
    }
    Ok(())
}

// ----- clock ops -------------------------------------------------------------------

const CLOCK: TypeConstraint = TypeConstraint {
    desc: "A type for clock-carrying wires",
    check: types::is_clock,
    build: Some(types::clock),
};

const I1: TypeConstraint = TypeConstraint {
    desc: "1-bit signless integer",
    check: |ctx, t| ctx.int_width(t) == Some(1),
    build: Some(|ctx| ctx.signless(1)),
};

const fn one(name: &'static str, constraint: TypeConstraint) -> ValueParam {
    ValueParam {
        name,
        arity: Arity::One,
        constraint,
    }
}

static TO_CLOCK: Signature = Signature::new(
    &[one("input", I1)],
    &[one("output", CLOCK)],
    &[],
    "$input attr-dict",
);
static FROM_CLOCK: Signature = Signature::new(
    &[one("input", CLOCK)],
    &[one("output", I1)],
    &[],
    "$input attr-dict",
);
static CLOCK_INV: Signature = Signature::new(
    &[one("input", CLOCK)],
    &[one("output", CLOCK)],
    &[],
    "$input attr-dict",
);
static CLOCK_GATE: Signature = Signature::new(
    &[
        one("input", CLOCK),
        one("enable", I1),
        ValueParam {
            name: "test_enable",
            arity: Arity::Optional,
            constraint: I1,
        },
    ],
    &[one("output", CLOCK)],
    &[AttrParam {
        name: "inner_sym",
        syntax: AttrSyntax::Custom(&crate::hw::inner_sym::SYNTAX),
        optional: true,
        default: None,
    }],
    "$input `,` $enable (`,` $test_enable^)? (`sym` $inner_sym^)? attr-dict",
);
static CLOCK_MUX: Signature = Signature::new(
    &[
        one("cond", I1),
        one("trueClock", CLOCK),
        one("falseClock", CLOCK),
    ],
    &[one("result", CLOCK)],
    &[],
    "$cond `,` $trueClock `,` $falseClock attr-dict",
);
static CLOCK_DIV: Signature = Signature::new(
    &[one("input", CLOCK)],
    &[one("output", CLOCK)],
    &[AttrParam {
        name: "pow2",
        syntax: AttrSyntax::Int(64),
        optional: false,
        default: None,
    }],
    "$input `by` $pow2 attr-dict",
);

const fn format_op(name: &'static str, sig: &'static Signature) -> OpDef {
    OpDef {
        effects: Effects::None,
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(sig),
        ..OpDef::new(name)
    }
}

static OPS: &[OpDef] = &[
    OpDef {
        parse: Some(parse_compreg),
        print: Some(print_compreg),
        verify: Some(crate::hw::inner_sym::verify_op),
        result_names: Some(named_result),
        ..OpDef::new("seq.compreg")
    },
    OpDef {
        parse: Some(parse_compreg_ce),
        print: Some(print_compreg),
        verify: Some(crate::hw::inner_sym::verify_op),
        result_names: Some(named_result),
        patterns: &crate::seq::canonicalize::COMPREG_CE,
        ..OpDef::new("seq.compreg.ce")
    },
    OpDef {
        parse: Some(parse_firreg),
        print: Some(print_firreg),
        verify: Some(verify_firreg),
        result_names: Some(named_result),
        patterns: &crate::seq::canonicalize::FIRREG,
        ..OpDef::new("seq.firreg")
    },
    OpDef {
        fold: Some(crate::seq::canonicalize::fold_clock),
        ..format_op("seq.to_clock", &TO_CLOCK)
    },
    OpDef {
        fold: Some(crate::seq::canonicalize::fold_clock),
        ..format_op("seq.from_clock", &FROM_CLOCK)
    },
    OpDef {
        fold: Some(crate::seq::canonicalize::fold_clock),
        ..format_op("seq.clock_inv", &CLOCK_INV)
    },
    OpDef {
        verify: Some(crate::hw::inner_sym::verify_op),
        fold: Some(crate::seq::canonicalize::fold_clock),
        patterns: &crate::seq::canonicalize::CLOCK_GATE,
        ..format_op("seq.clock_gate", &CLOCK_GATE)
    },
    OpDef {
        fold: Some(crate::seq::canonicalize::fold_clock),
        ..format_op("seq.clock_mux", &CLOCK_MUX)
    },
    OpDef {
        patterns: &crate::seq::canonicalize::CLOCK_DIV,
        ..format_op("seq.clock_div", &CLOCK_DIV)
    },
    crate::seq::initial::OPS[0],
    crate::seq::initial::OPS[1],
    crate::seq::initial::OPS[2],
    OpDef {
        parse: Some(m::parse_firmem),
        print: Some(m::print_firmem),
        verify: Some(m::verify_firmem),
        result_names: Some(m::named_result),
        patterns: &crate::seq::canonicalize::FIRMEM,
        ..OpDef::new("seq.firmem")
    },
    OpDef {
        parse: Some(m::parse_read_port),
        print: Some(m::print_fir_port),
        verify: Some(m::verify_fir_port),
        patterns: &crate::seq::canonicalize::FIRMEM_READ,
        ..OpDef::new("seq.firmem.read_port")
    },
    OpDef {
        parse: Some(m::parse_write_port),
        print: Some(m::print_fir_port),
        verify: Some(m::verify_fir_port),
        patterns: &crate::seq::canonicalize::FIRMEM_WRITE,
        ..OpDef::new("seq.firmem.write_port")
    },
    OpDef {
        parse: Some(m::parse_read_write_port),
        print: Some(m::print_fir_port),
        verify: Some(m::verify_fir_port),
        ..OpDef::new("seq.firmem.read_write_port")
    },
    OpDef {
        parse: Some(m::parse_hlmem),
        print: Some(m::print_hlmem),
        verify: Some(m::verify_hlmem),
        result_names: Some(m::hlmem_result_name),
        ..OpDef::new("seq.hlmem")
    },
    OpDef {
        parse: Some(m::parse_read),
        print: Some(m::print_hl_port),
        verify: Some(m::verify_hl_port),
        result_names: Some(m::read_result_name),
        ..OpDef::new("seq.read")
    },
    OpDef {
        parse: Some(m::parse_write),
        print: Some(m::print_hl_port),
        verify: Some(m::verify_hl_port),
        ..OpDef::new("seq.write")
    },
    OpDef {
        parse: Some(m::parse_shiftreg),
        print: Some(m::print_shiftreg),
        verify: Some(m::verify_shiftreg),
        result_names: Some(m::named_result),
        effects: Effects::None,
        ..OpDef::new("seq.shiftreg")
    },
    OpDef {
        parse: Some(m::parse_fifo),
        print: Some(m::print_fifo),
        verify: Some(m::verify_fifo),
        value_names: Some(m::fifo_names),
        ..OpDef::new("seq.fifo")
    },
    OpDef {
        parse: Some(m::parse_const_clock),
        print: Some(m::print_const_clock),
        verify: Some(m::verify_const_clock),
        effects: Effects::None,
        traits: Traits::CONSTANT_LIKE,
        fold: Some(crate::seq::canonicalize::fold_clock),
        ..OpDef::new("seq.const_clock")
    },
];

/// The type of a register's data.
pub fn reg_type(ir: &Ir, op: OpId) -> Option<Type> {
    ir.results(op).next().map(|r| ir.value_type(r))
}

/// The `seq` dialect.
pub static SEQ: DialectDef = DialectDef {
    name: "seq",
    ops: OPS,
    attrs: None,
    types: Some(TypeHooks {
        parse: types::parse_seq,
        print: types::print_seq,
        vector_element: None,
    }),
    materialize_constant: Some(crate::hw::fold::materialize_constant),
};
