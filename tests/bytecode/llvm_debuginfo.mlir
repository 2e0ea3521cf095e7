// LLVM debug-info attributes in bytecode. The eighteen kinds MLIR 22
// gives an LLVM-dialect encoding (files, compile units, basic, derived,
// composite and subroutine types, subprograms, lexical blocks, local
// and global variables, labels, namespaces, imported entities,
// subranges, expressions) are written in it, the others (modules,
// common blocks, string types, annotations, generic subranges, the null
// type) as text with their nested attributes written out, not by alias.
// The debug intrinsics (llvm.intr.dbg.declare, dbg.value, dbg.label)
// carry them as properties. silica writes mlir-opt-22's bytes, and each
// reads the other's.
// RUN: silica opt --emit-bytecode %s -o %t.silica.mlirbc
// RUN: mlir-opt-22 --emit-bytecode %s -o %t.mlir-opt.mlirbc
// RUN: cmp %t.silica.mlirbc %t.mlir-opt.mlirbc
// RUN: diff <(silica opt --mlir-print-debuginfo %s) <(mlir-opt-22 --mlir-print-debuginfo %s)
// RUN: diff <(silica opt --mlir-print-debuginfo %t.mlir-opt.mlirbc) <(mlir-opt-22 --mlir-print-debuginfo %t.mlir-opt.mlirbc)
// RUN: diff <(silica opt --mlir-print-debuginfo %t.silica.mlirbc) <(mlir-opt-22 --mlir-print-debuginfo %t.mlir-opt.mlirbc)
// RUN: diff <(mlir-opt-22 --mlir-print-debuginfo %t.silica.mlirbc) <(mlir-opt-22 --mlir-print-debuginfo %t.mlir-opt.mlirbc)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// The encoding leaves out a compile unit's split debug file name, so
// that the one read back differs from the one written, as in MLIR:
// RUN: silica opt %t.silica.mlirbc | FileCheck %s
// CHECK: #di_compile_unit = #llvm.di_compile_unit<id = distinct[1]<>, sourceLanguage = DW_LANG_C11, file = #di_file, producer = "clang", isOptimized = false, emissionKind = LineTablesOnly, nameTableKind = GNU>
// CHECK: #di_compile_unit1 = {{.*}} splitDebugFilename = "main.dwo">
// A location fused with a file alone, from mlir-opt-22's bytes:
// RUN: printf 'llvm.func @f() loc(fused<#llvm.di_file<"a.c" in "/d">>["a.c":1:1])\n' > %t.di.mlir
// RUN: mlir-opt-22 --emit-bytecode %t.di.mlir -o %t.di.mlirbc
// RUN: diff <(silica opt --mlir-print-debuginfo %t.di.mlirbc) <(mlir-opt-22 --mlir-print-debuginfo %t.di.mlirbc)
// A DWARF name that does not exist is an error at it, as in mlir-opt-22:
// RUN: printf '#t = #llvm.di_basic_type<tag = DW_TAG_bogus, name = "x">\nllvm.func @f() attributes {t = #t}\n' > %t.bad.mlir
// RUN: not silica opt %t.bad.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: bad.mlir:1:32: error: invalid debug info tag name: DW_TAG_bogus

#file = #llvm.di_file<"main.c" in "/src">
#cu = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C11, file = #file,
  producer = "clang", isOptimized = false, emissionKind = LineTablesOnly, nameTableKind = GNU,
  splitDebugFilename = "main.dwo">
#int = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "int", sizeInBits = 32, encoding = DW_ATE_signed>
#void = #llvm.di_null_type
#ptr = #llvm.di_derived_type<tag = DW_TAG_pointer_type, baseType = #int, sizeInBits = 64, dwarfAddressSpace = 0>
#member = #llvm.di_derived_type<tag = DW_TAG_member, name = "x", baseType = #int, sizeInBits = 32, offsetInBits = 32, extraData = #int>
#range = #llvm.di_subrange<count = 4 : i64, lowerBound = 0 : i64>
#generic = #llvm.di_generic_subrange<lowerBound = 0 : i64, stride = 1 : i64>
#array = #llvm.di_composite_type<tag = DW_TAG_array_type, name = "arr", file = #file, line = 3,
  baseType = #int, flags = "Vector|Artificial", sizeInBits = 128, alignInBits = 32,
  dataLocation = #llvm.di_expression<[DW_OP_push_object_address, DW_OP_deref]>,
  elements = #range, #generic>
#self = #llvm.di_composite_type<recId = distinct[1]<>, isRecSelf = true>
#struct = #llvm.di_composite_type<recId = distinct[1]<>, tag = DW_TAG_structure_type, name = "s",
  flags = Public, elements = #member>
#fnty = #llvm.di_subroutine_type<callingConvention = DW_CC_normal, types = #void, #int, #ptr>
#mod = #llvm.di_module<file = #file, scope = #cu, name = "m", configMacros = "-DX", includePath = "/inc", line = 2, isDecl = true>
#ns = #llvm.di_namespace<name = "ns", scope = #mod, exportSymbols = true>
#note = #llvm.di_annotation<name = "key", value = "v">
#sp = #llvm.di_subprogram<id = distinct[2]<>, compileUnit = #cu, scope = #ns, name = "f",
  linkageName = "_Z1f", file = #file, line = 5, scopeLine = 6,
  subprogramFlags = "Definition|Optimized", type = #fnty, annotations = #note>
#decl = #llvm.di_subprogram<scope = #file, name = "g", file = #file, subprogramFlags = Definition>
#block = #llvm.di_lexical_block<scope = #sp, file = #file, line = 7, column = 3>
#blockfile = #llvm.di_lexical_block_file<scope = #block, file = #file, discriminator = 0>
#var = #llvm.di_local_variable<scope = #block, name = "v", file = #file, line = 8, arg = 1, alignInBits = 32, type = #ptr, flags = ObjectPointer>
#label = #llvm.di_label<scope = #blockfile, name = "out", file = #file, line = 9>
#gv = #llvm.di_global_variable<scope = #cu, name = "g", linkageName = "g_", file = #file, line = 1, type = #int, isLocalToUnit = true, isDefined = true, alignInBits = 32>
#gve = #llvm.di_global_variable_expression<var = #gv, expr = <[DW_OP_LLVM_fragment(0, 32), DW_OP_LLVM_convert(32, DW_ATE_signed), DW_OP_constu(7)]>>
#common = #llvm.di_common_block<scope = #sp, decl = #gv, name = "c", file = #file, line = 4>
#import = #llvm.di_imported_entity<tag = DW_TAG_imported_module, scope = #sp, entity = #ns, file = #file, line = 10, name = "alias", elements = #decl>
#str = #llvm.di_string_type<tag = DW_TAG_string_type, name = "chars", sizeInBits = 64, encoding = DW_ATE_ASCII>
#empty = #llvm.di_expression<>

llvm.func @f(%arg0: i32) attributes {
    debug = [#var, #label, #gve, #common, #import, #str, #empty, #self, #struct, #array, #decl]} {
  llvm.return loc(fused<#block>["main.c":7:3])
} loc(fused<#sp>["main.c":5:1])

llvm.func @intrinsics(%p: !llvm.ptr, %x: i32) {
  llvm.intr.dbg.declare #var = %p : !llvm.ptr
  llvm.intr.dbg.value #var #llvm.di_expression<[DW_OP_LLVM_fragment(0, 16)]> = %x : i32
  llvm.intr.dbg.value #var #empty = %x : i32
  llvm.intr.dbg.label #label
  llvm.return
} loc(fused<#decl>["main.c":12:1])
