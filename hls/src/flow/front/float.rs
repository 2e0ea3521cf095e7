//! Lifting floating-point ops: each `arith`/`math` float operation on
//! `f32`/`f64` becomes one [`Op::Float`] node computing on raw IEEE bits
//! (an instance of the operator's pipelined circuit, `crate::float`);
//! float constants become their bits and `arith.bitcast` a rename of the
//! bits. The operations keep their order and association as written (no
//! reassociation: it would change results).

use super::lift::{err, Lifter};
use super::signature::float_format;
use crate::float::{FloatOp, FloatPredicate, Format, Operator};
use crate::model::kernel::{Item, Op, Val, INDEX};
use silica_ir::dialect::inherent_attr;
use silica_ir::printer::type_to_string;
use silica_ir::{AttrKind, Diagnostic, OpId, Type, ValueId};

type Res<T> = Result<T, Box<Diagnostic>>;

impl Lifter<'_> {
    /// The node of float op `name`, or `None` when `name` is no float op.
    pub(super) fn lift_float(
        &mut self,
        op: OpId,
        name: &str,
        operands: &[ValueId],
        items: &mut Vec<Item>,
    ) -> Res<Option<Val>> {
        let float_op = match name {
            "arith.addf" => FloatOp::Add,
            "arith.subf" => FloatOp::Sub,
            "arith.mulf" => FloatOp::Mul,
            "arith.divf" => FloatOp::Div,
            "math.sqrt" => FloatOp::Sqrt,
            "math.fma" => FloatOp::Fma,
            "arith.negf" => FloatOp::Neg,
            "math.absf" => FloatOp::Abs,
            "arith.maximumf" => FloatOp::Max,
            "arith.minimumf" => FloatOp::Min,
            "arith.cmpf" => FloatOp::Cmp(self.float_predicate(op)?),
            "arith.extf" | "arith.truncf" => {
                let from = self.format_of(operands[0])?;
                let to = self.format_of(self.ir.result(op, 0))?;
                let operator = Operator::new(FloatOp::Convert { to }, from);
                return self.float_node(items, operator, operands).map(Some);
            }
            "arith.sitofp" | "arith.uitofp" => {
                let to = self.format_of(self.ir.result(op, 0))?;
                let int_bits = self.int_width(operands[0])?;
                let signed = name == "arith.sitofp";
                let operator = Operator::new(FloatOp::IntToFloat { signed, int_bits }, to);
                return self.float_node(items, operator, operands).map(Some);
            }
            "arith.fptosi" | "arith.fptoui" => {
                let from = self.format_of(operands[0])?;
                let int_bits = self.int_width(self.ir.result(op, 0))?;
                let signed = name == "arith.fptosi";
                let operator = Operator::new(FloatOp::FloatToInt { signed, int_bits }, from);
                return self.float_node(items, operator, operands).map(Some);
            }
            "arith.bitcast" => {
                let w = self.result_width(op)?;
                let a = self.val(operands[0])?;
                if self.k.width(a) != w {
                    return err(self.loc, "'arith.bitcast' between different widths");
                }
                return Ok(Some(a));
            }
            "math.exp" => FloatOp::Exp,
            "math.log" => FloatOp::Log,
            "math.powf" => FloatOp::Pow,
            _ => return Ok(None),
        };
        let format = self.format_of(operands[0])?;
        let operator = Operator::new(float_op, format);
        self.float_node(items, operator, operands).map(Some)
    }

    /// The bits of a float `arith.constant`, if `op` is one.
    pub(super) fn float_constant(&mut self, op: OpId) -> Option<Val> {
        let attr = inherent_attr(self.ctx, self.ir, op, "value")?;
        let AttrKind::Float { ty, bits } = *self.ctx.attr_kind(attr) else {
            return None;
        };
        let format = float_format(self.ctx, ty)?;
        Some(self.constant(bits as i128, format.width()))
    }

    /// A node of `operator` on `operands`.
    fn float_node(
        &mut self,
        items: &mut Vec<Item>,
        operator: Operator,
        operands: &[ValueId],
    ) -> Res<Val> {
        let expected = operator.operands();
        if operands.len() != expected.len() {
            return err(self.loc, format!("expected {} operand(s)", expected.len()));
        }
        let args = operands
            .iter()
            .map(|&v| self.val(v))
            .collect::<Res<Vec<_>>>()?;
        for (&a, &(_, w)) in args.iter().zip(&expected) {
            if self.k.width(a) != w {
                return err(self.loc, "operand width does not match the operation");
            }
        }
        Ok(self.node(items, Op::Float(operator), args, operator.result_width()))
    }

    /// The format of a float value.
    fn format_of(&self, v: ValueId) -> Res<Format> {
        let t: Type = self.ir.value_type(v);
        float_format(self.ctx, t).ok_or_else(|| {
            Box::new(Diagnostic::error(
                self.loc,
                format!(
                    "float type '{}' is not supported; silica hls computes f32 and f64",
                    type_to_string(self.ctx, t)
                ),
            ))
        })
    }

    /// The width of an integer value converted to or from a float.
    fn int_width(&self, v: ValueId) -> Res<u32> {
        match self.result_width_of(v)? {
            INDEX => err(
                self.loc,
                "conversions between index and floats need a cast to an integer",
            ),
            w => Ok(w),
        }
    }

    fn float_predicate(&self, op: OpId) -> Res<FloatPredicate> {
        let code = match inherent_attr(self.ctx, self.ir, op, "predicate")
            .map(|a| self.ctx.attr_kind(a))
        {
            Some(AttrKind::Integer { value, .. }) => i64::try_from(value).ok(),
            _ => None,
        };
        match code.and_then(FloatPredicate::from_code) {
            Some(p) => Ok(p),
            None => err(self.loc, "'arith.cmpf' without a predicate"),
        }
    }
}
