//! `llvm.switch`: `%v : i32, ^default(args) [ 1: ^bb(args), ... ]`, its
//! properties (case values as a dense vector, per-case operand counts,
//! operand segments) and verifier.

use silica_dialects::cf::switch_properties;
use silica_ir::dialect::{inherent_attr, OpDef, Traits};
use silica_ir::format::segment_sizes;
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{BlockId, Context, Ir, OpId, OpSpec, ValueId};

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
    let props = switch_properties(ctx, flag_ty, &values, default_count, &counts);
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

pub use silica_dialects::cf::switch_case_values as case_values;

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
            p.successor_with_operands(dest, &operands[at..end]);
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
            p.successor_with_operands(dest, &operands[at..end]);
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
    let condition = ir.operands(op).next().map(|c| ir.value_type(c));
    let case_type = match silica_ir::dialect::inherent_attr(ctx, ir, op, "case_values")
        .map(|a| ctx.attr_kind(a))
    {
        Some(silica_ir::AttrKind::DenseElements { ty, .. }) => match ctx.type_kind(*ty) {
            silica_ir::TypeKind::Vector { element, .. }
            | silica_ir::TypeKind::RankedTensor { element, .. } => Some(*element),
            _ => None,
        },
        _ => None,
    };
    if let (Some(c), Some(t)) = (condition, case_type) {
        if c != t {
            return Err(v.op_error(op, "expects case value type to match condition value type"));
        }
    }
    let weights = silica_ir::dialect::inherent_attr(ctx, ir, op, "branch_weights")
        .and_then(|a| ctx.int_array_values(a));
    if let Some(w) = weights.filter(|w| w.len() != succs) {
        let msg = format!(
            "expects number of branch weights to match number of successors: {} vs {succs}",
            w.len()
        );
        return Err(v.error(op, msg));
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
    branch: Some(&crate::dialect::func_ops::BRANCH),
    ..OpDef::new("llvm.switch")
};
