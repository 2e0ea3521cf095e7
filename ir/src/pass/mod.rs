//! Passes and the pass manager: a [`Pass`] transforms one op; a
//! [`PassInfo`] registers it under its command-line name with its
//! options; [`pipeline`] reads MLIR's textual pipelines
//! (`builtin.module(func.func(canonicalize{max-iterations=3},cse))`);
//! [`manager`] runs nested pipelines with IR printing, timing and
//! verification after each pass.

pub mod manager;
pub mod options;
mod parallel;
pub mod pipeline;

pub use manager::{Instrumentation, OpPassManager, PassTimingRow};
pub use options::{OptionKind, PassOptionInfo, PassOptions};
pub use pipeline::{parse_pipeline, PipelineError};

use crate::context::Context;
use crate::diag::Diagnostic;
use crate::graph::{Ir, OpId};

/// A transformation of one op and what is nested in it.
pub trait Pass {
    /// Runs on `op`; an error is reported at an op and stops the pipeline.
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>>;
}

/// Creates a pass from its parsed options.
pub type PassCtor = fn(&PassOptions) -> Result<Box<dyn Pass>, String>;

/// A registered pass: its flag, the class name IR dumps and timing
/// reports show, a description, the op it runs on, and its options.
#[derive(Debug)]
pub struct PassInfo {
    /// The command-line name (`canonicalize`).
    pub argument: &'static str,
    /// The name in reports (`Canonicalizer`).
    pub name: &'static str,
    pub description: &'static str,
    /// The op the pass must run on (any op when `None`).
    pub anchor: Option<&'static str>,
    pub options: &'static [PassOptionInfo],
    pub create: PassCtor,
}

/// The passes a tool knows, by command-line name.
#[derive(Default)]
pub struct PassRegistry {
    passes: Vec<&'static PassInfo>,
}

impl PassRegistry {
    /// A registry of `passes`.
    pub fn new(passes: impl IntoIterator<Item = &'static PassInfo>) -> Self {
        let mut passes: Vec<_> = passes.into_iter().collect();
        passes.sort_by_key(|p| p.argument);
        PassRegistry { passes }
    }

    /// The pass named `argument`.
    pub fn get(&self, argument: &str) -> Option<&'static PassInfo> {
        self.passes.iter().copied().find(|p| p.argument == argument)
    }

    /// Every pass, sorted by name.
    pub fn all(&self) -> &[&'static PassInfo] {
        &self.passes
    }

    /// The registered name closest to `name`, if any is close.
    pub fn suggest(&self, name: &str) -> Option<&'static str> {
        self.passes
            .iter()
            .map(|p| (edit_distance(p.argument, name), p.argument))
            .filter(|&(d, arg)| d <= arg.len().max(name.len()) / 3 + 1)
            .min()
            .map(|(_, arg)| arg)
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}
