//! The front's transforms of a kernel's IR ([`FrontStep`], in the order
//! `FrontStep::ALL` gives), run by [`run`], and each a `silica opt` pass
//! ([`PASSES`]: `hls-buffer`, `hls-unroll`, `hls-reuse`, `hls-line-buffer`,
//! `hls-fuse`, `hls-hoist`, `hls-promote`, `hls-carry`) that reads its directives from the
//! function's `hls.*` attributes. `hls-directives` writes a directives
//! file's settings as those attributes (the file winning, setting by
//! setting), as the flow does on its copy of the input before the
//! steps, so a pipeline of the passes gives what `silica hls` lifts.

use super::directives::{resolve, write_attributes};
use super::{buffer, carry, fuse, hoist, line_buffer, promote, reuse, unroll};
use crate::model::directives::{file, Directives, Log};
use crate::model::options::FrontStep;
use silica_ir::diag::Severity;
use silica_ir::dialect::inherent_attr;
use silica_ir::pass::{OptionKind, Pass, PassCtor, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::{AttrKind, Context, Diagnostic, Ir, OpId};

/// Runs `step` on function `func` (named `top`) of `ir` with its
/// directives `d` (moved to the loops a step makes anew); what became of
/// the directives goes to `log`, what the step did to `notes`.
pub fn run(
    step: FrontStep,
    ctx: &mut Context,
    ir: &mut Ir,
    (func, top): (OpId, &str),
    d: &mut Directives,
    (log, notes): (&mut Log, &mut Vec<String>),
) {
    match step {
        FrontStep::Buffer => buffer(ctx, ir, func, top, d, log),
        FrontStep::Unroll => unroll(ctx, ir, func, d, log),
        FrontStep::Reuse => notes.extend(reuse(ctx, ir, func)),
        FrontStep::LineBuffer => notes.extend(line_buffer(ctx, ir, func, top, d)),
        FrontStep::Fuse => notes.extend(fuse(ctx, ir, func, d, log)),
        FrontStep::Hoist => hoist(ctx, ir, d, log),
        FrontStep::Promote => notes.extend(promote(ctx, ir, func, d)),
        FrontStep::Carry => notes.extend(carry(ctx, ir, func, top, d)),
    }
}

/// A step as a pass over a `func.func`: the directives not honoured are
/// warnings, what the step did remarks.
struct StepPass(FrontStep);

impl Pass for StepPass {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, func: OpId) -> Result<(), Box<Diagnostic>> {
        let top = match inherent_attr(ctx, ir, func, "sym_name").map(|a| ctx.attr_kind(a)) {
            Some(AttrKind::String { value, .. }) => String::from_utf8_lossy(value).into_owned(),
            _ => String::new(),
        };
        let mut d = resolve(ctx, ir, func, &top, None)?;
        let (mut log, mut notes) = (Log::default(), Vec::new());
        run(
            self.0,
            ctx,
            ir,
            (func, &top),
            &mut d,
            (&mut log, &mut notes),
        );
        for w in log.warnings {
            ctx.emit(w);
        }
        for message in notes {
            ctx.emit(Diagnostic {
                severity: Severity::Remark,
                loc: ir.op_loc(func),
                message,
                notes: Vec::new(),
            });
        }
        Ok(())
    }
}

/// `hls-directives`: the settings of the directives file `file` for
/// function `top` written as `hls.*` attributes.
struct DirectivesPass {
    file: String,
    top: String,
}

impl Pass for DirectivesPass {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, module: OpId) -> Result<(), Box<Diagnostic>> {
        let text = std::fs::read_to_string(&self.file).map_err(|e| {
            let m = format!("cannot read directives file '{}': {e}", self.file);
            Box::new(Diagnostic::error(ir.op_loc(module), m))
        })?;
        let f = file::parse(&self.file, &text).map_err(|(pos, m)| {
            let name = ctx.sym(&self.file);
            Box::new(Diagnostic::error(ctx.file_loc(name, pos.line, pos.col), m))
        })?;
        let func = super::find_top(ctx, ir, module, &self.top)?;
        let d = resolve(ctx, ir, func, &self.top, Some(&f))?;
        write_attributes(ctx, ir, func, &self.top, &d);
        Ok(())
    }
}

fn create_directives(o: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let (file, top) = (o.string("file"), o.string("top"));
    if file.is_empty() || top.is_empty() {
        return Err("hls-directives needs its 'file' and 'top' options".into());
    }
    Ok(Box::new(DirectivesPass {
        file: file.to_string(),
        top: top.to_string(),
    }))
}

/// `hls-directives`.
pub static HLS_DIRECTIVES: PassInfo = PassInfo {
    argument: "hls-directives",
    name: "HlsDirectives",
    description: "Write a directives file's settings for a function as its hls.* attributes",
    anchor: Some("builtin.module"),
    options: &[
        PassOptionInfo {
            name: "file",
            description: "The directives file (TOML)",
            kind: OptionKind::String,
            default: "",
        },
        PassOptionInfo {
            name: "top",
            description: "The function the file's loop and array names refer to",
            kind: OptionKind::String,
            default: "",
        },
    ],
    create: create_directives,
};

/// The pass of a step (`argument`, class `name`, `description`), made by
/// `create`.
const fn step(
    argument: &'static str,
    name: &'static str,
    description: &'static str,
    create: PassCtor,
) -> PassInfo {
    PassInfo {
        argument,
        name,
        description,
        anchor: Some("func.func"),
        options: &[],
        create,
    }
}

/// The pass `$argument` of `FrontStep::$step` (class `Hls$step`).
macro_rules! step_pass {
    ($argument:literal, $step:ident, $description:literal) => {
        step(
            $argument,
            concat!("Hls", stringify!($step)),
            $description,
            |_| Ok(Box::new(StepPass(FrontStep::$step))),
        )
    };
}

/// The steps' passes, in `FrontStep::ALL`'s order.
pub static STEP_PASSES: [PassInfo; 8] = [
    step_pass!(
        "hls-buffer",
        Buffer,
        "Copy the memories hls.buffer asks to into on-chip RAMs"
    ),
    step_pass!("hls-unroll", Unroll, "Unroll the loops hls.unroll asks to"),
    step_pass!("hls-reuse", Reuse, "Remove redundant loads and stores"),
    step_pass!(
        "hls-line-buffer",
        LineBuffer,
        "Read a stencil's array once, through a line buffer and a window of registers"
    ),
    step_pass!("hls-fuse", Fuse, "Fuse the loops in a flattened nest"),
    step_pass!("hls-hoist", Hoist, "Move a loop's invariant code before it"),
    step_pass!("hls-promote", Promote, "Invariant elements in registers"),
    step_pass!("hls-carry", Carry, "Carry loads across iterations"),
];

/// Every pass of the front, for `silica opt`.
pub static PASSES: [&PassInfo; 9] = [
    &HLS_DIRECTIVES,
    &STEP_PASSES[0],
    &STEP_PASSES[1],
    &STEP_PASSES[2],
    &STEP_PASSES[3],
    &STEP_PASSES[4],
    &STEP_PASSES[5],
    &STEP_PASSES[6],
    &STEP_PASSES[7],
];
