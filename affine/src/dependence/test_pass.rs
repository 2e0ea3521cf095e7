//! `test-memref-dependence-check`, as mlir-opt's test pass: every
//! `affine.load`/`affine.store` under the op, numbered in program order,
//! checked as a source against every access as a destination at each
//! depth from 1 to the number of common loops plus one; the source gets a
//! remark `dependence from i to j at depth d = R`, where `R` is `false`,
//! `true` (no common loop at that depth) or the `[lb, ub]` bounds of
//! `dst_iv - src_iv` for each common loop (`-inf`/`+inf` unbounded).

use super::access::{accesses_of, enclosing_loop_ivs, MemoryAccess};
use super::check::{check_dependence, DependenceComponent, DependenceResult, Precision};
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::{Context, Diagnostic, Ir, OpId, Severity, ValueId};

/// An access op with what the test needs even when its domain is not
/// affine.
struct Checked {
    op: OpId,
    memref: Option<ValueId>,
    write: bool,
    access: Option<MemoryAccess>,
}

fn result_text(result: &DependenceResult, common: usize, depth: usize) -> String {
    let comps: &[DependenceComponent] = match result {
        DependenceResult::Dependence(c) => c,
        _ => return "false".into(),
    };
    if comps.is_empty() || depth > common {
        return "true".into();
    }
    let mut s = String::new();
    for c in comps {
        let lb = c.lower.map_or("-inf".to_string(), |v| v.to_string());
        let ub = c.upper.map_or("+inf".to_string(), |v| v.to_string());
        s.push_str(&format!("[{lb}, {ub}]"));
    }
    s
}

/// The number of affine loops around both ops (a common prefix).
fn common_surrounding_loops(ctx: &Context, ir: &Ir, a: OpId, b: OpId) -> usize {
    let (la, lb) = (
        enclosing_loop_ivs(ctx, ir, a),
        enclosing_loop_ivs(ctx, ir, b),
    );
    la.iter().zip(&lb).take_while(|(x, y)| x == y).count()
}

struct TestMemRefDependenceCheck;

impl Pass for TestMemRefDependenceCheck {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, root: OpId) -> Result<(), Box<Diagnostic>> {
        let mut ops = Vec::new();
        ir.walk(root, &mut |op| {
            if matches!(ctx.str(ir.op_name(op)), "affine.load" | "affine.store") {
                ops.push(op);
            }
        });
        let checked: Vec<Checked> = ops
            .iter()
            .map(|&op| {
                let write = ctx.str(ir.op_name(op)) == "affine.store";
                let access = accesses_of(ctx, ir, op).ok().and_then(|mut a| a.pop());
                Checked {
                    op,
                    memref: ir.operands(op).nth(usize::from(write)),
                    write,
                    access,
                }
            })
            .collect();
        let mut diags = Vec::new();
        for (i, src) in checked.iter().enumerate() {
            for (j, dst) in checked.iter().enumerate() {
                let common = common_surrounding_loops(ctx, ir, src.op, dst.op);
                for depth in 1..=common + 1 {
                    let result = if src.memref != dst.memref || (!src.write && !dst.write) {
                        DependenceResult::NoDependence
                    } else {
                        match (&src.access, &dst.access) {
                            (Some(a), Some(b)) => {
                                check_dependence(ctx, ir, a, b, depth, Precision::Shadow)
                            }
                            _ => DependenceResult::Failure,
                        }
                    };
                    let d = if result == DependenceResult::Failure {
                        Diagnostic::error(ir.op_loc(src.op), "dependence check failed")
                    } else {
                        Diagnostic {
                            severity: Severity::Remark,
                            loc: ir.op_loc(src.op),
                            message: format!(
                                "dependence from {i} to {j} at depth {depth} = {}",
                                result_text(&result, common, depth)
                            ),
                            notes: Vec::new(),
                        }
                    };
                    diags.push(d);
                }
            }
        }
        for d in diags {
            ctx.emit(d);
        }
        Ok(())
    }
}

/// The `test-memref-dependence-check` pass.
pub static TEST_MEMREF_DEPENDENCE_CHECK: PassInfo = PassInfo {
    argument: "test-memref-dependence-check",
    name: "TestMemRefDependenceCheck",
    description: "Checks dependences between all pairs of memref accesses.",
    anchor: None,
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(TestMemRefDependenceCheck)),
};
