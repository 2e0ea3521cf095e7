//! `llvm.intr.assume` with operand bundles, in MLIR's syntax:
//! `llvm.intr.assume %cond ["align"(%p, %n : !llvm.ptr, i64), ...] : i1
//! {attrs}`. The bundles' operands follow the condition; the properties
//! `op_bundle_sizes` (operands per bundle) and `op_bundle_tags` (only
//! when there are bundles) describe them.

use crate::dialect::func_ops::{print_extra_attrs, prop, split_attrs};
use silica_ir::dialect::inherent_attr;
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, OpSpec, Type, ValueId};

const INHERENT: &[&str] = &["op_bundle_sizes", "op_bundle_tags"];

/// The bundles of an assume: each tag with its operands.
pub(crate) fn bundles(ctx: &Context, ir: &Ir, op: OpId) -> Vec<(String, Vec<ValueId>)> {
    let sizes = inherent_attr(ctx, ir, op, "op_bundle_sizes")
        .and_then(|a| ctx.int_array_values(a))
        .unwrap_or_default();
    let tags: Vec<String> =
        match inherent_attr(ctx, ir, op, "op_bundle_tags").map(|a| ctx.attr_kind(a)) {
            Some(AttrKind::Array(tags)) => tags
                .iter()
                .map(|t| match ctx.attr_kind(*t) {
                    AttrKind::String { value, .. } => String::from_utf8_lossy(value).into_owned(),
                    _ => String::new(),
                })
                .collect(),
            _ => Vec::new(),
        };
    let mut operands = ir.operands(op).skip(1);
    sizes
        .iter()
        .zip(tags)
        .map(|(&n, tag)| (tag, operands.by_ref().take(n.max(0) as usize).collect()))
        .collect()
}

pub(crate) fn parse(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let cond = p.parse_operand()?;
    let mut tags = Vec::new();
    let mut sizes = Vec::new();
    let mut unresolved = Vec::new();
    let mut types: Vec<Type> = Vec::new();
    if p.eat(Tok::LSquare) {
        p.comma_list(Tok::RSquare, "']'", |p| {
            let tag = p.parse_string()?;
            tags.push(tag);
            p.expect(Tok::LParen, "'('")?;
            let mut n = 0;
            if !p.eat(Tok::RParen) {
                let ops = p.parse_operand_list()?;
                p.expect(Tok::Colon, "':'")?;
                let tys = p.parse_type_list()?;
                if ops.len() != tys.len() {
                    return p.op_error(format!(
                        "{} operands present, but expected {}",
                        ops.len(),
                        tys.len()
                    ));
                }
                n = ops.len();
                unresolved.extend(ops);
                types.extend(tys);
                p.expect(Tok::RParen, "')'")?;
            }
            sizes.push(n as i64);
            Ok(())
        })?;
    }
    p.expect(Tok::Colon, "':'")?;
    let cond_ty = p.parse_type()?;
    let attrs = p.parse_optional_attr_dict()?;
    let mut operands = vec![p.resolve_operand(cond, cond_ty)?];
    for (u, t) in unresolved.into_iter().zip(types) {
        operands.push(p.resolve_operand(u, t)?);
    }
    let loc = p.op_loc();
    let ctx = p.ctx();
    let mut props = Vec::new();
    let s = ctx.int_array_attr(32, &sizes);
    prop(ctx, &mut props, "op_bundle_sizes", s);
    if !tags.is_empty() {
        let tags: Vec<Attr> = tags.iter().map(|t| ctx.string_attr(t)).collect();
        let a = ctx.intern_attr(AttrKind::Array(tags.into()));
        prop(ctx, &mut props, "op_bundle_tags", a);
    }
    let attrs = split_attrs(ctx, attrs, INHERENT, &mut props);
    let props = ctx.dict_attr(props);
    let name = ctx.sym("llvm.intr.assume");
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[],
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    }))
}

pub(crate) fn print(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let cond = ir.operand(op, 0);
    let bundles = bundles(ctx, ir, op);
    p.write(" ");
    p.operand(cond);
    if !bundles.is_empty() {
        p.write(" [");
        for (i, (tag, operands)) in bundles.iter().enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.string(tag.as_bytes());
            p.write("(");
            if !operands.is_empty() {
                p.operands(operands.iter().copied());
                p.write(" : ");
                for (j, v) in operands.iter().enumerate() {
                    if j > 0 {
                        p.write(", ");
                    }
                    let t = p.ir().value_type(*v);
                    p.ty(t);
                }
            }
            p.write(")");
        }
        p.write("]");
    }
    p.write(" : ");
    let t = p.ir().value_type(cond);
    p.ty(t);
    print_extra_attrs(p, op, INHERENT, false);
}

pub(crate) fn verify(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let cond_ok =
        ir.num_operands(op) >= 1 && ctx.int_width(ir.value_type(ir.operand(op, 0))) == Some(1);
    let sizes = inherent_attr(ctx, ir, op, "op_bundle_sizes")
        .and_then(|a| ctx.int_array_values(a))
        .unwrap_or_default();
    let tags = match inherent_attr(ctx, ir, op, "op_bundle_tags").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(t)) => t.len(),
        _ => 0,
    };
    let bundled: i64 = sizes.iter().sum();
    let count_ok = sizes.iter().all(|s| *s >= 0) && bundled + 1 == ir.num_operands(op) as i64;
    if !cond_ok {
        return Err(v.op_error(op, "operand #0 must be 1-bit signless integer"));
    }
    if !count_ok {
        return Err(v.op_error(
            op,
            "expected the bundle sizes to add up to the operands after the condition",
        ));
    }
    if tags != sizes.len() {
        return Err(v.op_error(
            op,
            format!(
                "number of operand bundle tags ({tags}) does not match the number of operand bundles ({})",
                sizes.len()
            ),
        ));
    }
    Ok(())
}
