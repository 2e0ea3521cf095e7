#!/usr/bin/env python3
"""Writes bytecode/src/properties/upstream.rs: how mlir-opt-22 encodes the
properties of each op it shares with silica, found by asking it.

MLIR's ODS writes an op's properties as its attributes (in the order of
their names; required ones as an index, others as an optional index),
then its other properties, then its operand and result segment sizes.
For each op this script crafts bytecode files holding one op with a
chosen properties encoding and reads them with
`mlir-opt-22 --mlir-very-unsafe-disable-verifier-on-parsing
--mlir-print-op-generic`:

- slots are added one at a time, each as "absent" (varint 0), until the
  encoding reads through: a slot read as a required attribute fails with
  "expected T, but got ...", and gets an attribute of type T instead;
- each optional slot is then given a value, and the name that appears in
  the printed properties is its name;
- names printed without being set are the other properties (integers)
  and the segment sizes (their length from the printed array).

Usage: python3 scripts/bytecode_layouts.py OPNAMES_FILE [--jobs N]
(OPNAMES_FILE: one op name a line; names mlir-opt-22 does not register
are skipped.)
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "bytecode", "src", "properties", "upstream.rs")

# Attributes of each type MLIR's readers ask for, by C++ type name: two
# where the first may be the value an absent attribute defaults to.
BY_TYPE = {
    "mlir::Attribute": ['"probe"'],
    "mlir::StringAttr": ['"probe"', '"probe2"'],
    "mlir::TypeAttr": ["i32", "i64"],
    "mlir::IntegerAttr": ["0 : i64", "1 : i64"],
    "mlir::BoolAttr": ["false", "true"],
    "mlir::UnitAttr": ["unit"],
    "mlir::ArrayAttr": ["[]", "[unit]"],
    "mlir::DictionaryAttr": ["{}", "{probe}"],
    "mlir::FlatSymbolRefAttr": ["@probe", "@probe2"],
    "mlir::SymbolRefAttr": ["@probe", "@probe2"],
    "mlir::FloatAttr": ["0.0 : f32", "1.0 : f32"],
    "mlir::AffineMapAttr": ["affine_map<() -> ()>", "affine_map<() -> (0)>"],
    "mlir::IntegerSetAttr": ["affine_set<() : (0 == 0)>"],
    "mlir::DenseI32ArrayAttr": ["array<i32>", "array<i32: 7>"],
    "mlir::DenseI64ArrayAttr": ["array<i64>", "array<i64: 7>"],
    "mlir::detail::DenseArrayAttrImpl<int8_t>": ["array<i8>", "array<i8: 7>"],
    "mlir::detail::DenseArrayAttrImpl<int16_t>": ["array<i16>", "array<i16: 7>"],
    "mlir::detail::DenseArrayAttrImpl<int32_t>": ["array<i32>", "array<i32: 7>"],
    "mlir::detail::DenseArrayAttrImpl<int64_t>": ["array<i64>", "array<i64: 7>"],
    "mlir::detail::DenseArrayAttrImpl<bool>": ["array<i1>", "array<i1: true>"],
    "mlir::detail::DenseArrayAttrImpl<float>": ["array<f32>"],
    "mlir::detail::DenseArrayAttrImpl<double>": ["array<f64>"],
    "mlir::DenseElementsAttr": ["dense<0> : tensor<i32>", "dense<7> : tensor<i32>"],
    "mlir::DenseIntElementsAttr": ["dense<0> : tensor<i32>", "dense<7> : tensor<i32>"],
    "mlir::ElementsAttr": ["dense<0> : tensor<i32>", "dense<7> : tensor<i32>"],
    "mlir::TypedAttr": ["0 : i64", "1 : i64"],
    "mlir::LocationAttr": ["loc(unknown)"],
    "mlir::arith::IntegerOverflowFlagsAttr": ["#arith.overflow<none>", "#arith.overflow<nsw>"],
    "mlir::arith::FastMathFlagsAttr": ["#arith.fastmath<none>", "#arith.fastmath<fast>"],
    "mlir::arith::RoundingModeAttr": ["0 : i32", "1 : i32"],
    "mlir::arith::CmpIPredicateAttr": ["0 : i64", "1 : i64"],
    "mlir::arith::CmpFPredicateAttr": ["0 : i64", "1 : i64"],
    "mlir::arith::AtomicRMWKindAttr": ["0 : i64", "1 : i64"],
    "mlir::LLVM::LinkageAttr": ["#llvm.linkage<external>", "#llvm.linkage<internal>"],
    "mlir::LLVM::CConvAttr": ["#llvm.cconv<ccc>", "#llvm.cconv<fastcc>"],
    "mlir::LLVM::FastmathFlagsAttr": ["#llvm.fastmath<none>", "#llvm.fastmath<fast>"],
    "mlir::LLVM::TailCallKindAttr": ["#llvm.tailcallkind<none>", "#llvm.tailcallkind<tail>"],
    "mlir::LLVM::FramePointerKindAttr": ["#llvm.framePointerKind<none>", "#llvm.framePointerKind<all>"],
    "mlir::LLVM::MemoryEffectsAttr": [
        "#llvm.memory_effects<other = none, argMem = none, inaccessibleMem = none, errnoMem = none, targetMem0 = none, targetMem1 = none>"],
    "mlir::LLVM::UWTableKindAttr": ["#llvm.uwtableKind<sync>"],
    "mlir::LLVM::VecTypeHintAttr": ["#llvm.vec_type_hint<hint = i32>"],
    "mlir::LLVM::VScaleRangeAttr": ["#llvm.vscale_range<minRange = 1, maxRange = 1>"],
    "mlir::LLVM::TargetFeaturesAttr": ["#llvm.target_features<[]>"],
    "mlir::LLVM::LoopAnnotationAttr": ["#llvm.loop_annotation<disableNonforced = true>"],
    "mlir::LLVM::UnnamedAddrAttr": ["0 : i64", "1 : i64"],
    "mlir::LLVM::VisibilityAttr": ["0 : i64", "1 : i64"],
    "mlir::LLVM::AtomicOrderingAttr": ["0 : i64", "1 : i64"],
    "mlir::LLVM::AtomicBinOpAttr": ["0 : i64", "1 : i64"],
    "mlir::LLVM::ICmpPredicateAttr": ["0 : i64", "1 : i64"],
    "mlir::LLVM::FCmpPredicateAttr": ["0 : i64", "1 : i64"],
    "mlir::LLVM::ModRefInfoAttr": ["0 : i64", "1 : i64"],
    "mlir::LLVM::DIExpressionAttr": ["#llvm.di_expression<>"],
    "mlir::gpu::DimensionAttr": ["#gpu<dim x>", "#gpu<dim y>"],
    "mlir::index::IndexCmpPredicateAttr": ["#index<cmp_predicate slt>", "#index<cmp_predicate sgt>"],
    "mlir::irdl::VariadicityArrayAttr": ["#irdl<variadicity_array[]>"],
    "mlir::LLVM::BlockTagAttr": ["#llvm.blocktag<id = 1>"],
    "mlir::LLVM::BlockAddressAttr": ["#llvm.blockaddress<function = @probe, tag = <id = 1>>"],
    "mlir::LLVM::comdat::ComdatAttr": ["0 : i64", "1 : i64"],
    "mlir::LLVM::FPExceptionBehaviorAttr": ["0 : i64", "1 : i64"],
    "mlir::LLVM::RoundingModeAttr": ["0 : i64", "1 : i64"],
    "mlir::LLVM::AsmDialectAttr": ["0 : i64", "1 : i64"],
    "mlir::LLVM::DereferenceableAttr": ["#llvm.dereferenceable<bytes = 8>"],
    "mlir::LLVM::ConstantRangeAttr": ["#llvm.constant_range<i32, 0, 1>"],
    "mlir::ub::PoisonAttrInterface": ["#ub.poison"],
    "mlir::ub::PoisonAttr": ["#ub.poison"],
    "mlir::linalg::TypeFnAttr": ["#linalg.type_fn<cast_signed>", "#linalg.type_fn<cast_unsigned>"],
    "mlir::linalg::BinaryFnAttr": ["#linalg.binary_fn<add>", "#linalg.binary_fn<sub>"],
    "mlir::linalg::UnaryFnAttr": ["#linalg.unary_fn<exp>", "#linalg.unary_fn<log>"],
    "mlir::gpu::AddressSpaceAttr": ["#gpu.address_space<global>", "#gpu.address_space<workgroup>"],
}

# Layouts the probes cannot find: a property read as a byte (`disjoint`),
# an attribute whose only value is its default.
MANUAL = {
    "affine.linearize_index": [("required", "static_basis", None), ("bool", "disjoint", None),
                               ("segments", "operandSegmentSizes", 2)],
    "ub.poison": [("optional", "value", None)],
}

FILLERS = 160  # spare string attributes, so any index read is valid


def varint(v):
    if v < 128:
        return bytes([(v << 1) | 1])
    for n in range(2, 9):
        if v >> (7 * n) == 0:
            return (((v << 1) | 1) << (n - 1)).to_bytes(n, "little")
    return b"\0" + v.to_bytes(8, "little")


def section(i, data):
    return bytes([i]) + varint(len(data)) + data


CANDIDATES = sorted({c for cs in BY_TYPE.values() for c in cs}) + [f'"filler{i}"' for i in range(FILLERS)]
INDEX = {c: i + 1 for i, c in enumerate(CANDIDATES)}  # attribute 0 is loc(unknown)


def craft(opname, blob):
    """A bytecode module holding one `opname` op whose properties are
    `blob`, with attribute 0 `loc(unknown)` and then CANDIDATES (text)."""
    dialect, short = opname.split(".", 1)
    strings = ["builtin", "module"] + ([] if dialect == "builtin" else [dialect]) + [short]
    sidx = {s: i for i, s in enumerate(strings)}
    dialects = ["builtin"] + ([] if dialect == "builtin" else [dialect])
    d = varint(len(dialects)) + b"".join(varint(sidx[x] << 1) for x in dialects) + varint(2)
    if dialect == "builtin":
        d += varint(0) + varint(2) + varint((sidx["module"] << 1) | 1) + varint((sidx[short] << 1) | 1)
    else:
        d += varint(0) + varint(1) + varint((sidx["module"] << 1) | 1)
        d += varint(1) + varint(1) + varint((sidx[short] << 1) | 1)
    entries = [(b"\x1f", 1)] + [(c.encode() + b"\0", 0) for c in CANDIDATES]
    data = b"".join(e for e, _ in entries)
    offsets = varint(len(entries)) + varint(0) + varint(0) + varint(len(entries))
    offsets += b"".join(varint((len(e) << 1) | c) for e, c in entries)
    op = varint(1) + bytes([0x40]) + varint(0) + varint(0)
    region = varint(1) + varint(0) + varint(1 << 1) + op
    ir = varint(1 << 1) + varint(0) + bytes([0x10]) + varint(0) + varint(3) + section(4, region)
    strs = varint(len(strings)) + b"".join(varint(len(s) + 1) for s in reversed(strings))
    strs += b"".join(s.encode() + b"\0" for s in strings)
    props = varint(1) + varint(len(blob)) + blob
    return (b"ML\xefR" + varint(6) + b"MLIR22.1.8\0" + section(1, d) + section(3, offsets)
            + section(2, data) + section(4, ir) + section(0, strs) + section(8, props))


def run(opname, slots, scratch):
    """Reads a crafted file: (ok, printed properties or error message)."""
    blob = b"".join(s for s in slots)
    path = os.path.join(scratch, "probe.mlirbc")
    with open(path, "wb") as f:
        f.write(craft(opname, blob))
    r = subprocess.run(["mlir-opt-22", "--mlir-very-unsafe-disable-verifier-on-parsing",
                        "--mlir-print-op-generic", "--allow-unregistered-dialect", path],
                       capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        m = re.search(r"error: (.*)", r.stderr)
        return False, m.group(1) if m else r.stderr.strip()
    m = re.search(r'"' + re.escape(opname) + r'"\(\) <\{(.*)\}>', r.stdout)
    return True, props_of(m.group(1)) if m else {}


def props_of(text):
    """The `name = value` entries of a printed properties dictionary."""
    out, depth, start, quote = {}, 0, 0, False
    entries = []
    i = 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == '"':
                quote = False
        elif c == '"':
            quote = True
        elif c in "([{<":
            depth += 1
        elif c in ")]}>" and not (c == ">" and text[i - 1] == "-"):
            depth -= 1
        elif c == "," and depth == 0:
            entries.append(text[start:i])
            start = i + 1
        i += 1
    entries.append(text[start:])
    for e in entries:
        if "=" in e:
            k, v = e.split("=", 1)
            out[k.strip()] = v.strip()
        elif e.strip():
            out[e.strip()] = "unit"
    return out


def probe(opname):
    if opname in MANUAL:
        return opname, MANUAL[opname], None
    return probe_mlir_opt(opname)


def probe_mlir_opt(opname):
    """The layout of `opname`'s properties: a list of (kind, name, extra)
    with kind "required", "optional", "int" (extra: the width),
    "segments" (extra: the group count) or "gap" (an optional attribute
    whose name no probe found); `None` and a reason when it cannot be told;
    an empty list for ops without properties."""
    with tempfile.TemporaryDirectory(prefix="silica-layouts-") as scratch:
        text = os.path.join(scratch, "registered.mlir")
        with open(text, "w") as f:
            f.write(f'"{opname}"() <{{bogus = 1}}> : () -> ()\n')
        r = subprocess.run(["mlir-opt-22", "--mlir-very-unsafe-disable-verifier-on-parsing",
                            "--mlir-print-op-generic", "--allow-unregistered-dialect", text],
                           capture_output=True, text=True, timeout=60)
        if "does not support properties" in r.stderr:
            return opname, [], None
        if r.returncode != 0 or "bogus" in r.stdout:
            return opname, None, "not registered"
        ok, out = run(opname, [], scratch)
        slots, kinds = [], []
        for _ in range(200):
            ok, out = run(opname, slots, scratch)
            if ok:
                break
            if "at the end of the bytecode" in out or "when only" in out:
                slots.append(varint(0))
                kinds.append(["optional", None])
                continue
            m = re.match(r"expected (\S+), but got", out)
            if m and kinds and kinds[-1][0] == "optional" and slots[-1] == varint(0):
                t = m.group(1).lstrip(":")
                if t not in BY_TYPE:
                    return opname, None, f"no attribute for required {t}"
                slots[-1] = varint(INDEX[BY_TYPE[t][0]])
                kinds[-1] = ["required", t]
                continue
            return opname, None, out
        else:
            return opname, None, "too many slots"
        baseline = out
        names = [None] * len(slots)
        extra = [None] * len(slots)
        for i, (kind, _) in enumerate(kinds):
            if kind != "optional":
                continue
            cand, typed, tried = '"filler1"', None, ['"filler1"']
            while True:
                trial = list(slots)
                trial[i] = varint((INDEX[cand] << 1) | 1)
                ok2, out2 = run(opname, trial, scratch)
                if not ok2:
                    m = re.match(r"expected (\S+), but got", out2)
                    typed = m.group(1).lstrip(":") if m else None
                    more = [c for c in BY_TYPE.get(typed, []) if c not in tried]
                    if not more:
                        break
                    cand = more[0]
                    tried.append(cand)
                    continue
                new = [k for k in out2 if k not in baseline]
                changed = [k for k in out2 if k in baseline and baseline[k] != out2[k]]
                hit = new + changed
                if len(hit) == 1:
                    names[i] = hit[0]
                    if re.match(r"^(loc\(unknown\)|#loc\d*)$", baseline.get(hit[0], "")):
                        # A required attribute of any kind: "absent" read
                        # as attribute 0, the optional encoding as another.
                        kinds[i][0] = "required"
                    elif typed is None and out2[hit[0]] != cand:
                        kinds[i][0] = "int"
                    break
                more = [c for c in BY_TYPE.get(typed, []) if c not in tried]
                if not more:
                    break
                cand = more[0]
                tried.append(cand)
        # Names printed without a probe: required attributes (in slot
        # order, as names sort), integer properties and segment sizes.
        assigned = {n for n in names if n}
        required = [i for i, k in enumerate(kinds) if k[0] == "required" and names[i] is None]
        rest = sorted(k for k in baseline if k not in assigned)
        segments = [k for k in rest if k in ("operandSegmentSizes", "resultSegmentSizes")]
        rest = [k for k in rest if k not in segments]
        if len(rest) != len(required):
            return opname, None, f"cannot name the required attributes: {rest}"
        req_names = rest
        for i, n in zip(required, sorted(req_names)):
            names[i] = n
        unnamed = [i for i, n in enumerate(names) if n is None]
        # Segment sizes come last, operands before results.
        for name in reversed(sorted(segments, key=lambda s: s != "operandSegmentSizes")):
            i = unnamed.pop()
            kinds[i][0] = "segments"
            names[i] = name
            extra[i] = baseline[name].count(",") + 1 if ":" in baseline[name] else 0
        for i, k in enumerate(kinds):
            if k[0] == "int":
                m = re.match(r"^-?\d+ : i(\d+)$", baseline.get(names[i], ""))
                extra[i] = int(m.group(1)) if m else 64
        for i in unnamed:
            kinds[i][0] = "gap"
        return opname, [(k[0], names[i] or "", extra[i]) for i, k in enumerate(kinds)], None


def rust_slot(kind, name, extra):
    if kind == "required":
        return f'Required("{name}")'
    if kind == "optional":
        return f'Optional("{name}")'
    if kind == "gap":
        return 'Optional("")'
    if kind == "int":
        return f'Int("{name}", {extra})'
    if kind == "bool":
        return f'Bool("{name}")'
    return f'Segments("{name}", {extra})'


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("opnames")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    ops = sorted({l.strip() for l in open(args.opnames) if re.match(r"^[a-z_]+\.[\w.]+$", l.strip())})
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(probe, ops))
    lines = []
    for op, res, err in results:
        if res is None:
            print(f"{op}: not probed: {err}", file=sys.stderr)
            continue
        slots = ", ".join(rust_slot(*s) for s in res)
        lines.append(f'    ("{op}", &[{slots}]),')
        gaps = sum(1 for s in res if s[0] == "gap")
        if gaps:
            print(f"{op}: {gaps} optional attribute(s) of unknown name", file=sys.stderr)
    with open(OUT, "w") as f:
        f.write(HEADER)
        f.write("\n".join(lines))
        f.write("\n];\n")


HEADER = """//! The properties layouts of the ops silica shares with MLIR 22, as
//! `mlir-opt-22` reads them: written by `scripts/bytecode_layouts.py`,
//! sorted by op name. An optional slot without a name is an attribute
//! silica does not know (never written; an error when read).

use super::Slot::*;

pub(super) static LAYOUTS: &[(&str, &[super::Slot])] = &[
"""


if __name__ == "__main__":
    main()
