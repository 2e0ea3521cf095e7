//! Registered dialects: what an op is ([`OpDef`]: traits, inherent
//! attributes, allowed parents, custom assembly hooks, a verifier) and
//! how a dialect's attributes are written ([`AttrHooks`]). The registry
//! lives in the [`Context`]; `builtin` is registered by [`Context::new`],
//! other dialect crates register theirs with [`Context::register_dialect`].

use crate::context::{Attr, Context, Symbol};
use crate::graph::OpId;
use crate::parser::{AsmParser, PResult};
use crate::printer::{AsmPrinter, ParamPrinter};
use crate::verify::OpVerifier;
use rustc_hash::FxHashMap;

/// Structural properties of an op, checked by the verifier and used by
/// the parser and printer (MLIR's op traits).
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub struct Traits(u32);

impl Traits {
    /// No traits.
    pub const NONE: Traits = Traits(0);
    /// Regions see no values defined outside the op.
    pub const ISOLATED_FROM_ABOVE: Traits = Traits(1);
    /// The op's single-block regions define symbols that must be unique.
    pub const SYMBOL_TABLE: Traits = Traits(1 << 1);
    /// The op's regions are graph regions (no dominance, cycles allowed).
    pub const GRAPH_REGIONS: Traits = Traits(1 << 2);
    /// Each region holds at most one block.
    pub const SINGLE_BLOCK: Traits = Traits(1 << 3);
    /// The op's regions' entry blocks have no arguments.
    pub const NO_REGION_ARGUMENTS: Traits = Traits(1 << 4);
    /// The op ends its block.
    pub const TERMINATOR: Traits = Traits(1 << 5);
    /// The op's blocks need not end with a terminator.
    pub const NO_TERMINATOR: Traits = Traits(1 << 6);
    /// The op materialises a constant (its fold returns the value).
    pub const CONSTANT_LIKE: Traits = Traits(1 << 7);
    /// The op's first two operands may be swapped; folding moves
    /// constant operands to the end.
    pub const COMMUTATIVE: Traits = Traits(1 << 8);
    /// The op returns control to its parent with its operands.
    pub const RETURN_LIKE: Traits = Traits(1 << 9);
    /// Every region of the op is a loop body (MLIR's
    /// `LoopLikeOpInterface`).
    pub const LOOP_LIKE: Traits = Traits(1 << 10);
    /// The op may trap unless its second operand is a constant other
    /// than 0 (and -1, signed): integer division and remainder.
    pub const DIVISION: Traits = Traits(1 << 11);
    /// Stack allocations inside the op are freed when it exits (MLIR's
    /// `AutomaticAllocationScope`).
    pub const ALLOCATION_SCOPE: Traits = Traits(1 << 12);
    /// The op's regions start new scopes for affine dimensions and
    /// symbols (MLIR's `AffineScope`).
    pub const AFFINE_SCOPE: Traits = Traits(1 << 13);

    /// Both sets of traits.
    pub const fn with(self, other: Traits) -> Traits {
        Traits(self.0 | other.0)
    }

    /// Whether every trait of `t` is in `self`.
    pub const fn has(self, t: Traits) -> bool {
        self.0 & t.0 == t.0
    }
}

