//! The interface description of a synthesised kernel (`F.json`): the
//! ports of the brief's `memory` interface, derived from a `func.func`
//! and written with serde, and the port names that the RTL builder and
//! the co-simulation testbench both use.
//!
//! A scalar argument is an input port as wide as its type (`index` is
//! [`INDEX_WIDTH`] bits, as the host sees it); a memref argument is an
//! external synchronous RAM with `ports` ports (1 unless a directive asks
//! for 2) of read latency 1, addressed by the row-major linear index;
//! a scalar result `i` is the output `result<i>`. Reading an `F.json`
//! ignores the QoR fields (`latency`, `loops`, `resources`) that the
//! report adds beside the interface.

use serde::{Deserialize, Serialize};
use silica_ir::dialect::inherent_attr;
use silica_ir::float::FloatKind;
use silica_ir::{AttrKind, Context, Diagnostic, Ir, OpId, Type, TypeKind, ValueId};
use std::collections::HashSet;

/// The width of an `index` argument or result port: the 64 bits the host
/// passes (LLVM lowers `index` to `i64`). A core may use fewer bits
/// inside; the port carries the full value.
pub const INDEX_WIDTH: u32 = 64;

/// The read latency of every external memory port, in cycles.
pub const READ_LATENCY: u32 = 1;

/// The kernel's interface: what a testbench needs to drive the core.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Interface {
    /// The top module's name (the function's).
    pub top: String,
    /// The interface kind; `"memory"` (the brief's default).
    pub interface: String,
    /// The target the design was built for.
    pub target: String,
    /// The clock period the design is asked to run at, in ns (its
    /// datapath is scheduled to it less any clock uncertainty).
    pub clock_ns: f64,
    /// The function's arguments, in order.
    pub args: Vec<Arg>,
    /// The function's results, in order.
    pub results: Vec<ResultPort>,
    /// DMA engines whose transfers the environment performs (the AXI
    /// wrapper's master, `--interface axi`); none for the brief's
    /// `memory` interface.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub streams: Vec<Stream>,
}

/// One argument of the kernel.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Arg {
    /// Its position among the function's arguments.
    pub index: usize,
    /// Its port name: the `hls.name` argument attribute, else `arg<index>`.
    pub name: String,
    /// A scalar input or an external memory.
    #[serde(flatten)]
    pub kind: ArgKind,
    /// The function's result this memory is: a buffer the kernel
    /// allocates and returns, an output memory named `result<i>` listed
    /// after the arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returned: Option<usize>,
}

/// What an argument becomes in hardware.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ArgKind {
    /// An input port latched at `start`.
    Scalar(Scalar),
    /// An external RAM reached through memory ports.
    Memory(Memory),
}

/// A scalar argument's type and port width.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Scalar {
    /// The MLIR type (`i32`, `index`, `f32`).
    #[serde(rename = "type")]
    pub ty: String,
    /// The port's width in bits.
    pub width: u32,
}

/// A memref argument as an external RAM.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Memory {
    /// The MLIR type (`memref<20x25xf32>`).
    #[serde(rename = "type")]
    pub ty: String,
    /// The static shape.
    pub shape: Vec<u64>,
    /// The bits of one element (the data ports' width).
    pub element_width: u32,
    /// The number of words of the ports: the elements (the product of
    /// the shape), `lanes` a word.
    pub words: u64,
    /// The address ports' width: `max(1, ceil(log2(words)))`.
    pub address_width: u32,
    /// The number of ports (1 or 2).
    pub ports: u32,
    /// Cycles from a read's `ce` to its data on `q`.
    pub read_latency: u32,
    /// Elements a word of the ports (the `width` directive): port word
    /// `w` holds elements `w * lanes ..`, element `w * lanes + j` in bits
    /// `[j * b, (j + 1) * b)`, and `we` has a bit a lane.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub lanes: u32,
    /// Whether the kernel reads it, writes it or both.
    pub access: Access,
    /// Moved only by a streamed DMA engine ([`Stream`]): the core has no
    /// memory ports for it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub streamed: bool,
}

impl Memory {
    /// The memory of MLIR type `ty`: `words` words (the product of
    /// `shape`) of `element_width` bits, one port, accessed as `access`.
    pub fn new(
        ty: String,
        shape: Vec<u64>,
        words: u64,
        element_width: u32,
        access: Access,
    ) -> Memory {
        Memory {
            ty,
            shape,
            element_width,
            words,
            address_width: address_width(words),
            ports: 1,
            read_latency: READ_LATENCY,
            lanes: 1,
            access,
            streamed: false,
        }
    }

