//! `memref` to llvm (`finalize-memref-to-llvm`): descriptors, element
//! addresses from strides, `malloc`/`free` allocation, `alloca`, globals,
//! `dim`, `copy` of contiguous memrefs through `llvm.intr.memcpy`, and
//! ranked casts. `memref.copy` (`copy`),
//! `memref.reshape` (`reshape`), `memref.alloca_scope` (`scope`), the
//! atomics (`atomic`) and the ops that become `llvm.intr.assume`
//! (`assume`) have files of their own.

mod assume;
mod atomic;
mod copy;
mod reshape;
mod scope;

use super::{declare_runtime_function, GepIndex, Llvm};
use crate::dialect::types;
use silica_dialects::memref::layout::strides_and_offset;
use silica_ir::conversion::{ConversionPattern, ConversionRewriter};
use silica_ir::dialect::inherent_attr;
use silica_ir::types::DYNAMIC;
use silica_ir::{AttrKind, Context, OpId, OpSpec, Symbol, Type, TypeKind, ValueId};

/// `nsw | nuw` on index arithmetic and `inbounds | nuw` on addresses, as
/// MLIR 22 marks them.
const NSW_NUW: u32 = 3;
const INBOUNDS_NUW: u32 = 7;

/// The descriptor struct of a memref of rank `rank`, sizes and strides
/// of type `index`.
pub(crate) fn descriptor_type(ctx: &mut Context, rank: usize, space: u32, index: Type) -> Type {
    let ptr = types::ptr(ctx, space);
    let mut body = vec![ptr, ptr, index];
    if rank > 0 {
        let arr = types::array(ctx, rank as u64, index);
        body.push(arr);
        body.push(arr);
    }
    types::literal_struct(ctx, &body, false)
}

pub(super) fn memref_parts(ctx: &Context, t: Type) -> Option<(Vec<i64>, Type, u32)> {
    match ctx.type_kind(t) {
        TypeKind::MemRef {
            shape,
            element,
            memory_space,
            ..
        } => Some((
            shape.to_vec(),
            *element,
            super::memory_space_of(ctx, *memory_space)?,
        )),
        _ => None,
    }
}

impl Llvm<'_, '_> {
    /// A descriptor from its parts (MLIR's `createMemRefDescriptor`
    /// order: pointers, offset, sizes, strides); `offset` `None` makes a
    /// zero constant in place.
    pub(crate) fn pack_descriptor(
        &mut self,
        ty: Type,
        allocated: ValueId,
        aligned: ValueId,
        offset: Option<ValueId>,
        sizes: &[ValueId],
        strides: &[ValueId],
    ) -> ValueId {
        let mut d = self.poison(ty);
        d = self.insert(d, allocated, &[0]);
        d = self.insert(d, aligned, &[1]);
        let offset = match offset {
            Some(o) => o,
            None => self.index_const(0),
        };
        d = self.insert(d, offset, &[2]);
        for (i, &s) in sizes.iter().enumerate() {
            d = self.insert(d, s, &[3, i as i64]);
        }
        for (i, &st) in strides.iter().enumerate() {
            d = self.insert(d, st, &[4, i as i64]);
        }
        d
    }

    /// A stack copy of the descriptor `desc`, returning its address
    /// (MLIR's `promoteOneMemRefDescriptor`, which counts the slot in
    /// `i64` whatever the index width).
    pub(super) fn promote_descriptor(&mut self, desc: ValueId) -> ValueId {
        let ctx = self.ctx();
        let (index, i64t) = (ctx.index_type(), ctx.signless(64));
        let one = ctx.int_attr(index, 1);
        let one = self.constant(one, i64t);
        self.store_on_stack(desc, one)
    }

    /// A descriptor of a static shape around one pointer, constants
    /// made as they are inserted (MLIR's `fromStaticShape`).
    pub(crate) fn static_descriptor(&mut self, memref: Type, ptr: ValueId) -> Option<ValueId> {
        let ty = self.convert(memref)?;
        let (shape, _, _) = memref_parts(self.rw.ctx, memref)?;
        let (strides, offset) = strides_and_offset(self.rw.ctx, memref)?;
        let mut d = self.poison(ty);
        d = self.insert(d, ptr, &[0]);
        d = self.insert(d, ptr, &[1]);
        let o = self.index_const(offset);
        d = self.insert(d, o, &[2]);
        for (i, (&s, &st)) in shape.iter().zip(&strides).enumerate() {
            let s = self.index_const(s);
            d = self.insert(d, s, &[3, i as i64]);
            let st = self.index_const(st);
            d = self.insert(d, st, &[4, i as i64]);
        }
        Some(d)
    }

    /// The address of element `indices` of the memref described by
    /// `desc` (MLIR's `getStridedElementPtr`).
    pub(super) fn element_ptr(
        &mut self,
        memref: Type,
        desc: ValueId,
        indices: &[ValueId],
        flags: (u32, u32),
    ) -> Option<ValueId> {
        let (strides, offset) = strides_and_offset(self.rw.ctx, memref)?;
        let (_, element, _) = memref_parts(self.rw.ctx, memref)?;
        let element = self.convert(element)?;
        let mut base = self.extract(desc, &[1]);
        // A non-zero offset moves the base first, without no-wrap flags.
        if offset != 0 {
            let o = if offset == DYNAMIC {
                self.extract(desc, &[2])
            } else {
                self.index_const(offset)
            };
            base = self.gep(base, element, &[GepIndex::Value(o)], 0);
        }
        let mut index = None;
        for (i, (&idx, &stride)) in indices.iter().zip(&strides).enumerate() {
            let mut increment = idx;
            if stride != 1 {
                let s = if stride == DYNAMIC {
                    self.extract(desc, &[4, i as i64])
                } else {
                    self.index_const(stride)
                };
                increment = self.int_op("llvm.mul", increment, s, flags.0);
            }
            index = Some(match index {
                Some(acc) => self.int_op("llvm.add", acc, increment, flags.0),
                None => increment,
            });
        }
        Some(match index {
            Some(i) => self.gep(base, element, &[GepIndex::Value(i)], flags.1),
            None => base,
        })
    }

