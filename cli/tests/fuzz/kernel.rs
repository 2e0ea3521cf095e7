//! Random affine kernels for differential fuzzing of `silica hls`: a
//! seeded generator of loop nests (depth 1 to 3) over memories of 1- to
//! 64-bit elements, with mixed arithmetic, reductions over `iter_args`,
//! read-modify-writes at data-dependent addresses, guards (`scf.if` on
//! data, `affine.if` on the loop counters) and random directives
//! (pipelining, unrolling, ports, an on-chip copy of the table, dataflow
//! between the nest and a second one that reads what it wrote). Every kernel is defined
//! for every input: shift amounts are masked below the width, divisors
//! are made positive, data-dependent addresses are masked into their
//! memory. A kernel is a list of statements, so that a failing one can
//! be minimised by leaving statements and directives out.

use std::fmt::Write;

/// A generated kernel: its shape and statements, printed by
/// [`Kernel::text`] with any of its parts left out.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// The loop trip counts, outermost first.
    trips: Vec<u64>,
    /// The element width of the input, output and table memories.
    widths: [u32; 3],
    /// The width the statements compute at.
    compute: u32,
    /// Table entries (a power of two), read and written at data-dependent
    /// addresses.
    table: u64,
    /// The statements of the innermost body.
    pub statements: Vec<Statement>,
    /// The directives, each one that may be left out.
    pub directives: Vec<Directive>,
    /// A second nest of the same loops after the first, storing this
    /// expression over what the first wrote (`%out` read as the input)
    /// to `%res`.
    pub chained: Option<Expr>,
}

/// One statement of the innermost loop body.
#[derive(Clone, Debug)]
pub enum Statement {
    /// `out[ivs] = e`.
    Store(Expr),
    /// `out[ivs] = e` where a comparison of two expressions holds.
    Guarded(Expr, Expr, Expr),
    /// `out[ivs] = e` on the iterations an affine condition selects.
    AffineGuarded(u64, Expr),
    /// `table[a & mask] += e`.
    Update(Expr, Expr),
    /// The sum of `e` over the innermost loop, stored at the outer
    /// counters (the first statement of a nest of depth two or more).
    Reduce(Expr),
}

/// A directive of the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Directive {
    /// `hls.pipeline = II` on the innermost loop.
    Pipeline(u32),
    /// `hls.unroll = F` on the innermost loop.
    Unroll(u64),
    /// `hls.ports = 2` on the input memory.
    Ports,
    /// `hls.buffer = true` on the table: the kernel works on an on-chip
    /// copy of it.
    Buffer,
    /// `hls.dataflow = true` on the function: the nests run at once.
    Dataflow,
}

/// An expression over the loaded values, the scalar argument, constants
/// and the loop counters.
#[derive(Clone, Debug)]
pub enum Expr {
    /// The input memory at the loop counters, or shifted by one along
    /// the innermost (wrapping at its end).
    Input(bool),
    /// The scalar argument.
    Scalar,
    /// The innermost loop counter.
    Counter,
    Constant(i64),
    Binary(Binary, Box<Expr>, Box<Expr>),
    /// `select(a < b, c, d)`, signed or unsigned.
    Select(bool, Box<Expr>, Box<Expr>, Box<Expr>, Box<Expr>),
    /// Through a narrower width and back (truncated, then extended signed or not).
    Narrow(u32, bool, Box<Expr>),
}

/// The binary operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binary {
    Add,
    Sub,
    Mul,
    And,
    Or,
    Xor,
    Shl,
    ShrU,
    ShrS,
    DivU,
    RemU,
    DivS,
    MinS,
    MaxU,
}

const BINARIES: [Binary; 14] = [
    Binary::Add,
    Binary::Sub,
    Binary::Mul,
    Binary::And,
    Binary::Or,
    Binary::Xor,
    Binary::Shl,
    Binary::ShrU,
    Binary::ShrS,
    Binary::DivU,
    Binary::RemU,
    Binary::DivS,
    Binary::MinS,
    Binary::MaxU,
];

const WIDTHS: [u32; 12] = [1, 2, 3, 5, 8, 12, 16, 17, 24, 32, 33, 64];