    /// The number of elements (the product of the shape).
    pub fn elements(&self) -> u64 {
        self.shape.iter().product::<u64>().max(1)
    }

    /// The bits of a word of the ports.
    pub fn word_width(&self) -> u32 {
        self.element_width * self.lanes.max(1)
    }

    /// Packs the elements `lanes` a word of the ports.
    pub fn pack(&mut self, lanes: u32) {
        self.lanes = lanes;
        self.words = self.elements().div_ceil(u64::from(lanes.max(1)));
        self.address_width = address_width(self.words);
    }
}

fn one() -> u32 {
    1
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

/// A DMA engine of the core whose transfers the environment performs:
/// the core offers each transfer as a command (`<name>_cmd_*`: route,
/// first word `row` of the external memory, `count` words, `per` words a
/// row, rows `stride` words apart; taken on `cmd_ready`), takes a load's
/// words in order on `rvalid`/`rdata` (always ready), offers a store's
/// words on `wvalid`/`wdata` (taken on `wready`) and counts the transfer
/// done on `done`, which the environment raises once every word is in
/// place (a store's last write answered).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Stream {
    /// The ports' prefix (`dma<n>`, the engine's number).
    pub name: String,
    /// The transfers it makes, by route number: the memory argument and
    /// the direction.
    pub routes: Vec<StreamRoute>,
    /// Bits of `cmd_row` and `cmd_stride` (word addresses).
    pub address_width: u32,
    /// Bits of `cmd_count` and `cmd_per`.
    pub count_width: u32,
    /// Bits of a word (`rdata`, `wdata`).
    pub data_width: u32,
}

/// One route of a [`Stream`].
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct StreamRoute {
    /// The memory argument's name.
    pub memory: String,
    /// From on-chip memory to the argument (else into on-chip memory).
    pub store: bool,
}

impl Stream {
    /// Bits of `cmd_route`.
    pub fn route_width(&self) -> u32 {
        (usize::BITS - self.routes.len().saturating_sub(1).leading_zeros()).max(1)
    }

    /// The stream's ports, in order: the command, the store data out,
    /// `waited` (the controller waits for a transfer the engine has
    /// active or queued), then the handshakes and the load data in.
    pub fn ports(&self) -> Vec<Port> {
        let n = &self.name;
        let (a, c, d) = (self.address_width, self.count_width, self.data_width);
        let out = [
            ("cmd_valid", 1),
            ("cmd_route", self.route_width()),
            ("cmd_row", a),
            ("cmd_count", c),
            ("cmd_per", c),
            ("cmd_stride", a),
            ("wvalid", 1),
            ("wdata", d),
            ("waited", 1),
        ];
        let inp = [
            ("cmd_ready", 1),
            ("rvalid", 1),
            ("rdata", d),
            ("wready", 1),
            ("done", 1),
        ];
        let port = |(s, width): (&str, u32), direction| Port {
            name: names::stream(n, s),
            direction,
            width,
        };
        out.iter()
            .map(|&p| port(p, Direction::Out))
            .chain(inp.iter().map(|&p| port(p, Direction::In)))
            .collect()
    }
}

/// How a kernel uses a memory argument.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// Only read (also a memory nothing touches).
    Read,
    /// Only written.
    Write,
    /// Read and written.
    ReadWrite,
}

impl Access {
    fn join(self, other: Access) -> Access {
        if self == other {
            self
        } else {
            Access::ReadWrite
        }
    }

    /// Whether the kernel may write the memory.
    pub fn writes(self) -> bool {
        self != Access::Read
    }
}

/// A scalar result of the kernel.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ResultPort {
    /// Its position among the function's results.
    pub index: usize,
    /// Its port name, `result<index>`.
    pub name: String,
    /// The MLIR type.
    #[serde(rename = "type")]
    pub ty: String,
    /// The port's width in bits.
    pub width: u32,
}

/// The direction of a port of the top module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Driven by the environment.
    In,
    /// Driven by the core.
    Out,
}

/// One port of the top module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Port {
    /// Its name in the SystemVerilog module.
    pub name: String,
    /// Input or output.
    pub direction: Direction,
    /// Its width in bits (the clock is one bit).
    pub width: u32,
}

