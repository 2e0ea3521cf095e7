//! Shared by the float operator tests: a context with the circuit
//! dialects, a generated operator module driven in silica's simulator
//! (combinational, or pipelined with results checked `latency` cycles
//! later), operand generators that favour the hard cases, and
//! comparison with the host's IEEE arithmetic (NaN equals any NaN).

#![allow(dead_code)]

use silica_hls::float::{operator_module, Operator};
use silica_hw_dialects::eval::Bits;
use silica_hw_dialects::sim::ModuleSim;
use silica_ir::parser::{parse, ParseOptions};
use silica_ir::{Context, Ir, OpId};

/// A context with hw, comb and seq.
pub fn context() -> Context {
    let mut ctx = Context::new();
    silica_hw_dialects::register(&mut ctx);
    ctx
}

/// A design holding the generated module of `operator` at `latency`.
pub struct Design {
    pub ctx: Context,
    pub ir: Ir,
    pub top: OpId,
    pub module: OpId,
}

pub fn design(operator: Operator, latency: u32) -> Design {
    let mut ctx = context();
    let parsed = parse(&mut ctx, "top.mlir", b"module {}", ParseOptions::default()).unwrap();
    let (mut ir, top) = (parsed.ir, parsed.top);
    let module = operator_module(&mut ctx, &mut ir, top, operator, latency).unwrap();
    silica_ir::verify::verify(&mut ctx, &ir, top, Default::default()).unwrap();
    Design {
        ctx,
        ir,
        top,
        module,
    }
}

/// `n` scaled by `SILICA_FLOAT_CASES` (a multiplier, default 1): the
/// default keeps the suite quick; a larger factor runs a deeper check.
pub fn cases(n: usize) -> usize {
    let factor = std::env::var("SILICA_FLOAT_CASES")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(1);
    n * factor
}

/// splitmix64.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A binary format's layout, for generating operands.
#[derive(Clone, Copy)]
pub struct Layout {
    pub exp_bits: u32,
    pub man_bits: u32,
}

pub const F32: Layout = Layout {
    exp_bits: 8,
    man_bits: 23,
};
pub const F64: Layout = Layout {
    exp_bits: 11,
    man_bits: 52,
};

impl Layout {
    pub fn width(self) -> u32 {
        1 + self.exp_bits + self.man_bits
    }

    fn max_exp(self) -> u64 {
        (1 << self.exp_bits) - 1
    }

    fn frac_mask(self) -> u64 {
        (1 << self.man_bits) - 1
    }

    pub fn pack(self, sign: u64, exp: u64, frac: u64) -> u64 {
        (sign << (self.width() - 1)) | (exp << self.man_bits) | (frac & self.frac_mask())
    }

    pub fn exp_of(self, x: u64) -> u64 {
        (x >> self.man_bits) & self.max_exp()
    }

    /// Zeros, subnormals, extreme normals, ones, infinities, NaNs.
    pub fn specials(self) -> Vec<u64> {
        let (m, e) = (self.frac_mask(), self.max_exp());
        let bias = e / 2;
        let mut v = Vec::new();
        for sign in 0..2 {
            for (exp, frac) in [
                (0, 0),
                (0, 1),
                (0, 2),
                (0, m),
                (0, 1 << (self.man_bits - 1)),
                (1, 0),
                (1, 1),
                (e - 1, m),
                (e - 1, 0),
                (bias, 0),
                (bias, 1),
                (bias, m),
                (bias - 1, m),
                (bias + 1, 1 << (self.man_bits - 1)),
                (e, 0),
                (e, 1 << (self.man_bits - 1)),
                (e, 1),
            ] {
                v.push(self.pack(sign, exp, frac));
            }
        }
        v
    }