    /// Sizes, strides and the element count (or size in bytes) of a new
    /// memref (MLIR's `getMemRefDescriptorSizes`).
    fn descriptor_sizes(
        &mut self,
        memref: Type,
        dynamic: &[ValueId],
        in_bytes: bool,
    ) -> Option<(Vec<ValueId>, Vec<ValueId>, ValueId)> {
        // Sizes in bytes are computed on default-address-space pointers.
        let (shape, element, _) = memref_parts(self.rw.ctx, memref)?;
        let mut dynamic = dynamic.iter();
        let mut sizes = Vec::new();
        for &s in &shape {
            sizes.push(if s == DYNAMIC {
                *dynamic.next()?
            } else {
                self.index_const(s)
            });
        }
        let mut strides = vec![None; shape.len()];
        let mut stride = 1i64;
        let mut running = self.index_const(1);
        for i in (0..shape.len()).rev() {
            strides[i] = Some(running);
            let use_size = stride == 1;
            if shape[i] == DYNAMIC {
                stride = DYNAMIC;
            }
            if stride != DYNAMIC {
                stride *= shape[i];
            }
            running = if use_size {
                sizes[i]
            } else if stride == DYNAMIC {
                self.int_op("llvm.mul", running, sizes[i], 0)
            } else {
                self.index_const(stride)
            };
        }
        let total = if in_bytes {
            let element = self.convert(element)?;
            let ptr = types::ptr(self.rw.ctx, 0);
            let null = self.zero(ptr);
            let end = self.gep(null, element, &[GepIndex::Value(running)], 0);
            self.value("llvm.ptrtoint", &[end], self.index, &[])
        } else {
            running
        };
        Some((
            sizes,
            strides.into_iter().map(Option::unwrap).collect(),
            total,
        ))
    }
}

fn memref_of(cr: &ConversionRewriter<'_, '_>, v: ValueId) -> Type {
    cr.rw.ir.value_type(v)
}

/// The `alignment` and `nontemporal` of a memref load or store, as the
/// llvm access's properties.
fn access_props(b: &mut Llvm<'_, '_>, op: OpId) -> Vec<(&'static str, silica_ir::Attr)> {
    let mut props = Vec::new();
    if let Some(a) = inherent_attr(b.rw.ctx, b.rw.ir, op, "alignment") {
        props.push(("alignment", a));
    }
    if inherent_attr(b.rw.ctx, b.rw.ir, op, "nontemporal").is_some_and(
        |a| matches!(b.rw.ctx.attr_kind(a), AttrKind::Integer { value, .. } if *value != 0.into()),
    ) {
        props.push(("nontemporal", b.rw.ctx.unit_attr()));
    }
    props
}

fn load(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let memref = memref_of(cr, cr.rw.ir.operand(op, 0));
    let result = cr.rw.ir.value_type(cr.rw.ir.result(op, 0));
    let Some(result) = cr.convert_type(result) else {
        return false;
    };
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let Some(ptr) = b.element_ptr(memref, operands[0], &operands[1..], (NSW_NUW, INBOUNDS_NUW))
    else {
        return false;
    };
    let props = access_props(&mut b, op);
    let v = b.value("llvm.load", &[ptr], result, &props);
    cr.replace_op(op, &[v]);
    true
}

fn store(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let memref = memref_of(cr, cr.rw.ir.operand(op, 1));
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let Some(ptr) = b.element_ptr(memref, operands[1], &operands[2..], (NSW_NUW, INBOUNDS_NUW))
    else {
        return false;
    };
    let props = access_props(&mut b, op);
    b.op("llvm.store", &[operands[0], ptr], &[], &props);
    cr.rw.erase_op(op);
    true
}

/// The size and ABI alignment in bytes of a converted element type
/// under MLIR's default data layout (pointers and `i64` take 8 bytes,
/// vectors their innermost dimension padded to a power of two, structs
/// their fields at aligned offsets), where known.
fn element_layout(ctx: &Context, t: Type) -> Option<(u64, u64)> {
    match types::llvm_type(ctx, t) {
        Some(types::LlvmType::Ptr(_)) => return Some((8, 8)),
        Some(types::LlvmType::Array(n, e)) => {
            let (size, align) = element_layout(ctx, e)?;
            return Some((size * n, align));
        }
        Some(types::LlvmType::Struct {
            body,
            packed,
            opaque: false,
            ..
        }) => {
            let (mut size, mut align) = (0u64, 1u64);
            for f in body {
                let (s, a) = element_layout(ctx, f)?;
                let a = if packed { 1 } else { a };
                size = size.next_multiple_of(a) + s;
                align = align.max(a);
            }
            return Some((size.next_multiple_of(align), align));
        }
        Some(_) => return None,
        None => {}
    }
    let size = match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } => u64::from(*width).div_ceil(8),
        TypeKind::Float(k) => match crate::dialect::types::float_name(*k)? {
            "half" | "bfloat" => 2,
            "float" => 4,
            "double" => 8,
            _ => 16,
        },
        // The innermost dimension padded to a power of two.
        TypeKind::Vector { shape, element, .. } => {
            let (&last, outer) = shape.split_last()?;
            let count = outer.iter().product::<i64>() as u64 * (last as u64).next_power_of_two();
            let bits = match ctx.type_kind(*element) {
                TypeKind::Integer { width, .. } => u64::from(*width),
                _ => element_layout(ctx, *element)?.0 * 8,
            };
            return Some((
                (count * bits).div_ceil(8),
                (count * bits).div_ceil(8).next_power_of_two(),
            ));
        }
        _ => return None,
    };
    Some((size, size.next_power_of_two()))
}

