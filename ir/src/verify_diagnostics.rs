//! `--verify-diagnostics`: checks produced diagnostics against
//! `expected-error/warning/note/remark` comments (`@+N`, `@-N`, `@above`,
//! `@below`, `@N`, `@unknown`). As in MLIR, the message is a substring to find, or with
//! the `-re` suffix (`expected-error-re`) literal text with `{{regex}}`
//! pieces; a malformed regex is itself an error.

use crate::context::Context;
use crate::diag::{file_line_col, Diagnostic, Severity};
use regex::Regex;

/// The line `@unknown` expectations name: diagnostics located nowhere
/// in a file.
const UNKNOWN_LINE: u32 = 0;

/// One `expected-*` comment.
struct Expected {
    severity: Severity,
    line: u32,
    /// The message as written: a substring to find, or with `-re` the
    /// source of `regex`.
    text: String,
    regex: Option<Regex>,
    /// Where the `expected-...` designator starts: (line, col).
    at: (u32, u32),
    matched: bool,
}

impl Expected {
    fn matches(&self, message: &str) -> bool {
        match &self.regex {
            Some(r) => r.is_match(message),
            None => message.contains(self.text.as_str()),
        }
    }
}

/// An expectation that could not be read: (line, col, underline length,
/// message).
type BadExpectation = (u32, u32, usize, String);

fn parse_expected(src: &[u8], first_line: u32) -> (Vec<Expected>, Vec<BadExpectation>) {
    let text = String::from_utf8_lossy(src);
    let mut out = Vec::new();
    let mut bad = Vec::new();
    // `@below` expectations wait for the next line without one; `@above`
    // ones take the last line without one.
    let mut below: Vec<usize> = Vec::new();
    let mut last_plain_line = first_line.saturating_sub(1);
    for (i, line) in text.split('\n').enumerate() {
        let lineno = first_line + i as u32;
        let mut offset = 0usize;
        let mut designated = false;
        while let Some(p) = line[offset..].find("expected-") {
            let start = offset + p;
            offset = start + 1;
            let after = &line[start + "expected-".len()..];
            let Some((severity, word_len)) = [
                (Severity::Error, "error"),
                (Severity::Warning, "warning"),
                (Severity::Note, "note"),
                (Severity::Remark, "remark"),
            ]
            .into_iter()
            .find(|(_, w)| after.starts_with(w))
            .map(|(s, w)| (s, w.len())) else {
                continue;
            };
            let mut s = &after[word_len..];
            let is_regex = s.starts_with("-re");
            if is_regex {
                s = &s[3..];
            }
            let mut target = lineno;
            let mut is_below = false;
            // `expected-error @below` may have spaces before the `@`.
            if let Some(d) = s.trim_start_matches(' ').strip_prefix('@') {
                let end = d
                    .find(|c: char| c.is_whitespace() || c == '{')
                    .unwrap_or(d.len());
                let spec = &d[..end];
                target = match spec {
                    // A diagnostic without a file location.
                    "unknown" => UNKNOWN_LINE,
                    "above" => last_plain_line,
                    "below" => {
                        is_below = true;
                        lineno + 1
                    }
                    _ if spec.starts_with('+') => lineno + spec[1..].parse::<u32>().unwrap_or(0),
                    _ if spec.starts_with('-') => {
                        lineno.saturating_sub(spec[1..].parse::<u32>().unwrap_or(0))
                    }
                    _ => spec.parse::<u32>().unwrap_or(lineno),
                };
                s = &d[end..];
            }
            let Some(body) = s.trim_start().strip_prefix("{{") else {
                continue;
            };
            let Some(end) = body.rfind("}}") else {
                continue;
            };
            let msg = &body[..end];
            let col = start as u32 + 1;
            designated = true;
            let regex = match is_regex.then(|| build_regex(msg)).transpose() {
                Ok(regex) => regex,
                Err(e) => {
                    bad.push((lineno, col, msg.len(), e));
                    continue;
                }
            };
            if is_below {
                below.push(out.len());
            }
            out.push(Expected {
                severity,
                line: target,
                text: msg.to_string(),
                regex,
                at: (lineno, col),
                matched: false,
            });
        }
        if !designated {
            for i in below.drain(..) {
                out[i].line = lineno;
            }
            last_plain_line = lineno;
        }
    }
    (out, bad)
}

