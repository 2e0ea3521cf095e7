//! The IRDL definition of a native dialect, from its ops' declarative
//! signatures: operand, result and region names with their variadicity,
//! the required attributes, and each value's type constraint as the
//! builtin bases it admits (`irdl.is` where it admits one type).
//!
//! IRDL says less than a signature can: a type predicate becomes the set
//! of bases whose sample types it accepts (`signless integer` becomes any
//! `!builtin.integer`), a constraint on non-builtin types becomes
//! `irdl.any`, and a variable binds once per instance, so the values of a
//! variadic group share one type. Ops without a signature, and ops whose
//! names IRDL does not allow (`compreg.ce`), are listed in a comment.

use super::ops::name_error;
use crate::context::{Context, Type};
use crate::dialect::OpDef;
use crate::format::{Arity, AttrParam, Signature, TypeConstraint, ValueParam};
use crate::parser::{parse, ParseOptions};
use crate::types::TypeKind;
use rustc_hash::FxHashSet;
use std::fmt::Write;

/// Sample types of each builtin base, to read a type predicate as bases.
const SAMPLES: &[(&str, &[&str])] = &[
    (
        "integer",
        &["i1", "i8", "i16", "i32", "i64", "i128", "si32", "ui32"],
    ),
    ("index", &["index"]),
    ("f16", &["f16"]),
    ("bf16", &["bf16"]),
    ("f32", &["f32"]),
    ("f64", &["f64"]),
    ("f80", &["f80"]),
    ("f128", &["f128"]),
    ("complex", &["complex<f32>", "complex<i32>"]),
    (
        "vector",
        &[
            "vector<4xi32>",
            "vector<4xf32>",
            "vector<4xi1>",
            "vector<4xindex>",
        ],
    ),
    (
        "tensor",
        &[
            "tensor<4xi32>",
            "tensor<?xf32>",
            "tensor<4xi1>",
            "tensor<4xindex>",
        ],
    ),
    ("unranked_tensor", &["tensor<*xf32>", "tensor<*xi32>"]),
    (
        "memref",
        &[
            "memref<4xi32>",
            "memref<?xf32>",
            "memref<f32>",
            "memref<4xindex>",
        ],
    ),
    ("unranked_memref", &["memref<*xf32>", "memref<*xi32>"]),
    ("none", &["none"]),
    ("tuple", &["tuple<i32>"]),
    ("function", &["(i32) -> i32"]),
];

/// The sample types, parsed once: (base, types).
fn samples(ctx: &mut Context) -> Vec<(&'static str, Vec<Type>)> {
    let mut out = Vec::new();
    for (base, texts) in SAMPLES {
        let src = format!(
            "\"builtin.unrealized_conversion_cast\"() : () -> ({})",
            texts.join(", ")
        );
        let Ok(m) = parse(ctx, "<samples>", src.as_bytes(), ParseOptions::default()) else {
            continue;
        };
        let mut types = Vec::new();
        m.ir.walk(m.top, &mut |op| {
            if m.ir.op_block(op).is_some() {
                types.extend(m.ir.results(op).map(|v| m.ir.value_type(v)));
            }
        });
        out.push((*base, types));
    }
    out
}

/// Writes the IRDL text of definitions, numbering constraint values.
struct Writer<'a> {
    ctx: &'a mut Context,
    samples: &'a [(&'static str, Vec<Type>)],
    out: String,
    next: usize,
}

