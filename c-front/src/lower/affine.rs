//! Affine forms of the C values a kernel computes: a sum of loop
//! induction variables (dimensions) and values fixed for the whole
//! function (symbols) with constant factors, plus a constant. A value
//! has one where C computes it from such values with `+`, `-` and
//! products by constants in a signed type (where overflow is undefined,
//! so the mathematical value is C's), which is what makes a loop bound
//! or a subscript static control. The forms print as the inline
//! subscripts of `affine.load`, as `affine_map`s and as `affine_set`
//! constraints.

use std::collections::BTreeMap;

/// What a term of a form ranges over.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operand {
    /// The induction variable of an `affine.for` (its SSA name).
    Dim(String),
    /// An `index` value valid as an affine symbol (its SSA name).
    Sym(String),
}

/// `Σ coefficient × operand + constant`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Aff {
    pub terms: BTreeMap<Operand, i64>,
    pub constant: i64,
}

impl Aff {
    pub fn constant(c: i64) -> Aff {
        Aff {
            terms: BTreeMap::new(),
            constant: c,
        }
    }

    pub fn operand(o: Operand) -> Aff {
        let mut terms = BTreeMap::new();
        terms.insert(o, 1);
        Aff { terms, constant: 0 }
    }

    /// The constant this form is.
    pub fn as_constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }

    /// `self + other`, unless a coefficient overflows.
    pub fn add(&self, other: &Aff) -> Option<Aff> {
        let mut terms = self.terms.clone();
        for (o, k) in &other.terms {
            let sum = terms.get(o).copied().unwrap_or(0).checked_add(*k)?;
            if sum == 0 {
                terms.remove(o);
            } else {
                terms.insert(o.clone(), sum);
            }
        }
        Some(Aff {
            terms,
            constant: self.constant.checked_add(other.constant)?,
        })
    }

    /// `self × k`.
    pub fn scale(&self, k: i64) -> Option<Aff> {
        if k == 0 {
            return Some(Aff::constant(0));
        }
        let mut terms = BTreeMap::new();
        for (o, c) in &self.terms {
            terms.insert(o.clone(), c.checked_mul(k)?);
        }
        Some(Aff {
            terms,
            constant: self.constant.checked_mul(k)?,
        })
    }

    /// `self - other`.
    pub fn sub(&self, other: &Aff) -> Option<Aff> {
        self.add(&other.scale(-1)?)
    }

    /// The form in MLIR's inline syntax of affine accesses
    /// (`%i + symbol(%n) * 2 - 1`).
    pub fn inline(&self) -> String {
        render(self, &|o| match o {
            Operand::Dim(v) => v.clone(),
            Operand::Sym(v) => format!("symbol({v})"),
        })
    }
}

/// Writes `Σ k·x + c`, a positive term or the constant first (`39 - d0`).
fn render(a: &Aff, name: &dyn Fn(&Operand) -> String) -> String {
    let mut parts: Vec<(bool, String)> = Vec::new();
    for (o, k) in &a.terms {
        let n = name(o);
        let text = match k.unsigned_abs() {
            1 => n,
            m => format!("{n} * {m}"),
        };
        parts.push((*k < 0, text));
    }
    if a.constant != 0 {
        parts.push((a.constant < 0, a.constant.unsigned_abs().to_string()));
    }
    if parts.is_empty() {
        return "0".into();
    }
    // Start with a positive part where there is one.
    if let Some(i) = parts.iter().position(|(neg, _)| !neg) {
        let first = parts.remove(i);
        parts.insert(0, first);
    }
    let mut out = String::new();
    for (i, (neg, text)) in parts.iter().enumerate() {
        match (i, neg) {
            (0, false) => out.push_str(text),
            (0, true) => {
                // Every part negative: a product by a negative constant.
                out.push_str(&format!("{text} * -1"));
            }
            (_, false) => out.push_str(&format!(" + {text}")),
            (_, true) => out.push_str(&format!(" - {text}")),
        }
    }
    out
}

/// Dimensions and symbols of a map or set, numbered in order of use.
#[derive(Default)]
pub struct Operands {
    dims: Vec<String>,
    syms: Vec<String>,
}

