//! One view of a memory (`seq.firmem` or `seq.hlmem`) and its ports,
//! shared by the simulator and the Verilog emitter so that both give a
//! memory the same meaning:
//!
//! - the memory holds `depth` words of `width` bits, all zero at power-up;
//!   an `hlmem`'s addresses are flattened row-major (inner dimensions must
//!   be powers of two, so the flat address is their concatenation);
//! - a read port of latency 0 returns the addressed word at once; one of
//!   latency 1 loads the addressed word into its data register at the
//!   clock edge when enabled (a read-write port: when enabled and not
//!   writing), returning what the memory held before that edge's writes
//!   (read-under-write "old", which "undefined" is taken as);
//! - a write port stores its data (the mask's groups of `width / mask`
//!   bits, if masked) at the clock edge when enabled, ports in op order;
//! - an address past the end reads zero and writes nothing.
//!
//! Other latencies, read-under-write "new" and firmem initialisation
//! files are refused with a diagnostic at the op.

use crate::seq::memory_ops::{
    fir_port_kind, fir_port_operands, firmem_address_width, hl_port_operands, hlmem_of, int_prop,
    FirPort,
};
use crate::types::{bit_width, hw_type, HwType};
use silica_ir::diag::Diagnostic;
use silica_ir::{Context, Ir, OpId, ValueId};

type Res<T> = Result<T, Box<Diagnostic>>;

fn err(ir: &Ir, op: OpId, msg: impl Into<String>) -> Box<Diagnostic> {
    Box::new(Diagnostic::error(ir.op_loc(op), msg))
}

/// The longest read pipeline a memory port may have.
pub const MAX_READ_LATENCY: i64 = 64;

/// One port of a memory.
#[derive(Clone, Debug)]
pub struct MemPort {
    pub op: OpId,
    /// The address operands (several for a multi-dimensional `hlmem`,
    /// most significant first).
    pub address: Vec<ValueId>,
    pub clock: Option<ValueId>,
    pub enable: Option<ValueId>,
    /// Write data.
    pub data: Option<ValueId>,
    /// A read-write port's mode: high writes, low reads.
    pub mode: Option<ValueId>,
    pub mask: Option<ValueId>,
    /// Read data, for ports that read.
    pub read: Option<ValueId>,
    /// Cycles from address to read data: 0 reads combinationally; 1
    /// captures the addressed word in a data register at an enabled edge;
    /// each further cycle adds a register after it, which follows every
    /// edge.
    pub read_latency: u64,
    pub writes: bool,
}

/// A memory and its ports.
#[derive(Clone, Debug)]
pub struct Memory {
    pub op: OpId,
    pub depth: u64,
    pub width: u64,
    /// The address width (of the flattened address).
    pub address_width: u32,
    /// Bits per mask bit, for masked memories.
    pub mask_group: Option<u64>,
    pub ports: Vec<MemPort>,
    /// The file its words are loaded from at power-up (else zero).
    pub init: Option<crate::seq::mem_init::MemInit>,
}

/// Whether `name` is a memory op.
pub fn is_memory(name: &str) -> bool {
    matches!(name, "seq.firmem" | "seq.hlmem")
}

/// Whether `name` is a memory port op.
pub fn is_port(name: &str) -> bool {
    matches!(name, "seq.read" | "seq.write") || fir_port_kind(name).is_some()
}

/// Whether `op` is a port whose read data is registered (so its result
/// is a state element, like a register's).
pub fn is_registered_read(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    match ctx.str(ir.op_name(op)) {
        "seq.read" => int_prop(ctx, ir, op, "latency").unwrap_or(0) > 0,
        "seq.firmem.read_port" | "seq.firmem.read_write_port" => {
            ir.operands(op)
                .next()
                .and_then(|m| ir.defining_op(m))
                .and_then(|m| int_prop(ctx, ir, m, "readLatency"))
                .unwrap_or(0)
                > 0
        }
        _ => false,
    }
}

