//! Directives: how the user asks for pipelining (target II), unrolling,
//! flattening of nests (sibling loops in a body fused first, see
//! `front/fuse.rs`), hoisting a loop's invariant code, memory
//! ports, array partitioning and functional-unit limits. They come from
//! the directives file (`file.rs`) and from discardable attributes on the
//! ops (`hls.pipeline`, `hls.unroll`, `hls.flatten`, `hls.hoist` on loops; `hls.ports`, `hls.partition` on
//! memref arguments and allocations); the file wins, setting by setting.
//! This module holds their values, resolved to the loops and arrays they
//! name (`flow/front/directives.rs` resolves them) and the directives
//! file's format (`file.rs`). What the flow does with each directive,
//! honoured or not and why, is logged in a [`Log`] for `report.txt`, with
//! a warning for every directive that could not be honoured.

pub mod file;

use rustc_hash::FxHashMap;
use silica_ir::diag::Severity;
use silica_ir::{Attr, Diagnostic, OpId};
use std::collections::BTreeMap;

/// The library classes a `[limits]` entry may bound: integer
/// multipliers and dividers (signed and unsigned divisions and
/// remainders on one unit), and the float adders (subtractions
/// included), multipliers and dividers.
pub const LIMITED_CLASSES: [&str; 5] = ["mul", "div", "fadd", "fmul", "fdiv"];

/// Where a directive was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    File,
    Attribute,
    /// Chosen by the flow for another directive (a `buffer`'s banks).
    Derived,
}

impl Origin {
    /// How the report names it.
    pub fn word(self) -> &'static str {
        match self {
            Origin::File => "directives file",
            Origin::Attribute => "attribute",
            Origin::Derived => "derived",
        }
    }
}

/// One directive's value, where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting<T> {
    pub value: T,
    pub loc: Attr,
    pub origin: Origin,
}

impl<T> Setting<T> {
    /// A value written at `loc`.
    pub fn new(value: T, loc: Attr, origin: Origin) -> Self {
        Setting { value, loc, origin }
    }
}

/// `pipeline`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pipeline {
    /// `false`: not pipelined.
    Off,
    /// `true`: at the smallest feasible II.
    Smallest,
    /// A target II.
    Ii(u32),
}

/// `unroll`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unroll {
    Factor(u64),
    Full,
}

/// How an array is partitioned into banks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartitionKind {
    Cyclic,
    Block,
    Complete,
}

/// `partition = { dim, kind, factor }` (`dim` from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partition {
    pub dim: u32,
    pub kind: PartitionKind,
    pub factor: u64,
}

/// An array's partition: one [`Partition`] per dimension split (a table,
/// or a list of tables of distinct dimensions), in the order of their
/// dimensions; the banks are every combination of theirs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partitioning(pub Vec<Partition>);

impl Partitioning {
    /// One dimension split.
    pub fn one(p: Partition) -> Partitioning {
        Partitioning(vec![p])
    }

    /// The directive as the report shows it.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self.0.iter().map(|p| p.describe()).collect();
        parts.join(", ")
    }

    /// The split of dimension `dim` (from 1), if any.
    pub fn of_dim(&self, dim: u32) -> Option<&Partition> {
        self.0.iter().find(|p| p.dim == dim)
    }
}

/// The directives of one loop.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoopDirectives {
    pub pipeline: Option<Setting<Pipeline>>,
    pub unroll: Option<Setting<Unroll>>,
    pub flatten: Option<Setting<bool>>,
    /// Move the loop's invariant code before it (`front/hoist.rs`).
    pub hoist: Option<Setting<bool>>,
    /// Unroll-and-jam by a factor: the loop's copies fused into the
    /// loops inside it (`front/unroll.rs`).
    pub jam: Option<Setting<u64>>,
    /// Swapped with the one loop its body holds (`front/interchange.rs`).
    pub interchange: Option<Setting<bool>>,
}

