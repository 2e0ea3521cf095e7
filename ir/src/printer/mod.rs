//! The printer: writes an operation tree in MLIR's textual form, byte for
//! byte as `mlir-opt` does (alias definitions, SSA and block names,
//! predecessor comments, generic and custom op forms, locations).

mod aliases;
mod asm;
mod decimal;
mod names;
mod types_attrs;
mod walk;

pub use asm::AsmPrinter;
pub use types_attrs::{
    escape_into, is_bare_identifier, keyword_or_string, quoted_into, ParamPrinter,
};
pub use walk::PrintFlags;

use crate::context::{Attr, Context, Symbol, Type};
use crate::graph::{BlockId, Ir, OpId, RegionId};
use crate::resources::Resources;
use aliases::AliasTable;
use names::Names;
use std::cell::RefCell;
use std::io::Write;
use types_attrs::AttrPrinter;

const INDENT: usize = 2;

/// Below this many operations a module is printed on one thread.
const PARALLEL_MIN_OPS: usize = 20_000;

struct OpPrinter<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    names: &'a Names,
    /// Whether the next block's operations may be split across threads
    /// (only at the top, and never with distinct attributes, which are
    /// renumbered in print order).
    parallel: bool,
    attrs: AttrPrinter<'a>,
    flags: PrintFlags,
    out: String,
    /// Where `out` is drained once it holds [`FLUSH_BYTES`] (between
    /// top-level ops), so that big modules are never held as text whole.
    sink: Option<&'a mut dyn Write>,
    /// The first error writing to `sink`.
    sink_error: Option<std::io::Error>,
    indent: usize,
    /// The dialect whose prefix custom op names may omit here.
    default_dialect: &'static str,
    /// Whether the blocks of the region being printed leave out their
    /// terminators (ops such as `scf.for` without results).
    omit_terminators: bool,
    /// Reused for the operand and result types of each generic op.
    type_scratch: Vec<Type>,
}

/// How much text the printer buffers before writing to its sink.
const FLUSH_BYTES: usize = 1 << 20;

/// Prints a whole module (with aliases and resources) followed by an empty
/// line, as mlir-opt does.
pub fn print_module(
    ctx: &Context,
    ir: &Ir,
    top: OpId,
    resources: &Resources,
    flags: PrintFlags,
) -> String {
    let mut bytes = Vec::new();
    print_module_to(ctx, ir, top, resources, flags, &mut bytes)
        .expect("writing to memory cannot fail");
    String::from_utf8(bytes).expect("the printer writes UTF-8")
}

/// [`print_module`] without resources, in the default form: the text a
/// tool writes of a module it built.
pub fn module_text(ctx: &Context, ir: &Ir, top: OpId) -> String {
    print_module(ctx, ir, top, &Resources::default(), PrintFlags::default())
}

