//! Conversions into the llvm dialect, as MLIR's `convert-*-to-llvm`
//! passes: one type converter (index is an integer of the passes'
//! `index-bitwidth`, 64 by default; memrefs are descriptor structs
//! `{allocated, aligned, offset, sizes[r], strides[r]}`), the patterns of
//! each source dialect (`arith.rs`, `cf.rs`, `func.rs`, `math.rs`,
//! `index.rs`, and `memref/` with its copies, assumptions, alloca scopes,
//! atomics and reshapes in files of their own), and the passes that run
//! them ([`passes`]) or prepare a module for them ([`module_attrs`]).
//! [`Llvm`] builds llvm ops with their default properties.

mod arith;
mod cf;
pub mod func;
mod index;
mod math;
mod memref;
pub mod module_attrs;
pub mod passes;
mod ub;

use crate::dialect::types;
use silica_ir::conversion::ConversionRewriter;
use silica_ir::dialect::inherent_attr;
use silica_ir::rewrite::Rewriter;
use silica_ir::{Attr, AttrKind, Context, OpId, OpSpec, Symbol, Type, TypeKind, ValueId};

/// The LLVM type of a builtin type (MLIR's `LLVMTypeConverter`), with
/// `index` as an integer of `index_bits` bits.
pub fn convert_type(ctx: &mut Context, t: Type, index_bits: u32) -> Option<Type> {
    match ctx.type_kind(t).clone() {
        TypeKind::Index => Some(ctx.signless(index_bits)),
        TypeKind::Integer { signedness, width } => {
            (signedness == silica_ir::Signedness::Signless).then(|| ctx.signless(width))
        }
        TypeKind::Float(k) => crate::dialect::types::float_name(k).map(|_| t),
        TypeKind::Vector {
            shape,
            scalable,
            element,
        } if shape.len() == 1 => {
            let element = match ctx.type_kind(element) {
                TypeKind::Index | TypeKind::Integer { .. } | TypeKind::Float(_) => {
                    convert_type(ctx, element, index_bits)?
                }
                _ => return None,
            };
            Some(ctx.intern_type(TypeKind::Vector {
                shape,
                scalable,
                element,
            }))
        }
        TypeKind::MemRef {
            shape,
            element,
            memory_space,
            ..
        } => {
            convert_type(ctx, element, index_bits)?;
            silica_dialects::memref::layout::strides_and_offset(ctx, t)?;
            let space = address_space(ctx, memory_space)?;
            let index = ctx.signless(index_bits);
            Some(memref::descriptor_type(ctx, shape.len(), space, index))
        }
        TypeKind::UnrankedMemRef {
            element,
            memory_space,
        } => {
            convert_type(ctx, element, index_bits)?;
            let space = address_space(ctx, memory_space)?;
            let index = ctx.signless(index_bits);
            let ptr = types::ptr(ctx, space);
            Some(types::literal_struct(ctx, &[index, ptr], false))
        }
        TypeKind::Function { .. } => Some(types::ptr(ctx, 0)),
        TypeKind::Dialect { .. } if types::llvm_type(ctx, t).is_some() => Some(t),
        _ => None,
    }
}

/// The address space of a memref memory space attribute: none, or a
/// signless integer.
pub(crate) fn memory_space_of(ctx: &Context, space: Option<Attr>) -> Option<u32> {
    match space.map(|a| ctx.attr_kind(a)) {
        None => Some(0),
        Some(AttrKind::Integer { value, ty })
            if matches!(
                ctx.type_kind(*ty),
                TypeKind::Integer {
                    signedness: silica_ir::Signedness::Signless,
                    ..
                }
            ) =>
        {
            u32::try_from(value).ok()
        }
        Some(_) => None,
    }
}

/// [`memory_space_of`] while converting a type: a space that is not an
/// address space is reported (once per space, without failing the
/// conversion, as MLIR's type converter reports it).
fn address_space(ctx: &mut Context, space: Option<Attr>) -> Option<u32> {
    let found = memory_space_of(ctx, space);
    if let (None, Some(a)) = (found, space) {
        let msg = format!(
            "conversion of memref memory space {} to integer address space failed. Consider adding memory space conversions.",
            silica_ir::printer::attr_to_string(ctx, a)
        );
        let loc = ctx.unknown_loc();
        ctx.emit_once(silica_ir::Diagnostic::error(loc, msg));
    }
    found
}

