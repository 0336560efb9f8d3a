#!/usr/bin/env python3
"""Generate summa's example models: transformer blocks in `linalg` on tensors.

The output is one public `func.func` written the way torch-mlir emits it:
`linalg.matmul` on zero-filled accumulators, bias adds, GeLU, LayerNorm and
softmax as `linalg.generic` ops with explicit indexing maps, attention heads
through `tensor.expand_shape` / `tensor.collapse_shape`.

    python3 examples/generate.py KIND [options] [-o FILE]

KIND is `mlp`, `attention`, `layer` (one pre-LN GPT-2 block) or `gpt`
(N layers, then a final LayerNorm). See examples/README.md for the
conventions the summa compiler relies on. Standard library only.
"""

import argparse
import shlex
import struct
import sys

KINDS = ("mlp", "attention", "layer", "gpt")
DEFAULT_NAMES = {"mlp": "mlp", "attention": "attention", "layer": "gpt_layer", "gpt": "gpt"}

# Bit patterns of -inf, printed as hex float literals.
NEG_INF = {"f32": "0xFF800000", "f16": "0xFC00", "bf16": "0xFF80"}

LN_EPS = 1e-5
LN_STEPS = ("  sum over hidden; mean = sum / H; c = in - mean; var = sum(c·c) / H;",
            "  rstd = rsqrt(var + eps); out = c·rstd·gamma + beta")

# Affine maps, printed as `#alias = affine_map<...>` at the top of the file
# (only the ones a model uses, in this order).
MAPS = [
    ("id", "(d0, d1) -> (d0, d1)"),
    ("bias", "(d0, d1) -> (d1)"),
    ("row", "(d0, d1) -> (d0)"),
    ("vec", "(d0) -> (d0)"),
    ("id4", "(d0, d1, d2, d3) -> (d0, d1, d2, d3)"),
    ("last4", "(d0, d1, d2, d3) -> (d0, d1, d2)"),
    ("qk_q", "(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)"),
    ("qk_k", "(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)"),
    ("qk_s", "(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)"),
    ("pv_p", "(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)"),
    ("pv_v", "(d0, d1, d2, d3, d4) -> (d0, d4, d1, d3)"),
    ("pv_c", "(d0, d1, d2, d3, d4) -> (d0, d2, d1, d3)"),
]

# Names used inside linalg.generic bodies. Nested regions share the SSA name
# scope of the function, so function-level values never take these names.
BODY_NAMES = {
    "in", "acc", "out", "b", "r", "s", "t", "m", "d", "ex", "sq", "v", "ve",
    "n", "gm", "bt", "mx", "sm", "i", "j", "scale", "minf", "masked", "hid",
    "eps", "half", "one", "c", "k", "x2", "x3", "kx3", "inner", "scaled",
    "onept", "hx", "res", "q", "e", "rsqrt2", "xs",
}


def float_literal(value, dtype):
    """A float literal MLIR parses: `1.000000e+00` style, more digits when
    six decimals would not give back the f32 value."""
    text = "%.6e" % value
    if dtype == "f32":
        as_f32 = struct.unpack("f", struct.pack("f", value))[0]
        if struct.unpack("f", struct.pack("f", float(text)))[0] != as_f32:
            text = "%.8e" % value
    return text