/// Prints as [`print_module`] does, writing to `sink` as it goes.
pub fn print_module_to(
    ctx: &Context,
    ir: &Ir,
    top: OpId,
    resources: &Resources,
    flags: PrintFlags,
    sink: &mut dyn Write,
) -> std::io::Result<()> {
    let hints = (!flags.generic).then_some(ctx);
    let number = || Names::new(hints, ir, top, flags.generic, !flags.skip_regions);
    // Aliases and names are chosen independently: for large IR, on two
    // threads.
    let (table, names) = if ir.op_capacity() >= PARALLEL_MIN_OPS {
        std::thread::scope(|scope| {
            let names = scope.spawn(number);
            let table = aliases::collect(ctx, ir, top, &flags);
            match names.join() {
                Ok(names) => (table, names),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        })
    } else {
        (aliases::collect(ctx, ir, top, &flags), number())
    };
    let distinct = RefCell::new(rustc_hash::FxHashMap::default());
    let mut p = OpPrinter {
        ctx,
        ir,
        names: &names,
        parallel: !ctx.has_distinct() && ir.op_capacity() >= PARALLEL_MIN_OPS,
        attrs: AttrPrinter {
            ctx,
            aliases: Some(&table),
            distinct: &distinct,
        },
        flags,
        out: String::with_capacity(1 << 16),
        sink: Some(sink),
        sink_error: None,
        indent: 0,
        default_dialect: "builtin",
        omit_terminators: false,
        type_scratch: Vec::new(),
    };
    p.alias_definitions(&table, false);
    p.op(top);
    p.out.push('\n');
    p.alias_definitions(&table, true);
    resources.print_into(ctx, &mut p.out);
    p.out.push('\n');
    p.flush();
    match p.sink_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Prints one operation in generic form, as MLIR's "see current
/// operation" notes do: values are numbered within the closest op at or
/// above `op` that is isolated from above, or else within `top`.
pub fn op_to_string_generic(
    ctx: &Context,
    ir: &Ir,
    top: OpId,
    op: OpId,
    debug_info: bool,
) -> String {
    let distinct = RefCell::new(rustc_hash::FxHashMap::default());
    let mut scope = op;
    while scope != top
        && !ctx
            .op_def(ir.op_name(scope))
            .is_some_and(|d| d.traits.has(crate::dialect::Traits::ISOLATED_FROM_ABOVE))
    {
        match ir.parent_op(scope) {
            Some(parent) => scope = parent,
            None => break,
        }
    }
    let names = Names::new(None, ir, scope, true, true);
    let mut p = OpPrinter {
        ctx,
        ir,
        names: &names,
        parallel: false,
        attrs: AttrPrinter {
            ctx,
            aliases: None,
            distinct: &distinct,
        },
        flags: PrintFlags {
            generic: true,
            debug_info,
            skip_regions: false,
        },
        out: String::new(),
        sink: None,
        sink_error: None,
        indent: 0,
        default_dialect: "builtin",
        omit_terminators: false,
        type_scratch: Vec::new(),
    };
    p.op(op);
    p.out
}

/// A type's text.
pub fn type_to_string(ctx: &Context, t: Type) -> String {
    let distinct = RefCell::new(rustc_hash::FxHashMap::default());
    let p = AttrPrinter {
        ctx,
        aliases: None,
        distinct: &distinct,
    };
    let mut s = String::new();
    p.print_type(&mut s, t);
    s
}

/// An attribute's text.
pub fn attr_to_string(ctx: &Context, a: Attr) -> String {
    let distinct = RefCell::new(rustc_hash::FxHashMap::default());
    let p = AttrPrinter {
        ctx,
        aliases: None,
        distinct: &distinct,
    };
    let mut s = String::new();
    p.print_attr(&mut s, a, false);
    s
}

/// Appends `loc(...)` for a location, without aliases.
pub fn print_location_inline(ctx: &Context, loc: Attr, out: &mut String) {
    let distinct = RefCell::new(rustc_hash::FxHashMap::default());
    let p = AttrPrinter {
        ctx,
        aliases: None,
        distinct: &distinct,
    };
    out.push_str("loc(");
    p.location_body(out, loc, true);
    out.push(')');
}

impl OpPrinter<'_> {
    fn alias_definitions(&mut self, table: &AliasTable, deferred: bool) {
        for (is_type, id, name) in table.definitions(deferred) {
            self.out.push_str(name);
            self.out.push_str(" = ");
            if is_type {
                self.attrs.print_type_body(&mut self.out, Type(id));
            } else {
                self.attrs.print_attr_body(&mut self.out, Attr(id), false);
            }
            self.out.push('\n');
        }
    }

    fn newline(&mut self) {
        self.out.push('\n');
    }

    fn pad(&mut self) {
        for _ in 0..self.indent {
            self.out.push(' ');
        }
    }

    fn op(&mut self, op: OpId) {
        let n = self.ir.num_results(op);
        if n > 0 && self.names.results_named_apart(self.ir, op) {
            let mut first = true;
            for r in self.ir.results(op) {
                let Some(size) = self.names.group_head_size(r) else {
                    continue;
                };
                if !std::mem::take(&mut first) {
                    self.out.push_str(", ");
                }
                self.names.group_into(&mut self.out, r);
                if size > 1 {
                    self.out.push(':');
                    self.out.push_str(&size.to_string());
                }
            }
            self.out.push_str(" = ");
        } else if n > 0 {
            self.names.group_into(&mut self.out, self.ir.result(op, 0));
            if n > 1 {
                self.out.push(':');
                self.out.push_str(&n.to_string());
            }
            self.out.push_str(" = ");
        }
        let custom = if self.flags.generic {
            None
        } else {
            self.ctx
                .op_def(self.ir.op_name(op))
                .and_then(|d| Some((d.name, d.print?)))
        };
        match custom {
            Some((name, print)) => {
                self.custom_op_name(name);
                print(&mut AsmPrinter::text(self), op);
            }
            None => self.generic(op),
        }
        self.trailing_loc(op);
    }

    fn trailing_loc(&mut self, op: OpId) {
        if !self.flags.debug_info {
            return;
        }
        self.out.push_str(" loc(");
        let loc = self.ir.op_loc(op);
        match self.attrs.aliases.and_then(|t| t.attr_alias(loc)) {
            Some(name) => self.out.push_str(name),
            None => self.attrs.location_body(&mut self.out, loc, true),
        }
        self.out.push(')');
    }

    fn generic(&mut self, op: OpId) {
        let (ctx, ir) = (self.ctx, self.ir);
        quoted_into(&mut self.out, ctx.str(ir.op_name(op)).as_bytes());
        self.out.push('(');
        for (i, v) in ir.operands(op).enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.names.value_into(&mut self.out, ir, v);
        }
        self.out.push(')');
        let succs = ir.successors(op);
        if !succs.is_empty() {
            self.out.push('[');
            for (i, b) in succs.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.names.block_into(&mut self.out, *b);
            }
            self.out.push(']');
        }
        if let Some(p) = ir.op_props(op) {
            self.out.push_str(" <");
            // An unregistered op's properties take no part in choosing
            // aliases (see `walk.rs`), but use those chosen for the rest.
            self.attrs.print_attr(&mut self.out, p, false);
            self.out.push('>');
        }
        if ir.num_regions(op) > 0 {
            self.out.push_str(" (");
            let regions: Vec<RegionId> = ir.regions(op).collect();
            for (i, r) in regions.into_iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.region(r, true, true);
            }
            self.out.push(')');
        }
        self.attr_dict(ir.op_attrs(op), &[], false);
        self.out.push_str(" : ");
        let mut types = std::mem::take(&mut self.type_scratch);
        types.clear();
        types.extend(ir.operands(op).map(|v| ir.value_type(v)));
        let num_inputs = types.len();
        types.extend(ir.results(op).map(|v| ir.value_type(v)));
        let (ins, outs) = types.split_at(num_inputs);
        self.attrs.print_function_type(&mut self.out, ins, outs);
        self.type_scratch = types;
    }

    /// Appends ` {a = 1, b}` (or ` attributes {...}`), skipping `elided`.
    fn attr_dict(&mut self, dict: Attr, elided: &[&str], keyword: bool) {
        let all = self.ctx.dict_entries(dict);
        let entries: std::borrow::Cow<[(Symbol, Attr)]> = if elided.is_empty() {
            all.into()
        } else {
            all.iter()
                .filter(|(k, _)| !elided.contains(&self.ctx.str(*k)))
                .copied()
                .collect()
        };
        if entries.is_empty() {
            return;
        }
        self.out
            .push_str(if keyword { " attributes {" } else { " {" });
        self.attrs.dict_entries(&mut self.out, &entries);
        self.out.push('}');
    }

    /// A custom op's name, without the prefix of the default dialect.
    fn custom_op_name(&mut self, name: &str) {
        let short = name
            .strip_prefix(self.default_dialect)
            .and_then(|r| r.strip_prefix('.'))
            .filter(|r| !self.default_dialect.is_empty() && !r.contains('.'));
        self.out.push_str(short.unwrap_or(name));
    }

    pub(crate) fn region(&mut self, r: RegionId, entry_args: bool, empty_block: bool) {
        self.region_ext(r, entry_args, empty_block, true);
    }

    /// A region, leaving out its blocks' terminators unless `terminators`.
    pub(crate) fn region_ext(
        &mut self,
        r: RegionId,
        entry_args: bool,
        empty_block: bool,
        terminators: bool,
    ) {
        let saved_omit = std::mem::replace(&mut self.omit_terminators, !terminators);
        self.region_inner(r, entry_args, empty_block);
        self.omit_terminators = saved_omit;
    }

    fn region_inner(&mut self, r: RegionId, entry_args: bool, empty_block: bool) {
        if self.flags.skip_regions {
            self.out.push_str("{...}");
            return;
        }
        let owner = self.ir.region_op(r).map(|o| self.ir.op_name(o));
        let saved = self.default_dialect;
        self.default_dialect = match owner.and_then(|o| self.ctx.op_def(o)) {
            Some(d) if d.print.is_some() && !self.flags.generic => d.default_dialect,
            _ => "",
        };
        self.region_body(r, entry_args, empty_block);
        self.default_dialect = saved;
    }

    fn region_body(&mut self, r: RegionId, entry_args: bool, empty_block: bool) {
        self.out.push('{');
        self.newline();
        let blocks: Vec<BlockId> = self.ir.region_blocks(r).collect();
        if let Some(&entry) = blocks.first() {
            let force_header = (empty_block && self.ir.first_op(entry).is_none())
                || (entry_args && !self.ir.block_args(entry).is_empty());
            let preds = predecessors(self.ir, &blocks);
            self.block(entry, force_header, &preds);
            for &b in &blocks[1..] {
                self.block(b, true, &preds);
            }
        }
        self.pad();
        self.out.push('}');
    }

    fn block(
        &mut self,
        b: BlockId,
        header: bool,
        preds: &rustc_hash::FxHashMap<BlockId, Vec<BlockId>>,
    ) {
        let ir = self.ir;
        if header {
            self.pad();
            self.names.block_into(&mut self.out, b);
            let args = ir.block_args(b);
            if !args.is_empty() {
                self.out.push('(');
                for (i, &a) in args.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.names.value_into(&mut self.out, ir, a);
                    self.out.push_str(": ");
                    self.attrs.print_type(&mut self.out, ir.value_type(a));
                    if self.flags.debug_info {
                        if let Some(l) = ir.value_loc(a) {
                            self.out.push_str(" loc(");
                            self.attrs.location_body(&mut self.out, l, true);
                            self.out.push(')');
                        }
                    }
                }
                self.out.push(')');
            }
            self.out.push(':');
            let is_entry = ir
                .block_region(b)
                .and_then(|r| ir.entry_block(r))
                .is_some_and(|e| e == b);
            match preds.get(&b).map(|v| v.as_slice()) {
                None | Some([]) => {
                    if !is_entry {
                        self.out.push_str("  // no predecessors");
                    }
                }
                Some([p]) => {
                    self.out.push_str("  // pred: ");
                    self.names.block_into(&mut self.out, *p);
                }
                Some(ps) => {
                    let mut ps = ps.to_vec();
                    ps.sort_by_key(|p| self.names.block_index(*p));
                    self.out.push_str(&format!("  // {} preds: ", ps.len()));
                    for (i, p) in ps.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        self.names.block_into(&mut self.out, *p);
                    }
                }
            }
            self.newline();
        }
        self.indent += INDENT;
        let mut ops: Vec<OpId> = ir.block_ops(b).collect();
        let omit = std::mem::take(&mut self.omit_terminators);
        if omit {
            ops.pop();
        }
        if std::mem::take(&mut self.parallel) && ops.len() > 1 {
            self.ops_on_two_threads(&ops);
        } else {
            self.ops(&ops);
        }
        self.omit_terminators = omit;
        self.indent -= INDENT;
    }

    fn ops(&mut self, ops: &[OpId]) {
        for &op in ops {
            self.pad();
            self.op(op);
            self.newline();
            if self.out.len() >= FLUSH_BYTES {
                self.flush();
            }
        }
    }

    /// Writes the buffered text to the sink, if there is one.
    fn flush(&mut self) {
        let Some(sink) = self.sink.as_mut() else {
            return;
        };
        if self.sink_error.is_none() {
            if let Err(e) = sink.write_all(self.out.as_bytes()) {
                self.sink_error = Some(e);
            }
        }
        self.out.clear();
    }

    /// Prints `ops` as [`OpPrinter::ops`] does, the second half (by number
    /// of nested operations) on another thread.
    fn ops_on_two_threads(&mut self, ops: &[OpId]) {
        let weights: Vec<usize> = ops.iter().map(|&op| nested_op_count(self.ir, op)).collect();
        let half = weights.iter().sum::<usize>() / 2;
        let mut split = 0;
        let mut acc = 0;
        while split + 1 < ops.len() && acc + weights[split] <= half {
            acc += weights[split];
            split += 1;
        }
        let split = split.max(1);
        let (first, second) = ops.split_at(split);
        let (ctx, ir, names, aliases) = (self.ctx, self.ir, self.names, self.attrs.aliases);
        let (flags, indent, default_dialect) = (self.flags, self.indent, self.default_dialect);
        let print_second = move || {
            let distinct = RefCell::new(rustc_hash::FxHashMap::default());
            // Text in pieces of about `FLUSH_BYTES`: one growing buffer
            // would copy itself over and over.
            let mut pieces = Pieces::default();
            let mut p = OpPrinter {
                ctx,
                ir,
                names,
                parallel: false,
                attrs: AttrPrinter {
                    ctx,
                    aliases,
                    distinct: &distinct,
                },
                flags,
                out: String::new(),
                sink: Some(&mut pieces),
                sink_error: None,
                indent,
                default_dialect,
                omit_terminators: false,
                type_scratch: Vec::new(),
            };
            p.ops(second);
            p.flush();
            pieces.0
        };
        let second_text = std::thread::scope(|s| {
            let other = s.spawn(print_second);
            self.ops(first);
            other.join()
        });
        let pieces = match second_text {
            Ok(pieces) => pieces,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        self.flush();
        for piece in pieces {
            match self.sink.as_mut() {
                Some(sink) if self.sink_error.is_none() => {
                    if let Err(e) = sink.write_all(&piece) {
                        self.sink_error = Some(e);
                    }
                }
                Some(_) => {}
                // The pieces are whole printed ops: valid UTF-8.
                None => self.out.push_str(&String::from_utf8_lossy(&piece)),
            }
        }
    }
}

/// Printed text collected piece by piece (the sink of a printer thread).
#[derive(Default)]
struct Pieces(Vec<Vec<u8>>);

impl Write for Pieces {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.push(buf.to_vec());
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The number of operations in `op`'s tree, `op` included.
fn nested_op_count(ir: &Ir, op: OpId) -> usize {
    let mut n = 0;
    ir.walk(op, &mut |_| n += 1);
    n
}

/// Predecessor lists (one entry per successor edge) of the blocks of one
/// region.
fn predecessors(ir: &Ir, blocks: &[BlockId]) -> rustc_hash::FxHashMap<BlockId, Vec<BlockId>> {
    let mut preds: rustc_hash::FxHashMap<BlockId, Vec<BlockId>> = rustc_hash::FxHashMap::default();
    for &b in blocks {
        for op in ir.block_ops(b) {
            for &s in ir.successors(op) {
                preds.entry(s).or_default().push(b);
            }
        }
    }
    preds
}
