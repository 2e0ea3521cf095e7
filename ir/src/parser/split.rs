//! Parsing a large buffer on two threads.
//!
//! The top-level ops (of the implicit module, or of an explicit
//! `module { ... }` spanning the buffer) are split in two at a line,
//! found by looking at the text, where one op closes and the next
//! begins. A helper thread parses the second half against a fork of the
//! context that holds the leading alias definitions; the main parser
//! parses the first half and, on reaching the split point, takes the
//! helper's ops in (importing what its fork interned) and jumps over
//! their text.
//!
//! The split is checked, not trusted: the helper's text must parse as a
//! sequence of whole ops that define and use no value at the top (so it
//! is not inside an op and does not refer to the first half), the main
//! parser must reach the split point between two ops of a block, in the
//! same dialect and op nesting the helper assumed, and the helper must
//! not define an alias the main parser also defines. When anything fails
//! (a wrong guess, or an error in the input) the buffer is parsed again
//! on one thread, which reports errors as always.

use super::{ParseOptions, ParsedModule, Parser};
use crate::context::{Attr, Context, ForkPoint, Import, Type};
use crate::graph::{BlockId, Ir, OpId};
use crate::lexer::Tok;
use rustc_hash::FxHashMap;
use std::sync::mpsc::{channel, Receiver};

/// Buffers from this size on are parsed on two threads.
pub(super) const MIN_BYTES: usize = 1 << 20;

/// Text that only one parser seeing the whole buffer handles: resource
/// blobs and location aliases (both may come after their uses) and
/// `distinct` attributes (numbered per buffer).
const WHOLE_BUFFER_ONLY: [&[u8]; 3] = [b"{-#", b"loc(#", b"distinct["];

/// Where the main parser takes in the helper's ops.
pub(super) struct Splice {
    /// Where the helper's text starts (the first token of an op).
    at: usize,
    /// Where the main parser goes on after the helper's text.
    resume: usize,
    half: Receiver<Option<Half>>,
}

/// The helper's ops, parsed against a fork of the context.
struct Half {
    ctx: Context,
    at: ForkPoint,
    ir: Ir,
    ops: Vec<OpId>,
    /// The parser state at the top of its text, as the helper assumed it.
    nesting: Nesting,
    /// The aliases the helper defined (`#name` or `!name`).
    new_aliases: Vec<String>,
}

/// The default dialects and custom ops enclosing the split point.
#[derive(Clone, PartialEq, Debug)]
struct Nesting {
    default_dialects: Vec<&'static str>,
    custom_ops: Vec<&'static str>,
}

/// Where to split: the helper parses `at..resume`.
#[derive(Clone, Copy, Debug)]
struct Plan {
    at: usize,
    resume: usize,
    /// The ops are in an explicit module (no alias definitions among
    /// them).
    in_module: bool,
}

/// `src` parsed on two threads, and `ctx` updated as one parser would
/// have; `None` (with `ctx` untouched) when it cannot be, or when the
/// input has errors.
pub(super) fn parse_in_two(
    ctx: &mut Context,
    file: &str,
    src: &[u8],
    opts: ParseOptions,
) -> Option<ParsedModule> {
    if WHOLE_BUFFER_ONLY
        .iter()
        .any(|text| memchr::memmem::find(src, text).is_some())
    {
        return None;
    }
    let (mut main_ctx, _) = ctx.fork()?;
    let mut p = Parser::new(&mut main_ctx, file, src, opts);
    while matches!(p.kind(), Tok::HashId | Tok::BangId) {
        p.parse_alias_definition().ok()?;
    }
    let plan = plan(src, p.tok.start)?;
    let (helper_ctx, at) = p.ctx.fork()?;
    let start = Start {
        ctx: helper_ctx,
        at,
        nesting: expected_nesting(p.ctx, &src[p.tok.start..]),
        attr_aliases: p.attr_aliases.clone(),
        type_aliases: p.type_aliases.clone(),
    };
    let top = std::thread::scope(|s| {
        let (tx, rx) = channel();
        s.spawn(move || {
            let half = parse_half(start, file, src, opts, plan);
            // The main parser may have stopped listening (an error).
            let _ = tx.send(half);
        });
        p.splice = Some(Splice {
            at: plan.at,
            resume: plan.resume,
            half: rx,
        });
        p.parse_top_level()
    })
    .ok()?;
    let module = p.finish(top);
    *ctx = main_ctx;
    Some(module)
}

