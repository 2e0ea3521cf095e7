//! The order in which a module's ops settle each cycle (for the
//! simulator and the Verilog emitter): every op after the ops whose
//! results it uses, state (registers, shift registers, FIFOs,
//! registered memory reads) counting as sources.
//!
//! An instance is not one combinational node: each of its outputs
//! depends only on the inputs that reach it combinationally through the
//! instantiated module's body ([`port_deps`]). An output that depends
//! on fewer inputs than the instance has gets a step of its own
//! ([`Step::Outputs`]), evaluated before the other inputs are known, so
//! that a unit whose outputs are registered may feed its own inputs (a
//! shared pipelined operator behind its operand mux) without being a
//! combinational cycle.

use crate::hw::{find_module, instance_target};
use crate::seq::memory::is_registered_read;
use silica_ir::diag::Diagnostic;
use silica_ir::{Context, Ir, OpId, ValueId};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

type Res<T> = Result<T, Box<Diagnostic>>;

/// Whether `op`'s results are state (registers, shift registers,
/// registered memory reads): sources for the combinational order.
pub fn is_state(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    matches!(
        ctx.str(ir.op_name(op)),
        "seq.compreg" | "seq.compreg.ce" | "seq.firreg" | "seq.shiftreg" | "seq.fifo"
    ) || is_registered_read(ctx, ir, op)
}

/// One step of a module's settling order.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// An op from all its operands (an instance: its whole body).
    Op(OpId),
    /// Results `outputs` of `instance`, which depend combinationally on
    /// its operands `inputs` only (indices, in order): evaluated from
    /// those before the instance's other operands are known.
    Outputs {
        instance: OpId,
        outputs: Vec<usize>,
        inputs: Vec<usize>,
    },
}

/// For each output of a module, the inputs (indices of its input
/// ports, clocks included) it depends on combinationally, in order.
pub type PortDeps = Vec<Vec<usize>>;

/// The settling order of modules and the port dependencies of the
/// modules they instantiate, each module's computed once.
#[derive(Default)]
pub struct Orders {
    deps: HashMap<OpId, Option<Rc<PortDeps>>>,
}

fn err(ir: &Ir, op: OpId, msg: impl Into<String>) -> Box<Diagnostic> {
    Box::new(Diagnostic::error(ir.op_loc(op), msg))
}

fn body_ops(ir: &Ir, module: OpId) -> Vec<OpId> {
    ir.regions(module)
        .next()
        .and_then(|r| ir.entry_block(r))
        .map(|b| ir.block_ops(b).collect())
        .unwrap_or_default()
}

impl Orders {
    /// The ops of `module`'s body, and the early outputs of its
    /// instances, in an order where every step comes after the steps
    /// whose results it uses. A combinational cycle is an error at one
    /// of its ops.
    pub fn steps(&mut self, ctx: &Context, ir: &Ir, module: OpId) -> Res<Vec<Step>> {
        let ops = body_ops(ir, module);
        let index: HashMap<OpId, usize> = ops.iter().enumerate().map(|(i, &o)| (o, i)).collect();
        // Nodes past the ops: the early outputs of instances, and where
        // each instance result is defined.
        let mut early: Vec<Step> = Vec::new();
        let mut early_of: HashMap<ValueId, usize> = HashMap::new();
        for &op in &ops {
            if ctx.str(ir.op_name(op)) != "hw.instance" {
                continue;
            }
            let Some(deps) = self.instance_deps(ctx, ir, op) else {
                continue;
            };
            let operands = ir.operands(op).count();
            let mut groups: BTreeMap<&[usize], Vec<usize>> = BTreeMap::new();
            for (k, d) in deps.iter().enumerate() {
                if d.len() < operands {
                    groups.entry(d).or_default().push(k);
                }
            }
            for (inputs, outputs) in groups {
                for &k in &outputs {
                    early_of.insert(ir.result(op, k), ops.len() + early.len());
                }
                early.push(Step::Outputs {
                    instance: op,
                    outputs,
                    inputs: inputs.to_vec(),
                });
            }
        }
        let node_of = |v: ValueId| -> Option<usize> {
            early_of
                .get(&v)
                .copied()
                .or_else(|| ir.defining_op(v).and_then(|d| index.get(&d).copied()))
        };
        let deps_of = |node: usize| -> Vec<usize> {
            match ops.get(node) {
                Some(&op) if is_state(ctx, ir, op) => Vec::new(),
                Some(&op) => ir.operands(op).filter_map(node_of).collect(),
                None => match &early[node - ops.len()] {
                    Step::Outputs {
                        instance, inputs, ..
                    } => {
                        let operands: Vec<ValueId> = ir.operands(*instance).collect();
                        inputs
                            .iter()
                            .filter_map(|&i| node_of(operands[i]))
                            .collect()
                    }
                    Step::Op(_) => Vec::new(),
                },
            }
        };
        let nodes = ops.len() + early.len();
        // 0 = unvisited, 1 = on the stack, 2 = done.
        let mut mark = vec![0u8; nodes];
        let mut order = Vec::with_capacity(nodes);
        for start in 0..nodes {
            if mark[start] != 0 {
                continue;
            }
            let mut stack: Vec<(usize, Vec<usize>, usize)> = vec![(start, deps_of(start), 0)];
            mark[start] = 1;
            while let Some((i, deps, next)) = stack.last_mut() {
                if let Some(&d) = deps.get(*next) {
                    *next += 1;
                    match mark[d] {
                        0 => {
                            mark[d] = 1;
                            stack.push((d, deps_of(d), 0));
                        }
                        1 => {
                            let at = match ops.get(d) {
                                Some(&op) => op,
                                None => match &early[d - ops.len()] {
                                    Step::Outputs { instance, .. } | Step::Op(instance) => {
                                        *instance
                                    }
                                },
                            };
                            return Err(err(
                                ir,
                                at,
                                "detected combinational cycle in a graph region",
                            ));
                        }
                        _ => {}
                    }
                } else {
                    let i = *i;
                    mark[i] = 2;
                    order.push(match ops.get(i) {
                        Some(&op) => Step::Op(op),
                        None => early[i - ops.len()].clone(),
                    });
                    stack.pop();
                }
            }
        }
        Ok(order)
    }

