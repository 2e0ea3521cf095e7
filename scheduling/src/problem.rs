//! The problem model of CIRCT's scheduling infrastructure: operations
//! linked to operator types (latency, chaining delays) and resource types
//! (limits), dependences with distances, and the problem kinds that read
//! these properties.

use std::fmt;

/// Index of an operation in [`Problem::operations`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct OpId(pub u32);

/// Index of an operator type in [`Problem::operator_types`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct OperatorTypeId(pub u32);

/// Index of a resource type in [`Problem::resource_types`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ResourceTypeId(pub u32);

/// The problem classes of CIRCT (`ssp.instance ... of "<name>"`). Each adds
/// properties and constraints to the ones before it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ProblemKind {
    /// Latencies and precedence on an acyclic graph.
    Problem,
    /// Dependence distances and an initiation interval.
    CyclicProblem,
    /// Combinational delays chained within a cycle.
    ChainingProblem,
    /// Resource types with limits, per time step.
    SharedOperatorsProblem,
    /// Resource limits modulo the initiation interval.
    ModuloProblem,
    /// Chaining on a cyclic problem.
    ChainingCyclicProblem,
}

impl ProblemKind {
    /// All kinds, in CIRCT's naming.
    pub const ALL: [ProblemKind; 6] = [
        ProblemKind::Problem,
        ProblemKind::CyclicProblem,
        ProblemKind::ChainingProblem,
        ProblemKind::SharedOperatorsProblem,
        ProblemKind::ModuloProblem,
        ProblemKind::ChainingCyclicProblem,
    ];

    /// CIRCT's class name.
    pub fn name(self) -> &'static str {
        match self {
            ProblemKind::Problem => "Problem",
            ProblemKind::CyclicProblem => "CyclicProblem",
            ProblemKind::ChainingProblem => "ChainingProblem",
            ProblemKind::SharedOperatorsProblem => "SharedOperatorsProblem",
            ProblemKind::ModuloProblem => "ModuloProblem",
            ProblemKind::ChainingCyclicProblem => "ChainingCyclicProblem",
        }
    }

    /// The kind named `name`.
    pub fn from_name(name: &str) -> Option<ProblemKind> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether dependences may carry distances (and an II is scheduled).
    pub fn is_cyclic(self) -> bool {
        matches!(
            self,
            ProblemKind::CyclicProblem
                | ProblemKind::ModuloProblem
                | ProblemKind::ChainingCyclicProblem
        )
    }

    /// Whether resource limits apply.
    pub fn has_resources(self) -> bool {
        matches!(
            self,
            ProblemKind::SharedOperatorsProblem | ProblemKind::ModuloProblem
        )
    }

    /// Whether operations chain within a cycle (start times in cycle).
    pub fn has_chaining(self) -> bool {
        matches!(
            self,
            ProblemKind::ChainingProblem | ProblemKind::ChainingCyclicProblem
        )
    }
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An operator type: what an operation computes on the target.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OperatorType {
    pub name: String,
    /// Cycles from start to result.
    pub latency: Option<u32>,
    /// Combinational delay before the first register (chaining).
    pub incoming_delay: Option<f64>,
    /// Combinational delay after the last register (chaining).
    pub outgoing_delay: Option<f64>,
    /// A limit on operations of this type per time step: an implicit
    /// resource type of the same name (older CIRCT inputs).
    pub limit: Option<u32>,
}

/// A resource type: units that operations occupy at their start time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResourceType {
    pub name: String,
    pub limit: Option<u32>,
}

/// A vertex of the dependence graph.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Operation {
    /// `@name`, when the operation is referenced by auxiliary dependences
    /// or named in the input.
    pub name: Option<String>,
    pub operator_type: Option<OperatorTypeId>,
    pub resources: Vec<ResourceTypeId>,
}