/// The type converter of every conversion to llvm, with `index` as an
/// integer of `index_bits` bits (the passes' `index-bitwidth`).
pub fn type_converter(index_bits: u32) -> silica_ir::conversion::TypeConverter {
    let mut tc = silica_ir::conversion::TypeConverter::new();
    tc.add(move |ctx, t| convert_type(ctx, t, index_bits));
    tc
}

/// The integer type `index` converts to in a conversion.
pub fn index_type(cr: &mut ConversionRewriter<'_, '_>) -> Type {
    let index = cr.rw.ctx.index_type();
    cr.convert_type(index)
        .unwrap_or_else(|| cr.rw.ctx.signless(64))
}

/// Creates llvm ops at a rewriter's insertion point with one location.
pub struct Llvm<'r, 'a> {
    pub rw: &'r mut Rewriter<'a>,
    pub loc: Attr,
    /// The integer type of `index` values.
    pub index: Type,
}

/// Replaces `op` by `value` resized to the integer type `to`: `zext`
/// (`unsigned`) or `sext` to widen, `trunc` to narrow, nothing when the
/// widths agree. False when either type has no integer width.
pub(crate) fn replace_with_resized_int(
    cr: &mut silica_ir::conversion::ConversionRewriter<'_, '_>,
    op: OpId,
    value: ValueId,
    to: Type,
    unsigned: bool,
) -> bool {
    let from = cr.rw.ctx.int_width(cr.rw.ir.value_type(value));
    let (Some(from), Some(width)) = (from, cr.rw.ctx.int_width(to)) else {
        return false;
    };
    let loc = cr.rw.ir.op_loc(op);
    let v = if from == width {
        value
    } else {
        let name = match (from < width, unsigned) {
            (true, true) => "llvm.zext",
            (true, false) => "llvm.sext",
            (false, _) => "llvm.trunc",
        };
        Llvm::new(cr, loc).value(name, &[value], to, &[])
    };
    cr.replace_op(op, &[v]);
    true
}

/// What an `llvm.call` calls.
#[derive(Clone, Copy)]
pub enum Callee<'n> {
    Symbol(&'n str),
    Pointer(ValueId),
}

/// A GEP index: a value or a constant.
#[derive(Clone, Copy)]
pub enum GepIndex {
    Value(ValueId),
    Const(i32),
}

impl<'r, 'a> Llvm<'r, 'a> {
    /// A builder on a rewriter, `index` the integer type of `index`.
    pub fn on(rw: &'r mut Rewriter<'a>, loc: Attr, index: Type) -> Self {
        Self { rw, loc, index }
    }

    /// A builder on a conversion's rewriter.
    pub fn new(cr: &'r mut ConversionRewriter<'_, 'a>, loc: Attr) -> Self {
        let index = index_type(cr);
        Self {
            rw: &mut cr.rw,
            loc,
            index,
        }
    }

    pub fn ctx(&mut self) -> &mut Context {
        self.rw.ctx
    }

    /// Creates `name` with `props` plus the defaults its signature
    /// declares (as the parser materialises them).
    pub fn op(
        &mut self,
        name: &str,
        operands: &[ValueId],
        results: &[Type],
        props: &[(&str, Attr)],
    ) -> OpId {
        self.op_with_successors(name, operands, results, &[], props)
    }

    /// A branch op (`llvm.br`, `llvm.cond_br`) to `successors`.
    pub fn branch(
        &mut self,
        name: &str,
        operands: &[ValueId],
        successors: &[silica_ir::BlockId],
        props: &[(&str, Attr)],
    ) -> OpId {
        self.op_with_successors(name, operands, &[], successors, props)
    }

    /// A stack slot of `count` values of `value`'s type, holding `value`.
    pub fn store_on_stack(&mut self, value: ValueId, count: ValueId) -> ValueId {
        let ty = self.rw.ir.value_type(value);
        let ptr = types::ptr(self.rw.ctx, 0);
        let e = self.rw.ctx.intern_attr(AttrKind::Type(ty));
        let slot = self.value("llvm.alloca", &[count], ptr, &[("elem_type", e)]);
        self.op("llvm.store", &[value, slot], &[], &[]);
        slot
    }

