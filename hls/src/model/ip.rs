//! Hand-written Verilog modules (`silica hls --ip FILE.sv`), read with
//! the `sv-parser` crate: every module with an ANSI port list, its ports'
//! names, directions and widths (`[MSB:LSB]` with integer bounds, else
//! one bit). [`Library::check`] compares a module with what an `hls.ip`
//! declaration needs (`front::ip`); the design's SystemVerilog carries
//! the text of the files whose modules it instantiates.

use crate::model::interface::{Direction, Port};
use std::collections::HashMap;
use sv_parser::{unwrap_node, Locate, RefNode, SyntaxTree};

/// A declaration bound to a Verilog module.
#[derive(Clone, Debug, PartialEq)]
pub struct Ip {
    /// The function's name.
    pub function: String,
    /// The Verilog module's name.
    pub module: String,
    /// Its latency in cycles.
    pub latency: u64,
    /// The ports the module must have, in the contract's order.
    pub ports: Vec<Port>,
}

/// A module of a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    /// The file it is in (index into the library's files).
    pub file: usize,
    pub name: String,
    /// Its ports in declaration order.
    pub ports: Vec<Port>,
}

/// The files given with `--ip` and their modules.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Library {
    /// File names and texts.
    pub files: Vec<(String, String)>,
    pub modules: Vec<Module>,
}

/// The source text of `locate`.
fn text(tree: &SyntaxTree, l: &Locate) -> String {
    tree.get_str(l).unwrap_or_default().to_string()
}

/// The tokens under a node (whitespace and comments left out).
fn tokens(tree: &SyntaxTree, node: RefNode<'_>) -> Vec<String> {
    let mut out = Vec::new();
    for n in node {
        if let RefNode::Locate(l) = n {
            let t = text(tree, l);
            let t = t.trim();
            if !t.is_empty() && !t.starts_with("//") && !t.starts_with("/*") {
                out.push(t.to_string());
            }
        }
    }
    out
}

/// The width of a packed dimension's tokens `[ a : b ]`.
fn width_of(tokens: &[String]) -> Option<u32> {
    let [open, msb, colon, lsb, close] = tokens else {
        return None;
    };
    if (open.as_str(), colon.as_str(), close.as_str()) != ("[", ":", "]") {
        return None;
    }
    let msb: i64 = msb.parse().ok()?;
    let lsb: i64 = lsb.parse().ok()?;
    u32::try_from((msb - lsb).abs() + 1).ok()
}

/// The bits of a port declaration: its integer atom type's (`int`: 32,
/// ...) or one, times each packed `[MSB:LSB]` range.
fn width(tree: &SyntaxTree, port: RefNode<'_>) -> Result<u32, String> {
    let mut bits: u64 = 1;
    for n in port {
        let factor = match n {
            RefNode::IntegerAtomType(t) => match t {
                sv_parser::IntegerAtomType::Byte(_) => 8,
                sv_parser::IntegerAtomType::Shortint(_) => 16,
                sv_parser::IntegerAtomType::Int(_) | sv_parser::IntegerAtomType::Integer(_) => 32,
                sv_parser::IntegerAtomType::Longint(_) | sv_parser::IntegerAtomType::Time(_) => 64,
            },
            RefNode::PackedDimensionRange(r) => {
                width_of(&tokens(tree, RefNode::PackedDimensionRange(r)))
                    .ok_or("has a width that is not [integer:integer]")?
                    .into()
            }
            RefNode::UnsizedDimension(_) | RefNode::UnpackedDimension(_) => {
                return Err("is an array; an IP port is a vector".into())
            }
            _ => 1,
        };
        bits = bits.saturating_mul(factor);
    }
    u32::try_from(bits).map_err(|_| "is too wide".to_string())
}

/// The byte offset in the file of the first token under `node`.
fn offset(tree: &SyntaxTree, node: RefNode<'_>) -> usize {
    node.into_iter()
        .find_map(|n| match n {
            RefNode::Locate(l) => Some(tree.get_origin(l).map_or(l.offset, |(_, o)| o)),
            _ => None,
        })
        .unwrap_or(0)
}