fn alloc_malloc(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    alloc(cr, op, operands, false, false)
}

fn alloc_aligned(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    alloc(cr, op, operands, true, false)
}

fn alloc_malloc_generic(
    cr: &mut ConversionRewriter<'_, '_>,
    op: OpId,
    operands: &[ValueId],
) -> bool {
    alloc(cr, op, operands, false, true)
}

fn alloc_aligned_generic(
    cr: &mut ConversionRewriter<'_, '_>,
    op: OpId,
    operands: &[ValueId],
) -> bool {
    alloc(cr, op, operands, true, true)
}

/// The runtime function `name` (`malloc`, `aligned_alloc`, `free`), or
/// its generic counterpart (`use-generic-functions`).
fn runtime(name: &str, generic: bool) -> &str {
    match (name, generic) {
        ("malloc", true) => "_mlir_memref_to_llvm_alloc",
        ("aligned_alloc", true) => "_mlir_memref_to_llvm_aligned_alloc",
        ("free", true) => "_mlir_memref_to_llvm_free",
        _ => name,
    }
}

/// `memref.alloc` (through `malloc`, or `aligned_alloc` when
/// `aligned_alloc`) and `memref.alloca`.
fn alloc(
    cr: &mut ConversionRewriter<'_, '_>,
    op: OpId,
    operands: &[ValueId],
    aligned_alloc: bool,
    generic_functions: bool,
) -> bool {
    let aligned_fn = runtime("aligned_alloc", generic_functions);
    let malloc_fn = runtime("malloc", generic_functions);
    let memref = cr.rw.ir.value_type(cr.rw.ir.result(op, 0));
    let Some(desc_ty) = cr.convert_type(memref) else {
        return false;
    };
    let Some((shape, element, space)) = memref_parts(cr.rw.ctx, memref) else {
        return false;
    };
    let Some(element) = cr.convert_type(element) else {
        return false;
    };
    let heap = cr.rw.ctx.str(cr.rw.ir.op_name(op)) == "memref.alloc";
    let alignment = inherent_attr(cr.rw.ctx, cr.rw.ir, op, "alignment");
    let loc = cr.rw.ir.op_loc(op);
    let ptr_ty = types::ptr(cr.rw.ctx, space);
    let i64t = super::index_type(cr);
    let generic = types::ptr(cr.rw.ctx, 0);
    if heap && aligned_alloc {
        let Some((elt, _)) = element_layout(cr.rw.ctx, element) else {
            return false;
        };
        let align = match alignment.map(|a| cr.rw.ctx.attr_kind(a)) {
            Some(AttrKind::Integer { value, .. }) => i64::try_from(value).unwrap_or(16),
            _ => elt.next_power_of_two().max(16) as i64,
        };
        if !declare_runtime_function(cr, op, aligned_fn, &[i64t, i64t], generic) {
            return false;
        }
        let mut b = Llvm::new(cr, loc);
        let Some((sizes, strides, total)) = b.descriptor_sizes(memref, operands, true) else {
            return false;
        };
        let a = b.index_const(align);
        let multiple = shape
            .iter()
            .filter(|s| **s != DYNAMIC)
            .fold(elt as i64, |acc, s| acc.wrapping_mul(*s))
            % align
            == 0;
        let size = if multiple {
            total
        } else {
            let one = b.index_const(1);
            let bump = b.int_op("llvm.sub", a, one, 0);
            let bumped = b.int_op("llvm.add", total, bump, 0);
            let rem = b.value("llvm.urem", &[bumped, a], i64t, &[]);
            b.int_op("llvm.sub", bumped, rem, 0)
        };
        let call = b.call(aligned_fn, &[a, size], &[generic]);
        let mut p = b.rw.ir.result(call, 0);
        if ptr_ty != generic {
            p = b.value("llvm.addrspacecast", &[p], ptr_ty, &[]);
        }
        let d = b.pack_descriptor(desc_ty, p, p, None, &sizes, &strides);
        cr.replace_op(op, &[d]);
        return true;
    }
    if heap && !declare_runtime_function(cr, op, malloc_fn, &[i64t], generic) {
        return false;
    }
    let mut b = Llvm::new(cr, loc);
    let Some((sizes, strides, total)) = b.descriptor_sizes(memref, operands, heap) else {
        return false;
    };
    let align = alignment.and_then(|a| match b.rw.ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
        _ => None,
    });
    let (allocated, aligned) = if heap {
        // Over-allocate by the alignment and round the pointer up; without
        // an alignment, non-scalar elements get their own size as one.
        let scalar = matches!(
            b.rw.ctx
                .type_kind(memref_parts(b.rw.ctx, memref).map_or(element, |p| p.1)),
            TypeKind::Integer { .. } | TypeKind::Index | TypeKind::Float(_)
        );
        let align = match align {
            Some(a) => Some(b.index_const(a)),
            None if !scalar => {
                let null = b.zero(ptr_ty);
                let one = b.gep(null, element, &[GepIndex::Const(1)], 0);
                Some(b.value("llvm.ptrtoint", &[one], b.index, &[]))
            }
            None => None,
        };
        let bytes = match align {
            Some(a) => b.int_op("llvm.add", total, a, 0),
            None => total,
        };
        let generic = types::ptr(b.rw.ctx, 0);
        let call = b.call(malloc_fn, &[bytes], &[generic]);
        let mut allocated = b.rw.ir.result(call, 0);
        if ptr_ty != generic {
            allocated = b.value("llvm.addrspacecast", &[allocated], ptr_ty, &[]);
        }
        let aligned = match align {
            Some(a) => {
                let addr = b.value("llvm.ptrtoint", &[allocated], b.index, &[]);
                let one = b.index_const(1);
                let bump = b.int_op("llvm.sub", a, one, 0);
                let bumped = b.int_op("llvm.add", addr, bump, 0);
                let rem = b.value("llvm.urem", &[bumped, a], i64t, &[]);
                let rounded = b.int_op("llvm.sub", bumped, rem, 0);
                b.value("llvm.inttoptr", &[rounded], ptr_ty, &[])
            }
            None => allocated,
        };
        (allocated, aligned)
    } else {
        let ctx = b.ctx();
        let mut props = vec![("elem_type", ctx.intern_attr(AttrKind::Type(element)))];
        if let Some(v) = align {
            let t = ctx.signless(64);
            props.push(("alignment", ctx.int_attr(t, v)));
        }
        let p = b.value("llvm.alloca", &[total], ptr_ty, &props);
        (p, p)
    };
    let d = b.pack_descriptor(desc_ty, allocated, aligned, None, &sizes, &strides);
    cr.replace_op(op, &[d]);
    true
}

