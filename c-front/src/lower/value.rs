//! The values a lowered function computes: an SSA name with its C type,
//! its constant where it is one (folded as C folds, modulo the type's
//! width) and its affine form where it has one; and the conversions
//! between C's arithmetic types, each the `arith` op C's rules ask for
//! (sign or zero extension by the source's signedness, `fptosi` or
//! `fptoui` by the destination's, `!= 0` to `_Bool`).

use super::affine::{Aff, Operand};
use super::{Fail, Func, R};
use crate::types::CType;

/// A constant value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Konst {
    Int(i128),
    Float(f64),
}

/// A C value in SSA form.
#[derive(Clone, Debug)]
pub struct Val {
    pub v: String,
    pub ty: CType,
    pub aff: Option<Aff>,
    pub konst: Option<Konst>,
}

/// An `index` value (a subscript or a loop bound).
#[derive(Clone, Debug)]
pub struct Idx {
    pub v: String,
    pub aff: Option<Aff>,
}

/// `v` wrapped to the width and signedness of `ty`.
pub fn wrap(v: i128, ty: &CType) -> i128 {
    let bits = ty.bits();
    if bits >= 128 {
        return v;
    }
    let m = v & ((1i128 << bits) - 1);
    if !ty.is_unsigned() && bits > 0 && m >> (bits - 1) & 1 == 1 {
        m - (1i128 << bits)
    } else {
        m
    }
}

/// A float constant's bits in MLIR's hexadecimal form.
pub fn float_literal(v: f64, bits: u32) -> String {
    if bits == 32 {
        format!("0x{:08X}", (v as f32).to_bits())
    } else {
        format!("0x{:016X}", v.to_bits())
    }
}

