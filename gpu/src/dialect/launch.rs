//! `gpu.launch`: a kernel written in place, run on a grid of blocks of
//! threads. Its operands are the grid's and the block's sizes (and a
//! dynamic shared memory size); its body's entry block has the block
//! ids, thread ids, grid sizes and block sizes (three each), then the
//! workgroup and private attributions. `gpu.terminator` ends the body.
//!
//! ```text
//! gpu.launch blocks(%bx, %by, %bz) in (%gx = %0, %gy = %1, %gz = %1)
//!            threads(%tx, %ty, %tz) in (%sx = %1, %sy = %1, %sz = %1)
//!            [dynamic_shared_memory_size %s] [workgroup(%w : T, ...)]
//!            [private(%p : T, ...)] { ... } [attr-dict]
//! ```

use silica_ir::dialect::{Effects, OpDef, Traits};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult, UnresolvedOperand};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, Context, Ir, OpId, OpSpec, RegionId, Type, ValueId};

pub const LAUNCH: &str = "gpu.launch";
pub const TERMINATOR: &str = "gpu.terminator";

/// The entry arguments of a launch's body before its attributions.
pub const CONFIG_ARGS: usize = 12;

/// `operandSegmentSizes` of a launch: async dependencies, grid sizes,
/// block sizes, cluster sizes, dynamic shared memory size.
fn segments(ctx: &mut Context, dynamic_shared: bool) -> Attr {
    ctx.int_array_attr(
        32,
        &[0, 1, 1, 1, 1, 1, 1, 0, 0, 0, i64::from(dynamic_shared)],
    )
}

/// `(%a, %b, %c)`: three names.
fn parse_ids<'a>(p: &mut AsmParser<'_, 'a>) -> PResult<Vec<UnresolvedOperand<'a>>> {
    p.expect(Tok::LParen, "'('")?;
    let mut ids = Vec::new();
    p.comma_list(Tok::RParen, "')'", |p| {
        ids.push(p.parse_argument()?);
        Ok(())
    })?;
    if ids.len() != 3 {
        return p.op_error("custom op 'gpu.launch' expected 3 identifiers");
    }
    Ok(ids)
}

/// `in (%x = %v, %y = %v, %z = %v)`: three names and their values.
#[allow(clippy::type_complexity)]
fn parse_sizes<'a>(
    p: &mut AsmParser<'_, 'a>,
) -> PResult<(Vec<UnresolvedOperand<'a>>, Vec<UnresolvedOperand<'a>>)> {
    p.expect_keyword("in")?;
    p.expect(Tok::LParen, "'('")?;
    let (mut names, mut values) = (Vec::new(), Vec::new());
    p.comma_list(Tok::RParen, "')'", |p| {
        names.push(p.parse_argument()?);
        p.expect(Tok::Equal, "'='")?;
        values.push(p.parse_operand()?);
        Ok(())
    })?;
    if names.len() != 3 {
        return p.op_error("custom op 'gpu.launch' expected 3 sizes");
    }
    Ok((names, values))
}

/// `workgroup(%a : T, ...)` or `private(...)` after its keyword.
fn parse_attributions<'a>(
    p: &mut AsmParser<'_, 'a>,
) -> PResult<Vec<(UnresolvedOperand<'a>, Type)>> {
    p.expect(Tok::LParen, "'('")?;
    let mut args = Vec::new();
    p.comma_list(Tok::RParen, "')'", |p| {
        let name = p.parse_argument()?;
        p.expect(Tok::Colon, "':'")?;
        args.push((name, p.parse_type()?));
        Ok(())
    })?;
    Ok(args)
}

fn parse_launch(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    if p.peek_keyword("async") || p.peek(Tok::LSquare) || p.peek_keyword("clusters") {
        return p.op_error(
            "custom op 'gpu.launch' with async dependencies or clusters is not supported by silica",
        );
    }
    p.expect_keyword("blocks")?;
    let block_ids = parse_ids(p)?;
    let (grid_names, grid) = parse_sizes(p)?;
    p.expect_keyword("threads")?;
    let thread_ids = parse_ids(p)?;
    let (block_names, block) = parse_sizes(p)?;
    let dynamic_shared = if p.eat_keyword("dynamic_shared_memory_size") {
        Some(p.parse_operand()?)
    } else {
        None
    };
    let workgroup = if p.eat_keyword("workgroup") {
        parse_attributions(p)?
    } else {
        Vec::new()
    };
    let private = if p.eat_keyword("private") {
        parse_attributions(p)?
    } else {
        Vec::new()
    };
    let index = p.ctx().index_type();
    let mut args: Vec<(UnresolvedOperand<'_>, Type)> = block_ids
        .iter()
        .chain(&thread_ids)
        .chain(&grid_names)
        .chain(&block_names)
        .map(|u| (*u, index))
        .collect();
    args.extend(workgroup.iter().copied());
    args.extend(private.iter().copied());
    let region = p.ir().create_region();
    p.parse_region_with_args(region, &args)?;
    let dict = p.parse_optional_attr_dict()?;
    let mut operands = p.resolve_indices(&grid)?;
    operands.extend(p.resolve_indices(&block)?);
    if let Some(s) = dynamic_shared {
        let i32 = p.ctx().signless(32);
        operands.push(p.resolve_operand(s, i32)?);
    }
    let loc = p.op_loc();
    let ctx = p.ctx();
    let mut attrs: Vec<_> = ctx.dict_entries(dict).to_vec();
    let key = ctx.sym("workgroup_attributions");
    if !attrs.iter().any(|(k, _)| *k == key) {
        let i64 = ctx.signless(64);
        let count = ctx.int_attr(i64, workgroup.len() as i64);
        attrs.push((key, count));
    }
    let attrs = ctx.dict_attr(attrs);
    let key = ctx.sym(silica_ir::format::SEGMENTS);
    let sizes = segments(ctx, dynamic_shared.is_some());
    let props = ctx.dict_attr(vec![(key, sizes)]);
    let name = ctx.sym(LAUNCH);
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs,
        props: Some(props),
    }))
}

