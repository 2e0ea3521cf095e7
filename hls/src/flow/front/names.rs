//! What directives can name in the top function: its loops (`affine.for`
//! and `scf.for`), each by its path as the report prints it (labels where
//! a loop has an `hls.label`, positions elsewhere: `gemm/i/k/j`), by its
//! path of positions alone (`gemm/0/1/0`) and by its label; and its
//! arrays, memref arguments by `hls.name` (else `arg<i>`) and
//! `memref.alloc`/`alloca` by `hls.name` (else, for the on-chip buffers
//! of DMA copies, the name [`crate::flow::front::buffer_names`] gives them, else
//! `mem<i>`, as the front end numbers memories).

use crate::flow::front::{arg_name, buffer_names, is_copy_loop, op_name_attr, string_of};
use rustc_hash::FxHashMap;
use silica_ir::dialect::inherent_attr;
use silica_ir::{Context, Ir, OpId, TypeKind};

/// A loop of the top function.
#[derive(Clone, Debug)]
pub struct LoopName {
    pub op: OpId,
    /// The path the report prints.
    pub path: String,
    /// The path of positions.
    pub positions: String,
    pub label: Option<String>,
    /// The loops directly inside it.
    pub children: Vec<OpId>,
}

/// An array of the top function.
#[derive(Clone, Debug)]
pub struct ArrayName {
    pub name: String,
    /// The argument position (memref arguments).
    pub arg: Option<usize>,
    /// The allocation (on-chip arrays).
    pub alloc: Option<OpId>,
}

/// The loops (pre-order) and arrays of `func`, named `top`.
pub fn collect(ctx: &Context, ir: &Ir, func: OpId, top: &str) -> (Vec<LoopName>, Vec<ArrayName>) {
    let mut loops = Vec::new();
    let mut arrays = Vec::new();
    let Some(block) = ir.regions(func).next().and_then(|r| ir.entry_block(r)) else {
        return (loops, arrays);
    };
    for (i, &v) in ir.block_args(block).iter().enumerate() {
        if matches!(ctx.type_kind(ir.value_type(v)), TypeKind::MemRef { .. }) {
            let name = arg_name(ctx, ir, func, i)
                .unwrap_or_else(|| crate::model::interface::names::arg(i));
            arrays.push(ArrayName {
                name,
                arg: Some(i),
                alloc: None,
            });
        }
    }
    let mut w = Walk {
        ctx,
        ir,
        buffers: buffer_names(ctx, ir, func),
        loops: &mut loops,
        arrays: &mut arrays,
    };
    w.walk(block, top, top);
    (loops, arrays)
}

struct Walk<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    buffers: FxHashMap<OpId, String>,
    loops: &'a mut Vec<LoopName>,
    arrays: &'a mut Vec<ArrayName>,
}

impl Walk<'_> {
    fn walk(&mut self, block: silica_ir::BlockId, path: &str, positions: &str) -> Vec<OpId> {
        let (ctx, ir) = (self.ctx, self.ir);
        let mut position = 0;
        let mut children = Vec::new();
        for op in ir.block_ops(block) {
            match ctx.str(ir.op_name(op)) {
                "affine.for" | "scf.for" => {
                    let label = string_of(ctx, inherent_attr(ctx, ir, op, "hls.label"));
                    let me = format!("{path}/{}", label.clone().unwrap_or(position.to_string()));
                    // A copy loop (`buffer.rs`) takes no position.
                    let copy = is_copy_loop(ctx, ir, op);
                    let pos = match (&label, copy) {
                        (Some(l), true) => format!("{positions}/{l}"),
                        _ => format!("{positions}/{position}"),
                    };
                    position += usize::from(!copy);
                    let index = self.loops.len();
                    self.loops.push(LoopName {
                        op,
                        path: me.clone(),
                        positions: pos.clone(),
                        label,
                        children: Vec::new(),
                    });
                    children.push(op);
                    if let Some(body) = ir.regions(op).next().and_then(|r| ir.entry_block(r)) {
                        let inner = self.walk(body, &me, &pos);
                        self.loops[index].children = inner;
                    }
                }
                "memref.alloc" | "memref.alloca" => {
                    let m = self.arrays.len();
                    let name = op_name_attr(ctx, ir, op)
                        .or_else(|| self.buffers.get(&op).cloned())
                        .unwrap_or_else(|| format!("mem{m}"));
                    self.arrays.push(ArrayName {
                        name,
                        arg: None,
                        alloc: Some(op),
                    });
                }
                _ => {}
            }
        }
        children
    }
}

/// The loops a name given in a directive denotes: the loop whose printed
/// or positional path it is, else every loop labelled so.
pub fn find_loops<'a>(loops: &'a [LoopName], name: &str) -> Vec<&'a LoopName> {
    let by_path: Vec<&LoopName> = loops
        .iter()
        .filter(|l| l.path == name || l.positions == name)
        .collect();
    if !by_path.is_empty() {
        return by_path;
    }
    loops
        .iter()
        .filter(|l| l.label.as_deref() == Some(name))
        .collect()
}
