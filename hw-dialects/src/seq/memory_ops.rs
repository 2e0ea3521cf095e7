//! The `seq` dialect's memories and other stateful ops, in CIRCT's
//! syntax: `seq.firmem` with `seq.firmem.read_port`, `write_port` and
//! `read_write_port`; `seq.hlmem` with `seq.read` and `seq.write`;
//! `seq.shiftreg`, `seq.fifo` and `seq.const_clock`.
//!
//! Address types follow from the memory type (`clog2(depth)` bits, at
//! least one for a `firmem`), data types from its width, so the parsers
//! resolve operands against them as CIRCT's do.

use crate::hw::aggregates::index_width;
use crate::hw::name_attr;
pub(crate) use crate::hw::named_result;
use crate::seq::{
    entry, parse_implicit_name, parse_sym, print_attrs, print_implicit_name, print_sym,
};
use crate::types::{self, HwType};
use silica_ir::dialect::{inherent_attr, ValueNames};
use silica_ir::graph::OpSpec;
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult, UnresolvedOperand};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, Symbol, Type, ValueId};

/// Read-under-write behaviours of a `seq.firmem`, in value order.
pub const RUW: &[&str] = &["undefined", "old", "new"];
/// Write-under-write behaviours of a `seq.firmem`, in value order.
pub const WUW: &[&str] = &["undefined", "port_order"];

/// An integer property of `op`.
pub fn int_prop(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<i64> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, name)?) {
        AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
        _ => None,
    }
}

/// The sizes of `op`'s operand groups (`operandSegmentSizes`).
pub fn segments(ctx: &Context, ir: &Ir, op: OpId) -> Vec<i64> {
    inherent_attr(ctx, ir, op, "operandSegmentSizes")
        .and_then(|a| ctx.int_array_values(a))
        .unwrap_or_default()
}

/// The address width of a `!seq.firmem` of `depth` words.
pub fn firmem_address_width(depth: u64) -> u32 {
    index_width(depth).max(1)
}

struct Builder<'p, 'a, 'b> {
    p: &'p mut AsmParser<'a, 'b>,
    props: Vec<(Symbol, Attr)>,
    operands: Vec<ValueId>,
}

impl<'a, 'b> Builder<'_, 'a, 'b> {
    fn operand(&mut self, u: UnresolvedOperand<'b>, t: Type) -> PResult<()> {
        let v = self.p.resolve_operand(u, t)?;
        self.operands.push(v);
        Ok(())
    }

    fn prop(&mut self, name: &str, value: Attr) {
        let e = entry(self.p.ctx(), name, value);
        self.props.push(e);
    }

    fn int_prop(&mut self, name: &str, width: u32, value: i64) {
        let ctx = self.p.ctx();
        let t = ctx.signless(width);
        let a = ctx.int_attr(t, value);
        self.prop(name, a);
    }

    fn segments(&mut self, sizes: &[i64]) {
        let a = self.p.ctx().int_array_attr(32, sizes);
        self.prop("operandSegmentSizes", a);
    }

    /// Builds the op with the props gathered and `extra` attributes
    /// (inherent ones among them moved to the properties).
    fn finish(mut self, name: &str, extra: Attr, results: &[Type]) -> PResult<OpId> {
        let loc = self.p.op_loc();
        let ctx = self.p.ctx();
        let mut attrs = Vec::new();
        for &(k, v) in ctx.dict_entries(extra) {
            match ctx.str(k) {
                "name" | "latency" | "init" | "prefix" | "output_file" => {
                    self.props.retain(|e| e.0 != k);
                    self.props.push((k, v));
                }
                _ => attrs.push((k, v)),
            }
        }
        let attrs = ctx.dict_attr(attrs);
        // An op without properties prints no `<{}>`, as CIRCT's.
        let props = std::mem::take(&mut self.props);
        let props = (!props.is_empty()).then(|| ctx.dict_attr(props));
        let op_name = ctx.sym(name);
        Ok(self.p.create_op(OpSpec {
            name: op_name,
            loc,
            operands: &self.operands,
            result_types: results,
            successors: &[],
            regions: &[],
            attrs,
            props,
        }))
    }
}

fn builder<'p, 'a, 'b>(p: &'p mut AsmParser<'a, 'b>) -> Builder<'p, 'a, 'b> {
    Builder {
        p,
        props: Vec::new(),
        operands: Vec::new(),
    }
}

fn keyword_index(p: &mut AsmParser<'_, '_>, words: &[&str], what: &str) -> PResult<i64> {
    let at = p.pos();
    let k = p.parse_keyword()?;
    match words.iter().position(|w| *w == k) {
        Some(i) => Ok(i as i64),
        None => p.error_at(at, format!("expected {what}: one of {}", words.join(", "))),
    }
}