/// Where to split `src`, whose first top-level op starts at `first_op`:
/// the first line after the middle of the ops that starts an op (a
/// name, a quoted name or a result) where the line before closes one,
/// both indented as the top-level ops are.
fn plan(src: &[u8], first_op: usize) -> Option<Plan> {
    let ops = &src[first_op..];
    let in_module = ops.starts_with(b"module") || ops.starts_with(b"\"builtin.module\"");
    let resume = if in_module {
        // The module's closing brace starts the last non-blank line.
        let last = src.iter().rposition(|b| !b.is_ascii_whitespace())?;
        let line = memchr::memrchr(b'\n', &src[..last]).map_or(0, |i| i + 1);
        (src[line] == b'}' && line > first_op).then_some(line)?
    } else {
        src.len()
    };
    let indent = |line: usize| src[line..].iter().take_while(|&&b| b == b' ').count();
    // The top-level ops' indentation: that of the module's first line.
    let top = match in_module {
        true => indent(first_op + memchr::memchr(b'\n', ops)? + 1),
        false => 0,
    };
    let mut prev_line = memchr::memrchr(b'\n', &src[..first_op + (resume - first_op) / 2])?;
    let mut prev_line_start = memchr::memrchr(b'\n', &src[..prev_line]).map_or(0, |i| i + 1);
    while prev_line < resume {
        let line = prev_line + 1;
        let (a, b) = (indent(prev_line_start), indent(line));
        let at = line + b;
        if a == top
            && b == top
            && src[prev_line_start + a] == b'}'
            && first_op < at
            && at < resume
            && matches!(src[at], b'"' | b'%' | b'a'..=b'z' | b'A'..=b'Z')
        {
            return Some(Plan {
                at,
                resume,
                in_module,
            });
        }
        prev_line_start = line;
        prev_line = line + memchr::memchr(b'\n', &src[line..resume])?;
    }
    None
}

/// The nesting the main parser will be in at the top-level ops: inside
/// the custom form of `builtin.module` when the ops start with it.
fn expected_nesting(ctx: &Context, ops: &[u8]) -> Nesting {
    let mut nesting = Nesting {
        default_dialects: vec!["builtin"],
        custom_ops: Vec::new(),
    };
    if let Some(def) = ops
        .starts_with(b"module")
        .then(|| ctx.op_def_by_name("builtin.module"))
        .flatten()
    {
        nesting.default_dialects.push(def.default_dialect);
        nesting.custom_ops.push(def.name);
    }
    nesting
}

/// What the helper thread starts from: the main parser's state after
/// the leading alias definitions.
struct Start {
    ctx: Context,
    at: ForkPoint,
    nesting: Nesting,
    attr_aliases: FxHashMap<Box<str>, Attr>,
    type_aliases: FxHashMap<Box<str>, Type>,
}

/// The helper thread's work: the ops of `plan.at..plan.resume`.
fn parse_half(
    start: Start,
    file: &str,
    src: &[u8],
    opts: ParseOptions,
    plan: Plan,
) -> Option<Half> {
    let Start {
        mut ctx,
        at,
        nesting,
        attr_aliases,
        type_aliases,
    } = start;
    // The helper sees only its text, from the start of its first line,
    // with the lines before counted (its positions are relative).
    let line = memchr::memrchr(b'\n', &src[..plan.at]).map_or(0, |i| i + 1);
    let lines_before = memchr::memchr_iter(b'\n', &src[..line]).count() as u32;
    let mut p = Parser::new(&mut ctx, file, &src[line..plan.resume], opts);
    p.first_line += lines_before;
    p.reset_to(plan.at - line);
    (p.attr_aliases, p.type_aliases) = (attr_aliases, type_aliases);
    p.default_dialects.clone_from(&nesting.default_dialects);
    p.custom_ops.clone_from(&nesting.custom_ops);
    let before = alias_names(&p);
    let ops = p.parse_ops_to_end(!plan.in_module).ok()?;
    let mut new_aliases = alias_names(&p);
    new_aliases.retain(|a| !before.contains(a));
    let ir = std::mem::take(&mut p.ir);
    drop(p);
    Some(Half {
        ctx,
        at,
        ir,
        ops,
        nesting,
        new_aliases,
    })
}

/// The aliases `p` knows, as `#name` and `!name`.
fn alias_names(p: &Parser) -> Vec<String> {
    let attrs = p.attr_aliases.keys().map(|k| format!("#{k}"));
    attrs
        .chain(p.type_aliases.keys().map(|k| format!("!{k}")))
        .collect()
}