class Func:
    """Accumulates the body of one func.func with unique SSA names."""

    def __init__(self, dtype):
        self.dt = dtype
        self.lines = []
        self.used_names = set()
        self.used_maps = set()

    # -- types and names ---------------------------------------------------

    def ty(self, *shape):
        return "tensor<%s>" % "x".join([str(d) for d in shape] + [self.dt])

    def name(self, base):
        """A fresh function-level SSA name (without `%`)."""
        cand, n = base, 1
        while cand in self.used_names or cand in BODY_NAMES:
            cand = "%s_%d" % (base, n)
            n += 1
        self.used_names.add(cand)
        return cand

    def const(self, value):
        return float_literal(value, self.dt)

    def emit(self, line=""):
        self.lines.append(line)

    def comment(self, *lines):
        self.emit()
        for text in lines:
            self.emit("  // " + text)

    # -- ops ---------------------------------------------------------------

    def empty(self, base, shape):
        e = self.name(base)
        self.emit("  %%%s = tensor.empty() : %s" % (e, self.ty(*shape)))
        return e

    def fill(self, base, value, shape):
        """tensor.empty + linalg.fill with the scalar SSA value `value`."""
        e = self.empty(base + "_e", shape)
        f = self.name(base + "_init")
        t = self.ty(*shape)
        self.emit("  %%%s = linalg.fill ins(%%%s : %s) outs(%%%s : %s) -> %s"
                  % (f, value, self.dt, e, t, t))
        return f

    def generic(self, base, maps, iters, ins, out, args, body, out_shape):
        """One linalg.generic.

        ins: [(value, shape)]; out: value of the init (a tensor.empty or a
        fill); args: block argument names; body: lines (without indent)
        ending in the value to yield, given as the last element `yield`.
        """
        for m in maps:
            self.used_maps.add(m)
        res = self.name(base)
        head = "  %%%s = linalg.generic {" % res
        pad = " " * len(head)
        self.emit(head + "indexing_maps = [%s],"
                  % ", ".join("#" + m for m in maps))
        self.emit(pad + "iterator_types = [%s]}"
                  % ", ".join('"%s"' % it for it in iters))
        self.emit("      ins(%s : %s)"
                  % (", ".join("%" + v for v, _ in ins),
                     ", ".join(self.ty(*s) for _, s in ins)))
        out_ty = self.ty(*out_shape)
        self.emit("      outs(%%%s : %s) {" % (out, out_ty))
        self.emit("  ^bb0(%s):" % ", ".join("%%%s: %s" % (a, self.dt) for a in args))
        *ops, result = body
        for op in ops:
            self.emit("    " + op)
        self.emit("    linalg.yield %%%s : %s" % (result, self.dt))
        self.emit("  } -> %s" % out_ty)
        return res

    def matmul(self, base, a, w, m, k, n):
        """%base_mm = A[m,k] · W[k,n] on a zero-filled accumulator."""
        acc = self.fill(base + "_mm", "zero", (m, n))
        mm = self.name(base + "_mm")
        head = "  %%%s = linalg.matmul " % mm
        self.emit(head + "ins(%%%s, %%%s : %s, %s)"
                  % (a, w, self.ty(m, k), self.ty(k, n)))
        self.emit(" " * len(head) + "outs(%%%s : %s) -> %s"
                  % (acc, self.ty(m, n), self.ty(m, n)))
        return mm

    def bias_add(self, base, x, b, m, n):
        dt = self.dt
        e = self.empty(base + "_e", (m, n))
        return self.generic(
            base, ["id", "bias", "id"], ["parallel", "parallel"],
            [(x, (m, n)), (b, (n,))], e, ["in", "b", "out"],
            ["%%s = arith.addf %%in, %%b : %s" % dt, "s"], (m, n))

    def linear(self, base, x, w, b, m, k, n):
        mm = self.matmul(base, x, w, m, k, n)
        return self.bias_add(base, mm, b, m, n)

    def add(self, base, x, y, m, n):
        dt = self.dt
        e = self.empty(base + "_e", (m, n))
        return self.generic(
            base, ["id", "id", "id"], ["parallel", "parallel"],
            [(x, (m, n)), (y, (m, n))], e, ["in", "res", "out"],
            ["%%s = arith.addf %%in, %%res : %s" % dt, "s"], (m, n))

    def gelu(self, base, x, m, n, form):
        dt = self.dt
        e = self.empty(base + "_e", (m, n))
        if form == "tanh":
            # Same scalars as examples/mlp.mlir.
            body = [
                "%%half = arith.constant 5.000000e-01 : %s" % dt,
                "%%one = arith.constant 1.000000e+00 : %s" % dt,
                "%%c = arith.constant 0.797884583 : %s" % dt,
                "%%k = arith.constant 4.471500e-02 : %s" % dt,
                "%%x2 = arith.mulf %%in, %%in : %s" % dt,
                "%%x3 = arith.mulf %%x2, %%in : %s" % dt,
                "%%kx3 = arith.mulf %%k, %%x3 : %s" % dt,
                "%%inner = arith.addf %%in, %%kx3 : %s" % dt,
                "%%scaled = arith.mulf %%c, %%inner : %s" % dt,
                "%%t = math.tanh %%scaled : %s" % dt,
                "%%onept = arith.addf %%one, %%t : %s" % dt,
                "%%hx = arith.mulf %%half, %%in : %s" % dt,
                "%%r = arith.mulf %%hx, %%onept : %s" % dt,
                "r",
            ]
        else:
            body = [
                "%%half = arith.constant 5.000000e-01 : %s" % dt,
                "%%one = arith.constant 1.000000e+00 : %s" % dt,
                "%%rsqrt2 = arith.constant %s : %s" % (self.const(0.5 ** 0.5), dt),
                "%%xs = arith.mulf %%in, %%rsqrt2 : %s" % dt,
                "%%t = math.erf %%xs : %s" % dt,
                "%%onept = arith.addf %%one, %%t : %s" % dt,
                "%%hx = arith.mulf %%half, %%in : %s" % dt,
                "%%r = arith.mulf %%hx, %%onept : %s" % dt,
                "r",
            ]
        return self.generic(base, ["id", "id"], ["parallel", "parallel"],
                            [(x, (m, n))], e, ["in", "out"], body, (m, n))

    def layer_norm(self, base, x, gamma, beta, m, h):
        """LayerNorm over the hidden dim, decomposed as torch-mlir does."""
        dt = self.dt
        hc = self.const(float(h))
        # (1) sum over hidden
        init = self.fill(base + "_sum", "zero", (m,))
        s = self.generic(base + "_sum", ["id", "row"], ["parallel", "reduction"],
                         [(x, (m, h))], init, ["in", "acc"],
                         ["%%s = arith.addf %%in, %%acc : %s" % dt, "s"], (m,))
        # (2) mean = sum / H
        e = self.empty(base + "_mean_e", (m,))
        mean = self.generic(base + "_mean", ["vec", "vec"], ["parallel"],
                            [(s, (m,))], e, ["in", "out"],
                            ["%%hid = arith.constant %s : %s" % (hc, dt),
                             "%%r = arith.divf %%in, %%hid : %s" % dt, "r"], (m,))
        # (3) centered = x - mean
        e = self.empty(base + "_c_e", (m, h))
        c = self.generic(base + "_c", ["id", "row", "id"], ["parallel", "parallel"],
                         [(x, (m, h)), (mean, (m,))], e, ["in", "mx", "out"],
                         ["%%d = arith.subf %%in, %%mx : %s" % dt, "d"], (m, h))
        # (4) sum of squares of the centered values
        init = self.fill(base + "_var", "zero", (m,))
        v = self.generic(base + "_var", ["id", "row"], ["parallel", "reduction"],
                         [(c, (m, h))], init, ["in", "acc"],
                         ["%%sq = arith.mulf %%in, %%in : %s" % dt,
                          "%%s = arith.addf %%sq, %%acc : %s" % dt, "s"], (m,))
        # (5) rstd = rsqrt(var_sum / H + eps)
        e = self.empty(base + "_rstd_e", (m,))
        rstd = self.generic(base + "_rstd", ["vec", "vec"], ["parallel"],
                            [(v, (m,))], e, ["in", "out"],
                            ["%%hid = arith.constant %s : %s" % (hc, dt),
                             "%%eps = arith.constant %s : %s" % (self.const(LN_EPS), dt),
                             "%%v = arith.divf %%in, %%hid : %s" % dt,
                             "%%ve = arith.addf %%v, %%eps : %s" % dt,
                             "%%r = math.rsqrt %%ve : %s" % dt, "r"], (m,))
        # (6) y = centered * rstd * gamma + beta
        e = self.empty(base + "_e", (m, h))
        return self.generic(
            base, ["id", "row", "bias", "bias", "id"], ["parallel", "parallel"],
            [(c, (m, h)), (rstd, (m,)), (gamma, (h,)), (beta, (h,))], e,
            ["in", "r", "gm", "bt", "out"],
            ["%%n = arith.mulf %%in, %%r : %s" % dt,
             "%%s = arith.mulf %%n, %%gm : %s" % dt,
             "%%t = arith.addf %%s, %%bt : %s" % dt, "t"], (m, h))


