//! `--verify-diagnostics`: checks produced diagnostics against
//! `expected-error/warning/note/remark` comments (`@+N`, `@-N`, `@above`,
//! `@below`, `@N`; `{{regex}}` pieces inside the message).

use crate::context::Context;
use crate::diag::{file_line_col, Diagnostic, Severity};
use regex::Regex;

/// One `expected-*` comment.
struct Expected {
    severity: Severity,
    line: u32,
    regex: Regex,
    text: String,
    /// Where the `expected-...` designator starts: (line, col, len).
    at: (u32, u32, usize),
    matched: bool,
}

fn parse_expected(src: &[u8], first_line: u32) -> Vec<Expected> {
    let text = String::from_utf8_lossy(src);
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let lineno = first_line + i as u32;
        let mut rest = *line;
        let mut offset = 0usize;
        while let Some(p) = rest.find("expected-") {
            let start = offset + p;
            let after = &line[start + "expected-".len()..];
            let (severity, word_len) = if after.starts_with("error") {
                (Severity::Error, 5)
            } else if after.starts_with("warning") {
                (Severity::Warning, 7)
            } else if after.starts_with("note") {
                (Severity::Note, 4)
            } else if after.starts_with("remark") {
                (Severity::Remark, 6)
            } else {
                offset = start + 1;
                rest = &line[offset..];
                continue;
            };
            let mut s = &after[word_len..];
            let mut target = lineno;
            let mut designator_len = "expected-".len() + word_len;
            // `expected-error @below` may have spaces before the `@`.
            let spaces = s.len() - s.trim_start_matches(' ').len();
            if let Some(d) = s[spaces..].strip_prefix('@') {
                designator_len += spaces;
                let end = d
                    .find(|c: char| c.is_whitespace() || c == '{')
                    .unwrap_or(d.len());
                let spec = &d[..end];
                designator_len += 1 + end;
                target = match spec {
                    "above" => lineno.saturating_sub(1),
                    "below" => lineno + 1,
                    _ if spec.starts_with('+') => lineno + spec[1..].parse::<u32>().unwrap_or(0),
                    _ if spec.starts_with('-') => {
                        lineno.saturating_sub(spec[1..].parse::<u32>().unwrap_or(0))
                    }
                    _ => spec.parse::<u32>().unwrap_or(lineno),
                };
                s = &d[end..];
            }
            let s_trim = s.trim_start();
            if let Some(body) = s_trim.strip_prefix("{{") {
                if let Some(end) = body.rfind("}}") {
                    let msg = &body[..end];
                    out.push(Expected {
                        severity,
                        line: target,
                        regex: build_regex(msg),
                        text: msg.to_string(),
                        at: (lineno, start as u32 + 1, designator_len),
                        matched: false,
                    });
                }
            }
            offset = start + 1;
            rest = &line[offset..];
        }
    }
    out
}

/// Literal text with `{{regex}}` pieces, as one unanchored regex.
fn build_regex(msg: &str) -> Regex {
    let mut pattern = String::new();
    let mut rest = msg;
    while let Some(p) = rest.find("{{") {
        pattern.push_str(&regex::escape(&rest[..p]));
        let after = &rest[p + 2..];
        match after.find("}}") {
            Some(e) => {
                pattern.push('(');
                pattern.push_str(&after[..e]);
                pattern.push(')');
                rest = &after[e + 2..];
            }
            None => {
                pattern.push_str(&regex::escape(&rest[p..]));
                rest = "";
            }
        }
    }
    pattern.push_str(&regex::escape(rest));
    Regex::new(&pattern).unwrap_or_else(|_| Regex::new(&regex::escape(msg)).expect("escaped"))
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
    let mut expected = parse_expected(src, first_line);
    let mut failures = String::new();
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
        let pos = file_line_col(ctx, d.loc).filter(|(f, _, _)| *f == file);
        let hit = pos.and_then(|(_, line, _)| {
            expected.iter_mut().find(|e| {
                !e.matched
                    && e.severity == d.severity
                    && e.line == line
                    && e.regex.is_match(&d.message)
            })
        });
        match hit {
            Some(e) => e.matched = true,
            None => {
                let mut u = d.clone();
                u.message = format!("unexpected {}: {}", d.severity.word(), d.message);
                u.severity = Severity::Error;
                u.notes.clear();
                failures.push_str(&crate::diag::render(ctx, &sources, &u));
            }
        }
    }
    let lines: Vec<&[u8]> = whole_file.split(|&b| b == b'\n').collect();
    for e in expected.iter().filter(|e| !e.matched) {
        let (line, col, len) = e.at;
        failures.push_str(&format!(
            "{file}:{line}:{col}: error: expected {} \"{}\" was not produced\n",
            e.severity.word(),
            e.text
        ));
        if let Some(l) = lines.get(line as usize - 1) {
            failures.push_str(&String::from_utf8_lossy(l));
            failures.push('\n');
            failures.push_str(&" ".repeat(col as usize - 1));
            failures.push('^');
            failures.push_str(&"~".repeat(len.saturating_sub(1)));
            failures.push('\n');
        }
    }
    Outcome { failures }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_designators() {
        let src = b"// expected-error@+1 {{foo {{[0-9]+}} bar}}\nx\n// expected-note@above {{n}}";
        let e = parse_expected(src, 1);
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].line, 2);
        assert!(e[0].regex.is_match("a foo 12 bar"));
        assert!(!e[0].regex.is_match("foo x bar"));
        assert_eq!(e[1].line, 2);
        assert_eq!(e[1].severity, Severity::Note);
    }
}
