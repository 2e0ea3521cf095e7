//! Affine expressions, maps and integer sets, with the simplifications MLIR
//! applies whenever an expression is built and MLIR's printed form.

use std::fmt::Write;

/// An affine (or semi-affine) expression over dims `d_i` and symbols `s_i`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum AffineExpr {
    Dim(u32),
    Symbol(u32),
    Constant(i64),
    Binary(Box<(BinOp, AffineExpr, AffineExpr)>),
}

/// Binary affine operators.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BinOp {
    Add,
    Mul,
    Mod,
    FloorDiv,
    CeilDiv,
}

/// `(d0, ...)[s0, ...] -> (results)`
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct AffineMap {
    pub num_dims: u32,
    pub num_symbols: u32,
    pub results: Box<[AffineExpr]>,
}

/// `(d0, ...)[s0, ...] : (constraints)`; `eq[i]` tells `== 0` from `>= 0`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct IntegerSet {
    pub num_dims: u32,
    pub num_symbols: u32,
    pub constraints: Box<[AffineExpr]>,
    pub eq: Box<[bool]>,
}

fn floor_div(a: i64, b: i64) -> i64 {
    let q = a.wrapping_div(b);
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn ceil_div(a: i64, b: i64) -> i64 {
    let q = a.wrapping_div(b);
    if (a % b != 0) && ((a < 0) == (b < 0)) {
        q + 1
    } else {
        q
    }
}

fn modulo(a: i64, b: i64) -> i64 {
    let r = a % b;
    if r < 0 {
        r + b
    } else {
        r
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl AffineExpr {
    fn bin(op: BinOp, l: AffineExpr, r: AffineExpr) -> AffineExpr {
        AffineExpr::Binary(Box::new((op, l, r)))
    }

    fn as_const(&self) -> Option<i64> {
        match self {
            AffineExpr::Constant(c) => Some(*c),
            _ => None,
        }
    }

    pub(crate) fn as_binary(&self) -> Option<(BinOp, &AffineExpr, &AffineExpr)> {
        match self {
            AffineExpr::Binary(b) => Some((b.0, &b.1, &b.2)),
            _ => None,
        }
    }

    /// Whether the expression involves no dimensions.
    pub fn is_symbolic_or_constant(&self) -> bool {
        match self {
            AffineExpr::Dim(_) => false,
            AffineExpr::Symbol(_) | AffineExpr::Constant(_) => true,
            AffineExpr::Binary(b) => b.1.is_symbolic_or_constant() && b.2.is_symbolic_or_constant(),
        }
    }

    /// Whether the expression is pure affine (no dim * dim, no division by
    /// a non-constant).
    pub fn is_pure_affine(&self) -> bool {
        match self {
            AffineExpr::Binary(b) => {
                let (op, l, r) = (b.0, &b.1, &b.2);
                match op {
                    BinOp::Add => l.is_pure_affine() && r.is_pure_affine(),
                    BinOp::Mul => {
                        l.is_pure_affine()
                            && r.is_pure_affine()
                            && (l.as_const().is_some() || r.as_const().is_some())
                    }
                    _ => l.is_pure_affine() && r.as_const().is_some(),
                }
            }
            _ => true,
        }
    }

    /// The largest constant known to divide the expression.
    pub fn largest_known_divisor(&self) -> i64 {
        match self {
            AffineExpr::Dim(_) | AffineExpr::Symbol(_) => 1,
            AffineExpr::Constant(c) => c.wrapping_abs(),
            AffineExpr::Binary(b) => {
                let (op, l, r) = (b.0, &b.1, &b.2);
                match op {
                    BinOp::Mul => l
                        .largest_known_divisor()
                        .wrapping_mul(r.largest_known_divisor()),
                    BinOp::Add | BinOp::Mod => gcd(
                        l.largest_known_divisor().unsigned_abs(),
                        r.largest_known_divisor().unsigned_abs(),
                    ) as i64,
                    BinOp::FloorDiv | BinOp::CeilDiv => match r.as_const() {
                        Some(c) if c != 0 => {
                            let ld = l.largest_known_divisor();
                            if ld % c == 0 {
                                (ld / c).wrapping_abs()
                            } else {
                                1
                            }
                        }
                        _ => 1,
                    },
                }
            }
        }
    }

    /// `self + rhs`, simplified.
    pub fn plus(self, rhs: AffineExpr) -> AffineExpr {
        match simplify_add(&self, &rhs) {
            Some(e) => e,
            None => Self::bin(BinOp::Add, self, rhs),
        }
    }

    /// `self * rhs`, simplified. Two dims or two symbols are ordered by
    /// position first (MLIR's commutative operand order).
    pub fn times(self, rhs: AffineExpr) -> AffineExpr {
        if let (AffineExpr::Dim(a), AffineExpr::Dim(b))
        | (AffineExpr::Symbol(a), AffineExpr::Symbol(b)) = (&self, &rhs)
        {
            if a > b {
                return rhs.times(self);
            }
        }
        match simplify_mul(&self, &rhs) {
            Some(e) => e,
            None => Self::bin(BinOp::Mul, self, rhs),
        }
    }

    /// `-self`
    pub fn negate(self) -> AffineExpr {
        self.times(AffineExpr::Constant(-1))
    }

    /// `self - rhs`
    pub fn minus(self, rhs: AffineExpr) -> AffineExpr {
        self.plus(rhs.negate())
    }

    /// `self mod rhs`, simplified.
    pub fn modulo(self, rhs: AffineExpr) -> AffineExpr {
        match simplify_mod(&self, &rhs) {
            Some(e) => e,
            None => Self::bin(BinOp::Mod, self, rhs),
        }
    }

    /// `self floordiv rhs`, simplified.
    pub fn floor_div(self, rhs: AffineExpr) -> AffineExpr {
        match simplify_floor_div(&self, &rhs) {
            Some(e) => e,
            None => Self::bin(BinOp::FloorDiv, self, rhs),
        }
    }

    /// `self ceildiv rhs`, simplified.
    pub fn ceil_div(self, rhs: AffineExpr) -> AffineExpr {
        match simplify_ceil_div(&self, &rhs) {
            Some(e) => e,
            None => Self::bin(BinOp::CeilDiv, self, rhs),
        }
    }

    /// Applies `op`.
    pub fn apply(self, op: BinOp, rhs: AffineExpr) -> AffineExpr {
        match op {
            BinOp::Add => self.plus(rhs),
            BinOp::Mul => self.times(rhs),
            BinOp::Mod => self.modulo(rhs),
            BinOp::FloorDiv => self.floor_div(rhs),
            BinOp::CeilDiv => self.ceil_div(rhs),
        }
    }
}

impl AffineExpr {
    /// The expression with `d_i` replaced by `dims[i]` and `s_i` by
    /// `syms[i]`, rebuilt bottom-up with the construction-time
    /// simplifications (MLIR's `replaceDimsAndSymbols`).
    pub fn replace(&self, dims: &[AffineExpr], syms: &[AffineExpr]) -> AffineExpr {
        match self {
            AffineExpr::Dim(i) => dims
                .get(*i as usize)
                .cloned()
                .unwrap_or_else(|| self.clone()),
            AffineExpr::Symbol(i) => syms
                .get(*i as usize)
                .cloned()
                .unwrap_or_else(|| self.clone()),
            AffineExpr::Constant(_) => self.clone(),
            AffineExpr::Binary(b) => {
                let (op, l, r) = &**b;
                let (nl, nr) = (l.replace(dims, syms), r.replace(dims, syms));
                if &nl == l && &nr == r {
                    return self.clone();
                }
                nl.apply(*op, nr)
            }
        }
    }

    /// The value of the expression for the given dims and symbols, if
    /// defined (no division by zero, no overflow).
    pub fn eval(&self, dims: &[i64], syms: &[i64]) -> Option<i64> {
        Some(match self {
            AffineExpr::Dim(i) => *dims.get(*i as usize)?,
            AffineExpr::Symbol(i) => *syms.get(*i as usize)?,
            AffineExpr::Constant(c) => *c,
            AffineExpr::Binary(b) => {
                let (op, l, r) = &**b;
                let (a, c) = (l.eval(dims, syms)?, r.eval(dims, syms)?);
                match op {
                    BinOp::Add => a.checked_add(c)?,
                    BinOp::Mul => a.checked_mul(c)?,
                    BinOp::Mod if c > 0 => modulo(a, c),
                    BinOp::FloorDiv if c != 0 => floor_div(a, c),
                    BinOp::CeilDiv if c != 0 => ceil_div(a, c),
                    _ => return None,
                }
            }
        })
    }

    /// Calls `f` on every dim and symbol position used.
    pub fn walk_ids(&self, f: &mut dyn FnMut(bool, u32)) {
        match self {
            AffineExpr::Dim(i) => f(true, *i),
            AffineExpr::Symbol(i) => f(false, *i),
            AffineExpr::Constant(_) => {}
            AffineExpr::Binary(b) => {
                b.1.walk_ids(f);
                b.2.walk_ids(f);
            }
        }
    }
}

fn simplify_add(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let lc = lhs.as_const();
    let rc = rhs.as_const();
    if let (Some(a), Some(b)) = (lc, rc) {
        return a.checked_add(b).map(AffineExpr::Constant);
    }
    if lc.is_some() || (lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant()) {
        return Some(rhs.clone().plus(lhs.clone()));
    }
    if rc == Some(0) {
        return Some(lhs.clone());
    }
    // Dims, and symbols, in increasing position: d1 + d0 ==> d0 + d1.
    match (lhs, rhs) {
        (AffineExpr::Dim(a), AffineExpr::Dim(b))
        | (AffineExpr::Symbol(a), AffineExpr::Symbol(b))
            if a > b =>
        {
            return Some(rhs.clone().plus(lhs.clone()));
        }
        _ => {}
    }
    let lbin = lhs.as_binary();
    if let (Some((BinOp::Add, ll, lr)), Some(c)) = (lbin, rc) {
        if let Some(lrc) = lr.as_const() {
            return Some(ll.clone().plus(AffineExpr::Constant(lrc.wrapping_add(c))));
        }
    }
    // c1 * e + c2 * e  ==>  (c1 + c2) * e
    let (lcoef, first) = match lbin {
        Some((BinOp::Mul, l, r)) if r.as_const().is_some() => (r.as_const().unwrap(), l),
        _ => (1, lhs),
    };
    let rbin = rhs.as_binary();
    let (rcoef, second) = match rbin {
        Some((BinOp::Mul, l, r)) if r.as_const().is_some() => (r.as_const().unwrap(), l),
        _ => (1, rhs),
    };
    if first == second {
        return Some(
            first
                .clone()
                .times(AffineExpr::Constant(lcoef.wrapping_add(rcoef))),
        );
    }
    // (e + c) + f  ==>  (e + f) + c
    if let Some((BinOp::Add, ll, lr)) = lbin {
        if let Some(c) = lr.as_const() {
            return Some(ll.clone().plus(rhs.clone()).plus(AffineExpr::Constant(c)));
        }
    }
    // e + (e floordiv q) * -q  ==>  e mod q
    let (rop, rl, rr) = rbin?;
    if rop != BinOp::Mul {
        return None;
    }
    if rr.as_const() == Some(-1) {
        if let Some((BinOp::Mul, rll, rlr)) = rl.as_binary() {
            if let Some((BinOp::FloorDiv, e, q)) = rll.as_binary() {
                if q == rlr && e == lhs {
                    return Some(lhs.clone().modulo(rlr.clone()));
                }
            }
            return None;
        }
    }
    let (BinOp::FloorDiv, e, q) = rl.as_binary()? else {
        return None;
    };
    if let (Some(qc), Some(rrc)) = (q.as_const(), rr.as_const()) {
        if qc > 0 && e == lhs && Some(qc) == rrc.checked_neg() {
            return Some(lhs.clone().modulo(q.clone()));
        }
    }
    // (a + b) + (e floordiv q) * k  ==>  a + (b + (e floordiv q) * k) when
    // the inner sum simplifies (a mod, a merged term, a symbol moved right).
    let (BinOp::Add, a, b) = lbin? else {
        return None;
    };
    simplify_add(b, rhs).map(|inner| a.clone().plus(inner))
}

fn simplify_mul(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let lc = lhs.as_const();
    let rc = rhs.as_const();
    if let (Some(a), Some(b)) = (lc, rc) {
        return a.checked_mul(b).map(AffineExpr::Constant);
    }
    if !lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant() {
        return None;
    }
    if !rhs.is_symbolic_or_constant() || lc.is_some() {
        return Some(rhs.clone().times(lhs.clone()));
    }
    if rc == Some(1) {
        return Some(lhs.clone());
    }
    if rc == Some(0) {
        return Some(rhs.clone());
    }
    if let Some((BinOp::Mul, ll, lr)) = lhs.as_binary() {
        if let Some(lrc) = lr.as_const() {
            if let Some(c) = rc {
                return Some(ll.clone().times(AffineExpr::Constant(lrc.wrapping_mul(c))));
            }
            return Some(ll.clone().times(rhs.clone()).times(lr.clone()));
        }
    }
    None
}

fn simplify_mod(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let c = rhs.as_const().filter(|&c| c >= 1)?;
    if let Some(a) = lhs.as_const() {
        return Some(AffineExpr::Constant(modulo(a, c)));
    }
    if lhs.largest_known_divisor() % c == 0 {
        return Some(AffineExpr::Constant(0));
    }
    match lhs.as_binary() {
        Some((BinOp::Add, l, r)) => {
            if l.largest_known_divisor() % c == 0 {
                return Some(r.clone().modulo(AffineExpr::Constant(c)));
            }
            if r.largest_known_divisor() % c == 0 {
                return Some(l.clone().modulo(AffineExpr::Constant(c)));
            }
            None
        }
        Some((BinOp::Mod, l, r)) => {
            let inner = r.as_const()?;
            if inner >= 1 && modulo(inner, c) == 0 {
                return Some(l.clone().modulo(AffineExpr::Constant(c)));
            }
            None
        }
        _ => None,
    }
}

fn simplify_floor_div(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let c = rhs.as_const().filter(|&c| c != 0)?;
    if let Some(a) = lhs.as_const() {
        if a == i64::MIN && c == -1 {
            return None;
        }
        return Some(AffineExpr::Constant(floor_div(a, c)));
    }
    if c < 1 {
        return None;
    }
    if c == 1 {
        return Some(lhs.clone());
    }
    match lhs.as_binary() {
        Some((BinOp::Mul, l, r)) => {
            let k = r.as_const()?;
            if k % c == 0 {
                return Some(l.clone().times(AffineExpr::Constant(k / c)));
            }
            None
        }
        Some((BinOp::Add, l, r)) => {
            if l.largest_known_divisor() % c == 0 || r.largest_known_divisor() % c == 0 {
                let cc = AffineExpr::Constant(c);
                return Some(
                    l.clone()
                        .floor_div(cc.clone())
                        .plus(r.clone().floor_div(cc)),
                );
            }
            None
        }
        _ => None,
    }
}

fn simplify_ceil_div(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let c = rhs.as_const().filter(|&c| c != 0)?;
    if let Some(a) = lhs.as_const() {
        if a == i64::MIN && c == -1 {
            return None;
        }
        return Some(AffineExpr::Constant(ceil_div(a, c)));
    }
    if c < 1 {
        return None;
    }
    if c == 1 {
        return Some(lhs.clone());
    }
    if let Some((BinOp::Mul, l, r)) = lhs.as_binary() {
        let k = r.as_const()?;
        if k % c == 0 {
            return Some(l.clone().times(AffineExpr::Constant(k / c)));
        }
    }
    None
}

#[derive(Clone, Copy, PartialEq)]
enum Binding {
    Weak,
    Strong,
}

/// How dimension and symbol identifiers are written.
pub type IdPrinter<'a> = &'a dyn Fn(&mut String, bool, u32);

/// `d0`, `s0`: the identifiers of affine maps.
fn default_ids(out: &mut String, symbol: bool, i: u32) {
    let _ = write!(out, "{}{i}", if symbol { 's' } else { 'd' });
}

/// Appends MLIR's textual form of `e`.
pub fn print_expr(out: &mut String, e: &AffineExpr) {
    print_expr_in(out, e, Binding::Weak, &default_ids);
}

/// Appends `e` with dimensions and symbols written by `ids` (`%i + 1`,
/// `symbol(%n)` for the affine ops' SSA forms).
pub fn print_expr_with(out: &mut String, e: &AffineExpr, ids: IdPrinter<'_>) {
    print_expr_in(out, e, Binding::Weak, ids);
}

fn print_expr_in(out: &mut String, e: &AffineExpr, enclosing: Binding, ids: IdPrinter<'_>) {
    let (op, lhs, rhs) = match e {
        AffineExpr::Dim(i) => {
            ids(out, false, *i);
            return;
        }
        AffineExpr::Symbol(i) => {
            ids(out, true, *i);
            return;
        }
        AffineExpr::Constant(c) => {
            let _ = write!(out, "{c}");
            return;
        }
        AffineExpr::Binary(b) => (b.0, &b.1, &b.2),
    };
    let strong = enclosing == Binding::Strong;
    if strong {
        out.push('(');
    }
    if op != BinOp::Add {
        if op == BinOp::Mul && rhs.as_const() == Some(-1) {
            out.push('-');
            print_expr_in(out, lhs, Binding::Strong, ids);
        } else {
            print_expr_in(out, lhs, Binding::Strong, ids);
            out.push_str(match op {
                BinOp::Mul => " * ",
                BinOp::FloorDiv => " floordiv ",
                BinOp::CeilDiv => " ceildiv ",
                _ => " mod ",
            });
            print_expr_in(out, rhs, Binding::Strong, ids);
        }
    } else {
        print_add(out, lhs, rhs, ids);
    }
    if strong {
        out.push(')');
    }
}

fn print_add(out: &mut String, lhs: &AffineExpr, rhs: &AffineExpr, ids: IdPrinter<'_>) {
    if let Some((BinOp::Mul, rl, rr)) = rhs.as_binary() {
        if let Some(k) = rr.as_const() {
            if k == -1 {
                print_expr_in(out, lhs, Binding::Weak, ids);
                out.push_str(" - ");
                let inner = if matches!(rl.as_binary(), Some((BinOp::Add, _, _))) {
                    Binding::Strong
                } else {
                    Binding::Weak
                };
                print_expr_in(out, rl, inner, ids);
                return;
            }
            if k < -1 {
                print_expr_in(out, lhs, Binding::Weak, ids);
                out.push_str(" - ");
                print_expr_in(out, rl, Binding::Strong, ids);
                let _ = write!(out, " * {}", k.wrapping_neg());
                return;
            }
        }
    }
    if let Some(k) = rhs.as_const() {
        if k < 0 {
            print_expr_in(out, lhs, Binding::Weak, ids);
            let _ = write!(out, " - {}", (k as i128).abs());
            return;
        }
    }
    print_expr_in(out, lhs, Binding::Weak, ids);
    out.push_str(" + ");
    print_expr_in(out, rhs, Binding::Weak, ids);
}

fn print_dims_symbols(out: &mut String, dims: u32, symbols: u32) {
    out.push('(');
    for i in 0..dims {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "d{i}");
    }
    out.push(')');
    if symbols != 0 {
        out.push('[');
        for i in 0..symbols {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "s{i}");
        }
        out.push(']');
    }
}

/// Appends MLIR's textual form of a map (without `affine_map<>`).
pub fn print_map(out: &mut String, m: &AffineMap) {
    print_dims_symbols(out, m.num_dims, m.num_symbols);
    out.push_str(" -> (");
    for (i, e) in m.results.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        print_expr(out, e);
    }
    out.push(')');
}