impl Operands {
    fn name(&mut self, o: &Operand) -> String {
        let (list, prefix) = match o {
            Operand::Dim(_) => (&mut self.dims, "d"),
            Operand::Sym(_) => (&mut self.syms, "s"),
        };
        let v = match o {
            Operand::Dim(v) | Operand::Sym(v) => v,
        };
        let i = list.iter().position(|x| x == v).unwrap_or_else(|| {
            list.push(v.clone());
            list.len() - 1
        });
        format!("{prefix}{i}")
    }

    /// Renders `a` over these operands.
    pub fn expr(&mut self, a: &Aff) -> String {
        // Number the operands first, in the form's order.
        for o in a.terms.keys() {
            self.name(o);
        }
        let names: BTreeMap<Operand, String> =
            a.terms.keys().map(|o| (o.clone(), self.name(o))).collect();
        render(a, &|o| names[o].clone())
    }

    /// `(d0, d1)[s0]`: the map's or set's parameter list.
    pub fn params(&self) -> String {
        let dims: Vec<String> = (0..self.dims.len()).map(|i| format!("d{i}")).collect();
        let mut s = format!("({})", dims.join(", "));
        if !self.syms.is_empty() {
            let syms: Vec<String> = (0..self.syms.len()).map(|i| format!("s{i}")).collect();
            s.push_str(&format!("[{}]", syms.join(", ")));
        }
        s
    }

    /// `(%i, %j)[%n]`: the SSA operands.
    pub fn args(&self) -> String {
        let mut s = format!("({})", self.dims.join(", "));
        if !self.syms.is_empty() {
            s.push_str(&format!("[{}]", self.syms.join(", ")));
        }
        s
    }
}

/// `affine_map<(d0)[s0] -> (e0, e1)>(%i)[%n]`: a bound of several results
/// (their maximum for a lower bound, minimum for an upper one).
pub fn map(results: &[Aff]) -> String {
    if let [one] = results {
        if let Some(c) = one.as_constant() {
            return c.to_string();
        }
    }
    let mut ops = Operands::default();
    let exprs: Vec<String> = results.iter().map(|a| ops.expr(a)).collect();
    format!(
        "affine_map<{} -> ({})>{}",
        ops.params(),
        exprs.join(", "),
        ops.args()
    )
}

/// A constraint of an `affine.if`: `form >= 0` or `form == 0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    pub form: Aff,
    pub equality: bool,
}

/// `affine_set<(d0) : (d0 - 1 >= 0)>(%j)`.
pub fn set(constraints: &[Constraint]) -> String {
    let mut ops = Operands::default();
    let exprs: Vec<String> = constraints
        .iter()
        .map(|c| {
            let e = ops.expr(&c.form);
            if c.equality {
                format!("{e} == 0")
            } else {
                format!("{e} >= 0")
            }
        })
        .collect();
    format!(
        "affine_set<{} : ({})>{}",
        ops.params(),
        exprs.join(", "),
        ops.args()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dim(v: &str) -> Aff {
        Aff::operand(Operand::Dim(v.into()))
    }

    #[test]
    fn forms_print_as_mlir_writes_them() {
        let ii = dim("%ii");
        let reflected = Aff::constant(39).sub(&ii).unwrap();
        assert_eq!(reflected.inline(), "39 - %ii");
        let n = Aff::operand(Operand::Sym("%n".into()));
        let e = dim("%i").add(&n.scale(2).unwrap()).unwrap();
        assert_eq!(
            e.add(&Aff::constant(-1)).unwrap().inline(),
            "%i + symbol(%n) * 2 - 1"
        );
        assert_eq!(ii.scale(-1).unwrap().inline(), "%ii * -1");
        assert_eq!(map(&[Aff::constant(20)]), "20");
        assert_eq!(
            map(&[Aff::constant(60).sub(&ii).unwrap()]),
            "affine_map<(d0) -> (60 - d0)>(%ii)"
        );
        assert_eq!(
            map(&[dim("%j"), n.clone()]),
            "affine_map<(d0)[s0] -> (d0, s0)>(%j)[%n]"
        );
        let c = Constraint {
            form: dim("%j").add(&Aff::constant(-1)).unwrap(),
            equality: false,
        };
        assert_eq!(set(&[c]), "affine_set<(d0) : (d0 - 1 >= 0)>(%j)");
        assert!(dim("%i").sub(&dim("%i")).unwrap().as_constant() == Some(0));
    }
}
