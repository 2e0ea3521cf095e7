//! The `math` dialect: elementary functions on floats and integers, each
//! op one declarative definition (fast-math flags are `arith`'s).

use crate::arith::{flags, infer_bool_like, one, BOOL_LIKE, FLOAT_LIKE, INT_LIKE, NO_FASTMATH};
use silica_ir::dialect::{DialectDef, Effects, OpDef};
use silica_ir::format::{parse_op, print_op, AttrParam, Signature};

const FASTMATH: &[AttrParam] = &[flags("fastmath", "fastmath", NO_FASTMATH)];

static UNARY_FLOAT: Signature = Signature::new(
    &[one("operand", FLOAT_LIKE)],
    &[one("result", FLOAT_LIKE)],
    FASTMATH,
    "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
)
.same_types(&[&["operand", "result"]]);

static BINARY_FLOAT: Signature = Signature::new(
    &[one("lhs", FLOAT_LIKE), one("rhs", FLOAT_LIKE)],
    &[one("result", FLOAT_LIKE)],
    FASTMATH,
    "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
)
.same_types(&[&["lhs", "rhs", "result"]]);

static FMA: Signature = Signature::new(
    &[
        one("a", FLOAT_LIKE),
        one("b", FLOAT_LIKE),
        one("c", FLOAT_LIKE),
    ],
    &[one("result", FLOAT_LIKE)],
    FASTMATH,
    "$a `,` $b `,` $c (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
)
.same_types(&[&["a", "b", "c", "result"]]);

static CLAMPF: Signature = Signature::new(
    &[
        one("value", FLOAT_LIKE),
        one("min", FLOAT_LIKE),
        one("max", FLOAT_LIKE),
    ],
    &[one("result", FLOAT_LIKE)],
    FASTMATH,
    "$value `to` ` ` `[` $min `,` $max `]` (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
)
.same_types(&[&["value", "min", "max", "result"]]);

static SINCOS: Signature = Signature::new(
    &[one("operand", FLOAT_LIKE)],
    &[one("sin", FLOAT_LIKE), one("cos", FLOAT_LIKE)],
    FASTMATH,
    "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($operand)",
)
.same_types(&[&["operand", "sin", "cos"]]);

static FPOWI: Signature = Signature::new(
    &[one("lhs", FLOAT_LIKE), one("rhs", INT_LIKE)],
    &[one("result", FLOAT_LIKE)],
    FASTMATH,
    "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs) `,` type($rhs)",
)
.same_types(&[&["lhs", "result"]]);

static UNARY_INT: Signature = Signature::new(
    &[one("operand", INT_LIKE)],
    &[one("result", INT_LIKE)],
    &[],
    "$operand attr-dict `:` type($result)",
)
.same_types(&[&["operand", "result"]]);

static IPOWI: Signature = Signature::new(
    &[one("lhs", INT_LIKE), one("rhs", INT_LIKE)],
    &[one("result", INT_LIKE)],
    &[],
    "$lhs `,` $rhs attr-dict `:` type($result)",
)
.same_types(&[&["lhs", "rhs", "result"]]);

static CLASSIFY: Signature = Signature::new(
    &[one("operand", FLOAT_LIKE)],
    &[one("result", BOOL_LIKE)],
    FASTMATH,
    "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($operand)",
)
.infer(infer_bool_like);

const fn op(name: &'static str, sig: &'static Signature) -> OpDef {
    OpDef {
        effects: Effects::None,
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(sig),
        ..OpDef::new(name)
    }
}

static OPS: &[OpDef] = &[
    op("math.absf", &UNARY_FLOAT),
    op("math.acos", &UNARY_FLOAT),
    op("math.acosh", &UNARY_FLOAT),
    op("math.asin", &UNARY_FLOAT),
    op("math.asinh", &UNARY_FLOAT),
    op("math.atan", &UNARY_FLOAT),
    op("math.atanh", &UNARY_FLOAT),
    op("math.cbrt", &UNARY_FLOAT),
    op("math.ceil", &UNARY_FLOAT),
    op("math.cos", &UNARY_FLOAT),
    op("math.cosh", &UNARY_FLOAT),
    op("math.erf", &UNARY_FLOAT),
    op("math.erfc", &UNARY_FLOAT),
    op("math.exp", &UNARY_FLOAT),
    op("math.exp2", &UNARY_FLOAT),
    op("math.expm1", &UNARY_FLOAT),
    op("math.floor", &UNARY_FLOAT),
    op("math.log", &UNARY_FLOAT),
    op("math.log10", &UNARY_FLOAT),
    op("math.log1p", &UNARY_FLOAT),
    op("math.log2", &UNARY_FLOAT),
    op("math.round", &UNARY_FLOAT),
    op("math.roundeven", &UNARY_FLOAT),
    op("math.rsqrt", &UNARY_FLOAT),
    op("math.sin", &UNARY_FLOAT),
    op("math.sinh", &UNARY_FLOAT),
    op("math.sqrt", &UNARY_FLOAT),
    op("math.tan", &UNARY_FLOAT),
    op("math.tanh", &UNARY_FLOAT),
    op("math.trunc", &UNARY_FLOAT),
    op("math.atan2", &BINARY_FLOAT),
    op("math.copysign", &BINARY_FLOAT),
    op("math.powf", &BINARY_FLOAT),
    op("math.fma", &FMA),
    op("math.clampf", &CLAMPF),
    op("math.sincos", &SINCOS),
    op("math.fpowi", &FPOWI),
    op("math.absi", &UNARY_INT),
    op("math.ctlz", &UNARY_INT),
    op("math.cttz", &UNARY_INT),
    op("math.ctpop", &UNARY_INT),
    op("math.ipowi", &IPOWI),
    op("math.isfinite", &CLASSIFY),
    op("math.isinf", &CLASSIFY),
    op("math.isnan", &CLASSIFY),
    op("math.isnormal", &CLASSIFY),
];

/// The `math` dialect.
pub static MATH: DialectDef = DialectDef {
    name: "math",
    ops: OPS,
    attrs: None,
    types: None,
    materialize_constant: None,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_is_well_formed() {
        for op in MATH.ops {
            let sig = op.signature.expect("math ops are declarative");
            if let Err(e) = sig.parsed_format() {
                panic!("{}: {e}", op.name);
            }
        }
    }
}