    /// A random fraction, often with trailing zeros (exact ties).
    fn fraction(self, rng: &mut Rng) -> u64 {
        let f = rng.next() & self.frac_mask();
        match rng.below(4) {
            0 => f & !((1u64 << rng.below(u64::from(self.man_bits) + 1)) - 1),
            1 => f | ((1u64 << rng.below(u64::from(self.man_bits) + 1)) - 1),
            _ => f,
        }
    }

    /// A random operand: any bits, or near `near`'s exponent
    /// (cancellation and alignment), or subnormal, or a special.
    pub fn operand(self, rng: &mut Rng, near: Option<u64>) -> u64 {
        let sign = rng.below(2);
        let e = self.max_exp();
        match rng.below(10) {
            0 | 1 => rng.next() & ((1u128 << self.width()) - 1) as u64,
            2 => self.pack(sign, 0, self.fraction(rng)),
            3 => {
                let s = self.specials();
                s[rng.below(s.len() as u64) as usize]
            }
            4 => {
                // Products near overflow or underflow.
                let exp = if rng.below(2) == 0 {
                    e / 2 + e / 4 + rng.below(e / 4 + 1)
                } else {
                    rng.below(e / 4 + 1) + e / 8
                };
                self.pack(sign, exp.min(e - 1), self.fraction(rng))
            }
            _ => {
                let base = near.map_or_else(|| rng.below(e), |x| self.exp_of(x));
                let spread = u64::from(self.man_bits) + 4;
                let offset = rng.below(2 * spread + 1) as i64 - spread as i64;
                let exp = (base as i64 + offset).clamp(0, e as i64 - 1) as u64;
                self.pack(sign, exp, self.fraction(rng))
            }
        }
    }
}

/// Drives a combinational operator module case by case.
pub struct Comb<'d> {
    design: &'d Design,
    sim: ModuleSim,
    widths: Vec<u32>,
}

impl<'d> Comb<'d> {
    pub fn new(design: &'d Design, widths: &[u32]) -> Self {
        let sim = ModuleSim::new(&design.ctx, &design.ir, design.module).unwrap();
        Comb {
            design,
            sim,
            widths: widths.to_vec(),
        }
    }

    pub fn eval(&mut self, operands: &[u64]) -> u64 {
        let inputs: Vec<Bits> = operands
            .iter()
            .zip(&self.widths)
            .map(|(&v, &w)| Bits::from_u64(w, v))
            .collect();
        let out = self
            .sim
            .eval(&self.design.ctx, &self.design.ir, &inputs)
            .unwrap();
        u64::try_from(out[0].value()).unwrap()
    }
}

/// Feeds one operand set per cycle to a pipelined module and returns the
/// result of each set, read `latency` cycles after it was applied.
pub fn run_pipelined(
    design: &Design,
    widths: &[u32],
    latency: u32,
    cases: &[Vec<u64>],
) -> Vec<u64> {
    let (ctx, ir) = (&design.ctx, &design.ir);
    let mut sim = ModuleSim::new(ctx, ir, design.module).unwrap();
    let mut results = Vec::new();
    let total = cases.len() + latency as usize;
    for cycle in 0..total {
        let mut inputs = vec![Bits::from_u64(1, 0)];
        let operands = cases.get(cycle).or(cases.last()).unwrap();
        inputs.extend(
            operands
                .iter()
                .zip(widths)
                .map(|(&v, &w)| Bits::from_u64(w, v)),
        );
        let out = sim.eval(ctx, ir, &inputs).unwrap();
        if cycle >= latency as usize {
            results.push(u64::try_from(out[0].value()).unwrap());
        }
        sim.step(ctx, ir);
    }
    results
}

/// Whether the bits `got` match the expected `want` of `layout` (any NaN
/// matches any NaN).
pub fn same_float(layout: Layout, got: u64, want: u64) -> bool {
    let nan = |x: u64| {
        layout.exp_of(x) == (1 << layout.exp_bits) - 1 && x & ((1 << layout.man_bits) - 1) != 0
    };
    got == want || (nan(got) && nan(want))
}
