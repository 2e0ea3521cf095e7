//! Affine expression simplification by flattening, as MLIR's
//! `simplifyAffineExpr`: a pure affine expression becomes a linear
//! combination of dims, symbols and local floor-division variables plus a
//! constant (`mod` as `e - c * (e floordiv c)`, divisions reduced by
//! common divisors), then is rebuilt in that order with the usual
//! construction-time simplifications. In a semi-affine expression each
//! product, division or remainder by a non-constant is one more local
//! variable (its operands flattened and rebuilt first), and the sum is
//! rebuilt as [`crate::affine_semi`] orders it.

use crate::affine::{AffineExpr, AffineMap, BinOp};

/// Flattened expressions and the local variables they share.
struct Flattener {
    num_dims: usize,
    num_symbols: usize,
    /// The expression of each local (a floor division).
    locals: Vec<AffineExpr>,
}

impl Flattener {
    fn width(&self) -> usize {
        self.num_dims + self.num_symbols + self.locals.len() + 1
    }

    fn local_start(&self) -> usize {
        self.num_dims + self.num_symbols
    }

    /// Widens `v` to the current number of locals (locals added after it
    /// was built get zero coefficients).
    fn widen(&self, mut v: Vec<i64>) -> Vec<i64> {
        let c = v.pop().unwrap_or(0);
        v.resize(self.width() - 1, 0);
        v.push(c);
        v
    }

    fn rebuild(&self, v: &[i64]) -> AffineExpr {
        let mut e = AffineExpr::Constant(0);
        let start = self.local_start();
        for (j, &c) in v[..start].iter().enumerate() {
            if c == 0 {
                continue;
            }
            let id = if j < self.num_dims {
                AffineExpr::Dim(j as u32)
            } else {
                AffineExpr::Symbol((j - self.num_dims) as u32)
            };
            e = e.plus(id.times(AffineExpr::Constant(c)));
        }
        for (k, &c) in v[start..v.len() - 1].iter().enumerate() {
            if c == 0 {
                continue;
            }
            e = e.plus(self.locals[k].clone().times(AffineExpr::Constant(c)));
        }
        let c = v[v.len() - 1];
        if c != 0 {
            e = e.plus(AffineExpr::Constant(c));
        }
        e
    }

    fn local_for(&mut self, expr: AffineExpr) -> usize {
        if let Some(i) = self.locals.iter().position(|l| *l == expr) {
            return i;
        }
        self.locals.push(expr);
        self.locals.len() - 1
    }

    /// The vector of the local variable standing for `expr` (a
    /// semi-affine product, division or remainder); an `expr` that
    /// folded to a constant, dim or symbol is that instead.
    fn semi_affine_local(&mut self, expr: AffineExpr) -> Vec<i64> {
        let mut out = vec![0; self.width()];
        match expr {
            AffineExpr::Constant(c) => *out.last_mut().unwrap() = c,
            AffineExpr::Dim(i) => out[i as usize] = 1,
            AffineExpr::Symbol(i) => out[self.num_dims + i as usize] = 1,
            AffineExpr::Binary(_) => {
                let k = self.local_for(expr);
                out = vec![0; self.width()];
                out[self.local_start() + k] = 1;
            }
        }
        out
    }