# -- model pieces ------------------------------------------------------------

def layer_params(prefix, with_mlp=True):
    """(name, short name, role) of one layer's parameters, in argument order."""
    names = [("ln1_gamma", "bias"), ("ln1_beta", "bias"),
             ("wq", "weight"), ("bq", "bias"), ("wk", "weight"), ("bk", "bias"),
             ("wv", "weight"), ("bv", "bias"), ("wo", "weight"), ("bo", "bias")]
    if with_mlp:
        names += [("ln2_gamma", "bias"), ("ln2_beta", "bias"),
                  ("w1", "weight"), ("b1", "bias"), ("w2", "weight"), ("b2", "bias")]
    return [(prefix + n, n, r) for n, r in names]


def param_shape(short, cfg):
    h, f = cfg.hidden, cfg.ffn
    return {
        "wq": (h, h), "wk": (h, h), "wv": (h, h), "wo": (h, h),
        "w1": (h, f), "w2": (f, h), "b1": (f,),
    }.get(short, (h,))


def attention_block(fn, cfg, x, p, pre):
    """x + Wo·Attention(LN1(x)) + bo. `p` maps parameter short names to SSA
    names; `pre` prefixes value names."""
    b, s, h, nh = cfg.batch, cfg.seq, cfg.hidden, cfg.heads
    d, t, dt = h // nh, cfg.batch * cfg.seq, fn.dt

    fn.comment("LN1 = LayerNorm(%%%s) over the hidden dim:" % x, *LN_STEPS)
    ln = fn.layer_norm(pre + "ln1", x, p["ln1_gamma"], p["ln1_beta"], t, h)

    fn.comment("Q, K, V = LN1·Wq + bq, LN1·Wk + bk, LN1·Wv + bv")
    heads = {}
    for n, full in (("q", "query"), ("k", "key"), ("v", "value")):
        proj = fn.linear(pre + full, ln, p["w" + n], p["b" + n], t, h, h)
        hh = fn.name(pre + full + "_heads")
        fn.emit("  %%%s = tensor.expand_shape %%%s [[0, 1], [2, 3]] output_shape [%d, %d, %d, %d]"
                " : %s into %s" % (hh, proj, b, s, nh, d, fn.ty(t, h), fn.ty(b, s, nh, d)))
        heads[n] = hh

    fn.comment("scores[b, h, i, j] = sum_d Q[b, i, h, d] * K[b, j, h, d]")
    init = fn.fill(pre + "scores", "zero", (b, nh, s, s))
    scores = fn.generic(
        pre + "scores", ["qk_q", "qk_k", "qk_s"], ["parallel"] * 4 + ["reduction"],
        [(heads["q"], (b, s, nh, d)), (heads["k"], (b, s, nh, d))], init,
        ["in", "k", "acc"],
        ["%%m = arith.mulf %%in, %%k : %s" % dt,
         "%%s = arith.addf %%m, %%acc : %s" % dt, "s"], (b, nh, s, s))

    fn.comment("scale by 1/sqrt(%d), causal mask: -inf where j > i" % d)
    e = fn.empty(pre + "logits_e", (b, nh, s, s))
    masked = fn.generic(
        pre + "logits", ["id4", "id4"], ["parallel"] * 4,
        [(scores, (b, nh, s, s))], e, ["in", "out"],
        ["%i = linalg.index 2 : index",
         "%j = linalg.index 3 : index",
         "%%scale = arith.constant %s : %s" % (fn.const(d ** -0.5), dt),
         "%%minf = arith.constant %s : %s" % (NEG_INF[dt], dt),
         "%%v = arith.mulf %%in, %%scale : %s" % dt,
         "%masked = arith.cmpi ugt, %j, %i : index",
         "%%r = arith.select %%masked, %%minf, %%v : %s" % dt, "r"], (b, nh, s, s))

    shape4 = (b, nh, s, s)
    if cfg.softmax == "named":
        fn.comment("P = softmax over j")
        e = fn.empty(pre + "probs_e", shape4)
        probs = fn.name(pre + "probs")
        fn.emit("  %%%s = linalg.softmax dimension(3) ins(%%%s : %s) outs(%%%s : %s) -> %s"
                % (probs, masked, fn.ty(*shape4), e, fn.ty(*shape4), fn.ty(*shape4)))
    else:
        fn.comment("P = softmax over j: max, exp(s - max), sum, divide")
        init = fn.fill(pre + "smax", "ninf", (b, nh, s))
        mx = fn.generic(
            pre + "smax", ["id4", "last4"], ["parallel"] * 3 + ["reduction"],
            [(masked, shape4)], init, ["in", "acc"],
            ["%%m = arith.maximumf %%in, %%acc : %s" % dt, "m"], (b, nh, s))
        e = fn.empty(pre + "sexp_e", shape4)
        ex = fn.generic(
            pre + "sexp", ["id4", "last4", "id4"], ["parallel"] * 4,
            [(masked, shape4), (mx, (b, nh, s))], e, ["in", "mx", "out"],
            ["%%d = arith.subf %%in, %%mx : %s" % dt,
             "%%ex = math.exp %%d : %s" % dt, "ex"], shape4)
        init = fn.fill(pre + "ssum", "zero", (b, nh, s))
        sm = fn.generic(
            pre + "ssum", ["id4", "last4"], ["parallel"] * 3 + ["reduction"],
            [(ex, shape4)], init, ["in", "acc"],
            ["%%s = arith.addf %%in, %%acc : %s" % dt, "s"], (b, nh, s))
        e = fn.empty(pre + "probs_e", shape4)
        probs = fn.generic(
            pre + "probs", ["id4", "last4", "id4"], ["parallel"] * 4,
            [(ex, shape4), (sm, (b, nh, s))], e, ["in", "sm", "out"],
            ["%%r = arith.divf %%in, %%sm : %s" % dt, "r"], shape4)

    fn.comment("context[b, i, h, d] = sum_j P[b, h, i, j] * V[b, j, h, d]")
    init = fn.fill(pre + "ctx", "zero", (b, s, nh, d))
    ctx = fn.generic(
        pre + "ctx", ["pv_p", "pv_v", "pv_c"], ["parallel"] * 4 + ["reduction"],
        [(probs, shape4), (heads["v"], (b, s, nh, d))], init,
        ["in", "v", "acc"],
        ["%%m = arith.mulf %%in, %%v : %s" % dt,
         "%%s = arith.addf %%m, %%acc : %s" % dt, "s"], (b, s, nh, d))
    merged = fn.name(pre + "ctx_merged")
    fn.emit("  %%%s = tensor.collapse_shape %%%s [[0, 1], [2, 3]] : %s into %s"
            % (merged, ctx, fn.ty(b, s, nh, d), fn.ty(t, h)))

    fn.comment("A = context·Wo + bo, then the residual: %%%s + A" % x)
    proj = fn.linear(pre + "attn", merged, p["wo"], p["bo"], t, h, h)
    return fn.add(pre + "h", x, proj, t, h)


