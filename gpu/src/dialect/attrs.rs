//! The `gpu` dialect's attributes: a dimension (`#gpu<dim x>`), the
//! mapping of a parallel loop to a processor
//! (`#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound
//! = (d0) -> (d0)>`) and an address space
//! (`#gpu.address_space<workgroup>`).

use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::ParamPrinter;
use silica_ir::{Attr, AttrKind, Context};

/// One of the three dimensions of a grid or block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    X,
    Y,
    Z,
}

impl Dim {
    pub const ALL: [Dim; 3] = [Dim::X, Dim::Y, Dim::Z];

    pub fn name(self) -> &'static str {
        match self {
            Dim::X => "x",
            Dim::Y => "y",
            Dim::Z => "z",
        }
    }

    pub fn from_name(s: &str) -> Option<Dim> {
        Dim::ALL.into_iter().find(|d| d.name() == s)
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// The processors a parallel loop maps to (MLIR's `gpu::Processor`).
pub const PROCESSORS: [&str; 7] = [
    "block_x",
    "block_y",
    "block_z",
    "thread_x",
    "thread_y",
    "thread_z",
    "sequential",
];

/// The address spaces of `#gpu.address_space`.
const ADDRESS_SPACES: [&str; 3] = ["global", "workgroup", "private"];

fn dialect_attr(ctx: &mut Context, name: &str, params: Vec<Attr>) -> Attr {
    let dialect = ctx.sym("gpu");
    let name = ctx.sym(name);
    ctx.intern_attr(AttrKind::Dialect {
        dialect,
        name,
        params: params.into_boxed_slice(),
    })
}

/// The parameters of the `gpu` attribute `a` named `mnemonic`.
fn params_of<'c>(ctx: &'c Context, a: Attr, mnemonic: &str) -> Option<&'c [Attr]> {
    match ctx.attr_kind(a) {
        AttrKind::Dialect {
            dialect,
            name,
            params,
        } if ctx.str(*dialect) == "gpu" && ctx.str(*name) == mnemonic => Some(params),
        _ => None,
    }
}

fn text_of(ctx: &Context, a: Attr) -> Option<&str> {
    match ctx.attr_kind(a) {
        AttrKind::String { value, .. } => std::str::from_utf8(value).ok(),
        _ => None,
    }
}

/// `#gpu<dim x>`.
pub fn dim_attr(ctx: &mut Context, d: Dim) -> Attr {
    let value = ctx.string_attr(d.name().as_bytes());
    dialect_attr(ctx, "dim", vec![value])
}

/// The dimension `#gpu<dim ...>` names.
pub fn dim_of(ctx: &Context, a: Attr) -> Option<Dim> {
    let params = params_of(ctx, a, "dim")?;
    Dim::from_name(text_of(ctx, *params.first()?)?)
}

/// `#gpu.loop_dim_map<processor = p, map = m, bound = b>`.
pub fn loop_dim_map(ctx: &mut Context, processor: &str, map: Attr, bound: Attr) -> Attr {
    let p = ctx.string_attr(processor.as_bytes());
    dialect_attr(ctx, "loop_dim_map", vec![p, map, bound])
}

/// The processor, map and bound of a `#gpu.loop_dim_map`.
pub fn loop_dim_map_of(ctx: &Context, a: Attr) -> Option<(&str, Attr, Attr)> {
    match params_of(ctx, a, "loop_dim_map")? {
        [p, map, bound] => Some((text_of(ctx, *p)?, *map, *bound)),
        _ => None,
    }
}

/// The formats of a `#gpu.object`, by keyword; `fatbin`, the default,
/// is not written.
pub const OBJECT_FORMATS: [&str; 4] = ["offload", "assembly", "bin", "fatbin"];

/// `#gpu.object<target, [properties = {...},] [format =] "object">`: a
/// `gpu.module` compiled for `target` (`gpu-module-to-binary`).
pub fn object(
    ctx: &mut Context,
    target: Attr,
    properties: Option<Attr>,
    format: &str,
    object: &[u8],
) -> Attr {
    let properties = properties.unwrap_or_else(|| ctx.unit_attr());
    let format = ctx.string_attr(format.as_bytes());
    let object = ctx.string_attr(object);
    dialect_attr(ctx, "object", vec![target, properties, format, object])
}

/// `#gpu.select_object[<target>]`: the offloading handler of a
/// `gpu.binary` (which object a launch loads), the first without one.
pub fn select_object(ctx: &mut Context, target: Option<Attr>) -> Attr {
    dialect_attr(ctx, "select_object", target.into_iter().collect())
}

/// Whether `a` is a `#gpu.select_object` without a target (the default).
pub fn is_default_select_object(ctx: &Context, a: Attr) -> bool {
    params_of(ctx, a, "select_object").is_some_and(|p| p.is_empty())
}

/// Whether `a` is a `#gpu.object`.
pub fn is_object(ctx: &Context, a: Attr) -> bool {
    params_of(ctx, a, "object").is_some()
}