/// Parses an op's custom form; the parser stands after the op name.
pub type ParseFn = fn(&mut AsmParser<'_, '_>) -> PResult<OpId>;
/// Prints an op's custom form after its name.
pub type PrintFn = fn(&mut AsmPrinter<'_, '_>, OpId);
/// Checks an op beyond its traits.
pub type VerifyFn = fn(&mut OpVerifier<'_, '_>, OpId) -> PResult<()>;
/// Folds an op given the constant values of its operands (`None` where
/// an operand is not a constant); see [`crate::rewrite::FoldResult`].
pub type FoldFn =
    fn(&mut crate::rewrite::FoldCtx<'_>, OpId, &[Option<Attr>]) -> crate::rewrite::FoldResult;
/// Creates a constant op of the dialect holding `value` of type `ty` at the
/// rewriter's insertion point (MLIR's `materializeConstant`).
pub type MaterializeFn =
    fn(&mut crate::rewrite::Rewriter<'_>, Attr, crate::Type, Attr) -> Option<OpId>;
/// Suggests a name for an op's first result.
pub type ResultNameFn = fn(&Context, &crate::graph::Ir, OpId) -> Option<String>;
/// Suggests names for each of an op's results and its first region's
/// entry arguments (MLIR's `getAsmResultNames` with several names and
/// `getAsmBlockArgumentNames`); an empty name leaves a value numbered.
pub type ValueNamesFn = fn(&Context, &crate::graph::Ir, OpId) -> ValueNames;

/// Names from a [`ValueNamesFn`].
#[derive(Clone, Debug, Default)]
pub struct ValueNames {
    pub results: Vec<String>,
    pub entry_args: Vec<String>,
}
/// Parses the parameters of the dialect attribute with the given
/// mnemonic; the parser stands after the mnemonic (`#dialect.mnemonic`).
pub type AttrParseFn = fn(&mut AsmParser<'_, '_>, &str) -> PResult<Attr>;
/// Prints the parameters of a dialect attribute (what follows its
/// mnemonic, given for dispatch).
pub type AttrPrintFn = fn(&ParamPrinter<'_>, &mut String, &str, &[Attr]);

/// The type of a typed dialect attribute, from its mnemonic and
/// parameters; `None` for untyped ones.
pub type AttrTypeFn = fn(&Context, &str, &[Attr]) -> Option<crate::Type>;

/// Parses the parameters of the dialect type with the given mnemonic;
/// the parser stands after the mnemonic (`!dialect.mnemonic`).
pub type TypeParseFn = fn(&mut AsmParser<'_, '_>, &str) -> PResult<crate::Type>;
/// Prints a dialect type without its `!dialect.` prefix: mnemonic and
/// parameters (the mnemonic is given for dispatch).
pub type TypePrintFn = fn(&ParamPrinter<'_>, &mut String, &str, &[Attr]);

/// One registered op.
#[derive(Clone, Copy, Debug)]
pub struct OpDef {
    /// Full name, `dialect.op`.
    pub name: &'static str,
    pub traits: Traits,
    /// Attributes that belong to the op (kept as properties).
    pub inherent_attrs: &'static [&'static str],
    /// Ops this one may be nested directly in (any when empty).
    pub parents: &'static [&'static str],
    /// The dialect whose ops may drop their prefix in this op's regions.
    pub default_dialect: &'static str,
    /// The custom form's parser (generic form only when absent).
    pub parse: Option<ParseFn>,
    /// The custom form's printer (printed generically when absent).
    pub print: Option<PrintFn>,
    pub verify: Option<VerifyFn>,
    /// Checks that need the op's nested ops verified first (MLIR's
    /// `verifyRegions`): run after them, with the terminator checks.
    pub verify_regions: Option<VerifyFn>,
    /// Operands, results, attributes and assembly format, when declared
    /// (checked by the verifier before `verify`).
    pub signature: Option<&'static crate::format::Signature>,
    /// A name for the first result in the custom form (`c0_i32` prints
    /// `%c0_i32`), as MLIR's `getAsmResultNames`.
    pub result_names: Option<ResultNameFn>,
    /// Names for every result and entry argument (takes precedence over
    /// `result_names`).
    pub value_names: Option<ValueNamesFn>,
    /// How the op touches memory (decides dead-code erasure and CSE).
    pub effects: Effects,
    /// Constant folding and in-place simplification (MLIR's `fold`).
    pub fold: Option<FoldFn>,
    /// Canonicalization patterns rooted at this op.
    pub patterns: &'static [crate::rewrite::Pattern],
    /// How the op passes operands to its successors' arguments.
    pub branch: Option<&'static BranchDef>,
    /// How values flow into, between and out of the op's regions.
    pub region_branch: Option<&'static RegionBranchDef>,
    /// Properties with a default value (MLIR's `DefaultValuedAttr`) of an
    /// op without a signature, filled in where the generic form leaves
    /// them out.
    pub defaults: &'static [(&'static str, crate::format::AttrDefault)],
}

/// Where control is in a region-branch op: at the op (entering or
/// leaving it) or in its `i`-th region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionPoint {
    Parent,
    Region(usize),
}

/// Values flowing along one control edge of a region-branch op.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionEdge {
    /// Where control goes.
    pub to: RegionPoint,
    /// The operands forwarded: of the op on entry, else of the
    /// terminator the edge leaves from.
    pub operands: std::ops::Range<usize>,
    /// Where they arrive: the op's results (to the parent), else the
    /// entry block arguments of the region.
    pub inputs: std::ops::Range<usize>,
}

