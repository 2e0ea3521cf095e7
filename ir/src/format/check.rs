//! Verifying an op against its signature: operand and result counts,
//! type constraints, equal-type groups and required attributes, with
//! MLIR's messages.

use super::{Arity, Signature, Slot};
use crate::graph::OpId;
use crate::parser::PResult;
use crate::printer::type_to_string;
use crate::verify::OpVerifier;

/// What MLIR's count traits (`ZeroOperands`, `OneResult`,
/// `AtLeastNOperands`, ...) say of `count` operands or results.
pub(crate) fn count_message(what: &str, fixed: usize, variable: bool, count: usize) -> String {
    let operands = what == "operand";
    match (variable, fixed) {
        (true, _) if operands => format!("expected {fixed} or more operands, but found {count}"),
        (true, _) => format!("expected {fixed} or more results"),
        (false, 0) => format!("requires zero {what}s"),
        (false, 1) if operands => "requires a single operand".to_string(),
        (false, 1) => "requires one result".to_string(),
        (false, _) if operands => format!("expected {fixed} operands, but found {count}"),
        (false, _) => format!("expected {fixed} results"),
    }
}

/// Checks `op` against `sig`.
pub fn verify_signature(v: &mut OpVerifier<'_, '_>, op: OpId, sig: &Signature) -> PResult<()> {
    let ir = v.ir();
    for (name, c) in sig.attr_constraints {
        let value = crate::dialect::inherent_attr(v.ctx(), ir, op, name);
        if value.is_some_and(|a| !(c.check)(v.ctx(), a)) {
            let msg = format!(
                "attribute '{name}' failed to satisfy constraint: {}",
                c.desc
            );
            return Err(v.op_error(op, msg));
        }
    }
    let num_operands = ir.num_operands(op);
    let segments = if sig.segmented {
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
        if total != num_operands {
            let msg = format!(
                "operand count ({num_operands}) does not match with the total size ({total}) specified in attribute 'operandSegmentSizes'"
            );
            return Err(v.op_error(op, msg));
        }
        Some(sizes)
    } else {
        None
    };
    let num_results = ir.num_results(op);
    let value_type = |results: bool, i: usize| {
        if results {
            ir.value_type(ir.result(op, i))
        } else {
            ir.value_type(ir.operand(op, i))
        }
    };
    let arities = |params: &'static [super::ValueParam]| params.iter().map(|p| p.arity);
    let operand_ranges = super::group_ranges(num_operands, arities(sig.operands));
    let result_ranges = super::group_ranges(num_results, arities(sig.results));
    for (what, params, count, results, ranges) in [
        (
            "operand",
            sig.operands,
            num_operands,
            false,
            &operand_ranges,
        ),
        ("result", sig.results, num_results, true, &result_ranges),
    ] {
        let fixed = params.iter().filter(|p| p.arity == Arity::One).count();
        let variable = params.iter().any(|p| p.arity != Arity::One);
        let optional_only = params.iter().all(|p| p.arity != Arity::Variadic);
        let too_few = count < fixed;
        let too_many =
            !variable && count > fixed || optional_only && variable && count > params.len();
        let segmented = !results && segments.is_some();
        if (too_few || too_many) && !segmented {
            return Err(v.op_error(op, count_message(what, fixed, variable, count)));
        }
        let mut at = 0;
        for (g, param) in params.iter().enumerate() {
            let range = match (&segments, results) {
                (Some(sizes), false) => {
                    let r = at..at + sizes[g];
                    at += sizes[g];
                    r
                }
                _ => ranges[g].clone(),
            };
            for index in range {
                let t = value_type(results, index);
                if !(param.constraint.check)(v.ctx(), t) {
                    let msg = format!(
                        "{what} #{index} must be {}, but got '{}'",
                        param.constraint.desc,
                        type_to_string(v.ctx(), t)
                    );
                    return Err(v.op_error(op, msg));
                }
            }
        }
    }
    for (g, (group, slots)) in sig
        .same_types
        .iter()
        .zip(&sig.slots().same_types)
        .enumerate()
    {
        let mut first = None;
        let mut differs = false;
        for slot in slots {
            let (results, range) = match *slot {
                Slot::Operand(i) => (false, operand_ranges[i].clone()),
                Slot::Result(i) => (true, result_ranges[i].clone()),
            };
            for index in range {
                let t = value_type(results, index);
                match first {
                    None => first = Some(t),
                    Some(f) if f != t => differs = true,
                    Some(_) => {}
                }
            }
        }
        if differs {
            let everything = sig.operands.len() + sig.results.len() == group.len();
            let operands_only = group.iter().all(|n| sig.operand_index(n).is_some());
            let described = sig.same_types_desc.get(g).filter(|d| !d.is_empty());
            let msg = if let Some(d) = described {
                format!("failed to verify that {d}")
            } else if everything {
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
    for (i, param) in sig.attrs.iter().enumerate() {
        let value = crate::dialect::signature_attr(v.ctx(), ir, op, i, param.name);
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
