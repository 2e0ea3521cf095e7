//! A byte-level lexer for MLIR's textual format.
//!
//! The lexer is positional: [`lex`] returns the token starting at a byte
//! offset, so the parser can re-lex from any point (needed for shapes like
//! `4x8xf32`, which lex as an integer followed by an identifier).

/// Token kinds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tok {
    Eof,
    /// A byte that starts no token.
    Error,
    /// `[a-zA-Z_][a-zA-Z0-9_$.]*`
    BareId,
    /// `%name`
    PercentId,
    /// `^name`
    CaretId,
    /// `#name`
    HashId,
    /// `!name`
    BangId,
    /// `@name` or `@"string"`
    AtId,
    /// `123`, `0x1F`
    Integer,
    /// `1.5`, `1.0e-3`
    Float,
    /// `"..."`
    String,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LSquare,
    RSquare,
    Less,
    Greater,
    Colon,
    Comma,
    Equal,
    Arrow,
    Minus,
    Plus,
    Star,
    Question,
    Ellipsis,
    Question2,
    Vertical,
    /// `{-#`
    FileMetadataBegin,
    /// `#-}`
    FileMetadataEnd,
}

/// A token: its kind and byte span.
#[derive(Clone, Copy, Debug)]
pub struct Token {
    pub kind: Tok,
    pub start: usize,
    pub end: usize,
}

/// Byte classes, looked up in [`CLASS`].
const ID_START: u8 = 1;
const ID_CHAR: u8 = 2;
const SUFFIX_CHAR: u8 = 4;
const SPACE: u8 = 8;

/// The classes of every byte value.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let alpha = c.is_ascii_alphabetic();
        let alnum = c.is_ascii_alphanumeric();
        if alpha || c == b'_' {
            t[b] |= ID_START;
        }
        if alnum || c == b'_' || c == b'$' || c == b'.' {
            t[b] |= ID_CHAR | SUFFIX_CHAR;
        }
        if c == b'-' {
            t[b] |= SUFFIX_CHAR;
        }
        // MLIR skips NUL bytes inside the buffer like blanks.
        if c == b' ' || c == b'\t' || c == b'\n' || c == b'\r' || c == 0 {
            t[b] |= SPACE;
        }
        b += 1;
    }
    t
};

fn is_id_start(b: u8) -> bool {
    CLASS[b as usize] & ID_START != 0
}

fn is_id_char(b: u8) -> bool {
    CLASS[b as usize] & ID_CHAR != 0
}

fn is_suffix_char(b: u8) -> bool {
    CLASS[b as usize] & SUFFIX_CHAR != 0
}

/// Skips whitespace and `//` comments from `pos`.
pub fn skip_trivia(src: &[u8], mut pos: usize) -> usize {
    loop {
        while pos < src.len() && CLASS[src[pos] as usize] & SPACE != 0 {
            pos += 1;
        }
        if pos + 1 < src.len() && src[pos] == b'/' && src[pos + 1] == b'/' {
            while pos < src.len() && src[pos] != b'\n' {
                pos += 1;
            }
            continue;
        }
        return pos;
    }
}

/// Scans a suffix id (`[0-9]+` or `[a-zA-Z$._-][a-zA-Z0-9$._-]*`) at `pos`;
/// returns its end, or `pos` if none.
fn suffix_id(src: &[u8], pos: usize) -> usize {
    let mut p = pos;
    if p < src.len() && src[p].is_ascii_digit() {
        while p < src.len() && src[p].is_ascii_digit() {
            p += 1;
        }
        return p;
    }
    if p < src.len()
        && (src[p].is_ascii_alphabetic() || matches!(src[p], b'$' | b'.' | b'_' | b'-'))
    {
        while p < src.len() && is_suffix_char(src[p]) {
            p += 1;
        }
    }
    p
}

/// Scans a string literal whose opening quote is at `pos`; returns the end
/// (after the closing quote) or `None` if unterminated.
pub fn string_end(src: &[u8], pos: usize) -> Option<usize> {
    let mut p = pos + 1;
    while p < src.len() {
        match src[p] {
            b'"' => return Some(p + 1),
            b'\\' => p += 2,
            b'\n' | b'\r' => return None,
            _ => p += 1,
        }
    }
    None
}

