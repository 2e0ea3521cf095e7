//! MLIR's textual pass pipelines: `anchor(element, ...)` where an element
//! is a pass with optional `{options}` or a nested `anchor(...)`.

use super::manager::OpPassManager;
use super::options::split_options;
use super::PassRegistry;

/// A pipeline that does not parse or names unknown passes or options.
#[derive(Debug)]
pub struct PipelineError {
    pub message: String,
    /// Byte offset in the pipeline text, when the error has a place.
    pub pos: Option<usize>,
}

impl PipelineError {
    /// The error as MLIR words it, with the text and a caret.
    pub fn render(&self, text: &str) -> String {
        match self.pos {
            Some(pos) => format!(
                "MLIR Textual PassPipeline Parser:1:{}: error: {}\n{}\n{}^",
                pos + 1,
                self.message,
                text,
                " ".repeat(pos)
            ),
            None => self.message.clone(),
        }
    }
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    registry: &'a PassRegistry,
}

fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-' | b'$')
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.pos < self.text.len() && self.text.as_bytes()[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn err(&self, pos: usize, message: impl Into<String>) -> PipelineError {
        PipelineError {
            message: message.into(),
            pos: Some(pos),
        }
    }

    fn name(&mut self) -> (usize, &str) {
        self.skip_ws();
        let start = self.pos;
        while self.peek().is_some_and(is_name_char) {
            self.pos += 1;
        }
        (start, &self.text[start..self.pos])
    }

    /// Elements up to the closing parenthesis of a nested pipeline.
    fn elements(&mut self, pm: &mut OpPassManager, open: usize) -> Result<(), PipelineError> {
        self.skip_ws();
        if self.peek() == Some(b')') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            let (start, name) = self.name();
            let name = name.to_string();
            self.skip_ws();
            match self.peek() {
                Some(b'(') => {
                    if name.is_empty() {
                        return Err(self.err(start, "expected an operation name before '('"));
                    }
                    let open = self.pos;
                    self.pos += 1;
                    let nested = pm.nest_new(&name);
                    self.elements(nested, open)?;
                }
                _ => {
                    let options = if self.peek() == Some(b'{') {
                        let brace = self.pos;
                        let mut depth = 0;
                        loop {
                            match self.peek() {
                                None => {
                                    return Err(self.err(
                                        brace,
                                        "missing closing '}' while processing pass options",
                                    ))
                                }
                                Some(b'{') => depth += 1,
                                Some(b'}') => {
                                    depth -= 1;
                                    if depth == 0 {
                                        break;
                                    }
                                }
                                _ => {}
                            }
                            self.pos += 1;
                        }
                        let text = &self.text[brace + 1..self.pos];
                        self.pos += 1;
                        split_options(text).map_err(|m| self.err(brace, m))?
                    } else {
                        Vec::new()
                    };
                    let Some(info) = self.registry.get(&name) else {
                        let mut msg = format!(
                            "'{name}' does not refer to a registered pass or pass pipeline"
                        );
                        if let Some(s) = self.registry.suggest(&name).filter(|_| !name.is_empty()) {
                            msg.push_str(&format!(" (did you mean '{s}'?)"));
                        }
                        return Err(self.err(start, msg));
                    };
                    pm.add_pass(info, options).map_err(|m| self.err(start, m))?;
                }
            }
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b')') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => {
                    return Err(self.err(
                        open,
                        "encountered unbalanced parentheses while parsing pipeline",
                    ))
                }
            }
        }
    }
}

/// Parses a pipeline `anchor(...)` into a pass manager on `anchor`.
pub fn parse_pipeline(text: &str, registry: &PassRegistry) -> Result<OpPassManager, PipelineError> {
    let mut p = Parser {
        text,
        pos: 0,
        registry,
    };
    let (start, anchor) = p.name();
    let anchor = anchor.to_string();
    p.skip_ws();
    if anchor.is_empty() || p.peek() != Some(b'(') {
        if text.trim().is_empty() {
            return Ok(OpPassManager::new("any"));
        }
        let _ = start;
        return Err(PipelineError {
            message: "expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'".into(),
            pos: None,
        });
    }
    let open = p.pos;
    p.pos += 1;
    let mut pm = OpPassManager::new(&anchor);
    p.elements(&mut pm, open)?;
    p.skip_ws();
    if p.pos < text.len() {
        return Err(p.err(p.pos, "unexpected text after the pipeline"));
    }
    Ok(pm)
}
