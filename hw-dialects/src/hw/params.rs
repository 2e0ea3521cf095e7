//! Module parameters: the `#hw.param.*` attributes (`decl`, `decl.ref`,
//! `verbatim` and the `expr.<op>` expressions), their syntax, and their
//! meaning.
//!
//! Every parameter attribute is typed (`#hw.param.decl.ref<"p"> : i32`);
//! its type is its first parameter. Expressions are kept canonical as
//! CIRCT keeps them, whoever builds them: [`expr`] folds constants, drops
//! identities, flattens and orders the operands of associative operators
//! (subexpressions, then verbatims, then references, then one constant),
//! gathers like terms of sums (`p + p` → `p * 2`) and distributes products
//! over sums, so that equal expressions are one attribute. Substituting
//! values for references ([`substitute`]) and re-canonicalising is how
//! instances are elaborated.

use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, Zero};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::ParamPrinter;
use silica_ir::{Attr, AttrKind, Context, Type, TypeKind};
use std::cmp::Ordering;

/// The operators of `#hw.param.expr.<op>`, in CIRCT's spelling.
pub const OPCODES: &[&str] = &[
    "add",
    "mul",
    "and",
    "or",
    "xor",
    "shl",
    "shru",
    "shrs",
    "divu",
    "divs",
    "modu",
    "mods",
    "clog2",
    "str.concat",
];

/// A decoded parameter value.
#[derive(Clone, Debug, PartialEq)]
pub enum Param<'c> {
    /// An integer constant of an integer type.
    Int(&'c BigInt, Type),
    /// A string constant.
    Str(&'c [u8]),
    /// `#hw.param.decl.ref<"name">`.
    Ref(String),
    /// `#hw.param.verbatim<"text">`.
    Verbatim(String),
    /// `#hw.param.expr.<op><operands>`.
    Expr(&'static str, &'c [Attr]),
    /// Anything else (other attributes are legal values of parameters of
    /// type `none`, for example).
    Other,
}

fn string_value(ctx: &Context, a: Attr) -> String {
    match ctx.attr_kind(a) {
        AttrKind::String { value, .. } => String::from_utf8_lossy(value).into_owned(),
        _ => String::new(),
    }
}

/// The decoded view of a parameter value.
pub fn view(ctx: &Context, a: Attr) -> Param<'_> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { ty, value } => Param::Int(value, *ty),
        AttrKind::String { value, .. } => Param::Str(value),
        AttrKind::Dialect {
            dialect,
            name,
            params,
        } if ctx.str(*dialect) == "hw" => match ctx.str(*name) {
            "param.decl.ref" => Param::Ref(string_value(ctx, params[1])),
            "param.verbatim" => Param::Verbatim(string_value(ctx, params[1])),
            n => match n.strip_prefix("param.expr.") {
                Some(op) => match OPCODES.iter().find(|&&o| o == op) {
                    Some(op) => Param::Expr(op, &params[1..]),
                    None => Param::Other,
                },
                None => Param::Other,
            },
        },
        _ => Param::Other,
    }
}

/// A module's parameter declaration `#hw.param.decl<"name": type = value>`.
#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    pub name: String,
    pub ty: Type,
    pub value: Option<Attr>,
}

/// The declaration `a` holds, if it is one.
pub fn decl_of(ctx: &Context, a: Attr) -> Option<Decl> {
    match ctx.attr_kind(a) {
        AttrKind::Dialect { name, params, .. } if ctx.str(*name) == "param.decl" => Some(Decl {
            name: string_value(ctx, params[1]),
            ty: type_param(ctx, params[0])?,
            value: params.get(2).copied(),
        }),
        _ => None,
    }
}

fn type_param(ctx: &Context, a: Attr) -> Option<Type> {
    match ctx.attr_kind(a) {
        AttrKind::Type(t) => Some(*t),
        _ => None,
    }
}

/// The type of a parameter value, if it has one other than `none`.
pub fn value_type(ctx: &Context, a: Attr) -> Option<Type> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { ty, .. } => Some(*ty),
        AttrKind::Float { ty, .. } => Some(*ty),
        AttrKind::Dialect { name, params, .. } if ctx.str(*name).starts_with("param.") => {
            params.first().and_then(|&p| type_param(ctx, p))
        }
        _ => None,
    }
}

/// The type of a parameter value (`none` for strings and untyped ones).
pub fn type_of(ctx: &mut Context, a: Attr) -> Type {
    value_type(ctx, a).unwrap_or_else(|| ctx.none_type())
}