/// Port names of the contract, in one place.
pub mod names {
    /// The clock input.
    pub const CLOCK: &str = "clock";
    /// The synchronous, active-high reset input.
    pub const RESET: &str = "reset";
    /// The start input, sampled while `idle`.
    pub const START: &str = "start";
    /// High for one cycle when every result is final.
    pub const DONE: &str = "done";
    /// High while the core waits for `start`.
    pub const IDLE: &str = "idle";
    /// The control ports: pins even where the others go behind a scan
    /// wrapper (`fpga::scan`).
    pub const CONTROL: [&str; 5] = [CLOCK, RESET, START, DONE, IDLE];

    /// `<mem>_address<port>`.
    pub fn address(mem: &str, port: u32) -> String {
        format!("{mem}_address{port}")
    }
    /// `<mem>_ce<port>`.
    pub fn ce(mem: &str, port: u32) -> String {
        format!("{mem}_ce{port}")
    }
    /// `<mem>_we<port>`.
    pub fn we(mem: &str, port: u32) -> String {
        format!("{mem}_we{port}")
    }
    /// `<mem>_d<port>` (write data).
    pub fn d(mem: &str, port: u32) -> String {
        format!("{mem}_d{port}")
    }
    /// `<mem>_q<port>` (read data).
    pub fn q(mem: &str, port: u32) -> String {
        format!("{mem}_q{port}")
    }
    /// `<stream>_<signal>`: a signal of a streamed DMA engine.
    pub fn stream(stream: &str, signal: &str) -> String {
        format!("{stream}_{signal}")
    }
    /// `result<index>`.
    pub fn result(index: usize) -> String {
        format!("result{index}")
    }
    /// The name of an argument without `hls.name`: `arg<index>`.
    pub fn arg(index: usize) -> String {
        format!("arg{index}")
    }
}

impl Interface {
    /// The scalar arguments with their names, in order.
    pub fn scalars(&self) -> impl Iterator<Item = (&Arg, &Scalar)> {
        self.args.iter().filter_map(|a| match &a.kind {
            ArgKind::Scalar(s) => Some((a, s)),
            ArgKind::Memory(_) => None,
        })
    }

    /// The memory arguments with their names, in order.
    pub fn memories(&self) -> impl Iterator<Item = (&Arg, &Memory)> {
        self.args.iter().filter_map(|a| match &a.kind {
            ArgKind::Memory(m) => Some((a, m)),
            ArgKind::Scalar(_) => None,
        })
    }

    /// The memory argument named `name`, to change (e.g. its `ports`).
    pub fn memory_mut(&mut self, name: &str) -> Option<&mut Memory> {
        self.args.iter_mut().find_map(|a| match &mut a.kind {
            ArgKind::Memory(m) if a.name == name => Some(m),
            _ => None,
        })
    }

    /// The bits of all the top module's ports: the pins it needs when
    /// nothing wraps it.
    pub fn port_bits(&self) -> u64 {
        self.ports().iter().map(|p| u64::from(p.width)).sum()
    }

    /// Every port of the top module in the contract's order: clock,
    /// reset, start, done, idle, the scalar arguments, the results, then
    /// per memory (not streamed) and port: address, ce, we, d, q, then
    /// the streams' ports.
    pub fn ports(&self) -> Vec<Port> {
        let port = |name: String, direction, width| Port {
            name,
            direction,
            width,
        };
        let mut out = vec![
            port(names::CLOCK.into(), Direction::In, 1),
            port(names::RESET.into(), Direction::In, 1),
            port(names::START.into(), Direction::In, 1),
            port(names::DONE.into(), Direction::Out, 1),
            port(names::IDLE.into(), Direction::Out, 1),
        ];
        for (arg, s) in self.scalars() {
            out.push(port(arg.name.clone(), Direction::In, s.width));
        }
        for r in &self.results {
            out.push(port(r.name.clone(), Direction::Out, r.width));
        }
        for (arg, m) in self.memories().filter(|(_, m)| !m.streamed) {
            for p in 0..m.ports {
                let a = &arg.name;
                out.push(port(names::address(a, p), Direction::Out, m.address_width));
                out.push(port(names::ce(a, p), Direction::Out, 1));
                out.push(port(names::we(a, p), Direction::Out, m.lanes));
                out.push(port(names::d(a, p), Direction::Out, m.word_width()));
                out.push(port(names::q(a, p), Direction::In, m.word_width()));
            }
        }
        for s in &self.streams {
            out.extend(s.ports());
        }
        out
    }