/// An expected operand or result type.
#[derive(Clone, Copy)]
enum Want {
    Exactly(Type),
    Int(u32),
    Clock,
}

impl Want {
    fn matches(self, ctx: &Context, t: Type) -> bool {
        match self {
            Want::Exactly(w) => w == t,
            Want::Int(w) => types::is_int(ctx, t) && ctx.int_width(t) == Some(w),
            Want::Clock => types::is_clock(ctx, t),
        }
    }

    fn show(self, ctx: &Context) -> String {
        match self {
            Want::Exactly(t) => silica_ir::printer::type_to_string(ctx, t),
            Want::Int(w) => format!("i{w}"),
            Want::Clock => "!seq.clock".into(),
        }
    }
}

/// Checks that `op`'s operand and result types are `operands` and
/// `results` (what its syntax builds).
fn expect_types(
    v: &mut OpVerifier<'_, '_>,
    op: OpId,
    operands: &[Want],
    results: &[Want],
) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let fits = |vals: Vec<ValueId>, want: &[Want]| {
        vals.len() == want.len()
            && vals
                .iter()
                .zip(want)
                .all(|(&x, w)| w.matches(ctx, ir.value_type(x)))
    };
    if fits(ir.operands(op).collect(), operands) && fits(ir.results(op).collect(), results) {
        return Ok(());
    }
    let list = |ws: &[Want]| {
        ws.iter()
            .map(|w| w.show(ctx))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let msg = format!(
        "expects operands ({}) and results ({})",
        list(operands),
        list(results)
    );
    Err(v.op_error(op, msg))
}