    fn op_with_successors(
        &mut self,
        name: &str,
        operands: &[ValueId],
        results: &[Type],
        successors: &[silica_ir::BlockId],
        props: &[(&str, Attr)],
    ) -> OpId {
        let ctx = &mut *self.rw.ctx;
        let mut entries: Vec<(Symbol, Attr)> = Vec::new();
        for (k, v) in props {
            let k = ctx.sym(k);
            entries.push((k, *v));
        }
        if let Some(sig) = ctx.op_def_by_name(name).and_then(|d| d.signature) {
            for a in sig.attrs {
                if let (Some(d), false) = (a.default, a.optional) {
                    if !props.iter().any(|(k, _)| *k == a.name) {
                        let k = ctx.sym(a.name);
                        entries.push((k, (d.make)(ctx)));
                    }
                }
            }
        }
        let props = (!entries.is_empty()).then(|| ctx.dict_attr(entries));
        let name = ctx.sym(name);
        let attrs = ctx.empty_dict();
        self.rw.create(OpSpec {
            name,
            loc: self.loc,
            operands,
            result_types: results,
            successors,
            regions: &[],
            attrs,
            props,
        })
    }

    /// The single result of a new op.
    pub fn value(
        &mut self,
        name: &str,
        operands: &[ValueId],
        result: Type,
        props: &[(&str, Attr)],
    ) -> ValueId {
        let op = self.op(name, operands, &[result], props);
        self.rw.ir.result(op, 0)
    }

    /// `llvm.mlir.constant(value) : ty`
    pub fn constant(&mut self, value: Attr, ty: Type) -> ValueId {
        self.value("llvm.mlir.constant", &[], ty, &[("value", value)])
    }

    /// `llvm.mlir.constant(v : index) : iN`, `iN` the index type.
    pub fn index_const(&mut self, v: i64) -> ValueId {
        let ctx = self.ctx();
        let index = ctx.index_type();
        let a = ctx.int_attr(index, v);
        self.constant(a, self.index)
    }

    /// The LLVM type of `t` in this conversion.
    pub fn convert(&mut self, t: Type) -> Option<Type> {
        let bits = self.rw.ctx.int_width(self.index).unwrap_or(64);
        convert_type(self.rw.ctx, t, bits)
    }

    /// `llvm.mlir.poison : ty`
    pub fn poison(&mut self, ty: Type) -> ValueId {
        self.value("llvm.mlir.poison", &[], ty, &[])
    }

    /// `llvm.mlir.zero : ty`
    pub fn zero(&mut self, ty: Type) -> ValueId {
        self.value("llvm.mlir.zero", &[], ty, &[])
    }

    fn position(&mut self, pos: &[i64]) -> Attr {
        self.ctx().int_array_attr(64, pos)
    }

    /// `llvm.insertvalue value, container[pos]`
    pub fn insert(&mut self, container: ValueId, value: ValueId, pos: &[i64]) -> ValueId {
        let ty = self.rw.ir.value_type(container);
        let p = self.position(pos);
        self.value(
            "llvm.insertvalue",
            &[container, value],
            ty,
            &[("position", p)],
        )
    }

    /// `llvm.extractvalue container[pos]`
    pub fn extract(&mut self, container: ValueId, pos: &[i64]) -> ValueId {
        let ty = self.rw.ir.value_type(container);
        let elem =
            crate::dialect::aggregate_element(self.rw.ctx, ty, pos).expect("aggregate position");
        let p = self.position(pos);
        self.value("llvm.extractvalue", &[container], elem, &[("position", p)])
    }

    /// A binary integer op; `flags` (`nsw` 1, `nuw` 2) for the ops that
    /// carry overflow flags.
    pub fn int_op(&mut self, name: &str, a: ValueId, b: ValueId, flags: u32) -> ValueId {
        let ty = self.rw.ir.value_type(a);
        if !matches!(name, "llvm.add" | "llvm.sub" | "llvm.mul" | "llvm.shl") {
            return self.value(name, &[a, b], ty, &[]);
        }
        let ctx = self.ctx();
        let i32t = ctx.signless(32);
        let f = ctx.int_attr(i32t, flags);
        self.value(name, &[a, b], ty, &[("overflowFlags", f)])
    }

    /// `llvm.icmp "pred" a, b`
    pub fn icmp(&mut self, pred: &str, a: ValueId, b: ValueId) -> ValueId {
        let i = crate::dialect::attrs::ICMP_PREDICATES
            .iter()
            .position(|p| *p == pred)
            .expect("an icmp predicate");
        let ctx = self.ctx();
        let (i1, i64t) = (ctx.signless(1), ctx.signless(64));
        let p = ctx.int_attr(i64t, i as i64);
        self.value("llvm.icmp", &[a, b], i1, &[("predicate", p)])
    }