    /// The description as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("an interface always serialises")
    }

    /// Reads a description (an `F.json`; other fields are ignored).
    pub fn from_json(text: &str) -> Result<Interface, String> {
        serde_json::from_str(text).map_err(|e| format!("invalid interface description: {e}"))
    }
}

/// The element type text of a memref type (`memref<4x5xf32>` → `f32`,
/// `memref<2xindex, affine_map<..>>` → `index`).
pub fn element_type(memref: &str) -> &str {
    let mut body = memref
        .strip_prefix("memref<")
        .and_then(|s| s.strip_suffix('>'))
        .unwrap_or(memref);
    body = body.split(", ").next().unwrap_or(body);
    while let Some((dim, rest)) = body.split_once('x') {
        if dim.is_empty() || !dim.bytes().all(|b| b.is_ascii_digit()) {
            break;
        }
        body = rest;
    }
    body
}

/// `max(1, ceil(log2(words)))`: the bits that address `words` words.
pub fn address_width(words: u64) -> u32 {
    if words <= 2 {
        1
    } else {
        64 - (words - 1).leading_zeros()
    }
}

/// The width in bits of a scalar of type `ty`, if it can be a port:
/// integers of any width, `index` ([`INDEX_WIDTH`]) and floats.
pub fn scalar_width(ctx: &Context, ty: Type) -> Option<u32> {
    match ctx.type_kind(ty) {
        TypeKind::Integer { width, .. } => Some(*width),
        TypeKind::Index => Some(INDEX_WIDTH),
        TypeKind::Float(k) => Some(FloatKind::bit_width(*k)),
        _ => None,
    }
}

/// Builds the interface of the `func.func` `func`, for `target` and
/// `clock_ns`. Errors (at the function) name the argument or result that
/// cannot be a port: a type that is not an integer, `index`, float or
/// static identity-layout memref in the default memory space; a name
/// that is not a plain identifier; two ports with the same name.
pub fn build(
    ctx: &Context,
    ir: &Ir,
    func: OpId,
    target: &str,
    clock_ns: f64,
) -> Result<Interface, Box<Diagnostic>> {
    let loc = ir.op_loc(func);
    let err = |msg: String| Box::new(Diagnostic::error(loc, msg));
    let top = string_attr(ctx, inherent_attr(ctx, ir, func, "sym_name"))
        .ok_or_else(|| err("'func.func' without a name".into()))?;
    let (inputs, outputs) =
        function_type(ctx, ir, func).ok_or_else(|| err(format!("'{top}' has no function type")))?;
    let entry_args: Vec<ValueId> = ir
        .regions(func)
        .next()
        .and_then(|r| ir.entry_block(r))
        .map(|b| ir.block_args(b).to_vec())
        .ok_or_else(|| err(format!("'{top}' is a declaration: a kernel needs a body")))?;
    let mut args = Vec::with_capacity(inputs.len());
    for (index, &ty) in inputs.iter().enumerate() {
        let name = arg_name(ctx, ir, func, index).unwrap_or_else(|| names::arg(index));
        check_identifier(&name).map_err(|why| err(format!("argument {index}: {why}")))?;
        let what = || format!("argument {index} ('{name}')");
        let kind = if let Some(width) = scalar_width(ctx, ty) {
            ArgKind::Scalar(Scalar {
                ty: type_name(ctx, ty),
                width,
            })
        } else {
            let access = entry_args.get(index).map_or(Access::Read, |&v| {
                access_of(ctx, ir, v, &mut HashSet::new())
            });
            ArgKind::Memory(
                memory(ctx, ty, access).map_err(|why| err(format!("{} {why}", what())))?,
            )
        };
        let returned = returned_position(ctx, ir, func, index);
        args.push(Arg {
            index,
            name,
            kind,
            returned,
        });
    }
    let positions = scalar_result_positions(&args, outputs.len());
    let mut results = Vec::with_capacity(outputs.len());
    for (&index, &ty) in positions.iter().zip(outputs.iter()) {
        let width = scalar_width(ctx, ty).ok_or_else(|| {
            err(format!(
                "result {index} has type {}: a result must be an integer, index or float",
                type_name(ctx, ty)
            ))
        })?;
        results.push(ResultPort {
            index,
            name: names::result(index),
            ty: type_name(ctx, ty),
            width,
        });
    }
    let interface = Interface {
        top,
        interface: "memory".into(),
        target: target.into(),
        clock_ns,
        args,
        results,
        streams: Vec::new(),
    };
    check_port_names(&interface).map_err(err)?;
    Ok(interface)
}

