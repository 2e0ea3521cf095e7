//! C input through `silica_c`: the options the C front end takes
//! (`-I`, `-D`, `-std`), shared by the commands that read `.c` files,
//! and the import of a file with its errors printed.

use clap::Args;
use silica_ir::parser::ParsedModule;
use silica_ir::Context;
use std::path::Path;

/// The preprocessor and language options of C input.
#[derive(Args, Debug, Clone, Default)]
pub struct CArgs {
    /// C input: add DIR to the include search path (repeatable).
    #[arg(short = 'I', value_name = "DIR")]
    pub includes: Vec<String>,
    /// C input: define a macro, NAME or NAME=VALUE (repeatable).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub defines: Vec<String>,
    /// C input: the language standard (c99, c11, gnu17, ...).
    #[arg(long = "std", value_name = "STD")]
    pub std: Option<String>,
}

impl CArgs {
    /// The options as the C front end takes them.
    pub fn options(&self) -> silica_c::Options {
        silica_c::Options {
            includes: self.includes.clone(),
            defines: self.defines.clone(),
            std: self.std.clone(),
        }
    }

    /// The options as a command line gives them again (` -I DIR -D
    /// NAME=V --std S`, each value quoted for a POSIX shell where it
    /// needs it); empty without any.
    pub fn command_line(&self) -> String {
        let mut out = String::new();
        for (flag, values) in [("-I", &self.includes), ("-D", &self.defines)] {
            for v in values {
                out.push_str(&format!(" {flag} {}", shell_word(v)));
            }
        }
        if let Some(s) = &self.std {
            out.push_str(&format!(" --std {}", shell_word(s)));
        }
        out
    }
}

/// `word` as one word of a POSIX shell: as it is where it holds only
/// characters the shell takes literally, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-+=.,/:@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Imports the C file `path` (the function `top` and its callees, or
/// every function it defines); prints clang's warnings, and the error
/// where there is one.
pub fn import(ctx: &mut Context, path: &str, top: Option<&str>, c: &CArgs) -> Option<ParsedModule> {
    import_with_signatures(ctx, path, top, c).map(|i| i.module)
}

/// [`import`], with the C signature of each function.
pub fn import_with_signatures(
    ctx: &mut Context,
    path: &str,
    top: Option<&str>,
    c: &CArgs,
) -> Option<silica_c::Imported> {
    match silica_c::import(ctx, Path::new(path), &c.options(), top) {
        Ok(imported) => {
            eprint!("{}", imported.warnings);
            Some(imported)
        }
        Err(e) => {
            eprint!("{}", e.render());
            None
        }
    }
}

/// The MLIR of the C file `path` as text, every op located at its C
/// source (`loc("kernel.c":3:5)`), for the commands that read MLIR
/// text; errors printed.
pub fn mlir_text(path: &str, top: Option<&str>, c: &CArgs) -> Option<Vec<u8>> {
    let mut ctx = crate::driver::new_context(false);
    let module = import(&mut ctx, path, top, c)?;
    let flags = silica_ir::printer::PrintFlags {
        debug_info: true,
        ..Default::default()
    };
    let mut out = Vec::new();
    silica_ir::printer::print_module_to(
        &ctx,
        &module.ir,
        module.top,
        &module.resources,
        flags,
        &mut out,
    )
    .ok()?;
    Some(out)
}