impl Func<'_> {
    /// The constant `v` of integer type `ty`, placed at the function's
    /// entry (once per value and type).
    pub fn int_const(&mut self, ty: &CType, v: i128) -> Val {
        let v = wrap(v, ty);
        let mlir = ty.mlir().unwrap_or_else(|| "i64".into());
        let text = if matches!(ty, CType::Bool) {
            if v != 0 { "true" } else { "false" }.to_string()
        } else {
            format!("{v} : {mlir}")
        };
        let name = self.constant(&text);
        let aff = i64::try_from(v).ok().map(Aff::constant);
        Val {
            v: name,
            ty: ty.clone(),
            aff: if matches!(ty, CType::Bool) { None } else { aff },
            konst: Some(Konst::Int(v)),
        }
    }

    /// The float constant `v` of type `ty` (`float` rounds it).
    pub fn float_const(&mut self, ty: &CType, v: f64) -> Val {
        let bits = ty.bits();
        let v = if bits == 32 { f64::from(v as f32) } else { v };
        let mlir = ty.mlir().unwrap_or_else(|| "f64".into());
        let name = self.constant(&format!("{} : {mlir}", float_literal(v, bits)));
        Val {
            v: name,
            ty: ty.clone(),
            aff: None,
            konst: Some(Konst::Float(v)),
        }
    }

    /// The zero of a scalar type (what an uninitialised variable holds).
    pub fn zero(&mut self, ty: &CType) -> Val {
        match ty {
            CType::Float(_) => self.float_const(ty, 0.0),
            _ => self.int_const(ty, 0),
        }
    }

    /// The `index` constant `v`.
    pub fn index_const(&mut self, v: i64) -> Idx {
        let name = self.constant(&format!("{v} : index"));
        Idx {
            v: name,
            aff: Some(Aff::constant(v)),
        }
    }

    /// A value computed by `text` (an op with one result of type `ty`),
    /// with its affine form. At the function's top level an integer value
    /// without one becomes a symbol: valid there, it may bound loops and
    /// subscript arrays anywhere below.
    pub fn value(&mut self, text: &str, ty: &CType, aff: Option<Aff>) -> Val {
        let v = self.op(text);
        self.val(v, ty, aff)
    }

    /// [`Func::value`] for a value already named.
    pub fn val(&mut self, v: String, ty: &CType, aff: Option<Aff>) -> Val {
        let aff = match aff {
            Some(a) => Some(a),
            None if self.at_top() && matches!(ty, CType::Int { .. }) => {
                let cast = if ty.is_unsigned() {
                    "arith.index_castui"
                } else {
                    "arith.index_cast"
                };
                let mlir = ty.mlir().unwrap_or_default();
                let s = self.op(&format!("{cast} {v} : {mlir} to index"));
                Some(Aff::operand(Operand::Sym(s)))
            }
            None => None,
        };
        Val {
            v,
            ty: ty.clone(),
            aff,
            konst: None,
        }
    }

    /// `v` as an `index`: sign-extended from a signed type, zero-extended
    /// from an unsigned one (its affine form kept).
    pub fn index_of(&mut self, v: &Val) -> R<Idx> {
        if !v.ty.is_integer() {
            return Err(self.error("a subscript or loop bound must be an integer"));
        }
        if let Some(Konst::Int(k)) = v.konst {
            if let Ok(k) = i64::try_from(k) {
                return Ok(self.index_const(k));
            }
        }
        let cast = if v.ty.is_unsigned() {
            "arith.index_castui"
        } else {
            "arith.index_cast"
        };
        let mlir = v.ty.mlir().unwrap_or_default();
        let name = self.op(&format!("{cast} {} : {mlir} to index", v.v));
        Ok(Idx {
            v: name,
            aff: v.aff.clone(),
        })
    }

    /// An `index` value as a C integer of type `ty`.
    pub fn int_of_index(&mut self, i: &Idx, ty: &CType) -> Val {
        let mlir = ty.mlir().unwrap_or_default();
        let v = self.op(&format!("arith.index_cast {} : index to {mlir}", i.v));
        Val {
            v,
            ty: ty.clone(),
            aff: if ty.is_unsigned() {
                None
            } else {
                i.aff.clone()
            },
            konst: None,
        }
    }

    /// `v` converted to `to` as C converts it.
    pub fn convert(&mut self, v: &Val, to: &CType) -> R<Val> {
        if v.ty == *to {
            return Ok(v.clone());
        }
        if !to.is_scalar() || !v.ty.is_scalar() {
            return Err(self.error("only integer and floating values can be converted"));
        }
        match (&v.ty, to) {
            (_, CType::Bool) => self.bool_of(v),
            (CType::Float(_), CType::Float(_)) => self.float_cast(v, to),
            (CType::Float(_), _) => self.float_to_int(v, to),
            (_, CType::Float(_)) => self.int_to_float(v, to),
            _ => Ok(self.int_cast(v, to)),
        }
    }

    /// An integer conversion: extension, truncation, or a change of
    /// signedness only.
    pub fn int_cast(&mut self, v: &Val, to: &CType) -> Val {
        if let Some(Konst::Int(k)) = v.konst {
            return self.int_const(to, k);
        }
        let (from_bits, to_bits) = (v.ty.bits(), to.bits());
        // The value survives where the new type holds every value of the
        // old one (or C leaves overflow undefined: not for unsigned).
        let keeps_value = to_bits > from_bits && (v.ty.is_unsigned() || !to.is_unsigned());
        let aff = if keeps_value { v.aff.clone() } else { None };
        if from_bits == to_bits {
            return Val {
                v: v.v.clone(),
                ty: to.clone(),
                aff: if to.is_unsigned() == v.ty.is_unsigned() {
                    v.aff.clone()
                } else {
                    None
                },
                konst: None,
            };
        }
        let (fm, tm) = (
            v.ty.mlir().unwrap_or_default(),
            to.mlir().unwrap_or_default(),
        );
        let op = if to_bits < from_bits {
            "arith.trunci"
        } else if v.ty.is_unsigned() {
            "arith.extui"
        } else {
            "arith.extsi"
        };
        self.value(&format!("{op} {} : {fm} to {tm}", v.v), to, aff)
    }

    /// `v != 0` as a `_Bool`.
    pub fn bool_of(&mut self, v: &Val) -> R<Val> {
        let i1 = self.truth(v)?;
        Ok(Val {
            v: i1,
            ty: CType::Bool,
            aff: None,
            konst: None,
        })
    }

    /// The `i1` that is true where the scalar `v` is not zero.
    pub fn truth(&mut self, v: &Val) -> R<String> {
        match &v.ty {
            CType::Bool => Ok(v.v.clone()),
            CType::Float(_) => {
                let zero = self.zero(&v.ty);
                let m = v.ty.mlir().unwrap_or_default();
                Ok(self.op(&format!("arith.cmpf une, {}, {} : {m}", v.v, zero.v)))
            }
            CType::Int { .. } => {
                let zero = self.zero(&v.ty);
                let m = v.ty.mlir().unwrap_or_default();
                Ok(self.op(&format!("arith.cmpi ne, {}, {} : {m}", v.v, zero.v)))
            }
            _ => Err(self.error("only integer and floating values can be tested")),
        }
    }

    fn float_cast(&mut self, v: &Val, to: &CType) -> R<Val> {
        if let Some(Konst::Float(f)) = v.konst {
            return Ok(self.float_const(to, f));
        }
        let op = if to.bits() > v.ty.bits() {
            "arith.extf"
        } else {
            "arith.truncf"
        };
        let (fm, tm) = (
            v.ty.mlir().unwrap_or_default(),
            to.mlir().unwrap_or_default(),
        );
        Ok(self.value(&format!("{op} {} : {fm} to {tm}", v.v), to, None))
    }

    fn int_to_float(&mut self, v: &Val, to: &CType) -> R<Val> {
        if let Some(Konst::Int(k)) = v.konst {
            let f = if to.bits() == 32 {
                f64::from(k as f32)
            } else {
                k as f64
            };
            return Ok(self.float_const(to, f));
        }
        let op = if v.ty.is_unsigned() {
            "arith.uitofp"
        } else {
            "arith.sitofp"
        };
        let (fm, tm) = (
            v.ty.mlir().unwrap_or_default(),
            to.mlir().unwrap_or_default(),
        );
        Ok(self.value(&format!("{op} {} : {fm} to {tm}", v.v), to, None))
    }

    fn float_to_int(&mut self, v: &Val, to: &CType) -> R<Val> {
        // A constant in the range of `to` converts as C converts it
        // (toward zero); outside it C leaves the result undefined.
        if let Some(Konst::Float(f)) = v.konst {
            let t = f.trunc();
            let bits = to.bits();
            let (lo, hi) = if to.is_unsigned() {
                (0.0, 2f64.powi(bits as i32))
            } else {
                (-(2f64.powi(bits as i32 - 1)), 2f64.powi(bits as i32 - 1))
            };
            if t >= lo && t < hi {
                return Ok(self.int_const(to, t as i128));
            }
        }
        let op = if to.is_unsigned() {
            "arith.fptoui"
        } else {
            "arith.fptosi"
        };
        let (fm, tm) = (
            v.ty.mlir().unwrap_or_default(),
            to.mlir().unwrap_or_default(),
        );
        Ok(self.value(&format!("{op} {} : {fm} to {tm}", v.v), to, None))
    }

    /// An `i1` as a C `int` (0 or 1), as comparisons give it.
    pub fn bool_to_int(&mut self, i1: &str, ty: &CType) -> Val {
        let m = ty.mlir().unwrap_or_default();
        self.value(&format!("arith.extui {i1} : i1 to {m}"), ty, None)
    }

    /// The `i1` that is `!c`.
    pub fn not(&mut self, c: &str) -> String {
        let t = self.int_const(&CType::Bool, 1);
        self.op(&format!("arith.xori {c}, {} : i1", t.v))
    }

    /// Fails in speculative lowering: what follows may not run early.
    pub fn not_speculative(&self) -> R<()> {
        if self.speculative {
            Err(Fail::Speculation)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_wrap_to_their_type() {
        let i8t = CType::Int {
            bits: 8,
            signed: true,
        };
        let u8t = CType::Int {
            bits: 8,
            signed: false,
        };
        assert_eq!(wrap(128, &i8t), -128);
        assert_eq!(wrap(-1, &u8t), 255);
        assert_eq!(wrap(300, &u8t), 44);
        assert_eq!(float_literal(1.0, 64), "0x3FF0000000000000");
        assert_eq!(float_literal(0.5, 32), "0x3F000000");
    }
}