/// Appends MLIR's textual form of a set (without `affine_set<>`).
pub fn print_set(out: &mut String, s: &IntegerSet) {
    print_dims_symbols(out, s.num_dims, s.num_symbols);
    out.push_str(" : (");
    for (i, (e, eq)) in s.constraints.iter().zip(s.eq.iter()).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        print_expr(out, e);
        out.push_str(if *eq { " == 0" } else { " >= 0" });
    }
    out.push(')');
}

#[cfg(test)]
mod tests {
    use super::*;
    use AffineExpr::*;

    fn show(e: &AffineExpr) -> String {
        let mut s = String::new();
        print_expr(&mut s, e);
        s
    }

    #[test]
    fn simplifies_like_mlir() {
        assert_eq!(show(&Constant(4).plus(Dim(0))), "d0 + 4");
        assert_eq!(show(&Dim(0).plus(Constant(2)).plus(Constant(3))), "d0 + 5");
        assert_eq!(show(&Dim(0).minus(Dim(1))), "d0 - d1");
        assert_eq!(show(&Dim(0).times(Constant(128)).modulo(Constant(64))), "0");
        assert_eq!(
            show(&Dim(0).times(Constant(128)).floor_div(Constant(64))),
            "d0 * 2"
        );
        assert_eq!(show(&Dim(0).plus(Dim(0))), "d0 * 2");
        assert_eq!(
            show(&Dim(0).minus(Dim(1).times(Constant(3)))),
            "d0 - d1 * 3"
        );
        assert_eq!(show(&Dim(0).minus(Constant(1))), "d0 - 1");
        assert_eq!(show(&Dim(0).negate()), "-d0");
        let fd = Dim(0).floor_div(Constant(4));
        assert_eq!(show(&Dim(0).minus(fd.times(Constant(4)))), "d0 mod 4");
    }
}