fn make(ctx: &mut Context, mnemonic: &str, ty: Type, rest: &[Attr]) -> Attr {
    let t = ctx.intern_attr(AttrKind::Type(ty));
    let mut params = vec![t];
    params.extend_from_slice(rest);
    let dialect = ctx.sym("hw");
    let name = ctx.sym(mnemonic);
    ctx.intern_attr(AttrKind::Dialect {
        dialect,
        name,
        params: params.into(),
    })
}

/// `#hw.param.decl<"name": ty = value>`.
pub fn decl(ctx: &mut Context, name: &str, ty: Type, value: Option<Attr>) -> Attr {
    let n = ctx.string_attr(name.as_bytes());
    let mut rest = vec![n];
    rest.extend(value);
    make(ctx, "param.decl", ty, &rest)
}

/// `#hw.param.decl.ref<"name"> : ty`.
pub fn decl_ref(ctx: &mut Context, name: &str, ty: Type) -> Attr {
    let n = ctx.string_attr(name.as_bytes());
    make(ctx, "param.decl.ref", ty, &[n])
}

/// `#hw.param.verbatim<"text"> : ty`.
pub fn verbatim(ctx: &mut Context, text: &str, ty: Type) -> Attr {
    let n = ctx.string_attr(text.as_bytes());
    make(ctx, "param.verbatim", ty, &[n])
}

// ----- integers of a type's width ------------------------------------------

fn width_of(ctx: &Context, t: Type) -> Option<u32> {
    match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } => Some(*width),
        _ => None,
    }
}

/// `v` as an unsigned number of `w` bits.
fn to_unsigned(v: &BigInt, w: u32) -> BigUint {
    let modulus = BigInt::one() << w;
    let r = ((v % &modulus) + &modulus) % &modulus;
    r.to_biguint().unwrap_or_default()
}

/// `v` as a signed number of `w` bits.
fn to_signed(v: &BigUint, w: u32) -> BigInt {
    let v = BigInt::from_biguint(Sign::Plus, v.clone());
    if w > 0 && v.bit(u64::from(w) - 1) {
        v - (BigInt::one() << w)
    } else {
        v
    }
}

/// The integer attribute of type `ty` holding `v` modulo its width.
pub fn int(ctx: &mut Context, ty: Type, v: &BigInt) -> Attr {
    let w = width_of(ctx, ty).unwrap_or(64);
    let u = to_unsigned(v, w);
    let value = to_signed(&u, w);
    ctx.int_attr(ty, value)
}

fn int_parts(ctx: &Context, a: Attr) -> Option<(BigUint, BigInt, u32)> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { ty, value } => {
            let w = width_of(ctx, *ty)?;
            Some((
                to_unsigned(value, w),
                to_signed(&to_unsigned(value, w), w),
                w,
            ))
        }
        _ => None,
    }
}

// ----- canonical expressions ------------------------------------------------

/// The order CIRCT imposes on the operands of associative operators:
/// expressions (by operator name, then more operands first, then by
/// operands), verbatims (by text), references (by name), constants.
fn operand_order(ctx: &Context, a: Attr, b: Attr) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    fn rank(p: &Param<'_>) -> u8 {
        match p {
            Param::Expr(..) | Param::Other | Param::Str(_) => 0,
            Param::Verbatim(_) => 1,
            Param::Ref(_) => 2,
            Param::Int(..) => 3,
        }
    }
    let (x, y) = (view(ctx, a), view(ctx, b));
    match rank(&x).cmp(&rank(&y)) {
        Ordering::Equal => {}
        o => return o,
    }
    match (x, y) {
        (Param::Verbatim(p), Param::Verbatim(q)) | (Param::Ref(p), Param::Ref(q)) => p.cmp(&q),
        (Param::Expr(o1, a1), Param::Expr(o2, a2)) => {
            o1.cmp(o2).then(a2.len().cmp(&a1.len())).then_with(|| {
                a1.iter()
                    .zip(a2)
                    .map(|(&p, &q)| operand_order(ctx, p, q))
                    .find(|o| o.is_ne())
                    .unwrap_or(Ordering::Equal)
            })
        }
        _ => Ordering::Equal,
    }
}