/// The single result's type, or a diagnostic.
fn result_type(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<Type> {
    let ir = v.ir();
    match ir.results(op).collect::<Vec<_>>()[..] {
        [r] => Ok(ir.value_type(r)),
        _ => Err(v.op_error(op, "requires one result")),
    }
}

/// The first operand (the memory), or a diagnostic.
fn first_operand(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<ValueId> {
    match v.ir().operands(op).next() {
        Some(m) => Ok(m),
        None => Err(v.op_error(op, "requires a memory operand")),
    }
}

// ----- seq.firmem ------------------------------------------------------------

/// `seq.firmem [sym @s] [name "n"] RL, WL, ruw, wuw attr-dict : <D x W>`
pub(crate) fn parse_firmem(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let mut props = Vec::new();
    parse_sym(p, &mut props)?;
    let name = parse_implicit_name(p)?;
    let read_latency = p.parse_integer()?;
    p.expect(Tok::Comma, "','")?;
    let write_latency = p.parse_integer()?;
    p.expect(Tok::Comma, "','")?;
    let ruw = keyword_index(p, RUW, "a read-under-write behaviour")?;
    p.expect(Tok::Comma, "','")?;
    let wuw = keyword_index(p, WUW, "a write-under-write behaviour")?;
    let extra = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let ty = types::parse_firmem_body(p)?;
    let mut b = builder(p);
    b.props = props;
    b.prop("name", name);
    let rl = i64::try_from(read_latency).unwrap_or(-1);
    let wl = i64::try_from(write_latency).unwrap_or(-1);
    b.int_prop("readLatency", 32, rl);
    b.int_prop("writeLatency", 32, wl);
    b.int_prop("ruw", 32, ruw);
    b.int_prop("wuw", 32, wuw);
    b.finish("seq.firmem", extra, &[ty])
}

pub(crate) fn print_firmem(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let get = |n: &str| int_prop(ctx, ir, op, n).unwrap_or(0);
    let word = |words: &[&'static str], i: i64| words.get(i as usize).copied().unwrap_or("?");
    let text = format!(
        " {}, {}, {}, {}",
        get("readLatency"),
        get("writeLatency"),
        word(RUW, get("ruw")),
        word(WUW, get("wuw"))
    );
    print_sym(p, op);
    print_implicit_name(p, op);
    p.write(&text);
    print_attrs(
        p,
        op,
        &[
            "inner_sym",
            "name",
            "readLatency",
            "writeLatency",
            "ruw",
            "wuw",
        ],
    );
    p.write(" : ");
    if let Some(r) = ir.results(op).next() {
        p.write(&types::stripped_body(ctx, ir.value_type(r)));
    }
}

/// The depth, width and mask bits of a `!seq.firmem` value.
fn firmem_of(ctx: &Context, ir: &Ir, v: ValueId) -> Option<(u64, u64, Option<u64>)> {
    match types::hw_type(ctx, ir.value_type(v))? {
        HwType::FirMem { depth, width, mask } => Some((depth, width, mask)),
        _ => None,
    }
}

pub(crate) fn verify_firmem(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    crate::hw::inner_sym::verify_op(v, op)?;
    let t = result_type(v, op)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(HwType::FirMem { width, mask, .. }) = types::hw_type(ctx, t) else {
        return Err(v.op_error(op, "result must be a '!seq.firmem'"));
    };
    if ir.operands(op).next().is_some() {
        return Err(v.op_error(op, "takes no operands"));
    }
    if let Some(mask) = mask {
        if mask == 0 || width % mask != 0 {
            return Err(v.op_error(
                op,
                format!("mask width {mask} does not divide the data width {width}"),
            ));
        }
    }
    Ok(())
}

/// Which `seq.firmem` port an op is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FirPort {
    Read,
    Write,
    ReadWrite,
}

/// A firmem port's operands by role.
#[derive(Clone, Copy, Debug, Default)]
pub struct FirPortOperands {
    pub memory: Option<ValueId>,
    pub address: Option<ValueId>,
    pub clock: Option<ValueId>,
    pub enable: Option<ValueId>,
    pub data: Option<ValueId>,
    pub mode: Option<ValueId>,
    pub mask: Option<ValueId>,
}

/// The operands of a firmem port op by role.
pub fn fir_port_operands(ctx: &Context, ir: &Ir, op: OpId, kind: FirPort) -> FirPortOperands {
    let ops: Vec<ValueId> = ir.operands(op).collect();
    let mut it = ops.into_iter();
    let mut r = FirPortOperands {
        memory: it.next(),
        address: it.next(),
        clock: it.next(),
        ..FirPortOperands::default()
    };
    if kind == FirPort::Read {
        r.enable = it.next();
        return r;
    }
    let seg = segments(ctx, ir, op);
    let present = |i: usize| seg.get(i).copied().unwrap_or(0) > 0;
    if present(3) {
        r.enable = it.next();
    }
    r.data = it.next();
    if kind == FirPort::ReadWrite {
        r.mode = it.next();
    }
    let mask_at = if kind == FirPort::ReadWrite { 6 } else { 5 };
    if present(mask_at) {
        r.mask = it.next();
    }
    r
}

/// `%mem[%addr] [= %data [if %mode]], clock %clk [enable %en] [mask %m]
/// attr-dict : <D x W>[, mask-type]`
fn parse_fir_port(p: &mut AsmParser<'_, '_>, kind: FirPort) -> PResult<OpId> {
    let mem = p.parse_operand()?;
    p.expect(Tok::LSquare, "'['")?;
    let address = p.parse_operand()?;
    p.expect(Tok::RSquare, "']'")?;
    let mut data = None;
    let mut mode = None;
    if kind != FirPort::Read {
        p.expect(Tok::Equal, "'='")?;
        data = Some(p.parse_operand()?);
        if kind == FirPort::ReadWrite {
            p.expect_keyword("if")?;
            mode = Some(p.parse_operand()?);
        }
    }
    p.expect(Tok::Comma, "','")?;
    p.expect_keyword("clock")?;
    let clk = p.parse_operand()?;
    let enable = if p.eat_keyword("enable") {
        Some(p.parse_operand()?)
    } else {
        None
    };
    let mask = if kind != FirPort::Read && p.eat_keyword("mask") {
        Some(p.parse_operand()?)
    } else {
        None
    };
    let extra = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let ty = types::parse_firmem_body(p)?;
    let mask_ty = if mask.is_some() {
        p.expect(Tok::Comma, "','")?;
        Some(p.parse_type()?)
    } else {
        None
    };
    let Some(HwType::FirMem { depth, width, .. }) = types::hw_type(p.ctx(), ty) else {
        return p.op_error("expected a firmem type");
    };
    let ctx = p.ctx();
    let address_ty = ctx.signless(firmem_address_width(depth));
    let data_ty = ctx.signless(width as u32);
    let i1 = ctx.signless(1);
    let clock = types::clock(ctx);
    let mut b = builder(p);
    b.operand(mem, ty)?;
    b.operand(address, address_ty)?;
    b.operand(clk, clock)?;
    if let Some(e) = enable {
        b.operand(e, i1)?;
    }
    if let Some(d) = data {
        b.operand(d, data_ty)?;
    }
    if let Some(m) = mode {
        b.operand(m, i1)?;
    }
    if let (Some(m), Some(t)) = (mask, mask_ty) {
        b.operand(m, t)?;
    }
    let (e, m) = (i64::from(enable.is_some()), i64::from(mask.is_some()));
    let (name, results): (&str, Vec<Type>) = match kind {
        FirPort::Read => ("seq.firmem.read_port", vec![data_ty]),
        FirPort::Write => {
            b.segments(&[1, 1, 1, e, 1, m]);
            ("seq.firmem.write_port", vec![])
        }
        FirPort::ReadWrite => {
            b.segments(&[1, 1, 1, e, 1, 1, m]);
            ("seq.firmem.read_write_port", vec![data_ty])
        }
    };
    b.finish(name, extra, &results)
}

pub(crate) fn parse_read_port(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    parse_fir_port(p, FirPort::Read)
}

pub(crate) fn parse_write_port(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    parse_fir_port(p, FirPort::Write)
}

pub(crate) fn parse_read_write_port(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    parse_fir_port(p, FirPort::ReadWrite)
}

/// The kind of firmem port `op` is, by name.
pub fn fir_port_kind(name: &str) -> Option<FirPort> {
    match name {
        "seq.firmem.read_port" => Some(FirPort::Read),
        "seq.firmem.write_port" => Some(FirPort::Write),
        "seq.firmem.read_write_port" => Some(FirPort::ReadWrite),
        _ => None,
    }
}

pub(crate) fn print_fir_port(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let Some(kind) = fir_port_kind(ctx.str(ir.op_name(op))) else {
        return;
    };
    let r = fir_port_operands(ctx, ir, op, kind);
    let opt = |p: &mut AsmPrinter<'_, '_>, v: Option<ValueId>| {
        if let Some(v) = v {
            p.operand(v);
        }
    };
    p.write(" ");
    opt(p, r.memory);
    p.write("[");
    opt(p, r.address);
    p.write("]");
    if kind != FirPort::Read {
        p.write(" = ");
        opt(p, r.data);
        if kind == FirPort::ReadWrite {
            p.write(" if ");
            opt(p, r.mode);
        }
    }
    p.write(", clock ");
    opt(p, r.clock);
    if let Some(e) = r.enable {
        p.write(" enable ");
        p.operand(e);
    }
    if let Some(m) = r.mask {
        p.write(" mask ");
        p.operand(m);
    }
    print_attrs(p, op, &["operandSegmentSizes"]);
    p.write(" : ");
    if let Some(m) = r.memory {
        p.write(&types::stripped_body(ctx, ir.value_type(m)));
    }
    if let Some(m) = r.mask {
        p.write(", ");
        p.ty(ir.value_type(m));
    }
}

pub(crate) fn verify_fir_port(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(kind) = fir_port_kind(ctx.str(ir.op_name(op))) else {
        return Ok(());
    };
    let mem = first_operand(v, op)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    let r = fir_port_operands(ctx, ir, op, kind);
    let Some((depth, width, mask)) = firmem_of(ctx, ir, mem) else {
        return Err(v.op_error(op, "expects a '!seq.firmem' memory operand"));
    };
    let mem_ty = r.memory.map(|m| ir.value_type(m));
    let sizes = segments(ctx, ir, op);
    let given = ir.operands(op).count() as i64;
    if kind != FirPort::Read && sizes.iter().sum::<i64>() != given {
        return Err(v.op_error(op, "operand segment sizes do not match its operands"));
    }
    match (r.mask, mask) {
        (Some(m), None) => {
            let shown = silica_ir::printer::type_to_string(ctx, mem_ty.unwrap_or(ir.value_type(m)));
            Err(v.op_error(
                op,
                format!("has mask operand but memory type ''{shown}'' has no mask"),
            ))
        }
        (Some(m), Some(bits)) if ctx.int_width(ir.value_type(m)) != Some(bits as u32) => {
            let shown = silica_ir::printer::type_to_string(ctx, ir.value_type(m));
            Err(v.op_error(
                op,
                format!(
                    "has mask operand of type ''{shown}'', but memory type requires ''i{bits}''"
                ),
            ))
        }
        _ => {
            let mut want = vec![Want::Exactly(ir.value_type(mem))];
            want.push(Want::Int(firmem_address_width(depth)));
            want.push(Want::Clock);
            let i1 = Want::Int(1);
            let data = Want::Int(width as u32);
            if r.enable.is_some() {
                want.push(i1);
            }
            if kind != FirPort::Read {
                want.push(data);
            }
            if kind == FirPort::ReadWrite {
                want.push(i1);
            }
            if let Some(m) = r.mask {
                want.push(Want::Exactly(ir.value_type(m)));
            }
            let results = if kind == FirPort::Write {
                vec![]
            } else {
                vec![data]
            };
            expect_types(v, op, &want, &results)
        }
    }
}

// ----- seq.hlmem, seq.read, seq.write --------------------------------------------

/// The dimensions and element type of a `!seq.hlmem` value.
pub fn hlmem_of(ctx: &Context, ir: &Ir, v: ValueId) -> Option<(Vec<u64>, Type)> {
    match types::hw_type(ctx, ir.value_type(v))? {
        HwType::HlMem(dims, element) => Some((dims, element)),
        _ => None,
    }
}

/// `seq.hlmem @name %clk, %rst attr-dict : <4xi32>`
pub(crate) fn parse_hlmem(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let name = p.parse_symbol_name()?;
    let clk = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let rst = p.parse_operand()?;
    let extra = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let ty = types::parse_hlmem_body(p)?;
    let ctx = p.ctx();
    let clock = types::clock(ctx);
    let i1 = ctx.signless(1);
    let text = ctx.str(name).to_string();
    let sym = ctx.string_attr(text.as_bytes());
    let mut b = builder(p);
    b.operand(clk, clock)?;
    b.operand(rst, i1)?;
    b.prop("sym_name", sym);
    b.finish("seq.hlmem", extra, &[ty])
}

pub(crate) fn print_hlmem(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    p.write(" ");
    if let Some(AttrKind::String { value, .. }) =
        inherent_attr(ctx, ir, op, "sym_name").map(|a| ctx.attr_kind(a))
    {
        p.symbol_name(&String::from_utf8_lossy(value));
    }
    p.write(" ");
    p.operands(ir.operands(op));
    print_attrs(p, op, &["sym_name"]);
    p.write(" : ");
    if let Some(r) = ir.results(op).next() {
        p.write(&types::stripped_body(ctx, ir.value_type(r)));
    }
}

fn hlmem_name(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, "sym_name")?) {
        AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    }
}