fn dealloc(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    dealloc_through(cr, op, operands, "free")
}

fn dealloc_generic(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    dealloc_through(cr, op, operands, runtime("free", true))
}

/// `memref.dealloc` as a call of `free_fn` on the allocated pointer.
fn dealloc_through(
    cr: &mut ConversionRewriter<'_, '_>,
    op: OpId,
    operands: &[ValueId],
    free_fn: &str,
) -> bool {
    let memref = memref_of(cr, cr.rw.ir.operand(op, 0));
    if cr.convert_type(memref).is_none() {
        return false;
    }
    let ranked = memref_parts(cr.rw.ctx, memref).is_some();
    let ptr_ty = types::ptr(cr.rw.ctx, 0);
    let void = types::void(cr.rw.ctx);
    if !declare_runtime_function(cr, op, free_fn, &[ptr_ty], void) {
        return false;
    }
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let p = if ranked {
        b.extract(operands[0], &[0])
    } else {
        // The allocated pointer is the first field of the descriptor the
        // unranked memref points to.
        let desc = b.extract(operands[0], &[1]);
        b.value("llvm.load", &[desc], ptr_ty, &[])
    };
    // A pointer into another address space is cast to the generic one
    // `free` takes, as MLIR does.
    let p = if b.rw.ir.value_type(p) == ptr_ty {
        p
    } else {
        b.value("llvm.addrspacecast", &[p], ptr_ty, &[])
    };
    b.call(free_fn, &[p], &[]);
    cr.rw.erase_op(op);
    true
}

fn dim(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let memref = memref_of(cr, cr.rw.ir.operand(op, 0));
    let Some((shape, _, _)) = memref_parts(cr.rw.ctx, memref) else {
        return unranked_dim(cr, op, operands);
    };
    let index = cr.rw.ir.operand(op, 1);
    let constant = constant_index(cr.rw.ctx, cr.rw.ir, index)
        .and_then(|v| usize::try_from(v).ok())
        .filter(|i| *i < shape.len());
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let v = match constant {
        Some(i) if shape[i] != DYNAMIC => b.index_const(shape[i]),
        Some(i) => b.extract(operands[0], &[3, i as i64]),
        None => {
            // A dynamic index: through a stack copy of the sizes.
            let one = b.index_const(1);
            let sizes = b.extract(operands[0], &[3]);
            let arr = b.rw.ir.value_type(sizes);
            let slot = b.store_on_stack(sizes, one);
            let at = b.gep(
                slot,
                arr,
                &[GepIndex::Const(0), GepIndex::Value(operands[1])],
                0,
            );
            b.value("llvm.load", &[at], b.index, &[])
        }
    };
    cr.replace_op(op, &[v]);
    true
}

/// `memref.dim` of an unranked memref: the size read from the ranked
/// descriptor it points to, one index past the offset field.
fn unranked_dim(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let memref = memref_of(cr, cr.rw.ir.operand(op, 0));
    let TypeKind::UnrankedMemRef { memory_space, .. } = cr.rw.ctx.type_kind(memref).clone() else {
        return false;
    };
    let Some(space) = super::memory_space_of(cr.rw.ctx, memory_space) else {
        return false;
    };
    if cr.convert_type(memref).is_none() {
        return false;
    }
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let index = b.index;
    let ptr = types::ptr(b.rw.ctx, space);
    let header = types::literal_struct(b.rw.ctx, &[ptr, ptr, index], false);
    let desc = b.extract(operands[0], &[1]);
    let offset_field = b.gep(desc, header, &[GepIndex::Const(0), GepIndex::Const(2)], 0);
    let one = b.index_const(1);
    let at = b.int_op("llvm.add", one, operands[1], 0);
    let size_field = b.gep(offset_field, index, &[GepIndex::Value(at)], 0);
    let v = b.value("llvm.load", &[size_field], index, &[]);
    cr.replace_op(op, &[v]);
    true
}

