//! `index` to llvm: index arithmetic on the index-width integer, comparisons, casts and
//! constants.

use super::Llvm;
use silica_ir::conversion::{ConversionPattern, ConversionRewriter};
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, OpId, ValueId};

/// index op, llvm op.
const ONE_TO_ONE: &[(&str, &str)] = &[
    ("index.add", "llvm.add"),
    ("index.sub", "llvm.sub"),
    ("index.mul", "llvm.mul"),
    ("index.divs", "llvm.sdiv"),
    ("index.divu", "llvm.udiv"),
    ("index.rems", "llvm.srem"),
    ("index.remu", "llvm.urem"),
    ("index.and", "llvm.and"),
    ("index.or", "llvm.or"),
    ("index.xor", "llvm.xor"),
    ("index.shl", "llvm.shl"),
    ("index.shrs", "llvm.ashr"),
    ("index.shru", "llvm.lshr"),
    ("index.maxs", "llvm.intr.smax"),
    ("index.mins", "llvm.intr.smin"),
    ("index.maxu", "llvm.intr.umax"),
    ("index.minu", "llvm.intr.umin"),
];

fn one_to_one(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let name = cr.rw.ctx.str(cr.rw.ir.op_name(op)).to_string();
    let Some(&(_, target)) = ONE_TO_ONE.iter().find(|(n, _)| *n == name) else {
        return false;
    };
    let index = super::index_type(cr);
    let loc = cr.rw.ir.op_loc(op);
    let v = Llvm::new(cr, loc).value(target, operands, index, &[]);
    cr.replace_op(op, &[v]);
    true
}

fn constant(cr: &mut ConversionRewriter<'_, '_>, op: OpId, _: &[ValueId]) -> bool {
    let bool_const = cr.rw.ctx.str(cr.rw.ir.op_name(op)) == "index.bool.constant";
    let Some(value) = inherent_attr(cr.rw.ctx, cr.rw.ir, op, "value") else {
        return false;
    };
    let index = super::index_type(cr);
    let ctx = &mut *cr.rw.ctx;
    let (value, ty) = match ctx.attr_kind(value).clone() {
        AttrKind::Integer { value, .. } if !bool_const => {
            let width = ctx.int_width(index).unwrap_or(64);
            let value = silica_dialects::arith::wrap_signed(&value, width);
            (ctx.int_attr(index, value), index)
        }
        _ => {
            let t = ctx.signless(1);
            (value, t)
        }
    };
    let loc = cr.rw.ir.op_loc(op);
    let v = Llvm::new(cr, loc).constant(value, ty);
    cr.replace_op(op, &[v]);
    true
}

fn cmp(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let Some(pred) = inherent_attr(cr.rw.ctx, cr.rw.ir, op, "pred") else {
        return false;
    };
    let ctx = &mut *cr.rw.ctx;
    let index = match ctx.attr_kind(pred) {
        AttrKind::Dialect { params, .. } => match params.first().map(|p| ctx.attr_kind(*p)) {
            Some(AttrKind::Integer { value, .. }) => i64::try_from(value).unwrap_or(0),
            _ => return false,
        },
        _ => return false,
    };
    let t = ctx.signless(64);
    let p = ctx.int_attr(t, index);
    let i1 = ctx.signless(1);
    let loc = cr.rw.ir.op_loc(op);
    let v = Llvm::new(cr, loc).value("llvm.icmp", operands, i1, &[("predicate", p)]);
    cr.replace_op(op, &[v]);
    true
}

fn cast(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let unsigned = cr.rw.ctx.str(cr.rw.ir.op_name(op)) == "index.castu";
    let ty = cr.rw.ir.value_type(cr.rw.ir.result(op, 0));
    let Some(to_ty) = cr.convert_type(ty) else {
        return false;
    };
    super::replace_with_resized_int(cr, op, operands[0], to_ty, unsigned)
}