def mlp_block(fn, cfg, x, p, pre):
    """x + W2·GeLU(W1·LN2(x) + b1) + b2."""
    t, h, f = cfg.batch * cfg.seq, cfg.hidden, cfg.ffn
    fn.comment("LN2 = LayerNorm(%%%s) over the hidden dim:" % x, *LN_STEPS)
    ln = fn.layer_norm(pre + "ln2", x, p["ln2_gamma"], p["ln2_beta"], t, h)
    fn.comment("U = GeLU(LN2·W1 + b1), GeLU in %s form" % cfg.gelu)
    u = fn.linear(pre + "fc1", ln, p["w1"], p["b1"], t, h, f)
    g = fn.gelu(pre + "gelu", u, t, f, cfg.gelu)
    fn.comment("M = U·W2 + b2, then the residual: %%%s + M" % x)
    m = fn.linear(pre + "fc2", g, p["w2"], p["b2"], t, f, h)
    return fn.add(pre + "y", x, m, t, h)


def mlp_only(fn, cfg, x, p):
    """Y = GeLU(X·W1 + b1)·W2 + b2 + X, structured as examples/mlp.mlir."""
    t, h, f, dt = cfg.batch * cfg.seq, cfg.hidden, cfg.ffn, fn.dt
    fn.comment("H = X·W1 + b1")
    hid = fn.linear("h", x, p["w1"], p["b1"], t, h, f)
    fn.comment("G = GeLU(H), %s form" % cfg.gelu)
    g = fn.gelu("g", hid, t, f, cfg.gelu)
    fn.comment("Y = G·W2 + b2 + X")
    mm = fn.matmul("y", g, p["w2"], t, f, h)
    e = fn.empty("y_e", (t, h))
    return fn.generic(
        "y", ["id", "bias", "id", "id"], ["parallel", "parallel"],
        [(mm, (t, h)), (p["b2"], (h,)), (x, (t, h))], e,
        ["in", "b", "res", "out"],
        ["%%s = arith.addf %%in, %%b : %s" % dt,
         "%%t = arith.addf %%s, %%res : %s" % dt, "t"], (t, h))