/// The value of a constant index, looking through conversion casts.
fn constant_index(ctx: &Context, ir: &silica_ir::Ir, v: ValueId) -> Option<i64> {
    let mut v = v;
    loop {
        let def = ir.defining_op(v)?;
        match ctx.str(ir.op_name(def)) {
            silica_ir::conversion::CAST => v = ir.operand(def, 0),
            "arith.constant" | "llvm.mlir.constant" => {
                let a = inherent_attr(ctx, ir, def, "value")?;
                return match ctx.attr_kind(a) {
                    AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
                    _ => None,
                };
            }
            _ => return None,
        }
    }
}

/// `memref.cast`: ranked to ranked is the descriptor itself; ranked to
/// unranked stores the descriptor on the stack and pairs its address
/// with the rank; unranked to ranked loads it back.
fn cast(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let source = memref_of(cr, cr.rw.ir.operand(op, 0));
    let result = cr.rw.ir.value_type(cr.rw.ir.result(op, 0));
    let Some(to) = cr.convert_type(result) else {
        return false;
    };
    let from = cr.rw.ir.value_type(operands[0]);
    if to == from {
        cr.replace_op(op, &[operands[0]]);
        return true;
    }
    let loc = cr.rw.ir.op_loc(op);
    let ranked_source = memref_parts(cr.rw.ctx, source).is_some();
    let ranked_result = memref_parts(cr.rw.ctx, result).is_some();
    let mut b = Llvm::new(cr, loc);
    let v = match (ranked_source, ranked_result) {
        (true, false) => {
            let rank =
                b.rw.ctx
                    .shaped(source)
                    .and_then(|(s, _)| s)
                    .map_or(0, <[i64]>::len);
            let slot = b.promote_descriptor(operands[0]);
            let r = b.index_const(rank as i64);
            let mut u = b.poison(to);
            u = b.insert(u, r, &[0]);
            b.insert(u, slot, &[1])
        }
        (false, true) => {
            let p = b.extract(operands[0], &[1]);
            b.value("llvm.load", &[p], to, &[])
        }
        _ => return false,
    };
    cr.replace_op(op, &[v]);
    true
}

/// `memref.reinterpret_cast`: the source's pointers (from its descriptor,
/// or read from the descriptor an unranked source points to) with the
/// given offset, sizes and strides (constants or operands).
fn reinterpret_cast(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let source = memref_of(cr, cr.rw.ir.operand(op, 0));
    let result = cr.rw.ir.value_type(cr.rw.ir.result(op, 0));
    let ranked = memref_parts(cr.rw.ctx, source).is_some();
    let Some(to) = cr.convert_type(result) else {
        return false;
    };
    let statics = |cr: &ConversionRewriter<'_, '_>, name: &str| {
        inherent_attr(cr.rw.ctx, cr.rw.ir, op, name).and_then(|a| cr.rw.ctx.int_array_values(a))
    };
    let (Some(offsets), Some(sizes), Some(strides)) = (
        statics(cr, "static_offsets"),
        statics(cr, "static_sizes"),
        statics(cr, "static_strides"),
    ) else {
        return false;
    };
    // The dynamic operands: offsets, then sizes, then strides.
    let count = |l: &[i64]| l.iter().filter(|v| **v == DYNAMIC).count();
    let (dyn_offsets, rest) = operands[1..].split_at(count(&offsets).min(operands.len() - 1));
    let (dyn_sizes, dyn_strides) = rest.split_at(count(&sizes).min(rest.len()));
    let (mut dyn_offsets, mut dyn_sizes, mut dyn_strides) =
        (dyn_offsets.iter(), dyn_sizes.iter(), dyn_strides.iter());
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let value = |b: &mut Llvm<'_, '_>, v: i64, dynamic: &mut std::slice::Iter<'_, ValueId>| match v
    {
        DYNAMIC => dynamic.next().copied(),
        c => Some(b.index_const(c)),
    };
    let mut d = b.poison(to);
    let (allocated, aligned) = if ranked {
        (b.extract(operands[0], &[0]), b.extract(operands[0], &[1]))
    } else {
        let desc = b.extract(operands[0], &[1]);
        let ptr = b.rw.ir.value_type(desc);
        let allocated = b.value("llvm.load", &[desc], ptr, &[]);
        let aligned_at = b.gep(desc, ptr, &[GepIndex::Const(1)], 0);
        (allocated, b.value("llvm.load", &[aligned_at], ptr, &[]))
    };
    d = b.insert(d, allocated, &[0]);
    d = b.insert(d, aligned, &[1]);
    let Some(o) = value(
        &mut b,
        offsets.first().copied().unwrap_or(0),
        &mut dyn_offsets,
    ) else {
        return false;
    };
    d = b.insert(d, o, &[2]);
    for (i, (&size, &stride)) in sizes.iter().zip(&strides).enumerate() {
        let Some(sv) = value(&mut b, size, &mut dyn_sizes) else {
            return false;
        };
        d = b.insert(d, sv, &[3, i as i64]);
        let Some(st) = value(&mut b, stride, &mut dyn_strides) else {
            return false;
        };
        d = b.insert(d, st, &[4, i as i64]);
    }
    cr.replace_op(op, &[d]);
    true
}

