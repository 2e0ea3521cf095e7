//! IEEE-754 operator circuits for HLS: generators that build, into a
//! design, one `hw.module` per operator, format and pipeline latency,
//! out of comb ops and `seq.compreg` pipeline registers (no Verilog
//! text), bit-exact with the host's floating point: round to nearest
//! even, subnormals in and out, infinities, signed zeros; a NaN result
//! is the canonical quiet NaN (payloads are not propagated). The
//! transcendental functions (`fexp`, `flog`, `fpow`) are faithfully
//! rounded instead: within 1 ulp of the host's libm
//! ([`Operator::transcendental`]).
//!
//! # Port contract
//!
//! `hw.module @silica_<op>_<format>_l<L>` (e.g. `silica_fadd_f32_l3`,
//! `silica_fcmp_olt_f32_l0`; [`Operator::module_name`]) has the ports,
//! in this order:
//! - `clock : !seq.clock`, only when `L > 0`;
//! - the operands `a`, `b` (one for `fneg`/`fabs`/`fsqrt`, three,
//!   `a`, `b`, `c`, for `fma`), raw IEEE bits as `iW` (`i32` for `f32`,
//!   `i64` for `f64`);
//! - `result`: raw IEEE bits (`i1` for comparisons).
//!
//! With `L = 0` the module is combinational. With `L > 0` the operands
//! are sampled at every rising edge and the result of the operands
//! applied in cycle `t` is on `result` during cycle `t + L` (a fully
//! pipelined unit: one new operation per cycle, no handshake, no enable,
//! no reset; the result during the first `L` cycles after power-up is
//! that of zero operands stalled in the registers, meaningless).
//!
//! # Instantiating (for the HLS flow)
//!
//! Call [`operator_module`] with the design's `builtin.module` once per
//! operator, format and chosen latency (it returns the existing module
//! when the design has it), then instantiate it where the op is
//! scheduled:
//! `%r = hw.instance "mul0" @silica_fmul_f32_l2(clock: %clock: !seq.clock,
//! a: %x: i32, b: %y: i32) -> (result: i32)`. Float values travel as
//! their bits (`arith.bitcast` semantics). The scheduler picks `L` with
//! [`latency_choices`] or [`choose_latency`] for the clock target: each
//! choice carries estimated per-stage delays ([`delay`]), the first stage
//! starting at the operands (which may be chained after other logic) and
//! the last ending at `result`.

mod add;
mod builder;
mod compare;
mod constants;
mod convert;
pub mod delay;
mod divide;
mod exp;
mod fixed;
mod fma;
mod format;
mod latency;
mod log;
mod module;
mod mul;
mod normalize;
mod operator;
mod pipeline;
mod pow;
mod round;
mod sign;
mod unpack;

pub use compare::FloatPredicate;
pub use format::Format;
pub use latency::{choose_latency, choose_scaled, latency_choices, stage_delay_ns, LatencyChoice};
pub use module::{build_module, operator_module};
pub use operator::{FloatOp, Operator};
pub use pipeline::Plan;
