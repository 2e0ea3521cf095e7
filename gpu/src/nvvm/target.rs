//! `#nvvm.target<O = 3, triple = "...", chip = "sm_90", features =
//! "+ptx80", flags = {...}, link = [...]>`: what a `gpu.module` is
//! compiled for. Parameters at their defaults (O 2, triple
//! `nvptx64-nvidia-cuda`, chip `sm_50`, no features) are not printed,
//! so `#nvvm.target` alone is the default target.

use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::ParamPrinter;
use silica_ir::{Attr, AttrKind, Context};

pub const DEFAULT_TRIPLE: &str = "nvptx64-nvidia-cuda";
pub const DEFAULT_CHIP: &str = "sm_50";
const DEFAULT_O: i64 = 2;

/// The parameters of an `#nvvm.target`.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    pub opt_level: i64,
    pub triple: String,
    pub chip: String,
    pub features: String,
    /// `flags = {fast, ftz}` and `link = [...]`, as written.
    pub flags: Option<Attr>,
    pub link: Option<Attr>,
}

impl Default for Target {
    fn default() -> Target {
        Target {
            opt_level: DEFAULT_O,
            triple: DEFAULT_TRIPLE.into(),
            chip: DEFAULT_CHIP.into(),
            features: String::new(),
            flags: None,
            link: None,
        }
    }
}

impl Target {
    /// The attribute.
    pub fn attr(&self, ctx: &mut Context) -> Attr {
        let i32 = ctx.signless(32);
        let mut params = vec![
            ctx.int_attr(i32, self.opt_level),
            ctx.string_attr(self.triple.as_bytes()),
            ctx.string_attr(self.chip.as_bytes()),
            ctx.string_attr(self.features.as_bytes()),
        ];
        let unit = ctx.unit_attr();
        params.push(self.flags.unwrap_or(unit));
        params.push(self.link.unwrap_or(unit));
        let dialect = ctx.sym("nvvm");
        let name = ctx.sym("target");
        ctx.intern_attr(AttrKind::Dialect {
            dialect,
            name,
            params: params.into_boxed_slice(),
        })
    }

    /// The target an `#nvvm.target` attribute describes.
    pub fn of(ctx: &Context, a: Attr) -> Option<Target> {
        match ctx.attr_kind(a) {
            AttrKind::Dialect {
                dialect,
                name,
                params,
            } if ctx.str(*dialect) == "nvvm" && ctx.str(*name) == "target" => {
                from_params(ctx, params)
            }
            _ => None,
        }
    }
}

/// The target of an `#nvvm.target`'s parameters (see [`Target::attr`]).
fn from_params(ctx: &Context, params: &[Attr]) -> Option<Target> {
    let [o, triple, chip, features, flags, link] = params else {
        return None;
    };
    let text = |a: Attr| match ctx.attr_kind(a) {
        AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    };
    let present = |a: Attr| (!matches!(ctx.attr_kind(a), AttrKind::Unit)).then_some(a);
    Some(Target {
        opt_level: match ctx.attr_kind(*o) {
            AttrKind::Integer { value, .. } => i64::try_from(value).ok()?,
            _ => return None,
        },
        triple: text(*triple)?,
        chip: text(*chip)?,
        features: text(*features)?,
        flags: present(*flags),
        link: present(*link),
    })
}

pub(super) fn parse_attr(p: &mut AsmParser<'_, '_>, mnemonic: &str) -> PResult<Attr> {
    if mnemonic != "target" {
        let at = p.start_pos();
        return p.error_at(at, format!("unknown nvvm attribute '{mnemonic}'"));
    }
    let mut t = Target::default();
    if p.eat(Tok::Less) {
        p.comma_list(Tok::Greater, "'>'", |p| {
            let at = p.pos();
            let key = p.parse_keyword()?;
            p.expect(Tok::Equal, "'='")?;
            match key {
                "O" => {
                    let at = p.pos();
                    t.opt_level = match i64::try_from(&p.parse_integer()?) {
                        Ok(o) if (0..=3).contains(&o) => o,
                        _ => {
                            return p.error_at(
                                at,
                                "The optimization level must be a number between 0 and 3.",
                            )
                        }
                    };
                }
                "triple" | "chip" | "features" => {
                    let value = String::from_utf8_lossy(&p.parse_string()?).into_owned();
                    match key {
                        "triple" => t.triple = value,
                        "chip" => t.chip = value,
                        _ => t.features = value,
                    }
                }
                "flags" => t.flags = Some(p.parse_attribute()?),
                "link" => t.link = Some(p.parse_attribute()?),
                _ => return p.error_at(at, format!("unknown parameter '{key}' of #nvvm.target")),
            }
            Ok(())
        })?;
    }
    Ok(t.attr(p.ctx()))
}

pub(super) fn print_attr(pp: &ParamPrinter<'_>, out: &mut String, _: &str, params: &[Attr]) {
    let ctx = pp.ctx();
    let Some(t) = from_params(ctx, params) else {
        return;
    };
    let mut parts = Vec::new();
    if t.opt_level != DEFAULT_O {
        parts.push(format!("O = {}", t.opt_level));
    }
    let quoted = |s: &str| {
        let mut q = String::new();
        silica_ir::printer::quoted_into(&mut q, s.as_bytes());
        q
    };
    if t.triple != DEFAULT_TRIPLE {
        parts.push(format!("triple = {}", quoted(&t.triple)));
    }
    if t.chip != DEFAULT_CHIP {
        parts.push(format!("chip = {}", quoted(&t.chip)));
    }
    if !t.features.is_empty() {
        parts.push(format!("features = {}", quoted(&t.features)));
    }
    for (key, value) in [("flags", t.flags), ("link", t.link)] {
        if let Some(v) = value {
            let mut text = String::new();
            pp.attr(&mut text, v);
            parts.push(format!("{key} = {text}"));
        }
    }
    if !parts.is_empty() {
        out.push('<');
        out.push_str(&parts.join(", "));
        out.push('>');
    }
}