/// `memref.transpose`: the descriptor with its sizes and strides
/// permuted (result dimension `i` takes source dimension `perm[i]`).
fn transpose(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let result = cr.rw.ir.value_type(cr.rw.ir.result(op, 0));
    let perm = match inherent_attr(cr.rw.ctx, cr.rw.ir, op, "permutation")
        .map(|a| cr.rw.ctx.attr_kind(a))
    {
        Some(AttrKind::AffineMap(m)) => silica_dialects::memref::transpose::permutation_of(m),
        _ => None,
    };
    let (Some(perm), Some(to)) = (perm, cr.convert_type(result)) else {
        return false;
    };
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let mut d = b.poison(to);
    for field in 0..3 {
        let v = b.extract(operands[0], &[field]);
        d = b.insert(d, v, &[field]);
    }
    for (target, &source) in perm.iter().enumerate() {
        for field in [3, 4] {
            let v = b.extract(operands[0], &[field, source as i64]);
            d = b.insert(d, v, &[field, target as i64]);
        }
    }
    cr.replace_op(op, &[d]);
    true
}

/// `memref.memory_space_cast` of a ranked memref: the descriptor with
/// its pointers cast to the new address space.
fn memory_space_cast(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let result = cr.rw.ir.value_type(cr.rw.ir.result(op, 0));
    let Some((shape, _, space)) = memref_parts(cr.rw.ctx, result) else {
        return false;
    };
    let Some(to) = cr.convert_type(result) else {
        return false;
    };
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let mut fields = vec![b.extract(operands[0], &[0]), b.extract(operands[0], &[1])];
    let offset = b.extract(operands[0], &[2]);
    let mut sizes = Vec::new();
    let mut strides = Vec::new();
    for i in 0..shape.len() as i64 {
        sizes.push(b.extract(operands[0], &[3, i]));
    }
    for i in 0..shape.len() as i64 {
        strides.push(b.extract(operands[0], &[4, i]));
    }
    let ptr = types::ptr(b.rw.ctx, space);
    for f in &mut fields {
        *f = b.value("llvm.addrspacecast", &[*f], ptr, &[]);
    }
    let d = b.pack_descriptor(to, fields[0], fields[1], Some(offset), &sizes, &strides);
    cr.replace_op(op, &[d]);
    true
}

/// `memref.rank`: a constant, or the rank field of an unranked memref.
fn rank(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let source = memref_of(cr, cr.rw.ir.operand(op, 0));
    let rank = cr
        .rw
        .ctx
        .shaped(source)
        .and_then(|(s, _)| s)
        .map(<[i64]>::len);
    if rank.is_none() && cr.convert_type(source).is_none() {
        return false;
    }
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let v = match rank {
        Some(r) => b.index_const(r as i64),
        None => b.extract(operands[0], &[0]),
    };
    cr.replace_op(op, &[v]);
    true
}

/// `memref.extract_aligned_pointer_as_index`: the aligned pointer as an
/// integer.
fn aligned_pointer(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let source = memref_of(cr, cr.rw.ir.operand(op, 0));
    if cr.convert_type(source).is_none() {
        return false;
    }
    let ranked = memref_parts(cr.rw.ctx, source).is_some();
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let p = if ranked {
        b.extract(operands[0], &[1])
    } else {
        // The second field of the ranked descriptor an unranked one
        // points to.
        let ptr = types::ptr(b.rw.ctx, 0);
        let desc = b.extract(operands[0], &[1]);
        let field = b.gep(desc, ptr, &[GepIndex::Const(1)], 0);
        b.value("llvm.load", &[field], ptr, &[])
    };
    let v = b.value("llvm.ptrtoint", &[p], b.index, &[]);
    cr.replace_op(op, &[v]);
    true
}

/// `memref.view`: the source's pointers moved by the byte shift, a zero
/// offset, sizes from the type or the operands, contiguous strides.
fn view(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let source = memref_of(cr, cr.rw.ir.operand(op, 0));
    let result = cr.rw.ir.value_type(cr.rw.ir.result(op, 0));
    let (Some((_, src_elem, _)), Some((shape, _, _))) = (
        memref_parts(cr.rw.ctx, source),
        memref_parts(cr.rw.ctx, result),
    ) else {
        return false;
    };
    let (Some(to), Some(src_elem)) = (cr.convert_type(result), cr.convert_type(src_elem)) else {
        return false;
    };
    let Some((strides, offset)) = strides_and_offset(cr.rw.ctx, result) else {
        return false;
    };
    let (shift, dynamic_sizes) = (operands[1], &operands[2..]);
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let mut d = b.poison(to);
    let allocated = b.extract(operands[0], &[0]);
    d = b.insert(d, allocated, &[0]);
    let aligned = b.extract(operands[0], &[1]);
    let moved = b.gep(aligned, src_elem, &[GepIndex::Value(shift)], 0);
    d = b.insert(d, moved, &[1]);
    let o = b.index_const(offset);
    d = b.insert(d, o, &[2]);
    let mut stride: Option<ValueId> = None;
    let mut next_size: Option<ValueId> = None;
    for i in (0..shape.len()).rev() {
        let size = if shape[i] == DYNAMIC {
            let k = shape[..i].iter().filter(|s| **s == DYNAMIC).count();
            let Some(&v) = dynamic_sizes.get(k) else {
                return false;
            };
            v
        } else {
            b.index_const(shape[i])
        };
        d = b.insert(d, size, &[3, i as i64]);
        let st = if strides[i] != DYNAMIC {
            b.index_const(strides[i])
        } else {
            match (stride, next_size) {
                (Some(s), Some(n)) => b.int_op("llvm.mul", s, n, 0),
                _ => b.index_const(1),
            }
        };
        d = b.insert(d, st, &[4, i as i64]);
        stride = Some(st);
        next_size = Some(size);
    }
    cr.replace_op(op, &[d]);
    true
}