pub(crate) fn hlmem_result_name(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    hlmem_name(ctx, ir, op)
}

/// A `seq.read`'s or `seq.write`'s operands by role.
#[derive(Clone, Debug, Default)]
pub struct HlPortOperands {
    pub memory: Option<ValueId>,
    pub addresses: Vec<ValueId>,
    pub data: Option<ValueId>,
    pub enable: Option<ValueId>,
}

/// The operands of a `seq.read` or `seq.write` by role.
pub fn hl_port_operands(ctx: &Context, ir: &Ir, op: OpId) -> HlPortOperands {
    let ops: Vec<ValueId> = ir.operands(op).collect();
    let Some((&memory, rest)) = ops.split_first() else {
        return HlPortOperands::default();
    };
    if ctx.str(ir.op_name(op)) == "seq.write" {
        let n = rest.len().saturating_sub(2);
        return HlPortOperands {
            memory: Some(memory),
            addresses: rest[..n].to_vec(),
            data: rest.get(n).copied(),
            enable: rest.get(n + 1).copied(),
        };
    }
    let seg = segments(ctx, ir, op);
    let n = seg.get(1).copied().unwrap_or(rest.len() as i64).max(0) as usize;
    HlPortOperands {
        memory: Some(memory),
        addresses: rest[..n.min(rest.len())].to_vec(),
        data: None,
        enable: rest.get(n).copied(),
    }
}