/// An edge `src -> dst`: `dst` may start `latency(src)` cycles after `src`
/// started `distance` iterations earlier.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dependence {
    pub src: OpId,
    pub dst: OpId,
    pub distance: u32,
    /// Whether the edge is a value flowing from `src` to `dst` (an SSA
    /// operand in the ssp form) rather than an auxiliary ordering edge.
    /// Chaining cyclic problems allow distances on auxiliary edges only.
    pub def_use: bool,
}

/// Two operations of a modulo problem that may take the one unit of a
/// resource of limit 1 in the same slot: each runs in some iterations
/// only (a predicated memory access), so that they meet in one cycle only
/// at some distances between their iterations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotShare {
    pub a: OpId,
    pub b: OpId,
    /// The distances `i_a - i_b`, within `-reach..=reach`, between an
    /// iteration `i_a` in which `a` runs and one `i_b` in which `b` runs,
    /// sorted.
    pub meets: Vec<i64>,
    /// Beyond this distance the two are taken to meet.
    pub reach: i64,
}

/// A scheduling problem instance.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub kind: ProblemKind,
    pub operator_types: Vec<OperatorType>,
    pub resource_types: Vec<ResourceType>,
    pub operations: Vec<Operation>,
    pub dependences: Vec<Dependence>,
    /// Pairs of operations that may share a slot of a resource of limit
    /// 1 (modulo problems only).
    pub shares: Vec<SlotShare>,
}

/// A solution: start times, start times within the cycle (chaining) and
/// the initiation interval (cyclic problems).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schedule {
    pub start_times: Vec<u32>,
    /// Per operation, for chaining problems; empty otherwise.
    pub start_in_cycle: Vec<f64>,
    pub ii: Option<u32>,
}

/// A problem-check or schedule-verification failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProblemError {
    pub message: String,
    /// The operation the failure is about, if one.
    pub op: Option<OpId>,
}

impl ProblemError {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        ProblemError {
            message: message.into(),
            op: None,
        }
    }

    pub(crate) fn at(op: OpId, message: impl Into<String>) -> Self {
        ProblemError {
            message: message.into(),
            op: Some(op),
        }
    }
}

impl fmt::Display for ProblemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ProblemError {}

impl Problem {
    /// An empty problem of `kind`.
    pub fn new(kind: ProblemKind) -> Self {
        Problem {
            kind,
            operator_types: Vec::new(),
            resource_types: Vec::new(),
            operations: Vec::new(),
            dependences: Vec::new(),
            shares: Vec::new(),
        }
    }

    /// Adds an operator type with `latency`.
    pub fn add_operator_type(&mut self, name: &str, latency: u32) -> OperatorTypeId {
        self.operator_types.push(OperatorType {
            name: name.to_string(),
            latency: Some(latency),
            ..OperatorType::default()
        });
        OperatorTypeId(self.operator_types.len() as u32 - 1)
    }

    /// Adds a resource type with `limit` units.
    pub fn add_resource_type(&mut self, name: &str, limit: u32) -> ResourceTypeId {
        self.resource_types.push(ResourceType {
            name: name.to_string(),
            limit: Some(limit),
        });
        ResourceTypeId(self.resource_types.len() as u32 - 1)
    }

    /// Adds an operation of `operator_type` using `resources`.
    pub fn add_operation(
        &mut self,
        operator_type: OperatorTypeId,
        resources: &[ResourceTypeId],
    ) -> OpId {
        self.operations.push(Operation {
            name: None,
            operator_type: Some(operator_type),
            resources: resources.to_vec(),
        });
        OpId(self.operations.len() as u32 - 1)
    }

    /// Adds the auxiliary dependence `src -> dst` with `distance`.
    pub fn add_dependence(&mut self, src: OpId, dst: OpId, distance: u32) {
        self.dependences.push(Dependence {
            src,
            dst,
            distance,
            def_use: false,
        });
    }

