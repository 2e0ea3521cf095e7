//! `composite-fixed-point-pass`: runs a pass pipeline on an op again and
//! again until the op stops changing (its printed form is the same after a
//! run), at most `max-iterations` more times, as MLIR's pass of that name.

use silica_ir::pass::{
    parse_pipeline, Instrumentation, OpPassManager, OptionKind, Pass, PassInfo, PassOptionInfo,
    PassOptions,
};
use silica_ir::printer::op_to_string_generic;
use silica_ir::{Context, Diagnostic, Ir, OpId};
use std::cell::RefCell;
use std::hash::{Hash, Hasher};

struct Composite {
    name: String,
    max_iterations: i64,
    pipeline: RefCell<OpPassManager>,
}

/// A hash of `op`'s generic form: equal when the op did not change.
fn fingerprint(ctx: &Context, ir: &Ir, op: OpId) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    op_to_string_generic(ctx, ir, op, op, true).hash(&mut h);
    h.finish()
}

impl Pass for Composite {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let instr = Instrumentation {
            verify_each: true,
            ..Instrumentation::default()
        };
        let mut pipeline = self.pipeline.borrow_mut();
        let mut before = fingerprint(ctx, ir, op);
        let mut iteration = 0;
        loop {
            pipeline.run(ctx, ir, op, &instr)?;
            if iteration >= self.max_iterations {
                let loc = ir.op_loc(op);
                let where_ = match silica_ir::diag::file_line_col(ctx, loc) {
                    Some((file, line, col)) => format!("{file}:{line}:{col}: "),
                    None => String::new(),
                };
                eprintln!(
                    "{where_}warning: Composite pass \"{}\"+ didn't converge in {} iterations",
                    self.name, self.max_iterations
                );
                return Ok(());
            }
            iteration += 1;
            let after = fingerprint(ctx, ir, op);
            if after == before {
                return Ok(());
            }
            before = after;
        }
    }
}

fn create(o: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let max_iterations = o.int("max-iterations");
    if max_iterations < 1 {
        return Err(format!(
            "invalid value '{max_iterations}' for option 'max-iterations' of pass 'composite-fixed-point-pass': expected at least 1"
        ));
    }
    let registry = crate::pass_registry();
    let text = o.string("pipeline");
    let pipeline = parse_pipeline(text, &registry).map_err(|e| {
        format!(
            "invalid pipeline '{text}' for pass 'composite-fixed-point-pass': {}",
            e.message
        )
    })?;
    Ok(Box::new(Composite {
        name: o.string("name").to_string(),
        max_iterations,
        pipeline: RefCell::new(pipeline),
    }))
}

/// `composite-fixed-point-pass`
pub static COMPOSITE_FIXED_POINT_PASS: PassInfo = PassInfo {
    argument: "composite-fixed-point-pass",
    name: "CompositeFixedPointPass",
    description: "Composite fixed point pass",
    anchor: None,
    options: &[
        PassOptionInfo {
            name: "max-iterations",
            description: "Maximum number of iterations if inner pipeline",
            kind: OptionKind::Int,
            default: "10",
        },
        PassOptionInfo {
            name: "name",
            description: "Composite pass display name",
            kind: OptionKind::String,
            default: "CompositeFixedPointPass",
        },
        PassOptionInfo {
            name: "pipeline",
            description: "Composite pass inner pipeline",
            kind: OptionKind::String,
            default: "",
        },
    ],
    create,
};
