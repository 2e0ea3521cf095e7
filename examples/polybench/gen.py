#!/usr/bin/env python3
"""Writes the PolyBench/C 4.2 kernels of this directory as affine MLIR.

One function per kernel (`kernel_<name>` below) builds the kernel's body
with a small emitter, following PolyBench's loop structure statement by
statement: arrays are memref arguments (named with `hls.name` as in the C
source), PolyBench's scalar parameters (`alpha`, `beta`, `float_n`) are
scalar arguments, scalar temporaries are SSA values (loop-carried ones as
`iter_args`), local arrays are `memref.alloc`, loops that count down are
written as loops that count up over a reflected index, and C's conditions
are `affine.if`. The evaluation order of every expression is C's (left to
right), so the f32 variants compute what the C kernel compiled for float
computes (`0.33333` in jacobi-1d is a double literal: the product is taken
in f64, as C does).

Each kernel is written for two datasets (MINI and SMALL, the sizes of
PolyBench 4.2's headers) and two element types, three for deriche:

- `f32`: PolyBench's float build, every kernel.
- `f64`: PolyBench's default (double) build, for deriche (`F64_KERNELS`):
  its `exp` and `pow` in double.
- `i32`: where the algorithm stays meaningful in integers (no sqrt, exp or
  pow: cholesky, correlation, deriche and gramschmidt have none; neither
  has adi, whose coefficients are fractions of 1/N). Products and sums
  wrap (two's complement); a constant factor c = p/q of a stencil is
  `(p * x) / q` with `arith.divsi`; a division by data divides by 1 where
  the divisor is 0 (random inputs make zero divisors possible), and
  `float_n` (the number of data points in covariance) is the constant N.

Usage: python3 examples/polybench/gen.py [--check]
  writes mini/*.mlir and small/*.mlir next to this script; with --check,
  only verifies that the files on disk are what it would write (exit 1 if
  not).
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# PolyBench/C 4.2 dataset sizes (MINI, SMALL), from each kernel's header.
SIZES = {
    "2mm": ({"NI": 16, "NJ": 18, "NK": 22, "NL": 24}, {"NI": 40, "NJ": 50, "NK": 70, "NL": 80}),
    "3mm": (
        {"NI": 16, "NJ": 18, "NK": 20, "NL": 22, "NM": 24},
        {"NI": 40, "NJ": 50, "NK": 60, "NL": 70, "NM": 80},
    ),
    "adi": ({"TSTEPS": 20, "N": 20}, {"TSTEPS": 40, "N": 60}),
    "atax": ({"M": 38, "N": 42}, {"M": 116, "N": 124}),
    "bicg": ({"M": 38, "N": 42}, {"M": 116, "N": 124}),
    "cholesky": ({"N": 40}, {"N": 120}),
    "correlation": ({"M": 28, "N": 32}, {"M": 80, "N": 100}),
    "covariance": ({"M": 28, "N": 32}, {"M": 80, "N": 100}),
    "deriche": ({"W": 64, "H": 64}, {"W": 192, "H": 128}),
    "doitgen": ({"NQ": 8, "NR": 10, "NP": 12}, {"NQ": 20, "NR": 25, "NP": 30}),
    "durbin": ({"N": 40}, {"N": 120}),
    "fdtd-2d": ({"TMAX": 20, "NX": 20, "NY": 30}, {"TMAX": 40, "NX": 60, "NY": 80}),
    "floyd-warshall": ({"N": 60}, {"N": 180}),
    "gemm": ({"NI": 20, "NJ": 25, "NK": 30}, {"NI": 60, "NJ": 70, "NK": 80}),
    "gemver": ({"N": 40}, {"N": 120}),
    "gesummv": ({"N": 30}, {"N": 90}),
    "gramschmidt": ({"M": 20, "N": 30}, {"M": 60, "N": 80}),
    "heat-3d": ({"TSTEPS": 20, "N": 10}, {"TSTEPS": 40, "N": 20}),
    "jacobi-1d": ({"TSTEPS": 20, "N": 30}, {"TSTEPS": 40, "N": 120}),
    "jacobi-2d": ({"TSTEPS": 20, "N": 30}, {"TSTEPS": 40, "N": 90}),
    "lu": ({"N": 40}, {"N": 120}),
    "ludcmp": ({"N": 40}, {"N": 120}),
    "mvt": ({"N": 40}, {"N": 120}),
    "nussinov": ({"N": 60}, {"N": 180}),
    "seidel-2d": ({"TSTEPS": 20, "N": 40}, {"TSTEPS": 40, "N": 120}),
    "symm": ({"M": 20, "N": 30}, {"M": 60, "N": 80}),
    "syr2k": ({"M": 20, "N": 30}, {"M": 60, "N": 80}),
    "syrk": ({"M": 20, "N": 30}, {"M": 60, "N": 80}),
    "trisolv": ({"N": 40}, {"N": 120}),
    "trmm": ({"M": 20, "N": 30}, {"M": 60, "N": 80}),
}

# Kernels without an i32 variant (the algorithm needs real numbers).
FLOAT_ONLY = {"adi", "cholesky", "correlation", "deriche", "gramschmidt"}
# Kernels with an f64 variant too.
F64_KERNELS = {"deriche"}

CATEGORY = {
    "gemm": "linear-algebra/blas", "gemver": "linear-algebra/blas",
    "gesummv": "linear-algebra/blas", "symm": "linear-algebra/blas",
    "syr2k": "linear-algebra/blas", "syrk": "linear-algebra/blas",
    "trmm": "linear-algebra/blas", "2mm": "linear-algebra/kernels",
    "3mm": "linear-algebra/kernels", "atax": "linear-algebra/kernels",
    "bicg": "linear-algebra/kernels", "doitgen": "linear-algebra/kernels",
    "mvt": "linear-algebra/kernels", "cholesky": "linear-algebra/solvers",
    "durbin": "linear-algebra/solvers", "gramschmidt": "linear-algebra/solvers",
    "lu": "linear-algebra/solvers", "ludcmp": "linear-algebra/solvers",
    "trisolv": "linear-algebra/solvers", "correlation": "datamining",
    "covariance": "datamining", "deriche": "medley", "floyd-warshall": "medley",
    "nussinov": "medley", "adi": "stencils", "fdtd-2d": "stencils",
    "heat-3d": "stencils", "jacobi-1d": "stencils", "jacobi-2d": "stencils",
    "seidel-2d": "stencils",
}

SSA = re.compile(r"%[A-Za-z_][\w]*")


def top_name(kernel):
    """The function's symbol: the kernel's name as an identifier."""
    name = kernel.replace("-", "_")
    return "k" + name if name[0].isdigit() else name


def affine_operand(expr):
    """An affine bound or condition over SSA values, as MLIR's
    `affine_map<(d0, ...) -> (expr)>(%a, ...)` form: `(map_expr, operands)`."""
    names = []
    for n in SSA.findall(expr):
        if n not in names:
            names.append(n)
    text = expr
    for i, n in enumerate(names):
        text = re.sub(re.escape(n) + r"\b", f"d{i}", text)
    return text, names


class Array:
    """A memref: an argument or a local allocation."""

    def __init__(self, ssa, shape, elem):
        self.ssa = ssa
        self.shape = shape
        self.elem = elem

    @property
    def type(self):
        return "memref<" + "x".join(str(d) for d in self.shape) + "x" + self.elem + ">"


class Loop:
    """An open `affine.for`: its induction variable, carried values and
    (once closed) results."""

    def __init__(self, iv, args, results):
        self.iv = iv
        self.args = args
        self.results = results


class Kernel:
    """Emits one function: arguments, a body of ops, constants hoisted to
    the top of the body."""

    def __init__(self, name, ty):
        self.name = name
        self.ty = ty
        self.is_float = ty in ("f32", "f64")
        self.args = []
        self.body = []
        self.consts = {}
        self.const_lines = []
        self.depth = 1
        self.counter = 0
        self.stack = []

    # ---- names, lines, arguments
    def fresh(self, hint):
        self.counter += 1
        return f"%{hint}{self.counter}"

    def emit(self, line):
        self.body.append("  " * self.depth + line)

    def op(self, text, hint="v"):
        r = self.fresh(hint)
        self.emit(f"{r} = {text}")
        return r

    def array(self, name, shape, elem=None):
        a = Array("%" + name, shape, elem or self.ty)
        self.args.append(f'{a.ssa}: {a.type} {{hls.name = "{name}"}}')
        return a

    def scalar(self, name):
        self.args.append(f'%{name}: {self.ty} {{hls.name = "{name}"}}')
        return "%" + name

    def alloc(self, name, shape):
        a = Array("%" + name, shape, self.ty)
        self.emit(f"{a.ssa} = memref.alloc() : {a.type}")
        return a

    # ---- constants
    def const(self, value, ty=None):
        ty = ty or self.ty
        if ty in ("f32", "f64"):
            text = repr(float(value))
            if "e" in text and "." not in text.split("e")[0]:
                text = text.replace("e", ".0e")
        else:
            text = str(int(value))
        key = (text, ty)
        if key not in self.consts:
            hint = "cst" if ty in ("f32", "f64") else "c"
            self.counter += 1
            safe = re.sub(r"[^0-9a-zA-Z]", "_", text.replace("-", "m"))
            name = f"%{hint}{safe}_{ty}" if ty != self.ty else f"%{hint}{safe}"
            self.consts[key] = name
            self.const_lines.append(f"  {name} = arith.constant {text} : {ty}")
        return self.consts[key]

    def zero(self):
        return self.const(0)

    def one(self):
        return self.const(1)

    # ---- arithmetic on the element type
    def _bin(self, f, i, a, b, ty=None):
        ty = ty or self.ty
        name = f if ty in ("f32", "f64") else i
        return self.op(f"arith.{name} {a}, {b} : {ty}")

    def add(self, a, b, ty=None):
        return self._bin("addf", "addi", a, b, ty)

    def sub(self, a, b, ty=None):
        return self._bin("subf", "subi", a, b, ty)

    def mul(self, a, b, ty=None):
        return self._bin("mulf", "muli", a, b, ty)

    def neg(self, a):
        if self.is_float:
            return self.op(f"arith.negf {a} : {self.ty}")
        return self.sub(self.zero(), a)

    def div(self, a, b):
        """a / b: `divf`, or `divsi` dividing by 1 where b is 0 (unless b
        is a constant other than 0)."""
        if self.is_float:
            return self.op(f"arith.divf {a}, {b} : {self.ty}")
        if b not in self.consts.values():
            z = self.op(f"arith.cmpi eq, {b}, {self.zero()} : {self.ty}", "z")
            b = self.op(f"arith.select {z}, {self.one()}, {b} : {self.ty}", "d")
        return self.op(f"arith.divsi {a}, {b} : {self.ty}")

    def scale(self, x, num, den, value=None):
        """A constant factor num/den times x, C's `SCALAR_VAL(value) * x`:
        f32 multiplies by the constant, i32 computes (num * x) / den."""
        if self.is_float:
            return self.mul(self.const(value if value is not None else num / den), x)
        if num != 1:
            x = self.mul(self.const(num), x)
        if den != 1:
            x = self.op(f"arith.divsi {x}, {self.const(den)} : {self.ty}")
        return x

    def cmp(self, pred, a, b):
        """`pred` in {lt, le, gt, ge, eq}: ordered float or signed integer."""
        if self.is_float:
            return self.op(f"arith.cmpf o{pred}, {a}, {b} : {self.ty}", "p")
        ipred = {"lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge", "eq": "eq"}[pred]
        return self.op(f"arith.cmpi {ipred}, {a}, {b} : {self.ty}", "p")

    def select(self, c, a, b, ty=None):
        return self.op(f"arith.select {c}, {a}, {b} : {ty or self.ty}")

    def math(self, fn, *xs):
        return self.op(f"math.{fn} {', '.join(xs)} : {self.ty}")

    # ---- memory
    def load(self, arr, idx):
        return self.op(f"affine.load {arr.ssa}[{', '.join(str(i) for i in idx)}] : {arr.type}")

    def store(self, val, arr, idx):
        self.emit(f"affine.store {val}, {arr.ssa}[{', '.join(str(i) for i in idx)}] : {arr.type}")

    # ---- structure
    def _bound(self, b):
        if isinstance(b, int):
            return str(b)
        text, names = affine_operand(b)
        dims = ", ".join(f"d{i}" for i in range(len(names)))
        return f"affine_map<({dims}) -> ({text})>({', '.join(names)})"

    def loop(self, name, lb, ub, iter_args=()):
        """Opens `affine.for %name = lb to ub` (bounds: ints or affine
        expressions over SSA names, upper bound exclusive) with
        `iter_args` [(hint, init)]; close it with `end`."""
        iv = self.fresh(name)
        args = [self.fresh(h) for h, _ in iter_args]
        results = []
        head = f"affine.for {iv} = {self._bound(lb)} to {self._bound(ub)}"
        if iter_args:
            results_name = self.fresh(name + "_r")
            n = len(iter_args)
            results = [results_name] if n == 1 else [f"{results_name}#{i}" for i in range(n)]
            inits = ", ".join(f"{a} = {init}" for a, (_, init) in zip(args, iter_args))
            tys = ", ".join(self.ty_of(init) for _, init in iter_args)
            lhs = results_name if n == 1 else f"{results_name}:{n}"
            head = f"{lhs} = {head} iter_args({inits}) -> ({tys})"
        self.emit(head + " {")
        self.depth += 1
        self.stack.append(("for", [self.ty_of(init) for _, init in iter_args]))
        return Loop(iv, args, results)

    def ty_of(self, value):
        for (_, ty), name in self.consts.items():
            if name == value:
                return ty
        return self.ty

    def end(self, yields=()):
        kind, tys = self.stack.pop()
        if yields:
            self.emit(f"affine.yield {', '.join(yields)} : {', '.join(tys)}")
        self.depth -= 1
        self.emit("}")

    def if_(self, cond):
        """Opens `affine.if` on `cond`, a list of affine constraints over
        SSA names ("expr >= 0" or "expr == 0"); close with `end_if`,
        optionally after `else_`."""
        names = []
        for c in cond:
            for n in SSA.findall(c):
                if n not in names:
                    names.append(n)
        cs = []
        for c in cond:
            text = c
            for i, n in enumerate(names):
                text = re.sub(re.escape(n) + r"\b", f"d{i}", text)
            cs.append(text)
        dims = ", ".join(f"d{i}" for i in range(len(names)))
        self.emit(f"affine.if affine_set<({dims}) : ({', '.join(cs)})>({', '.join(names)}) {{")
        self.depth += 1

    def else_(self):
        self.depth -= 1
        self.emit("} else {")
        self.depth += 1

    def end_if(self):
        self.depth -= 1
        self.emit("}")

    def text(self, header):
        lines = [header, f"func.func @{self.name}(" + (",\n    ".join(self.args)) + ") {"]
        lines += self.const_lines
        lines += self.body
        lines += ["  return", "}", ""]
        return "\n".join(lines)


# ---------------------------------------------------------------------------
# The kernels, in PolyBench's order of statements.


def kernel_gemm(k, s):
    NI, NJ, NK = s["NI"], s["NJ"], s["NK"]
    alpha, beta = k.scalar("alpha"), k.scalar("beta")
    C, A, B = k.array("C", [NI, NJ]), k.array("A", [NI, NK]), k.array("B", [NK, NJ])
    i = k.loop("i", 0, NI).iv
    j = k.loop("j", 0, NJ).iv
    k.store(k.mul(k.load(C, [i, j]), beta), C, [i, j])
    k.end()
    kk = k.loop("k", 0, NK).iv
    j = k.loop("j", 0, NJ).iv
    c = k.load(C, [i, j])
    t = k.mul(k.mul(alpha, k.load(A, [i, kk])), k.load(B, [kk, j]))
    k.store(k.add(c, t), C, [i, j])
    k.end()
    k.end()
    k.end()


def kernel_2mm(k, s):
    NI, NJ, NK, NL = s["NI"], s["NJ"], s["NK"], s["NL"]
    alpha, beta = k.scalar("alpha"), k.scalar("beta")
    tmp = k.array("tmp", [NI, NJ])
    A, B = k.array("A", [NI, NK]), k.array("B", [NK, NJ])
    C, D = k.array("C", [NJ, NL]), k.array("D", [NI, NL])
    i = k.loop("i", 0, NI).iv
    j = k.loop("j", 0, NJ).iv
    k.store(k.zero(), tmp, [i, j])
    kk = k.loop("k", 0, NK).iv
    t = k.load(tmp, [i, j])
    p = k.mul(k.mul(alpha, k.load(A, [i, kk])), k.load(B, [kk, j]))
    k.store(k.add(t, p), tmp, [i, j])
    k.end()
    k.end()
    k.end()
    i = k.loop("i", 0, NI).iv
    j = k.loop("j", 0, NL).iv
    k.store(k.mul(k.load(D, [i, j]), beta), D, [i, j])
    kk = k.loop("k", 0, NJ).iv
    d = k.load(D, [i, j])
    p = k.mul(k.load(tmp, [i, kk]), k.load(C, [kk, j]))
    k.store(k.add(d, p), D, [i, j])
    k.end()
    k.end()
    k.end()


def _matmul_init(k, out, a, b, n1, n2, n3):
    i = k.loop("i", 0, n1).iv
    j = k.loop("j", 0, n2).iv
    k.store(k.zero(), out, [i, j])
    kk = k.loop("k", 0, n3).iv
    o = k.load(out, [i, j])
    p = k.mul(k.load(a, [i, kk]), k.load(b, [kk, j]))
    k.store(k.add(o, p), out, [i, j])
    k.end()
    k.end()
    k.end()


def kernel_3mm(k, s):
    NI, NJ, NK, NL, NM = s["NI"], s["NJ"], s["NK"], s["NL"], s["NM"]
    E, A, B = k.array("E", [NI, NJ]), k.array("A", [NI, NK]), k.array("B", [NK, NJ])
    F, C, D = k.array("F", [NJ, NL]), k.array("C", [NJ, NM]), k.array("D", [NM, NL])
    G = k.array("G", [NI, NL])
    _matmul_init(k, E, A, B, NI, NJ, NK)
    _matmul_init(k, F, C, D, NJ, NL, NM)
    _matmul_init(k, G, E, F, NI, NL, NJ)


def kernel_atax(k, s):
    M, N = s["M"], s["N"]
    A, x = k.array("A", [M, N]), k.array("x", [N])
    y, tmp = k.array("y", [N]), k.array("tmp", [M])
    i = k.loop("i", 0, N).iv
    k.store(k.zero(), y, [i])
    k.end()
    i = k.loop("i", 0, M).iv
    k.store(k.zero(), tmp, [i])
    j = k.loop("j", 0, N).iv
    t = k.load(tmp, [i])
    k.store(k.add(t, k.mul(k.load(A, [i, j]), k.load(x, [j]))), tmp, [i])
    k.end()
    j = k.loop("j", 0, N).iv
    yy = k.load(y, [j])
    k.store(k.add(yy, k.mul(k.load(A, [i, j]), k.load(tmp, [i]))), y, [j])
    k.end()
    k.end()


def kernel_bicg(k, s):
    M, N = s["M"], s["N"]
    A, s_ = k.array("A", [N, M]), k.array("s", [M])
    q, p, r = k.array("q", [N]), k.array("p", [M]), k.array("r", [N])
    i = k.loop("i", 0, M).iv
    k.store(k.zero(), s_, [i])
    k.end()
    i = k.loop("i", 0, N).iv
    k.store(k.zero(), q, [i])
    j = k.loop("j", 0, M).iv
    sj = k.load(s_, [j])
    k.store(k.add(sj, k.mul(k.load(r, [i]), k.load(A, [i, j]))), s_, [j])
    qi = k.load(q, [i])
    k.store(k.add(qi, k.mul(k.load(A, [i, j]), k.load(p, [j]))), q, [i])
    k.end()
    k.end()


def kernel_mvt(k, s):
    N = s["N"]
    x1, x2 = k.array("x1", [N]), k.array("x2", [N])
    y1, y2 = k.array("y_1", [N]), k.array("y_2", [N])
    A = k.array("A", [N, N])
    i = k.loop("i", 0, N).iv
    j = k.loop("j", 0, N).iv
    x = k.load(x1, [i])
    k.store(k.add(x, k.mul(k.load(A, [i, j]), k.load(y1, [j]))), x1, [i])
    k.end()
    k.end()
    i = k.loop("i", 0, N).iv
    j = k.loop("j", 0, N).iv
    x = k.load(x2, [i])
    k.store(k.add(x, k.mul(k.load(A, [j, i]), k.load(y2, [j]))), x2, [i])
    k.end()
    k.end()


def kernel_gesummv(k, s):
    N = s["N"]
    alpha, beta = k.scalar("alpha"), k.scalar("beta")
    A, B = k.array("A", [N, N]), k.array("B", [N, N])
    tmp, x, y = k.array("tmp", [N]), k.array("x", [N]), k.array("y", [N])
    i = k.loop("i", 0, N).iv
    k.store(k.zero(), tmp, [i])
    k.store(k.zero(), y, [i])
    j = k.loop("j", 0, N).iv
    t = k.add(k.mul(k.load(A, [i, j]), k.load(x, [j])), k.load(tmp, [i]))
    k.store(t, tmp, [i])
    u = k.add(k.mul(k.load(B, [i, j]), k.load(x, [j])), k.load(y, [i]))
    k.store(u, y, [i])
    k.end()
    r = k.add(k.mul(alpha, k.load(tmp, [i])), k.mul(beta, k.load(y, [i])))
    k.store(r, y, [i])
    k.end()


def kernel_gemver(k, s):
    N = s["N"]
    alpha, beta = k.scalar("alpha"), k.scalar("beta")
    A = k.array("A", [N, N])
    u1, v1, u2, v2 = (k.array(n, [N]) for n in ("u1", "v1", "u2", "v2"))
    w, x, y, z = (k.array(n, [N]) for n in ("w", "x", "y", "z"))
    i = k.loop("i", 0, N).iv
    j = k.loop("j", 0, N).iv
    a = k.add(k.load(A, [i, j]), k.mul(k.load(u1, [i]), k.load(v1, [j])))
    a = k.add(a, k.mul(k.load(u2, [i]), k.load(v2, [j])))
    k.store(a, A, [i, j])
    k.end()
    k.end()
    i = k.loop("i", 0, N).iv
    j = k.loop("j", 0, N).iv
    xi = k.load(x, [i])
    k.store(k.add(xi, k.mul(k.mul(beta, k.load(A, [j, i])), k.load(y, [j]))), x, [i])
    k.end()
    k.end()
    i = k.loop("i", 0, N).iv
    k.store(k.add(k.load(x, [i]), k.load(z, [i])), x, [i])
    k.end()
    i = k.loop("i", 0, N).iv
    j = k.loop("j", 0, N).iv
    wi = k.load(w, [i])
    k.store(k.add(wi, k.mul(k.mul(alpha, k.load(A, [i, j])), k.load(x, [j]))), w, [i])
    k.end()
    k.end()


def kernel_symm(k, s):
    M, N = s["M"], s["N"]
    alpha, beta = k.scalar("alpha"), k.scalar("beta")
    C, A, B = k.array("C", [M, N]), k.array("A", [M, M]), k.array("B", [M, N])
    i = k.loop("i", 0, M).iv
    j = k.loop("j", 0, N).iv
    kl = k.loop("k", 0, i, [("temp2", k.zero())])
    kk, (temp2,) = kl.iv, kl.args
    c = k.load(C, [kk, j])
    c = k.add(c, k.mul(k.mul(alpha, k.load(B, [i, j])), k.load(A, [i, kk])))
    k.store(c, C, [kk, j])
    t = k.add(temp2, k.mul(k.load(B, [kk, j]), k.load(A, [i, kk])))
    k.end([t])
    temp2 = kl.results[0]
    r = k.mul(beta, k.load(C, [i, j]))
    r = k.add(r, k.mul(k.mul(alpha, k.load(B, [i, j])), k.load(A, [i, i])))
    r = k.add(r, k.mul(alpha, temp2))
    k.store(r, C, [i, j])
    k.end()
    k.end()


def kernel_syrk(k, s):
    M, N = s["M"], s["N"]
    alpha, beta = k.scalar("alpha"), k.scalar("beta")
    C, A = k.array("C", [N, N]), k.array("A", [N, M])
    i = k.loop("i", 0, N).iv
    j = k.loop("j", 0, f"{i} + 1").iv
    k.store(k.mul(k.load(C, [i, j]), beta), C, [i, j])
    k.end()
    kk = k.loop("k", 0, M).iv
    j = k.loop("j", 0, f"{i} + 1").iv
    c = k.load(C, [i, j])
    k.store(k.add(c, k.mul(k.mul(alpha, k.load(A, [i, kk])), k.load(A, [j, kk]))), C, [i, j])
    k.end()
    k.end()
    k.end()


def kernel_syr2k(k, s):
    M, N = s["M"], s["N"]
    alpha, beta = k.scalar("alpha"), k.scalar("beta")
    C, A, B = k.array("C", [N, N]), k.array("A", [N, M]), k.array("B", [N, M])
    i = k.loop("i", 0, N).iv
    j = k.loop("j", 0, f"{i} + 1").iv
    k.store(k.mul(k.load(C, [i, j]), beta), C, [i, j])
    k.end()
    kk = k.loop("k", 0, M).iv
    j = k.loop("j", 0, f"{i} + 1").iv
    c = k.load(C, [i, j])
    p = k.mul(k.mul(k.load(A, [j, kk]), alpha), k.load(B, [i, kk]))
    q = k.mul(k.mul(k.load(B, [j, kk]), alpha), k.load(A, [i, kk]))
    k.store(k.add(c, k.add(p, q)), C, [i, j])
    k.end()
    k.end()
    k.end()


def kernel_trmm(k, s):
    M, N = s["M"], s["N"]
    alpha = k.scalar("alpha")
    A, B = k.array("A", [M, M]), k.array("B", [M, N])
    i = k.loop("i", 0, M).iv
    j = k.loop("j", 0, N).iv
    kk = k.loop("k", f"{i} + 1", M).iv
    b = k.load(B, [i, j])
    k.store(k.add(b, k.mul(k.load(A, [kk, i]), k.load(B, [kk, j]))), B, [i, j])
    k.end()
    k.store(k.mul(alpha, k.load(B, [i, j])), B, [i, j])
    k.end()
    k.end()


def kernel_doitgen(k, s):
    NQ, NR, NP = s["NQ"], s["NR"], s["NP"]
    A, C4 = k.array("A", [NR, NQ, NP]), k.array("C4", [NP, NP])
    sum_ = k.array("sum", [NP])
    r = k.loop("r", 0, NR).iv
    q = k.loop("q", 0, NQ).iv
    p = k.loop("p", 0, NP).iv
    k.store(k.zero(), sum_, [p])
    ss = k.loop("s", 0, NP).iv
    t = k.load(sum_, [p])
    k.store(k.add(t, k.mul(k.load(A, [r, q, ss]), k.load(C4, [ss, p]))), sum_, [p])
    k.end()
    k.end()
    p = k.loop("p", 0, NP).iv
    k.store(k.load(sum_, [p]), A, [r, q, p])
    k.end()
    k.end()
    k.end()


def kernel_cholesky(k, s):
    N = s["N"]
    A = k.array("A", [N, N])
    i = k.loop("i", 0, N).iv
    j = k.loop("j", 0, i).iv
    kk = k.loop("k", 0, j).iv
    a = k.load(A, [i, j])
    k.store(k.sub(a, k.mul(k.load(A, [i, kk]), k.load(A, [j, kk]))), A, [i, j])
    k.end()
    k.store(k.div(k.load(A, [i, j]), k.load(A, [j, j])), A, [i, j])
    k.end()
    kk = k.loop("k", 0, i).iv
    a = k.load(A, [i, i])
    aik = k.load(A, [i, kk])
    k.store(k.sub(a, k.mul(aik, k.load(A, [i, kk]))), A, [i, i])
    k.end()
    k.store(k.math("sqrt", k.load(A, [i, i])), A, [i, i])
    k.end()


def kernel_durbin(k, s):
    N = s["N"]
    r, y = k.array("r", [N]), k.array("y", [N])
    z = k.alloc("z", [N])
    r0 = k.load(r, [0])
    k.store(k.neg(r0), y, [0])
    beta0 = k.one()
    alpha0 = k.neg(k.load(r, [0]))
    kl = k.loop("k", 1, N, [("alpha", alpha0), ("beta", beta0)])
    kk, (alpha, beta) = kl.iv, kl.args
    beta = k.mul(k.sub(k.one(), k.mul(alpha, alpha)), beta)
    il = k.loop("i", 0, kk, [("sum", k.zero())])
    i, (sm,) = il.iv, il.args
    t = k.add(sm, k.mul(k.load(r, [f"{kk} - {i} - 1"]), k.load(y, [i])))
    k.end([t])
    sm = il.results[0]
    alpha = k.div(k.neg(k.add(k.load(r, [kk]), sm)), beta)
    i = k.loop("i", 0, kk).iv
    k.store(k.add(k.load(y, [i]), k.mul(alpha, k.load(y, [f"{kk} - {i} - 1"]))), z, [i])
    k.end()
    i = k.loop("i", 0, kk).iv
    k.store(k.load(z, [i]), y, [i])
    k.end()
    k.store(alpha, y, [kk])
    k.end([alpha, beta])


def kernel_gramschmidt(k, s):
    M, N = s["M"], s["N"]
    A, R, Q = k.array("A", [M, N]), k.array("R", [N, N]), k.array("Q", [M, N])
    kk = k.loop("k", 0, N).iv
    il = k.loop("i", 0, M, [("nrm", k.zero())])
    i, (nrm,) = il.iv, il.args
    a = k.load(A, [i, kk])
    t = k.add(nrm, k.mul(a, k.load(A, [i, kk])))
    k.end([t])
    k.store(k.math("sqrt", il.results[0]), R, [kk, kk])
    i = k.loop("i", 0, M).iv
    k.store(k.div(k.load(A, [i, kk]), k.load(R, [kk, kk])), Q, [i, kk])
    k.end()
    j = k.loop("j", f"{kk} + 1", N).iv
    k.store(k.zero(), R, [kk, j])
    i = k.loop("i", 0, M).iv
    rr = k.load(R, [kk, j])
    k.store(k.add(rr, k.mul(k.load(Q, [i, kk]), k.load(A, [i, j]))), R, [kk, j])
    k.end()
    i = k.loop("i", 0, M).iv
    a = k.load(A, [i, j])
    k.store(k.sub(a, k.mul(k.load(Q, [i, kk]), k.load(R, [kk, j]))), A, [i, j])
    k.end()
    k.end()
    k.end()


def kernel_lu(k, s):
    N = s["N"]
    A = k.array("A", [N, N])
    i = k.loop("i", 0, N).iv
    j = k.loop("j", 0, i).iv
    kk = k.loop("k", 0, j).iv
    a = k.load(A, [i, j])
    k.store(k.sub(a, k.mul(k.load(A, [i, kk]), k.load(A, [kk, j]))), A, [i, j])
    k.end()
    k.store(k.div(k.load(A, [i, j]), k.load(A, [j, j])), A, [i, j])
    k.end()
    j = k.loop("j", i, N).iv
    kk = k.loop("k", 0, i).iv
    a = k.load(A, [i, j])
    k.store(k.sub(a, k.mul(k.load(A, [i, kk]), k.load(A, [kk, j]))), A, [i, j])
    k.end()
    k.end()
    k.end()


def kernel_ludcmp(k, s):
    N = s["N"]
    A, b = k.array("A", [N, N]), k.array("b", [N])
    x, y = k.array("x", [N]), k.array("y", [N])
    i = k.loop("i", 0, N).iv
    j = k.loop("j", 0, i).iv
    kl = k.loop("k", 0, j, [("w", k.load(A, [i, j]))])
    kk, (w,) = kl.iv, kl.args
    k.end([k.sub(w, k.mul(k.load(A, [i, kk]), k.load(A, [kk, j])))])
    k.store(k.div(kl.results[0], k.load(A, [j, j])), A, [i, j])
    k.end()
    j = k.loop("j", i, N).iv
    kl = k.loop("k", 0, i, [("w", k.load(A, [i, j]))])
    kk, (w,) = kl.iv, kl.args
    k.end([k.sub(w, k.mul(k.load(A, [i, kk]), k.load(A, [kk, j])))])
    k.store(kl.results[0], A, [i, j])
    k.end()
    k.end()
    i = k.loop("i", 0, N).iv
    jl = k.loop("j", 0, i, [("w", k.load(b, [i]))])
    j, (w,) = jl.iv, jl.args
    k.end([k.sub(w, k.mul(k.load(A, [i, j]), k.load(y, [j])))])
    k.store(jl.results[0], y, [i])
    k.end()
    # for (i = N-1; i >= 0; i--): i = N-1-ii.
    ii = k.loop("ii", 0, N).iv
    i = f"{N - 1} - {ii}"
    jl = k.loop("j", f"{N} - {ii}", N, [("w", k.load(y, [i]))])
    j, (w,) = jl.iv, jl.args
    k.end([k.sub(w, k.mul(k.load(A, [i, j]), k.load(x, [j])))])
    k.store(k.div(jl.results[0], k.load(A, [i, i])), x, [i])
    k.end()


def kernel_trisolv(k, s):
    N = s["N"]
    L, x, b = k.array("L", [N, N]), k.array("x", [N]), k.array("b", [N])
    i = k.loop("i", 0, N).iv
    k.store(k.load(b, [i]), x, [i])
    j = k.loop("j", 0, i).iv
    xi = k.load(x, [i])
    k.store(k.sub(xi, k.mul(k.load(L, [i, j]), k.load(x, [j]))), x, [i])
    k.end()
    k.store(k.div(k.load(x, [i]), k.load(L, [i, i])), x, [i])
    k.end()


def kernel_correlation(k, s):
    M, N = s["M"], s["N"]
    float_n = k.scalar("float_n")
    data, corr = k.array("data", [N, M]), k.array("corr", [M, M])
    mean, stddev = k.array("mean", [M]), k.array("stddev", [M])
    eps = k.const(0.1)
    j = k.loop("j", 0, M).iv
    k.store(k.zero(), mean, [j])
    i = k.loop("i", 0, N).iv
    k.store(k.add(k.load(mean, [j]), k.load(data, [i, j])), mean, [j])
    k.end()
    k.store(k.div(k.load(mean, [j]), float_n), mean, [j])
    k.end()
    j = k.loop("j", 0, M).iv
    k.store(k.zero(), stddev, [j])
    i = k.loop("i", 0, N).iv
    sd = k.load(stddev, [j])
    d1 = k.sub(k.load(data, [i, j]), k.load(mean, [j]))
    d2 = k.sub(k.load(data, [i, j]), k.load(mean, [j]))
    k.store(k.add(sd, k.mul(d1, d2)), stddev, [j])
    k.end()
    k.store(k.div(k.load(stddev, [j]), float_n), stddev, [j])
    k.store(k.math("sqrt", k.load(stddev, [j])), stddev, [j])
    sd = k.load(stddev, [j])
    le = k.cmp("le", sd, eps)
    k.store(k.select(le, k.one(), k.load(stddev, [j])), stddev, [j])
    k.end()
    i = k.loop("i", 0, N).iv
    j = k.loop("j", 0, M).iv
    k.store(k.sub(k.load(data, [i, j]), k.load(mean, [j])), data, [i, j])
    d = k.load(data, [i, j])
    k.store(k.div(d, k.mul(k.math("sqrt", float_n), k.load(stddev, [j]))), data, [i, j])
    k.end()
    k.end()
    i = k.loop("i", 0, M - 1).iv
    k.store(k.one(), corr, [i, i])
    j = k.loop("j", f"{i} + 1", M).iv
    k.store(k.zero(), corr, [i, j])
    kk = k.loop("k", 0, N).iv
    c = k.load(corr, [i, j])
    k.store(k.add(c, k.mul(k.load(data, [kk, i]), k.load(data, [kk, j]))), corr, [i, j])
    k.end()
    k.store(k.load(corr, [i, j]), corr, [j, i])
    k.end()
    k.end()
    k.store(k.one(), corr, [M - 1, M - 1])


def kernel_covariance(k, s):
    M, N = s["M"], s["N"]
    float_n = k.scalar("float_n") if k.is_float else k.const(N)
    data, cov = k.array("data", [N, M]), k.array("cov", [M, M])
    mean = k.array("mean", [M])
    j = k.loop("j", 0, M).iv
    k.store(k.zero(), mean, [j])
    i = k.loop("i", 0, N).iv
    k.store(k.add(k.load(mean, [j]), k.load(data, [i, j])), mean, [j])
    k.end()
    k.store(k.div(k.load(mean, [j]), float_n), mean, [j])
    k.end()
    i = k.loop("i", 0, N).iv
    j = k.loop("j", 0, M).iv
    k.store(k.sub(k.load(data, [i, j]), k.load(mean, [j])), data, [i, j])
    k.end()
    k.end()
    i = k.loop("i", 0, M).iv
    j = k.loop("j", i, M).iv
    k.store(k.zero(), cov, [i, j])
    kk = k.loop("k", 0, N).iv
    c = k.load(cov, [i, j])
    k.store(k.add(c, k.mul(k.load(data, [kk, i]), k.load(data, [kk, j]))), cov, [i, j])
    k.end()
    c = k.load(cov, [i, j])
    den = k.const(N - 1) if not k.is_float else k.sub(float_n, k.one())
    k.store(k.div(c, den), cov, [i, j])
    k.store(k.load(cov, [i, j]), cov, [j, i])
    k.end()
    k.end()


def kernel_deriche(k, s):
    W, H = s["W"], s["H"]
    alpha = k.scalar("alpha")
    imgIn, imgOut = k.array("imgIn", [W, H]), k.array("imgOut", [W, H])
    y1, y2 = k.array("y1", [W, H]), k.array("y2", [W, H])
    one, two = k.one(), k.const(2)
    na = k.neg(alpha)
    e1 = k.math("exp", na)
    t1 = k.sub(one, e1)
    e2 = k.math("exp", na)
    t2 = k.sub(one, e2)
    num = k.mul(t1, t2)
    e3 = k.math("exp", na)
    den = k.add(one, k.mul(k.mul(two, alpha), e3))
    e4 = k.math("exp", k.mul(two, alpha))
    kc = k.div(num, k.sub(den, e4))
    a1 = a5 = kc
    a2 = a6 = k.mul(k.mul(kc, k.math("exp", k.neg(alpha))), k.sub(alpha, one))
    a3 = a7 = k.mul(k.mul(kc, k.math("exp", k.neg(alpha))), k.add(alpha, one))
    a4 = a8 = k.mul(k.neg(kc), k.math("exp", k.mul(k.const(-2.0), alpha)))
    b1 = k.math("powf", two, k.neg(alpha))
    b2 = k.neg(k.math("exp", k.mul(k.const(-2.0), alpha)))
    c1 = c2 = one
    zero = k.zero()
    i = k.loop("i", 0, W).iv
    jl = k.loop("j", 0, H, [("ym1", zero), ("ym2", zero), ("xm1", zero)])
    j, (ym1, ym2, xm1) = jl.iv, jl.args
    v = k.add(k.mul(a1, k.load(imgIn, [i, j])), k.mul(a2, xm1))
    v = k.add(k.add(v, k.mul(b1, ym1)), k.mul(b2, ym2))
    k.store(v, y1, [i, j])
    nx = k.load(imgIn, [i, j])
    ny = k.load(y1, [i, j])
    k.end([ny, ym1, nx])
    k.end()
    i = k.loop("i", 0, W).iv
    jl = k.loop("jj", 0, H, [("yp1", zero), ("yp2", zero), ("xp1", zero), ("xp2", zero)])
    jj, (yp1, yp2, xp1, xp2) = jl.iv, jl.args
    j = f"{H - 1} - {jj}"
    v = k.add(k.mul(a3, xp1), k.mul(a4, xp2))
    v = k.add(k.add(v, k.mul(b1, yp1)), k.mul(b2, yp2))
    k.store(v, y2, [i, j])
    nx = k.load(imgIn, [i, j])
    ny = k.load(y2, [i, j])
    k.end([ny, yp1, nx, xp1])
    k.end()
    i = k.loop("i", 0, W).iv
    j = k.loop("j", 0, H).iv
    k.store(k.mul(c1, k.add(k.load(y1, [i, j]), k.load(y2, [i, j]))), imgOut, [i, j])
    k.end()
    k.end()
    j = k.loop("j", 0, H).iv
    il = k.loop("i", 0, W, [("tm1", zero), ("ym1", zero), ("ym2", zero)])
    i, (tm1, ym1, ym2) = il.iv, il.args
    v = k.add(k.mul(a5, k.load(imgOut, [i, j])), k.mul(a6, tm1))
    v = k.add(k.add(v, k.mul(b1, ym1)), k.mul(b2, ym2))
    k.store(v, y1, [i, j])
    nt = k.load(imgOut, [i, j])
    ny = k.load(y1, [i, j])
    k.end([nt, ny, ym1])
    k.end()
    j = k.loop("j", 0, H).iv
    il = k.loop("ii", 0, W, [("tp1", zero), ("tp2", zero), ("yp1", zero), ("yp2", zero)])
    ii, (tp1, tp2, yp1, yp2) = il.iv, il.args
    i = f"{W - 1} - {ii}"
    v = k.add(k.mul(a7, tp1), k.mul(a8, tp2))
    v = k.add(k.add(v, k.mul(b1, yp1)), k.mul(b2, yp2))
    k.store(v, y2, [i, j])
    nt = k.load(imgOut, [i, j])
    ny = k.load(y2, [i, j])
    k.end([nt, tp1, ny, yp1])
    k.end()
    i = k.loop("i", 0, W).iv
    j = k.loop("j", 0, H).iv
    k.store(k.mul(c2, k.add(k.load(y1, [i, j]), k.load(y2, [i, j]))), imgOut, [i, j])
    k.end()
    k.end()


def kernel_floyd_warshall(k, s):
    N = s["N"]
    path = k.array("path", [N, N])
    kk = k.loop("k", 0, N).iv
    i = k.loop("i", 0, N).iv
    j = k.loop("j", 0, N).iv
    pij = k.load(path, [i, j])
    s1 = k.add(k.load(path, [i, kk]), k.load(path, [kk, j]))
    lt = k.cmp("lt", pij, s1)
    s2 = k.add(k.load(path, [i, kk]), k.load(path, [kk, j]))
    k.store(k.select(lt, k.load(path, [i, j]), s2), path, [i, j])
    k.end()
    k.end()
    k.end()


def kernel_nussinov(k, s):
    N = s["N"]
    seq = k.array("seq", [N], "i8")
    table = k.array("table", [N, N])

    def max_score(a, b):
        return k.select(k.cmp("ge", a, b), a, b)

    # for (i = N-1; i >= 0; i--): i = N-1-ii.
    ii = k.loop("ii", 0, N).iv
    i = f"{N - 1} - {ii}"
    j = k.loop("j", f"{N} - {ii}", N).iv
    k.if_([f"{j} - 1 >= 0"])
    k.store(max_score(k.load(table, [i, j]), k.load(table, [i, f"{j} - 1"])), table, [i, j])
    k.end_if()
    # i + 1 < N  <=>  ii - 1 >= 0
    k.if_([f"{ii} - 1 >= 0"])
    k.store(max_score(k.load(table, [i, j]), k.load(table, [f"{N} - {ii}", j])), table, [i, j])
    k.end_if()
    k.if_([f"{j} - 1 >= 0", f"{ii} - 1 >= 0"])
    # i < j - 1  <=>  j - i - 2 >= 0  <=>  j + ii - N - 1 >= 0
    k.if_([f"{j} + {ii} - {N + 1} >= 0"])
    si = k.op(f"arith.extsi {k.load(seq, [i])} : i8 to i32")
    sj = k.op(f"arith.extsi {k.load(seq, [j])} : i8 to i32")
    sum_ = k.add(si, sj, "i32")
    three = k.const(3, "i32")
    eq = k.op(f"arith.cmpi eq, {sum_}, {three} : i32", "p")
    match = k.select(eq, k.one(), k.zero())
    v = k.add(k.load(table, [f"{N} - {ii}", f"{j} - 1"]), match)
    k.store(max_score(k.load(table, [i, j]), v), table, [i, j])
    k.else_()
    k.store(max_score(k.load(table, [i, j]), k.load(table, [f"{N} - {ii}", f"{j} - 1"])), table, [i, j])
    k.end_if()
    k.end_if()
    kk = k.loop("k", f"{N} - {ii}", j).iv
    v = k.add(k.load(table, [i, kk]), k.load(table, [f"{kk} + 1", j]))
    k.store(max_score(k.load(table, [i, j]), v), table, [i, j])
    k.end()
    k.end()
    k.end()


def kernel_adi(k, s):
    T, N = s["TSTEPS"], s["N"]
    u, v = k.array("u", [N, N]), k.array("v", [N, N])
    p, q = k.array("p", [N, N]), k.array("q", [N, N])
    one, two = k.one(), k.const(2)
    DX = k.div(one, k.const(N))
    DY = k.div(one, k.const(N))
    DT = k.div(one, k.const(T))
    B1, B2 = two, one
    mul1 = k.div(k.mul(B1, DT), k.mul(DX, DX))
    mul2 = k.div(k.mul(B2, DT), k.mul(DY, DY))
    a = k.div(k.neg(mul1), two)
    b = k.add(one, mul1)
    c = a
    d = k.div(k.neg(mul2), two)
    e = k.add(one, mul2)
    f = d
    k.loop("t", 1, T + 1)
    # Column sweep.
    i = k.loop("i", 1, N - 1).iv
    k.store(one, v, [0, i])
    k.store(k.zero(), p, [i, 0])
    k.store(k.load(v, [0, i]), q, [i, 0])
    j = k.loop("j", 1, N - 1).iv
    den = k.add(k.mul(a, k.load(p, [i, f"{j} - 1"])), b)
    k.store(k.div(k.neg(c), den), p, [i, j])
    t = k.mul(k.neg(d), k.load(u, [j, f"{i} - 1"]))
    t = k.add(t, k.mul(k.add(one, k.mul(two, d)), k.load(u, [j, i])))
    t = k.sub(t, k.mul(f, k.load(u, [j, f"{i} + 1"])))
    t = k.sub(t, k.mul(a, k.load(q, [i, f"{j} - 1"])))
    den = k.add(k.mul(a, k.load(p, [i, f"{j} - 1"])), b)
    k.store(k.div(t, den), q, [i, j])
    k.end()
    k.store(one, v, [N - 1, i])
    # for (j = N-2; j >= 1; j--): j = N-2-jj.
    jj = k.loop("jj", 0, N - 2).iv
    j = f"{N - 2} - {jj}"
    t = k.add(k.mul(k.load(p, [i, j]), k.load(v, [f"{N - 1} - {jj}", i])), k.load(q, [i, j]))
    k.store(t, v, [j, i])
    k.end()
    k.end()
    # Row sweep.
    i = k.loop("i", 1, N - 1).iv
    k.store(one, u, [i, 0])
    k.store(k.zero(), p, [i, 0])
    k.store(k.load(u, [i, 0]), q, [i, 0])
    j = k.loop("j", 1, N - 1).iv
    den = k.add(k.mul(d, k.load(p, [i, f"{j} - 1"])), e)
    k.store(k.div(k.neg(f), den), p, [i, j])
    t = k.mul(k.neg(a), k.load(v, [f"{i} - 1", j]))
    t = k.add(t, k.mul(k.add(one, k.mul(two, a)), k.load(v, [i, j])))
    t = k.sub(t, k.mul(c, k.load(v, [f"{i} + 1", j])))
    t = k.sub(t, k.mul(d, k.load(q, [i, f"{j} - 1"])))
    den = k.add(k.mul(d, k.load(p, [i, f"{j} - 1"])), e)
    k.store(k.div(t, den), q, [i, j])
    k.end()
    k.store(one, u, [i, N - 1])
    jj = k.loop("jj", 0, N - 2).iv
    j = f"{N - 2} - {jj}"
    t = k.add(k.mul(k.load(p, [i, j]), k.load(u, [i, f"{N - 1} - {jj}"])), k.load(q, [i, j]))
    k.store(t, u, [i, j])
    k.end()
    k.end()
    k.end()


def kernel_fdtd_2d(k, s):
    T, NX, NY = s["TMAX"], s["NX"], s["NY"]
    ex, ey, hz = k.array("ex", [NX, NY]), k.array("ey", [NX, NY]), k.array("hz", [NX, NY])
    fict = k.array("fict", [T])
    t = k.loop("t", 0, T).iv
    j = k.loop("j", 0, NY).iv
    k.store(k.load(fict, [t]), ey, [0, j])
    k.end()
    i = k.loop("i", 1, NX).iv
    j = k.loop("j", 0, NY).iv
    d = k.sub(k.load(hz, [i, j]), k.load(hz, [f"{i} - 1", j]))
    k.store(k.sub(k.load(ey, [i, j]), k.scale(d, 1, 2, 0.5)), ey, [i, j])
    k.end()
    k.end()
    i = k.loop("i", 0, NX).iv
    j = k.loop("j", 1, NY).iv
    d = k.sub(k.load(hz, [i, j]), k.load(hz, [i, f"{j} - 1"]))
    k.store(k.sub(k.load(ex, [i, j]), k.scale(d, 1, 2, 0.5)), ex, [i, j])
    k.end()
    k.end()
    i = k.loop("i", 0, NX - 1).iv
    j = k.loop("j", 0, NY - 1).iv
    d = k.sub(k.load(ex, [i, f"{j} + 1"]), k.load(ex, [i, j]))
    d = k.add(d, k.load(ey, [f"{i} + 1", j]))
    d = k.sub(d, k.load(ey, [i, j]))
    k.store(k.sub(k.load(hz, [i, j]), k.scale(d, 7, 10, 0.7)), hz, [i, j])
    k.end()
    k.end()
    k.end()


def _heat_step(k, A, B, N):
    i = k.loop("i", 1, N - 1).iv
    j = k.loop("j", 1, N - 1).iv
    kk = k.loop("k", 1, N - 1).iv

    def axis(lo, hi):
        t = k.sub(k.load(A, hi), k.mul(k.const(2), k.load(A, [i, j, kk])))
        return k.scale(k.add(t, k.load(A, lo)), 1, 8, 0.125)

    t = k.add(axis([f"{i} - 1", j, kk], [f"{i} + 1", j, kk]),
              axis([i, f"{j} - 1", kk], [i, f"{j} + 1", kk]))
    t = k.add(t, axis([i, j, f"{kk} - 1"], [i, j, f"{kk} + 1"]))
    k.store(k.add(t, k.load(A, [i, j, kk])), B, [i, j, kk])
    k.end()
    k.end()
    k.end()


def kernel_heat_3d(k, s):
    T, N = s["TSTEPS"], s["N"]
    A, B = k.array("A", [N, N, N]), k.array("B", [N, N, N])
    k.loop("t", 1, T + 1)
    _heat_step(k, A, B, N)
    _heat_step(k, B, A, N)
    k.end()


def _jacobi1_step(k, A, B, N):
    i = k.loop("i", 1, N - 1).iv
    t = k.add(k.add(k.load(A, [f"{i} - 1"]), k.load(A, [i])), k.load(A, [f"{i} + 1"]))
    if k.is_float:
        # 0.33333 is a double literal in C: the product is taken in f64.
        w = k.op(f"arith.extf {t} : f32 to f64")
        p = k.mul(k.const(0.33333, "f64"), w, "f64")
        r = k.op(f"arith.truncf {p} : f64 to f32")
    else:
        r = k.scale(t, 1, 3)
    k.store(r, B, [i])
    k.end()


def kernel_jacobi_1d(k, s):
    T, N = s["TSTEPS"], s["N"]
    A, B = k.array("A", [N]), k.array("B", [N])
    k.loop("t", 0, T)
    _jacobi1_step(k, A, B, N)
    _jacobi1_step(k, B, A, N)
    k.end()


def _jacobi2_step(k, A, B, N):
    i = k.loop("i", 1, N - 1).iv
    j = k.loop("j", 1, N - 1).iv
    t = k.add(k.load(A, [i, j]), k.load(A, [i, f"{j} - 1"]))
    t = k.add(t, k.load(A, [i, f"{j} + 1"]))
    t = k.add(t, k.load(A, [f"{i} + 1", j]))
    t = k.add(t, k.load(A, [f"{i} - 1", j]))
    k.store(k.scale(t, 1, 5, 0.2), B, [i, j])
    k.end()
    k.end()


def kernel_jacobi_2d(k, s):
    T, N = s["TSTEPS"], s["N"]
    A, B = k.array("A", [N, N]), k.array("B", [N, N])
    k.loop("t", 0, T)
    _jacobi2_step(k, A, B, N)
    _jacobi2_step(k, B, A, N)
    k.end()


def kernel_seidel_2d(k, s):
    T, N = s["TSTEPS"], s["N"]
    A = k.array("A", [N, N])
    k.loop("t", 0, T)
    i = k.loop("i", 1, N - 1).iv
    j = k.loop("j", 1, N - 1).iv
    t = None
    for di in ("- 1", "", "+ 1"):
        for dj in ("- 1", "", "+ 1"):
            x = k.load(A, [f"{i} {di}".strip(), f"{j} {dj}".strip()])
            t = x if t is None else k.add(t, x)
    if k.is_float:
        r = k.div(t, k.const(9.0))
    else:
        r = k.op(f"arith.divsi {t}, {k.const(9)} : i32")
    k.store(r, A, [i, j])
    k.end()
    k.end()
    k.end()


KERNELS = {name: globals()["kernel_" + name.replace("-", "_")] for name in SIZES}


def header(name, dataset, ty, sizes):
    dims = ", ".join(f"{k}={v}" for k, v in sizes.items())
    lines = [
        f"// PolyBench/C 4.2 {CATEGORY[name]}/{name}, {dataset} dataset ({dims}), {ty}.",
        "// Written by examples/polybench/gen.py (do not edit; run it again).",
    ]
    if ty == "i32":
        lines.append("// i32 variant: wrapping integer arithmetic; see gen.py for constants and divisions.")
    return "\n".join(lines)


def render(name, dataset, ty, sizes=None):
    """The kernel's file at a dataset's sizes (or at `sizes`, a dict of
    the dataset's parameters, for other uses than this directory)."""
    sizes = sizes or SIZES[name][0 if dataset == "MINI" else 1]
    k = Kernel(top_name(name), ty)
    KERNELS[name](k, sizes)
    return k.text(header(name, dataset, ty, sizes))


def files():
    """Every (relative path, text) this script writes."""
    out = []
    for name in sorted(SIZES):
        for dataset in ("MINI", "SMALL"):
            for ty in ("f32", "i32", "f64"):
                if ty == "i32" and name in FLOAT_ONLY:
                    continue
                if ty == "f64" and name not in F64_KERNELS:
                    continue
                path = os.path.join(dataset.lower(), f"{name}.{ty}.mlir")
                out.append((path, render(name, dataset, ty)))
    return out


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for path, text in files():
        full = os.path.join(HERE, path)
        if check:
            try:
                with open(full) as f:
                    if f.read() != text:
                        stale.append(path)
            except FileNotFoundError:
                stale.append(path)
            continue
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
    if stale:
        print("out of date: " + ", ".join(stale))
        sys.exit(1)


if __name__ == "__main__":
    main()