/// `op` over constant operands as unsigned `w`-bit values (the one
/// meaning of the operators, for folding and evaluation); `None` for a
/// division by zero.
fn apply(op: &str, vals: &[BigUint], w: u32) -> Option<BigUint> {
    let m = mask(w);
    let signed = |v: &BigUint| to_signed(v, w);
    let first = vals.first()?;
    let v = match op {
        "add" => vals.iter().fold(BigUint::zero(), |a, b| a + b),
        "mul" => vals.iter().fold(BigUint::one(), |a, b| a * b),
        "and" => vals.iter().fold(m.clone(), |a, b| a & b),
        "or" => vals.iter().fold(BigUint::zero(), |a, b| a | b),
        "xor" => vals.iter().fold(BigUint::zero(), |a, b| a ^ b),
        "clog2" if *first <= BigUint::one() => BigUint::zero(),
        "clog2" => BigUint::from((first - BigUint::one()).bits()),
        _ => {
            let rhs = vals.get(1)?;
            let shift = u32::try_from(rhs).unwrap_or(u32::MAX).min(w);
            match op {
                "shl" => first << shift,
                "shru" => first >> shift,
                "shrs" => to_unsigned(&(signed(first) >> shift), w),
                "divu" if !rhs.is_zero() => first / rhs,
                "modu" if !rhs.is_zero() => first % rhs,
                "divs" if !rhs.is_zero() => to_unsigned(&(signed(first) / signed(rhs)), w),
                "mods" if !rhs.is_zero() => to_unsigned(&(signed(first) % signed(rhs)), w),
                _ => return None,
            }
        }
    };
    Some(v & m)
}

/// Folds an operator whose operands are all constants.
fn fold_constants(ctx: &mut Context, op: &str, ops: &[Attr]) -> Option<Attr> {
    let parts: Vec<(BigUint, BigInt, u32)> = ops
        .iter()
        .map(|&a| int_parts(ctx, a))
        .collect::<Option<_>>()?;
    let w = parts.first()?.2;
    let vals: Vec<BigUint> = parts.into_iter().map(|p| p.0).collect();
    let v = apply(op, &vals, w)?;
    let ty = type_of(ctx, ops[0]);
    Some(int(ctx, ty, &BigInt::from(v)))
}

fn mask(w: u32) -> BigUint {
    (BigUint::one() << w) - BigUint::one()
}

/// Flattens, orders and folds an associative operator's operands;
/// `Some` when one operand (or a destructive constant) is left.
fn simplify_assoc(
    ctx: &mut Context,
    op: &'static str,
    ops: &mut Vec<Attr>,
    identity: fn(&BigUint, u32) -> bool,
    destructive: Option<fn(&BigUint, u32) -> bool>,
) -> Option<Attr> {
    if ops.len() == 1 {
        return Some(ops[0]);
    }
    let mut flat = Vec::with_capacity(ops.len());
    for &a in ops.iter() {
        match view(ctx, a) {
            Param::Expr(o, inner) if o == op => flat.extend_from_slice(inner),
            _ => flat.push(a),
        }
    }
    flat.sort_by(|&a, &b| operand_order(ctx, a, b));
    *ops = flat;
    let last = *ops.last()?;
    if let Some((mut acc, _, w)) = int_parts(ctx, last) {
        let ty = type_of(ctx, last);
        ops.pop();
        while let Some((c, _, _)) = ops.last().and_then(|&a| int_parts(ctx, a)) {
            acc = apply(op, &[c, acc], w)?;
            ops.pop();
        }
        let cst = int(ctx, ty, &BigInt::from(acc.clone()));
        if destructive.is_some_and(|d| d(&acc, w)) {
            return Some(cst);
        }
        if !identity(&acc, w) || ops.is_empty() {
            ops.push(cst);
        }
    }
    (ops.len() == 1).then(|| ops[0])
}

/// Splits `x * y * 42` into `x * y` and `42`.
fn decompose_addend(ctx: &mut Context, a: Attr) -> (Attr, Option<Attr>) {
    if let Param::Expr("mul", ops) = view(ctx, a) {
        let ops = ops.to_vec();
        if let Some((&last, rest)) = ops.split_last() {
            if int_parts(ctx, last).is_some() {
                return (expr(ctx, "mul", rest.to_vec()), Some(last));
            }
        }
    }
    (a, None)
}

