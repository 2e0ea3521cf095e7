//! The `cf` dialect: unstructured control flow (`cf.br`, `cf.cond_br`,
//! `cf.assert`) from declarative formats with successors and operand
//! segments, and the check that branches pass what their targets take.

mod patterns;

use silica_ir::dialect::{
    inherent_attr, set_inherent_attr, BranchDef, DialectDef, Effects, OpDef, Traits,
};
use silica_ir::format::{
    parse_op, print_op, segment_sizes, Arity, AttrParam, AttrSyntax, Signature, TypeConstraint,
    ValueParam, ANY_TYPE, SEGMENTS,
};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::{type_to_string, AsmPrinter};
use silica_ir::verify::OpVerifier;
use silica_ir::{
    Attr, AttrKind, BlockId, Context, Ir, OpId, OpSpec, Signedness, TypeKind, ValueId,
};

const I1: TypeConstraint = TypeConstraint {
    desc: "1-bit signless integer",
    check: |ctx, t| {
        matches!(
            ctx.type_kind(t),
            TypeKind::Integer {
                width: 1,
                signedness: Signedness::Signless
            }
        )
    },
    build: Some(|ctx| ctx.signless(1)),
};

const fn variadic(name: &'static str) -> ValueParam {
    ValueParam {
        name,
        arity: Arity::Variadic,
        constraint: ANY_TYPE,
    }
}

const CONDITION: ValueParam = ValueParam {
    name: "condition",
    arity: Arity::One,
    constraint: I1,
};

static BR_SIG: Signature = Signature::new(
    &[variadic("destOperands")],
    &[],
    &[],
    "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict",
)
.successors(&["dest"]);

static COND_BR_SIG: Signature = Signature::new(
    &[
        CONDITION,
        variadic("trueDestOperands"),
        variadic("falseDestOperands"),
    ],
    &[],
    &[AttrParam {
        name: "branch_weights",
        syntax: AttrSyntax::I32Array,
        optional: true,
        default: None,
    }],
    "$condition (`weights` `(` $branch_weights^ `)` )? `,` \
     $trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,` \
     $falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict",
)
.successors(&["trueDest", "falseDest"])
.segmented();

static ASSERT_SIG: Signature = Signature::new(
    &[ValueParam {
        name: "arg",
        arity: Arity::One,
        constraint: I1,
    }],
    &[],
    &[AttrParam {
        name: "msg",
        syntax: AttrSyntax::Plain,
        optional: false,
        default: None,
    }],
    "$arg `,` $msg attr-dict",
);

const fn op(name: &'static str, sig: &'static Signature) -> OpDef {
    OpDef {
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(sig),
        ..OpDef::new(name)
    }
}

static OPS: &[OpDef] = &[
    OpDef {
        traits: Traits::TERMINATOR,
        verify: Some(verify_branch),
        effects: Effects::None,
        branch: Some(&BRANCH),
        patterns: crate::cf::patterns::BR_PATTERNS,
        ..op("cf.br", &BR_SIG)
    },
    OpDef {
        traits: Traits::TERMINATOR,
        verify: Some(verify_branch),
        effects: Effects::None,
        branch: Some(&BRANCH),
        patterns: crate::cf::patterns::COND_BR_PATTERNS,
        ..op("cf.cond_br", &COND_BR_SIG)
    },
    OpDef {
        verify: Some(verify_assert),
        patterns: crate::cf::patterns::ASSERT_PATTERNS,
        ..op("cf.assert", &ASSERT_SIG)
    },
    OpDef {
        traits: Traits::TERMINATOR,
        inherent_attrs: &[
            "case_values",
            "case_operand_segments",
            "operandSegmentSizes",
        ],
        parse: Some(parse_switch),
        print: Some(print_switch),
        verify: Some(verify_switch),
        effects: Effects::None,
        branch: Some(&BRANCH),
        ..OpDef::new("cf.switch")
    },
];

/// `^bb(%a, %b : t1, t2)` or `^bb`: a successor and what it is passed.
fn parse_dest<'a>(
    p: &mut AsmParser<'_, 'a>,
    operands: &mut Vec<ValueId>,
) -> PResult<(BlockId, i64)> {
    let dest = p.parse_successor()?;
    if !p.eat(Tok::LParen) {
        return Ok((dest, 0));
    }
    let values = p.parse_typed_operand_list()?;
    p.expect(Tok::RParen, "')'")?;
    let n = values.len() as i64;
    operands.extend(values);
    Ok((dest, n))
}