/// How a region-branch op moves values (MLIR's
/// `RegionBranchOpInterface` and `RegionBranchTerminatorOpInterface`).
#[derive(Debug)]
pub struct RegionBranchDef {
    /// The edges from entering the op.
    pub entry_edges: fn(&Context, &crate::graph::Ir, OpId) -> Vec<RegionEdge>,
    /// The edges leaving region `i` through `terminator`; `None` when the
    /// terminator does not give control back to the op (a branch).
    pub exit_edges: fn(&Context, &crate::graph::Ir, OpId, usize, OpId) -> Option<Vec<RegionEdge>>,
}

/// A branch op's operands forwarded to its successors (MLIR's
/// `BranchOpInterface`).
#[derive(Debug)]
pub struct BranchDef {
    /// The operand indices forwarded to successor `i`'s arguments.
    pub successor_operands: fn(&Context, &crate::graph::Ir, OpId, usize) -> std::ops::Range<usize>,
    /// Removes the `j`-th operand forwarded to successor `i` (keeping
    /// segment sizes consistent).
    pub erase_successor_operand: fn(&mut Context, &mut crate::graph::Ir, OpId, usize, usize),
}

/// An op's memory effects, as far as the transformations need them
/// (MLIR's `MemoryEffectOpInterface` and `RecursiveMemoryEffects`).
#[derive(Clone, Copy, Debug, Default)]
pub enum Effects {
    /// Unknown: treated as reading and writing anything.
    #[default]
    Unknown,
    /// No effects (MLIR's `Pure` / `NoMemoryEffect`).
    None,
    /// Reads memory only.
    Read,
    /// Allocates its results (and may read); nothing else.
    Alloc,
    /// Writes or frees memory.
    Write,
    /// The effects of the ops nested in its regions.
    Recursive,
    /// Effects that depend on the op's attributes (a volatile load
    /// writes, say); never answers `Dynamic` itself.
    Dynamic(fn(&Context, &crate::graph::Ir, OpId) -> Effects),
}

/// The effects of `op`: its definition's, resolved for the op where they
/// depend on its attributes; unknown for unregistered ops.
pub fn op_effects(ctx: &Context, ir: &crate::graph::Ir, op: OpId) -> Effects {
    match ctx.op_def(ir.op_name(op)).map(|d| d.effects) {
        Some(Effects::Dynamic(f)) => f(ctx, ir, op),
        Some(e) => e,
        None => Effects::Unknown,
    }
}

impl OpDef {
    /// An op with no traits, hooks or constraints.
    pub const fn new(name: &'static str) -> OpDef {
        OpDef {
            name,
            traits: Traits::NONE,
            inherent_attrs: &[],
            parents: &[],
            default_dialect: "",
            parse: None,
            print: None,
            verify: None,
            verify_regions: None,
            signature: None,
            result_names: None,
            value_names: None,
            effects: Effects::Unknown,
            fold: None,
            patterns: &[],
            branch: None,
            region_branch: None,
            defaults: &[],
        }
    }
}

/// How a dialect's attributes are parsed and printed.
#[derive(Clone, Copy, Debug)]
pub struct AttrHooks {
    pub parse: AttrParseFn,
    pub print: AttrPrintFn,
    /// The type of the dialect's typed attributes (MLIR's `TypedAttr`),
    /// printed as a trailing `: type` unless it is `none`. Dialects with
    /// typed attributes get the type written after the attribute, or
    /// given by its context, through [`AsmParser::attr_type`] when their
    /// parser runs.
    pub type_of: Option<AttrTypeFn>,
    /// The alias name of those of the dialect's attributes that get one
    /// (`#loop_unroll = ...`; MLIR's `OpAsmDialectInterface::getAlias`),
    /// by mnemonic.
    pub alias: Option<fn(&str) -> Option<&'static str>>,
}

/// How a dialect's types are parsed and printed.
#[derive(Clone, Copy, Debug)]
pub struct TypeHooks {
    pub parse: TypeParseFn,
    pub print: TypePrintFn,
    /// Which of the dialect's types may be elements of a builtin vector
    /// (MLIR's `VectorElementTypeInterface`); none when absent.
    pub vector_element: Option<fn(&Context, crate::Type) -> bool>,
}

/// A dialect: its namespace, ops and attribute syntax.
#[derive(Debug)]
pub struct DialectDef {
    pub name: &'static str,
    pub ops: &'static [OpDef],
    pub attrs: Option<AttrHooks>,
    /// The syntax of the dialect's types (`!dialect.name<...>`); without
    /// it they are kept as opaque text.
    pub types: Option<TypeHooks>,
    /// Builds the dialect's constant op for a folded value.
    pub materialize_constant: Option<MaterializeFn>,
}

