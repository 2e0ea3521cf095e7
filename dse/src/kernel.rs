//! The kernel being explored: its text parsed and verified once, and
//! what a space may name in it: loops (report path, label, constant trip
//! count), arrays (shape, external or on-chip), the tileable bands
//! (`silica_affine::tile`) and the operator classes that `[limits]` can
//! bound.

use silica_hls::flow::front::names::{self, LoopName};
use silica_ir::diag::{render, SourceFile};
use silica_ir::parser::{parse, ParseOptions, ParsedModule};
use silica_ir::verify::{verify, VerifyOptions};
use silica_ir::{Context, OpId, TypeKind};

/// The input file.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Input {
    /// As given on the command line (diagnostics).
    pub name: String,
    pub text: String,
    pub top: String,
    /// The hand-written modules `hls.ip` declarations bind to (`--ip
    /// FILE.sv`): file names and texts, shipped with the kernel to the
    /// workers.
    #[serde(default)]
    pub ip: Vec<(String, String)>,
    /// The widest external memory port in bits (`--max-port-bits`).
    #[serde(default = "default_max_port_bits")]
    pub max_port_bits: u32,
    /// Whether a point that exceeds its device shares functional units
    /// until it fits, as `silica hls` does (`--auto`, `silica dse
    /// --fit`); otherwise it is invalid.
    #[serde(default)]
    pub fit: bool,
}

fn default_max_port_bits() -> u32 {
    silica_hls::model::options::MAX_PORT_BITS
}

/// A loop a space may name.
#[derive(Clone, Debug)]
pub struct LoopInfo {
    pub path: String,
    pub positions: String,
    pub label: Option<String>,
    pub trip: Option<u64>,
}

/// An array a space may name.
#[derive(Clone, Debug)]
pub struct ArrayInfo {
    pub name: String,
    pub shape: Vec<u64>,
    /// A memref argument (a memory port), not an on-chip array.
    pub external: bool,
}

/// A tileable band: its loops, outermost first.
#[derive(Clone, Debug)]
pub struct BandInfo {
    pub loops: Vec<LoopInfo>,
}

/// What a space may name in the kernel.
#[derive(Clone, Debug)]
pub struct KernelInfo {
    pub top: String,
    pub loops: Vec<LoopInfo>,
    pub arrays: Vec<ArrayInfo>,
    pub bands: Vec<BandInfo>,
    /// Operator classes with limited units (`mul`, `div`, ...).
    pub classes: Vec<String>,
}

impl KernelInfo {
    /// The loops `name` denotes: by path, positions, else label.
    pub fn find_loops(&self, name: &str) -> Vec<&LoopInfo> {
        let by_path: Vec<&LoopInfo> = self
            .loops
            .iter()
            .filter(|l| l.path == name || l.positions == name)
            .collect();
        if !by_path.is_empty() {
            return by_path;
        }
        self.loops
            .iter()
            .filter(|l| l.label.as_deref() == Some(name))
            .collect()
    }

    /// Every loop's path, for messages.
    pub fn loop_names(&self) -> Vec<String> {
        self.loops.iter().map(|l| l.path.clone()).collect()
    }

    pub fn array(&self, name: &str) -> Option<&ArrayInfo> {
        self.arrays.iter().find(|a| a.name == name)
    }

    /// The array whose DMA buffer `name` is: DMA copies (`dma = true`)
    /// make one on-chip buffer per memory they copy, named after it
    /// (`A_buf`, or `A_buf1`, ... where the name is taken).
    pub fn buffered(&self, name: &str) -> Option<&ArrayInfo> {
        let (base, number) = name.rsplit_once("_buf")?;
        if !number.bytes().all(|b| b.is_ascii_digit()) || number.starts_with('0') {
            return None;
        }
        self.array(base)
    }

    /// The band whose outermost loop `name` denotes.
    pub fn band(&self, name: &str) -> Option<&BandInfo> {
        let roots = self.find_loops(name);
        self.bands
            .iter()
            .find(|b| roots.iter().any(|r| r.path == b.loops[0].path))
    }
}

/// A parsed, verified kernel.
pub struct Parsed {
    pub module: ParsedModule,
    pub func: OpId,
}

/// Parses and verifies the input; finds the top function. The error is
/// the rendered diagnostic.
pub fn load(ctx: &mut Context, input: &Input) -> Result<Parsed, String> {
    let sources = [SourceFile {
        name: &input.name,
        text: input.text.as_bytes(),
    }];
    let module = parse(
        ctx,
        &input.name,
        input.text.as_bytes(),
        ParseOptions::default(),
    )
    .map_err(|d| render(ctx, &sources, &d))?;
    let opts = VerifyOptions {
        print_op: true,
        debug_info: false,
    };
    verify(ctx, &module.ir, module.top, opts).map_err(|d| render(ctx, &sources, &d))?;
    let func = silica_hls::flow::front::find_top(ctx, &module.ir, module.top, &input.top)
        .map_err(|d| render(ctx, &sources, &d))?;
    Ok(Parsed { module, func })
}

/// The loops, arrays and bands of the top function; `classes` from a
/// baseline design.
pub fn info(ctx: &mut Context, parsed: &Parsed, top: &str, classes: Vec<String>) -> KernelInfo {
    let mut ir = parsed.module.ir.clone();
    let (loop_names, array_names) = names::collect(ctx, &ir, parsed.func, top);
    let mut loops = Vec::new();
    for l in &loop_names {
        let trip = silica_affine::loops::constant_trip_count(ctx, &mut ir, l.op);
        loops.push(loop_info(l, trip));
    }
    let arrays = array_names
        .iter()
        .map(|a| {
            let ty = match (a.arg, a.alloc) {
                (Some(i), _) => ir
                    .regions(parsed.func)
                    .next()
                    .and_then(|r| ir.entry_block(r))
                    .map(|b| ir.value_type(ir.block_args(b)[i])),
                (None, Some(op)) => ir.results(op).next().map(|v| ir.value_type(v)),
                _ => None,
            };
            let shape = match ty.map(|t| ctx.type_kind(t)) {
                Some(TypeKind::MemRef { shape, .. }) => {
                    shape.iter().map(|&d| d.max(0) as u64).collect()
                }
                _ => Vec::new(),
            };
            ArrayInfo {
                name: a.name.clone(),
                shape,
                external: a.arg.is_some(),
            }
        })
        .collect();
    let bands = silica_affine::tile::tileable_bands(ctx, &ir, parsed.func)
        .into_iter()
        .filter_map(|band| {
            let loops = band
                .iter()
                .map(|&op| {
                    let i = loop_names.iter().position(|l| l.op == op)?;
                    Some(loops[i].clone())
                })
                .collect::<Option<Vec<_>>>()?;
            (!loops.is_empty()).then_some(BandInfo { loops })
        })
        .collect();
    KernelInfo {
        top: top.to_string(),
        loops,
        arrays,
        bands,
        classes,
    }
}

fn loop_info(l: &LoopName, trip: Option<u64>) -> LoopInfo {
    LoopInfo {
        path: l.path.clone(),
        positions: l.positions.clone(),
        label: l.label.clone(),
        trip,
    }
}