/// `%flag : type, [ default: ^bb(...), 42: ^bb(...), ... ] attr-dict`
fn parse_switch(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let flag = p.parse_operand()?;
    p.expect(Tok::Colon, "':'")?;
    let flag_ty = p.parse_type()?;
    let flag = p.resolve_operand(flag, flag_ty)?;
    p.expect(Tok::Comma, "','")?;
    p.expect(Tok::LSquare, "'['")?;
    p.expect_keyword("default")?;
    p.expect(Tok::Colon, "':'")?;
    let mut operands = vec![flag];
    let (default, default_count) = parse_dest(p, &mut operands)?;
    let mut successors = vec![default];
    let mut values = Vec::new();
    let mut case_counts = Vec::new();
    while p.eat(Tok::Comma) {
        let at = p.pos();
        let negative = p.eat(Tok::Minus);
        if !p.peek(Tok::Integer) {
            return p.error_at(at, "expected integer value");
        }
        let v = p.parse_u64()? as i64;
        values.push(if negative { -v } else { v });
        p.expect(Tok::Colon, "':'")?;
        let (dest, n) = parse_dest(p, &mut operands)?;
        successors.push(dest);
        case_counts.push(n);
    }
    p.expect(Tok::RSquare, "']'")?;
    let attrs = p.parse_optional_attr_dict()?;
    let loc = p.op_loc();
    let ctx = p.ctx();
    let values: Vec<silica_ir::BigInt> = values.into_iter().map(Into::into).collect();
    let props = switch_properties(ctx, flag_ty, &values, default_count, &case_counts);
    let name = ctx.sym("cf.switch");
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

/// The properties of a switch (`cf.switch`, `llvm.switch`): operand
/// counts of the default destination and of each case, and the case
/// values as a dense vector of the flag's type (a splat when all equal).
pub fn switch_properties(
    ctx: &mut Context,
    flag_ty: silica_ir::Type,
    values: &[silica_ir::BigInt],
    default_count: i64,
    case_counts: &[i64],
) -> Attr {
    let case_total: i64 = case_counts.iter().sum();
    let mut props = vec![
        (
            ctx.sym("case_operand_segments"),
            ctx.int_array_attr(32, case_counts),
        ),
        (
            ctx.sym(SEGMENTS),
            ctx.int_array_attr(32, &[1, default_count, case_total]),
        ),
    ];
    if !values.is_empty() {
        let vec_ty = ctx.intern_type(TypeKind::Vector {
            shape: Box::new([values.len() as i64]),
            scalable: Box::new([false]),
            element: flag_ty,
        });
        let elems: Vec<Attr> = values
            .iter()
            .map(|v| ctx.int_attr(flag_ty, v.clone()))
            .collect();
        let elems = if elems.iter().all(|e| *e == elems[0]) {
            vec![elems[0]]
        } else {
            elems
        };
        let k = ctx.sym("case_values");
        let v = ctx.intern_attr(AttrKind::DenseElements {
            ty: vec_ty,
            values: elems.into(),
        });
        props.push((k, v));
    }
    ctx.dict_attr(props)
}

/// The case values of a switch, in order (signed).
pub fn switch_case_values(ctx: &Context, ir: &Ir, op: OpId) -> Vec<silica_ir::BigInt> {
    let Some(a) = inherent_attr(ctx, ir, op, "case_values") else {
        return Vec::new();
    };
    let AttrKind::DenseElements { ty, values } = ctx.attr_kind(a) else {
        return Vec::new();
    };
    let n = ctx
        .shaped(*ty)
        .and_then(|(s, _)| s)
        .map_or(values.len(), |s| s.iter().product::<i64>().max(0) as usize);
    (0..n)
        .filter_map(
            |i| match ctx.attr_kind(values[if values.len() == 1 { 0 } else { i }]) {
                AttrKind::Integer { value, .. } => Some(value.clone()),
                _ => None,
            },
        )
        .collect()
}

/// The case values of a `cf.switch` as MLIR prints them: zero-extended
/// to the flag's width (-7 : i64 as 2^64 - 7).
fn case_values(ctx: &Context, ir: &Ir, op: OpId) -> Vec<String> {
    let width = ir
        .operands(op)
        .next()
        .and_then(|flag| ctx.int_width(ir.value_type(flag)))
        .unwrap_or(64);
    let modulus = silica_ir::BigInt::from(1) << width;
    switch_case_values(ctx, ir, op)
        .into_iter()
        .map(|v| {
            if v.sign() == silica_ir::Sign::Minus {
                (v + &modulus).to_string()
            } else {
                v.to_string()
            }
        })
        .collect()
}

fn print_switch(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let succs = ir.successors(op).to_vec();
    let Some(&flag) = operands.first() else {
        return;
    };
    let default_count = segment_sizes(ctx, ir, op)
        .and_then(|s| s.get(1).copied())
        .unwrap_or(0);
    let case_counts = inherent_attr(ctx, ir, op, "case_operand_segments")
        .map(|a| array_values(ctx, a))
        .unwrap_or_default();
    let values = case_values(ctx, ir, op);
    p.write(" ");
    p.operand(flag);
    p.write(" : ");
    p.ty(ir.value_type(flag));
    p.write(", [");
    p.newline(2);
    p.write("default: ");
    let mut at = 1;
    let end = (at + default_count).min(operands.len());
    if let Some(&d) = succs.first() {
        p.successor_with_operands(d, &operands[at..end]);
    }
    at = end;
    for (i, value) in values.iter().enumerate() {
        p.write(",");
        p.newline(2);
        p.write(value);
        p.write(": ");
        let n = case_counts.get(i).copied().unwrap_or(0) as usize;
        let end = (at + n).min(operands.len());
        if let Some(&d) = succs.get(i + 1) {
            p.successor_with_operands(d, &operands[at..end]);
        }
        at = end;
    }
    if !values.is_empty() {
        p.newline(0);
    }
    p.write("]");
    let attrs = ir.op_attrs(op);
    p.attr_dict(attrs, &[], false);
}

/// Cases and successors correspond; each successor takes what it is given.
fn verify_switch(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let cases = case_values(ctx, ir, op).len();
    let n = ir.successors(op).len().saturating_sub(1);
    if cases != n {
        let msg = format!(
            "number of case values ({cases}) should match number of case destinations ({n})"
        );
        return Err(v.op_error(op, msg));
    }
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let default_count = segment_sizes(ctx, ir, op)
        .and_then(|s| s.get(1).copied())
        .unwrap_or(0);
    let mut groups = vec![operands.get(1..1 + default_count).unwrap_or(&[]).to_vec()];
    let mut at = 1 + default_count;
    if let Some(counts) = inherent_attr(ctx, ir, op, "case_operand_segments") {
        for c in array_values(ctx, counts) {
            let end = (at + c as usize).min(operands.len());
            groups.push(operands[at.min(end)..end].to_vec());
            at = end;
        }
    }
    check_successor_operands(v, op, &groups)
}

/// The operand counts forwarded to each successor of a branch op.
fn successor_counts(ctx: &Context, ir: &Ir, op: OpId) -> (usize, Vec<usize>) {
    let name = ctx.str(ir.op_name(op));
    match name {
        "cf.br" => (0, vec![ir.num_operands(op)]),
        "cf.cond_br" => {
            let seg = segment_sizes(ctx, ir, op).unwrap_or_default();
            (
                1,
                vec![
                    seg.get(1).copied().unwrap_or(0),
                    seg.get(2).copied().unwrap_or(0),
                ],
            )
        }
        _ => {
            let seg = segment_sizes(ctx, ir, op).unwrap_or_default();
            let mut counts = vec![seg.get(1).copied().unwrap_or(0)];
            if let Some(c) = inherent_attr(ctx, ir, op, "case_operand_segments") {
                counts.extend(array_values(ctx, c).into_iter().map(|v| v as usize));
            }
            (1, counts)
        }
    }
}

/// The operand positions that `op` passes to its successor `succ`.
pub fn successor_operands(ctx: &Context, ir: &Ir, op: OpId, succ: usize) -> std::ops::Range<usize> {
    let (first, counts) = successor_counts(ctx, ir, op);
    let start = first + counts[..succ.min(counts.len())].iter().sum::<usize>();
    start..start + counts.get(succ).copied().unwrap_or(0)
}

fn erase_successor_operand(ctx: &mut Context, ir: &mut Ir, op: OpId, succ: usize, j: usize) {
    let range = successor_operands(ctx, ir, op, succ);
    let (_, mut counts) = successor_counts(ctx, ir, op);
    counts[succ] -= 1;
    let mut operands: Vec<ValueId> = ir.operands(op).collect();
    operands.remove(range.start + j);
    ir.set_operands(op, &operands);
    let name = ctx.str(ir.op_name(op)).to_string();
    match name.as_str() {
        "cf.br" => {}
        "cf.cond_br" => {
            let seg = ctx.int_array_attr(32, &[1, counts[0] as i64, counts[1] as i64]);
            set_inherent_attr(ctx, ir, op, SEGMENTS, seg);
        }
        _ => {
            let cases: Vec<i64> = counts[1..].iter().map(|&c| c as i64).collect();
            let total: i64 = cases.iter().sum();
            let seg = ctx.int_array_attr(32, &[1, counts[0] as i64, total]);
            set_inherent_attr(ctx, ir, op, SEGMENTS, seg);
            let case_seg = ctx.int_array_attr(32, &cases);
            set_inherent_attr(ctx, ir, op, "case_operand_segments", case_seg);
        }
    }
}

static BRANCH: BranchDef = BranchDef {
    successor_operands,
    erase_successor_operand,
};

/// The `cf` dialect.
pub static CF: DialectDef = DialectDef {
    name: "cf",
    ops: OPS,
    attrs: None,
    types: None,
    materialize_constant: None,
};

/// The operands a branch forwards to each of its successors.
fn forwarded(v: &OpVerifier<'_, '_>, op: OpId) -> Vec<Vec<ValueId>> {
    let ir = v.ir();
    let operands: Vec<ValueId> = ir.operands(op).collect();
    if ir.successors(op).len() == 1 {
        return vec![operands];
    }
    let Some(sizes) = segment_sizes(v.ctx(), ir, op) else {
        return Vec::new();
    };
    let mut groups = Vec::new();
    let mut at = 0;
    for n in sizes {
        let end = (at + n).min(operands.len());
        groups.push(operands[at..end].to_vec());
        at = end;
    }
    // The first group is the condition.
    groups.into_iter().skip(1).collect()
}

/// The integers of a dense array attribute (none for anything else).
fn array_values(ctx: &silica_ir::Context, a: silica_ir::Attr) -> Vec<i64> {
    ctx.int_array_values(a).unwrap_or_default()
}

/// Branch weights, when given, are one per successor and not all zero;
/// successors take what they are given.
fn verify_branch(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    if let Some(w) = inherent_attr(v.ctx(), ir, op, "branch_weights") {
        let weights = array_values(v.ctx(), w);
        let n = ir.successors(op).len();
        if weights.len() != n {
            let msg = format!(
                "expects number of branch weights to match number of successors: {} vs {n}",
                weights.len()
            );
            return Err(v.op_error(op, msg));
        }
        if weights.iter().all(|w| *w == 0) {
            return Err(v.op_error(op, "branch weights cannot all be zero"));
        }
    }
    let groups = forwarded(v, op);
    check_successor_operands(v, op, &groups)
}

/// Each successor gets as many values, of the types, as it has arguments.
fn check_successor_operands(
    v: &mut OpVerifier<'_, '_>,
    op: OpId,
    groups: &[Vec<ValueId>],
) -> PResult<()> {
    let ir = v.ir();
    for (i, (&succ, values)) in ir.successors(op).iter().zip(groups).enumerate() {
        let args = ir.block_args(succ);
        if args.len() != values.len() {
            let msg = format!(
                "branch has {} operands for successor #{i}, but target block has {}",
                values.len(),
                args.len()
            );
            return Err(v.op_error(op, msg));
        }
        for (j, (&a, &x)) in args.iter().zip(values).enumerate() {
            let (ta, tx) = (ir.value_type(a), ir.value_type(x));
            if ta != tx {
                let msg = format!(
                    "type mismatch for bb argument #{j} of successor #{i}: '{}' vs '{}'",
                    type_to_string(v.ctx(), tx),
                    type_to_string(v.ctx(), ta)
                );
                return Err(v.op_error(op, msg));
            }
        }
    }
    Ok(())
}

fn verify_assert(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let msg = inherent_attr(v.ctx(), v.ir(), op, "msg");
    if !msg.is_some_and(|a| matches!(v.ctx().attr_kind(a), AttrKind::String { .. })) {
        return Err(v.op_error(
            op,
            "attribute 'msg' failed to satisfy constraint: string attribute",
        ));
    }
    Ok(())
}