# -- whole function ----------------------------------------------------------

def build(cfg):
    fn = Func(cfg.dtype)
    t, h = cfg.batch * cfg.seq, cfg.hidden

    # Arguments, in the order of the conventions.
    args = [("x", "x", "activation")]
    if cfg.kind == "mlp":
        args += [("w1", "w1", "weight"), ("b1", "b1", "bias"),
                 ("w2", "w2", "weight"), ("b2", "b2", "bias")]
    elif cfg.kind == "attention":
        args += layer_params("", with_mlp=False)
    elif cfg.kind == "layer":
        args += layer_params("")
    else:
        for i in range(cfg.layers):
            args += layer_params("l%d_" % i)
        args += [("lnf_gamma", "lnf_gamma", "bias"), ("lnf_beta", "lnf_beta", "bias")]
    for a, _, _ in args:
        fn.used_names.add(a)

    fn.emit("  %%zero = arith.constant %s : %s" % (fn.const(0.0), fn.dt))
    fn.used_names.add("zero")
    if cfg.kind != "mlp" and cfg.softmax == "decomposed":
        fn.emit("  %%ninf = arith.constant %s : %s" % (NEG_INF[fn.dt], fn.dt))
        fn.used_names.add("ninf")

    if cfg.kind == "mlp":
        y = mlp_only(fn, cfg, "x", {a: a for a, _, _ in args})
    elif cfg.kind == "attention":
        y = attention_block(fn, cfg, "x", {a: a for a, _, _ in args}, "")
    elif cfg.kind == "layer":
        p = {a: a for a, _, _ in args}
        y = attention_block(fn, cfg, "x", p, "")
        y = mlp_block(fn, cfg, y, p, "")
    else:
        y = "x"
        for i in range(cfg.layers):
            pre = "l%d_" % i
            p = {short: a for a, short, _ in args if a.startswith(pre)}
            fn.emit()
            fn.emit("  // ===== layer %d =====" % i)
            y = attention_block(fn, cfg, y, p, pre)
            y = mlp_block(fn, cfg, y, p, pre)
        fn.emit()
        fn.emit("  // ===== final LayerNorm =====")
        fn.comment("LNF = LayerNorm(%%%s) over the hidden dim:" % y, *LN_STEPS)
        y = fn.layer_norm("lnf", y, "lnf_gamma", "lnf_beta", t, h)
    fn.emit("  return %%%s : %s" % (y, fn.ty(t, h)))

    # Signature.
    def arg_shape(short):
        if short == "x":
            return (t, h)
        return param_shape(short, cfg)

    sig = ["func.func @%s(" % cfg.name]
    pad = " " * len(sig[0])
    arg_text = ["%%%s: %s {summa.role = \"%s\"}" % (a, fn.ty(*arg_shape(short)), r)
                for a, short, r in args]
    lines = []
    for i, a in enumerate(arg_text):
        end = "," if i + 1 < len(arg_text) else ")"
        lines.append(("" if i == 0 else pad) + a + end)
    lines[0] = sig[0] + lines[0]
    lines.append("    -> %s {" % fn.ty(t, h))

    maps = ["#%s = affine_map<%s>" % (n, m) for n, m in MAPS if n in fn.used_maps]
    return maps, lines, fn.lines


