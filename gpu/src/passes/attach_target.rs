//! `nvvm-attach-target`: appends an `#nvvm.target` built from the
//! options to the targets of each `gpu.module` whose name the `module`
//! regular expression matches (all by default).

use crate::dialect::kernel::{symbol_name, MODULE};
use crate::nvvm::target::Target;
use silica_ir::dialect::inherent_attr;
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::{Attr, AttrKind, Context, Diagnostic, Ir, OpId};

struct AttachTarget {
    module: regex::Regex,
    target: Target,
    /// The flags and link list, built in the context the pass runs in.
    fast: bool,
    ftz: bool,
    ptxas_options: Vec<String>,
    link: Vec<String>,
}

impl AttachTarget {
    fn target(&self, ctx: &mut Context) -> Attr {
        let mut flags = Vec::new();
        if self.fast {
            flags.push((ctx.sym("fast"), ctx.unit_attr()));
        }
        if self.ftz {
            flags.push((ctx.sym("ftz"), ctx.unit_attr()));
        }
        if !self.ptxas_options.is_empty() {
            let options: Vec<Attr> = self
                .ptxas_options
                .iter()
                .map(|o| ctx.string_attr(o.as_bytes()))
                .collect();
            let k = ctx.sym("ptxas-cmd-options");
            flags.push((k, ctx.array_attr(&options)));
        }
        let mut t = self.target.clone();
        t.flags = (!flags.is_empty()).then(|| ctx.dict_attr(flags));
        if !self.link.is_empty() {
            let files: Vec<Attr> = self
                .link
                .iter()
                .map(|f| ctx.string_attr(f.as_bytes()))
                .collect();
            t.link = Some(ctx.array_attr(&files));
        }
        t.attr(ctx)
    }
}

impl Pass for AttachTarget {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let Some(body) = ir.regions(op).next().and_then(|r| ir.entry_block(r)) else {
            return Ok(());
        };
        let modules: Vec<OpId> = ir
            .block_ops(body)
            .filter(|&m| ctx.str(ir.op_name(m)) == MODULE)
            .collect();
        for m in modules {
            let name = symbol_name(ctx, ir, m).unwrap_or_default();
            if !self.module.is_match(&name) {
                continue;
            }
            let mut targets = match inherent_attr(ctx, ir, m, "targets").map(|a| ctx.attr_kind(a)) {
                Some(AttrKind::Array(ts)) => ts.to_vec(),
                _ => Vec::new(),
            };
            targets.push(self.target(ctx));
            let list = ctx.array_attr(&targets);
            let key = ctx.sym("targets");
            let mut props: Vec<_> = ir
                .op_props(m)
                .map(|p| ctx.dict_entries(p).to_vec())
                .unwrap_or_default();
            props.retain(|(k, _)| *k != key);
            props.push((key, list));
            let props = ctx.dict_attr(props);
            ir.set_op_props(m, Some(props));
        }
        Ok(())
    }
}

static OPTIONS: &[PassOptionInfo] = &[
    PassOptionInfo {
        name: "module",
        description: "Regex used to identify the modules to attach the target to.",
        kind: OptionKind::String,
        default: "",
    },
    PassOptionInfo {
        name: "triple",
        description: "Target triple.",
        kind: OptionKind::String,
        default: "nvptx64-nvidia-cuda",
    },
    PassOptionInfo {
        name: "chip",
        description: "Target chip.",
        kind: OptionKind::String,
        default: "sm_50",
    },
    PassOptionInfo {
        name: "features",
        description:
            "Target features, default is to use the minimum PTX ISA version for the SM target.",
        kind: OptionKind::String,
        default: "",
    },
    PassOptionInfo {
        name: "O",
        description: "Optimization level.",
        kind: OptionKind::UInt,
        default: "2",
    },
    PassOptionInfo {
        name: "fast",
        description: "Enable fast math mode.",
        kind: OptionKind::Bool,
        default: "false",
    },
    PassOptionInfo {
        name: "ftz",
        description: "Enable flush to zero for denormals.",
        kind: OptionKind::Bool,
        default: "false",
    },
    PassOptionInfo {
        name: "l",
        description: "Extra bitcode libraries paths to link to.",
        kind: OptionKind::List,
        default: "",
    },
    PassOptionInfo {
        name: "ptxas-cmd-options",
        description: "Command line options passed to downstream compiler",
        kind: OptionKind::String,
        default: "",
    },
];

/// `nvvm-attach-target`
pub static NVVM_ATTACH_TARGET: PassInfo = PassInfo {
    argument: "nvvm-attach-target",
    name: "GpuNVVMAttachTarget",
    description: "Attaches an NVVM target attribute to a GPU Module.",
    anchor: None,
    options: OPTIONS,
    create: |o: &PassOptions| {
        let module = regex::Regex::new(o.string("module"))
            .map_err(|e| format!("nvvm-attach-target: invalid module regex: {e}"))?;
        let opt_level = o.int("O");
        if !(0..=3).contains(&opt_level) {
            return Err("The optimization level must be a number between 0 and 3.".into());
        }
        let split = |s: &str| -> Vec<String> {
            s.split([',', ' '])
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect()
        };
        Ok(Box::new(AttachTarget {
            module,
            target: Target {
                opt_level,
                triple: o.string("triple").to_string(),
                chip: o.string("chip").to_string(),
                features: o.string("features").to_string(),
                flags: None,
                link: None,
            },
            fast: o.bool("fast"),
            ftz: o.bool("ftz"),
            ptxas_options: split(o.string("ptxas-cmd-options")),
            link: split(o.string("l")),
        }))
    },
};