/// `%mem[%a, ...] (rden %e | %data wren %e) attr-dict : !seq.hlmem<...>`
fn parse_hl_port(p: &mut AsmParser<'_, '_>, write: bool) -> PResult<OpId> {
    let mem = p.parse_operand()?;
    p.expect(Tok::LSquare, "'['")?;
    let mut addresses = Vec::new();
    p.comma_list(Tok::RSquare, "an address", |p| {
        addresses.push(p.parse_operand()?);
        Ok(())
    })?;
    let (data, enable) = if write {
        let d = p.parse_operand()?;
        p.expect_keyword("wren")?;
        (Some(d), Some(p.parse_operand()?))
    } else if p.eat_keyword("rden") {
        (None, Some(p.parse_operand()?))
    } else {
        (None, None)
    };
    let extra = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let at = p.pos();
    let ty = p.parse_type()?;
    let Some(HwType::HlMem(dims, element)) = types::hw_type(p.ctx(), ty) else {
        return p.error_at(at, "expected a '!seq.hlmem' type");
    };
    if addresses.len() != dims.len() {
        let (n, want) = (
            addresses.len() + 1 + usize::from(enable.is_some()),
            dims.len() + 1,
        );
        return p.op_error(format!("{n} operands present, but expected {want}"));
    }
    let i1 = p.ctx().signless(1);
    let mut b = builder(p);
    b.operand(mem, ty)?;
    for (a, &d) in addresses.into_iter().zip(&dims) {
        let t = b.p.ctx().signless(index_width(d));
        b.operand(a, t)?;
    }
    if let Some(d) = data {
        b.operand(d, element)?;
    }
    if let Some(e) = enable {
        b.operand(e, i1)?;
    }
    if write {
        return b.finish("seq.write", extra, &[]);
    }
    b.segments(&[1, dims.len() as i64, i64::from(enable.is_some())]);
    b.finish("seq.read", extra, &[element])
}

pub(crate) fn parse_read(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    parse_hl_port(p, false)
}

pub(crate) fn parse_write(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    parse_hl_port(p, true)
}

pub(crate) fn print_hl_port(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let r = hl_port_operands(ctx, ir, op);
    let Some(mem) = r.memory else { return };
    p.write(" ");
    p.operand(mem);
    p.write("[");
    p.operands(r.addresses.iter().copied());
    p.write("]");
    if let Some(d) = r.data {
        p.write(" ");
        p.operand(d);
    }
    if let Some(e) = r.enable {
        p.write(if r.data.is_some() { " wren " } else { " rden " });
        p.operand(e);
    }
    print_attrs(p, op, &["operandSegmentSizes"]);
    p.write(" : ");
    p.ty(ir.value_type(mem));
}

