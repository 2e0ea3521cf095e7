//! The builtin dialect's ops, `builtin.module` and
//! `builtin.unrealized_conversion_cast`: their definitions, custom
//! printers and verifiers (their parsers are in `parser::custom`).

use crate::attrs::AttrKind;
use crate::dialect::{DialectDef, Effects, OpDef, Traits};
use crate::graph::OpId;
use crate::parser::{parse_module, parse_unrealized_cast, PResult};
use crate::printer::AsmPrinter;
use crate::verify::OpVerifier;

/// The builtin dialect.
pub static BUILTIN: DialectDef = DialectDef {
    name: "builtin",
    ops: &[
        OpDef {
            traits: Traits::ISOLATED_FROM_ABOVE
                .with(Traits::AFFINE_SCOPE)
                .with(Traits::SYMBOL_TABLE)
                .with(Traits::GRAPH_REGIONS)
                .with(Traits::NO_TERMINATOR),
            inherent_attrs: &["sym_name", "sym_visibility"],
            default_dialect: "builtin",
            parse: Some(parse_module),
            print: Some(print_module),
            verify: Some(verify_module),
            ..OpDef::new("builtin.module")
        },
        OpDef {
            parse: Some(parse_unrealized_cast),
            print: Some(print_unrealized_cast),
            verify: Some(verify_unrealized_cast),
            fold: Some(fold_unrealized_cast),
            effects: Effects::None,
            ..OpDef::new("builtin.unrealized_conversion_cast")
        },
    ],
    attrs: None,
    types: None,
    materialize_constant: None,
};

/// A cast to the types it casts from is its inputs; a cast back of all
/// the results of another cast is that cast's inputs.
fn fold_unrealized_cast(
    fc: &mut crate::rewrite::FoldCtx<'_>,
    op: OpId,
    _: &[Option<crate::Attr>],
) -> crate::rewrite::FoldResult {
    use crate::rewrite::{FoldResult, OpFoldResult};
    let ir = &*fc.ir;
    let inputs: Vec<_> = ir.operands(op).collect();
    let same = |a: &[crate::ValueId], b: &[crate::ValueId]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| ir.value_type(*x) == ir.value_type(*y))
    };
    let results: Vec<_> = ir.results(op).collect();
    let folded = if same(&inputs, &results) {
        inputs
    } else {
        let Some(def) = inputs.first().and_then(|v| ir.defining_op(*v)) else {
            return FoldResult::Fail;
        };
        let def_results: Vec<_> = ir.results(def).collect();
        let def_inputs: Vec<_> = ir.operands(def).collect();
        if ir.op_name(def) != ir.op_name(op)
            || def_results != inputs
            || !same(&def_inputs, &results)
        {
            return FoldResult::Fail;
        }
        def_inputs
    };
    FoldResult::Results(folded.into_iter().map(OpFoldResult::Value).collect())
}

/// ` @name attributes {...} { body }`
fn print_module(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let mut merged: Vec<_> = ctx.dict_entries(ir.op_attrs(op)).to_vec();
    let mut name = None;
    if let Some(props) = ir.op_props(op) {
        for &(k, v) in ctx.dict_entries(props) {
            match ctx.attr_kind(v) {
                AttrKind::String { value, .. } if ctx.str(k) == "sym_name" => {
                    name = Some(String::from_utf8_lossy(value).into_owned());
                }
                _ => merged.push((k, v)),
            }
        }
    }
    merged.sort_by(|a, b| ctx.str(a.0).cmp(ctx.str(b.0)));
    let region = ir.regions(op).next();
    if let Some(name) = name {
        p.write(" ");
        p.symbol_name(&name);
    }
    p.attr_entries(&merged, true);
    p.write(" ");
    if let Some(r) = region {
        p.region(r, false, false);
    }
}

/// ` %a, %b : t1, t2 to t3 {attrs}`
fn print_unrealized_cast(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let operands: Vec<_> = ir.operands(op).collect();
    let in_types: Vec<_> = operands.iter().map(|v| ir.value_type(*v)).collect();
    let out_types: Vec<_> = ir.results(op).map(|v| ir.value_type(v)).collect();
    let attrs = ir.op_attrs(op);
    if !operands.is_empty() {
        p.write(" ");
        p.operands(operands);
        p.write(" : ");
        p.types(&in_types);
    }
    p.write(" to ");
    p.types(&out_types);
    p.attr_dict(attrs, &[], false);
}

fn verify_module(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let region = ir.regions(op).next();
    let blocks = region.map_or(0, |r| ir.region_blocks(r).count());
    if ir.num_regions(op) != 1 || blocks != 1 {
        let msg = "region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks";
        return Err(v.op_error(op, msg));
    }
    let body = region.and_then(|r| ir.entry_block(r));
    if body.is_some_and(|b| !ir.block_args(b).is_empty()) {
        return Err(v.op_error(op, "region should have no arguments"));
    }
    let ctx = v.ctx();
    let undialected = ctx
        .dict_entries(ir.op_attrs(op))
        .iter()
        .map(|(k, _)| ctx.str(*k))
        .find(|k| !k.contains('.') && *k != "sym_name" && *k != "sym_visibility");
    if let Some(key) = undialected {
        let msg =
            format!("can only contain attributes with dialect-prefixed names, found: '{key}'");
        return Err(v.op_error(op, msg));
    }
    if let Some(props) = ir.op_props(op) {
        for &(k, a) in ctx.dict_entries(props) {
            let key = ctx.str(k);
            let is_str = matches!(ctx.attr_kind(a), AttrKind::String { .. });
            if (key == "sym_name" || key == "sym_visibility") && !is_str {
                let msg =
                    format!("attribute '{key}' failed to satisfy constraint: string attribute");
                return Err(v.op_error(op, msg));
            }
        }
    }
    Ok(())
}

fn verify_unrealized_cast(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    if v.ir().num_results(op) == 0 {
        return Err(v.op_error(op, "expected at least one result for cast operation"));
    }
    Ok(())
}
