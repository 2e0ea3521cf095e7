//! `reconcile-unrealized-casts`: a cast whose inputs are exactly the
//! results of another cast converting back from this cast's result
//! types is a round trip and folds away; unused casts are erased; casts
//! still in use stay (as mlir-opt-22 leaves them).

use super::CAST;
use crate::context::Context;
use crate::diag::Diagnostic;
use crate::graph::{Ir, OpId, ValueId};
use crate::pass::{Pass, PassInfo, PassOptions};

fn is_cast(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.str(ir.op_name(op)) == CAST
}

/// The values a chain of casts ending at `op` round-trips back to: the
/// inputs of the nearest cast up the chain whose inputs have `op`'s
/// result types.
fn round_trip(ctx: &Context, ir: &Ir, op: OpId) -> Option<Vec<ValueId>> {
    let wanted: Vec<_> = ir.results(op).map(|r| ir.value_type(r)).collect();
    let mut cur = op;
    loop {
        let inputs: Vec<ValueId> = ir.operands(cur).collect();
        let producer = ir.defining_op(*inputs.first()?)?;
        if !is_cast(ctx, ir, producer) || ir.results(producer).collect::<Vec<_>>() != inputs {
            return None;
        }
        let sources: Vec<ValueId> = ir.operands(producer).collect();
        if sources
            .iter()
            .map(|&v| ir.value_type(v))
            .eq(wanted.iter().copied())
        {
            return Some(sources);
        }
        cur = producer;
    }
}

/// Folds cast round trips and erases unused casts under `root`.
pub fn reconcile_unrealized_casts(ctx: &mut Context, ir: &mut Ir, root: OpId) {
    let mut casts = Vec::new();
    ir.walk(root, &mut |o| {
        if is_cast(ctx, ir, o) {
            casts.push(o);
        }
    });
    for &c in &casts {
        if ir.is_erased(c) {
            continue;
        }
        if let Some(sources) = round_trip(ctx, ir, c) {
            let results: Vec<ValueId> = ir.results(c).collect();
            for (r, s) in results.into_iter().zip(sources) {
                ir.replace_all_uses(r, s);
            }
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for &c in casts.iter().rev() {
            if !ir.is_erased(c) && ir.results(c).all(|r| !ir.has_uses(r)) {
                ir.erase_op(c);
                changed = true;
            }
        }
    }
}

struct Reconcile;

impl Pass for Reconcile {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        reconcile_unrealized_casts(ctx, ir, op);
        Ok(())
    }
}

fn create(_: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(Reconcile))
}

/// The `reconcile-unrealized-casts` pass.
pub static RECONCILE_UNREALIZED_CASTS: PassInfo = PassInfo {
    argument: "reconcile-unrealized-casts",
    name: "ReconcileUnrealizedCastsPass",
    description: "Simplify and eliminate unrealized conversion casts",
    anchor: None,
    options: &[],
    create,
};

#[cfg(test)]
mod tests {
    use crate::parser::{parse, ParseOptions};
    use crate::printer::{print_module, PrintFlags};
    use crate::resources::Resources;
    use crate::Context;

    #[test]
    fn folds_round_trips_and_keeps_live_casts() {
        let mut ctx = Context::new();
        ctx.allow_unregistered = true;
        let src = b"%a = \"t.src\"() : () -> i32\n\
            %0 = builtin.unrealized_conversion_cast %a : i32 to i64\n\
            %1 = builtin.unrealized_conversion_cast %0 : i64 to i32\n\
            %2 = builtin.unrealized_conversion_cast %a : i32 to f32\n\
            %3 = builtin.unrealized_conversion_cast %a : i32 to index\n\
            \"t.use\"(%1, %3) : (i32, index) -> ()\n";
        let mut m = parse(&mut ctx, "t", src, ParseOptions::default()).unwrap();
        super::reconcile_unrealized_casts(&mut ctx, &mut m.ir, m.top);
        let text = print_module(
            &ctx,
            &m.ir,
            m.top,
            &Resources::default(),
            PrintFlags::default(),
        );
        assert!(
            text.contains("\"t.use\"(%0, %1) : (i32, index) -> ()"),
            "{text}"
        );
        assert_eq!(
            text.matches("unrealized_conversion_cast").count(),
            1,
            "{text}"
        );
    }
}