impl Kernel {
    /// The kernel of `seed`.
    pub fn generate(seed: u64) -> Kernel {
        let mut rng = fastrand::Rng::with_seed(seed);
        let depth = rng.usize(1..=3);
        let trips: Vec<u64> = (0..depth)
            .map(|_| *pick(&mut rng, &[2, 3, 4, 5, 8]))
            .collect();
        let widths = [0; 3].map(|_| *pick(&mut rng, &WIDTHS));
        let compute = *pick(&mut rng, &WIDTHS[1..]);
        let mut k = Kernel {
            trips,
            widths,
            compute,
            table: *pick(&mut rng, &[2, 4, 8, 16]),
            statements: Vec::new(),
            directives: Vec::new(),
            chained: None,
        };
        if depth >= 2 && rng.bool() {
            k.statements.push(Statement::Reduce(expr(&mut rng, 2)));
        }
        for _ in 0..rng.usize(1..=3) {
            let s = match rng.u32(0..8) {
                0..=2 => Statement::Store(expr(&mut rng, 3)),
                3 => Statement::Guarded(expr(&mut rng, 1), expr(&mut rng, 1), expr(&mut rng, 2)),
                4 => Statement::AffineGuarded(
                    rng.u64(0..*k.trips.last().unwrap_or(&1)),
                    expr(&mut rng, 2),
                ),
                _ => Statement::Update(expr(&mut rng, 1), expr(&mut rng, 2)),
            };
            k.statements.push(s);
        }
        if rng.u32(0..4) != 0 {
            k.directives.push(Directive::Pipeline(rng.u32(1..=2)));
        }
        let inner = *k.trips.last().unwrap_or(&1);
        if inner.is_multiple_of(2) && rng.u32(0..3) == 0 {
            k.directives.push(Directive::Unroll(2));
        }
        if rng.u32(0..3) == 0 {
            k.directives.push(Directive::Ports);
        }
        if rng.u32(0..3) == 0 {
            k.directives.push(Directive::Buffer);
        }
        if rng.u32(0..3) == 0 {
            k.chained = Some(expr(&mut rng, 2));
            if rng.bool() {
                k.directives.push(Directive::Dataflow);
            }
        }
        k
    }

    /// The kernel's MLIR: a function `@k` over the input memory `%in`,
    /// the output `%out`, the table `%tab`, a scalar `%s` and, with a
    /// second nest, its output `%res`.
    pub fn text(&self) -> String {
        let mut p = Printer::new(self);
        p.function();
        p.out
    }
}

fn pick<'a, T>(rng: &mut fastrand::Rng, items: &'a [T]) -> &'a T {
    &items[rng.usize(0..items.len())]
}

fn expr(rng: &mut fastrand::Rng, depth: u32) -> Expr {
    if depth == 0 || rng.u32(0..4) == 0 {
        return match rng.u32(0..6) {
            0 | 1 => Expr::Input(false),
            2 => Expr::Input(true),
            3 => Expr::Scalar,
            4 => Expr::Counter,
            _ => Expr::Constant(rng.i64(-300..300)),
        };
    }
    let sub = |rng: &mut fastrand::Rng| Box::new(expr(rng, depth - 1));
    match rng.u32(0..10) {
        0 => Expr::Select(rng.bool(), sub(rng), sub(rng), sub(rng), sub(rng)),
        1 => Expr::Narrow(*pick(rng, &WIDTHS[..8]), rng.bool(), sub(rng)),
        _ => Expr::Binary(*pick(rng, &BINARIES), sub(rng), sub(rng)),
    }
}

/// Prints a kernel as MLIR, naming values in order.
struct Printer<'k> {
    k: &'k Kernel,
    out: String,
    next: usize,
    indent: usize,
    /// Whether the nest printed is the second one, whose input is `%out`.
    second: bool,
}

impl<'k> Printer<'k> {
    fn new(k: &'k Kernel) -> Printer<'k> {
        Printer {
            k,
            out: String::new(),
            next: 0,
            indent: 1,
            second: false,
        }
    }

    fn line(&mut self, text: &str) {
        let _ = writeln!(self.out, "{}{text}", "  ".repeat(self.indent));
    }

    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }

    fn shape(&self, dims: &[u64], width: u32) -> String {
        let dims: Vec<String> = dims.iter().map(u64::to_string).collect();
        format!("memref<{}xi{width}>", dims.join("x"))
    }

    fn function(&mut self) {
        let k = self.k;
        let [w_in, w_out, w_tab] = k.widths;
        let input = self.shape(&k.trips, w_in);
        let output = self.shape(&k.trips, w_out);
        let table = self.shape(&[k.table], w_tab);
        let attribute = |d: Directive, text: &'static str| {
            if k.directives.contains(&d) {
                text
            } else {
                ""
            }
        };
        let res = match k.chained {
            Some(_) => format!(", %res: {output}"),
            None => String::new(),
        };
        let _ = writeln!(
            self.out,
            "func.func @k(%in: {input}{}, %out: {output}, %tab: {table}{}, %s: i{}{res}){} {{",
            attribute(Directive::Ports, " {hls.ports = 2}"),
            attribute(Directive::Buffer, " {hls.buffer = true}"),
            k.compute,
            attribute(Directive::Dataflow, " attributes {hls.dataflow = true}"),
        );
        self.nest(0);
        if k.chained.is_some() {
            self.second = true;
            self.nest(0);
        }
        self.line("return");
        self.out.push_str("}\n");
    }

    /// The loop at `level` and what is inside it.
    fn nest(&mut self, level: usize) {
        let k = self.k;
        let depth = k.trips.len();
        let iv = format!("%i{level}");
        if level + 1 == depth {
            self.innermost(level);
            return;
        }
        self.line(&format!("affine.for {iv} = 0 to {} {{", k.trips[level]));
        self.indent += 1;
        if level + 2 == depth && !self.second {
            if let Some(Statement::Reduce(e)) = k.statements.first() {
                self.reduction(level + 1, e);
            }
        }
        self.nest(level + 1);
        self.indent -= 1;
        self.line("}");
    }

    /// The innermost loop (counter `%i{level}`) and its statements.
    fn innermost(&mut self, level: usize) {
        let k = self.k;
        self.line(&format!(
            "affine.for %i{level} = 0 to {} {{",
            k.trips[level]
        ));
        self.indent += 1;
        match (&k.chained, self.second) {
            (Some(e), true) => {
                let v = self.expr(e);
                self.store_to("%res", &v);
            }
            _ => {
                for s in &k.statements {
                    self.statement(s);
                }
            }
        }
        self.indent -= 1;
        let mut attrs = Vec::new();
        for d in &k.directives {
            match d {
                Directive::Pipeline(ii) => attrs.push(format!("hls.pipeline = {ii}")),
                Directive::Unroll(f) => attrs.push(format!("hls.unroll = {f}")),
                _ => {}
            }
        }
        if attrs.is_empty() {
            self.line("}");
        } else {
            self.line(&format!("}} {{{}}}", attrs.join(", ")));
        }
    }

    /// The counters of the nest, as subscripts.
    fn counters(&self) -> String {
        (0..self.k.trips.len())
            .map(|l| format!("%i{l}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn store(&mut self, value: &str) {
        self.store_to("%out", value);
    }

    /// `memory[counters] = value` (`memory` of the output's type).
    fn store_to(&mut self, memory: &str, value: &str) {
        let w = self.k.widths[1];
        let v = self.convert(value, self.k.compute, w, false);
        let output = self.shape(&self.k.trips, w);
        let at = self.counters();
        self.line(&format!("affine.store {v}, {memory}[{at}] : {output}"));
    }

    /// `out[counters] = e` in the region `head` opens.
    fn guarded_store(&mut self, head: &str, e: &Expr) {
        self.line(head);
        self.indent += 1;
        let v = self.expr(e);
        self.store(&v);
        self.indent -= 1;
        self.line("}");
    }

    fn statement(&mut self, s: &Statement) {
        match s {
            Statement::Store(e) => {
                let v = self.expr(e);
                self.store(&v);
            }
            Statement::Guarded(a, b, e) => {
                let (a, b) = (self.expr(a), self.expr(b));
                let c = self.fresh();
                let w = self.k.compute;
                self.line(&format!("{c} = arith.cmpi sgt, {a}, {b} : i{w}"));
                self.guarded_store(&format!("scf.if {c} {{"), e);
            }
            Statement::AffineGuarded(bound, e) => {
                let level = self.k.trips.len() - 1;
                self.guarded_store(
                    &format!("affine.if affine_set<(d0) : (d0 - {bound} >= 0)>(%i{level}) {{"),
                    e,
                );
            }
            Statement::Update(a, e) => {
                let w = self.k.compute;
                let wt = self.k.widths[2];
                let a = self.expr(a);
                let a32 = self.convert(&a, w, 32, false);
                let mask = self.constant(self.k.table as i64 - 1, 32);
                let m = self.fresh();
                self.line(&format!("{m} = arith.andi {a32}, {mask} : i32"));
                let idx = self.fresh();
                self.line(&format!("{idx} = arith.index_castui {m} : i32 to index"));
                let table = self.shape(&[self.k.table], wt);
                let old = self.fresh();
                self.line(&format!("{old} = memref.load %tab[{idx}] : {table}"));
                let e = self.expr(e);
                let add = self.convert(&e, w, wt, true);
                let new = self.fresh();
                self.line(&format!("{new} = arith.addi {old}, {add} : i{wt}"));
                self.line(&format!("memref.store {new}, %tab[{idx}] : {table}"));
            }
            // Printed around the innermost loop (`reduction`).
            Statement::Reduce(_) => {}
        }
    }

    /// The sum of `e` over the loop at `level`, stored at the outer
    /// counters' first output element.
    fn reduction(&mut self, level: usize, e: &Expr) {
        let w = self.k.compute;
        let zero = self.constant(0, w);
        let sum = self.fresh();
        self.line(&format!(
            "{sum} = affine.for %r{level} = 0 to {} iter_args(%acc = {zero}) -> (i{w}) {{",
            self.k.trips[level]
        ));
        self.indent += 1;
        // The expression reads the counters as the innermost's: alias it.
        let v = self.expr_at(e, &format!("%r{level}"));
        let t = self.fresh();
        self.line(&format!("{t} = arith.addi %acc, {v} : i{w}"));
        self.line(&format!("affine.yield {t} : i{w}"));
        self.indent -= 1;
        self.line("}");
        let wo = self.k.widths[1];
        let v = self.convert(&sum, w, wo, false);
        let output = self.shape(&self.k.trips, wo);
        let mut at: Vec<String> = (0..level).map(|l| format!("%i{l}")).collect();
        at.extend((level..self.k.trips.len()).map(|_| "0".to_string()));
        self.line(&format!(
            "affine.store {v}, %out[{}] : {output}",
            at.join(", ")
        ));
    }

    fn constant(&mut self, value: i64, width: u32) -> String {
        let c = self.fresh();
        let v = wrap(value, width);
        self.line(&format!("{c} = arith.constant {v} : i{width}"));
        c
    }

    /// `value` of width `from` at width `to` (extended signed or not).
    fn convert(&mut self, value: &str, from: u32, to: u32, signed: bool) -> String {
        if from == to {
            return value.to_string();
        }
        let r = self.fresh();
        let op = if from > to {
            "trunci"
        } else if signed {
            "extsi"
        } else {
            "extui"
        };
        self.line(&format!("{r} = arith.{op} {value} : i{from} to i{to}"));
        r
    }

    fn expr(&mut self, e: &Expr) -> String {
        let level = self.k.trips.len() - 1;
        self.expr_at(e, &format!("%i{level}"))
    }

    /// `e` with `inner` as the innermost loop counter.
    fn expr_at(&mut self, e: &Expr, inner: &str) -> String {
        let w = self.k.compute;
        match e {
            Expr::Input(shifted) => {
                let depth = self.k.trips.len();
                let mut at: Vec<String> = (0..depth - 1).map(|l| format!("%i{l}")).collect();
                let last = self.k.trips[depth - 1];
                at.push(if *shifted {
                    format!("({inner} + 1) mod {last}")
                } else {
                    inner.to_string()
                });
                let (memory, wi) = if self.second {
                    ("%out", self.k.widths[1])
                } else {
                    ("%in", self.k.widths[0])
                };
                let input = self.shape(&self.k.trips, wi);
                let v = self.fresh();
                self.line(&format!(
                    "{v} = affine.load {memory}[{}] : {input}",
                    at.join(", ")
                ));
                self.convert(&v, wi, w, true)
            }
            Expr::Scalar => "%s".to_string(),
            Expr::Counter => {
                let v = self.fresh();
                self.line(&format!("{v} = arith.index_cast {inner} : index to i{w}"));
                v
            }
            Expr::Constant(c) => self.constant(*c, w),
            Expr::Binary(op, a, b) => {
                let a = self.expr_at(a, inner);
                let b = self.expr_at(b, inner);
                self.binary(*op, &a, &b)
            }
            Expr::Select(signed, a, b, c, d) => {
                let (a, b) = (self.expr_at(a, inner), self.expr_at(b, inner));
                let (c, d) = (self.expr_at(c, inner), self.expr_at(d, inner));
                let t = self.fresh();
                let pred = if *signed { "slt" } else { "ult" };
                self.line(&format!("{t} = arith.cmpi {pred}, {a}, {b} : i{w}"));
                let r = self.fresh();
                self.line(&format!("{r} = arith.select {t}, {c}, {d} : i{w}"));
                r
            }
            Expr::Narrow(to, signed, a) => {
                let a = self.expr_at(a, inner);
                if *to >= w {
                    return a;
                }
                let n = self.convert(&a, w, *to, false);
                self.convert(&n, *to, w, *signed)
            }
        }
    }

    fn binary(&mut self, op: Binary, a: &str, b: &str) -> String {
        let w = self.k.compute;
        let r = self.fresh();
        let simple = match op {
            Binary::Add => Some("addi"),
            Binary::Sub => Some("subi"),
            Binary::Mul => Some("muli"),
            Binary::And => Some("andi"),
            Binary::Or => Some("ori"),
            Binary::Xor => Some("xori"),
            Binary::MinS => Some("minsi"),
            Binary::MaxU => Some("maxui"),
            _ => None,
        };
        if let Some(name) = simple {
            self.line(&format!("{r} = arith.{name} {a}, {b} : i{w}"));
            return r;
        }
        match op {
            Binary::Shl | Binary::ShrU | Binary::ShrS => {
                // The amount below the width: its bits under the largest
                // power of two that is at most the width.
                let below = 1i64 << (31 - w.leading_zeros());
                let mask = self.constant(below - 1, w);
                let amount = self.fresh();
                self.line(&format!("{amount} = arith.andi {b}, {mask} : i{w}"));
                let name = match op {
                    Binary::Shl => "shli",
                    Binary::ShrU => "shrui",
                    _ => "shrsi",
                };
                self.line(&format!("{r} = arith.{name} {a}, {amount} : i{w}"));
            }
            _ => {
                // A positive divisor: one bit set, the sign bit clear.
                let one = self.constant(1, w);
                let odd = self.fresh();
                self.line(&format!("{odd} = arith.ori {b}, {one} : i{w}"));
                let divisor = if w > 1 {
                    let max = self.constant((1i64 << (w - 1).min(62)) - 1, w);
                    let d = self.fresh();
                    self.line(&format!("{d} = arith.andi {odd}, {max} : i{w}"));
                    d
                } else {
                    odd
                };
                let name = match op {
                    Binary::DivU => "divui",
                    Binary::RemU => "remui",
                    _ => "divsi",
                };
                self.line(&format!("{r} = arith.{name} {a}, {divisor} : i{w}"));
            }
        }
        r
    }
}

/// `value` as a signed `width`-bit constant.
fn wrap(value: i64, width: u32) -> i64 {
    if width >= 64 {
        return value;
    }
    let m = 1i128 << width;
    let v = (value as i128).rem_euclid(m);
    (if v >= m / 2 { v - m } else { v }) as i64
}
