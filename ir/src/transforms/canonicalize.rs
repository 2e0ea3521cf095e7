//! `canonicalize`: every registered op's folds and canonicalization
//! patterns, applied by the greedy driver to each region of the op.

use crate::context::Context;
use crate::diag::Diagnostic;
use crate::graph::{Ir, OpId};
use crate::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use crate::rewrite::{apply_patterns_greedily, GreedyConfig, PatternSet, RegionSimplify};

struct Canonicalize {
    config: GreedyConfig,
    test_convergence: bool,
    disabled: Vec<String>,
    enabled: Vec<String>,
}

impl Pass for Canonicalize {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let patterns = PatternSet::canonicalization(ctx, &self.disabled, &self.enabled);
        let converged = apply_patterns_greedily(ctx, ir, op, &patterns, self.config);
        if self.test_convergence && !converged {
            return Err(Box::new(Diagnostic::error(
                ir.op_loc(op),
                "Canonicalizer failed to converge",
            )));
        }
        Ok(())
    }
}

fn limit(v: i64) -> Option<u64> {
    u64::try_from(v).ok()
}

fn create(o: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let region_simplify = match o.string("region-simplify") {
        "disabled" => RegionSimplify::Disabled,
        "aggressive" => RegionSimplify::Aggressive,
        _ => RegionSimplify::Normal,
    };
    Ok(Box::new(Canonicalize {
        config: GreedyConfig {
            top_down: o.bool("top-down"),
            max_iterations: limit(o.int("max-iterations")),
            max_num_rewrites: limit(o.int("max-num-rewrites")),
            region_simplify,
            fold: true,
            cse_constants: true,
        },
        test_convergence: o.bool("test-convergence"),
        disabled: o.list("disable-patterns"),
        enabled: o.list("enable-patterns"),
    }))
}

/// The `canonicalize` pass.
pub static CANONICALIZE: PassInfo = PassInfo {
    argument: "canonicalize",
    name: "Canonicalizer",
    description: "Canonicalize operations",
    anchor: None,
    options: &[
        PassOptionInfo {
            name: "top-down",
            description: "Seed the worklist in general top-down order",
            kind: OptionKind::Bool,
            default: "true",
        },
        PassOptionInfo {
            name: "region-simplify",
            description: "Perform control flow optimizations to the region tree",
            kind: OptionKind::Enum(&["disabled", "normal", "aggressive"]),
            default: "normal",
        },
        PassOptionInfo {
            name: "max-iterations",
            description: "Max. iterations between applying patterns / simplifying regions",
            kind: OptionKind::Int,
            default: "10",
        },
        PassOptionInfo {
            name: "max-num-rewrites",
            description: "Max. number of pattern rewrites within an iteration",
            kind: OptionKind::Int,
            default: "-1",
        },
        PassOptionInfo {
            name: "test-convergence",
            description: "Test only: Fail pass on non-convergence to detect cyclic pattern",
            kind: OptionKind::Bool,
            default: "false",
        },
        PassOptionInfo {
            name: "disable-patterns",
            description: "Labels of patterns that should be filtered out during application",
            kind: OptionKind::List,
            default: "",
        },
        PassOptionInfo {
            name: "enable-patterns",
            description: "Labels of patterns that should be used during application, all other patterns are filtered out",
            kind: OptionKind::List,
            default: "",
        },
    ],
    create,
};