fn simplify_add(ctx: &mut Context, ops: &mut Vec<Attr>) -> Option<Attr> {
    let r = simplify_assoc(ctx, "add", ops, |c, _| c.is_zero(), None);
    if r.is_some() {
        return r;
    }
    let mut parts: Vec<(Attr, Option<Attr>)> = Vec::new();
    for k in 0..ops.len() {
        let part = decompose_addend(ctx, ops[k]);
        if let Some(i) = parts.iter().position(|p| p.0 == part.0) {
            let ty = type_of(ctx, part.0);
            let one = int(ctx, ty, &BigInt::one());
            let c1 = parts[i].1.unwrap_or(one);
            let c2 = part.1.unwrap_or(one);
            ops.remove(k);
            ops.remove(i);
            let factor = expr(ctx, "add", vec![c1, c2]);
            let term = expr(ctx, "mul", vec![part.0, factor]);
            ops.push(term);
            return Some(expr(ctx, "add", std::mem::take(ops)));
        }
        parts.push(part);
    }
    None
}

fn simplify_mul(ctx: &mut Context, ops: &mut Vec<Attr>) -> Option<Attr> {
    let r = simplify_assoc(ctx, "mul", ops, |c, _| c.is_one(), Some(|c, _| c.is_zero()));
    if r.is_some() {
        return r;
    }
    // A sum of products: (a + b) * c => a*c + b*c.
    let i = ops
        .iter()
        .position(|&a| matches!(view(ctx, a), Param::Expr("add", _)))?;
    let Param::Expr(_, terms) = view(ctx, ops[i]) else {
        return None;
    };
    let terms = terms.to_vec();
    let mut factors = ops.clone();
    factors.remove(i);
    let products = terms
        .into_iter()
        .map(|t| {
            let mut f = factors.clone();
            f.push(t);
            expr(ctx, "mul", f)
        })
        .collect();
    Some(expr(ctx, "add", products))
}

/// Folds a binary operator over two constants, or simplifies it by a
/// constant right operand (`x << 2` → `x * 4`, `x >> 0`, `x / 1`, `x % 1`).
fn simplify_binary(ctx: &mut Context, op: &str, ops: &[Attr]) -> Option<Attr> {
    let (&lhs, &rhs) = (ops.first()?, ops.get(1)?);
    let (ru, _, w) = int_parts(ctx, rhs)?;
    if int_parts(ctx, lhs).is_some() {
        return fold_constants(ctx, op, ops);
    }
    let rty = type_of(ctx, rhs);
    match op {
        "shl" => {
            let factor = apply("shl", &[BigUint::one(), ru], w)?;
            let factor = int(ctx, rty, &BigInt::from(factor));
            Some(expr(ctx, "mul", vec![lhs, factor]))
        }
        "shru" | "shrs" if ru.is_zero() => Some(lhs),
        "divu" | "divs" if ru.is_one() => Some(lhs),
        "modu" | "mods" if ru.is_one() => Some(int(ctx, rty, &BigInt::zero())),
        _ => None,
    }
}

fn simplify_str_concat(ctx: &mut Context, ops: &[Attr]) -> Option<Attr> {
    let mut out: Vec<Attr> = Vec::new();
    let mut pending: Vec<u8> = Vec::new();
    let mut run = 0;
    let flush = |ctx: &mut Context, out: &mut Vec<Attr>, pending: &mut Vec<u8>, run: &mut usize| {
        if *run > 0 {
            out.push(ctx.string_attr(pending));
            pending.clear();
            *run = 0;
        }
    };
    for &a in ops {
        if let AttrKind::String { value, .. } = ctx.attr_kind(a) {
            pending.extend_from_slice(value);
            run += 1;
        } else {
            flush(ctx, &mut out, &mut pending, &mut run);
            out.push(a);
        }
    }
    flush(ctx, &mut out, &mut pending, &mut run);
    if out.len() == 1 {
        return Some(out[0]);
    }
    (out.len() < ops.len()).then(|| expr(ctx, "str.concat", out))
}

