//! Addresses of basic blocks: `llvm.blocktag <id = N>` marks a block,
//! `llvm.blockaddress <function = @f, tag = <id = N>> : !llvm.ptr` is the
//! address of the block of `@f` so marked, and `llvm.indirectbr %addr :
//! !llvm.ptr, [^bb1, ^bb2(%v : i32)]` branches to one of the listed
//! blocks through such an address. The attributes are the dialect's raw
//! attributes (`#llvm.blocktag<id = N>`, `#llvm.blockaddress<...>`), read
//! and written in MLIR's canonical spelling. In LLVM IR a tag is no
//! instruction, an address is `blockaddress(@f, %bbN)` (the label the
//! translator gives the tagged block) and the branch is `indirectbr`.

use crate::dialect::attrs::raw_attr;
use crate::dialect::switch::parse_dest;
use silica_ir::dialect::{inherent_attr, BranchDef, Effects, OpDef, Traits};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, BlockId, Context, Ir, OpId, OpSpec, ValueId};

/// The text of a raw llvm attribute (`id = 1` of `#llvm.blocktag<id = 1>`).
fn raw_text(ctx: &Context, a: Attr) -> Option<&str> {
    match ctx.attr_kind(a) {
        AttrKind::Dialect { params, .. } => match params.get(1).map(|p| ctx.attr_kind(*p)) {
            Some(AttrKind::String { value, .. }) => std::str::from_utf8(value).ok(),
            _ => None,
        },
        _ => None,
    }
}

/// The `N` of `id = N`.
fn tag_id(text: &str) -> Option<u64> {
    let rest = text
        .trim()
        .strip_prefix("id")?
        .trim_start()
        .strip_prefix('=')?;
    rest.trim().trim_end_matches('>').trim().parse().ok()
}

/// The function and tag of a `block_addr` attribute's text.
fn target(text: &str) -> Option<(String, u64)> {
    let rest = text
        .trim()
        .strip_prefix("function")?
        .trim_start()
        .strip_prefix('=')?
        .trim_start();
    let rest = rest.strip_prefix('@')?;
    let (name, rest) = rest.split_once(',')?;
    let rest = rest
        .trim_start()
        .strip_prefix("tag")?
        .trim_start()
        .strip_prefix('=')?
        .trim_start();
    let inner = rest.strip_prefix('<')?;
    Some((name.trim().trim_matches('"').to_string(), tag_id(inner)?))
}

/// `<id = N>`
fn parse_tag(p: &mut AsmParser<'_, '_>) -> PResult<u64> {
    p.expect(Tok::Less, "'<'")?;
    p.expect_keyword("id")?;
    p.expect(Tok::Equal, "'='")?;
    let id = p.parse_u64()?;
    p.expect(Tok::Greater, "'>'")?;
    Ok(id)
}

fn create(
    p: &mut AsmParser<'_, '_>,
    name: &str,
    key: &str,
    value: Attr,
    operands: &[ValueId],
    results: &[silica_ir::Type],
) -> PResult<OpId> {
    let attrs = p.parse_optional_attr_dict()?;
    let loc = p.op_loc();
    let ctx = p.ctx();
    let k = ctx.sym(key);
    let props = ctx.dict_attr(vec![(k, value)]);
    let name = ctx.sym(name);
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands,
        result_types: results,
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    }))
}

fn parse_blocktag(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let id = parse_tag(p)?;
    let tag = raw_attr(p.ctx(), "blocktag", &format!("id = {id}"));
    create(p, "llvm.blocktag", "tag", tag, &[], &[])
}

fn print_blocktag(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let text = inherent_attr(ctx, ir, op, "tag")
        .and_then(|a| raw_text(ctx, a))
        .unwrap_or("")
        .to_string();
    p.write(&format!(" <{text}>"));
    p.attr_dict(ir.op_attrs(op), &[], false);
}

/// `<function = @f, tag = <id = N>> : !llvm.ptr`
fn parse_blockaddress(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    p.expect(Tok::Less, "'<'")?;
    p.expect_keyword("function")?;
    p.expect(Tok::Equal, "'='")?;
    let function = p.parse_symbol_name()?;
    p.expect(Tok::Comma, "','")?;
    p.expect_keyword("tag")?;
    p.expect(Tok::Equal, "'='")?;
    let id = parse_tag(p)?;
    p.expect(Tok::Greater, "'>'")?;
    let mut text = String::from("function = @");
    silica_ir::printer::keyword_or_string(&mut text, p.ctx().str(function));
    text.push_str(&format!(", tag = <id = {id}>"));
    let addr = raw_attr(p.ctx(), "blockaddress", &text);
    // The result type follows the attribute dictionary.
    let extra = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let ty = p.parse_type()?;
    let loc = p.op_loc();
    let ctx = p.ctx();
    let k = ctx.sym("block_addr");
    let props = ctx.dict_attr(vec![(k, addr)]);
    let op_name = ctx.sym("llvm.blockaddress");
    Ok(p.create_op(OpSpec {
        name: op_name,
        loc,
        operands: &[],
        result_types: &[ty],
        successors: &[],
        regions: &[],
        attrs: extra,
        props: Some(props),
    }))
}