def header(cfg, command):
    t, h = cfg.batch * cfg.seq, cfg.hidden
    what = {
        "mlp": "A transformer MLP block, Y = GeLU(X·W1 + b1)·W2 + b2 + X (no LayerNorm).",
        "attention": "The attention half of a pre-LN GPT-2 block: "
                     "Y = X + Attention(LayerNorm(X))·Wo + bo, causal.",
        "layer": "One pre-LN GPT-2 block: H = X + Attn(LN1(X)); "
                 "Y = H + MLP(LN2(H)), causal attention.",
        "gpt": "A %d-layer pre-LN GPT-2 stack (blocks chained), then a final "
               "LayerNorm." % cfg.layers,
    }[cfg.kind]
    out = ["// " + what,
           "// Written as torch-mlir emits it (linalg on tensors). Generated, do not edit:",
           "//   " + command,
           "//"]
    dims = "// Tokens T = batch·seq = %d·%d = %d (token t = b·seq + s), hidden %d" % (
        cfg.batch, cfg.seq, t, h)
    if cfg.kind in ("attention", "layer", "gpt"):
        dims += ", heads %d of dim %d" % (cfg.heads, h // cfg.heads)
    if cfg.kind != "attention":
        dims += ", ffn %d" % cfg.ffn
    if cfg.kind == "gpt":
        dims += ", %d layers" % cfg.layers
    dims += ", %s." % cfg.dtype
    out.append(dims)
    opts = []
    if cfg.kind != "mlp":
        opts.append("Softmax %s, LayerNorm eps 1e-5" % cfg.softmax)
    if cfg.kind != "attention":
        opts.append("GeLU in %s form" % cfg.gelu)
    out.append("// " + "; ".join(opts) + ".")
    out.append("// Arguments carry summa.role = \"activation\" | \"weight\" | \"bias\"; "
               "weights are [in, out].")
    return out


def canonical_command(cfg, output):
    argv = ["python3", "examples/generate.py", cfg.kind]
    if cfg.kind == "gpt":
        argv += ["--layers", str(cfg.layers)]
    argv += ["--batch", str(cfg.batch), "--seq", str(cfg.seq), "--hidden", str(cfg.hidden)]
    if cfg.kind != "mlp":
        argv += ["--heads", str(cfg.heads)]
    if cfg.kind != "attention":
        argv += ["--ffn", str(cfg.ffn)]
    argv += ["--dtype", cfg.dtype]
    if cfg.kind != "mlp":
        argv += ["--softmax", cfg.softmax]
    if cfg.kind != "attention":
        argv += ["--gelu", cfg.gelu]
    if cfg.name != DEFAULT_NAMES[cfg.kind]:
        argv += ["--name", cfg.name]
    if output:
        argv += ["-o", output]
    return shlex.join(argv)


def generate(cfg, output=None):
    maps, sig, body = build(cfg)
    text = header(cfg, canonical_command(cfg, output))
    text.append("")
    text += maps
    text.append("")
    text += sig
    text += body
    text.append("}")
    return "\n".join(text) + "\n"


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="generate.py",
        description="Generate a transformer block in linalg on tensors "
                    "(torch-mlir style) for summa.")
    ap.add_argument("kind", choices=KINDS,
                    help="mlp | attention | layer (one pre-LN GPT-2 block) | "
                         "gpt (N layers + final LayerNorm)")
    ap.add_argument("--layers", type=int, default=2, help="layers of kind gpt (default 2)")
    ap.add_argument("--hidden", type=int, default=32, help="hidden size H (default 32)")
    ap.add_argument("--heads", type=int, default=4, help="attention heads (default 4)")
    ap.add_argument("--ffn", type=int, default=None, help="MLP inner size F (default 4·H)")
    ap.add_argument("--seq", type=int, default=8, help="sequence length (default 8)")
    ap.add_argument("--batch", type=int, default=4, help="sequences per batch (default 4)")
    ap.add_argument("--dtype", choices=("f32", "f16", "bf16"), default="f32")
    ap.add_argument("--softmax", choices=("decomposed", "named"), default="decomposed",
                    help="softmax as four linalg.generic ops (default) or linalg.softmax")
    ap.add_argument("--gelu", choices=("tanh", "erf"), default="tanh",
                    help="GeLU form (default tanh, as examples/mlp.mlir)")
    ap.add_argument("--name", default=None,
                    help="function name (default mlp / attention / gpt_layer / gpt)")
    ap.add_argument("-o", "--output", default=None, help="output file (default stdout)")
    cfg = ap.parse_args(argv)

    if cfg.ffn is None:
        cfg.ffn = 4 * cfg.hidden
    if cfg.name is None:
        cfg.name = DEFAULT_NAMES[cfg.kind]

    fail = ap.error  # prints the usage and the message, exits with status 2

    for opt in ("layers", "hidden", "heads", "ffn", "seq", "batch"):
        if getattr(cfg, opt) <= 0:
            fail("--%s must be positive, got %d" % (opt, getattr(cfg, opt)))
    if cfg.kind != "mlp" and cfg.hidden % cfg.heads != 0:
        fail("--hidden %d is not divisible by --heads %d (head dim = hidden / heads)"
             % (cfg.hidden, cfg.heads))
    ok_first = cfg.name[:1].isalpha() or cfg.name[:1] == "_"
    if not (ok_first and all(ch.isalnum() or ch in "_$." for ch in cfg.name)):
        fail("--name %r is not an MLIR symbol name ([A-Za-z_][A-Za-z0-9_$.]*)" % cfg.name)
    return cfg


def main(argv=None):
    cfg = parse_args(sys.argv[1:] if argv is None else argv)
    text = generate(cfg, cfg.output)
    if cfg.output:
        try:
            with open(cfg.output, "w") as f:
                f.write(text)
        except OSError as err:
            print("generate.py: error: cannot write %s: %s" % (cfg.output, err.strerror),
                  file=sys.stderr)
            return 1
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
