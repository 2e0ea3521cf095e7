//! Verifying an op against its signature: operand and result counts,
//! type constraints, equal-type groups and required attributes, with
//! MLIR's messages.

use super::print::split_groups;
use super::{Arity, Signature};
use crate::graph::OpId;
use crate::parser::PResult;
use crate::printer::type_to_string;
use crate::verify::OpVerifier;

/// Checks `op` against `sig`.
pub fn verify_signature(v: &mut OpVerifier<'_, '_>, op: OpId, sig: &Signature) -> PResult<()> {
    let ir = v.ir();
    let operand_types: Vec<_> = ir.operands(op).map(|x| ir.value_type(x)).collect();
    if sig.segmented {
        let Some(sizes) = super::print::segment_sizes(v.ctx(), ir, op) else {
            return Err(v.op_error(op, "requires attribute 'operandSegmentSizes'"));
        };
        let total: usize = sizes.iter().sum();
        if sizes.len() != sig.operands.len() {
            let msg = format!(
                "'operandSegmentSizes' attribute for specifying operand segments must have {} elements, but got {}",
                sig.operands.len(),
                sizes.len()
            );
            return Err(v.op_error(op, msg));
        }
        if total != operand_types.len() {
            let msg = format!(
                "operand count ({}) does not match with the total size ({total}) specified in attribute 'operandSegmentSizes'",
                operand_types.len()
            );
            return Err(v.op_error(op, msg));
        }
    }
    let result_types: Vec<_> = ir.results(op).map(|x| ir.value_type(x)).collect();
    for (what, params, tys) in [
        ("operand", sig.operands, &operand_types),
        ("result", sig.results, &result_types),
    ] {
        let fixed = params.iter().filter(|p| p.arity == Arity::One).count();
        let variable = params.iter().any(|p| p.arity != Arity::One);
        let optional_only = params.iter().all(|p| p.arity != Arity::Variadic);
        let too_few = tys.len() < fixed;
        let too_many =
            !variable && tys.len() > fixed || optional_only && variable && tys.len() > params.len();
        let segmented = what == "operand" && sig.segmented;
        if (too_few || too_many) && !segmented {
            let msg = if variable {
                format!("expected {fixed} or more {what}s, but found {}", tys.len())
            } else {
                format!("expected {fixed} {what}s, but found {}", tys.len())
            };
            return Err(v.op_error(op, msg));
        }
        let groups = if segmented {
            let sizes = super::print::segment_sizes(v.ctx(), ir, op).unwrap_or_default();
            let mut out = Vec::new();
            let mut at = 0;
            for n in sizes {
                out.push(tys[at..at + n].to_vec());
                at += n;
            }
            out
        } else {
            split_groups(tys, params.iter().map(|p| p.arity))
        };
        let mut index = 0;
        for (param, group) in params.iter().zip(groups) {
            for t in group {
                if !(param.constraint.check)(v.ctx(), t) {
                    let msg = format!(
                        "{what} #{index} must be {}, but got '{}'",
                        param.constraint.desc,
                        type_to_string(v.ctx(), t)
                    );
                    return Err(v.op_error(op, msg));
                }
                index += 1;
            }
        }
    }
    for group in sig.same_types {
        let mut tys = group.iter().flat_map(|name| {
            let ops = sig.operand_index(name).map(|i| {
                split_groups(&operand_types, sig.operands.iter().map(|p| p.arity))[i].clone()
            });
            let res = sig.result_index(name).map(|i| {
                split_groups(&result_types, sig.results.iter().map(|p| p.arity))[i].clone()
            });
            ops.or(res).unwrap_or_default()
        });
        if let Some(first) = tys.next() {
            if tys.any(|t| t != first) {
                let everything = sig.operands.len() + sig.results.len() == group.len();
                let operands_only = group.iter().all(|n| sig.operand_index(n).is_some());
                let msg = if everything {
                    "requires the same type for all operands and results".to_string()
                } else if operands_only && group.len() == sig.operands.len() {
                    "requires all operands to have the same type".to_string()
                } else {
                    format!(
                        "failed to verify that all of {{{}}} have same type",
                        group.join(", ")
                    )
                };
                return Err(v.op_error(op, msg));
            }
        }
    }
    for param in sig.attrs {
        let value = crate::dialect::inherent_attr(v.ctx(), ir, op, param.name);
        if value.is_none() && !param.optional && param.default.is_none() {
            return Err(v.op_error(op, format!("requires attribute '{}'", param.name)));
        }
        if let (Some(a), super::AttrSyntax::IntEnum(width, names)) = (value, param.syntax) {
            let ok = match v.ctx().attr_kind(a) {
                crate::attrs::AttrKind::Integer { ty, value } => {
                    v.ctx().int_width(*ty) == Some(width)
                        && usize::try_from(value).is_ok_and(|i| i < names.len())
                }
                _ => false,
            };
            if !ok {
                let cases: Vec<String> = (0..names.len()).map(|i| i.to_string()).collect();
                let msg = format!(
                    "attribute '{}' failed to satisfy constraint: allowed {width}-bit signless integer cases: {}",
                    param.name,
                    cases.join(", ")
                );
                return Err(v.op_error(op, msg));
            }
        }
    }
    Ok(())
}