/// Literal text with `{{regex}}` pieces, as one unanchored regex; the
/// error names the first malformed piece as MLIR does.
fn build_regex(msg: &str) -> Result<Regex, String> {
    let mut pattern = String::new();
    let mut rest = msg;
    while let Some(p) = rest.find("{{") {
        pattern.push_str(&regex::escape(&rest[..p]));
        let after = &rest[p + 2..];
        let Some(e) = after.find("}}") else {
            return Err("found start of regex with no end '}}'".into());
        };
        let piece = &after[..e];
        check_piece(piece).map_err(|e| format!("invalid regex: {e}"))?;
        pattern.push('(');
        pattern.push_str(piece);
        pattern.push(')');
        rest = &after[e + 2..];
    }
    pattern.push_str(&regex::escape(rest));
    Regex::new(&pattern).map_err(|_| "invalid regex: invalid regular expression".into())
}

/// Checks one `{{...}}` piece with the messages of LLVM's POSIX regex
/// library, which MLIR uses.
fn check_piece(piece: &str) -> Result<(), &'static str> {
    let bytes = piece.as_bytes();
    let mut depth = 0i32;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if i + 1 == bytes.len() => return Err("trailing backslash (\\)"),
            b'\\' => i += 1,
            b'[' => {
                // A bracket expression; `]` right after `[` or `[^` is literal.
                i += 1;
                if bytes.get(i) == Some(&b'^') {
                    i += 1;
                }
                if bytes.get(i) == Some(&b']') {
                    i += 1;
                }
                match bytes[i.min(bytes.len())..].iter().position(|&b| b == b']') {
                    Some(p) => i += p,
                    None => return Err("brackets ([ ]) not balanced"),
                }
            }
            b'(' => depth += 1,
            b')' if depth == 0 => return Err("parentheses not balanced"),
            b')' => depth -= 1,
            b'{' => match bytes[i..].iter().position(|&b| b == b'}') {
                Some(p) => i += p,
                None => return Err("braces not balanced"),
            },
            _ => {}
        }
        i += 1;
    }
    if depth != 0 {
        return Err("parentheses not balanced");
    }
    match Regex::new(piece) {
        Ok(_) => Ok(()),
        Err(_) => Err("repetition-operator operand invalid"),
    }
}

/// The outcome of checking one buffer.
pub struct Outcome {
    /// Rendered failure messages (empty when everything matched).
    pub failures: String,
}

