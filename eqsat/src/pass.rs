//! The `eqsat` pass: finds runs of consecutive integer `arith` ops (or
//! `comb` ops with `hw.constant`s, in hardware modules) of one type in
//! every block, saturates each run's e-graph, extracts the cheapest
//! equivalent expressions for the values used after the run, and, when
//! they cost less than the original ones, writes them at the end of the
//! run and erases the run. A run of a graph region whose ops are not in
//! dataflow order is left alone.

use super::cost::{CostModel, TreeCost};
use super::lang::{wrap, ConstFold, IntExpr};
use super::rules::rules;
use egg::{CostFunction, EGraph, Extractor, Id, Language, RecExpr, Runner, Symbol};
use rustc_hash::{FxHashMap, FxHashSet};
use silica_ir::dialect::{inherent_attr, MaterializeFn};
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::rewrite::{NoListener, Rewriter};
use silica_ir::{
    AttrKind, BigInt, BlockId, Context, Diagnostic, Ir, OpId, Type, TypeKind, ValueId,
};

/// How the pass extracts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtractorKind {
    /// egg's bottom-up extractor (tree costs).
    Greedy,
    /// ILP extraction (DAG costs), egg's formulation.
    Lp,
}

/// The pass's settings.
#[derive(Clone, Copy, Debug)]
pub struct EqsatOptions {
    pub model: CostModel,
    pub extractor: ExtractorKind,
    pub iter_limit: usize,
    pub node_limit: usize,
}

impl Default for EqsatOptions {
    fn default() -> Self {
        EqsatOptions {
            model: CostModel::Ops,
            extractor: ExtractorKind::Greedy,
            iter_limit: 12,
            node_limit: 20_000,
        }
    }
}

/// Builds the e-node of a binary op from its operands' classes.
type MakeNode = fn([Id; 2]) -> IntExpr;

/// A family of integer ops the pass rewrites: its constant op and its
/// binary ops, by e-node.
struct Flavor {
    constant: &'static str,
    ops: [(&'static str, MakeNode); 7],
}

static ARITH: Flavor = Flavor {
    constant: "arith.constant",
    ops: [
        ("arith.addi", IntExpr::Add),
        ("arith.subi", IntExpr::Sub),
        ("arith.muli", IntExpr::Mul),
        ("arith.andi", IntExpr::And),
        ("arith.ori", IntExpr::Or),
        ("arith.xori", IntExpr::Xor),
        ("arith.shli", IntExpr::Shl),
    ],
};

static COMB: Flavor = Flavor {
    constant: "hw.constant",
    ops: [
        ("comb.add", IntExpr::Add),
        ("comb.sub", IntExpr::Sub),
        ("comb.mul", IntExpr::Mul),
        ("comb.and", IntExpr::And),
        ("comb.or", IntExpr::Or),
        ("comb.xor", IntExpr::Xor),
        ("comb.shl", IntExpr::Shl),
    ],
};

impl Flavor {
    fn of(name: &str) -> Option<&'static Flavor> {
        [&ARITH, &COMB]
            .into_iter()
            .find(|f| f.constant == name || f.ops.iter().any(|(n, _)| *n == name))
    }

    fn op_name(&self, node: &IntExpr) -> Option<&'static str> {
        let d = std::mem::discriminant(node);
        let probe = [Id::from(0usize); 2];
        self.ops
            .iter()
            .find(|(_, make)| std::mem::discriminant(&make(probe)) == d)
            .map(|(n, _)| *n)
    }
}

fn int_width(ctx: &Context, ty: Type) -> Option<u32> {
    match ctx.type_kind(ty) {
        TypeKind::Integer { width, .. } if *width <= 64 => Some(*width),
        TypeKind::Index => Some(64),
        _ => None,
    }
}

/// What an op of a run is.
enum Member {
    Binary(MakeNode),
    Constant(i128),
}