/// The ports of an ANSI module declaration; an error gives the offset of
/// the port it is about.
fn ports(tree: &SyntaxTree, module: RefNode<'_>, name: &str) -> Result<Vec<Port>, (usize, String)> {
    let mut out: Vec<Port> = Vec::new();
    for n in module {
        let RefNode::AnsiPortDeclaration(p) = n else {
            continue;
        };
        let at = offset(tree, RefNode::AnsiPortDeclaration(p));
        let err = |m: String| (at, m);
        let id = match unwrap_node!(p, PortIdentifier) {
            Some(RefNode::PortIdentifier(x)) => tokens(tree, RefNode::PortIdentifier(x)).join(""),
            _ => return Err(err(format!("module '{name}': a port without a name"))),
        };
        let direction = match unwrap_node!(p, PortDirection) {
            Some(d) => match tokens(tree, d).first().map(String::as_str) {
                Some("input") => Direction::In,
                Some("output") => Direction::Out,
                other => {
                    return Err(err(format!(
                        "module '{name}': port '{id}' is {}, not an input or output",
                        other.unwrap_or("?")
                    )))
                }
            },
            // Without a direction a port continues the one before.
            None => out
                .last()
                .map(|p| p.direction)
                .ok_or_else(|| err(format!("module '{name}': port '{id}' has no direction")))?,
        };
        let node = RefNode::AnsiPortDeclaration(p);
        // A bare name continues the declaration before it (type and all).
        let bare = tokens(tree, node.clone()).len() == 1;
        let width = match out.last() {
            Some(prev) if bare => prev.width,
            _ => width(tree, node).map_err(|m| err(format!("module '{name}': port '{id}' {m}")))?,
        };
        out.push(Port {
            name: id,
            direction,
            width,
        });
    }
    Ok(out)
}

/// An error in an `--ip` file, at a place in it.
#[derive(Clone, Debug, PartialEq)]
pub struct FileError {
    pub file: String,
    /// 1-based line and column.
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl FileError {
    /// The error at byte `offset` of `source` (the text of `file`).
    fn at(file: &str, source: &str, offset: usize, message: String) -> FileError {
        let mut offset = offset.min(source.len());
        while !source.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &source[..offset];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        FileError {
            file: file.to_string(),
            line: before.matches('\n').count() + 1,
            col: before[line_start..].chars().count() + 1,
            message,
        }
    }
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.line, self.col, self.message
        )
    }
}

impl Library {
    /// Reads `files` (name, text) with sv-parser.
    pub fn read(files: Vec<(String, String)>) -> Result<Library, FileError> {
        let mut modules = Vec::new();
        for (i, (file, source)) in files.iter().enumerate() {
            let at = |offset: usize, m: String| FileError::at(file, source, offset, m);
            let defines = HashMap::new();
            let includes: [&str; 0] = [];
            let (tree, _) = sv_parser::parse_sv_str(
                source, file, &defines, &includes, false, false,
            )
            .map_err(|e| match e {
                sv_parser::Error::Parse(pos) | sv_parser::Error::Preprocess(pos) => at(
                    pos.map_or(0, |(_, o)| o),
                    "sv-parser cannot parse the file here".into(),
                ),
                other => at(0, format!("sv-parser cannot read the file: {other}")),
            })?;
            for n in &tree {
                match n {
                    RefNode::ModuleDeclarationAnsi(m) => {
                        let name = match unwrap_node!(m, ModuleIdentifier) {
                            Some(id) => tokens(&tree, id).join(""),
                            None => continue,
                        };
                        let node = RefNode::ModuleDeclarationAnsi(m);
                        if let Some(first) = modules.iter().find(|d: &&Module| d.name == name) {
                            return Err(at(
                                offset(&tree, node),
                                format!(
                                    "module '{name}' is also defined in {}",
                                    files[first.file].0
                                ),
                            ));
                        }
                        let ports = ports(&tree, node, &name).map_err(|(o, e)| at(o, e))?;
                        modules.push(Module {
                            file: i,
                            name,
                            ports,
                        });
                    }
                    RefNode::ModuleDeclarationNonansi(m) => {
                        let name = match unwrap_node!(m, ModuleIdentifier) {
                            Some(id) => tokens(&tree, id).join(""),
                            None => continue,
                        };
                        return Err(at(
                            offset(&tree, RefNode::ModuleDeclarationNonansi(m)),
                            format!("module '{name}' declares its ports in the body; an IP module needs an ANSI port list"),
                        ));
                    }
                    _ => {}
                }
            }
        }
        Ok(Library { files, modules })
    }