/// The directives of one array.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArrayDirectives {
    pub partition: Option<Setting<Partitioning>>,
    pub ports: Option<Setting<u32>>,
    /// Elements a word of an external memory's ports (`width = N`).
    pub width: Option<Setting<u32>>,
    /// An external memory the kernel works on through an on-chip copy
    /// (`buffer = true`, `flow/front/buffer.rs`).
    pub buffer: Option<Setting<bool>>,
    /// The words of a dataflow channel's buffer (`depth = N`).
    pub depth: Option<Setting<u64>>,
}

/// Every directive of a kernel, resolved to its loops and arrays.
#[derive(Clone, Debug, Default)]
pub struct Directives {
    pub clock_ns: Option<f64>,
    /// Sibling loop nests of the function's body run concurrently
    /// (`dataflow = true`, `flow/front/dataflow.rs`).
    pub dataflow: Option<Setting<bool>>,
    /// By `affine.for`/`scf.for` op.
    pub loops: FxHashMap<OpId, LoopDirectives>,
    /// By array name.
    pub arrays: BTreeMap<String, ArrayDirectives>,
    /// Functional units per library class.
    pub limits: BTreeMap<String, Setting<u32>>,
    /// The report's path of every loop of the input.
    pub loop_paths: FxHashMap<OpId, String>,
    /// By on-chip copy (`A_buf`): what the banks the flow derives for it
    /// are divided by, where the device's block RAMs do not hold them
    /// (`flow/run.rs`); no directive sets it.
    pub bank_divisors: BTreeMap<String, u64>,
}

/// What became of one directive.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The loop path, array name or `limits`.
    pub subject: String,
    /// The directive as written (`pipeline II=1`, `unroll 4`, ...).
    pub directive: String,
    pub origin: Origin,
    pub honoured: bool,
    pub why: String,
}

/// The outcomes of a kernel's directives and the warnings for those not
/// honoured.
#[derive(Clone, Debug, Default)]
pub struct Log {
    pub outcomes: Vec<Outcome>,
    pub warnings: Vec<Diagnostic>,
}

impl Log {
    /// Records a directive carried out.
    pub fn honoured<T>(&mut self, s: &Setting<T>, subject: &str, directive: String, why: String) {
        self.outcomes.push(Outcome {
            subject: subject.to_string(),
            directive,
            origin: s.origin,
            honoured: true,
            why,
        });
    }

    /// Records a directive not carried out, with a warning at it.
    pub fn refused<T>(&mut self, s: &Setting<T>, subject: &str, directive: String, why: String) {
        self.warnings.push(Diagnostic {
            severity: Severity::Warning,
            loc: s.loc,
            message: format!("{directive} on {subject} is not honoured: {why}"),
            notes: Vec::new(),
        });
        self.outcomes.push(Outcome {
            subject: subject.to_string(),
            directive,
            origin: s.origin,
            honoured: false,
            why,
        });
    }
}

impl Pipeline {
    /// The directive as the report shows it.
    pub fn describe(self) -> String {
        match self {
            Pipeline::Off => "pipeline = false".into(),
            Pipeline::Smallest => "pipeline = true".into(),
            Pipeline::Ii(n) => format!("pipeline II={n}"),
        }
    }
}

impl Unroll {
    /// The directive as the report shows it.
    pub fn describe(self) -> String {
        match self {
            Unroll::Factor(k) => format!("unroll {k}"),
            Unroll::Full => "unroll full".into(),
        }
    }
}

impl Partition {
    /// The directive as the report shows it.
    pub fn describe(self) -> String {
        let kind = match self.kind {
            PartitionKind::Cyclic => "cyclic",
            PartitionKind::Block => "block",
            PartitionKind::Complete => "complete",
        };
        match self.kind {
            PartitionKind::Complete => format!("partition complete dim {}", self.dim),
            _ => format!("partition {kind} dim {} factor {}", self.dim, self.factor),
        }
    }
}
