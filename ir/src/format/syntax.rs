//! The declarative assembly format language: its elements and a parser
//! for format strings such as
//! `` $lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result) ``.

use super::Signature;
use crate::lexer::Tok;

/// A parsed assembly format.
#[derive(Debug)]
pub struct Format {
    pub(super) elems: Vec<Elem>,
    /// The attributes the format writes (so `attr-dict` leaves them out).
    pub(super) used_attrs: Vec<usize>,
}

/// Whose type a `type(...)` directive stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Target {
    Operand(usize),
    Result(usize),
    Operands,
    Results,
}

/// One element of a format.
#[derive(Debug)]
pub(super) enum Elem {
    /// A keyword, written as is.
    Literal(&'static str),
    /// Punctuation, written as is: its text and token.
    Punct(&'static str, Tok),
    /// `` ` ` `` (a space) or ``` `` ``` (no space).
    Space(bool),
    Operand(usize),
    Attr(usize),
    Region(usize),
    Successor(usize),
    /// `operands`: every operand, comma-separated.
    Operands,
    /// `regions`: every region, comma-separated.
    Regions,
    Type(Target),
    FunctionalType(Target, Target),
    /// `attr-dict` or `attr-dict-with-keyword`.
    AttrDict {
        keyword: bool,
    },
    /// `( ... )?`: written when its anchor element is present.
    Optional {
        elems: Vec<Elem>,
        anchor: usize,
    },
    /// `custom<DynamicIndexList>($values, $static)`: `[4, %n, 2]`, SSA
    /// values in operand group `operand`, the constants (and `i64::MIN`
    /// for each value) in the `i64` array attribute `attr`; in
    /// parentheses when `paren`.
    DynamicIndexList {
        operand: usize,
        attr: usize,
        paren: bool,
    },
}

/// The token of a punctuation literal.
fn punct_token(s: &str) -> Option<Tok> {
    Some(match s {
        "," => Tok::Comma,
        ":" => Tok::Colon,
        "(" => Tok::LParen,
        ")" => Tok::RParen,
        "[" => Tok::LSquare,
        "]" => Tok::RSquare,
        "{" => Tok::LBrace,
        "}" => Tok::RBrace,
        "<" => Tok::Less,
        ">" => Tok::Greater,
        "=" => Tok::Equal,
        "->" => Tok::Arrow,
        "*" => Tok::Star,
        "+" => Tok::Plus,
        "-" => Tok::Minus,
        "?" => Tok::Question,
        "|" => Tok::Vertical,
        "..." => Tok::Ellipsis,
        _ => return None,
    })
}

struct Lexer<'s> {
    src: &'static str,
    pos: usize,
    sig: &'s Signature,
}

/// Parses `sig.format` against the names `sig` declares.
pub(super) fn parse_format(sig: &'static Signature) -> Result<Format, String> {
    let mut lx = Lexer {
        src: sig.format,
        pos: 0,
        sig,
    };
    let elems = lx.elems(false)?;
    let mut used_attrs = Vec::new();
    collect_attrs(&elems, &mut used_attrs);
    Ok(Format { elems, used_attrs })
}

fn collect_attrs(elems: &[Elem], out: &mut Vec<usize>) {
    for e in elems {
        match e {
            Elem::Attr(i) | Elem::DynamicIndexList { attr: i, .. } => out.push(*i),
            Elem::Optional { elems, .. } => collect_attrs(elems, out),
            _ => {}
        }
    }
}

impl Lexer<'_> {
    fn skip_ws(&mut self) {
        while self.src[self.pos..].starts_with(|c: char| c.is_whitespace()) {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.src[self.pos..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.error(&format!("expected '{c}'")))
        }
    }

    fn error(&self, msg: &str) -> String {
        format!("{msg} at offset {} of format `{}`", self.pos, self.src)
    }

