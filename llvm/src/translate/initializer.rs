//! Constant initializers of `llvm.mlir.global` given as a region: the
//! region's ops are evaluated to one LLVM IR constant, as LLVM's
//! constant folder does when MLIR's export builds them. Aggregates built
//! with `insertvalue`/`insertelement` fold to literal aggregates;
//! `getelementptr`, casts, `add`, `sub` and `xor` of constants stay
//! constant expressions. Any other op is an error at the op.

use super::constants::{constant, zero};
use super::types::ir_type;
use super::{err, type_attr};
use crate::dialect::types::{llvm_type, LlvmType};
use silica_ir::diag::Diagnostic;
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, Context, Ir, OpId, RegionId, Type, TypeKind, ValueId};
use std::collections::HashMap;

/// A constant under construction.
#[derive(Clone)]
enum Const {
    /// A finished constant's text (`1`, `@g`, `getelementptr (...)`).
    Text(String),
    /// `undef`, `poison` or the zero value: the same in every element.
    Uniform(Fill),
    /// An aggregate whose elements are known one by one.
    Elements(Vec<Const>),
}

#[derive(Clone, Copy)]
enum Fill {
    Undef,
    Poison,
    Zero,
}

type Res<T> = Result<T, Box<Diagnostic>>;

/// The constant the initializer region `region` of global `global`
/// returns, as LLVM IR text of type `t` (without the type).
pub fn region_initializer(
    ctx: &Context,
    ir: &Ir,
    global: OpId,
    region: RegionId,
    t: Type,
) -> Res<String> {
    let block = ir
        .entry_block(region)
        .ok_or_else(|| err(ir, global, "empty initializer region"))?;
    let mut values: HashMap<ValueId, Const> = HashMap::new();
    for op in ir.block_ops(block) {
        let name = ctx.str(ir.op_name(op));
        let operand = |i: usize| -> Res<Const> {
            let v = ir
                .operands(op)
                .nth(i)
                .ok_or_else(|| err(ir, op, "missing operand"))?;
            values
                .get(&v)
                .cloned()
                .ok_or_else(|| err(ir, op, "operand is not a constant"))
        };
        let typed = |i: usize| -> Res<String> {
            let v = ir
                .operands(op)
                .nth(i)
                .ok_or_else(|| err(ir, op, "missing operand"))?;
            let ty = ir.value_type(v);
            let text = text_of(ctx, &operand(i)?, ty).map_err(|m| err(ir, op, m))?;
            Ok(format!(
                "{} {text}",
                ir_type(ctx, ty).map_err(|m| err(ir, op, m))?
            ))
        };
        let result_type = ir.results(op).next().map(|r| ir.value_type(r));
        let value = match name {
            "llvm.return" => {
                let c = operand(0)?;
                return text_of(ctx, &c, t).map_err(|m| err(ir, op, m));
            }
            "llvm.mlir.constant" => {
                let a = inherent_attr(ctx, ir, op, "value")
                    .ok_or_else(|| err(ir, op, "constant without value"))?;
                Const::Text(constant(ctx, a, result_type.unwrap_or(t)).map_err(|m| err(ir, op, m))?)
            }
            "llvm.mlir.undef" => Const::Uniform(Fill::Undef),
            "llvm.mlir.poison" => Const::Uniform(Fill::Poison),
            "llvm.mlir.zero" => Const::Uniform(Fill::Zero),
            "llvm.mlir.addressof" => {
                match inherent_attr(ctx, ir, op, "global_name").map(|a| ctx.attr_kind(a)) {
                    Some(AttrKind::SymbolRef { root, .. }) => {
                        Const::Text(format!("@{}", ctx.str(*root)))
                    }
                    _ => return Err(err(ir, op, "addressof without a symbol")),
                }
            }
            "llvm.dso_local_equivalent" => {
                match inherent_attr(ctx, ir, op, "function_name").map(|a| ctx.attr_kind(a)) {
                    Some(AttrKind::SymbolRef { root, .. }) => {
                        Const::Text(format!("dso_local_equivalent @{}", ctx.str(*root)))
                    }
                    _ => return Err(err(ir, op, "dso_local_equivalent without a symbol")),
                }
            }
            "llvm.blockaddress" => {
                let (function, label) = super::function::blockaddress_target(ctx, ir, op)
                    .map_err(|m| err(ir, op, m))?;
                Const::Text(format!("blockaddress(@{function}, %{label})"))
            }
            "llvm.insertvalue" => {
                let container = ir.operands(op).next().map(|v| ir.value_type(v));
                let positions = inherent_attr(ctx, ir, op, "position")
                    .and_then(|a| ctx.int_array_values(a))
                    .unwrap_or_default();
                let mut agg = operand(0)?;
                insert(
                    ctx,
                    &mut agg,
                    container.unwrap_or(t),
                    &positions,
                    operand(1)?,
                )
                .map_err(|m| err(ir, op, m))?;
                agg
            }
            "llvm.insertelement" => {
                let vt = result_type.unwrap_or(t);
                let Const::Text(index) = operand(2)? else {
                    return Err(err(
                        ir,
                        op,
                        "insertelement index is not an integer constant",
                    ));
                };
                let index: i64 = index
                    .parse()
                    .map_err(|_| err(ir, op, "insertelement index is not an integer constant"))?;
                let mut agg = operand(0)?;
                insert(ctx, &mut agg, vt, &[index], operand(1)?).map_err(|m| err(ir, op, m))?;
                agg
            }
            "llvm.getelementptr" => {
                let elem = type_attr(ctx, inherent_attr(ctx, ir, op, "elem_type"))
                    .ok_or_else(|| err(ir, op, "getelementptr without an element type"))?;
                let raw = inherent_attr(ctx, ir, op, "rawConstantIndices")
                    .and_then(|a| ctx.int_array_values(a))
                    .unwrap_or_default();
                let mut parts = vec![ir_type(ctx, elem).map_err(|m| err(ir, op, m))?, typed(0)?];
                let mut next = 1;
                for r in raw {
                    if r == crate::dialect::DYNAMIC_INDEX {
                        parts.push(typed(next)?);
                        next += 1;
                    } else {
                        parts.push(format!("i32 {r}"));
                    }
                }
                Const::Text(format!("getelementptr ({})", parts.join(", ")))
            }
            // The integer operations LLVM keeps as constant expressions
            // (it folds them when both operands are numbers); overflow
            // flags are dropped, as mlir-translate's constant builder does.
            "llvm.add" | "llvm.sub" | "llvm.xor" => {
                let kw = &name["llvm.".len()..];
                Const::Text(format!("{kw} ({}, {})", typed(0)?, typed(1)?))
            }
            "llvm.bitcast" | "llvm.addrspacecast" | "llvm.ptrtoint" | "llvm.inttoptr"
            | "llvm.trunc" => {
                let to = ir_type(ctx, result_type.unwrap_or(t)).map_err(|m| err(ir, op, m))?;
                let kw = &name["llvm.".len()..];
                Const::Text(format!("{kw} ({} to {to})", typed(0)?))
            }
            other => {
                return Err(err(
                    ir,
                    op,
                    format!("'{other}' has no constant form in a global's initializer"),
                ))
            }
        };
        if let Some(r) = ir.results(op).next() {
            values.insert(r, value);
        }
    }
    Err(err(
        ir,
        global,
        "initializer region does not return a value",
    ))
}

