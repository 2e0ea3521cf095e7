#!/usr/bin/env python3
"""Generates random MLIR files that use only builtin types, builtin
attributes, locations (nested, as attribute values and as op locations)
and unregistered ops, for differential tests of the textual format
against mlir-opt-22 (`bench/format_diff.py`).

Usage: python3 bench/gen_builtin.py SEED [--ops N]  (file on stdout)
"""
import argparse
import random

INT_WIDTHS = [1, 2, 7, 8, 16, 32, 33, 64, 129]
FLOATS = ["f16", "bf16", "f32", "f64", "f80", "f128", "tf32", "f8E4M3FN", "f8E5M2"]


class Gen:
    def __init__(self, rng):
        self.r = rng
        self.file_names = ["a.mlir", "b.c", "kernel.cc"]
        self.names = ["x", "y", "callee", "loop", "n"]
        self.alias = False

    def pick(self, xs):
        return self.r.choice(xs)

    # Types -----------------------------------------------------------------
    def int_type(self):
        return self.pick(["i", "si", "ui"]) + str(self.pick(INT_WIDTHS))

    def scalar_type(self):
        k = self.r.randrange(4)
        if k == 0:
            return self.int_type()
        if k == 1:
            return self.pick(FLOATS)
        if k == 2:
            return "index"
        return "i" + str(self.pick(INT_WIDTHS))

    def shape(self, dynamic=True):
        dims = [self.pick(["?"] if dynamic and self.r.random() < 0.3 else [str(self.r.randrange(1, 9))])
                for _ in range(self.r.randrange(0, 4))]
        return "".join(d + "x" for d in dims)

    def type(self, depth=0):
        k = self.r.randrange(10 if depth < 2 else 3)
        if k < 3:
            return self.scalar_type()
        if k == 3:
            return "vector<" + str(self.r.randrange(1, 9)) + "x" + self.pick(["f32", "i8", "i1"]) + ">"
        if k == 4:
            return "tensor<" + self.shape() + self.scalar_type() + ">"
        if k == 5:
            return "memref<" + self.shape(dynamic=False) + self.pick(["f32", "i32"]) + \
                self.pick(["", ", 1", ", strided<[1]>" if False else ""]) + ">"
        if k == 6:
            return "tuple<" + ", ".join(self.type(depth + 1) for _ in range(self.r.randrange(0, 3))) + ">"
        if k == 7:
            return "complex<" + self.pick(["f32", "f64", "i16"]) + ">"
        if k == 8:
            return "(" + ", ".join(self.type(depth + 1) for _ in range(self.r.randrange(0, 3))) + ") -> " + \
                self.pick(["i32", "(f32, f32)", "()"])
        return "none"

    # Locations -------------------------------------------------------------
    def loc_body(self, depth=0):
        k = self.r.randrange(7 if depth < 3 else 3)
        if k == 0:
            return "unknown"
        if k == 1:
            return '"%s":%d:%d' % (self.pick(self.file_names), self.r.randrange(1, 40), self.r.randrange(1, 20))
        if k == 2:
            return '"%s"' % self.pick(self.names)
        if k == 3:
            return '"%s"(%s)' % (self.pick(self.names), self.loc_body(depth + 1))
        if k == 4:
            return "callsite(%s at %s)" % (self.loc_body(depth + 1), self.loc_body(depth + 1))
        if k == 5:
            meta = self.pick(["", '<"m">', "<#map%d>" % self.r.randrange(2), "<[1, 2]>"])
            return "fused%s[%s]" % (meta, ", ".join(self.loc_body(depth + 1) for _ in range(self.r.randrange(1, 4))))
        return '"%s":%d:%d to %d:%d' % (self.pick(self.file_names), 3, 4, 5, 6)

    def loc(self):
        return "loc(" + self.loc_body() + ")"

    # Attributes ------------------------------------------------------------
    def float_literal(self, t):
        k = self.r.randrange(4)
        if k == 0:
            return "%d.%d" % (self.r.randrange(-100, 100), self.r.randrange(1000))
        if k == 1:
            return "%d.%de%d" % (self.r.randrange(1, 9), self.r.randrange(100), self.r.randrange(-30, 30))
        if k == 2:
            return "0.1"
        return "1.000000e-07"

    def attr(self, depth=0):
        k = self.r.randrange(14 if depth < 3 else 6)
        if k == 0:
            t = "i" + str(self.pick(INT_WIDTHS))
            w = int(t[1:])
            return "%d : %s" % (self.r.randrange(0, 2 ** min(w, 20)) - (1 if w > 1 and self.r.random() < 0.2 else 0), t)
        if k == 1:
            t = self.pick(FLOATS[:6])
            return "%s : %s" % (self.float_literal(t), t)
        if k == 2:
            return '"%s"' % self.pick(["s", "hello world", "\\n", ""])
        if k == 3:
            return self.loc()
        if k == 4:
            return self.type()
        if k == 5:
            return self.pick(["unit", "true", "false", "@sym", "@a::@b"])
        if k == 6:
            return "[" + ", ".join(self.attr(depth + 1) for _ in range(self.r.randrange(0, 4))) + "]"
        if k == 7:
            return "{" + ", ".join("k%d = %s" % (i, self.attr(depth + 1)) for i in range(self.r.randrange(0, 3))) + "}"
        if k == 8:
            return "affine_map<(d0, d1)[s0] -> (d0 + s0, d1 * %d)>" % self.r.randrange(1, 5)
        if k == 9:
            return "affine_set<(d0) : (d0 - %d >= 0)>" % self.r.randrange(0, 5)
        if k == 10:
            return "dense<[%d, %d]> : tensor<2xi32>" % (self.r.randrange(9), self.r.randrange(9))
        if k == 11:
            return "array<i32: %d, %d>" % (self.r.randrange(9), self.r.randrange(9))
        if k == 12:
            return "#map%d" % self.r.randrange(2)
        return "[%s, %s]" % (self.loc(), self.attr(depth + 1))

    # Ops -------------------------------------------------------------------
    def op(self, values, indent, depth):
        n_res = self.r.randrange(0, 3)
        operands = self.r.sample(values, min(len(values), self.r.randrange(0, 3)))
        res_types = [self.type() for _ in range(n_res)]
        attrs = ", ".join("a%d = %s" % (i, self.attr()) for i in range(self.r.randrange(0, 4)))
        props = ""
        if self.r.random() < 0.2:
            props = " <{p = %s}>" % self.attr()
        regions = ""
        if depth < 2 and self.r.random() < 0.2:
            inner = []
            for _ in range(self.r.randrange(1, 3)):
                inner.append(self.op([], indent + "  ", depth + 1)[0])
            regions = " ({\n" + "\n".join(inner) + "\n" + indent + "})"
        names = ["%%v%d" % self.r.randrange(10 ** 6) for _ in range(n_res)]
        lhs = (", ".join(names) + " = ") if names else ""
        roll = self.r.random()
        loc = (" " + self.loc()) if roll < 0.5 else (" loc(#loc_alias)" if self.alias and roll < 0.6 else "")
        text = '%s%s"test.op%d"(%s)%s%s%s : (%s) -> (%s)%s' % (
            indent, lhs, self.r.randrange(5), ", ".join(v for v, _ in operands), props, regions,
            (" {" + attrs + "}") if attrs else "", ", ".join(t for _, t in operands),
            ", ".join(res_types), loc)
        return text, list(zip(names, res_types))

    def module(self, n_ops):
        out = ["#map0 = affine_map<(d0) -> (d0 + 1)>", "#map1 = affine_map<(d0, d1) -> (d1, d0)>"]
        self.alias = self.r.random() < 0.5
        if self.alias:
            out.append("#loc_alias = " + self.loc())
        values = []
        body = []
        for _ in range(n_ops):
            text, defs = self.op(values, "  ", 0)
            body.append(text)
            values.extend(defs)
        out.append('"test.module"() ({')
        out.extend(body)
        out.append("}) : () -> ()")
        return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("--ops", type=int, default=6)
    a = ap.parse_args()
    print(Gen(random.Random(a.seed)).module(a.ops), end="")


if __name__ == "__main__":
    main()