    /// An identifier made of letters, digits, `_` and `-`.
    fn word(&mut self) -> &'static str {
        self.skip_ws();
        let start = self.pos;
        let rest = &self.src[start..];
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(rest.len());
        self.pos += len;
        &self.src[start..start + len]
    }

    fn elems(&mut self, in_group: bool) -> Result<Vec<Elem>, String> {
        let mut out = Vec::new();
        let mut anchor = None;
        loop {
            match self.peek() {
                None if in_group => return Err(self.error("unterminated optional group")),
                None => return Ok(out),
                Some(')') if in_group => {
                    self.pos += 1;
                    self.expect('?')?;
                    let anchor =
                        anchor.ok_or_else(|| self.error("optional group without anchor"))?;
                    return Ok(vec![Elem::Optional { elems: out, anchor }]);
                }
                Some(_) => {}
            }
            let elem = self.elem()?;
            if self.eat('^') {
                anchor = Some(out.len());
            }
            out.extend(elem);
        }
    }

    /// One element (an optional group comes back as one `Optional`).
    fn elem(&mut self) -> Result<Vec<Elem>, String> {
        match self.peek() {
            Some('`') => {
                self.pos += 1;
                let end = self.src[self.pos..]
                    .find('`')
                    .ok_or_else(|| self.error("unterminated literal"))?;
                let text = &self.src[self.pos..self.pos + end];
                self.pos += end + 1;
                Ok(vec![match text {
                    "" => Elem::Space(false),
                    " " => Elem::Space(true),
                    t => match punct_token(t) {
                        Some(tok) => Elem::Punct(t, tok),
                        None => Elem::Literal(t),
                    },
                }])
            }
            Some('$') => {
                self.pos += 1;
                let name = self.word();
                Ok(vec![self.variable(name)?])
            }
            Some('(') => {
                self.pos += 1;
                self.elems(true)
            }
            _ => {
                let w = self.word();
                Ok(vec![match w {
                    "attr-dict" => Elem::AttrDict { keyword: false },
                    "attr-dict-with-keyword" => Elem::AttrDict { keyword: true },
                    "operands" => Elem::Operands,
                    "regions" => Elem::Regions,
                    "type" => {
                        self.expect('(')?;
                        let t = self.target()?;
                        self.expect(')')?;
                        Elem::Type(t)
                    }
                    "functional-type" => {
                        self.expect('(')?;
                        let a = self.target()?;
                        self.expect(',')?;
                        let b = self.target()?;
                        self.expect(')')?;
                        Elem::FunctionalType(a, b)
                    }
                    "custom" => self.custom()?,
                    "qualified" => {
                        // Types are always written qualified.
                        self.expect('(')?;
                        let inner = self.elem()?;
                        self.expect(')')?;
                        return Ok(inner);
                    }
                    "" => return Err(self.error("expected a format element")),
                    other => return Err(self.error(&format!("unknown directive '{other}'"))),
                }])
            }
        }
    }

    /// `custom<Name>(args)`: the custom directives silica knows.
    fn custom(&mut self) -> Result<Elem, String> {
        self.expect('<')?;
        let name = self.word();
        self.expect('>')?;
        self.expect('(')?;
        let mut vars = Vec::new();
        let mut strings = Vec::new();
        loop {
            match self.peek() {
                Some('$') => {
                    self.pos += 1;
                    vars.push(self.word());
                }
                Some('"') => {
                    self.pos += 1;
                    let end = self.src[self.pos..]
                        .find('"')
                        .ok_or_else(|| self.error("unterminated string"))?;
                    strings.push(&self.src[self.pos..self.pos + end]);
                    self.pos += end + 1;
                }
                _ => return Err(self.error("expected a custom directive argument")),
            }
            if !self.eat(',') {
                break;
            }
        }
        self.expect(')')?;
        match (name, vars.as_slice()) {
            ("DynamicIndexList", [values, statics]) => {
                let operand = self
                    .sig
                    .operand_index(values)
                    .ok_or_else(|| self.error(&format!("unknown operand '${values}'")))?;
                let attr = self
                    .sig
                    .attr_index(statics)
                    .ok_or_else(|| self.error(&format!("unknown attribute '${statics}'")))?;
                let paren = strings.iter().any(|s| s.ends_with("Paren"));
                Ok(Elem::DynamicIndexList {
                    operand,
                    attr,
                    paren,
                })
            }
            _ => Err(self.error(&format!("unsupported custom directive '{name}'"))),
        }
    }

    fn variable(&self, name: &str) -> Result<Elem, String> {
        if let Some(i) = self.sig.operand_index(name) {
            return Ok(Elem::Operand(i));
        }
        if let Some(i) = self.sig.attr_index(name) {
            return Ok(Elem::Attr(i));
        }
        if let Some(i) = self.sig.regions.iter().position(|r| *r == name) {
            return Ok(Elem::Region(i));
        }
        if let Some(i) = self.sig.successors.iter().position(|r| *r == name) {
            return Ok(Elem::Successor(i));
        }
        Err(self.error(&format!("unknown variable '${name}'")))
    }

    fn target(&mut self) -> Result<Target, String> {
        if self.eat('$') {
            let name = self.word();
            if let Some(i) = self.sig.operand_index(name) {
                return Ok(Target::Operand(i));
            }
            if let Some(i) = self.sig.result_index(name) {
                return Ok(Target::Result(i));
            }
            return Err(self.error(&format!("unknown operand or result '${name}'")));
        }
        match self.word() {
            "operands" => Ok(Target::Operands),
            "results" => Ok(Target::Results),
            w => Err(self.error(&format!("expected a type target, got '{w}'"))),
        }
    }
}
