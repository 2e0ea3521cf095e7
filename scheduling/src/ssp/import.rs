//! Reading an `ssp.instance` into a [`Problem`] (with the start times and
//! II it may already carry), and writing a schedule back into it.

use super::attrs::{dependence_of, float_of, make_f32, make_uint, ssp_attr, uint_of};
use super::ops::{array_of, sym_name, GRAPH, LIBRARY, OPERATION, RESOURCE};
use super::resolve::{links, operation_named, operator_type, resource_type};
use crate::problem::{
    Dependence, OpId as ProblemOp, Operation, OperatorType, OperatorTypeId, Problem, ProblemError,
    ProblemKind, ResourceType, ResourceTypeId, Schedule,
};
use rustc_hash::FxHashMap;
use silica_ir::dialect::{inherent_attr, set_inherent_attr};
use silica_ir::{Attr, AttrKind, Context, Diagnostic, Ir, OpId};

/// A problem read from an instance, and where its parts came from.
pub struct Imported {
    /// The `ssp.instance` op.
    pub instance: OpId,
    pub problem: Problem,
    /// The `ssp.operation` op of each problem operation.
    pub operations: Vec<OpId>,
    /// The start times (`t<N>`) the instance carries, per operation.
    pub start_times: Vec<Option<u32>>,
    /// The start times in cycle (`z<F>`) it carries.
    pub start_in_cycle: Vec<Option<f64>>,
    /// Its initiation interval (`II<N>`).
    pub ii: Option<u32>,
}

impl Imported {
    /// A problem error as a diagnostic: at the instance, as CIRCT reports
    /// problem checks and schedule verification (the message names the
    /// operations), or with `at_operation` at the operation it concerns.
    pub fn diagnostic(&self, ir: &Ir, e: &ProblemError, at_operation: bool) -> Box<Diagnostic> {
        let op =
            e.op.filter(|_| at_operation)
                .and_then(|o| self.operations.get(o.0 as usize))
                .copied()
                .unwrap_or(self.instance);
        Box::new(Diagnostic::error(ir.op_loc(op), e.message.clone()))
    }

    /// The schedule the instance carries, if it is complete; else the
    /// first operation without a start time (in cycle, for chaining).
    pub fn given_schedule(&self) -> Result<Schedule, ProblemError> {
        let mut start_times = Vec::with_capacity(self.start_times.len());
        for (i, t) in self.start_times.iter().enumerate() {
            match t {
                Some(t) => start_times.push(*t),
                None => {
                    return Err(ProblemError {
                        message: "Operation has no start time".into(),
                        op: Some(ProblemOp(i as u32)),
                    })
                }
            }
        }
        let mut start_in_cycle = Vec::new();
        if self.problem.kind.has_chaining() {
            for (i, z) in self.start_in_cycle.iter().enumerate() {
                match z {
                    Some(z) if *z >= 0.0 => start_in_cycle.push(*z),
                    _ => {
                        return Err(ProblemError {
                            message: "Operation has no non-negative start time in cycle".into(),
                            op: Some(ProblemOp(i as u32)),
                        })
                    }
                }
            }
        }
        Ok(Schedule {
            start_times,
            start_in_cycle,
            ii: self.ii,
        })
    }
}

