//! `func.call` of functions of the same module. [`call_order`] walks the
//! call graph from the top function (callees before their callers) and
//! rejects recursion at the call that closes a cycle; a call lifts into
//! a [`Call`] item: its scalar operands, the caller's memories passed for
//! the callee's memref arguments, its results as [`Val::Result`]s.

use super::lift::{err, Lifter, Res};
use super::signature::string_of;
use crate::model::kernel::{Call, Item, Val};
use silica_ir::dialect::inherent_attr;
use silica_ir::{Context, Diagnostic, Ir, OpId, TypeKind, ValueId};

/// The `func.call` ops nested anywhere in `func`.
fn calls_in(ctx: &Context, ir: &Ir, func: OpId) -> Vec<OpId> {
    let mut out = Vec::new();
    let mut stack = vec![func];
    while let Some(op) = stack.pop() {
        for r in ir.regions(op) {
            for b in ir.region_blocks(r) {
                for o in ir.block_ops(b) {
                    if ctx.str(ir.op_name(o)) == "func.call" {
                        out.push(o);
                    }
                    stack.push(o);
                }
            }
        }
    }
    out.sort_unstable();
    out
}

/// The function a `func.call` names, or an error at the call.
pub fn callee_of(ctx: &Context, ir: &Ir, call: OpId) -> Result<OpId, Box<Diagnostic>> {
    let loc = ir.op_loc(call);
    let found = inherent_attr(ctx, ir, call, "callee")
        .and_then(|sym| silica_ir::symbols::lookup_from(ctx, ir, call, sym))
        .filter(|&f| ctx.str(ir.op_name(f)) == "func.func");
    let Some(f) = found else {
        return Err(Box::new(Diagnostic::error(
            loc,
            "'func.call' names no function of this module",
        )));
    };
    if ir
        .regions(f)
        .next()
        .and_then(|r| ir.entry_block(r))
        .is_none()
        && super::ip::ip_module(ctx, ir, f).is_none()
    {
        return Err(Box::new(Diagnostic::error(
            loc,
            format!(
                "callee '@{}' has no body to synthesize",
                function_name(ctx, ir, f)
            ),
        )));
    }
    Ok(f)
}

/// The `sym_name` of a function.
pub fn function_name(ctx: &Context, ir: &Ir, func: OpId) -> String {
    string_of(ctx, inherent_attr(ctx, ir, func, "sym_name")).unwrap_or_default()
}

/// The functions `top` calls, directly or not, callees first, then `top`;
/// a recursive call is an error at that call.
pub fn call_order(ctx: &Context, ir: &Ir, top: OpId) -> Result<Vec<OpId>, Box<Diagnostic>> {
    let mut order = Vec::new();
    let mut path = Vec::new();
    visit(ctx, ir, top, &mut path, &mut order)?;
    Ok(order)
}

fn visit(
    ctx: &Context,
    ir: &Ir,
    func: OpId,
    path: &mut Vec<OpId>,
    order: &mut Vec<OpId>,
) -> Result<(), Box<Diagnostic>> {
    if order.contains(&func) {
        return Ok(());
    }
    path.push(func);
    for call in calls_in(ctx, ir, func) {
        let callee = callee_of(ctx, ir, call)?;
        if path.contains(&callee) {
            return Err(Box::new(Diagnostic::error(
                ir.op_loc(call),
                format!(
                    "recursive call of '@{}' is not supported; silica hls instantiates callees as submodules",
                    function_name(ctx, ir, callee)
                ),
            )));
        }
        visit(ctx, ir, callee, path, order)?;
    }
    path.pop();
    order.push(func);
    Ok(())
}

impl Lifter<'_> {
    /// A `func.call` as a call item.
    pub(super) fn lift_call(&mut self, op: OpId, items: &mut Vec<Item>) -> Res<()> {
        let (ctx, ir) = (self.ctx, self.ir);
        if self.predicate.is_some() {
            return err(
                self.loc,
                "'func.call' inside a conditional is not supported yet for a callee of more than \
                 one block (a callee of one block is inlined there)",
            );
        }
        let callee = callee_of(ctx, ir, op)?;
        let mut scalars = Vec::new();
        let mut memories = Vec::new();
        let operands: Vec<ValueId> = ir.operands(op).collect();
        for &v in &operands {
            if matches!(ctx.type_kind(ir.value_type(v)), TypeKind::MemRef { .. }) {
                memories.push(self.mem(v)?);
            } else {
                scalars.push(self.val(v)?);
            }
        }
        let mut results = Vec::new();
        for r in ir.results(op) {
            results.push(self.result_width_of(r)?);
        }
        // A callee bound to Verilog is that module, at its given latency.
        let (name, latency) = match super::ip::ip_module(ctx, ir, callee) {
            Some(_) => {
                let ip = super::ip::declaration(ctx, ir, callee)?;
                (ip.module, Some(ip.latency))
            }
            None => (function_name(ctx, ir, callee), None),
        };
        let id = self.k.calls.len();
        self.k.calls.push(Call {
            op,
            loc: self.loc,
            callee: name,
            scalars,
            memories,
            results,
            latency,
            latency_min: latency,
        });
        for (i, r) in ir.results(op).enumerate() {
            self.vals.insert(r, Val::Result(id, i));
        }
        items.push(Item::Call(id));
        self.open = None;
        Ok(())
    }
}
