//! `--hw-print-instance-graph`: the module hierarchy as a Graphviz
//! digraph on standard error (CIRCT's pass of that name). Each module is
//! a node, labelled with its name, listed in the order modules are first
//! met (each module, then the modules its instances name); each instance
//! is an edge labelled with the instance's name.

use crate::hw::symbol_name;
use silica_ir::dialect::inherent_attr;
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::{AttrKind, Context, Diagnostic, Ir, OpId};
use std::fmt::Write;

/// The modules under `top` with their instances: (module name, [(instance
/// name, instantiated module)]), in the order modules are first met.
pub fn instance_graph(ctx: &Context, ir: &Ir, top: OpId) -> Vec<(String, Vec<(String, String)>)> {
    let mut nodes: Vec<(String, Vec<(String, String)>)> = Vec::new();
    let node = |nodes: &mut Vec<(String, Vec<(String, String)>)>, name: &str| match nodes
        .iter()
        .position(|n| n.0 == name)
    {
        Some(i) => i,
        None => {
            nodes.push((name.to_string(), Vec::new()));
            nodes.len() - 1
        }
    };
    let Some(block) = ir.regions(top).next().and_then(|r| ir.entry_block(r)) else {
        return nodes;
    };
    for module in ir.block_ops(block) {
        if !matches!(
            ctx.str(ir.op_name(module)),
            "hw.module" | "hw.module.extern"
        ) {
            continue;
        }
        let from = node(&mut nodes, &symbol_name(ctx, ir, module));
        let mut edges = Vec::new();
        ir.walk(module, &mut |o| {
            if ctx.str(ir.op_name(o)) != "hw.instance" {
                return;
            }
            let instance = match inherent_attr(ctx, ir, o, "instanceName").map(|a| ctx.attr_kind(a))
            {
                Some(AttrKind::String { value, .. }) => String::from_utf8_lossy(value).into_owned(),
                _ => String::new(),
            };
            if let Some(AttrKind::SymbolRef { root, .. }) =
                inherent_attr(ctx, ir, o, "moduleName").map(|a| ctx.attr_kind(a))
            {
                edges.push((instance, ctx.str(*root).to_string()));
            }
        });
        for (_, target) in &edges {
            node(&mut nodes, target);
        }
        nodes[from].1.extend(edges);
    }
    nodes
}

/// `name` inside a quoted record label: quotes and the characters that
/// structure records escaped.
fn record_label(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if matches!(c, '"' | '{' | '}' | '|' | '<' | '>' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// An edge label: bare when it is an identifier, as LLVM writes them,
/// else quoted.
fn edge_label(name: &str) -> String {
    let bare = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if bare {
        name.to_string()
    } else {
        format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// The graph in Graphviz's syntax, as LLVM's graph writer lays it out.
pub fn to_dot(nodes: &[(String, Vec<(String, String)>)]) -> String {
    let id = |name: &str| nodes.iter().position(|n| n.0 == name).unwrap_or(0);
    let mut out = String::from("digraph \"InstanceGraph\" {\n\tlabel=\"InstanceGraph\";\n\n");
    for (i, (name, edges)) in nodes.iter().enumerate() {
        let label = record_label(name);
        let _ = writeln!(out, "\tNode{i} [shape=record,label=\"{{{label}}}\"];");
        for (instance, target) in edges {
            let (to, label) = (id(target), edge_label(instance));
            let _ = writeln!(out, "\tNode{i} -> Node{to}[label={label}];");
        }
    }
    out.push_str("}\n");
    out
}

struct PrintInstanceGraph;

impl Pass for PrintInstanceGraph {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        eprint!("{}", to_dot(&instance_graph(ctx, ir, op)));
        Ok(())
    }
}

/// The `hw-print-instance-graph` pass.
pub static HW_PRINT_INSTANCE_GRAPH: PassInfo = PassInfo {
    argument: "hw-print-instance-graph",
    name: "PrintInstanceGraph",
    description: "Prints the module hierarchy as a Graphviz digraph",
    anchor: Some("builtin.module"),
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(PrintInstanceGraph)),
};