    /// `llvm.getelementptr flags base[indices] : elem`
    pub fn gep(&mut self, base: ValueId, elem: Type, indices: &[GepIndex], flags: u32) -> ValueId {
        let ty = self.rw.ir.value_type(base);
        let mut operands = vec![base];
        let mut raw = Vec::new();
        for i in indices {
            match i {
                GepIndex::Value(v) => {
                    operands.push(*v);
                    raw.push(crate::dialect::DYNAMIC_INDEX);
                }
                GepIndex::Const(c) => raw.push(i64::from(*c)),
            }
        }
        let ctx = self.ctx();
        let e = ctx.intern_attr(AttrKind::Type(elem));
        let i32t = ctx.signless(32);
        let f = ctx.int_attr(i32t, flags);
        let r = ctx.int_array_attr(32, &raw);
        self.value(
            "llvm.getelementptr",
            &operands,
            ty,
            &[
                ("elem_type", e),
                ("noWrapFlags", f),
                ("rawConstantIndices", r),
            ],
        )
    }

    /// `llvm.call @callee(args)`, with MLIR's default properties.
    pub fn call(&mut self, callee: &str, args: &[ValueId], results: &[Type]) -> OpId {
        self.call_of(Callee::Symbol(callee), args, results)
    }

    /// `llvm.call` of a symbol or, indirectly, of a function pointer.
    pub fn call_of(&mut self, callee: Callee<'_>, args: &[ValueId], results: &[Type]) -> OpId {
        let ctx = self.ctx();
        let cc = crate::dialect::attrs::keyword_attr(ctx, "cconv", "ccc");
        let tk = crate::dialect::attrs::keyword_attr(ctx, "tailcallkind", "none");
        let fm = crate::dialect::attrs::fastmath(ctx, 0);
        let b = ctx.int_array_attr(32, &[]);
        let mut props = vec![("CConv", cc), ("TailCallKind", tk)];
        let mut operands = Vec::with_capacity(args.len() + 1);
        match callee {
            Callee::Symbol(name) => {
                let root = ctx.sym(name);
                let c = ctx.intern_attr(AttrKind::SymbolRef {
                    root,
                    nested: Box::new([]),
                });
                props.push(("callee", c));
            }
            Callee::Pointer(p) => operands.push(p),
        }
        operands.extend_from_slice(args);
        let ctx = self.ctx();
        let seg = ctx.int_array_attr(32, &[operands.len() as i64, 0]);
        props.extend([
            ("fastmathFlags", fm),
            ("op_bundle_sizes", b),
            (silica_ir::format::SEGMENTS, seg),
        ]);
        self.op("llvm.call", &operands, results, &props)
    }
}

/// `llvm.call @callee(args)` at the insertion point, with MLIR's default
/// properties.
pub fn create_call(
    cr: &mut ConversionRewriter<'_, '_>,
    callee: &str,
    args: &[ValueId],
    results: &[Type],
    loc: Attr,
) -> OpId {
    Llvm::new(cr, loc).call(callee, args, results)
}

/// The enclosing `builtin.module` of `op`.
pub(crate) fn enclosing_module(ctx: &Context, ir: &silica_ir::Ir, op: OpId) -> Option<OpId> {
    let mut cur = ir.parent_op(op);
    while let Some(p) = cur {
        if ctx.str(ir.op_name(p)) == "builtin.module" {
            return Some(p);
        }
        cur = ir.parent_op(p);
    }
    None
}

/// The body block of the module around `at`.
pub(crate) fn module_body(rw: &Rewriter<'_>, at: OpId) -> Option<silica_ir::BlockId> {
    let module = enclosing_module(rw.ctx, rw.ir, at)?;
    rw.ir
        .regions(module)
        .next()
        .and_then(|r| rw.ir.entry_block(r))
}

/// Whether the module body `body` defines the symbol `name`.
pub(crate) fn has_symbol(rw: &Rewriter<'_>, body: silica_ir::BlockId, name: &str) -> bool {
    rw.ir.block_ops(body).any(|o| {
        inherent_attr(rw.ctx, rw.ir, o, "sym_name").is_some_and(
            |a| matches!(rw.ctx.attr_kind(a), AttrKind::String { value, .. } if **value == *name.as_bytes()),
        )
    })
}