    /// Lets `a` and `b` share a slot of a resource of limit 1 unless the
    /// distance between their iterations is one of `meets` or beyond
    /// `reach` ([`SlotShare`]).
    pub fn add_slot_share(&mut self, a: OpId, b: OpId, mut meets: Vec<i64>, reach: i64) {
        meets.sort_unstable();
        meets.dedup();
        self.shares.push(SlotShare { a, b, meets, reach });
    }

    /// Whether `x` starting at `tx` and `y` at `ty`, in the same slot of
    /// a modulo schedule at `ii`, never run in the same cycle.
    pub fn apart(&self, x: OpId, tx: i64, y: OpId, ty: i64, ii: u32) -> bool {
        let ii = i64::from(ii.max(1));
        if (ty - tx).rem_euclid(ii) != 0 {
            return true;
        }
        // Iteration i of x and j of y run at once where
        // i * ii + tx = j * ii + ty.
        let x_minus_y = (ty - tx) / ii;
        self.shares.iter().any(|s| {
            let d = match (s.a, s.b) {
                (a, b) if a == x && b == y => x_minus_y,
                (a, b) if a == y && b == x => -x_minus_y,
                _ => return false,
            };
            d.abs() <= s.reach && s.meets.binary_search(&d).is_err()
        })
    }

    /// Whether `x` and `y` may share a slot at some distance.
    pub fn may_share(&self, x: OpId, y: OpId) -> bool {
        self.shares.iter().any(|s| {
            ((s.a, s.b) == (x, y) || (s.a, s.b) == (y, x))
                && (2 * s.reach + 1) as usize > s.meets.len()
        })
    }

    /// The operator type of `op` (checked problems have one).
    pub fn operator_type(&self, op: OpId) -> Option<&OperatorType> {
        let id = self.operations[op.0 as usize].operator_type?;
        self.operator_types.get(id.0 as usize)
    }

    /// The latency of `op` (0 where unknown; checked problems know it).
    pub fn latency(&self, op: OpId) -> u32 {
        self.operator_type(op).and_then(|t| t.latency).unwrap_or(0)
    }

    /// The operations, as ids.
    pub fn ops(&self) -> impl Iterator<Item = OpId> {
        (0..self.operations.len() as u32).map(OpId)
    }

    /// How `op` is named in messages: `@name`, or its position.
    pub fn describe(&self, op: OpId) -> String {
        match &self.operations[op.0 as usize].name {
            Some(n) => format!("operation @{n}"),
            None => format!("operation #{}", op.0),
        }
    }

    /// The limited resources `op` occupies: its resource types with a
    /// limit, then its operator type's own limit (as pseudo-resource
    /// `resource_types.len() + operator type index`).
    pub fn limited_resources(&self, op: OpId) -> impl Iterator<Item = (usize, u32)> + '_ {
        let o = &self.operations[op.0 as usize];
        let explicit = o.resources.iter().filter_map(|r| {
            let limit = self.resource_types.get(r.0 as usize)?.limit?;
            Some((r.0 as usize, limit))
        });
        let implicit = o.operator_type.and_then(|t| {
            let limit = self.operator_types.get(t.0 as usize)?.limit?;
            Some((self.resource_types.len() + t.0 as usize, limit))
        });
        explicit.chain(implicit)
    }

    /// Number of resource slots [`Problem::limited_resources`] can name.
    pub fn num_resource_slots(&self) -> usize {
        self.resource_types.len() + self.operator_types.len()
    }

    /// The name of resource slot `r`.
    pub fn resource_name(&self, r: usize) -> &str {
        match self.resource_types.get(r) {
            Some(t) => &t.name,
            None => &self.operator_types[r - self.resource_types.len()].name,
        }
    }

    /// The latency of the schedule: when the last operation finishes.
    pub fn schedule_latency(&self, s: &Schedule) -> u32 {
        self.finish_time(&s.start_times)
    }

    /// When the last operation finishes, given every operation's start.
    pub fn finish_time(&self, start_times: &[u32]) -> u32 {
        self.ops()
            .map(|op| start_times[op.0 as usize] + self.latency(op))
            .max()
            .unwrap_or(0)
    }
}
