//! `llvm.switch`: `%v : i32, ^default(args) [ 1: ^bb(args), ... ]`, its
//! properties (case values as a dense vector, per-case operand counts,
//! operand segments) and verifier.

use silica_ir::dialect::{inherent_attr, OpDef, Traits};
use silica_ir::format::{segment_sizes, SEGMENTS};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, BlockId, Context, Ir, OpId, OpSpec, TypeKind, ValueId};

/// `^bb` or `^bb(%a, %b : t1, t2)`; appends the values to `operands`.
pub(crate) fn parse_dest(
    p: &mut AsmParser<'_, '_>,
    operands: &mut Vec<ValueId>,
) -> PResult<(BlockId, i64)> {
    let dest = p.parse_successor()?;
    if !p.eat(Tok::LParen) {
        return Ok((dest, 0));
    }
    let values = p.parse_operand_list()?;
    p.expect(Tok::Colon, "':'")?;
    let types = p.parse_type_list()?;
    p.expect(Tok::RParen, "')'")?;
    if values.len() != types.len() {
        return p.expected("as many types as operands");
    }
    let n = values.len() as i64;
    for (v, t) in values.into_iter().zip(types) {
        operands.push(p.resolve_operand(v, t)?);
    }
    Ok((dest, n))
}

fn parse_switch(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let flag = p.parse_operand()?;
    p.expect(Tok::Colon, "':'")?;
    let flag_ty = p.parse_type()?;
    let flag = p.resolve_operand(flag, flag_ty)?;
    p.expect(Tok::Comma, "','")?;
    let mut operands = vec![flag];
    let (default, default_count) = parse_dest(p, &mut operands)?;
    let mut successors = vec![default];
    let mut values = Vec::new();
    let mut counts = Vec::new();
    p.expect(Tok::LSquare, "'['")?;
    if !p.eat(Tok::RSquare) {
        loop {
            let v = p.parse_integer()?;
            p.expect(Tok::Colon, "':'")?;
            let (dest, n) = parse_dest(p, &mut operands)?;
            values.push(v);
            successors.push(dest);
            counts.push(n);
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::RSquare, "']'")?;
    }
    let attrs = p.parse_optional_attr_dict()?;
    let loc = p.op_loc();
    let ctx = p.ctx();
    let total: i64 = counts.iter().sum();
    let mut props = vec![
        (
            ctx.sym("case_operand_segments"),
            ctx.int_array_attr(32, &counts),
        ),
        (
            ctx.sym(SEGMENTS),
            ctx.int_array_attr(32, &[1, default_count, total]),
        ),
    ];
    if !values.is_empty() {
        let vec_ty = ctx.intern_type(TypeKind::Vector {
            shape: Box::new([values.len() as i64]),
            scalable: Box::new([false]),
            element: flag_ty,
        });
        let elems: Vec<Attr> = values
            .iter()
            .map(|v| ctx.int_attr(flag_ty, v.clone()))
            .collect();
        let elems = if elems.iter().all(|e| *e == elems[0]) {
            vec![elems[0]]
        } else {
            elems
        };
        let k = ctx.sym("case_values");
        let v = ctx.intern_attr(AttrKind::DenseElements {
            ty: vec_ty,
            values: elems.into(),
        });
        props.push((k, v));
    }
    let props = ctx.dict_attr(props);
    let name = ctx.sym("llvm.switch");
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[],
        successors: &successors,
        regions: &[],
        attrs,
        props: Some(props),
    }))
}

/// The case values of a switch, in order (signed).
pub fn case_values(ctx: &Context, ir: &Ir, op: OpId) -> Vec<silica_ir::BigInt> {
    let Some(a) = inherent_attr(ctx, ir, op, "case_values") else {
        return Vec::new();
    };
    let AttrKind::DenseElements { ty, values } = ctx.attr_kind(a) else {
        return Vec::new();
    };
    let n = ctx
        .shaped(*ty)
        .and_then(|(s, _)| s)
        .map_or(values.len(), |s| s.iter().product::<i64>().max(0) as usize);
    (0..n)
        .filter_map(
            |i| match ctx.attr_kind(values[if values.len() == 1 { 0 } else { i }]) {
                AttrKind::Integer { value, .. } => Some(value.clone()),
                _ => None,
            },
        )
        .collect()
}

/// Operand counts: the default destination's, then each case's.
pub fn dest_counts(ctx: &Context, ir: &Ir, op: OpId) -> Vec<usize> {
    let seg = segment_sizes(ctx, ir, op).unwrap_or_default();
    let mut counts = vec![seg.get(1).copied().unwrap_or(0)];
    if let Some(c) =
        inherent_attr(ctx, ir, op, "case_operand_segments").and_then(|a| ctx.int_array_values(a))
    {
        counts.extend(c.into_iter().map(|v| v.max(0) as usize));
    }
    counts
}

fn print_dest(p: &mut AsmPrinter<'_, '_>, dest: BlockId, values: &[ValueId]) {
    p.successor(dest);
    if values.is_empty() {
        return;
    }
    p.write("(");
    p.operands(values.iter().copied());
    p.write(" : ");
    let tys: Vec<_> = values.iter().map(|v| p.ir().value_type(*v)).collect();
    p.types(&tys);
    p.write(")");
}

fn print_switch(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let succs = ir.successors(op).to_vec();
    let counts = dest_counts(ctx, ir, op);
    let values = case_values(ctx, ir, op);
    p.write(" ");
    p.operand(operands[0]);
    p.write(" : ");
    p.ty(ir.value_type(operands[0]));
    p.write(", ");
    let mut at = 1;
    for (i, &dest) in succs.iter().enumerate() {
        let n = counts.get(i).copied().unwrap_or(0);
        let end = (at + n).min(operands.len());
        if i == 0 {
            print_dest(p, dest, &operands[at..end]);
            p.write(" [");
        } else {
            if i > 1 {
                p.write(",");
            }
            p.newline(2);
            p.write(
                &values
                    .get(i - 1)
                    .map(ToString::to_string)
                    .unwrap_or_default(),
            );
            p.write(": ");
            print_dest(p, dest, &operands[at..end]);
        }
        at = end;
    }
    p.newline(0);
    p.write("]");
    let attrs = ir.op_attrs(op);
    p.attr_dict(attrs, &[], false);
}

fn verify_switch(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let counts = dest_counts(ctx, ir, op);
    let succs = ir.successors(op).len();
    let values = case_values(ctx, ir, op).len();
    let total: usize = counts.iter().sum();
    if succs == 0
        || counts.len() != succs
        || values + 1 != succs
        || total + 1 != ir.num_operands(op)
    {
        return Err(v.op_error(
            op,
            "expects as many case values, destinations and operand groups as cases",
        ));
    }
    Ok(())
}

/// The `llvm.switch` op.
pub(crate) const SWITCH: OpDef = OpDef {
    traits: Traits::TERMINATOR,
    inherent_attrs: &[
        "case_values",
        "case_operand_segments",
        "operandSegmentSizes",
        "branch_weights",
    ],
    parse: Some(parse_switch),
    print: Some(print_switch),
    verify: Some(verify_switch),
    effects: silica_ir::dialect::Effects::None,
    branch: Some(&crate::func_ops::BRANCH),
    ..OpDef::new("llvm.switch")
};