/// `#hw.param.expr.<op><operands>` in canonical form: possibly a constant
/// or one of the operands. The operands share one type, the result's.
pub fn expr(ctx: &mut Context, op: &str, mut ops: Vec<Attr>) -> Attr {
    let op: &'static str = OPCODES.iter().find(|&&o| o == op).copied().unwrap_or("add");
    let ty = ops
        .first()
        .map(|&a| type_of(ctx, a))
        .unwrap_or_else(|| ctx.none_type());
    let integer = width_of(ctx, ty).is_some();
    let folded = match op {
        "add" if integer => simplify_add(ctx, &mut ops),
        "mul" if integer => simplify_mul(ctx, &mut ops),
        "and" if integer => simplify_assoc(
            ctx,
            op,
            &mut ops,
            |c, w| *c == mask(w),
            Some(|c, _| c.is_zero()),
        ),
        "or" if integer => simplify_assoc(
            ctx,
            op,
            &mut ops,
            |c, _| c.is_zero(),
            Some(|c, w| *c == mask(w)),
        ),
        "xor" if integer => simplify_assoc(ctx, op, &mut ops, |c, _| c.is_zero(), None),
        "clog2" => fold_constants(ctx, op, &ops),
        "str.concat" => simplify_str_concat(ctx, &ops),
        _ => simplify_binary(ctx, op, &ops),
    };
    if let Some(a) = folded {
        return a;
    }
    make(ctx, &format!("param.expr.{op}"), ty, &ops)
}

// ----- elaboration ----------------------------------------------------------

/// `a` with every reference replaced by its value in `bindings` and
/// re-canonicalised; `Err(name)` for a reference `bindings` lacks.
pub fn substitute(ctx: &mut Context, a: Attr, bindings: &[(String, Attr)]) -> Result<Attr, String> {
    match view(ctx, a) {
        Param::Ref(name) => bindings
            .iter()
            .find(|(n, _)| *n == name)
            .map(|b| b.1)
            .ok_or(name),
        Param::Expr(op, ops) => {
            let ops = ops.to_vec();
            let mut new = Vec::with_capacity(ops.len());
            for o in ops {
                new.push(substitute(ctx, o, bindings)?);
            }
            Ok(expr(ctx, op, new))
        }
        _ => Ok(a),
    }
}

/// The unsigned value of `a` with `bindings` substituted, without
/// building attributes; `None` when it is not a constant (a verbatim, an
/// unbound reference, a division by zero).
pub fn evaluate(ctx: &Context, a: Attr, bindings: &[(String, Attr)]) -> Option<BigUint> {
    match view(ctx, a) {
        Param::Int(..) => int_parts(ctx, a).map(|p| p.0),
        Param::Ref(name) => {
            let (_, v) = bindings.iter().find(|(n, _)| *n == name)?;
            evaluate(ctx, *v, &[])
        }
        Param::Expr(op, ops) => {
            let w = match ctx.attr_kind(a) {
                AttrKind::Dialect { params, .. } => width_of(ctx, type_param(ctx, params[0])?)?,
                _ => return None,
            };
            let vals: Vec<BigUint> = ops
                .iter()
                .map(|&o| evaluate(ctx, o, bindings))
                .collect::<Option<_>>()?;
            apply(op, &vals, w)
        }
        _ => None,
    }
}

/// Whether `formal` with `bindings` substituted is `actual`, compared as
/// written (for parametric values that stay symbolic).
pub fn same_after(ctx: &Context, formal: Attr, bindings: &[(String, Attr)], actual: Attr) -> bool {
    match (view(ctx, formal), view(ctx, actual)) {
        (Param::Ref(name), _) => bindings
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(formal == actual, |b| b.1 == actual),
        (Param::Expr(o1, a1), Param::Expr(o2, a2)) => {
            o1 == o2
                && a1.len() == a2.len()
                && a1
                    .iter()
                    .zip(a2)
                    .all(|(&f, &a)| same_after(ctx, f, bindings, a))
        }
        _ => formal == actual,
    }
}

/// The references `a` makes, with the types they are used at.
pub fn references(ctx: &Context, a: Attr, out: &mut Vec<(String, Type)>) {
    match view(ctx, a) {
        Param::Ref(name) => {
            if let AttrKind::Dialect { params, .. } = ctx.attr_kind(a) {
                if let Some(t) = type_param(ctx, params[0]) {
                    out.push((name, t));
                }
            }
        }
        Param::Expr(_, ops) => {
            for &o in ops {
                references(ctx, o, out);
            }
        }
        _ => {}
    }
}

// ----- syntax -----------------------------------------------------------------

/// The `type_of` hook of the hw dialect's attributes.
pub(crate) fn attr_type(ctx: &Context, name: &str, params: &[Attr]) -> Option<Type> {
    if !name.starts_with("param.") {
        return None;
    }
    type_param(ctx, *params.first()?)
}