impl Outcome {
    /// Whether all diagnostics matched.
    pub fn ok(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Checks `produced` against the expectations in `src` (a buffer of file
/// `file` starting at line `first_line`).
pub fn check(
    ctx: &Context,
    file: &str,
    src: &[u8],
    whole_file: &[u8],
    first_line: u32,
    produced: &[Diagnostic],
) -> Outcome {
    let (mut expected, bad) = parse_expected(src, first_line);
    let mut failures = String::new();
    let lines: Vec<&[u8]> = whole_file.split(|&b| b == b'\n').collect();
    let report = |failures: &mut String, (line, col, len): (u32, u32, usize), msg: &str| {
        failures.push_str(&format!("{file}:{line}:{col}: error: {msg}\n"));
        if let Some(l) = lines.get(line as usize - 1) {
            failures.push_str(&String::from_utf8_lossy(l));
            failures.push('\n');
            failures.push_str(&" ".repeat(col as usize - 1));
            failures.push('^');
            failures.push_str(&"~".repeat(len.saturating_sub(1)));
            failures.push('\n');
        }
    };
    for (line, col, len, msg) in &bad {
        report(&mut failures, (*line, *col, *len), msg);
    }
    let sources = [crate::diag::SourceFile {
        name: file,
        text: whole_file,
    }];
    let mut all: Vec<&Diagnostic> = Vec::new();
    for d in produced {
        all.push(d);
        all.extend(d.notes.iter());
    }
    for d in all {
        // As in MLIR, an expectation matches every diagnostic it
        // describes; one of another severity is a near miss.
        let line = match file_line_col(ctx, d.loc) {
            Some((f, line, _)) if f == file => Some(line),
            Some(_) => None,
            None => Some(UNKNOWN_LINE),
        };
        let mut near_miss = None;
        let mut hit = false;
        for e in expected.iter_mut() {
            if Some(e.line) != line || !e.matches(&d.message) {
                continue;
            }
            if e.severity != d.severity {
                near_miss = Some((e.at, e.severity));
                continue;
            }
            e.matched = true;
            hit = true;
            break;
        }
        if hit {
            continue;
        }
        if let Some(((line, col), wanted)) = near_miss {
            let message = format!(
                "'{}' diagnostic emitted when expecting a '{}'",
                d.severity.word(),
                wanted.word()
            );
            report(&mut failures, (line, col, 1), &message);
        } else {
            let mut u = d.clone();
            u.message = format!("unexpected {}: {}", d.severity.word(), d.message);
            u.severity = Severity::Error;
            u.notes.clear();
            failures.push_str(&crate::diag::render(ctx, &sources, &u));
        }
    }
    for e in expected.iter().filter(|e| !e.matched) {
        let message = format!(
            "expected {} \"{}\" was not produced",
            e.severity.word(),
            e.text
        );
        report(&mut failures, (e.at.0, e.at.1, e.text.len()), &message);
    }
    Outcome { failures }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_designators() {
        let src =
            b"// expected-error-re@+1 {{foo {{[0-9]+}} bar}}\nx\n// expected-note@above {{n}}";
        let (e, bad) = parse_expected(src, 1);
        assert!(bad.is_empty());
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].line, 2);
        assert!(e[0].matches("a foo 12 bar"));
        assert!(!e[0].matches("foo x bar"));
        assert_eq!(e[1].line, 2);
        assert_eq!(e[1].severity, Severity::Note);
    }

    #[test]
    fn below_skips_lines_with_expectations() {
        let src = b"// expected-error@below {{a}}\n// expected-note@below {{b}}\nop\n";
        let (e, _) = parse_expected(src, 1);
        assert_eq!((e[0].line, e[1].line), (3, 3));
    }

    #[test]
    fn above_skips_lines_with_expectations() {
        let src = b"op\n// expected-error@below {{a}}\n// expected-note@above {{b}}\nop2\n";
        let (e, _) = parse_expected(src, 1);
        assert_eq!((e[0].line, e[1].line), (4, 1));
    }

    #[test]
    fn plain_expectations_are_substrings() {
        let (e, _) = parse_expected(b"// expected-error {{a {{.*}} b}}", 1);
        assert!(e[0].matches("x a {{.*}} b y"));
        assert!(!e[0].matches("a c b"));
    }

    #[test]
    fn malformed_regexes_are_reported() {
        let messages = |src: &[u8]| -> Vec<String> {
            parse_expected(src, 1).1.into_iter().map(|b| b.3).collect()
        };
        assert_eq!(
            messages(b"// expected-error-re {{{{}}"),
            ["found start of regex with no end '}}'"]
        );
        assert_eq!(
            messages(b"// expected-error-re {{ {{(}} }}"),
            ["invalid regex: parentheses not balanced"]
        );
        assert_eq!(
            messages(b"// expected-error-re {{ {{[}} }}"),
            ["invalid regex: brackets ([ ]) not balanced"]
        );
        assert!(messages(b"// expected-error-re {{ {{[)]}} }}").is_empty());
    }
}
