//! Initial values: `seq.initial` (a region computing values fixed at
//! power-up, as `!seq.immutable` results), its terminator `seq.yield`,
//! and `seq.from_immutable`; and their evaluation, shared by the
//! simulator and the Verilog emitter, which both start a register with
//! an `initial` operand at that value.

use crate::eval::{eval_results, Bits};
use crate::types::{bit_width, immutable_inner};
use silica_ir::diag::Diagnostic;
use silica_ir::dialect::{Effects, OpDef, Traits};
use silica_ir::format::{parse_op, print_op, Arity, Signature, TypeConstraint, ValueParam};
use silica_ir::parser::PResult;
use silica_ir::verify::OpVerifier;
use silica_ir::{Context, Ir, OpId, ValueId};
use std::collections::HashMap;

const IMMUTABLE: TypeConstraint = TypeConstraint {
    desc: "an ImmutableType",
    check: |ctx, t| immutable_inner(ctx, t).is_some(),
    build: None,
};

const ANY: TypeConstraint = TypeConstraint {
    desc: "any type",
    check: |_, _| true,
    build: None,
};

static INITIAL: Signature = Signature::new(
    &[ValueParam {
        name: "inputs",
        arity: Arity::Variadic,
        constraint: IMMUTABLE,
    }],
    &[ValueParam {
        name: "results",
        arity: Arity::Variadic,
        constraint: IMMUTABLE,
    }],
    &[],
    "`(` $inputs `)` $body attr-dict `:` functional-type($inputs, results)",
)
.regions(&["body"]);

static YIELD: Signature = Signature::new(
    &[ValueParam {
        name: "operands",
        arity: Arity::Variadic,
        constraint: ANY,
    }],
    &[],
    &[],
    "attr-dict ($operands^ `:` type($operands))?",
);

static FROM_IMMUTABLE: Signature = Signature::new(
    &[ValueParam {
        name: "input",
        arity: Arity::One,
        constraint: IMMUTABLE,
    }],
    &[ValueParam {
        name: "output",
        arity: Arity::One,
        constraint: ANY,
    }],
    &[],
    "$input attr-dict `:` functional-type(operands, results)",
);

/// The body's entry arguments are the inputs' inner types; the yield
/// gives the results' inner types.
fn verify_initial(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(block) = ir.regions(op).next().and_then(|r| ir.entry_block(r)) else {
        return Err(v.op_error(op, "requires a body"));
    };
    let inputs: Vec<_> = ir
        .operands(op)
        .map(|x| immutable_inner(ctx, ir.value_type(x)))
        .collect();
    let args: Vec<_> = ir
        .block_args(block)
        .iter()
        .map(|&a| Some(ir.value_type(a)))
        .collect();
    if inputs != args {
        return Err(v.op_error(
            op,
            "entry block arguments must be the inputs' immutable types",
        ));
    }
    let Some(term) = ir.block_ops(block).last() else {
        return Err(v.op_error(op, "requires a 'seq.yield' terminator"));
    };
    let yielded: Vec<ValueId> = ir.operands(term).collect();
    let results: Vec<ValueId> = ir.results(op).collect();
    if yielded.len() != results.len() {
        return Err(v.op_error(op, "result type doesn't match with the terminator"));
    }
    for (&y, &r) in yielded.iter().zip(&results) {
        let want = immutable_inner(ctx, ir.value_type(r));
        let got = ir.value_type(y);
        if want != Some(got) {
            let show = |t| silica_ir::printer::type_to_string(ctx, t);
            let want = want.map_or_else(|| "?".into(), show);
            return Err(v.op_error(op, format!("'{want}' is expected but got '{}'", show(got))));
        }
    }
    Ok(())
}

fn verify_from_immutable(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let inner = ir
        .operands(op)
        .next()
        .and_then(|x| immutable_inner(ctx, ir.value_type(x)));
    if inner != ir.results(op).next().map(|r| ir.value_type(r)) {
        return Err(v.op_error(op, "result must be the input's inner type"));
    }
    Ok(())
}

/// `seq.initial`, `seq.yield` and `seq.from_immutable`.
pub(crate) const OPS: [OpDef; 3] = [
    OpDef {
        traits: Traits::ISOLATED_FROM_ABOVE.with(Traits::SINGLE_BLOCK),
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(&INITIAL),
        verify: Some(verify_initial),
        effects: Effects::Recursive,
        ..OpDef::new("seq.initial")
    },
    OpDef {
        traits: Traits::TERMINATOR.with(Traits::RETURN_LIKE),
        parents: &["seq.initial"],
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(&YIELD),
        effects: Effects::None,
        ..OpDef::new("seq.yield")
    },
    OpDef {
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(&FROM_IMMUTABLE),
        verify: Some(verify_from_immutable),
        effects: Effects::None,
        ..OpDef::new("seq.from_immutable")
    },
];

/// The values of every `seq.initial` result and `seq.from_immutable`
/// in `module`'s body, by evaluating the initial regions (constants and
/// comb ops) in op order.
pub fn initial_values(
    ctx: &Context,
    ir: &Ir,
    module: OpId,
) -> Result<HashMap<ValueId, Bits>, Box<Diagnostic>> {
    let mut values: HashMap<ValueId, Bits> = HashMap::new();
    let Some(block) = ir.regions(module).next().and_then(|r| ir.entry_block(r)) else {
        return Ok(values);
    };
    for op in ir.block_ops(block) {
        match ctx.str(ir.op_name(op)) {
            "seq.initial" => {
                let Some(body) = ir.regions(op).next().and_then(|r| ir.entry_block(r)) else {
                    continue;
                };
                let mut local: HashMap<ValueId, Bits> = HashMap::new();
                for (&arg, input) in ir.block_args(body).iter().zip(ir.operands(op)) {
                    let v = values.get(&input).cloned().ok_or_else(|| {
                        Box::new(Diagnostic::error(
                            ir.op_loc(op),
                            "an initial value's input must be defined before it",
                        ))
                    })?;
                    local.insert(arg, v);
                }
                for inner in ir.block_ops(body) {
                    let args: Vec<Bits> = ir
                        .operands(inner)
                        .map(|x| {
                            local.get(&x).cloned().unwrap_or_else(|| {
                                let w = bit_width(ctx, ir.value_type(x)).unwrap_or(0);
                                Bits::zero(w as u32)
                            })
                        })
                        .collect();
                    if ctx.str(ir.op_name(inner)) == "seq.yield" {
                        for (r, v) in ir.results(op).zip(args) {
                            values.insert(r, v);
                        }
                        break;
                    }
                    for (r, v) in ir.results(inner).zip(eval_results(ctx, ir, inner, &args)?) {
                        local.insert(r, v);
                    }
                }
            }
            "seq.from_immutable" => {
                if let (Some(x), Some(r)) = (ir.operands(op).next(), ir.results(op).next()) {
                    if let Some(v) = values.get(&x).cloned() {
                        values.insert(r, v);
                    }
                }
            }
            _ => {}
        }
    }
    Ok(values)
}