fn member(ctx: &Context, ir: &Ir, op: OpId) -> Option<(Type, &'static Flavor, Member)> {
    let name = ctx.str(ir.op_name(op));
    let flavor = Flavor::of(name)?;
    if ir.num_results(op) != 1 {
        return None;
    }
    let ty = ir.value_type(ir.result(op, 0));
    let w = int_width(ctx, ty)?;
    if name == flavor.constant {
        let v = inherent_attr(ctx, ir, op, "value")?;
        return match ctx.attr_kind(v) {
            AttrKind::Integer { value, .. } => {
                let v = i128::try_from(value).ok()?;
                Some((ty, flavor, Member::Constant(wrap(v, w))))
            }
            _ => None,
        };
    }
    let make = flavor.ops.iter().find(|(n, _)| *n == name)?.1;
    // Binary forms only (comb's variadic ops with two operands), with no
    // flags beyond what the e-node keeps.
    let has_flags = ctx.dict_entries(ir.op_attrs(op)).iter().next().is_some();
    if ir.num_operands(op) != 2 || has_flags || ir.operands(op).any(|v| ir.value_type(v) != ty) {
        return None;
    }
    Some((ty, flavor, Member::Binary(make)))
}

/// Runs of consecutive member ops of one type and flavor in `block` (with
/// at least two operations that are not constants), each in dataflow
/// order.
fn runs(ctx: &Context, ir: &Ir, block: BlockId) -> Vec<(Type, &'static Flavor, Vec<OpId>)> {
    let mut out: Vec<(Type, &'static Flavor, Vec<OpId>)> = Vec::new();
    let mut cur: Option<(Type, &'static Flavor, Vec<OpId>)> = None;
    for op in ir.block_ops(block) {
        match (member(ctx, ir, op), &mut cur) {
            (Some((ty, f, _)), Some((t, g, ops))) if *t == ty && std::ptr::eq(f, *g) => {
                ops.push(op)
            }
            (m, _) => {
                out.extend(cur.take());
                cur = m.map(|(ty, f, _)| (ty, f, vec![op]));
            }
        }
    }
    out.extend(cur);
    out.retain(|(_, f, ops)| {
        let seen: FxHashSet<OpId> = ops.iter().copied().collect();
        let mut defined = FxHashSet::default();
        let ordered = ops.iter().all(|&o| {
            let ok = ir
                .operands(o)
                .filter_map(|v| ir.defining_op(v))
                .all(|d| !seen.contains(&d) || defined.contains(&d));
            defined.insert(o);
            ok
        });
        ordered
            && ops
                .iter()
                .filter(|&&o| ctx.str(ir.op_name(o)) != f.constant)
                .count()
                >= 2
    });
    out
}

struct Built {
    egraph: EGraph<IntExpr, ConstFold>,
    /// E-class of each run result and leaf.
    class: FxHashMap<ValueId, Id>,
    leaves: Vec<ValueId>,
    /// Tree cost of each run result as written.
    original_cost: FxHashMap<ValueId, f64>,
}

fn build(ctx: &Context, ir: &Ir, ops: &[OpId], width: u32, cost: &mut TreeCost) -> Built {
    let mut b = Built {
        egraph: EGraph::new(ConstFold { width }),
        class: FxHashMap::default(),
        leaves: Vec::new(),
        original_cost: FxHashMap::default(),
    };
    for &op in ops {
        let (_, _, m) = member(ctx, ir, op).expect("run member");
        let node = match m {
            Member::Constant(c) => IntExpr::Num(c),
            Member::Binary(make) => {
                let mut ids = [Id::from(0usize); 2];
                for (i, v) in ir.operands(op).enumerate().take(2) {
                    ids[i] = match b.class.get(&v) {
                        Some(&id) => id,
                        None => {
                            let sym = Symbol::from(format!("v{}", b.leaves.len()));
                            b.leaves.push(v);
                            let id = b.egraph.add(IntExpr::Var(sym));
                            b.class.insert(v, id);
                            b.original_cost.insert(v, 0.0);
                            id
                        }
                    };
                }
                make(ids)
            }
        };
        let operands: Vec<ValueId> = ir.operands(op).collect();
        let own = cost.cost(&node, |id| {
            operands
                .iter()
                .find(|v| b.class.get(v) == Some(&id))
                .and_then(|v| b.original_cost.get(v).copied())
                .unwrap_or(0.0)
        });
        let id = b.egraph.add(node);
        let r = ir.result(op, 0);
        b.class.insert(r, id);
        b.original_cost.insert(r, own);
    }
    b
}

/// Rewrites one run; returns whether it changed.
fn rewrite_run(
    ctx: &mut Context,
    ir: &mut Ir,
    ty: Type,
    flavor: &Flavor,
    ops: &[OpId],
    opts: &EqsatOptions,
) -> Result<bool, String> {
    let width = int_width(ctx, ty).expect("run type");
    // Constants are built by their dialect's materialisation hook.
    let dialect = flavor.constant.split('.').next().unwrap_or_default();
    let Some(make_constant) = ctx.dialect(dialect).and_then(|d| d.materialize_constant) else {
        return Ok(false);
    };
    let mut cost = TreeCost {
        model: opts.model,
        width,
    };
    let in_run: FxHashSet<OpId> = ops.iter().copied().collect();
    let roots: Vec<ValueId> = ops
        .iter()
        .map(|&o| ir.result(o, 0))
        .filter(|&v| ir.uses(v).any(|u| !in_run.contains(&ir.use_owner(u))))
        .collect();
    if roots.is_empty() {
        return Ok(false);
    }
    let built = build(ctx, ir, ops, width, &mut cost);
    let old: f64 = roots.iter().map(|r| built.original_cost[r]).sum();
    let root_ids: Vec<Id> = roots.iter().map(|r| built.class[r]).collect();
    let runner: Runner<IntExpr, ConstFold, ()> = Runner::new(ConstFold { width })
        .with_egraph(built.egraph)
        .with_iter_limit(opts.iter_limit)
        .with_node_limit(opts.node_limit)
        .run(&rules());
    let egraph = &runner.egraph;
    let exprs: Vec<RecExpr<IntExpr>> = match opts.extractor {
        ExtractorKind::Greedy => {
            let ex = Extractor::new(
                egraph,
                TreeCost {
                    model: opts.model,
                    width,
                },
            );
            root_ids.iter().map(|&id| ex.find_best(id).1).collect()
        }
        ExtractorKind::Lp => lp_extract(egraph, &root_ids, opts.model, width)?,
    };
    let new: f64 = exprs.iter().map(|e| cost.cost_rec(e)).sum();
    if new >= old - 1e-9 {
        return Ok(false);
    }
    let run = Run {
        ty,
        flavor,
        make_constant,
        ops,
    };
    materialize(ctx, ir, &run, &roots, &exprs, &built.leaves);
    Ok(true)
}

fn lp_extract(
    egraph: &EGraph<IntExpr, ConstFold>,
    roots: &[Id],
    model: CostModel,
    width: u32,
) -> Result<Vec<RecExpr<IntExpr>>, String> {
    super::ilp::extract(egraph, roots, model, width, 30.0)
}

fn is_constant(node: &IntExpr) -> bool {
    matches!(node, IntExpr::Num(_))
}

/// Emits the extracted expressions after the run (shared subterms once),
/// redirects the roots' uses and erases the run.
/// A run being rewritten: its type, op family and ops.
struct Run<'a> {
    ty: Type,
    flavor: &'a Flavor,
    make_constant: MaterializeFn,
    ops: &'a [OpId],
}

fn materialize(
    ctx: &mut Context,
    ir: &mut Ir,
    run: &Run<'_>,
    roots: &[ValueId],
    exprs: &[RecExpr<IntExpr>],
    leaves: &[ValueId],
) {
    let Run {
        ty,
        flavor,
        make_constant,
        ops,
    } = *run;
    let last = *ops.last().expect("non-empty run");
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    rw.set_insertion_point_after(last);
    let mut memo: FxHashMap<(Option<&'static str>, i128, ValueId, ValueId), ValueId> =
        FxHashMap::default();
    let mut new_roots = Vec::with_capacity(roots.len());
    let last_value = rw.ir.result(last, 0);
    for (expr, &root) in exprs.iter().zip(roots) {
        let loc = rw.ir.op_loc(rw.ir.defining_op(root).expect("run result"));
        let mut values: Vec<ValueId> = Vec::with_capacity(expr.len());
        for (_, node) in expr.items() {
            let v = match node {
                IntExpr::Var(s) => {
                    let i: usize = s.as_str()[1..].parse().expect("leaf index");
                    leaves[i]
                }
                IntExpr::Num(c) => *memo
                    .entry((None, *c, last_value, last_value))
                    .or_insert_with(|| {
                        let w = int_width(rw.ctx, ty).unwrap_or(64);
                        let attr = rw.ctx.int_attr(ty, BigInt::from(wrap(*c, w)));
                        let op = make_constant(&mut rw, attr, ty, loc)
                            .expect("the dialect builds integer constants");
                        rw.ir.result(op, 0)
                    }),
                _ => {
                    let name = flavor.op_name(node).expect("operation node");
                    let ch = node.children();
                    let (mut a, mut b) = (values[usize::from(ch[0])], values[usize::from(ch[1])]);
                    // Constants go on the right of commutative ops, as
                    // MLIR's canonical form has them.
                    let commutative = !matches!(node, IntExpr::Sub(_) | IntExpr::Shl(_));
                    if commutative && is_constant(&expr[ch[0]]) && !is_constant(&expr[ch[1]]) {
                        std::mem::swap(&mut a, &mut b);
                    }
                    let key = (Some(name), 0, a, b);
                    match memo.get(&key) {
                        Some(&v) => v,
                        None => {
                            let op = rw.create_simple(name, &[a, b], &[ty], None, loc);
                            let v = rw.ir.result(op, 0);
                            memo.insert(key, v);
                            v
                        }
                    }
                }
            };
            values.push(v);
        }
        new_roots.push(*values.last().expect("non-empty expression"));
    }
    for (&root, &new) in roots.iter().zip(&new_roots) {
        rw.replace_all_uses(root, new);
    }
    for &op in ops.iter().rev() {
        if rw.ir.results(op).all(|v| !rw.ir.has_uses(v)) {
            rw.erase_op(op);
        }
    }
}

/// Rewrites every run in the blocks nested in `op`; returns how many
/// runs changed.
pub fn run_eqsat(
    ctx: &mut Context,
    ir: &mut Ir,
    op: OpId,
    opts: &EqsatOptions,
) -> Result<usize, String> {
    let mut blocks = Vec::new();
    ir.walk(op, &mut |o| {
        for r in ir.regions(o) {
            blocks.extend(ir.region_blocks(r));
        }
    });
    let mut changed = 0;
    for b in blocks {
        for (ty, flavor, ops) in runs(ctx, ir, b) {
            if rewrite_run(ctx, ir, ty, flavor, &ops, opts)? {
                changed += 1;
            }
        }
    }
    Ok(changed)
}

struct EqsatPass(EqsatOptions);

impl Pass for EqsatPass {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        run_eqsat(ctx, ir, op, &self.0)
            .map(|_| ())
            .map_err(|m| Box::new(Diagnostic::error(ir.op_loc(op), m)))
    }
}

fn create(o: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let model = CostModel::from_name(o.string("cost")).expect("checked enum");
    let extractor = match o.string("extractor") {
        "lp" => ExtractorKind::Lp,
        _ => ExtractorKind::Greedy,
    };
    Ok(Box::new(EqsatPass(EqsatOptions {
        model,
        extractor,
        iter_limit: o.int("iter-limit").max(0) as usize,
        node_limit: o.int("node-limit").max(0) as usize,
    })))
}

/// The `eqsat` pass.
pub static EQSAT: PassInfo = PassInfo {
    argument: "eqsat",
    name: "EqualitySaturation",
    description: "Rewrite integer arith dataflow by equality saturation (egg) and cost-based extraction",
    anchor: None,
    options: &[
        PassOptionInfo {
            name: "cost",
            description: "Cost model: ops (operation count), latency (critical path), area (per-bit area table)",
            kind: OptionKind::Enum(&["ops", "latency", "area"]),
            default: "ops",
        },
        PassOptionInfo {
            name: "extractor",
            description: "greedy (egg's bottom-up extractor, tree costs) or lp (ILP on egg's formulation, DAG costs)",
            kind: OptionKind::Enum(&["greedy", "lp"]),
            default: "greedy",
        },
        PassOptionInfo {
            name: "iter-limit",
            description: "Saturation iterations at most",
            kind: OptionKind::UInt,
            default: "12",
        },
        PassOptionInfo {
            name: "node-limit",
            description: "E-graph nodes at most",
            kind: OptionKind::UInt,
            default: "20000",
        },
    ],
    create,
};

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Evaluates `expr` with leaf `vK` bound to `env[K]` at `width` bits.
    fn eval(expr: &RecExpr<IntExpr>, env: &[i128], width: u32) -> Option<i128> {
        let mut vals: Vec<i128> = Vec::with_capacity(expr.len());
        for (_, node) in expr.items() {
            let c = |i: Id| vals[usize::from(i)];
            let v = match node {
                IntExpr::Num(n) => *n,
                IntExpr::Var(s) => env[s.as_str()[1..].parse::<usize>().ok()?],
                IntExpr::Add([a, b]) => c(*a) + c(*b),
                IntExpr::Sub([a, b]) => c(*a) - c(*b),
                IntExpr::Mul([a, b]) => c(*a).wrapping_mul(c(*b)),
                IntExpr::And([a, b]) => c(*a) & c(*b),
                IntExpr::Or([a, b]) => c(*a) | c(*b),
                IntExpr::Xor([a, b]) => c(*a) ^ c(*b),
                IntExpr::Shl([a, b]) => {
                    let s = c(*b) & ((1i128 << width) - 1);
                    if s >= i128::from(width) {
                        return None;
                    }
                    c(*a) << s
                }
            };
            vals.push(wrap(v, width));
        }
        vals.last().copied()
    }

    fn arb_expr() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            (0..3usize).prop_map(|i| format!("v{i}")),
            (-9i128..9).prop_map(|n| n.to_string()),
            Just("8".to_string()),
        ];
        leaf.prop_recursive(4, 24, 2, |inner| {
            (
                prop::sample::select(vec!["+", "-", "*", "&", "|", "^"]),
                inner.clone(),
                inner,
            )
                .prop_map(|(op, a, b)| format!("({op} {a} {b})"))
        })
    }

    proptest! {
        /// Saturation and extraction never change what an expression
        /// computes, under every cost model.
        #[test]
        fn rewrites_preserve_values(
            text in arb_expr(),
            env in prop::collection::vec(any::<i64>(), 3),
            width in prop::sample::select(vec![1u32, 8, 13, 32, 64]),
        ) {
            let expr: RecExpr<IntExpr> = text.parse().unwrap();
            let env: Vec<i128> = env.iter().map(|&v| wrap(i128::from(v), width)).collect();
            let expr: RecExpr<IntExpr> = expr
                .items()
                .map(|(_, n)| match n {
                    IntExpr::Num(c) => IntExpr::Num(wrap(*c, width)),
                    other => other.clone(),
                })
                .collect::<Vec<_>>()
                .into();
            let Some(expected) = eval(&expr, &env, width) else { return Ok(()); };
            let runner: Runner<IntExpr, ConstFold, ()> = Runner::new(ConstFold { width })
                .with_expr(&expr)
                .with_iter_limit(6)
                .with_node_limit(5_000)
                .run(&rules());
            for model in [CostModel::Ops, CostModel::Latency, CostModel::Area] {
                let ex = Extractor::new(&runner.egraph, TreeCost { model, width });
                let (_, best) = ex.find_best(runner.roots[0]);
                prop_assert_eq!(eval(&best, &env, width), Some(expected), "{} -> {}", text, best);
            }
        }
    }
}