/// Parses the attribute `mnemonic`'s parameters.
pub(super) fn parse_attr(p: &mut AsmParser<'_, '_>, mnemonic: &str) -> PResult<Attr> {
    let start = p.start_pos();
    match mnemonic {
        "dim" => {
            let at = p.pos();
            let word = p.parse_keyword()?;
            let Some(d) = Dim::from_name(word) else {
                return p.error_at(
                    at,
                    "expected ::mlir::gpu::Dimension to be one of: x, y, z".to_string(),
                );
            };
            Ok(dim_attr(p.ctx(), d))
        }
        "address_space" => {
            p.expect(Tok::Less, "'<'")?;
            let at = p.pos();
            let word = p.parse_keyword()?;
            if !ADDRESS_SPACES.contains(&word) {
                return p.error_at(at, format!("expected one of [global, workgroup, private] for GPU address space, got: {word}"));
            }
            p.expect(Tok::Greater, "'>'")?;
            let value = p.ctx().string_attr(word.as_bytes());
            Ok(dialect_attr(p.ctx(), "address_space", vec![value]))
        }
        "loop_dim_map" => {
            p.expect(Tok::Less, "'<'")?;
            p.expect_keyword("processor")?;
            p.expect(Tok::Equal, "'='")?;
            let at = p.pos();
            let processor = p.parse_keyword()?;
            if !PROCESSORS.contains(&processor) {
                return p.error_at(
                    at,
                    format!(
                        "expected one of [{}] for processor, got: {processor}",
                        PROCESSORS.join(", ")
                    ),
                );
            }
            p.expect(Tok::Comma, "','")?;
            p.expect_keyword("map")?;
            p.expect(Tok::Equal, "'='")?;
            let map = p.parse_affine_map()?;
            p.expect(Tok::Comma, "','")?;
            p.expect_keyword("bound")?;
            p.expect(Tok::Equal, "'='")?;
            let bound = p.parse_affine_map()?;
            p.expect(Tok::Greater, "'>'")?;
            Ok(loop_dim_map(p.ctx(), processor, map, bound))
        }
        "object" => {
            p.expect(Tok::Less, "'<'")?;
            let target = p.parse_attribute()?;
            p.expect(Tok::Comma, "','")?;
            let mut properties = None;
            if p.eat_keyword("properties") {
                p.expect(Tok::Equal, "'='")?;
                properties = Some(p.parse_attribute()?);
                p.expect(Tok::Comma, "','")?;
            }
            if p.peek_keyword("kernels") {
                let at = p.pos();
                return p.error_at(
                    at,
                    "#gpu.object with a kernel table is not supported by silica",
                );
            }
            let mut format = "fatbin";
            for f in OBJECT_FORMATS {
                if p.eat_keyword(f) {
                    p.expect(Tok::Equal, "'='")?;
                    format = f;
                    break;
                }
            }
            let text = p.parse_string()?;
            p.expect(Tok::Greater, "'>'")?;
            Ok(object(p.ctx(), target, properties, format, &text))
        }
        "select_object" => {
            let target = if p.eat(Tok::Less) {
                let a = p.parse_attribute()?;
                p.expect(Tok::Greater, "'>'")?;
                Some(a)
            } else {
                None
            };
            Ok(select_object(p.ctx(), target))
        }
        _ => p.error_at(start, format!("unknown gpu attribute '{mnemonic}'")),
    }
}

/// An affine map attribute written bare, `(d0) -> (d0)`.
fn bare_map(ctx: &Context, out: &mut String, a: Attr) {
    if let AttrKind::AffineMap(m) = ctx.attr_kind(a) {
        silica_ir::affine::print_map(out, m);
    }
}

/// Prints the parameters of the attribute `mnemonic`.
pub(super) fn print_attr(pp: &ParamPrinter<'_>, out: &mut String, mnemonic: &str, params: &[Attr]) {
    let ctx = pp.ctx();
    match (mnemonic, params) {
        ("dim", [d]) => out.push_str(text_of(ctx, *d).unwrap_or("x")),
        ("address_space", [s]) => {
            out.push('<');
            out.push_str(text_of(ctx, *s).unwrap_or("global"));
            out.push('>');
        }
        ("loop_dim_map", [processor, map, bound]) => {
            out.push_str("<processor = ");
            out.push_str(text_of(ctx, *processor).unwrap_or("sequential"));
            out.push_str(", map = ");
            bare_map(ctx, out, *map);
            out.push_str(", bound = ");
            bare_map(ctx, out, *bound);
            out.push('>');
        }
        ("object", [target, properties, format, object]) => {
            out.push('<');
            pp.attr(out, *target);
            if !matches!(ctx.attr_kind(*properties), AttrKind::Unit) {
                out.push_str(", properties = ");
                pp.attr(out, *properties);
            }
            out.push_str(", ");
            match text_of(ctx, *format) {
                Some("fatbin") | None => {}
                Some(f) => {
                    out.push_str(f);
                    out.push_str(" = ");
                }
            }
            pp.attr(out, *object);
            out.push('>');
        }
        ("select_object", []) => {}
        ("select_object", [target]) => {
            out.push('<');
            pp.attr(out, *target);
            out.push('>');
        }
        _ => pp.params(out, params),
    }
}