    /// The port dependencies of the module `instance` instantiates;
    /// `None` where it is unknown (an external module, a recursive
    /// instance, a combinational cycle, operands not matching its
    /// inputs): then every output depends on every input.
    fn instance_deps(&mut self, ctx: &Context, ir: &Ir, instance: OpId) -> Option<Rc<PortDeps>> {
        let target = instance_target(ctx, ir, instance)?;
        let callee = find_module(ctx, ir, instance, &target)
            .filter(|&m| ctx.str(ir.op_name(m)) == "hw.module")?;
        let deps = self.port_deps(ctx, ir, callee)?;
        let inputs = ir
            .regions(callee)
            .next()
            .and_then(|r| ir.entry_block(r))
            .map_or(0, |b| ir.block_args(b).len());
        let fits =
            inputs == ir.operands(instance).count() && deps.len() == ir.results(instance).count();
        fits.then_some(deps)
    }

    /// For each output of `module`, the inputs it depends on
    /// combinationally: the block arguments that reach its `hw.output`
    /// operand through ops that are not state, and through instances by
    /// their own port dependencies. `None` for a module with a
    /// combinational cycle (or instantiating itself).
    pub fn port_deps(&mut self, ctx: &Context, ir: &Ir, module: OpId) -> Option<Rc<PortDeps>> {
        if let Some(known) = self.deps.get(&module) {
            return known.clone();
        }
        // Recursion through this module's instances sees it unknown.
        self.deps.insert(module, None);
        let found = self.compute_port_deps(ctx, ir, module).map(Rc::new);
        self.deps.insert(module, found.clone());
        found
    }