/// The memory `op` (a `seq.firmem` or `seq.hlmem`) with its ports, or a
/// diagnostic for what the simulator and emitter do not support.
pub fn memory(ctx: &Context, ir: &Ir, op: OpId) -> Res<Memory> {
    let result = ir.result(op, 0);
    let mut ports = Vec::new();
    // Ports in op order (write ports to one address: the last one wins).
    let using: std::collections::HashSet<OpId> = ir.uses(result).map(|u| ir.use_owner(u)).collect();
    let users: Vec<OpId> = match ir.op_block(op) {
        Some(b) => ir.block_ops(b).filter(|o| using.contains(o)).collect(),
        None => using.into_iter().collect(),
    };
    if ctx.str(ir.op_name(op)) == "seq.firmem" {
        let Some(HwType::FirMem { depth, width, mask }) = hw_type(ctx, ir.value_type(result))
        else {
            return Err(err(ir, op, "expected a '!seq.firmem' result"));
        };
        let read_latency = int_prop(ctx, ir, op, "readLatency").unwrap_or(0);
        let write_latency = int_prop(ctx, ir, op, "writeLatency").unwrap_or(1);
        if !(0..=MAX_READ_LATENCY).contains(&read_latency) || write_latency != 1 {
            return Err(err(
                ir,
                op,
                format!("memories with read latency {read_latency} and write latency {write_latency} are not supported (read latency 0 to {MAX_READ_LATENCY}, write latency 1)"),
            ));
        }
        if int_prop(ctx, ir, op, "ruw") == Some(2) {
            return Err(err(ir, op, "read-under-write 'new' is not supported"));
        }
        let init = crate::seq::mem_init::mem_init(ctx, ir, op).map_err(|m| err(ir, op, m))?;
        for u in users {
            let Some(kind) = fir_port_kind(ctx.str(ir.op_name(u))) else {
                return Err(err(ir, u, "a firmem may only be used by its ports"));
            };
            let r = fir_port_operands(ctx, ir, u, kind);
            ports.push(MemPort {
                op: u,
                address: r.address.into_iter().collect(),
                clock: r.clock,
                enable: r.enable,
                data: r.data,
                mode: r.mode,
                mask: r.mask,
                read: ir.results(u).next(),
                read_latency: read_latency as u64,
                writes: kind != FirPort::Read,
            });
        }
        return Ok(Memory {
            op,
            depth,
            width,
            address_width: firmem_address_width(depth),
            mask_group: mask.map(|m| width / m.max(1)),
            ports,
            init,
        });
    }
    let (dims, element) =
        hlmem_of(ctx, ir, result).ok_or_else(|| err(ir, op, "expected a '!seq.hlmem' result"))?;
    let width = bit_width(ctx, element)
        .ok_or_else(|| err(ir, op, "memory elements must have a bit width"))?;
    if dims.iter().skip(1).any(|d| !d.is_power_of_two()) {
        return Err(err(
            ir,
            op,
            "multi-dimensional memories need power-of-two inner dimensions",
        ));
    }
    let clock = ir.operands(op).next();
    for u in users {
        let name = ctx.str(ir.op_name(u));
        if !matches!(name, "seq.read" | "seq.write") {
            return Err(err(
                ir,
                u,
                "an hlmem may only be used by seq.read and seq.write",
            ));
        }
        let latency = int_prop(ctx, ir, u, "latency").unwrap_or(0);
        let write = name == "seq.write";
        if (write && latency != 1) || !(0..=MAX_READ_LATENCY).contains(&latency) {
            return Err(err(
                ir,
                u,
                format!(
                    "latency {latency} is not supported (reads 0 to {MAX_READ_LATENCY}, writes 1)"
                ),
            ));
        }
        let r = hl_port_operands(ctx, ir, u);
        ports.push(MemPort {
            op: u,
            address: r.addresses,
            clock,
            enable: r.enable,
            data: r.data,
            mode: None,
            mask: None,
            read: ir.results(u).next(),
            read_latency: if write { 0 } else { latency as u64 },
            writes: write,
        });
    }
    let address_width = dims
        .iter()
        .map(|&d| crate::hw::aggregates::index_width(d))
        .sum();
    Ok(Memory {
        op,
        depth: dims.iter().product(),
        width,
        address_width,
        mask_group: None,
        ports,
        init: None,
    })
}