/// Lexes the token at or after `pos` (trivia skipped).
pub fn lex(src: &[u8], pos: usize) -> Token {
    let start = skip_trivia(src, pos);
    let tok = |kind, end| Token { kind, start, end };
    if start >= src.len() {
        return tok(Tok::Eof, start);
    }
    let b = src[start];
    let at = |i: usize| src.get(start + i).copied().unwrap_or(0);
    match b {
        b'(' => tok(Tok::LParen, start + 1),
        b')' => tok(Tok::RParen, start + 1),
        b'{' if at(1) == b'-' && at(2) == b'#' => tok(Tok::FileMetadataBegin, start + 3),
        b'{' => tok(Tok::LBrace, start + 1),
        b'}' => tok(Tok::RBrace, start + 1),
        b'[' => tok(Tok::LSquare, start + 1),
        b']' => tok(Tok::RSquare, start + 1),
        b'<' => tok(Tok::Less, start + 1),
        b'>' => tok(Tok::Greater, start + 1),
        b':' => tok(Tok::Colon, start + 1),
        b',' => tok(Tok::Comma, start + 1),
        b'=' => tok(Tok::Equal, start + 1),
        b'+' => tok(Tok::Plus, start + 1),
        b'*' => tok(Tok::Star, start + 1),
        b'|' => tok(Tok::Vertical, start + 1),
        b'?' if at(1) == b'?' => tok(Tok::Question2, start + 2),
        b'?' => tok(Tok::Question, start + 1),
        b'.' if at(1) == b'.' && at(2) == b'.' => tok(Tok::Ellipsis, start + 3),
        b'-' if at(1) == b'>' => tok(Tok::Arrow, start + 2),
        b'-' => tok(Tok::Minus, start + 1),
        b'"' => match string_end(src, start) {
            Some(end) => tok(Tok::String, end),
            None => tok(Tok::Error, start + 1),
        },
        b'%' | b'^' | b'#' | b'!' => {
            if b == b'#' && at(1) == b'-' && at(2) == b'}' {
                return tok(Tok::FileMetadataEnd, start + 3);
            }
            let end = suffix_id(src, start + 1);
            let kind = match b {
                b'%' => Tok::PercentId,
                b'^' => Tok::CaretId,
                b'#' => Tok::HashId,
                _ => Tok::BangId,
            };
            if end == start + 1 {
                tok(Tok::Error, start + 1)
            } else {
                tok(kind, end)
            }
        }
        b'@' => {
            if at(1) == b'"' {
                return match string_end(src, start + 1) {
                    Some(end) => tok(Tok::AtId, end),
                    None => tok(Tok::Error, start + 1),
                };
            }
            let mut p = start + 1;
            if p < src.len() && (src[p].is_ascii_alphabetic() || src[p] == b'_') {
                while p < src.len() && (is_id_char(src[p]) || src[p] == b'-') {
                    p += 1;
                }
                tok(Tok::AtId, p)
            } else {
                tok(Tok::Error, start + 1)
            }
        }
        b'0'..=b'9' => lex_number(src, start),
        _ if is_id_start(b) => {
            let mut p = start + 1;
            while p < src.len() && is_id_char(src[p]) {
                p += 1;
            }
            tok(Tok::BareId, p)
        }
        _ => tok(Tok::Error, start + 1),
    }
}

fn lex_number(src: &[u8], start: usize) -> Token {
    let mut p = start;
    if src[p] == b'0'
        && src.get(p + 1) == Some(&b'x')
        && src.get(p + 2).is_some_and(|c| c.is_ascii_hexdigit())
    {
        p += 2;
        while p < src.len() && src[p].is_ascii_hexdigit() {
            p += 1;
        }
        return Token {
            kind: Tok::Integer,
            start,
            end: p,
        };
    }
    while p < src.len() && src[p].is_ascii_digit() {
        p += 1;
    }
    if src.get(p) != Some(&b'.') {
        return Token {
            kind: Tok::Integer,
            start,
            end: p,
        };
    }
    p += 1;
    while p < src.len() && src[p].is_ascii_digit() {
        p += 1;
    }
    if matches!(src.get(p), Some(b'e' | b'E')) {
        let mut q = p + 1;
        if matches!(src.get(q), Some(b'+' | b'-')) {
            q += 1;
        }
        if src.get(q).is_some_and(|c| c.is_ascii_digit()) {
            while q < src.len() && src[q].is_ascii_digit() {
                q += 1;
            }
            p = q;
        }
    }
    Token {
        kind: Tok::Float,
        start,
        end: p,
    }
}

/// Decodes the contents of a string literal token (quotes included) into
/// bytes, handling `\"`, `\\`, `\n`, `\t` and `\XX` hex escapes. On a bad
/// escape returns the byte offset (within the token) of the backslash.
pub fn unescape(tok_text: &[u8]) -> Result<Vec<u8>, usize> {
    if tok_text.len() < 2 {
        return Err(0);
    }
    let inner = &tok_text[1..tok_text.len() - 1];
    let mut out = Vec::with_capacity(inner.len());
    let mut i = 0;
    while i < inner.len() {
        let c = inner[i];
        if c != b'\\' {
            out.push(c);
            i += 1;
            continue;
        }
        let n = inner.get(i + 1).copied().unwrap_or(0);
        match n {
            b'"' | b'\\' => {
                out.push(n);
                i += 2;
            }
            b'n' => {
                out.push(b'\n');
                i += 2;
            }
            b't' => {
                out.push(b'\t');
                i += 2;
            }
            _ => {
                let h = inner.get(i + 2).copied().unwrap_or(0);
                if n.is_ascii_hexdigit() && h.is_ascii_hexdigit() {
                    let v = (hex_val(n) << 4) | hex_val(h);
                    out.push(v);
                    i += 3;
                } else {
                    return Err(i + 1);
                }
            }
        }
    }
    Ok(out)
}

fn hex_val(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => c - b'A' + 10,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_bytes_are_blanks() {
        let t = lex(b"\0 \0%a", 0);
        assert_eq!((t.kind, t.start), (Tok::PercentId, 3));
        assert_eq!(lex(b"\0\0", 0).kind, Tok::Eof);
    }

    #[test]
    fn lexes_basic_tokens() {
        let src = b"%0:2 = \"foo.x\"(%a#1) : (i32) -> f32 // c\n^bb0 1.5e3 0x1F 4x8";
        let mut pos = 0;
        let mut kinds = Vec::new();
        loop {
            let t = lex(src, pos);
            kinds.push(t.kind);
            if t.kind == Tok::Eof {
                break;
            }
            pos = t.end;
        }
        use Tok::*;
        assert_eq!(
            kinds,
            vec![
                PercentId, Colon, Integer, Equal, String, LParen, PercentId, HashId, RParen, Colon,
                LParen, BareId, RParen, Arrow, BareId, CaretId, Float, Integer, Integer, BareId,
                Eof
            ]
        );
    }

    #[test]
    fn unescapes() {
        assert_eq!(unescape(br#""a\0A\"\\""#).unwrap(), b"a\n\"\\");
        assert!(unescape(br#""\q""#).is_err());
        assert!(unescape(b"").is_err());
    }
}