/// The number of workgroup attributions of a launch or `gpu.func`.
pub fn workgroup_attributions(ctx: &Context, ir: &Ir, op: OpId) -> usize {
    let key = ctx.lookup_sym("workgroup_attributions");
    ctx.dict_entries(ir.op_attrs(op))
        .iter()
        .find(|(k, _)| Some(*k) == key)
        .and_then(|(_, v)| match ctx.attr_kind(*v) {
            silica_ir::AttrKind::Integer { value, .. } => usize::try_from(value).ok(),
            _ => None,
        })
        .unwrap_or(0)
}

/// ` workgroup(%a : T, ...)` of `args`, nothing when empty.
pub fn print_attributions(p: &mut AsmPrinter<'_, '_>, keyword: &str, args: &[ValueId]) {
    if args.is_empty() {
        return;
    }
    p.write(" ");
    p.write(keyword);
    p.write("(");
    for (i, &a) in args.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.operand(a);
        p.write(" : ");
        let t = p.ir().value_type(a);
        p.ty(t);
    }
    p.write(")");
}

fn print_launch(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let ctx = p.ctx();
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let Some(region) = ir.regions(op).next() else {
        return;
    };
    let args: Vec<ValueId> = ir
        .entry_block(region)
        .map(|b| ir.block_args(b).to_vec())
        .unwrap_or_default();
    if args.len() < CONFIG_ARGS || operands.len() < 6 {
        return;
    }
    let workgroup = workgroup_attributions(ctx, ir, op).min(args.len() - CONFIG_ARGS);
    let ids = |p: &mut AsmPrinter<'_, '_>, vs: &[ValueId]| {
        p.write("(");
        p.operands(vs.iter().copied());
        p.write(")");
    };
    let sizes = |p: &mut AsmPrinter<'_, '_>, names: &[ValueId], values: &[ValueId]| {
        p.write(" in (");
        for (i, (&n, &v)) in names.iter().zip(values).enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.operand(n);
            p.write(" = ");
            p.operand(v);
        }
        p.write(")");
    };
    p.write(" blocks");
    ids(p, &args[0..3]);
    sizes(p, &args[6..9], &operands[0..3]);
    p.write(" threads");
    ids(p, &args[3..6]);
    sizes(p, &args[9..12], &operands[3..6]);
    if let Some(&s) = operands.get(6) {
        p.write(" dynamic_shared_memory_size ");
        p.operand(s);
    }
    print_attributions(p, "workgroup", &args[CONFIG_ARGS..CONFIG_ARGS + workgroup]);
    print_attributions(p, "private", &args[CONFIG_ARGS + workgroup..]);
    p.write(" ");
    p.region(region, false, false);
    p.attr_dict(ir.op_attrs(op), &["workgroup_attributions"], false);
}

fn verify_launch(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let Some(region) = ir.regions(op).next() else {
        return Err(v.op_error(op, "requires one region"));
    };
    if ir.region_is_empty(region) {
        return Ok(());
    }
    let count = ir.entry_block(region).map_or(0, |b| ir.block_args(b).len());
    if count < CONFIG_ARGS {
        return Err(v.op_error(
            op,
            format!("unexpected number of region arguments: expected at least {CONFIG_ARGS}, got {count}"),
        ));
    }
    Ok(())
}

fn verify_terminator(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    if v.ir().operands(op).next().is_some() {
        return Err(v.op_error(op, "takes no operands"));
    }
    Ok(())
}

fn parse_terminator(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let attrs = p.parse_optional_attr_dict()?;
    let loc = p.op_loc();
    let name = p.ctx().sym(TERMINATOR);
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    }))
}

fn print_terminator(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let attrs = p.ir().op_attrs(op);
    p.attr_dict(attrs, &[], false);
}

/// The region of a launch.
pub fn body(ir: &Ir, op: OpId) -> Option<RegionId> {
    ir.regions(op).next()
}

pub(super) const OPS: [OpDef; 2] = [
    OpDef {
        parse: Some(parse_launch),
        print: Some(print_launch),
        verify: Some(verify_launch),
        inherent_attrs: &["operandSegmentSizes", "module", "function"],
        effects: Effects::Recursive,
        traits: Traits::ALLOCATION_SCOPE.with(Traits::AFFINE_SCOPE),
        ..OpDef::new(LAUNCH)
    },
    OpDef {
        parse: Some(parse_terminator),
        print: Some(print_terminator),
        verify: Some(verify_terminator),
        traits: Traits::TERMINATOR,
        parents: &[LAUNCH],
        effects: Effects::None,
        ..OpDef::new(TERMINATOR)
    },
];