/// `memref.extract_strided_metadata`: a rank-0 descriptor of the base
/// buffer, then the offset, sizes and strides fields.
fn strided_metadata(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let source = memref_of(cr, cr.rw.ir.operand(op, 0));
    let Some((shape, _, _)) = memref_parts(cr.rw.ctx, source) else {
        return false;
    };
    let base_ty = cr.rw.ir.value_type(cr.rw.ir.result(op, 0));
    let Some(base) = cr.convert_type(base_ty) else {
        return false;
    };
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let allocated = b.extract(operands[0], &[0]);
    let aligned = b.extract(operands[0], &[1]);
    let mut d = b.poison(base);
    d = b.insert(d, allocated, &[0]);
    d = b.insert(d, aligned, &[1]);
    let zero = b.index_const(0);
    d = b.insert(d, zero, &[2]);
    let mut values = vec![d, b.extract(operands[0], &[2])];
    for field in [3, 4] {
        for i in 0..shape.len() {
            values.push(b.extract(operands[0], &[field, i as i64]));
        }
    }
    cr.replace_op(op, &values);
    true
}

/// `memref.prefetch`: `llvm.intr.prefetch` of the element's address
/// (computed without no-wrap flags, as MLIR does).
fn prefetch(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let memref = memref_of(cr, cr.rw.ir.operand(op, 0));
    let flag = |cr: &ConversionRewriter<'_, '_>, name: &str| match inherent_attr(
        cr.rw.ctx, cr.rw.ir, op, name,
    )
    .map(|a| cr.rw.ctx.attr_kind(a))
    {
        Some(AttrKind::Integer { value, .. }) => i64::try_from(value).ok(),
        _ => None,
    };
    let (Some(write), Some(hint), Some(data)) = (
        flag(cr, "isWrite"),
        flag(cr, "localityHint"),
        flag(cr, "isDataCache"),
    ) else {
        return false;
    };
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let Some(ptr) = b.element_ptr(memref, operands[0], &operands[1..], (0, 0)) else {
        return false;
    };
    let ctx = b.ctx();
    let i32t = ctx.signless(32);
    let props = [
        ("cache", ctx.int_attr(i32t, data)),
        ("hint", ctx.int_attr(i32t, hint)),
        ("rw", ctx.int_attr(i32t, write)),
    ];
    b.op("llvm.intr.prefetch", &[ptr], &[], &props);
    cr.rw.erase_op(op);
    true
}

/// The nested `!llvm.array` type of a global of shape `shape`.
fn global_type(ctx: &mut Context, shape: &[i64], element: Type) -> Type {
    shape
        .iter()
        .rev()
        .fold(element, |t, &n| types::array(ctx, n as u64, t))
}

fn global(cr: &mut ConversionRewriter<'_, '_>, op: OpId, _: &[ValueId]) -> bool {
    let Some(ty) =
        inherent_attr(cr.rw.ctx, cr.rw.ir, op, "type").and_then(|a| match cr.rw.ctx.attr_kind(a) {
            AttrKind::Type(t) => Some(*t),
            _ => None,
        })
    else {
        return false;
    };
    let Some((shape, element, space)) = memref_parts(cr.rw.ctx, ty) else {
        return false;
    };
    if shape.contains(&DYNAMIC) {
        return false;
    }
    let Some(element) = cr.convert_type(element) else {
        return false;
    };
    let ctx = &mut *cr.rw.ctx;
    let ir = &*cr.rw.ir;
    let gty = global_type(ctx, &shape, element);
    let private = inherent_attr(ctx, ir, op, "sym_visibility").is_some_and(
        |a| matches!(ctx.attr_kind(a), AttrKind::String { value, .. } if &**value == b"private"),
    );
    let mut props: Vec<(Symbol, silica_ir::Attr)> = Vec::new();
    let mut put = |ctx: &mut Context, k: &str, v| {
        let k = ctx.sym(k);
        props.push((k, v));
    };
    let t32 = ctx.signless(32);
    let z = ctx.int_attr(t32, i64::from(space));
    put(ctx, "addr_space", z);
    if inherent_attr(ctx, ir, op, "constant").is_some() {
        let u = ctx.unit_attr();
        put(ctx, "constant", u);
    }
    let g = ctx.intern_attr(AttrKind::Type(gty));
    put(ctx, "global_type", g);
    let l = crate::dialect::attrs::keyword_attr(
        ctx,
        "linkage",
        if private { "private" } else { "external" },
    );
    put(ctx, "linkage", l);
    if let Some(n) = inherent_attr(ctx, ir, op, "sym_name") {
        put(ctx, "sym_name", n);
    }
    let t64 = ctx.signless(64);
    let zero = ctx.int_attr(t64, 0);
    put(ctx, "visibility_", zero);
    // `uninitialized` (a unit value): an initializer returning undef.
    let mut uninitialized = false;
    if let Some(v) = inherent_attr(ctx, ir, op, "initial_value") {
        match ctx.attr_kind(v) {
            AttrKind::Unit => uninitialized = true,
            // A rank-0 memref's global holds the element itself.
            AttrKind::DenseElements { values, .. } if shape.is_empty() && values.len() == 1 => {
                let e = values[0];
                put(ctx, "value", e);
            }
            _ => put(ctx, "value", v),
        }
    }
    if let Some(a) = inherent_attr(ctx, ir, op, "alignment") {
        put(ctx, "alignment", a);
    }
    let props = ctx.dict_attr(props);
    let name = ctx.sym("llvm.mlir.global");
    let attrs = ctx.empty_dict();
    let loc = ir.op_loc(op);
    let region = cr.rw.ir.create_region();
    cr.rw.create(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs,
        props: Some(props),
    });
    if uninitialized {
        let block = cr.rw.ir.create_block();
        cr.rw.ir.append_block(region, block);
        let saved = cr.rw.insertion_point();
        cr.rw.set_insertion_point_to_end(block);
        let mut b = Llvm::new(cr, loc);
        let undef = b.value("llvm.mlir.undef", &[], gty, &[]);
        b.op("llvm.return", &[undef], &[], &[]);
        cr.rw.restore_insertion_point(saved);
    }
    cr.rw.erase_op(op);
    true
}