/// Ceiling and floor divisions, as MLIR's index lowering expands them.
fn division(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let name = cr.rw.ctx.str(cr.rw.ir.op_name(op)).to_string();
    let (n, m) = (operands[0], operands[1]);
    let loc = cr.rw.ir.op_loc(op);
    let i64t = super::index_type(cr);
    let mut l = Llvm::new(cr, loc);
    let konst = |l: &mut Llvm<'_, '_>, v: i64| {
        let a = l.ctx().int_attr(i64t, v);
        l.constant(a, i64t)
    };
    let v = match name.as_str() {
        "index.ceildivs" => {
            let zero = konst(&mut l, 0);
            let one = konst(&mut l, 1);
            let neg_one = konst(&mut l, -1);
            let m_pos = l.icmp("sgt", m, zero);
            let x = l.value("llvm.select", &[m_pos, neg_one, one], i64t, &[]);
            let n_plus_x = l.int_op("llvm.add", n, x, 0);
            let q = l.int_op("llvm.sdiv", n_plus_x, m, 0);
            let pos_res = l.int_op("llvm.add", q, one, 0);
            let neg_n = l.int_op("llvm.sub", zero, n, 0);
            let neg_q = l.int_op("llvm.sdiv", neg_n, m, 0);
            let neg_res = l.int_op("llvm.sub", zero, neg_q, 0);
            let n_pos = l.icmp("sgt", n, zero);
            let same = l.icmp("eq", n_pos, m_pos);
            let n_nonzero = l.icmp("ne", n, zero);
            let cond = l.int_op("llvm.and", same, n_nonzero, 0);
            l.value("llvm.select", &[cond, pos_res, neg_res], i64t, &[])
        }
        "index.ceildivu" => {
            let zero = konst(&mut l, 0);
            let one = konst(&mut l, 1);
            let less = l.int_op("llvm.sub", n, one, 0);
            let q = l.int_op("llvm.udiv", less, m, 0);
            let up = l.int_op("llvm.add", q, one, 0);
            let is_zero = l.icmp("eq", n, zero);
            l.value("llvm.select", &[is_zero, zero, up], i64t, &[])
        }
        _ => {
            let zero = konst(&mut l, 0);
            let one = konst(&mut l, 1);
            let neg_one = konst(&mut l, -1);
            let m_neg = l.icmp("slt", m, zero);
            let x = l.value("llvm.select", &[m_neg, one, neg_one], i64t, &[]);
            let x_minus_n = l.int_op("llvm.sub", x, n, 0);
            let q = l.int_op("llvm.sdiv", x_minus_n, m, 0);
            let neg_res = l.int_op("llvm.sub", neg_one, q, 0);
            let pos_res = l.int_op("llvm.sdiv", n, m, 0);
            let n_neg = l.icmp("slt", n, zero);
            let opposite = l.icmp("ne", n_neg, m_neg);
            let n_nonzero = l.icmp("ne", n, zero);
            let cond = l.int_op("llvm.and", opposite, n_nonzero, 0);
            l.value("llvm.select", &[cond, neg_res, pos_res], i64t, &[])
        }
    };
    cr.replace_op(op, &[v]);
    true
}

/// `index.sizeof`: the index width.
fn sizeof(cr: &mut ConversionRewriter<'_, '_>, op: OpId, _: &[ValueId]) -> bool {
    let loc = cr.rw.ir.op_loc(op);
    let i64t = super::index_type(cr);
    let width = cr.rw.ctx.int_width(i64t).unwrap_or(64);
    let a = cr.rw.ctx.int_attr(i64t, i64::from(width));
    let v = Llvm::new(cr, loc).constant(a, i64t);
    cr.replace_op(op, &[v]);
    true
}

/// The patterns of `convert-index-to-llvm`.
pub(crate) fn patterns(out: &mut Vec<ConversionPattern>) {
    for (root, _) in ONE_TO_ONE {
        out.push(ConversionPattern {
            root,
            name: "IndexOpLowering",
            benefit: 1,
            apply: one_to_one,
        });
    }
    for root in ["index.constant", "index.bool.constant"] {
        out.push(ConversionPattern {
            root,
            name: "IndexConstantLowering",
            benefit: 1,
            apply: constant,
        });
    }
    for root in ["index.ceildivs", "index.ceildivu", "index.floordivs"] {
        out.push(ConversionPattern {
            root,
            name: "IndexDivisionLowering",
            benefit: 1,
            apply: division,
        });
    }
    out.push(ConversionPattern {
        root: "index.sizeof",
        name: "IndexSizeOfLowering",
        benefit: 1,
        apply: sizeof,
    });
    out.push(ConversionPattern {
        root: "index.cmp",
        name: "IndexCmpLowering",
        benefit: 1,
        apply: cmp,
    });
    for root in ["index.casts", "index.castu"] {
        out.push(ConversionPattern {
            root,
            name: "IndexCastLowering",
            benefit: 1,
            apply: cast,
        });
    }
}