/// A read port is named after its memory: `%mem_rdata`.
pub(crate) fn read_result_name(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    let mem = ir.operands(op).next()?;
    let d = ir.defining_op(mem)?;
    hlmem_name(ctx, ir, d).map(|n| format!("{n}_rdata"))
}

pub(crate) fn verify_hl_port(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let mem = first_operand(v, op)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    let r = hl_port_operands(ctx, ir, op);
    let Some((dims, element)) = hlmem_of(ctx, ir, mem) else {
        return Err(v.op_error(op, "expects a '!seq.hlmem' memory operand"));
    };
    if int_prop(ctx, ir, op, "latency").is_none() {
        return Err(v.op_error(op, "requires attribute 'latency'"));
    }
    let write = ctx.str(ir.op_name(op)) == "seq.write";
    let seg = segments(ctx, ir, op);
    if !write && seg.iter().sum::<i64>() != ir.operands(op).count() as i64 {
        return Err(v.op_error(op, "operand segment sizes do not match its operands"));
    }
    let mut want = vec![Want::Exactly(ir.value_type(mem))];
    for &d in &dims {
        want.push(Want::Int(index_width(d)));
    }
    if write {
        want.push(Want::Exactly(element));
    }
    if r.enable.is_some() || write {
        want.push(Want::Int(1));
    }
    let results = if write {
        vec![]
    } else {
        vec![Want::Exactly(element)]
    };
    expect_types(v, op, &want, &results)
}

pub(crate) fn verify_hlmem(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let t = result_type(v, op)?;
    if hlmem_of(v.ctx(), v.ir(), v.ir().result(op, 0)).is_none() {
        return Err(v.op_error(op, "result must be a '!seq.hlmem'"));
    }
    expect_types(v, op, &[Want::Clock, Want::Int(1)], &[Want::Exactly(t)])
}

// ----- seq.shiftreg ----------------------------------------------------------------

/// A `seq.shiftreg`'s operands by role: input, clock, enable, reset,
/// reset value, power-on value.
pub fn shiftreg_operands(ctx: &Context, ir: &Ir, op: OpId) -> [Option<ValueId>; 6] {
    let seg = segments(ctx, ir, op);
    let mut it = ir.operands(op);
    let mut out = [None; 6];
    for (i, slot) in out.iter_mut().enumerate() {
        if seg.get(i).copied().unwrap_or(0) > 0 {
            *slot = it.next();
        }
    }
    out
}

/// The operands of a `seq.fifo` by role: input, read enable, write
/// enable, clock, reset.
pub fn fifo_operands(ir: &Ir, op: OpId) -> [Option<ValueId>; 5] {
    let mut it = ir.operands(op);
    std::array::from_fn(|_| it.next())
}

/// `seq.shiftreg [N] [sym @s] [name "n"] %in, %clk, %en [reset %r, %v]
/// [powerOn %p] attr-dict : type`
pub(crate) fn parse_shiftreg(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    p.expect(Tok::LSquare, "'['")?;
    let n = p.parse_integer()?;
    p.expect(Tok::RSquare, "']'")?;
    let mut props = Vec::new();
    parse_sym(p, &mut props)?;
    let name = parse_implicit_name(p)?;
    let input = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let clk = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let enable = p.parse_operand()?;
    let reset = if p.eat_keyword("reset") {
        let r = p.parse_operand()?;
        p.expect(Tok::Comma, "','")?;
        Some((r, p.parse_operand()?))
    } else {
        None
    };
    let power_on = if p.eat_keyword("powerOn") {
        Some(p.parse_operand()?)
    } else {
        None
    };
    let extra = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let ty = p.parse_type()?;
    let ctx = p.ctx();
    let clock = types::clock(ctx);
    let i1 = ctx.signless(1);
    let mut b = builder(p);
    b.props = props;
    b.operand(input, ty)?;
    b.operand(clk, clock)?;
    b.operand(enable, i1)?;
    let has_reset = reset.is_some();
    if let Some((r, v)) = reset {
        b.operand(r, i1)?;
        b.operand(v, ty)?;
    }
    if let Some(v) = power_on {
        b.operand(v, ty)?;
    }
    b.prop("name", name);
    b.int_prop("numElements", 64, i64::try_from(n).unwrap_or(0));
    let r = i64::from(has_reset);
    b.segments(&[1, 1, 1, r, r, i64::from(power_on.is_some())]);
    b.finish("seq.shiftreg", extra, &[ty])
}