    /// Checks that the library has the module `ip` names, with the ports
    /// it needs; the message names the first difference.
    pub fn check(&self, ip: &Ip) -> Result<(), String> {
        let Some(m) = self.modules.iter().find(|m| m.name == ip.module) else {
            let files: Vec<&str> = self.files.iter().map(|f| f.0.as_str()).collect();
            return Err(if files.is_empty() {
                format!(
                    "'@{}' is bound to the Verilog module '{}': give its file with --ip FILE.sv",
                    ip.function, ip.module
                )
            } else {
                format!(
                    "no module '{}' (for '@{}') in {}",
                    ip.module,
                    ip.function,
                    files.join(", ")
                )
            });
        };
        let file = &self.files[m.file].0;
        let dir = |d: Direction| match d {
            Direction::In => "input",
            Direction::Out => "output",
        };
        for want in &ip.ports {
            let Some(have) = m.ports.iter().find(|p| p.name == want.name) else {
                return Err(format!(
                    "module '{}' in {file} has no port '{}' ({} of {} bits) that '@{}' needs",
                    m.name,
                    want.name,
                    dir(want.direction),
                    want.width,
                    ip.function
                ));
            };
            if have.direction != want.direction || have.width != want.width {
                return Err(format!(
                    "port '{}' of module '{}' in {file} is an {} of {} bits; '@{}' needs an {} of {} bits",
                    want.name,
                    m.name,
                    dir(have.direction),
                    have.width,
                    ip.function,
                    dir(want.direction),
                    want.width
                ));
            }
        }
        if let Some(extra) = m
            .ports
            .iter()
            .find(|p| !ip.ports.iter().any(|w| w.name == p.name))
        {
            return Err(format!(
                "module '{}' in {file} has a port '{}' that '@{}' does not have",
                m.name, extra.name, ip.function
            ));
        }
        Ok(())
    }

    /// The text of the files that define the modules of `ips`, once each.
    pub fn sources(&self, ips: &[Ip]) -> String {
        let mut used: Vec<usize> = ips
            .iter()
            .filter_map(|ip| self.modules.iter().find(|m| m.name == ip.module))
            .map(|m| m.file)
            .collect();
        used.sort_unstable();
        used.dedup();
        let mut out = String::new();
        for f in used {
            let (name, text) = &self.files[f];
            out.push_str(&format!("\n// --ip {name}\n"));
            out.push_str(text);
            if !text.ends_with('\n') {
                out.push('\n');
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Library, FileError> {
        Library::read(vec![("t.sv".into(), text.into())])
    }

    #[test]
    fn ports_with_their_directions_and_widths() {
        let lib = read(
            "module m (input logic clock, input logic [7:0] a, b, output int r,\n\
             output logic [1:0][3:0] q, input wire [0:2] s);\nendmodule\n",
        )
        .unwrap();
        let got: Vec<(&str, Direction, u32)> = lib.modules[0]
            .ports
            .iter()
            .map(|p| (p.name.as_str(), p.direction, p.width))
            .collect();
        assert_eq!(
            got,
            [
                ("clock", Direction::In, 1),
                ("a", Direction::In, 8),
                ("b", Direction::In, 8),
                ("r", Direction::Out, 32),
                ("q", Direction::Out, 8),
                ("s", Direction::In, 3),
            ]
        );
    }

    #[test]
    fn errors_are_at_their_place_in_the_file() {
        let e =
            read("module m (input logic a,\n  input logic [W-1:0] b);\nendmodule\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.sv:2:3: error: module 'm': port 'b' has a width that is not [integer:integer]"
        );
        let e = read("module m (input a);\n  wire x\nendmodule\n").unwrap_err();
        assert_eq!(
            (e.line, e.message.as_str()),
            (3, "sv-parser cannot parse the file here")
        );
        let e = read("module m (a);\n  input a;\nendmodule\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("ANSI port list"), "{e}");
    }
}
