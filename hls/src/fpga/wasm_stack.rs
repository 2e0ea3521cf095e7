//! A larger C stack for a WebAssembly program linked with its stack
//! first, as `wasm-ld` lays out YoWASP's tools: the stack is linear
//! memory `[0, S)`, growing down from `S`, the initial value of the
//! mutable global 0 (`__stack_pointer`), with the data segments above it.
//! YoWASP's `nextpnr-ecp5` has S = 64 KiB, which its recursions overflow
//! on a long combinational path (a 32-bit divider by data): the stack
//! pointer wraps below 0 and the program traps (`out of bounds memory
//! access` at `0xffffffe4`).
//!
//! [`with_stack`] rewrites such a module so that the stack is a new region
//! at the top of a larger initial memory: the memory's minimum grows by the
//! stack's pages and global 0 starts at the new top. The heap is not
//! disturbed: wasi-libc's allocator takes the memory from `__heap_base` to
//! the linker's `__heap_end` (the old initial size, a constant in the code)
//! and grows with `memory.grow`, above the new region. Every other section
//! (and every other global) is copied byte for byte. `wasmparser` reads
//! the module, `wasm-encoder` writes the two sections that change.

use std::ops::Range;
use wasm_encoder::{ConstExpr, GlobalSection, MemorySection, MemoryType, Module, RawSection};
use wasmparser::{DataKind, GlobalSectionReader, MemorySectionReader, Operator, Parser, Payload};

const PAGE: u64 = 65536;
const MEMORY: u8 = wasm_encoder::SectionId::Memory as u8;
const GLOBAL: u8 = wasm_encoder::SectionId::Global as u8;

/// `module` with a stack of `stack_bytes` (a multiple of 64 KiB) instead
/// of its own; an error when the module is not laid out stack first.
pub fn with_stack(module: &[u8], stack_bytes: u64) -> Result<Vec<u8>, String> {
    if !stack_bytes.is_multiple_of(PAGE) || stack_bytes == 0 {
        return Err(format!(
            "a stack of {stack_bytes} bytes is not a whole number of 64 KiB pages"
        ));
    }
    if !module.starts_with(b"\0asm") {
        return Err("not a WebAssembly module".into());
    }
    let err = |e: wasmparser::BinaryReaderError| e.to_string();
    let mut sections: Vec<(u8, Range<u64>)> = Vec::new();
    let (mut memory, mut globals, mut low) = (None, None, None);
    for payload in Parser::new(0).parse_all(module) {
        let payload = payload.map_err(err)?;
        match &payload {
            Payload::MemorySection(r) => memory = Some(memory_type(r.clone())?),
            Payload::GlobalSection(r) => globals = Some(r.clone()),
            Payload::DataSection(r) => {
                for data in r.clone() {
                    if let DataKind::Active { offset_expr, .. } = data.map_err(err)?.kind {
                        let at = i32_constant(&offset_expr)
                            .ok_or("a data segment is not placed by an i32 constant")?;
                        // An address, unsigned.
                        let at = at as u32;
                        low = Some(low.map_or(at, |l: u32| l.min(at)));
                    }
                }
            }
            _ => {}
        }
        sections.extend(payload.as_section());
    }
    let memory = memory.ok_or("the module has no memory section")?;
    let globals = globals.ok_or("the module has no globals (no stack pointer)")?;
    let (old_top, rest) = stack_pointer(globals)?;
    if let Some(low) = low.filter(|&l| l < old_top) {
        return Err(format!(
            "the stack is not first: data at {low:#x} below the stack pointer {old_top:#x}"
        ));
    }
    let new_min = memory.minimum + stack_bytes / PAGE;
    let top = new_min * PAGE;
    if top > i32::MAX as u64 || memory.maximum.is_some_and(|m| m < new_min) {
        return Err(format!("the memory cannot grow to {new_min} pages"));
    }
    let mut out = Module::new();
    for (id, range) in sections {
        match id {
            MEMORY => out.section(MemorySection::new().memory(MemoryType {
                minimum: new_min,
                ..memory
            })),
            GLOBAL => {
                let mut g = GlobalSection::new();
                g.global(
                    wasm_encoder::GlobalType {
                        val_type: wasm_encoder::ValType::I32,
                        mutable: true,
                        shared: false,
                    },
                    &ConstExpr::i32_const(top as i32),
                );
                rest.iter().for_each(|r| {
                    g.raw(bytes(module, r));
                });
                out.section(&g)
            }
            _ => out.section(&RawSection {
                id,
                data: bytes(module, &range),
            }),
        };
    }
    Ok(out.finish())
}

/// The one memory's type (32-bit, unshared, 64 KiB pages).
fn memory_type(r: MemorySectionReader) -> Result<MemoryType, String> {
    let mut all = r.into_iter();
    let (Some(Ok(m)), None) = (all.next(), all.next()) else {
        return Err("the module has not exactly one 32-bit memory".into());
    };
    if m.memory64 || m.shared || m.page_size_log2.is_some() {
        return Err("the module has not exactly one 32-bit memory".into());
    }
    Ok(MemoryType {
        minimum: m.initial,
        maximum: m.maximum,
        memory64: false,
        shared: false,
        page_size_log2: None,
    })
}