fn get_global(cr: &mut ConversionRewriter<'_, '_>, op: OpId, _: &[ValueId]) -> bool {
    let memref = cr.rw.ir.value_type(cr.rw.ir.result(op, 0));
    let Some(desc_ty) = cr.convert_type(memref) else {
        return false;
    };
    let Some((shape, element, space)) = memref_parts(cr.rw.ctx, memref) else {
        return false;
    };
    let Some(element) = cr.convert_type(element) else {
        return false;
    };
    let Some(name) = inherent_attr(cr.rw.ctx, cr.rw.ir, op, "name") else {
        return false;
    };
    let loc = cr.rw.ir.op_loc(op);
    let ptr_ty = types::ptr(cr.rw.ctx, space);
    let gty = global_type(cr.rw.ctx, &shape, element);
    let mut b = Llvm::new(cr, loc);
    let Some((sizes, strides, _)) = b.descriptor_sizes(memref, &[], true) else {
        return false;
    };
    let addr = b.value("llvm.mlir.addressof", &[], ptr_ty, &[("global_name", name)]);
    let zeros = vec![GepIndex::Const(0); shape.len() + 1];
    let first = b.gep(addr, gty, &zeros, 0);
    // 0xdeadbeef as a 64-bit `index` constant whatever the index width,
    // as MLIR writes it.
    let (index, i64t) = (b.rw.ctx.index_type(), b.rw.ctx.signless(64));
    let dead = b.rw.ctx.int_attr(index, 0xdead_beef_i64);
    let dead = b.constant(dead, i64t);
    let bad = b.value("llvm.inttoptr", &[dead], ptr_ty, &[]);
    let d = b.pack_descriptor(desc_ty, bad, first, None, &sizes, &strides);
    cr.replace_op(op, &[d]);
    true
}

/// The patterns of `finalize-memref-to-llvm`; `alloc` through
/// `aligned_alloc` when `aligned_alloc` (its `use-aligned-alloc`), and
/// the runtime's generic allocation functions when `generic`
/// (`use-generic-functions`).
pub(crate) fn patterns(out: &mut Vec<ConversionPattern>, aligned_alloc: bool, generic: bool) {
    let heap: silica_ir::conversion::ConversionPatternFn = match (aligned_alloc, generic) {
        (false, false) => alloc_malloc,
        (true, false) => alloc_aligned,
        (false, true) => alloc_malloc_generic,
        (true, true) => alloc_aligned_generic,
    };
    let free: silica_ir::conversion::ConversionPatternFn =
        if generic { dealloc_generic } else { dealloc };
    let list: &[(&'static str, silica_ir::conversion::ConversionPatternFn)] = &[
        ("memref.load", load),
        ("memref.store", store),
        ("memref.alloc", heap),
        ("memref.alloca", alloc_malloc),
        ("memref.dealloc", free),
        ("memref.dim", dim),
        ("memref.cast", cast),
        ("memref.reinterpret_cast", reinterpret_cast),
        ("memref.rank", rank),
        ("memref.transpose", transpose),
        ("memref.memory_space_cast", memory_space_cast),
        ("memref.reshape", reshape::reshape),
        ("memref.extract_aligned_pointer_as_index", aligned_pointer),
        ("memref.view", view),
        ("memref.prefetch", prefetch),
        ("memref.extract_strided_metadata", strided_metadata),
        ("memref.global", global),
        ("memref.get_global", get_global),
        ("memref.copy", copy::copy),
        ("memref.alloca_scope", scope::alloca_scope),
        ("memref.atomic_rmw", atomic::atomic_rmw),
        ("memref.generic_atomic_rmw", atomic::generic_atomic_rmw),
        ("memref.assume_alignment", assume::assume_alignment),
        ("memref.distinct_objects", assume::distinct_objects),
    ];
    for &(root, apply) in list {
        out.push(ConversionPattern {
            root,
            name: "MemRefLowering",
            benefit: 1,
            apply,
        });
    }
}