/// A registered op's definition with its attribute names interned.
#[derive(Clone)]
struct RegisteredOp {
    def: &'static OpDef,
    attr_names: Box<[Symbol]>,
}

/// The registered dialects and ops of a context.
#[derive(Default)]
pub struct Registry {
    dialects: FxHashMap<&'static str, &'static DialectDef>,
    /// Per op-name symbol: its definition and the symbols of its
    /// signature's attribute names (looked up by index: the parser, the
    /// printer and the verifier ask for every op).
    ops: Vec<Option<RegisteredOp>>,
    /// The run-time parts of dialects defined at run time.
    pub(crate) dynamic: FxHashMap<&'static str, crate::dynamic::DynamicDialect>,
}

impl Registry {
    /// A copy for a forked context; `None` when dialects defined at run
    /// time are registered (their checks are not copied).
    pub(crate) fn fork(&self) -> Option<Registry> {
        self.dynamic.is_empty().then(|| Registry {
            dialects: self.dialects.clone(),
            ops: self.ops.clone(),
            dynamic: Default::default(),
        })
    }
}

impl Context {
    /// Registers `d` and its ops (again is harmless).
    pub fn register_dialect(&mut self, d: &'static DialectDef) {
        for op in d.ops {
            let name = self.sym(op.name);
            let attr_names = op
                .signature
                .map(|sig| sig.attrs.iter().map(|a| self.sym(a.name)).collect())
                .unwrap_or_default();
            let ops = &mut self.registry.ops;
            if ops.len() <= name.0 as usize {
                ops.resize(name.0 as usize + 1, None);
            }
            ops[name.0 as usize] = Some(RegisteredOp {
                def: op,
                attr_names,
            });
        }
        self.registry.dialects.insert(d.name, d);
    }

    /// The definition of the op named `name`, if registered.
    pub fn op_def(&self, name: Symbol) -> Option<&'static OpDef> {
        Some(self.registered_op(name)?.def)
    }

    fn registered_op(&self, name: Symbol) -> Option<&RegisteredOp> {
        self.registry.ops.get(name.0 as usize)?.as_ref()
    }

    /// The interned names of the signature attributes of the registered
    /// op `name`, in signature order (empty for other ops).
    pub fn op_attr_names(&self, name: Symbol) -> &[Symbol] {
        self.registered_op(name).map_or(&[], |r| &r.attr_names)
    }

    /// The definition of the op named `name` (text), if registered.
    pub fn op_def_by_name(&self, name: &str) -> Option<&'static OpDef> {
        self.lookup_sym(name).and_then(|s| self.op_def(s))
    }

    /// The dialect named `name`, if registered.
    pub fn dialect(&self, name: &str) -> Option<&'static DialectDef> {
        self.registry.dialects.get(name).copied()
    }

    /// The names of all registered ops, sorted.
    pub fn registered_ops(&self) -> Vec<&'static str> {
        let mut v: Vec<_> = self
            .registry
            .ops
            .iter()
            .flatten()
            .map(|r| r.def.name)
            .collect();
        v.sort_unstable();
        v
    }

    /// Registered dialect names, sorted (for "available dialects" notes).
    pub fn dialect_names(&self) -> Vec<&'static str> {
        let mut v: Vec<_> = self.registry.dialects.keys().copied().collect();
        v.sort_unstable();
        v
    }
}

/// The attribute `name` of `op`: from its properties, or from its
/// attribute dictionary (where the generic form may have put it).
pub fn inherent_attr(ctx: &Context, ir: &crate::graph::Ir, op: OpId, name: &str) -> Option<Attr> {
    find_attr(ctx, ir, op, ctx.lookup_sym(name)?)
}

/// Sets the discardable attribute `name` of `op` to `value` (replacing
/// one of that name).
pub fn set_discardable_attr(
    ctx: &mut Context,
    ir: &mut crate::graph::Ir,
    op: OpId,
    name: &str,
    value: Attr,
) {
    let key = ctx.sym(name);
    let mut entries: Vec<_> = ctx.dict_entries(ir.op_attrs(op)).to_vec();
    entries.retain(|(k, _)| *k != key);
    entries.push((key, value));
    let dict = ctx.dict_attr(entries);
    ir.set_op_attrs(op, dict);
}