    fn flatten(&mut self, e: &AffineExpr) -> Option<Vec<i64>> {
        let mut v = vec![0; self.width()];
        match e {
            AffineExpr::Dim(i) => v[*i as usize] = 1,
            AffineExpr::Symbol(i) => v[self.num_dims + *i as usize] = 1,
            AffineExpr::Constant(c) => *v.last_mut()? = *c,
            AffineExpr::Binary(b) => {
                let (op, l, r) = &**b;
                let lv = self.flatten(l)?;
                let rv = self.flatten(r)?;
                let (lv, rv) = (self.widen(lv), self.widen(rv));
                let rconst = rv[..rv.len() - 1]
                    .iter()
                    .all(|&x| x == 0)
                    .then(|| rv[rv.len() - 1]);
                let constant_operand = matches!(r, AffineExpr::Constant(_))
                    || (*op == BinOp::Mul && matches!(l, AffineExpr::Constant(_)));
                if *op != BinOp::Add && !constant_operand {
                    let expr = self.rebuild(&lv).apply(*op, self.rebuild(&rv));
                    return Some(self.semi_affine_local(expr));
                }
                return match op {
                    BinOp::Add => {
                        let mut lv = lv;
                        for (a, b) in lv.iter_mut().zip(&rv) {
                            *a = a.checked_add(*b)?;
                        }
                        Some(lv)
                    }
                    BinOp::Mul => {
                        let lconst = lv[..lv.len() - 1]
                            .iter()
                            .all(|&x| x == 0)
                            .then(|| lv[lv.len() - 1]);
                        let (mut vec, k) = match (lconst, rconst) {
                            (_, Some(k)) => (lv, k),
                            (Some(k), None) => (rv, k),
                            _ => return None,
                        };
                        for a in vec.iter_mut() {
                            *a = a.checked_mul(k)?;
                        }
                        Some(vec)
                    }
                    BinOp::Mod => {
                        let c = rconst.filter(|&c| c > 0)?;
                        if lv.iter().all(|&x| x % c == 0) {
                            return Some(vec![0; lv.len()]);
                        }
                        let dividend = self.rebuild(&lv);
                        let q = dividend.floor_div(AffineExpr::Constant(c));
                        let k = self.local_for(q);
                        let mut out = self.widen(lv);
                        let at = self.local_start() + k;
                        out[at] = out[at].checked_sub(c)?;
                        Some(out)
                    }
                    BinOp::FloorDiv | BinOp::CeilDiv => {
                        let c = rconst.filter(|&c| c > 0)?;
                        let g = lv
                            .iter()
                            .fold(c.unsigned_abs(), |g, &x| gcd(g, x.unsigned_abs()))
                            as i64;
                        let lv: Vec<i64> = lv.iter().map(|&x| x / g).collect();
                        let divisor = c / g;
                        if divisor == 1 {
                            return Some(lv);
                        }
                        let a = self.rebuild(&lv);
                        let b = AffineExpr::Constant(divisor);
                        let d = if *op == BinOp::CeilDiv {
                            a.ceil_div(b)
                        } else {
                            a.floor_div(b)
                        };
                        let k = self.local_for(d);
                        let mut out = vec![0; self.width()];
                        out[self.local_start() + k] = 1;
                        Some(out)
                    }
                };
            }
        }
        Some(v)
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// `e` simplified by flattening; in a semi-affine expression, its pure
/// affine parts.
pub fn simplify_expr(e: &AffineExpr, num_dims: u32, num_symbols: u32) -> AffineExpr {
    // A dim, symbol or constant flattens and rebuilds to itself.
    match *e {
        AffineExpr::Dim(i) if i < num_dims => return e.clone(),
        AffineExpr::Symbol(i) if i < num_symbols => return e.clone(),
        AffineExpr::Constant(_) => return e.clone(),
        _ => {}
    }
    if e.is_pure_affine() {
        let mut f = Flattener {
            num_dims: num_dims as usize,
            num_symbols: num_symbols as usize,
            locals: Vec::new(),
        };
        return match f.flatten(e) {
            Some(v) => f.rebuild(&f.widen(v)),
            None => e.clone(),
        };
    }
    let e = crate::affine_semi::simplify_semi_affine(e, num_dims, num_symbols);
    let mut f = Flattener {
        num_dims: num_dims as usize,
        num_symbols: num_symbols as usize,
        locals: Vec::new(),
    };
    let Some(v) = f.flatten(&e) else {
        return e;
    };
    let v = f.widen(v);
    let rebuilt = f.rebuild(&v);
    if !e.is_pure_affine() {
        if rebuilt == e {
            return e;
        }
        return crate::affine_semi::from_flat_semi_affine(&v, num_dims, num_symbols, &f.locals);
    }
    rebuilt
}

/// The coefficients `[dims.., symbols.., constant]` of a linear
/// expression (none when it needs divisions or products of ids).
pub fn flatten_linear(e: &AffineExpr, num_dims: u32, num_symbols: u32) -> Option<Vec<i64>> {
    if !e.is_pure_affine() {
        return None;
    }
    let mut f = Flattener {
        num_dims: num_dims as usize,
        num_symbols: num_symbols as usize,
        locals: Vec::new(),
    };
    let v = f.flatten(e)?;
    f.locals.is_empty().then_some(v)
}

/// The expression of linear coefficients (MLIR's
/// `getAffineExprFromFlatForm` without locals).
pub fn from_linear(v: &[i64], num_dims: u32, num_symbols: u32) -> AffineExpr {
    let f = Flattener {
        num_dims: num_dims as usize,
        num_symbols: num_symbols as usize,
        locals: Vec::new(),
    };
    f.rebuild(v)
}

/// Every result of `m` simplified.
pub fn simplify_map(m: &AffineMap) -> AffineMap {
    AffineMap {
        num_dims: m.num_dims,
        num_symbols: m.num_symbols,
        results: m
            .results
            .iter()
            .map(|e| simplify_expr(e, m.num_dims, m.num_symbols))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(i: u32) -> AffineExpr {
        AffineExpr::Dim(i)
    }
    fn k(c: i64) -> AffineExpr {
        AffineExpr::Constant(c)
    }

    fn text(e: &AffineExpr) -> String {
        let mut s = String::new();
        crate::affine::print_expr(&mut s, e);
        s
    }

    #[test]
    fn flattens_like_mlir() {
        // (d0 + 1) * 2 -> d0 * 2 + 2
        let e = d(0).plus(k(1)).times(k(2));
        assert_eq!(text(&simplify_expr(&e, 1, 0)), "d0 * 2 + 2");
        // (d0 * 4 + s0 * 8) floordiv 4 + (d0 mod 2) * 3
        let s0 = AffineExpr::Symbol(0);
        let e = d(0)
            .times(k(4))
            .plus(s0.times(k(8)))
            .floor_div(k(4))
            .plus(d(0).modulo(k(2)).times(k(3)));
        assert_eq!(
            text(&simplify_expr(&e, 1, 1)),
            "d0 * 4 + (d0 floordiv 2) * -6 + s0 * 2"
        );
        // d0 + d1 - d0 -> d1
        let e = d(0).plus(d(1)).minus(d(0));
        assert_eq!(text(&simplify_expr(&e, 2, 0)), "d1");
    }

    #[test]
    fn ids_and_constants_are_already_simplified() {
        for e in [d(1), AffineExpr::Symbol(0), k(0), k(-7)] {
            assert_eq!(simplify_expr(&e, 2, 1), e);
        }
    }
}