/// The element types of aggregate `t`.
fn element_types(ctx: &Context, t: Type) -> Option<Vec<Type>> {
    match llvm_type(ctx, t) {
        Some(LlvmType::Struct { body, .. }) => Some(body),
        Some(LlvmType::Array(n, e)) => Some(vec![e; n as usize]),
        Some(LlvmType::Vec {
            scalable: false,
            count,
            element,
        }) => Some(vec![element; count as usize]),
        Some(_) => None,
        None => match ctx.type_kind(t) {
            TypeKind::Vector { shape, element, .. } if shape.len() == 1 => {
                Some(vec![*element; shape[0] as usize])
            }
            _ => None,
        },
    }
}

/// Stores `value` at `path` inside `agg` (of type `t`).
fn insert(
    ctx: &Context,
    agg: &mut Const,
    t: Type,
    path: &[i64],
    value: Const,
) -> Result<(), String> {
    let Some((&first, rest)) = path.split_first() else {
        *agg = value;
        return Ok(());
    };
    let types = element_types(ctx, t).ok_or("insertion into a non-aggregate constant")?;
    if let Const::Uniform(fill) = *agg {
        *agg = Const::Elements(vec![Const::Uniform(fill); types.len()]);
    }
    let Const::Elements(elems) = agg else {
        return Err("insertion into a constant expression".into());
    };
    let i = usize::try_from(first)
        .ok()
        .filter(|&i| i < elems.len())
        .ok_or("insertion position out of range")?;
    insert(ctx, &mut elems[i], types[i], rest, value)
}

/// The LLVM IR text of `c` as a value of type `t`.
fn text_of(ctx: &Context, c: &Const, t: Type) -> Result<String, String> {
    match c {
        Const::Text(s) => Ok(s.clone()),
        Const::Uniform(Fill::Undef) => Ok("undef".into()),
        Const::Uniform(Fill::Poison) => Ok("poison".into()),
        Const::Uniform(Fill::Zero) => Ok(zero(ctx, t)),
        Const::Elements(elems) => {
            let types = element_types(ctx, t).ok_or("aggregate constant of a scalar type")?;
            let mut parts = Vec::with_capacity(elems.len());
            for (e, &et) in elems.iter().zip(&types) {
                parts.push(format!("{} {}", ir_type(ctx, et)?, text_of(ctx, e, et)?));
            }
            let body = parts.join(", ");
            Ok(match llvm_type(ctx, t) {
                Some(LlvmType::Struct { packed: true, .. }) => format!("<{{ {body} }}>"),
                Some(LlvmType::Struct { .. }) => format!("{{ {body} }}"),
                Some(LlvmType::Array(..)) => format!("[{body}]"),
                _ => format!("<{body}>"),
            })
        }
    }
}