impl Writer<'_> {
    fn line(&mut self, text: &str) {
        let _ = writeln!(self.out, "    {text}");
    }

    /// A fresh value defined by `rhs`; returns its name.
    fn value(&mut self, rhs: &str) -> String {
        let name = format!("%v{}", self.next);
        self.next += 1;
        self.line(&format!("{name} = {rhs}"));
        name
    }

    /// A value constraining types as `c` does.
    fn type_constraint(&mut self, c: &TypeConstraint) -> String {
        if let Some(build) = c.build {
            let t = build(self.ctx);
            // Types of dialects other tools may lack are left open.
            if !matches!(
                self.ctx.type_kind(t),
                TypeKind::Dialect { .. } | TypeKind::Opaque { .. }
            ) {
                let text = crate::printer::type_to_string(self.ctx, t);
                return self.value(&format!("irdl.is {text}"));
            }
            return self.value("irdl.any");
        }
        let mut bases = Vec::new();
        let mut all = true;
        for (base, types) in self.samples {
            let accepted = types.iter().filter(|t| (c.check)(self.ctx, **t)).count();
            all &= accepted == types.len();
            if accepted > 0 {
                bases.push(*base);
            }
        }
        if all || bases.is_empty() {
            return self.value("irdl.any");
        }
        let parts: Vec<String> = bases
            .iter()
            .map(|b| self.value(&format!("irdl.base \"!builtin.{b}\"")))
            .collect();
        if parts.len() == 1 {
            return parts[0].clone();
        }
        self.value(&format!("irdl.any_of({})", parts.join(", ")))
    }

    /// Variadic groups whose values the native op lets differ in type
    /// (IRDL makes them share one), as `op.group`.
    fn shared_variadics(name: &str, sig: &Signature) -> Vec<String> {
        sig.operands
            .iter()
            .chain(sig.results)
            .filter(|p| p.arity == Arity::Variadic && p.constraint.build.is_none())
            .filter(|p| !sig.same_types.iter().any(|g| g.contains(&p.name)))
            .map(|p| format!("{name}.{}", p.name))
            .collect()
    }

    fn op(&mut self, name: &str, sig: &Signature) {
        let _ = writeln!(self.out, "  irdl.operation @{name} {{");
        self.next = 0;
        let mut names = FxHashSet::default();
        let mut group_values: Vec<(&[&str], String)> = Vec::new();
        let mut value_list = |w: &mut Self, params: &[ValueParam], with_arity: bool| {
            let mut items = Vec::new();
            for p in params {
                let group = sig.same_types.iter().find(|g| g.contains(&p.name));
                let shared = group.and_then(|g| {
                    group_values
                        .iter()
                        .find(|(h, _)| std::ptr::eq(*h, *g))
                        .map(|(_, v)| v.clone())
                });
                let v = match shared {
                    Some(v) => v,
                    None => {
                        let v = w.type_constraint(&p.constraint);
                        if let Some(g) = group {
                            group_values.push((g, v.clone()));
                        }
                        v
                    }
                };
                let arity = match p.arity {
                    Arity::One => "",
                    Arity::Optional => "optional ",
                    Arity::Variadic => "variadic ",
                };
                let arity = if with_arity { arity } else { "" };
                items.push(format!("{}: {arity}{v}", unique_name(&mut names, p.name)));
            }
            items.join(", ")
        };
        let operands = value_list(self, sig.operands, true);
        let results = value_list(self, sig.results, true);
        let required: Vec<&AttrParam> = sig
            .attrs
            .iter()
            .filter(|a| !a.optional && a.default.is_none())
            .collect();
        let attrs: Vec<String> = required
            .iter()
            .map(|a| format!("\"{}\" = {}", a.name, self.value("irdl.any")))
            .collect();
        let regions: Vec<String> = sig
            .regions
            .iter()
            .map(|r| {
                let v = self.value("irdl.region");
                format!("{}: {v}", unique_name(&mut names, r))
            })
            .collect();
        if !sig.operands.is_empty() {
            self.line(&format!("irdl.operands({operands})"));
        }
        if !sig.results.is_empty() {
            self.line(&format!("irdl.results({results})"));
        }
        if !attrs.is_empty() {
            self.line(&format!("irdl.attributes {{{}}}", attrs.join(", ")));
        }
        if !regions.is_empty() {
            self.line(&format!("irdl.regions({})", regions.join(", ")));
        }
        self.out.push_str("  }\n");
    }
}

/// `name` in IRDL's spelling (snake case), made distinct from `taken`.
fn unique_name(taken: &mut FxHashSet<String>, name: &str) -> String {
    let mut snake = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 && !snake.ends_with('_') {
                snake.push('_');
            }
            snake.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            snake.push(c);
        } else if !snake.ends_with('_') && !snake.is_empty() {
            snake.push('_');
        }
    }
    let snake = snake.trim_end_matches('_').to_string();
    let base = if snake.is_empty() {
        "value".to_string()
    } else {
        snake
    };
    let mut candidate = base.clone();
    let mut n = 1;
    while taken.contains(&candidate) {
        candidate = format!("{base}_{n}");
        n += 1;
    }
    taken.insert(candidate.clone());
    candidate
}

/// The IRDL text of the registered dialect `dialect`, defined under the
/// name `as_name`.
pub fn export(ctx: &mut Context, dialect: &str, as_name: &str) -> Result<String, String> {
    let Some(def) = ctx.dialect(dialect) else {
        let known = ctx.dialect_names().join(", ");
        return Err(format!("unknown dialect '{dialect}' (registered: {known})"));
    };
    if let Some(rule) = name_error(as_name) {
        return Err(format!("name of dialect {rule}: '{as_name}'"));
    }
    let samples = samples(ctx);
    let mut w = Writer {
        ctx,
        samples: &samples,
        out: String::new(),
        next: 0,
    };
    let mut skipped = Vec::new();
    let mut narrowed = Vec::new();
    let _ = writeln!(w.out, "irdl.dialect @{as_name} {{");
    let mut ops: Vec<&OpDef> = def.ops.iter().collect();
    ops.sort_by_key(|d| d.name);
    for op in ops {
        let short = op.name.split_once('.').map_or(op.name, |(_, s)| s);
        match op.signature {
            Some(sig) if name_error(short).is_none() => {
                narrowed.extend(Writer::shared_variadics(short, sig));
                w.op(short, sig);
            }
            Some(_) => skipped.push(format!("{short} (name not allowed in IRDL)")),
            None => skipped.push(format!("{short} (no declarative signature)")),
        }
    }
    w.out.push_str("}\n");
    let mut text = String::new();
    if !skipped.is_empty() {
        let _ = writeln!(text, "// Not exported from '{dialect}':");
        for s in &skipped {
            let _ = writeln!(text, "//   {s}");
        }
    }
    if !narrowed.is_empty() {
        let _ = writeln!(
            text,
            "// Variadic groups whose values share one type here (IRDL binds a variable once per op):"
        );
        for n in &narrowed {
            let _ = writeln!(text, "//   {n}");
        }
    }
    text.push_str(&w.out);
    Ok(text)
}