pub(crate) fn print_shiftreg(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let [input, clk, en, rst, rv, power_on] = shiftreg_operands(ctx, ir, op);
    let n = int_prop(ctx, ir, op, "numElements").unwrap_or(0);
    p.write(&format!("[{n}]"));
    print_sym(p, op);
    print_implicit_name(p, op);
    p.write(" ");
    p.operands([input, clk, en].into_iter().flatten());
    if let (Some(r), Some(v)) = (rst, rv) {
        p.write(" reset ");
        p.operand(r);
        p.write(", ");
        p.operand(v);
    }
    if let Some(v) = power_on {
        p.write(" powerOn ");
        p.operand(v);
    }
    print_attrs(
        p,
        op,
        &["inner_sym", "name", "numElements", "operandSegmentSizes"],
    );
    p.write(" : ");
    if let Some(r) = ir.results(op).next() {
        p.ty(ir.value_type(r));
    }
    p.write("  ");
}

pub(crate) fn verify_shiftreg(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    crate::hw::inner_sym::verify_op(v, op)?;
    let t = result_type(v, op)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    if int_prop(ctx, ir, op, "numElements").unwrap_or(0) < 1 {
        return Err(v.op_error(
            op,
            "attribute 'numElements' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1",
        ));
    }
    let seg = segments(ctx, ir, op);
    if seg.len() != 6 || seg.iter().sum::<i64>() != ir.operands(op).count() as i64 {
        return Err(v.op_error(op, "operand segment sizes do not match its operands"));
    }
    let (t, i1) = (Want::Exactly(t), Want::Int(1));
    let mut want = vec![t, Want::Clock, i1];
    if seg[3] > 0 {
        want.extend([i1, t]);
    }
    if seg[5] > 0 {
        want.push(t);
    }
    expect_types(v, op, &want, &[t])
}

pub(crate) fn verify_const_clock(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    expect_types(v, op, &[], &[Want::Clock])
}

// ----- seq.fifo ----------------------------------------------------------------------

/// `seq.fifo depth N [rd_latency N] [almost_full N] [almost_empty N] in
/// %in rdEn %r wrEn %w clk %c rst %rst attr-dict : type`
pub(crate) fn parse_fifo(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    p.expect_keyword("depth")?;
    let depth = p.parse_integer()?;
    let optional = |p: &mut AsmParser<'_, '_>, kw: &str| -> PResult<Option<i64>> {
        if p.eat_keyword(kw) {
            Ok(Some(i64::try_from(p.parse_integer()?).unwrap_or(-1)))
        } else {
            Ok(None)
        }
    };
    let rd_latency = optional(p, "rd_latency")?;
    let almost_full = optional(p, "almost_full")?;
    let almost_empty = optional(p, "almost_empty")?;
    let mut operands = Vec::new();
    for kw in ["in", "rdEn", "wrEn", "clk", "rst"] {
        p.expect_keyword(kw)?;
        operands.push(p.parse_operand()?);
    }
    let extra = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let ty = p.parse_type()?;
    let ctx = p.ctx();
    let clock = types::clock(ctx);
    let i1 = ctx.signless(1);
    let want = 3 + usize::from(almost_full.is_some()) + usize::from(almost_empty.is_some());
    let bound = p.num_bound_results();
    if bound != 0 && bound != want {
        return p.op_error(format!(
            "operation defines {want} results but was provided {bound} to bind"
        ));
    }
    let mut b = builder(p);
    let mut it = operands.into_iter();
    for t in [ty, i1, i1, clock, i1] {
        if let Some(u) = it.next() {
            b.operand(u, t)?;
        }
    }
    b.int_prop("depth", 64, i64::try_from(depth).unwrap_or(0));
    for (name, v) in [
        ("rdLatency", rd_latency),
        ("almostFullThreshold", almost_full),
        ("almostEmptyThreshold", almost_empty),
    ] {
        if let Some(v) = v {
            b.int_prop(name, 64, v);
        }
    }
    let (af, ae) = (
        i64::from(almost_full.is_some()),
        i64::from(almost_empty.is_some()),
    );
    let seg = b.p.ctx().int_array_attr(32, &[1, 1, 1, af, ae]);
    b.prop("resultSegmentSizes", seg);
    let mut results = vec![ty, i1, i1];
    results.extend(std::iter::repeat_n(i1, (af + ae) as usize));
    b.finish("seq.fifo", extra, &results)
}