/// Parses an hw attribute after `#hw.`.
pub(crate) fn parse_attr(p: &mut AsmParser<'_, '_>, mnemonic: &str) -> PResult<Attr> {
    let given = p.attr_type();
    let at = p.start_pos();
    match mnemonic {
        "param.decl" => {
            p.expect(Tok::Less, "'<'")?;
            let name = p.parse_string()?;
            p.expect(Tok::Colon, "':'")?;
            let ty = p.parse_type()?;
            let value = if p.eat(Tok::Equal) {
                Some(parse_value(p, ty)?)
            } else {
                None
            };
            p.expect(Tok::Greater, "'>'")?;
            let name = String::from_utf8_lossy(&name).into_owned();
            Ok(decl(p.ctx(), &name, ty, value))
        }
        "param.decl.ref" | "param.verbatim" => {
            p.expect(Tok::Less, "'<'")?;
            let text = p.parse_string()?;
            p.expect(Tok::Greater, "'>'")?;
            let Some(ty) = given else {
                return p.expected("':' and the type of the parameter attribute");
            };
            let text = String::from_utf8_lossy(&text).into_owned();
            Ok(if mnemonic == "param.decl.ref" {
                decl_ref(p.ctx(), &text, ty)
            } else {
                verbatim(p.ctx(), &text, ty)
            })
        }
        m => {
            let Some(op) = m.strip_prefix("param.expr.") else {
                if m == "param.expr" {
                    return p.error_at(at, "#hw.param.expr should have opcode suffix");
                }
                return p.error_at(at, format!("unknown hw attribute '{m}'"));
            };
            if !OPCODES.contains(&op) {
                return p.error_at(at, "unknown parameter expr operator name");
            }
            p.expect(Tok::Less, "'<'")?;
            let mut ops = Vec::new();
            loop {
                ops.push(match given {
                    Some(t) => parse_value(p, t)?,
                    None => p.parse_attribute()?,
                });
                if !p.eat(Tok::Comma) {
                    break;
                }
            }
            p.expect(Tok::Greater, "'>'")?;
            let ty = type_of(p.ctx(), ops[0]);
            for &o in &ops[1..] {
                if type_of(p.ctx(), o) != ty {
                    return p.error_at(at, "parameter expression operands must have one type");
                }
            }
            Ok(expr(p.ctx(), op, ops))
        }
    }
}

/// A parameter value of type `ty` (`4`, `true`, `"s"`, `#hw.param...`).
pub fn parse_value(p: &mut AsmParser<'_, '_>, ty: Type) -> PResult<Attr> {
    let is_none = matches!(p.ctx().type_kind(ty), TypeKind::None);
    if is_none && p.peek(Tok::String) {
        let s = p.parse_string()?;
        return Ok(p.ctx().string_attr(&s));
    }
    p.parse_attribute_of_type(ty)
}

/// Prints an hw attribute's body after `#hw.`.
pub(crate) fn print_attr(pp: &ParamPrinter<'_>, out: &mut String, name: &str, params: &[Attr]) {
    let ctx = pp.ctx();
    out.push('<');
    match name {
        "param.decl" => {
            pp.attr_without_type(out, params[1]);
            out.push_str(": ");
            if let Some(t) = type_param(ctx, params[0]) {
                pp.ty(out, t);
            }
            if let Some(&v) = params.get(2) {
                out.push_str(" = ");
                pp.attr_without_type(out, v);
            }
        }
        _ => {
            for (i, &a) in params[1..].iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                pp.attr_without_type(out, a);
            }
        }
    }
    out.push('>');
}

/// Prints a parameter value as CIRCT does in module and instance
/// headers: without its type.
pub fn print_value(pp: &ParamPrinter<'_>, out: &mut String, a: Attr) {
    pp.attr_without_type(out, a);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_gather_like_terms_and_fold_constants() {
        let mut ctx = Context::new();
        let i4 = ctx.signless(4);
        let p1 = decl_ref(&mut ctx, "p1", i4);
        let four = int(&mut ctx, i4, &BigInt::from(4));
        let e = expr(&mut ctx, "add", vec![p1, four, p1]);
        let two = int(&mut ctx, i4, &BigInt::from(2));
        let m = expr(&mut ctx, "mul", vec![p1, two]);
        assert_eq!(view(&ctx, e), Param::Expr("add", &[m, four]));
        let eight = int(&mut ctx, i4, &BigInt::from(8));
        assert_eq!(expr(&mut ctx, "add", vec![eight, p1, eight]), p1);
        let bound = substitute(&mut ctx, e, &[("p1".into(), two)]).unwrap();
        assert_eq!(
            int_parts(&ctx, bound).map(|p| p.0),
            Some(BigUint::from(8u32))
        );
    }
}
