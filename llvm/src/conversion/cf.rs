//! `cf` to llvm: `cf.br`, `cf.cond_br` and `cf.switch` become `llvm.br`,
//! `llvm.cond_br` and `llvm.switch` with the same successors, operands,
//! case values and weights.

use silica_ir::conversion::{ConversionPattern, ConversionRewriter};
use silica_ir::dialect::inherent_attr;
use silica_ir::format::SEGMENTS;
use silica_ir::{OpId, OpSpec, Symbol, ValueId};

fn branch(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    // The successors take the converted values (MLIR converts their
    // signatures as it lowers the branches).
    for succ in cr.rw.ir.successors(op).to_vec() {
        if !cr.convert_block_types(succ) {
            return false;
        }
    }
    let ctx = &mut *cr.rw.ctx;
    let ir = &*cr.rw.ir;
    let source = ctx.str(ir.op_name(op)).to_string();
    let cond = source == "cf.cond_br";
    let switch = source == "cf.switch";
    let mut props: Vec<(Symbol, silica_ir::Attr)> = Vec::new();
    if switch {
        for key in [
            SEGMENTS,
            "case_operand_segments",
            "case_values",
            "branch_weights",
        ] {
            if let Some(a) = inherent_attr(ctx, ir, op, key) {
                props.push((ctx.sym(key), a));
            }
        }
    }
    if cond {
        for key in [SEGMENTS, "branch_weights"] {
            if let Some(a) = inherent_attr(ctx, ir, op, key) {
                props.push((ctx.sym(key), a));
            }
        }
    }
    let props = (!props.is_empty()).then(|| ctx.dict_attr(props));
    let successors = ir.successors(op).to_vec();
    let name = ctx.sym(match source.as_str() {
        "cf.cond_br" => "llvm.cond_br",
        "cf.switch" => "llvm.switch",
        _ => "llvm.br",
    });
    let attrs = ir.op_attrs(op);
    let loc = ir.op_loc(op);
    cr.rw.create(OpSpec {
        name,
        loc,
        operands,
        result_types: &[],
        successors: &successors,
        regions: &[],
        attrs,
        props,
    });
    cr.rw.erase_op(op);
    true
}

/// `cf.assert`: branch on the condition to the rest of the block, or to
/// a block that prints the message with `puts` and calls `abort`.
fn assert(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let Some(body) = super::module_body(&cr.rw, op) else {
        return false;
    };
    let msg = match inherent_attr(cr.rw.ctx, cr.rw.ir, op, "msg").map(|a| cr.rw.ctx.attr_kind(a)) {
        Some(silica_ir::AttrKind::String { value, .. }) => value.to_vec(),
        _ => return false,
    };
    let loc = cr.rw.ir.op_loc(op);
    let block = cr.rw.ir.op_block(op).expect("op in a block");
    let region = cr.rw.ir.block_region(block).expect("block in a region");
    let continuation = cr.rw.ir.split_block(block, cr.rw.ir.next_op(op));
    let failure = cr.rw.ir.create_block();
    cr.rw.ir.append_block(region, failure);
    // The message as a NUL-terminated global.
    let mut name = "assert_msg".to_string();
    let mut k = 0;
    while super::has_symbol(&cr.rw, body, &name) {
        name = format!("assert_msg_{k}");
        k += 1;
    }
    let ctx = &mut *cr.rw.ctx;
    let i8t = ctx.signless(8);
    let mut bytes = msg;
    bytes.push(0);
    let n = bytes.len();
    let tensor = ctx.intern_type(silica_ir::TypeKind::RankedTensor {
        shape: Box::new([n as i64]),
        element: i8t,
        encoding: None,
    });
    let values: Vec<silica_ir::Attr> = bytes
        .iter()
        .map(|&b| ctx.int_attr(i8t, i64::from(b)))
        .collect();
    let value = ctx.intern_attr(silica_ir::AttrKind::DenseElements {
        ty: tensor,
        values: values.into(),
    });
    let arr = crate::dialect::types::array(ctx, n as u64, i8t);
    let t32 = ctx.signless(32);
    let t64 = ctx.signless(64);
    let zero32 = ctx.int_attr(t32, 0);
    let zero64 = ctx.int_attr(t64, 0);
    let props = vec![
        ("addr_space", zero32),
        ("constant", ctx.unit_attr()),
        (
            "global_type",
            ctx.intern_attr(silica_ir::AttrKind::Type(arr)),
        ),
        (
            "linkage",
            crate::dialect::attrs::keyword_attr(ctx, "linkage", "private"),
        ),
        ("sym_name", ctx.string_attr(name.as_bytes())),
        ("value", value),
        ("visibility_", zero64),
    ];
    let entries: Vec<(Symbol, silica_ir::Attr)> =
        props.into_iter().map(|(k, v)| (ctx.sym(k), v)).collect();
    let props = ctx.dict_attr(entries);
    let gname = ctx.sym("llvm.mlir.global");
    let attrs = ctx.empty_dict();
    let unknown = ctx.unknown_loc();
    let global_region = cr.rw.ir.create_region();
    cr.rw.set_insertion_point_to_start(body);
    cr.rw.create(OpSpec {
        name: gname,
        loc: unknown,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[global_region],
        attrs,
        props: Some(props),
    });
    // The failure block: print and abort.
    cr.rw.set_insertion_point_to_end(failure);
    let ptr = crate::dialect::types::ptr(cr.rw.ctx, 0);
    let mut b = super::Llvm::new(cr, loc);
    let sym = b.ctx().sym(&name);
    let global = b.ctx().intern_attr(silica_ir::AttrKind::SymbolRef {
        root: sym,
        nested: Box::new([]),
    });
    let addr = b.value("llvm.mlir.addressof", &[], ptr, &[("global_name", global)]);
    let start = b.gep(addr, arr, &[super::GepIndex::Const(0)], 0);
    let void = crate::dialect::types::void(b.rw.ctx);
    super::declare_function(b.rw, op, "puts", &[ptr], void);
    b.call("puts", &[start], &[]);
    super::declare_function(b.rw, op, "abort", &[], void);
    b.call("abort", &[], &[]);
    b.op("llvm.unreachable", &[], &[], &[]);
    // The test.
    cr.rw.set_insertion_point(op);
    let ctx = &mut *cr.rw.ctx;
    let seg = ctx.int_array_attr(32, &[1, 0, 0]);
    let key = ctx.sym(SEGMENTS);
    let props = ctx.dict_attr(vec![(key, seg)]);
    let name = ctx.sym("llvm.cond_br");
    let attrs = ctx.empty_dict();
    cr.rw.create(OpSpec {
        name,
        loc,
        operands: &operands[..1],
        result_types: &[],
        successors: &[continuation, failure],
        regions: &[],
        attrs,
        props: Some(props),
    });
    cr.rw.erase_op(op);
    true
}

/// The patterns of `convert-cf-to-llvm`.
pub(crate) fn patterns(out: &mut Vec<ConversionPattern>) {
    for root in ["cf.br", "cf.cond_br", "cf.switch"] {
        out.push(ConversionPattern {
            root,
            name: "BranchOpLowering",
            benefit: 1,
            apply: branch,
        });
    }
    out.push(ConversionPattern {
        root: "cf.assert",
        name: "AssertOpLowering",
        benefit: 1,
        apply: assert,
    });
}
