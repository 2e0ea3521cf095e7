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
//! is copied byte for byte.

const MAGIC: &[u8; 8] = b"\0asm\x01\0\0\0";
const PAGE: u64 = 65536;
const MEMORY: u8 = 5;
const GLOBAL: u8 = 6;
const DATA: u8 = 11;
const I32: u8 = 0x7f;
const I32_CONST: u8 = 0x41;
const END: u8 = 0x0b;

/// `module` with a stack of `stack_bytes` (a multiple of 64 KiB) instead
/// of its own; an error when the module is not laid out stack first.
pub fn with_stack(module: &[u8], stack_bytes: u64) -> Result<Vec<u8>, String> {
    if !stack_bytes.is_multiple_of(PAGE) || stack_bytes == 0 {
        return Err(format!(
            "a stack of {stack_bytes} bytes is not a whole number of 64 KiB pages"
        ));
    }
    let sections = sections(module)?;
    let body = |id: u8| sections.iter().find(|s| s.0 == id).map(|s| s.1);
    let memory = body(MEMORY).ok_or("the module has no memory section")?;
    let globals = body(GLOBAL).ok_or("the module has no globals (no stack pointer)")?;
    let (old_top, sp_at) = stack_pointer(globals)?;
    if let Some(data) = body(DATA) {
        if let Some(low) = lowest_segment(data)? {
            if low < old_top {
                return Err(format!(
                    "the stack is not first: data at {low:#x} below the stack pointer {old_top:#x}"
                ));
            }
        }
    }
    let (min, max) = memory_limits(memory)?;
    let new_min = min + stack_bytes / PAGE;
    let top = new_min * PAGE;
    if top > i32::MAX as u64 || max.is_some_and(|m| m < new_min) {
        return Err(format!("the memory cannot grow to {new_min} pages"));
    }
    let mut out = MAGIC.to_vec();
    for (id, bytes) in &sections {
        let rewritten = match *id {
            MEMORY => {
                let mut b = vec![1, u8::from(max.is_some())];
                uleb(&mut b, new_min);
                if let Some(m) = max {
                    uleb(&mut b, m);
                }
                b
            }
            GLOBAL => {
                let (start, end) = sp_at;
                let mut b = bytes[..start].to_vec();
                sleb(&mut b, top as i64);
                b.extend_from_slice(&bytes[end..]);
                b
            }
            _ => bytes.to_vec(),
        };
        out.push(*id);
        uleb(&mut out, rewritten.len() as u64);
        out.extend_from_slice(&rewritten);
    }
    Ok(out)
}

/// The module's sections, (id, body), in order.
fn sections(module: &[u8]) -> Result<Vec<(u8, &[u8])>, String> {
    if !module.starts_with(MAGIC) {
        return Err("not a WebAssembly 1.0 module".into());
    }
    let mut at = MAGIC.len();
    let mut out = Vec::new();
    while at < module.len() {
        let id = module[at];
        let (size, body_at) = read_uleb(module, at + 1)?;
        let end = body_at
            .checked_add(size as usize)
            .filter(|&e| e <= module.len())
            .ok_or("a section runs past the end of the module")?;
        out.push((id, &module[body_at..end]));
        at = end;
    }
    Ok(out)
}

/// The stack pointer's initial value and the byte range of its value's
/// encoding in the global section: global 0, a mutable i32 initialised
/// by a constant.
fn stack_pointer(globals: &[u8]) -> Result<(u64, (usize, usize)), String> {
    let (count, at) = read_uleb(globals, 0)?;
    let not = || "global 0 is not a mutable i32 set by a constant (no stack pointer)".to_string();
    if count == 0 || globals.get(at..at + 3) != Some(&[I32, 1, I32_CONST]) {
        return Err(not());
    }
    let start = at + 3;
    let (value, end) = read_sleb(globals, start)?;
    if globals.get(end) != Some(&END) || value <= 0 {
        return Err(not());
    }
    Ok((value as u64, (start, end)))
}

/// The memory's minimum and maximum pages (one memory, 32-bit).
fn memory_limits(memory: &[u8]) -> Result<(u64, Option<u64>), String> {
    let (count, at) = read_uleb(memory, 0)?;
    let flags = memory.get(at).copied();
    if count != 1 || !matches!(flags, Some(0 | 1)) {
        return Err("the module has not exactly one 32-bit memory".into());
    }
    let (min, at) = read_uleb(memory, at + 1)?;
    let max = if flags == Some(1) {
        Some(read_uleb(memory, at)?.0)
    } else {
        None
    };
    Ok((min, max))
}