/// Reads the problem of `instance`.
pub fn import(ctx: &Context, ir: &Ir, instance: OpId) -> Result<Imported, Box<Diagnostic>> {
    let error = |msg: String| Box::new(Diagnostic::error(ir.op_loc(instance), msg));
    let name = match inherent_attr(ctx, ir, instance, "problemName").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::String { value, .. }) => String::from_utf8_lossy(value).into_owned(),
        _ => String::new(),
    };
    let kind = ProblemKind::from_name(&name)
        .ok_or_else(|| error(format!("unsupported problem '{name}'")))?;
    let mut b = Builder {
        ctx,
        ir,
        problem: Problem::new(kind),
        operator_types: FxHashMap::default(),
        resource_types: FxHashMap::default(),
    };
    let body: Vec<OpId> = ir
        .regions(instance)
        .filter_map(|r| ir.entry_block(r))
        .flat_map(|blk| ir.block_ops(blk))
        .collect();
    let contents = |c: OpId| -> Vec<OpId> {
        ir.regions(c)
            .filter_map(|r| ir.entry_block(r))
            .flat_map(|blk| ir.block_ops(blk))
            .collect()
    };
    for &c in &body {
        match ctx.str(ir.op_name(c)) {
            LIBRARY => contents(c).into_iter().for_each(|t| {
                b.operator_type(t);
            }),
            RESOURCE => contents(c).into_iter().for_each(|t| {
                b.resource_type(t);
            }),
            _ => {}
        }
    }
    let graph = body
        .iter()
        .copied()
        .find(|&c| ctx.str(ir.op_name(c)) == GRAPH)
        .ok_or_else(|| error("instance has no graph".into()))?;
    let operations: Vec<OpId> = contents(graph)
        .into_iter()
        .filter(|&o| ctx.str(ir.op_name(o)) == OPERATION)
        .collect();
    let index: FxHashMap<OpId, u32> = operations
        .iter()
        .enumerate()
        .map(|(i, &o)| (o, i as u32))
        .collect();
    let mut start_times = Vec::with_capacity(operations.len());
    let mut start_in_cycle = Vec::with_capacity(operations.len());
    for &o in &operations {
        let (opr, rsrcs) = links(ctx, ir, o);
        let operator = opr
            .and_then(|r| operator_type(ctx, ir, o, r))
            .map(|t| b.operator_type(t));
        let resources = rsrcs
            .into_iter()
            .filter_map(|r| resource_type(ctx, ir, o, r))
            .map(|t| b.resource_type(t))
            .collect();
        b.problem.operations.push(Operation {
            name: sym_name(ctx, ir, o),
            operator_type: operator,
            resources,
        });
        let props = array_of(ctx, ir, o, "sspProperties");
        let t = props.iter().find_map(|&a| uint_of(ctx, a, "t"));
        start_times.push(t.map(|t| t as u32));
        start_in_cycle.push(props.iter().find_map(|&a| float_of(ctx, a, "z")));
    }
    for (dst, &o) in operations.iter().enumerate() {
        let deps: Vec<_> = array_of(ctx, ir, o, "dependences")
            .into_iter()
            .filter_map(|a| dependence_of(ctx, a))
            .collect();
        let distance_of = |props: Option<Attr>| -> u32 {
            match props.map(|p| ctx.attr_kind(p)) {
                Some(AttrKind::Array(e)) => {
                    e.iter().find_map(|&a| uint_of(ctx, a, "dist")).unwrap_or(0) as u32
                }
                _ => 0,
            }
        };
        for (i, v) in ir.operands(o).enumerate() {
            let Some(src) = ir.defining_op(v).and_then(|d| index.get(&d)) else {
                continue;
            };
            let props = deps
                .iter()
                .find(|d| d.source.is_none() && d.operand_idx == i as u64)
                .and_then(|d| d.properties);
            b.problem.dependences.push(Dependence {
                src: ProblemOp(*src),
                dst: ProblemOp(dst as u32),
                distance: distance_of(props),
                def_use: true,
            });
        }
        for d in deps.iter().filter(|d| d.source.is_some()) {
            let src = d
                .source
                .and_then(|s| operation_named(ctx, ir, o, s))
                .and_then(|s| index.get(&s));
            if let Some(&src) = src {
                b.problem.dependences.push(Dependence {
                    src: ProblemOp(src),
                    dst: ProblemOp(dst as u32),
                    distance: distance_of(d.properties),
                    def_use: false,
                });
            }
        }
    }
    let ii = array_of(ctx, ir, instance, "sspProperties")
        .iter()
        .find_map(|&a| uint_of(ctx, a, "II"))
        .map(|v| v as u32);
    Ok(Imported {
        instance,
        problem: b.problem,
        operations,
        start_times,
        start_in_cycle,
        ii,
    })
}

/// Writes `s` into the instance: `t<N>` (and `z<F>` for chaining) on each
/// operation, `II<N>` on the instance for cyclic problems.
pub fn export(ctx: &mut Context, ir: &mut Ir, imported: &Imported, s: &Schedule) {
    for (i, &o) in imported.operations.iter().enumerate() {
        let mut props = array_of(ctx, ir, o, "sspProperties");
        props.retain(|&a| !matches!(ssp_attr(ctx, a), Some(("t" | "z", _))));
        props.push(make_uint(ctx, "t", u64::from(s.start_times[i])));
        if let Some(&z) = s.start_in_cycle.get(i) {
            props.push(make_f32(ctx, "z", z));
        }
        let list = ctx.array_attr(&props);
        set_inherent_attr(ctx, ir, o, "sspProperties", list);
    }
    if let Some(ii) = s.ii {
        let instance = imported.instance;
        let mut props = array_of(ctx, ir, instance, "sspProperties");
        props.retain(|&a| !matches!(ssp_attr(ctx, a), Some(("II", _))));
        props.insert(0, make_uint(ctx, "II", u64::from(ii)));
        let list = ctx.array_attr(&props);
        set_inherent_attr(ctx, ir, instance, "sspProperties", list);
    }
}

/// Collects operator and resource types as they are met, once each.
struct Builder<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    problem: Problem,
    operator_types: FxHashMap<OpId, OperatorTypeId>,
    resource_types: FxHashMap<OpId, ResourceTypeId>,
}

impl Builder<'_> {
    fn properties(&self, op: OpId) -> Vec<Attr> {
        array_of(self.ctx, self.ir, op, "sspProperties")
    }

    fn operator_type(&mut self, op: OpId) -> OperatorTypeId {
        if let Some(&id) = self.operator_types.get(&op) {
            return id;
        }
        let ctx = self.ctx;
        let props = self.properties(op);
        let uint = |n: &str| props.iter().find_map(|&a| uint_of(ctx, a, n));
        let float = |n: &str| props.iter().find_map(|&a| float_of(ctx, a, n));
        let id = OperatorTypeId(self.problem.operator_types.len() as u32);
        self.problem.operator_types.push(OperatorType {
            name: sym_name(ctx, self.ir, op).unwrap_or_default(),
            latency: uint("latency").map(|v| v as u32),
            incoming_delay: float("incDelay"),
            outgoing_delay: float("outDelay"),
            limit: uint("limit").map(|v| v as u32),
        });
        self.operator_types.insert(op, id);
        id
    }

    fn resource_type(&mut self, op: OpId) -> ResourceTypeId {
        if let Some(&id) = self.resource_types.get(&op) {
            return id;
        }
        let ctx = self.ctx;
        let props = self.properties(op);
        let id = ResourceTypeId(self.problem.resource_types.len() as u32);
        self.problem.resource_types.push(ResourceType {
            name: sym_name(ctx, self.ir, op).unwrap_or_default(),
            limit: props
                .iter()
                .find_map(|&a| uint_of(ctx, a, "limit"))
                .map(|v| v as u32),
        });
        self.resource_types.insert(op, id);
        id
    }
}