fn print_blockaddress(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let text = inherent_attr(ctx, ir, op, "block_addr")
        .and_then(|a| raw_text(ctx, a))
        .unwrap_or("")
        .to_string();
    p.write(&format!(" <{text}>"));
    p.attr_dict(ir.op_attrs(op), &[], false);
    p.write(" : ");
    p.ty(ir.value_type(ir.result(op, 0)));
}

/// The `llvm.blocktag` ops of `func`, with their ids.
fn tags(ctx: &Context, ir: &Ir, func: OpId) -> Vec<(OpId, u64)> {
    let mut out = Vec::new();
    ir.walk(func, &mut |o| {
        if ctx.str(ir.op_name(o)) == "llvm.blocktag" {
            let id = inherent_attr(ctx, ir, o, "tag")
                .and_then(|a| raw_text(ctx, a))
                .and_then(tag_id);
            if let Some(id) = id {
                out.push((o, id));
            }
        }
    });
    out
}

/// A tag names one block of its function.
fn verify_blocktag(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let mut func = ir.parent_op(op);
    while let Some(f) = func.filter(|&f| ctx.str(ir.op_name(f)) != "llvm.func") {
        func = ir.parent_op(f);
    }
    let Some(func) = func else { return Ok(()) };
    let all = tags(ctx, ir, func);
    let Some(&(_, id)) = all.iter().find(|(o, _)| *o == op) else {
        return Ok(());
    };
    let first = all.iter().find(|(_, i)| *i == id).map(|(o, _)| *o);
    if first != Some(op) {
        return Err(v.op_error(
            op,
            format!("duplicate block tag '{id}' in the same function"),
        ));
    }
    Ok(())
}

/// The `llvm.func` named `name` in the module around `op`.
fn function_named(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<OpId> {
    let mut table = ir.parent_op(op);
    while let Some(t) = table.filter(|&t| ctx.str(ir.op_name(t)) != "builtin.module") {
        table = ir.parent_op(t);
    }
    silica_ir::symbols::lookup(ctx, ir, table?, name)
        .filter(|&f| ctx.str(ir.op_name(f)) == "llvm.func")
}

/// The address names an `llvm.func` with a block so tagged.
fn verify_blockaddress(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some((name, id)) = inherent_attr(ctx, ir, op, "block_addr")
        .and_then(|a| raw_text(ctx, a))
        .and_then(target)
    else {
        return Err(v.op_error(op, "requires attribute 'block_addr'"));
    };
    // MLIR gives one message whether the function or its tag is missing.
    let found = function_named(ctx, ir, op, &name)
        .is_some_and(|f| tags(ctx, ir, f).iter().any(|(_, t)| *t == id));
    if !found {
        return Err(v.op_error(
            op,
            "expects an existing block label target in the referenced function",
        ));
    }
    Ok(())
}

/// The function a `llvm.blockaddress` names (its name, as written, and
/// its op) and the block that the tag it names marks.
pub(crate) fn target_block(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
) -> Result<(String, OpId, BlockId), String> {
    let (name, id) = inherent_attr(ctx, ir, op, "block_addr")
        .and_then(|a| raw_text(ctx, a))
        .and_then(target)
        .ok_or("blockaddress without a target")?;
    let func = function_named(ctx, ir, op, &name).ok_or("blockaddress of an unknown function")?;
    let tag = tags(ctx, ir, func)
        .into_iter()
        .find(|(_, t)| *t == id)
        .map(|(o, _)| o)
        .ok_or("blockaddress of an unknown block tag")?;
    let block = ir.op_block(tag).ok_or("block tag outside a block")?;
    Ok((name, func, block))
}

/// `%addr : !llvm.ptr, [^bb1, ^bb2(%v : i32)]`
fn parse_indirectbr(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let addr = p.parse_operand()?;
    p.expect(Tok::Colon, "':'")?;
    let ty = p.parse_type()?;
    let addr = p.resolve_operand(addr, ty)?;
    p.expect(Tok::Comma, "','")?;
    p.expect(Tok::LSquare, "'['")?;
    let mut operands = vec![addr];
    let mut successors = Vec::new();
    let mut counts = Vec::new();
    if !p.eat(Tok::RSquare) {
        loop {
            let (dest, n) = parse_dest(p, &mut operands)?;
            successors.push(dest);
            counts.push(n);
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::RSquare, "']'")?;
    }
    let attrs = p.parse_optional_attr_dict()?;
    let loc = p.op_loc();
    let ctx = p.ctx();
    let segments = ctx.int_array_attr(32, &counts);
    let k = ctx.sym("indbr_operand_segments");
    let props = ctx.dict_attr(vec![(k, segments)]);
    let name = ctx.sym("llvm.indirectbr");
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[],
        successors: &successors,
        regions: &[],
        attrs,
        props: Some(props),
    }))
}