pub(crate) fn print_fifo(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let get = |n: &str| int_prop(ctx, ir, op, n);
    let mut text = format!(" depth {}", get("depth").unwrap_or(0));
    if let Some(l) = get("rdLatency") {
        text.push_str(&format!(" rd_latency {l}"));
    }
    text.push(' ');
    if let Some(t) = get("almostFullThreshold") {
        text.push_str(&format!("almost_full {t}"));
    }
    text.push(' ');
    if let Some(t) = get("almostEmptyThreshold") {
        text.push_str(&format!("almost_empty {t}"));
    }
    p.write(&text);
    let ops: Vec<ValueId> = ir.operands(op).collect();
    for (kw, v) in ["in", "rdEn", "wrEn", "clk", "rst"].iter().zip(&ops) {
        p.write(&format!(" {kw} "));
        p.operand(*v);
    }
    print_attrs(
        p,
        op,
        &[
            "depth",
            "rdLatency",
            "almostFullThreshold",
            "almostEmptyThreshold",
            "resultSegmentSizes",
        ],
    );
    p.write(" : ");
    if let Some(&v) = ops.first() {
        p.ty(ir.value_type(v));
    }
}

pub(crate) fn fifo_names(ctx: &Context, ir: &Ir, op: OpId) -> ValueNames {
    let _ = ctx;
    let all = ["out", "full", "empty", "almostFull", "almostEmpty"];
    let n = ir.results(op).count();
    let names: Vec<String> =
        if n == 4 && inherent_attr(ctx, ir, op, "almostFullThreshold").is_none() {
            vec!["out", "full", "empty", "almostEmpty"]
                .into_iter()
                .map(String::from)
                .collect()
        } else {
            all.iter().take(n).map(|s| s.to_string()).collect()
        };
    ValueNames {
        results: names,
        entry_args: Vec::new(),
    }
}

pub(crate) fn verify_fifo(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let Some(data) = v.ir().operands(op).next().map(|d| v.ir().value_type(d)) else {
        return Err(v.op_error(op, "requires an input operand"));
    };
    let (data, i1) = (Want::Exactly(data), Want::Int(1));
    let flags = v.ir().results(op).count().clamp(3, 5) - 3;
    let mut results = vec![data, i1, i1];
    results.extend(std::iter::repeat_n(i1, flags));
    expect_types(v, op, &[data, i1, i1, Want::Clock, i1], &results)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    let depth = int_prop(ctx, ir, op, "depth").unwrap_or(0);
    if depth < 1 {
        return Err(v.op_error(
            op,
            "attribute 'depth' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1",
        ));
    }
    for (attr, what) in [
        ("almostFullThreshold", "almost full"),
        ("almostEmptyThreshold", "almost empty"),
    ] {
        if int_prop(ctx, ir, op, attr).is_some_and(|t| t > depth) {
            return Err(v.op_error(op, format!("{what} threshold must be <= FIFO depth")));
        }
    }
    Ok(())
}

/// A `seq.fifo`'s almost-full and almost-empty results, when it has
/// them.
pub fn fifo_flags(ctx: &Context, ir: &Ir, op: OpId) -> (Option<ValueId>, Option<ValueId>) {
    let has_af = inherent_attr(ctx, ir, op, "almostFullThreshold").is_some();
    let has_ae = inherent_attr(ctx, ir, op, "almostEmptyThreshold").is_some();
    let mut rest = ir.results(op).skip(3);
    let af = if has_af { rest.next() } else { None };
    let ae = if has_ae { rest.next() } else { None };
    (af, ae)
}

// ----- seq.const_clock ------------------------------------------------------------

/// `seq.const_clock  high|low` (the value kept as an `i1`).
pub(crate) fn parse_const_clock(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let value = keyword_index(p, &["low", "high"], "a clock constant")?;
    let extra = p.parse_optional_attr_dict()?;
    let clock = types::clock(p.ctx());
    let mut b = builder(p);
    b.int_prop("value", 1, value);
    b.finish("seq.const_clock", extra, &[clock])
}

pub(crate) fn print_const_clock(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let high = int_prop(ctx, ir, op, "value").unwrap_or(0) != 0;
    p.write(if high { "  high" } else { "  low" });
    print_attrs(p, op, &["value"]);
}

/// The memory a port op reads or writes (`seq.firmem` or `seq.hlmem`).
pub fn port_memory(ir: &Ir, port: OpId) -> Option<OpId> {
    ir.operands(port).next().and_then(|m| ir.defining_op(m))
}

/// The name a memory is emitted under.
pub fn memory_name(ctx: &Context, ir: &Ir, mem: OpId) -> Option<String> {
    name_attr(ctx, ir, mem).or_else(|| hlmem_name(ctx, ir, mem))
}

/// The discardable attribute that asks synthesis for a memory's kind of
/// RAM: its value is yosys's `ram_style` (`"distributed"`: LUT RAM;
/// `"block"`; `"logic"`: flip-flops), emitted as that attribute on the
/// memory's array.
pub const RAM_STYLE: &str = "sv.ram_style";

/// The kind of RAM memory `mem` asks for ([`RAM_STYLE`]), if any.
pub fn ram_style(ctx: &Context, ir: &Ir, mem: OpId) -> Option<String> {
    match ctx.attr_kind(inherent_attr(ctx, ir, mem, RAM_STYLE)?) {
        AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    }
}