/// The stack pointer's initial value (global 0: a mutable i32 set by a
/// positive constant) and the byte ranges of the other globals.
fn stack_pointer(globals: GlobalSectionReader) -> Result<(u32, Vec<Range<u64>>), String> {
    let end = globals.range().end;
    let mut starts = Vec::new();
    let mut sp = None;
    for item in globals.into_iter_with_offsets() {
        let (at, g) = item.map_err(|e| e.to_string())?;
        if starts.is_empty() {
            let i32_mut = g.ty.content_type == wasmparser::ValType::I32 && g.ty.mutable;
            sp = i32_mut.then(|| i32_constant(&g.init_expr)).flatten();
        }
        starts.push(at);
    }
    let Some(sp) = sp.filter(|&v| v > 0) else {
        return Err("global 0 is not a mutable i32 set by a constant (no stack pointer)".into());
    };
    starts.push(end);
    let rest = starts.windows(2).skip(1).map(|w| w[0]..w[1]).collect();
    Ok((sp as u32, rest))
}

/// The bytes of `module` at `r` (a range the parser found in it).
fn bytes<'a>(module: &'a [u8], r: &Range<u64>) -> &'a [u8] {
    &module[r.start as usize..r.end as usize]
}

/// The value of a constant expression that is one `i32.const`.
fn i32_constant(e: &wasmparser::ConstExpr) -> Option<i32> {
    let mut ops = e.get_operators_reader();
    match (ops.read().ok()?, ops.read().ok()?) {
        (Operator::I32Const { value }, Operator::End) => Some(value),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{with_stack, PAGE};
    use wasm_encoder::{
        ConstExpr, CustomSection, DataSection, GlobalSection, GlobalType, MemorySection,
        MemoryType, Module, ValType,
    };
    use wasmparser::{Operator, Parser, Payload};

    /// A module laid out like YoWASP's: a custom section, memory of
    /// `pages` (maximum `max`), stack pointer `sp` then an immutable
    /// global, one data segment at `data_at`.
    fn module(pages: u64, max: Option<u64>, sp: i32, data_at: i32) -> Vec<u8> {
        let mut m = Module::new();
        m.section(&CustomSection {
            name: "x-silica".into(),
            data: b"xyz".into(),
        });
        m.section(MemorySection::new().memory(MemoryType {
            minimum: pages,
            maximum: max,
            memory64: false,
            shared: false,
            page_size_log2: None,
        }));
        let ty = |mutable| GlobalType {
            val_type: ValType::I32,
            mutable,
            shared: false,
        };
        let mut globals = GlobalSection::new();
        globals.global(ty(true), &ConstExpr::i32_const(sp));
        globals.global(ty(false), &ConstExpr::i32_const(7));
        m.section(&globals);
        let mut data = DataSection::new();
        data.active(0, &ConstExpr::i32_const(data_at), b"abc".iter().copied());
        m.section(&data);
        m.finish()
    }

    /// The sections of `m`: (id, body).
    fn sections(m: &[u8]) -> Vec<(u8, Vec<u8>)> {
        Parser::new(0)
            .parse_all(m)
            .filter_map(|p| p.unwrap().as_section())
            .map(|(id, r)| (id, m[r.start as usize..r.end as usize].to_vec()))
            .collect()
    }

    /// The memory's (minimum, maximum) and the globals' (mutable, value).
    type Layout = ((u64, Option<u64>), Vec<(bool, i32)>);

    /// The [`Layout`] of `m`.
    fn layout(m: &[u8]) -> Layout {
        let (mut memory, mut globals) = (None, Vec::new());
        for p in Parser::new(0).parse_all(m) {
            match p.unwrap() {
                Payload::MemorySection(r) => {
                    let t = r.into_iter().next().unwrap().unwrap();
                    memory = Some((t.initial, t.maximum));
                }
                Payload::GlobalSection(r) => {
                    for g in r {
                        let g = g.unwrap();
                        let Operator::I32Const { value } =
                            g.init_expr.get_operators_reader().read().unwrap()
                        else {
                            panic!("not an i32 constant");
                        };
                        globals.push((g.ty.mutable, value));
                    }
                }
                _ => {}
            }
        }
        (memory.unwrap(), globals)
    }

    #[test]
    fn the_stack_moves_to_the_top_of_a_larger_memory() {
        let old = module(4, None, 65536, 65536);
        let new = with_stack(&old, 64 << 20).unwrap();
        let top = (4 + 1024) * PAGE;
        assert_eq!(
            layout(&new),
            ((4 + 1024, None), vec![(true, top as i32), (false, 7)])
        );
        // The custom section and the data are as they were, in order.
        let (s, old_s) = (sections(&new), sections(&old));
        assert_eq!(s.iter().map(|x| x.0).collect::<Vec<_>>(), [0, 5, 6, 11]);
        assert_eq!((&s[0], &s[3]), (&old_s[0], &old_s[3]));
    }

    #[test]
    fn a_maximum_is_kept_and_must_leave_room() {
        let new = with_stack(&module(4, Some(2000), 65536, 65536), PAGE).unwrap();
        assert_eq!(layout(&new).0, (5, Some(2000)));
        let e = with_stack(&module(4, Some(6), 65536, 65536), 4 * PAGE).unwrap_err();
        assert!(e.contains("cannot grow to 8 pages"), "{e}");
    }

    #[test]
    fn modules_not_laid_out_stack_first_are_refused() {
        let e = with_stack(&module(4, None, 131072, 1024), PAGE).unwrap_err();
        assert!(e.contains("the stack is not first"), "{e}");
        let e = with_stack(&module(4, None, -16, 65536), PAGE).unwrap_err();
        assert!(e.contains("no stack pointer"), "{e}");
        assert!(with_stack(b"\x7fELF", PAGE)
            .unwrap_err()
            .contains("not a WebAssembly"));
        let e = with_stack(&module(4, None, 65536, 65536), 1000).unwrap_err();
        assert!(e.contains("64 KiB pages"), "{e}");
        // A module cut short is an error, not a panic.
        let whole = module(4, None, 65536, 65536);
        let e = with_stack(&whole[..whole.len() - 2], PAGE).unwrap_err();
        assert!(!e.is_empty());
    }
}