impl Parser<'_> {
    /// The top-level ops up to the end of the buffer, detached; fails
    /// when one defines or uses a value of the top-level scope.
    fn parse_ops_to_end(&mut self, aliases_allowed: bool) -> super::PResult<Vec<OpId>> {
        self.block_scopes.push(FxHashMap::default());
        self.scopes[0].sub_scopes.push(Vec::new());
        let mut ops = Vec::new();
        loop {
            match self.kind() {
                Tok::Eof => break,
                Tok::HashId | Tok::BangId if aliases_allowed => self.parse_alias_definition()?,
                _ => ops.push(self.parse_operation()?),
            }
        }
        if !self.scopes[0].values.is_empty() {
            return self.err("a value at the top of a parallel half");
        }
        self.finish_scope_checks()?;
        self.resolve_deferred_locs()?;
        Ok(ops)
    }

    /// Whether the main parser is at the split point.
    pub(super) fn splice_due(&self) -> bool {
        self.splice.as_ref().is_some_and(|s| s.at == self.tok.start)
    }

    /// Appends the helper's ops to `block` and goes on after their text;
    /// fails when the helper failed or assumed another nesting.
    pub(super) fn splice_in(&mut self, block: BlockId) -> super::PResult<()> {
        let Some(splice) = self.splice.take() else {
            return Ok(());
        };
        let nesting = Nesting {
            default_dialects: self.default_dialects.clone(),
            custom_ops: self.custom_ops.clone(),
        };
        let half =
            splice.half.recv().ok().flatten().filter(|h| {
                h.nesting == nesting && !h.new_aliases.iter().any(|a| self.has_alias(a))
            });
        let Some(Half {
            ctx, at, ir, ops, ..
        }) = half
        else {
            return self.err_at(splice.at, "the rest did not parse on its own");
        };
        let import = Import::new(self.ctx, &ctx, at);
        // Freed before the graph is copied: the two peaks do not add up.
        drop(ctx);
        let Some(import) = import else {
            return self.err_at(splice.at, "the rest made distinct attributes");
        };
        let shift = self.ir.absorb(ir, &import);
        for op in ops {
            self.ir.append_op(block, shift.op(op));
        }
        self.reset_to(splice.resume);
        Ok(())
    }

    /// Whether this parser defined `alias` (`#name` or `!name`).
    fn has_alias(&self, alias: &str) -> bool {
        match alias.split_at(1) {
            ("#", name) => self.attr_aliases.contains_key(name),
            (_, name) => self.type_aliases.contains_key(name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::printer::{print_module, PrintFlags};
    use std::fmt::Write;

    /// `n` functions as unregistered generic ops with regions, nested
    /// ops, aliases and attributes; `module` wraps them in `module {}`.
    fn functions(n: usize, module: bool) -> String {
        let pad = if module { "  " } else { "" };
        let mut s = String::from("#map = affine_map<(d0) -> (d0 + 1)>\n!t = tuple<i32, f32>\n");
        if module {
            s.push_str("module {\n");
        }
        for i in 0..n {
            let _ = write!(
                s,
                "{pad}\"test.func\"() ({{\n\
                 {pad}^bb0(%a: i32, %m: memref<{i}xf32>):\n\
                 {pad}  %0 = \"test.add\"(%a, %a) {{k = {i} : i64, map = #map}} : (i32, i32) -> i32\n\
                 {pad}  \"test.loop\"() ({{\n\
                 {pad}    %1 = \"test.use\"(%0) {{name = \"f{i}\"}} : (i32) -> !t\n\
                 {pad}  }}) : () -> ()\n\
                 {pad}  \"test.return\"(%0) : (i32) -> ()\n\
                 {pad}}}) {{sym_name = \"f{i}\"}} : () -> ()\n"
            );
        }
        if module {
            s.push_str("}\n");
        }
        s
    }

    fn context() -> Context {
        let mut ctx = Context::new();
        ctx.allow_unregistered = true;
        ctx
    }

    /// The module printed with locations, parsed on one thread.
    fn one_thread(src: &str) -> Result<String, String> {
        let mut ctx = context();
        let mut p = Parser::new(&mut ctx, "in.mlir", src.as_bytes(), ParseOptions::default());
        let top = p.parse_top_level().map_err(|d| d.message)?;
        let m = p.finish(top);
        Ok(printed(&ctx, &m))
    }

    fn printed(ctx: &Context, m: &ParsedModule) -> String {
        let flags = PrintFlags {
            debug_info: true,
            ..Default::default()
        };
        print_module(ctx, &m.ir, m.top, &m.resources, flags)
    }

    /// The module printed with locations, parsed on two threads.
    fn two_threads(src: &str) -> Option<String> {
        let mut ctx = context();
        let m = parse_in_two(&mut ctx, "in.mlir", src.as_bytes(), ParseOptions::default())?;
        Some(printed(&ctx, &m))
    }

    #[test]
    fn two_threads_parse_as_one() {
        for module in [false, true] {
            let src = functions(40, module);
            let one = one_thread(&src).expect("valid");
            assert_eq!(two_threads(&src).as_deref(), Some(one.as_str()));
            assert!(one.contains("#map = affine_map"), "{one}");
        }
    }

    #[test]
    fn generic_module_parses_on_two_threads() {
        let body = functions(30, false);
        let (header, ops) = body.split_at(body.find("\"test.func\"").unwrap());
        let src = format!("{header}\"builtin.module\"() ({{\n{ops}}}) : () -> ()\n");
        let one = one_thread(&src).expect("valid");
        assert_eq!(two_threads(&src).as_deref(), Some(one.as_str()));
    }

    #[test]
    fn errors_in_either_half_leave_it_to_one_thread() {
        let src = functions(40, false);
        let ret = "\"test.return\"(%0)";
        let (early, late) = (src.find(ret).unwrap(), src.rfind(ret).unwrap());
        for at in [early, late] {
            // An undefined value.
            let mut bad = src.clone();
            bad.replace_range(at..at + ret.len(), "\"test.return\"(%9)");
            assert!(one_thread(&bad).is_err());
            assert_eq!(two_threads(&bad), None);
        }
    }

    #[test]
    fn values_shared_across_the_split_leave_it_to_one_thread() {
        let src = functions(40, false);
        let at = src.rfind("\"test.func\"").unwrap();
        // A top-level value defined in the first half, used in the second.
        let shared = format!(
            "%top = \"test.def\"() : () -> i32\n{}\"test.use\"(%top) : (i32) -> ()\n{}",
            &src[..at],
            &src[at..]
        );
        assert!(one_thread(&shared).is_ok());
        assert_eq!(two_threads(&shared), None);
    }

    #[test]
    fn an_alias_defined_in_both_halves_is_an_error() {
        let src = functions(40, false);
        let mid = src.len() / 3;
        let at = mid + src[mid..].find("\n\"test.func\"").unwrap() + 1;
        let late = src.rfind("\"test.func\"").unwrap();
        let twice = format!(
            "{}#again = 1 : i32\n{}#again = 2 : i32\n{}",
            &src[..at],
            &src[at..late],
            &src[late..]
        );
        assert!(one_thread(&twice).is_err());
        assert_eq!(two_threads(&twice), None);
    }

    #[test]
    fn whole_buffer_text_is_parsed_on_one_thread() {
        let src = functions(40, false);
        let with_loc_alias =
            format!("{src}#loc9 = loc(\"x\":1:1)\n\"test.op\"() : () -> () loc(#loc9)\n");
        assert!(one_thread(&with_loc_alias).is_ok());
        assert_eq!(two_threads(&with_loc_alias), None);
    }

    #[test]
    fn the_split_falls_between_top_level_ops() {
        let src = functions(10, false);
        let plan = plan(src.as_bytes(), src.find("\"test.func\"").unwrap()).unwrap();
        assert!(src[plan.at..].starts_with("\"test.func\""));
        assert_eq!(&src[..plan.at].chars().last(), &Some('\n'));
        assert_eq!(plan.resume, src.len());
        let module = functions(10, true);
        let plan = plan_of(&module);
        assert!(module[plan.at..].starts_with("\"test.func\""));
        assert_eq!(&module[plan.resume..], "}\n");
    }

    proptest::proptest! {
        /// Any text, split or not: a split lies inside the buffer, after
        /// the first op, at a line's first token.
        #[test]
        fn plans_stay_inside_the_buffer(
            text in "(module \\{\n|\\}\n|  \\}\n|\"x\"\\(\\)\n|  %a = y\n| |\n){0,40}",
            first in 0usize..64,
        ) {
            let src = text.as_bytes();
            let first = first.min(src.len());
            if let Some(plan) = plan(src, first) {
                proptest::prop_assert!(first < plan.at && plan.at < plan.resume);
                proptest::prop_assert!(plan.resume <= src.len());
                proptest::prop_assert!(src[..plan.at].ends_with(b"\n") || src[plan.at - 1] == b' ');
            }
        }
    }

    fn plan_of(src: &str) -> Plan {
        plan(src.as_bytes(), src.find("module").unwrap()).unwrap()
    }
}