/// Whether the ports of `iface` have distinct names (else why not).
pub fn check_port_names(iface: &Interface) -> Result<(), String> {
    let mut seen = HashSet::new();
    for port in iface.ports() {
        if !seen.insert(port.name.clone()) {
            return Err(format!(
                "two ports are named '{}': rename an argument with 'hls.name'",
                port.name
            ));
        }
    }
    Ok(())
}

/// The memory description of the memref type `ty`, or why it cannot be
/// an external memory.
fn memory(ctx: &Context, ty: Type, access: Access) -> Result<Memory, String> {
    let type_text = type_name(ctx, ty);
    let TypeKind::MemRef {
        shape,
        element,
        layout,
        memory_space,
    } = ctx.type_kind(ty)
    else {
        return Err(format!(
            "has type {type_text}: an argument must be an integer, index, float or memref"
        ));
    };
    if shape.iter().any(|&d| d < 0) {
        return Err(format!(
            "has type {type_text}: a memory argument needs a static shape"
        ));
    }
    if !layout.is_none_or(|l| is_identity_layout(ctx, l, shape.len())) {
        return Err(format!(
            "has type {type_text}: a memory argument needs the identity layout"
        ));
    }
    if !memory_space.is_none_or(|s| is_zero(ctx, s)) {
        return Err(format!(
            "has type {type_text}: an external memory must be in the default memory space"
        ));
    }
    let element_width = scalar_width(ctx, *element).ok_or_else(|| {
        format!("has type {type_text}: memory elements must be integers, index or floats")
    })?;
    let shape: Vec<u64> = shape.iter().map(|&d| d as u64).collect();
    let words = shape
        .iter()
        .try_fold(1u64, |acc, &d| acc.checked_mul(d))
        .filter(|&w| w > 0)
        .ok_or_else(|| format!("has type {type_text}: a memory needs between 1 and 2^64 words"))?;
    Ok(Memory::new(type_text, shape, words, element_width, access))
}

/// Whether the layout attribute `l` of a rank-`rank` memref is the
/// identity map `affine_map<(d0, ..) -> (d0, ..)>` (a `strided` layout,
/// even a contiguous one, is a different type and is refused).
fn is_identity_layout(ctx: &Context, l: silica_ir::Attr, rank: usize) -> bool {
    use silica_ir::affine::AffineExpr;
    match ctx.attr_kind(l) {
        AttrKind::AffineMap(m) => {
            m.num_dims as usize == rank
                && m.num_symbols == 0
                && m.results.len() == rank
                && m.results
                    .iter()
                    .enumerate()
                    .all(|(i, e)| *e == AffineExpr::Dim(i as u32))
        }
        _ => false,
    }
}

fn is_zero(ctx: &Context, a: silica_ir::Attr) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Integer { value, .. } if *value == 0.into())
}

/// How the kernel uses the memref `v`: through loads, stores, copies,
/// DMA transfers and calls (followed into the callee's argument); any
/// other use is taken as reading and writing.
fn access_of(ctx: &Context, ir: &Ir, v: ValueId, visited: &mut HashSet<ValueId>) -> Access {
    if !visited.insert(v) {
        return Access::Read;
    }
    let mut access: Option<Access> = None;
    for u in ir.uses(v) {
        let op = ir.use_owner(u);
        let position = ir.operand_uses(op).position(|x| x == u).unwrap_or(0);
        let name = ctx.str(ir.op_name(op));
        let this = match name {
            "affine.load" | "memref.load" | "affine.vector_load" | "vector.load" => Access::Read,
            "affine.store" | "memref.store" | "affine.vector_store" | "vector.store" => {
                if position == 0 {
                    // The memref is the stored value: not a memory access.
                    Access::ReadWrite
                } else {
                    Access::Write
                }
            }
            "memref.copy" | "affine.dma_start" if position == 0 => Access::Read,
            "memref.copy" | "affine.dma_start" => Access::Write,
            "func.call" => callee_arg(ctx, ir, op, position)
                .map_or(Access::ReadWrite, |a| access_of(ctx, ir, a, visited)),
            _ => Access::ReadWrite,
        };
        access = Some(access.map_or(this, |a| a.join(this)));
    }
    access.unwrap_or(Access::Read)
}

/// The entry argument of the function a `func.call` calls that receives
/// its operand `position`.
fn callee_arg(ctx: &Context, ir: &Ir, call: OpId, position: usize) -> Option<ValueId> {
    let callee =
        silica_ir::symbols::lookup_from(ctx, ir, call, inherent_attr(ctx, ir, call, "callee")?)?;
    let block = ir.entry_block(ir.regions(callee).next()?)?;
    ir.block_args(block).get(position).copied()
}