/// Declares the runtime function `llvm.func @name(params) -> result` as
/// [`declare_function`] does; an `llvm.func` of that name and another
/// type fails the conversion, as MLIR reserves the name.
pub(crate) fn declare_runtime_function(
    cr: &mut ConversionRewriter<'_, '_>,
    at: OpId,
    name: &str,
    params: &[Type],
    result: Type,
) -> bool {
    let Some(module) = enclosing_module(cr.rw.ctx, cr.rw.ir, at) else {
        return true;
    };
    let existing = silica_ir::symbols::lookup(cr.rw.ctx, cr.rw.ir, module, name)
        .filter(|&f| cr.rw.ctx.str(cr.rw.ir.op_name(f)) == "llvm.func");
    if let Some(f) = existing {
        let declared = crate::dialect::func_ops::func_type(cr.rw.ctx, cr.rw.ir, f);
        if declared
            .as_ref()
            .is_some_and(|(r, p, v)| *r != result || p != params || *v)
        {
            let t = inherent_attr(cr.rw.ctx, cr.rw.ir, f, "function_type")
                .and_then(|a| match cr.rw.ctx.attr_kind(a) {
                    AttrKind::Type(t) => Some(*t),
                    _ => None,
                })
                .map(|t| silica_ir::printer::type_to_string(cr.rw.ctx, t))
                .unwrap_or_default();
            let msg = format!(
                "redefinition of reserved function '{name}' of different type '{t}' is prohibited"
            );
            cr.error(f, msg);
            return false;
        }
    }
    declare_function(&mut cr.rw, at, name, params, result);
    true
}

/// Declares `llvm.func @name(params) -> result` at the start of the
/// module around `at`, unless a symbol of that name exists.
pub fn declare_function(
    rw: &mut Rewriter<'_>,
    at: OpId,
    name: &str,
    params: &[Type],
    result: Type,
) {
    let Some(module) = enclosing_module(rw.ctx, rw.ir, at) else {
        return;
    };
    let Some(body) = rw
        .ir
        .regions(module)
        .next()
        .and_then(|r| rw.ir.entry_block(r))
    else {
        return;
    };
    if silica_ir::symbols::lookup(rw.ctx, rw.ir, module, name).is_some() {
        return;
    }
    let saved = rw.insertion_point();
    rw.set_insertion_point_to_start(body);
    create_declaration(rw, name, params, result);
    rw.restore_insertion_point(saved);
}

/// Declares `llvm.func @name(params) -> result` in the symbol table
/// `table`, just before `before` (MLIR's calls to device library
/// functions), unless a symbol of that name exists there.
pub fn declare_function_before(
    rw: &mut Rewriter<'_>,
    (table, before): (OpId, OpId),
    name: &str,
    params: &[Type],
    result: Type,
) {
    if silica_ir::symbols::lookup(rw.ctx, rw.ir, table, name).is_some() {
        return;
    }
    let saved = rw.insertion_point();
    rw.set_insertion_point(before);
    create_declaration(rw, name, params, result);
    rw.restore_insertion_point(saved);
}

/// `llvm.func @name(params) -> result` at the insertion point, with an
/// entry block of the parameters (to be filled): the function and the
/// block.
pub fn define_function(
    rw: &mut Rewriter<'_>,
    name: &str,
    params: &[Type],
    result: Type,
) -> (OpId, silica_ir::BlockId) {
    let f = create_declaration(rw, name, params, result);
    let region = rw.ir.regions(f).next().expect("llvm.func has a region");
    let block = rw.ir.create_block();
    rw.ir.append_block(region, block);
    let loc = rw.ir.op_loc(f);
    for &p in params {
        rw.ir.add_block_arg(block, p, Some(loc));
    }
    (f, block)
}

/// An external `llvm.func @name(params) -> result` at the insertion point.
fn create_declaration(rw: &mut Rewriter<'_>, name: &str, params: &[Type], result: Type) -> OpId {
    let ctx = &mut *rw.ctx;
    let fty = types::func(ctx, result, params, false);
    let props = vec![
        (
            "CConv",
            crate::dialect::attrs::keyword_attr(ctx, "cconv", "ccc"),
        ),
        ("function_type", ctx.intern_attr(AttrKind::Type(fty))),
        (
            "linkage",
            crate::dialect::attrs::keyword_attr(ctx, "linkage", "external"),
        ),
        ("sym_name", ctx.string_attr(name.as_bytes())),
        ("visibility_", {
            let t = ctx.signless(64);
            ctx.int_attr(t, 0)
        }),
    ];
    let entries: Vec<(Symbol, Attr)> = props.into_iter().map(|(k, v)| (ctx.sym(k), v)).collect();
    let props = ctx.dict_attr(entries);
    let region = rw.ir.create_region();
    let fname = rw.ctx.sym("llvm.func");
    let attrs = rw.ctx.empty_dict();
    let loc = rw.ctx.unknown_loc();
    rw.create(OpSpec {
        name: fname,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs,
        props: Some(props),
    })
}