/// The operand counts of each destination.
fn dest_counts(ctx: &Context, ir: &Ir, op: OpId) -> Vec<usize> {
    inherent_attr(ctx, ir, op, "indbr_operand_segments")
        .and_then(|a| ctx.int_array_values(a))
        .map(|v| v.into_iter().map(|c| c.max(0) as usize).collect())
        .unwrap_or_default()
}

fn print_indirectbr(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let succs = ir.successors(op).to_vec();
    let counts = dest_counts(ctx, ir, op);
    p.write(" ");
    p.operand(operands[0]);
    p.write(" : ");
    p.ty(ir.value_type(operands[0]));
    p.write(", [");
    let mut at = 1;
    for (i, &dest) in succs.iter().enumerate() {
        let n = counts.get(i).copied().unwrap_or(0);
        let end = (at + n).min(operands.len());
        if i > 0 {
            p.write(",");
        }
        p.newline(0);
        p.successor_with_operands(dest, &operands[at..end]);
        at = end;
    }
    if !succs.is_empty() {
        p.newline(0);
    }
    p.write("]");
    p.attr_dict(ir.op_attrs(op), &[], false);
}

/// As many operand groups as destinations, adding up to the operands.
fn verify_indirectbr(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let counts = dest_counts(ctx, ir, op);
    let total: usize = counts.iter().sum();
    if counts.len() != ir.successors(op).len() || total + 1 != ir.num_operands(op) {
        return Err(v.op_error(op, "expects as many operand groups as destinations"));
    }
    Ok(())
}

fn successor_operands(ctx: &Context, ir: &Ir, op: OpId, succ: usize) -> std::ops::Range<usize> {
    let counts = dest_counts(ctx, ir, op);
    let start = 1 + counts[..succ.min(counts.len())].iter().sum::<usize>();
    start..start + counts.get(succ).copied().unwrap_or(0)
}

fn erase_successor_operand(ctx: &mut Context, ir: &mut Ir, op: OpId, succ: usize, j: usize) {
    let range = successor_operands(ctx, ir, op, succ);
    let mut operands: Vec<ValueId> = ir.operands(op).collect();
    operands.remove(range.start + j);
    ir.set_operands(op, &operands);
    let mut counts: Vec<i64> = dest_counts(ctx, ir, op).iter().map(|&c| c as i64).collect();
    if let Some(c) = counts.get_mut(succ) {
        *c -= 1;
    }
    let seg = ctx.int_array_attr(32, &counts);
    silica_ir::dialect::set_inherent_attr(ctx, ir, op, "indbr_operand_segments", seg);
}

static INDIRECTBR_BRANCH: BranchDef = BranchDef {
    successor_operands,
    erase_successor_operand,
};

/// `llvm.blocktag`, `llvm.blockaddress` and `llvm.indirectbr`.
pub(crate) static OPS: [OpDef; 3] = [
    OpDef {
        parse: Some(parse_blocktag),
        print: Some(print_blocktag),
        verify: Some(verify_blocktag),
        inherent_attrs: &["tag"],
        effects: Effects::Unknown,
        ..OpDef::new("llvm.blocktag")
    },
    OpDef {
        parse: Some(parse_blockaddress),
        print: Some(print_blockaddress),
        verify: Some(verify_blockaddress),
        inherent_attrs: &["block_addr"],
        effects: Effects::None,
        ..OpDef::new("llvm.blockaddress")
    },
    OpDef {
        traits: Traits::TERMINATOR,
        parse: Some(parse_indirectbr),
        print: Some(print_indirectbr),
        verify: Some(verify_indirectbr),
        inherent_attrs: &["indbr_operand_segments"],
        effects: Effects::None,
        branch: Some(&INDIRECTBR_BRANCH),
        ..OpDef::new("llvm.indirectbr")
    },
];