/// The lowest offset of an active data segment of memory 0 (placed by a
/// constant), if any.
fn lowest_segment(data: &[u8]) -> Result<Option<u64>, String> {
    let (count, mut at) = read_uleb(data, 0)?;
    let mut low: Option<u64> = None;
    for _ in 0..count {
        let (kind, next) = read_uleb(data, at)?;
        at = next;
        if kind != 1 {
            // Active (a passive segment, kind 1, has no offset).
            if kind == 2 {
                at = read_uleb(data, at)?.1; // memory index
            }
            if kind > 2 || data.get(at) != Some(&I32_CONST) {
                return Err("a data segment is not placed by an i32 constant".into());
            }
            let (offset, next) = read_sleb(data, at + 1)?;
            if data.get(next) != Some(&END) {
                return Err("a data segment is not placed by an i32 constant".into());
            }
            at = next + 1;
            low = Some(low.map_or(offset as u64, |l| l.min(offset as u64)));
        }
        let (len, next) = read_uleb(data, at)?;
        at = next + len as usize;
    }
    Ok(low)
}

fn read_uleb(bytes: &[u8], mut at: usize) -> Result<(u64, usize), String> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(at).ok_or("the module ends inside a number")?;
        at += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok((value, at));
        }
    }
    Err("a number of more than 64 bits".into())
}

fn read_sleb(bytes: &[u8], mut at: usize) -> Result<(i64, usize), String> {
    let mut value = 0i64;
    let mut shift = 0;
    loop {
        let byte = *bytes.get(at).ok_or("the module ends inside a number")?;
        at += 1;
        if shift >= 64 {
            return Err("a number of more than 64 bits".into());
        }
        value |= i64::from(byte & 0x7f) << shift;
        shift += 7;
        if byte & 0x80 == 0 {
            if shift < 64 && byte & 0x40 != 0 {
                value |= -1i64 << shift;
            }
            return Ok((value, at));
        }
    }
}

fn uleb(out: &mut Vec<u8>, mut value: u64) {
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn sleb(out: &mut Vec<u8>, mut value: i64) {
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        let done = (value == 0 && byte & 0x40 == 0) || (value == -1 && byte & 0x40 != 0);
        out.push(if done { byte } else { byte | 0x80 });
        if done {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(out: &mut Vec<u8>, id: u8, body: &[u8]) {
        out.push(id);
        uleb(out, body.len() as u64);
        out.extend_from_slice(body);
    }

    /// A module laid out like YoWASP's: a custom section, memory of
    /// `pages` (maximum `max`), stack pointer `sp` then an immutable
    /// global, one data segment at `data_at`.
    fn module(pages: u64, max: Option<u64>, sp: i64, data_at: i64) -> Vec<u8> {
        let mut m = MAGIC.to_vec();
        section(&mut m, 0, b"\x04namexyz");
        let mut memory = vec![1, u8::from(max.is_some())];
        uleb(&mut memory, pages);
        if let Some(x) = max {
            uleb(&mut memory, x);
        }
        section(&mut m, MEMORY, &memory);
        let mut globals = vec![2, I32, 1, I32_CONST];
        sleb(&mut globals, sp);
        globals.extend_from_slice(&[END, I32, 0, I32_CONST, 7, END]);
        section(&mut m, GLOBAL, &globals);
        let mut data = vec![1, 0, I32_CONST];
        sleb(&mut data, data_at);
        data.extend_from_slice(&[END, 3, b'a', b'b', b'c']);
        section(&mut m, DATA, &data);
        m
    }

    #[test]
    fn the_stack_moves_to_the_top_of_a_larger_memory() {
        let old = module(4, None, 65536, 65536);
        let new = with_stack(&old, 64 << 20).unwrap();
        let s = sections(&new).unwrap();
        let body = |id: u8| s.iter().find(|x| x.0 == id).unwrap().1;
        assert_eq!(memory_limits(body(MEMORY)).unwrap(), (4 + 1024, None));
        let (sp, _) = stack_pointer(body(GLOBAL)).unwrap();
        assert_eq!(sp, (4 + 1024) * PAGE);
        // The second global, the data and the custom section are as they were.
        assert!(body(GLOBAL).ends_with(&[END, I32, 0, I32_CONST, 7, END]));
        let old_s = sections(&old).unwrap();
        assert_eq!(s[0], old_s[0]);
        assert_eq!(s[3], old_s[3]);
        assert_eq!(lowest_segment(body(DATA)).unwrap(), Some(65536));
    }

    #[test]
    fn a_maximum_is_kept_and_must_leave_room() {
        let new = with_stack(&module(4, Some(2000), 65536, 65536), PAGE).unwrap();
        let s = sections(&new).unwrap();
        assert_eq!(memory_limits(s[1].1).unwrap(), (5, Some(2000)));
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
    }

    #[test]
    fn numbers_round_trip() {
        for v in [
            0i64,
            1,
            63,
            64,
            -1,
            -64,
            -65,
            65536,
            67_371_008,
            i32::MAX as i64,
        ] {
            let mut b = Vec::new();
            sleb(&mut b, v);
            assert_eq!(read_sleb(&b, 0).unwrap(), (v, b.len()));
        }
        for v in [0u64, 127, 128, 1028, u32::MAX as u64] {
            let mut b = Vec::new();
            uleb(&mut b, v);
            assert_eq!(read_uleb(&b, 0).unwrap(), (v, b.len()));
        }
    }
}