/// The value of attribute `i` of the signature of `op` (named `name`),
/// properties first: [`inherent_attr`] with the name's symbol looked up
/// by index.
pub fn signature_attr(
    ctx: &Context,
    ir: &crate::graph::Ir,
    op: OpId,
    i: usize,
    name: &str,
) -> Option<Attr> {
    let key = match ctx.op_attr_names(ir.op_name(op)).get(i) {
        Some(&k) => k,
        None => ctx.lookup_sym(name)?,
    };
    find_attr(ctx, ir, op, key)
}

fn find_attr(ctx: &Context, ir: &crate::graph::Ir, op: OpId, key: Symbol) -> Option<Attr> {
    let find = |dict: Attr| {
        ctx.dict_entries(dict)
            .iter()
            .find(|(k, _)| *k == key)
            .map(|&(_, v)| v)
    };
    ir.op_props(op)
        .and_then(find)
        .or_else(|| find(ir.op_attrs(op)))
}

/// Sets the property `name` of `op` (removing an attribute of the same
/// name from its dictionary, where the generic form may have put it).
pub fn set_inherent_attr(
    ctx: &mut Context,
    ir: &mut crate::graph::Ir,
    op: OpId,
    name: &str,
    value: Attr,
) {
    let key = ctx.sym(name);
    let mut props: Vec<(Symbol, Attr)> = ir
        .op_props(op)
        .map(|p| ctx.dict_entries(p).to_vec())
        .unwrap_or_default();
    props.retain(|(k, _)| *k != key);
    props.push((key, value));
    let props = ctx.dict_attr(props);
    ir.set_op_props(op, Some(props));
    let attrs = ctx.dict_entries(ir.op_attrs(op));
    if attrs.iter().any(|(k, _)| *k == key) {
        let kept: Vec<_> = attrs.iter().copied().filter(|(k, _)| *k != key).collect();
        let attrs = ctx.dict_attr(kept);
        ir.set_op_attrs(op, attrs);
    }
}

/// Puts a registered op as MLIR's properties have it: inherent attributes
/// written in the attribute dictionary move to the properties (unless
/// given there), and defaulted ones are filled in. The parser does this
/// to generic-form ops; other readers of ops do it too.
pub fn normalize_inherent(ctx: &mut Context, ir: &mut crate::graph::Ir, op: OpId) {
    let Some(def) = ctx.op_def(ir.op_name(op)) else {
        return;
    };
    let sig_attrs = def.signature.map_or(&[][..], |s| s.attrs);
    let is_inherent =
        |n: &str| def.inherent_attrs.contains(&n) || sig_attrs.iter().any(|a| a.name == n);
    let attrs = ctx.dict_entries(ir.op_attrs(op));
    let moved = attrs.iter().any(|(k, _)| is_inherent(ctx.str(*k)));
    let props = ir.op_props(op);
    let has = |ctx: &Context, name: &str| {
        props.is_some_and(|p| ctx.dict_entries(p).iter().any(|(k, _)| ctx.str(*k) == name))
    };
    let missing_default = sig_attrs
        .iter()
        .any(|a| a.default.is_some() && !a.optional && !has(ctx, a.name))
        || def.defaults.iter().any(|(name, _)| !has(ctx, name));
    if !moved && !missing_default {
        return;
    }
    let mut new_props: Vec<(Symbol, Attr)> = props
        .map(|p| ctx.dict_entries(p).to_vec())
        .unwrap_or_default();
    let mut kept = Vec::new();
    for &(k, v) in ctx.dict_entries(ir.op_attrs(op)) {
        if !is_inherent(ctx.str(k)) {
            kept.push((k, v));
        } else if !new_props.iter().any(|(p, _)| *p == k) {
            new_props.push((k, v));
        }
    }
    let defaults = sig_attrs
        .iter()
        .filter(|a| !a.optional)
        .filter_map(|a| Some((a.name, a.default?)))
        .chain(def.defaults.iter().copied());
    for (name, d) in defaults {
        if !new_props.iter().any(|(k, _)| ctx.str(*k) == name) {
            let v = ctx.built_attr(d.make);
            let k = ctx.sym(name);
            new_props.push((k, v));
        }
    }
    let attrs = ctx.dict_attr(kept);
    let props = ctx.dict_attr(new_props);
    ir.set_op_attrs(op, attrs);
    ir.set_op_props(op, Some(props));
}
