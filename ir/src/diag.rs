//! Diagnostics: errors, warnings, notes and remarks attached to locations,
//! rendered as `file:line:col: error: message` with the source line, the
//! way MLIR's source-manager handler does.

use crate::attrs::{AttrKind, Location};
use crate::context::{Attr, Context};
use std::fmt::Write;

/// How severe a diagnostic is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Severity {
    Error,
    Warning,
    Note,
    Remark,
}

impl Severity {
    /// The word MLIR prints.
    pub fn word(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        }
    }
}

/// One diagnostic with its attached notes.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub loc: Attr,
    pub message: String,
    pub notes: Vec<Diagnostic>,
}

impl Diagnostic {
    /// An error at `loc`.
    pub fn error(loc: Attr, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            loc,
            message: message.into(),
            notes: Vec::new(),
        }
    }

    /// A note at `loc`.
    pub fn note(loc: Attr, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Note,
            loc,
            message: message.into(),
            notes: Vec::new(),
        }
    }

    /// Attaches a note.
    pub fn with_note(mut self, loc: Attr, message: impl Into<String>) -> Self {
        self.notes.push(Diagnostic::note(loc, message));
        self
    }
}

/// A source buffer that diagnostics can quote.
pub struct SourceFile<'a> {
    /// The name used in locations.
    pub name: &'a str,
    /// The whole file.
    pub text: &'a [u8],
}

impl SourceFile<'_> {
    /// The line (1-based) containing byte `offset` and its text.
    fn line_text(&self, line: u32) -> Option<&[u8]> {
        self.text
            .split(|&b| b == b'\n')
            .nth(line.checked_sub(1)? as usize)
    }
}

/// The file/line/column a location resolves to, looking through names,
/// call sites (the callee) and fused locations (the first file location).
pub fn file_line_col(ctx: &Context, loc: Attr) -> Option<(&str, u32, u32)> {
    let mut stack = vec![loc];
    while let Some(l) = stack.pop() {
        let AttrKind::Location(kind) = ctx.attr_kind(l) else {
            continue;
        };
        match kind {
            Location::File {
                file, line, col, ..
            } => return Some((ctx.str(*file), *line, *col)),
            Location::Name { child, .. } => stack.extend(child.iter().copied()),
            Location::CallSite { callee, .. } => stack.push(*callee),
            Location::Fused { locs, .. } => stack.extend(locs.iter().rev().copied()),
            Location::Unknown => {}
        }
    }
    None
}

/// Renders one diagnostic and its notes.
pub fn render(ctx: &Context, sources: &[SourceFile<'_>], diag: &Diagnostic) -> String {
    let mut out = String::new();
    render_one(ctx, sources, diag, true, &mut out);
    let mut prev = diag.loc;
    for note in &diag.notes {
        // Errors that follow the first one travel as its notes; like
        // every error, they show their source line.
        let show_line = note.loc != prev || note.severity == Severity::Error;
        render_one(ctx, sources, note, show_line, &mut out);
        prev = note.loc;
    }
    out
}

fn render_one(
    ctx: &Context,
    sources: &[SourceFile<'_>],
    diag: &Diagnostic,
    show_line: bool,
    out: &mut String,
) {
    match file_line_col(ctx, diag.loc) {
        Some((file, line, col)) => {
            let _ = writeln!(
                out,
                "{file}:{line}:{col}: {}: {}",
                diag.severity.word(),
                diag.message
            );
            if !show_line {
                return;
            }
            let src = sources.iter().find(|s| s.name == file);
            if let Some(text) = src.and_then(|s| s.line_text(line)) {
                out.push_str(&String::from_utf8_lossy(text));
                out.push('\n');
                for _ in 1..col {
                    out.push(' ');
                }
                out.push_str("^\n");
            }
        }
        // As MLIR's source manager handler: an unknown location is
        // `<unknown>:0`.
        None if diag.loc == ctx.unknown_loc() => {
            let _ = writeln!(
                out,
                "<unknown>:0: {}: {}",
                diag.severity.word(),
                diag.message
            );
        }
        None => {
            let mut loc = String::new();
            crate::printer::print_location_inline(ctx, diag.loc, &mut loc);
            let _ = writeln!(out, "{loc}: {}: {}", diag.severity.word(), diag.message);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_location_renders_as_mlir_does() {
        let ctx = Context::new();
        let d = Diagnostic::error(ctx.unknown_loc(), "bad option");
        assert_eq!(render(&ctx, &[], &d), "<unknown>:0: error: bad option\n");
    }
}
