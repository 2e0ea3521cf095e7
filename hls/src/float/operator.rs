//! The operators: which IEEE operation in which format, their ports and
//! module names, and the datapath each one builds.

use super::add::build_add;
use super::builder::Builder;
use super::compare::{build_cmp, build_min_max, FloatPredicate};
use super::convert::{build_float_convert, build_float_to_int, build_int_to_float};
use super::divide::{build_div, build_sqrt};
use super::exp::build_exp;
use super::fma::build_fma;
use super::format::Format;
use super::log::build_log;
use super::mul::build_mul;
use super::pow::build_pow;
use super::sign::build_sign;
use silica_ir::ValueId;

/// An IEEE operation (the MLIR op it implements in brackets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FloatOp {
    /// `arith.addf`
    Add,
    /// `arith.subf`
    Sub,
    /// `arith.mulf`
    Mul,
    /// `arith.divf`
    Div,
    /// `math.sqrt`
    Sqrt,
    /// `math.fma` (`a × b + c`, rounded once)
    Fma,
    /// `arith.negf`
    Neg,
    /// `math.absf`
    Abs,
    /// `math.exp` (faithfully rounded, not bit-exact)
    Exp,
    /// `math.log` (faithfully rounded)
    Log,
    /// `math.powf` (faithfully rounded)
    Pow,
    /// `arith.maximumf`
    Max,
    /// `arith.minimumf`
    Min,
    /// `arith.cmpf` with a predicate
    Cmp(FloatPredicate),
    /// `arith.extf`/`arith.truncf` from the operator's format to `to`
    Convert { to: Format },
    /// `arith.sitofp` (`signed`) or `arith.uitofp` from `int_bits`-wide
    /// integers to the operator's format
    IntToFloat { signed: bool, int_bits: u32 },
    /// `arith.fptosi` (`signed`) or `arith.fptoui` from the operator's
    /// format to `int_bits`-wide integers
    FloatToInt { signed: bool, int_bits: u32 },
}

/// An operation in a format: what one operator module computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Operator {
    pub op: FloatOp,
    pub format: Format,
}

impl Operator {
    pub fn new(op: FloatOp, format: Format) -> Operator {
        Operator { op, format }
    }

    /// The operator a shared unit (`[limits]`) computes for this
    /// operation: a subtraction runs on an adder, its second operand's
    /// sign flipped (`a - b` is `a + (-b)` exactly in IEEE-754).
    pub fn shared_unit(self) -> Operator {
        match self.op {
            FloatOp::Sub => Operator::new(FloatOp::Add, self.format),
            _ => self,
        }
    }

    /// The operation's part of the module name (`fadd`, `fcmp_olt`).
    fn mnemonic(self) -> String {
        match self.op {
            FloatOp::Add => "fadd".into(),
            FloatOp::Sub => "fsub".into(),
            FloatOp::Mul => "fmul".into(),
            FloatOp::Div => "fdiv".into(),
            FloatOp::Sqrt => "fsqrt".into(),
            FloatOp::Fma => "fma".into(),
            FloatOp::Neg => "fneg".into(),
            FloatOp::Abs => "fabs".into(),
            FloatOp::Exp => "fexp".into(),
            FloatOp::Log => "flog".into(),
            FloatOp::Pow => "fpow".into(),
            FloatOp::Max => "fmaximum".into(),
            FloatOp::Min => "fminimum".into(),
            FloatOp::Cmp(p) => format!("fcmp_{}", p.name()),
            FloatOp::Convert { to } => {
                let kind = if to.width() > self.format.width() {
                    "extf"
                } else {
                    "truncf"
                };
                // The format after the mnemonic is the source; name the
                // destination here.
                format!("{kind}_to_{}_from", to.name())
            }
            FloatOp::IntToFloat { signed, int_bits } => {
                let kind = if signed { "sitofp" } else { "uitofp" };
                format!("{kind}_i{int_bits}_to")
            }
            FloatOp::FloatToInt { signed, int_bits } => {
                let kind = if signed { "fptosi" } else { "fptoui" };
                format!("{kind}_i{int_bits}_from")
            }
        }
    }

