//! C input for silica: a C11 translation unit through `clang-22`'s
//! preprocessor and semantic analysis (its JSON AST, `clang.rs`,
//! `json.rs`), so macros, typedefs, integer promotions and the usual
//! arithmetic conversions are clang's; then its functions lowered to
//! MLIR (`lower/`): `func`, `arith`, `math`, `memref`, `scf`, and
//! `affine` where control is static. Every op is located at the C
//! source it comes from, and what silica cannot take is an error at
//! the C source (`file:line:col: error: ...`).
//!
//! [`translate`] gives the MLIR text; [`import`] parses it into a
//! context and removes what the lowering left dead (`cleanup.rs`).
//! `program.rs` builds whole C programs for `silica cosim`.

pub mod clang;
mod cleanup;
pub mod json;
mod lower;
pub mod program;
pub mod types;
pub mod unit;

pub use clang::Options;

use silica_ir::parser::{parse, ParseOptions, ParsedModule};
use silica_ir::Context;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;

/// An error in the C input, at its source location where there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub loc: Option<json::Loc>,
    pub message: String,
    /// The message is clang's diagnostics, printed as they are.
    pub verbatim: bool,
}

impl Error {
    pub fn new(loc: Option<json::Loc>, message: impl Into<String>) -> Error {
        Error {
            loc,
            message: message.into(),
            verbatim: false,
        }
    }

    /// clang's own diagnostics (`file:line:col: error: ...`).
    pub fn clang(text: String) -> Error {
        Error {
            loc: None,
            message: text,
            verbatim: true,
        }
    }
}

impl Error {
    /// The error as clang and MLIR print one: the location, the
    /// message, the source line and a caret under the column.
    pub fn render(&self) -> String {
        let mut out = format!("{self}\n");
        if let Some(l) = &self.loc {
            let line = std::fs::read_to_string(&*l.file).ok().and_then(|t| {
                t.lines()
                    .nth(l.line.saturating_sub(1) as usize)
                    .map(str::to_string)
            });
            if let Some(line) = line {
                out.push_str(&line);
                out.push('\n');
                out.push_str(&" ".repeat(l.col.saturating_sub(1) as usize));
                out.push_str("^\n");
            }
        }
        out
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.loc {
            _ if self.verbatim => write!(f, "{}", self.message),
            Some(l) => write!(f, "{l}: error: {}", self.message),
            None => write!(f, "error: {}", self.message),
        }
    }
}

/// Whether a path names C input (`.c`, `.h`).
pub fn is_c_input(path: &str) -> bool {
    path.ends_with(".c") || path.ends_with(".h")
}

/// The result of reading a C file: the MLIR text, the C signature of
/// each function lowered, and clang's warnings.
pub struct Translation {
    pub mlir: String,
    pub signatures: HashMap<String, program::CSignature>,
    pub warnings: String,
}

/// The MLIR of the C file `path`: the function `top` and what it calls,
/// or every function the file defines.
pub fn translate(path: &Path, options: &Options, top: Option<&str>) -> Result<Translation, Error> {
    let (dump, warnings) = clang::ast(path, options).map_err(Error::clang)?;
    let tree = json::parse(&dump)
        .map_err(|e| Error::new(None, format!("cannot read clang's AST: {e}")))?;
    let unit = unit::Unit::new(json::Node::tree(tree), &path.to_string_lossy());
    let names = unit.selection(top)?;
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let printed: HashMap<String, String> = clang::signatures(path, options, &refs)
        .map_err(Error::clang)?
        .into_iter()
        .collect();
    let (mlir, signatures) = lower::module(&unit, &names, &printed)?;
    Ok(Translation {
        mlir,
        signatures,
        warnings,
    })
}

/// Whether the C file `path` defines the function `name`.
pub fn defines(path: &Path, options: &Options, name: &str) -> Result<bool, Error> {
    let (dump, _) = clang::ast(path, options).map_err(Error::clang)?;
    let tree = json::parse(&dump)
        .map_err(|e| Error::new(None, format!("cannot read clang's AST: {e}")))?;
    let unit = unit::Unit::new(json::Node::tree(tree), &path.to_string_lossy());
    Ok(unit.definition(name).is_some())
}

/// A C file read into a context.
pub struct Imported {
    pub module: ParsedModule,
    pub signatures: HashMap<String, program::CSignature>,
    pub warnings: String,
}

/// Reads the C file `path` into `ctx` as a module (see [`translate`]),
/// dead values removed.
pub fn import(
    ctx: &mut Context,
    path: &Path,
    options: &Options,
    top: Option<&str>,
) -> Result<Imported, Error> {
    let t = translate(path, options, top)?;
    let name = path.to_string_lossy();
    let internal = |what: &str, d: &silica_ir::Diagnostic| {
        Error::new(
            None,
            format!(
                "internal error: the MLIR written for {name} {what}: {}",
                d.message
            ),
        )
    };
    let mut module = parse(ctx, &name, t.mlir.as_bytes(), ParseOptions::default())
        .map_err(|d| internal("does not parse", &d))?;
    silica_ir::verify::verify(ctx, &module.ir, module.top, Default::default())
        .map_err(|d| internal("does not verify", &d))?;
    cleanup::run(ctx, &mut module.ir, module.top);
    Ok(Imported {
        module,
        signatures: t.signatures,
        warnings: t.warnings,
    })
}