/// The argument and result types of the `func.func` `func`.
pub(crate) fn function_type(ctx: &Context, ir: &Ir, func: OpId) -> Option<(Vec<Type>, Vec<Type>)> {
    let AttrKind::Type(t) = ctx.attr_kind(inherent_attr(ctx, ir, func, "function_type")?) else {
        return None;
    };
    match ctx.type_kind(*t) {
        TypeKind::Function { inputs, results } => Some((inputs.to_vec(), results.to_vec())),
        _ => None,
    }
}

/// The `hls.name` string attribute of argument `index`.
fn arg_name(ctx: &Context, ir: &Ir, func: OpId, index: usize) -> Option<String> {
    let AttrKind::Array(dicts) = ctx.attr_kind(inherent_attr(ctx, ir, func, "arg_attrs")?) else {
        return None;
    };
    let entries = ctx.dict_entries(*dicts.get(index)?);
    let &(_, value) = entries.iter().find(|(k, _)| ctx.str(*k) == "hls.name")?;
    string_attr(ctx, Some(value))
}

/// The argument attribute that marks a memory argument as the buffer a
/// kernel returned as its result `i` (`flow/front/returned.rs`).
pub const RETURNED_ATTR: &str = "hls.returned";

/// The result position argument `index` of `func` stands for, where it
/// is a returned buffer.
pub fn returned_position(ctx: &Context, ir: &Ir, func: OpId, index: usize) -> Option<usize> {
    let AttrKind::Array(dicts) = ctx.attr_kind(inherent_attr(ctx, ir, func, "arg_attrs")?) else {
        return None;
    };
    let entries = ctx.dict_entries(*dicts.get(index)?);
    let &(_, value) = entries.iter().find(|(k, _)| ctx.str(*k) == RETURNED_ATTR)?;
    match ctx.attr_kind(value) {
        AttrKind::Integer { value, .. } => usize::try_from(value).ok(),
        _ => None,
    }
}

/// The positions among the input function's results of the `count`
/// results a function still returns: those no argument of `args` stands
/// for, in order.
pub fn scalar_result_positions(args: &[Arg], count: usize) -> Vec<usize> {
    let taken: HashSet<usize> = args.iter().filter_map(|a| a.returned).collect();
    (0..count + taken.len())
        .filter(|p| !taken.contains(p))
        .collect()
}

fn string_attr(ctx: &Context, a: Option<silica_ir::Attr>) -> Option<String> {
    match ctx.attr_kind(a?) {
        AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    }
}

fn type_name(ctx: &Context, ty: Type) -> String {
    silica_ir::printer::type_to_string(ctx, ty)
}

/// Names that would not survive as a port name: SystemVerilog and C++
/// keywords (Verilator renames those) among plain identifiers.
const RESERVED: &[&str] = &[
    "always",
    "and",
    "assign",
    "auto",
    "begin",
    "bit",
    "break",
    "buf",
    "byte",
    "case",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "delete",
    "do",
    "double",
    "else",
    "end",
    "enum",
    "event",
    "extern",
    "final",
    "float",
    "for",
    "force",
    "fork",
    "function",
    "generate",
    "if",
    "initial",
    "inout",
    "input",
    "int",
    "integer",
    "join",
    "logic",
    "long",
    "module",
    "new",
    "nor",
    "not",
    "null",
    "operator",
    "or",
    "output",
    "parameter",
    "private",
    "protected",
    "public",
    "real",
    "reg",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "string",
    "struct",
    "super",
    "switch",
    "task",
    "this",
    "time",
    "type",
    "typedef",
    "union",
    "unsigned",
    "virtual",
    "void",
    "while",
    "wire",
    "xor",
];

/// Checks that `name` is a plain identifier that keeps its spelling in
/// SystemVerilog and in Verilator's C++ model: a letter, then letters,
/// digits and single underscores, not ending in `_`, not a keyword.
fn check_identifier(name: &str) -> Result<(), String> {
    let plain = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.contains("__")
        && !name.ends_with('_');
    if !plain {
        return Err(format!(
            "'hls.name' \"{name}\" is not a plain identifier (a letter, then letters, digits and single underscores)"
        ));
    }
    if RESERVED.contains(&name) {
        return Err(format!("'hls.name' \"{name}\" is a reserved word"));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