    /// The module's name at `latency`: `silica_<op>_<format>_l<latency>`
    /// (conversions name both sides: `silica_extf_to_f64_from_f32_l1`,
    /// `silica_sitofp_i32_to_f32_l2`, `silica_fptosi_i32_from_f32_l0`).
    pub fn module_name(self, latency: u32) -> String {
        format!(
            "silica_{}_{}_l{latency}",
            self.mnemonic(),
            self.format.name()
        )
    }

    /// The data input ports, by name and width (after `clock`).
    pub fn operands(self) -> Vec<(&'static str, u32)> {
        let w = self.format.width();
        match self.op {
            FloatOp::Neg
            | FloatOp::Abs
            | FloatOp::Sqrt
            | FloatOp::Exp
            | FloatOp::Log
            | FloatOp::Convert { .. }
            | FloatOp::FloatToInt { .. } => vec![("a", w)],
            FloatOp::Fma => vec![("a", w), ("b", w), ("c", w)],
            FloatOp::IntToFloat { int_bits, .. } => vec![("a", int_bits)],
            _ => vec![("a", w), ("b", w)],
        }
    }

    /// The width of the `result` port.
    pub fn result_width(self) -> u32 {
        match self.op {
            FloatOp::Cmp(_) => 1,
            FloatOp::Convert { to } => to.width(),
            FloatOp::FloatToInt { int_bits, .. } => int_bits,
            _ => self.format.width(),
        }
    }

    /// Whether the result is faithfully rounded (within one ulp of the
    /// exact value's floating-point neighbours) rather than correctly
    /// rounded: the transcendental functions.
    pub fn transcendental(self) -> bool {
        matches!(self.op, FloatOp::Exp | FloatOp::Log | FloatOp::Pow)
    }

    /// Whether the operator has logic worth pipelining (else latency 0
    /// is its only choice).
    pub fn pipelinable(self) -> bool {
        !matches!(
            self.op,
            FloatOp::Neg
                | FloatOp::Abs
                | FloatOp::Cmp(FloatPredicate::False | FloatPredicate::True)
        )
    }

    /// Builds the combinational datapath from the operand values.
    pub(super) fn build(self, b: &mut Builder<'_>, operands: &[ValueId]) -> ValueId {
        let fmt = self.format;
        let a = operands[0];
        let y = operands.get(1).copied().unwrap_or(a);
        let c = operands.get(2).copied().unwrap_or(a);
        match self.op {
            FloatOp::Add => build_add(b, fmt, a, y, false),
            FloatOp::Sub => build_add(b, fmt, a, y, true),
            FloatOp::Mul => build_mul(b, fmt, a, y),
            FloatOp::Div => build_div(b, fmt, a, y),
            FloatOp::Sqrt => build_sqrt(b, fmt, a),
            FloatOp::Fma => build_fma(b, fmt, a, y, c),
            FloatOp::Neg => build_sign(b, fmt, true, a),
            FloatOp::Abs => build_sign(b, fmt, false, a),
            FloatOp::Exp => build_exp(b, fmt, a),
            FloatOp::Log => build_log(b, fmt, a),
            FloatOp::Pow => build_pow(b, fmt, a, y),
            FloatOp::Max => build_min_max(b, fmt, true, a, y),
            FloatOp::Min => build_min_max(b, fmt, false, a, y),
            FloatOp::Cmp(p) => build_cmp(b, fmt, p, a, y),
            FloatOp::Convert { to } => build_float_convert(b, fmt, to, a),
            FloatOp::IntToFloat { signed, .. } => build_int_to_float(b, fmt, signed, a),
            FloatOp::FloatToInt { signed, int_bits } => {
                build_float_to_int(b, fmt, int_bits, signed, a)
            }
        }
    }
}