    fn compute_port_deps(&mut self, ctx: &Context, ir: &Ir, module: OpId) -> Option<PortDeps> {
        let steps = self.steps(ctx, ir, module).ok()?;
        let block = ir.regions(module).next().and_then(|r| ir.entry_block(r))?;
        let args = ir.block_args(block);
        let words = args.len().div_ceil(64);
        let mut of: HashMap<ValueId, Vec<u64>> = HashMap::new();
        for (i, &a) in args.iter().enumerate() {
            let mut set = vec![0u64; words];
            set[i / 64] |= 1 << (i % 64);
            of.insert(a, set);
        }
        let union = |of: &HashMap<ValueId, Vec<u64>>, vs: &mut dyn Iterator<Item = ValueId>| {
            let mut set = vec![0u64; words];
            for v in vs {
                if let Some(s) = of.get(&v) {
                    set.iter_mut().zip(s).for_each(|(a, b)| *a |= b);
                }
            }
            set
        };
        let mut outputs = None;
        for step in &steps {
            match step {
                Step::Op(op) if ctx.str(ir.op_name(*op)) == "hw.output" => {
                    outputs = Some(
                        ir.operands(*op)
                            .map(|v| union(&of, &mut std::iter::once(v)))
                            .collect::<Vec<_>>(),
                    );
                }
                Step::Op(op) if is_state(ctx, ir, *op) => {}
                Step::Op(op) if ctx.str(ir.op_name(*op)) == "hw.instance" => {
                    let operands: Vec<ValueId> = ir.operands(*op).collect();
                    let deps = self.instance_deps(ctx, ir, *op);
                    for (k, r) in ir.results(*op).enumerate() {
                        let set = match &deps {
                            Some(d) => union(&of, &mut d[k].iter().map(|&i| operands[i])),
                            None => union(&of, &mut operands.iter().copied()),
                        };
                        of.insert(r, set);
                    }
                }
                Step::Op(op) => {
                    let set = union(&of, &mut ir.operands(*op));
                    for r in ir.results(*op) {
                        of.insert(r, set.clone());
                    }
                }
                Step::Outputs {
                    instance,
                    outputs,
                    inputs,
                } => {
                    let operands: Vec<ValueId> = ir.operands(*instance).collect();
                    let set = union(&of, &mut inputs.iter().map(|&i| operands[i]));
                    for &k in outputs {
                        of.insert(ir.result(*instance, k), set.clone());
                    }
                }
            }
        }
        let outputs = outputs.unwrap_or_default();
        Some(
            outputs
                .iter()
                .map(|set| {
                    (0..args.len())
                        .filter(|&i| set[i / 64] >> (i % 64) & 1 == 1)
                        .collect()
                })
                .collect(),
        )
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use silica_ir::parser::{parse, ParseOptions, ParsedModule};

    /// `src` parsed with the hw, comb and seq dialects.
    pub(crate) fn parse_hw(src: &str) -> (Context, ParsedModule) {
        let mut ctx = Context::new();
        crate::register(&mut ctx);
        let m = parse(
            &mut ctx,
            "test.mlir",
            src.as_bytes(),
            ParseOptions::default(),
        )
        .unwrap_or_else(|d| panic!("{}", d.message));
        (ctx, m)
    }

    /// The module named `name` in `m`.
    pub(crate) fn module(ctx: &Context, m: &ParsedModule, name: &str) -> OpId {
        find_module(ctx, &m.ir, body_ops(&m.ir, m.top)[0], name)
            .unwrap_or_else(|| panic!("no module {name}"))
    }

    /// A unit with a registered output (`q`, the last cycle's `a + b`)
    /// and a combinational one (`s`, from `b` only); `top` feeds `q`
    /// back into the unit's own `a`, as a shared pipelined operator's
    /// result reaches its operand mux.
    pub(crate) const FEEDBACK: &str = r#"
hw.module @unit(in %clk: !seq.clock, in %a: i8, in %b: i8, out q: i8, out s: i8) {
  %c1 = hw.constant 1 : i8
  %sum = comb.add %a, %b : i8
  %r = seq.compreg %sum, %clk : i8
  %s = comb.add %b, %c1 : i8
  hw.output %r, %s : i8, i8
}
hw.module @top(in %clk: !seq.clock, in %x: i8, out o: i8, out t: i8) {
  %c3 = hw.constant 3 : i8
  %fb = comb.xor %q, %c3 : i8
  %q, %s = hw.instance "u" @unit(clk: %clk: !seq.clock, a: %fb: i8, b: %x: i8) -> (q: i8, s: i8)
  hw.output %q, %s : i8, i8
}
"#;

    #[test]
    fn port_deps_stop_at_registers_and_pass_through_instances() {
        let (ctx, m) = parse_hw(FEEDBACK);
        let mut orders = Orders::default();
        let unit = module(&ctx, &m, "unit");
        let top = module(&ctx, &m, "top");
        assert_eq!(
            *orders.port_deps(&ctx, &m.ir, unit).unwrap(),
            vec![vec![], vec![2]]
        );
        // `t` is the unit's `s`, from `b`, which is `x`.
        assert_eq!(
            *orders.port_deps(&ctx, &m.ir, top).unwrap(),
            vec![vec![], vec![1]]
        );
    }

    #[test]
    fn registered_outputs_come_before_the_instance() {
        let (ctx, m) = parse_hw(FEEDBACK);
        let top = module(&ctx, &m, "top");
        let steps = Orders::default().steps(&ctx, &m.ir, top).unwrap();
        let ops = body_ops(&m.ir, top);
        let instance = ops[2];
        let at = |s: &Step| steps.iter().position(|t| t == s).unwrap();
        let early = Step::Outputs {
            instance,
            outputs: vec![0],
            inputs: vec![],
        };
        let late = Step::Outputs {
            instance,
            outputs: vec![1],
            inputs: vec![2],
        };
        // `q` (from no input), then the xor feeding `a`, then the whole
        // unit; `s` depends on `b`, which is all but `a`: a step of its own.
        assert!(at(&early) < at(&Step::Op(ops[1])));
        assert!(at(&Step::Op(ops[1])) < at(&Step::Op(instance)));
        assert!(at(&late) < at(&Step::Op(ops[3])));
        assert_eq!(steps.len(), ops.len() + 2);
    }

    #[test]
    fn an_instance_in_a_combinational_loop_is_still_a_cycle() {
        let src = r#"
hw.module @pass(in %a: i8, out q: i8) {
  %c1 = hw.constant 1 : i8
  %s = comb.add %a, %c1 : i8
  hw.output %s : i8
}
hw.module @top(in %x: i8, out o: i8) {
  %fb = comb.xor %q, %x : i8
  %q = hw.instance "p" @pass(a: %fb: i8) -> (q: i8)
  hw.output %q : i8
}
"#;
        let (ctx, m) = parse_hw(src);
        let top = module(&ctx, &m, "top");
        let e = Orders::default().steps(&ctx, &m.ir, top).unwrap_err();
        assert_eq!(e.message, "detected combinational cycle in a graph region");
        assert_eq!(
            *Orders::default()
                .port_deps(&ctx, &m.ir, module(&ctx, &m, "pass"))
                .unwrap(),
            vec![vec![0]]
        );
        assert!(Orders::default().port_deps(&ctx, &m.ir, top).is_none());
    }
}
