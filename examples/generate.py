#!/usr/bin/env python3
"""Generate summa's example models: transformer blocks in `linalg` on tensors.

The output is one public `func.func` written the way torch-mlir emits it:
`linalg.matmul` on zero-filled accumulators, bias adds, GeLU, LayerNorm and
softmax as `linalg.generic` ops with explicit indexing maps, attention heads
through `tensor.expand_shape` / `tensor.collapse_shape`.

    python3 examples/generate.py KIND [options] [-o FILE]

KIND is `mlp`, `attention`, `layer` (one pre-LN GPT-2 block) or `gpt`
(N layers, then a final LayerNorm), or `mlp_train` / `gpt_train`: one
training step of `mlp` / `gpt` (forward, MSE loss, the backward written out
op by op, and an SGD or Adam update of every parameter). See
examples/README.md for the conventions the summa compiler relies on.
Standard library only.
"""

import argparse
import math
import shlex
import struct
import sys

KINDS = ("mlp", "attention", "layer", "gpt", "mlp_train", "gpt_train")
DEFAULT_NAMES = {"mlp": "mlp", "attention": "attention", "layer": "gpt_layer", "gpt": "gpt",
                 "mlp_train": "mlp_train_step", "gpt_train": "gpt_train_step"}


def default_name(cfg):
    if cfg.kind in FORWARD_KIND and cfg.forward_only:
        return FORWARD_KIND[cfg.kind] + "_loss"
    return DEFAULT_NAMES[cfg.kind]


# The forward model of each kind: a training kind runs that forward first.
FORWARD_KIND = {"mlp_train": "mlp", "gpt_train": "gpt"}

# Optimizers of the training kinds. Adam takes one step (step 1), so its
# bias corrections 1/(1 - beta^1) are constants.
DEFAULT_LR = {"sgd": 0.01, "adam": 0.001}
ADAM_BETA1, ADAM_BETA2, ADAM_EPS = 0.9, 0.999, 1e-8

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
    # Training step only (appended, so the forward kinds print as before).
    ("loss", "(d0, d1) -> (0)"),
    ("mm_a", "(d0, d1, d2) -> (d0, d2)"),
    ("mm_bt", "(d0, d1, d2) -> (d1, d2)"),
    ("mm_at", "(d0, d1, d2) -> (d2, d0)"),
    ("mm_b", "(d0, d1, d2) -> (d2, d1)"),
    ("mm_c", "(d0, d1, d2) -> (d0, d1)"),
    ("pv_pt", "(d0, d1, d2, d3, d4) -> (d0, d1, d4, d2)"),
]

# Names used inside linalg.generic bodies. Nested regions share the SSA name
# scope of the function, so function-level values never take these names.
BODY_NAMES = {
    "in", "acc", "out", "b", "r", "s", "t", "m", "d", "ex", "sq", "v", "ve",
    "n", "gm", "bt", "mx", "sm", "i", "j", "scale", "minf", "masked", "hid",
    "eps", "half", "one", "c", "k", "x2", "x3", "kx3", "inner", "scaled",
    "onept", "hx", "res", "q", "e", "rsqrt2", "xs",
    # training step bodies
    "dy", "tg", "inv", "two", "xh", "pr", "sd", "sa", "sb", "ma", "mb", "w",
    "u1", "u2", "zr", "k3", "lo", "tt", "sech", "kx2", "dinner", "dsc", "hi",
    "dg", "nh", "ea", "ipi", "pdf", "gr", "mo", "vo", "lr", "upd", "a", "beta1",
    "beta2", "omb1", "omb2", "g2", "bc1", "bc2", "mh", "vh", "sqv", "den",
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

    def matmul_maps(self, res, maps, a, a_shape, b, b_shape, out_shape):
        """%res = linalg.matmul with explicit indexing maps (the transposed
        forms of the backward) on a zero-filled accumulator."""
        acc = self.fill(res, "zero", out_shape)
        mm = self.name(res)
        for m in maps:
            self.used_maps.add(m)
        head = "  %%%s = linalg.matmul " % mm
        pad = " " * len(head)
        out_ty = self.ty(*out_shape)
        self.emit(head + "indexing_maps = [%s]" % ", ".join("#" + m for m in maps))
        self.emit(pad + "ins(%%%s, %%%s : %s, %s)"
                  % (a, b, self.ty(*a_shape), self.ty(*b_shape)))
        self.emit(pad + "outs(%%%s : %s) -> %s" % (acc, out_ty, out_ty))
        return mm

    def matmul_abt(self, res, dy, w, m, k, n):
        """dX[m,k] = dY[m,n] · W[k,n]ᵀ (the A·Bᵀ form)."""
        return self.matmul_maps(res, ["mm_a", "mm_bt", "mm_c"],
                                dy, (m, n), w, (k, n), (m, k))

    def matmul_atb(self, res, x, dy, m, k, n):
        """dW[k,n] = X[m,k]ᵀ · dY[m,n] (the Aᵀ·B form)."""
        return self.matmul_maps(res, ["mm_at", "mm_b", "mm_c"],
                                x, (m, k), dy, (m, n), (k, n))

    def token_sum(self, res, dy, m, n):
        """res[n] = sum over the m tokens of dY[m, n] (bias-like gradients)."""
        init = self.fill(res, "zero", (n,))
        return self.generic(res, ["id", "bias"], ["reduction", "parallel"],
                            [(dy, (m, n))], init, ["in", "acc"],
                            ["%%s = arith.addf %%in, %%acc : %s" % self.dt, "s"], (n,))

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
        self.last_ln = {"c": c, "rstd": rstd}  # for the backward
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


def attention_block(fn, cfg, x, p, pre, saved=None):
    """x + Wo·Attention(LN1(x)) + bo. `p` maps parameter short names to SSA
    names; `pre` prefixes value names. `saved`, if given, receives the
    values the backward reads."""
    b, s, h, nh = cfg.batch, cfg.seq, cfg.hidden, cfg.heads
    d, t, dt = h // nh, cfg.batch * cfg.seq, fn.dt

    fn.comment("LN1 = LayerNorm(%%%s) over the hidden dim:" % x, *LN_STEPS)
    ln = fn.layer_norm(pre + "ln1", x, p["ln1_gamma"], p["ln1_beta"], t, h)
    ln_saved = fn.last_ln

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
    if saved is not None:
        saved.update(ln1=ln, ln1_saved=ln_saved, heads=heads, probs=probs, ctx=merged)
    return fn.add(pre + "h", x, proj, t, h)


def mlp_block(fn, cfg, x, p, pre, saved=None):
    """x + W2·GeLU(W1·LN2(x) + b1) + b2."""
    t, h, f = cfg.batch * cfg.seq, cfg.hidden, cfg.ffn
    fn.comment("LN2 = LayerNorm(%%%s) over the hidden dim:" % x, *LN_STEPS)
    ln = fn.layer_norm(pre + "ln2", x, p["ln2_gamma"], p["ln2_beta"], t, h)
    ln_saved = fn.last_ln
    fn.comment("U = GeLU(LN2·W1 + b1), GeLU in %s form" % cfg.gelu)
    u = fn.linear(pre + "fc1", ln, p["w1"], p["b1"], t, h, f)
    g = fn.gelu(pre + "gelu", u, t, f, cfg.gelu)
    fn.comment("M = U·W2 + b2, then the residual: %%%s + M" % x)
    m = fn.linear(pre + "fc2", g, p["w2"], p["b2"], t, f, h)
    if saved is not None:
        saved.update(ln2=ln, ln2_saved=ln_saved, fc1=u, gelu=g)
    return fn.add(pre + "y", x, m, t, h)


def mlp_only(fn, cfg, x, p, saved=None):
    """Y = GeLU(X·W1 + b1)·W2 + b2 + X, structured as examples/mlp.mlir."""
    t, h, f, dt = cfg.batch * cfg.seq, cfg.hidden, cfg.ffn, fn.dt
    fn.comment("H = X·W1 + b1")
    hid = fn.linear("h", x, p["w1"], p["b1"], t, h, f)
    fn.comment("G = GeLU(H), %s form" % cfg.gelu)
    g = fn.gelu("g", hid, t, f, cfg.gelu)
    fn.comment("Y = G·W2 + b2 + X")
    mm = fn.matmul("y", g, p["w2"], t, f, h)
    if saved is not None:
        saved.update(h=hid, g=g)
    e = fn.empty("y_e", (t, h))
    return fn.generic(
        "y", ["id", "bias", "id", "id"], ["parallel", "parallel"],
        [(mm, (t, h)), (p["b2"], (h,)), (x, (t, h))], e,
        ["in", "b", "res", "out"],
        ["%%s = arith.addf %%in, %%b : %s" % dt,
         "%%t = arith.addf %%s, %%res : %s" % dt, "t"], (t, h))


# -- training step: loss, backward, optimizer ---------------------------------

def mse_loss(fn, y, target, t, h):
    """loss[0] = sum (y - target)^2 / (T·H), and dY = 2 (y - target) / (T·H)."""
    dt = fn.dt
    fn.comment("loss = sum over t, h of (%%%s - target)^2 / (T·H), T·H = %d" % (y, t * h))
    init = fn.fill("loss", "zero", (1,))
    loss = fn.generic(
        "loss", ["id", "id", "loss"], ["reduction", "reduction"],
        [(y, (t, h)), ("target", (t, h))], init, ["in", "tg", "acc"],
        ["%%inv = arith.constant %s : %s" % (fn.const(1.0 / (t * h)), dt),
         "%%d = arith.subf %%in, %%tg : %s" % dt,
         "%%sq = arith.mulf %%d, %%d : %s" % dt,
         "%%v = arith.mulf %%sq, %%inv : %s" % dt,
         "%%s = arith.addf %%v, %%acc : %s" % dt, "s"], (1,))
    fn.comment("dY = 2 (%%%s - target) / (T·H)" % y)
    e = fn.empty("d_y_e", (t, h))
    dy = fn.generic(
        "d_y", ["id", "id", "id"], ["parallel", "parallel"],
        [(y, (t, h)), ("target", (t, h))], e, ["in", "tg", "out"],
        ["%%two = arith.constant %s : %s" % (fn.const(2.0 / (t * h)), dt),
         "%%d = arith.subf %%in, %%tg : %s" % dt,
         "%%r = arith.mulf %%d, %%two : %s" % dt, "r"], (t, h))
    return loss, dy


def linear_backward(fn, x, w, b, dy, m, k, n, dx_name, grads):
    """Backward of Y = X·W + b (X [m,k], W [k,n]): dW = Xᵀ·dY, db = sum over
    tokens of dY, and dX = dY·Wᵀ when dx_name is given (else None)."""
    grads[w] = fn.matmul_atb("grad_" + w, x, dy, m, k, n)
    grads[b] = fn.token_sum("grad_" + b, dy, m, n)
    if dx_name is None:
        return None
    return fn.matmul_abt(dx_name, dy, w, m, k, n)


def gelu_backward(fn, base, dy, u, m, n, form):
    """dU = dG · GeLU'(U), recomputing the GeLU inner terms from U."""
    dt = fn.dt
    e = fn.empty(base + "_e", (m, n))
    if form == "tanh":
        # GeLU(x) = 0.5 x (1 + t), t = tanh(c (x + k x^3)):
        # GeLU'(x) = 0.5 (1 + t) + 0.5 x (1 - t^2) c (1 + 3 k x^2)
        body = [
            "%%half = arith.constant 5.000000e-01 : %s" % dt,
            "%%one = arith.constant 1.000000e+00 : %s" % dt,
            "%%c = arith.constant 0.797884583 : %s" % dt,
            "%%k = arith.constant 4.471500e-02 : %s" % dt,
            "%%k3 = arith.constant %s : %s" % (fn.const(3 * 0.044715), dt),
            "%%x2 = arith.mulf %%in, %%in : %s" % dt,
            "%%x3 = arith.mulf %%x2, %%in : %s" % dt,
            "%%kx3 = arith.mulf %%k, %%x3 : %s" % dt,
            "%%inner = arith.addf %%in, %%kx3 : %s" % dt,
            "%%scaled = arith.mulf %%c, %%inner : %s" % dt,
            "%%t = math.tanh %%scaled : %s" % dt,
            "%%onept = arith.addf %%one, %%t : %s" % dt,
            "%%lo = arith.mulf %%half, %%onept : %s" % dt,
            "%%tt = arith.mulf %%t, %%t : %s" % dt,
            "%%sech = arith.subf %%one, %%tt : %s" % dt,
            "%%kx2 = arith.mulf %%k3, %%x2 : %s" % dt,
            "%%dinner = arith.addf %%one, %%kx2 : %s" % dt,
            "%%dsc = arith.mulf %%c, %%dinner : %s" % dt,
            "%%hx = arith.mulf %%half, %%in : %s" % dt,
            "%%w = arith.mulf %%hx, %%sech : %s" % dt,
            "%%hi = arith.mulf %%w, %%dsc : %s" % dt,
            "%%dg = arith.addf %%lo, %%hi : %s" % dt,
            "%%r = arith.mulf %%dy, %%dg : %s" % dt,
            "r",
        ]
    else:
        # GeLU(x) = 0.5 x (1 + erf(x/√2)):
        # GeLU'(x) = 0.5 (1 + erf(x/√2)) + x exp(-x^2/2) / √(2π)
        body = [
            "%%half = arith.constant 5.000000e-01 : %s" % dt,
            "%%one = arith.constant 1.000000e+00 : %s" % dt,
            "%%rsqrt2 = arith.constant %s : %s" % (fn.const(0.5 ** 0.5), dt),
            "%%nh = arith.constant -5.000000e-01 : %s" % dt,
            "%%ipi = arith.constant %s : %s" % (fn.const((2 * math.pi) ** -0.5), dt),
            "%%xs = arith.mulf %%in, %%rsqrt2 : %s" % dt,
            "%%t = math.erf %%xs : %s" % dt,
            "%%onept = arith.addf %%one, %%t : %s" % dt,
            "%%lo = arith.mulf %%half, %%onept : %s" % dt,
            "%%x2 = arith.mulf %%in, %%in : %s" % dt,
            "%%ea = arith.mulf %%x2, %%nh : %s" % dt,
            "%%ex = math.exp %%ea : %s" % dt,
            "%%pdf = arith.mulf %%ex, %%ipi : %s" % dt,
            "%%hi = arith.mulf %%in, %%pdf : %s" % dt,
            "%%dg = arith.addf %%lo, %%hi : %s" % dt,
            "%%r = arith.mulf %%dy, %%dg : %s" % dt,
            "r",
        ]
    return fn.generic(base, ["id", "id", "id"], ["parallel", "parallel"],
                      [(dy, (m, n)), (u, (m, n))], e, ["dy", "in", "out"], body, (m, n))


def layer_norm_backward(fn, base, dy, ln_saved, gamma, beta, m, h, dx_name, grads):
    """Backward of y = x̂·gamma + beta, x̂ = (x - mean)·rstd, over the hidden
    dim. dgamma = sum_t dy·x̂, dbeta = sum_t dy; with dx_name,
    dx = rstd·(g - mean_h(g) - x̂·mean_h(g·x̂)), g = dy·gamma."""
    dt = fn.dt
    c, rstd = ln_saved["c"], ln_saved["rstd"]
    fn.comment("backward of LayerNorm(%s, %s): x̂ = (x - mean)·rstd, from the forward's"
               % (gamma, beta), "centered values and rstd")
    e = fn.empty(base + "_xhat_e", (m, h))
    xhat = fn.generic(base + "_xhat", ["id", "row", "id"], ["parallel", "parallel"],
                      [(c, (m, h)), (rstd, (m,))], e, ["in", "r", "out"],
                      ["%%n = arith.mulf %%in, %%r : %s" % dt, "n"], (m, h))
    fn.comment("dgamma = sum over tokens of dy·x̂, dbeta = sum over tokens of dy")
    init = fn.fill("grad_" + gamma, "zero", (h,))
    grads[gamma] = fn.generic(
        "grad_" + gamma, ["id", "id", "bias"], ["reduction", "parallel"],
        [(dy, (m, h)), (xhat, (m, h))], init, ["dy", "xh", "acc"],
        ["%%n = arith.mulf %%dy, %%xh : %s" % dt,
         "%%s = arith.addf %%n, %%acc : %s" % dt, "s"], (h,))
    grads[beta] = fn.token_sum("grad_" + beta, dy, m, h)
    if dx_name is None:
        return None
    fn.comment("g = dy·gamma; sums over hidden of g and g·x̂;",
               "dx = rstd·(g - sum(g)/H - x̂·sum(g·x̂)/H)")
    e = fn.empty(base + "_dxhat_e", (m, h))
    g = fn.generic(base + "_dxhat", ["id", "bias", "id"], ["parallel", "parallel"],
                   [(dy, (m, h)), (gamma, (h,))], e, ["dy", "gm", "out"],
                   ["%%n = arith.mulf %%dy, %%gm : %s" % dt, "n"], (m, h))
    init = fn.fill(base + "_dsum", "zero", (m,))
    s1 = fn.generic(base + "_dsum", ["id", "row"], ["parallel", "reduction"],
                    [(g, (m, h))], init, ["in", "acc"],
                    ["%%s = arith.addf %%in, %%acc : %s" % dt, "s"], (m,))
    init = fn.fill(base + "_dxsum", "zero", (m,))
    s2 = fn.generic(base + "_dxsum", ["id", "id", "row"], ["parallel", "reduction"],
                    [(g, (m, h)), (xhat, (m, h))], init, ["in", "xh", "acc"],
                    ["%%n = arith.mulf %%in, %%xh : %s" % dt,
                     "%%s = arith.addf %%n, %%acc : %s" % dt, "s"], (m,))
    e = fn.empty(dx_name + "_e", (m, h))
    return fn.generic(
        dx_name, ["id", "id", "row", "row", "row", "id"], ["parallel", "parallel"],
        [(g, (m, h)), (xhat, (m, h)), (s1, (m,)), (s2, (m,)), (rstd, (m,))], e,
        ["in", "xh", "sa", "sb", "r", "out"],
        ["%%hid = arith.constant %s : %s" % (fn.const(float(h)), dt),
         "%%ma = arith.divf %%sa, %%hid : %s" % dt,
         "%%mb = arith.divf %%sb, %%hid : %s" % dt,
         "%%u1 = arith.subf %%in, %%ma : %s" % dt,
         "%%w = arith.mulf %%xh, %%mb : %s" % dt,
         "%%u2 = arith.subf %%u1, %%w : %s" % dt,
         "%%res = arith.mulf %%u2, %%r : %s" % dt, "res"], (m, h))


def mlp_block_backward(fn, cfg, dy, p, sv, pre, grads):
    """Backward of y = x + W2·GeLU(W1·LN2(x) + b1) + b2; returns dx."""
    t, h, f = cfg.batch * cfg.seq, cfg.hidden, cfg.ffn
    fn.comment("backward of M = U·W2 + b2: dW2 = Uᵀ·dY, db2 = sum dY, dU = dY·W2ᵀ")
    du = linear_backward(fn, sv["gelu"], p["w2"], p["b2"], dy, t, f, h,
                         "d_" + pre + "gelu", grads)
    fn.comment("backward of GeLU (%s form)" % cfg.gelu)
    dfc1 = gelu_backward(fn, "d_" + pre + "fc1", du, sv["fc1"], t, f, cfg.gelu)
    fn.comment("backward of LN2·W1 + b1: dW1 = LN2ᵀ·dH1, db1 = sum dH1, dLN2 = dH1·W1ᵀ")
    dln = linear_backward(fn, sv["ln2"], p["w1"], p["b1"], dfc1, t, h, f,
                          "d_" + pre + "ln2", grads)
    dxl = layer_norm_backward(fn, "d_" + pre + "ln2", dln, sv["ln2_saved"],
                              p["ln2_gamma"], p["ln2_beta"], t, h,
                              "d_" + pre + "ln2_in", grads)
    fn.comment("residual: dX = dY + dLN2_in")
    return fn.add("d_" + pre + "h", dy, dxl, t, h)


def attention_block_backward(fn, cfg, dy, p, sv, pre, need_dx, grads):
    """Backward of y = x + Wo·Attention(LN1(x)) + bo; returns dx (or None
    when need_dx is false: the first layer's input needs no gradient)."""
    b, s, h, nh = cfg.batch, cfg.seq, cfg.hidden, cfg.heads
    d, t, dt = h // nh, cfg.batch * cfg.seq, fn.dt
    shape4 = (b, nh, s, s)
    heads = sv["heads"]
    probs = sv["probs"]

    fn.comment("backward of A = context·Wo + bo: dWo = contextᵀ·dY, dbo = sum dY,",
               "dcontext = dY·Woᵀ")
    dctx = linear_backward(fn, sv["ctx"], p["wo"], p["bo"], dy, t, h, h,
                           "d_" + pre + "ctx_merged", grads)
    dctx4 = fn.name("d_" + pre + "ctx")
    fn.emit("  %%%s = tensor.expand_shape %%%s [[0, 1], [2, 3]] output_shape [%d, %d, %d, %d]"
            " : %s into %s" % (dctx4, dctx, b, s, nh, d, fn.ty(t, h), fn.ty(b, s, nh, d)))

    fn.comment("dV[b, j, h, d] = sum_i P[b, h, i, j] * dcontext[b, i, h, d]")
    init = fn.fill("d_" + pre + "value_heads", "zero", (b, s, nh, d))
    dv = fn.generic(
        "d_" + pre + "value_heads", ["pv_pt", "pv_v", "pv_c"], ["parallel"] * 4 + ["reduction"],
        [(probs, shape4), (dctx4, (b, s, nh, d))], init, ["pr", "dy", "acc"],
        ["%%m = arith.mulf %%pr, %%dy : %s" % dt,
         "%%s = arith.addf %%m, %%acc : %s" % dt, "s"], (b, s, nh, d))

    fn.comment("dP[b, h, i, j] = sum_d dcontext[b, i, h, d] * V[b, j, h, d]")
    init = fn.fill("d_" + pre + "probs", "zero", shape4)
    dp = fn.generic(
        "d_" + pre + "probs", ["qk_q", "qk_k", "qk_s"], ["parallel"] * 4 + ["reduction"],
        [(dctx4, (b, s, nh, d)), (heads["v"], (b, s, nh, d))], init, ["dy", "v", "acc"],
        ["%%m = arith.mulf %%dy, %%v : %s" % dt,
         "%%s = arith.addf %%m, %%acc : %s" % dt, "s"], shape4)

    fn.comment("softmax backward: dS = P·(dP - sum_j dP·P)")
    init = fn.fill("d_" + pre + "sdot", "zero", (b, nh, s))
    sdot = fn.generic(
        "d_" + pre + "sdot", ["id4", "id4", "last4"], ["parallel"] * 3 + ["reduction"],
        [(dp, shape4), (probs, shape4)], init, ["in", "pr", "acc"],
        ["%%m = arith.mulf %%in, %%pr : %s" % dt,
         "%%s = arith.addf %%m, %%acc : %s" % dt, "s"], (b, nh, s))
    e = fn.empty("d_" + pre + "logits_e", shape4)
    dlog = fn.generic(
        "d_" + pre + "logits", ["id4", "id4", "last4", "id4"], ["parallel"] * 4,
        [(dp, shape4), (probs, shape4), (sdot, (b, nh, s))], e, ["in", "pr", "sd", "out"],
        ["%%d = arith.subf %%in, %%sd : %s" % dt,
         "%%r = arith.mulf %%pr, %%d : %s" % dt, "r"], shape4)

    fn.comment("backward of the scale and the causal mask: 0 where j > i, else dS/sqrt(%d)" % d)
    e = fn.empty("d_" + pre + "scores_e", shape4)
    dsc = fn.generic(
        "d_" + pre + "scores", ["id4", "id4"], ["parallel"] * 4,
        [(dlog, shape4)], e, ["in", "out"],
        ["%i = linalg.index 2 : index",
         "%j = linalg.index 3 : index",
         "%%scale = arith.constant %s : %s" % (fn.const(d ** -0.5), dt),
         "%%zr = arith.constant %s : %s" % (fn.const(0.0), dt),
         "%%v = arith.mulf %%in, %%scale : %s" % dt,
         "%masked = arith.cmpi ugt, %j, %i : index",
         "%%r = arith.select %%masked, %%zr, %%v : %s" % dt, "r"], shape4)

    fn.comment("dQ[b, i, h, d] = sum_j dscores[b, h, i, j] * K[b, j, h, d]")
    init = fn.fill("d_" + pre + "query_heads", "zero", (b, s, nh, d))
    dq = fn.generic(
        "d_" + pre + "query_heads", ["pv_p", "pv_v", "pv_c"], ["parallel"] * 4 + ["reduction"],
        [(dsc, shape4), (heads["k"], (b, s, nh, d))], init, ["in", "k", "acc"],
        ["%%m = arith.mulf %%in, %%k : %s" % dt,
         "%%s = arith.addf %%m, %%acc : %s" % dt, "s"], (b, s, nh, d))
    fn.comment("dK[b, j, h, d] = sum_i dscores[b, h, i, j] * Q[b, i, h, d]")
    init = fn.fill("d_" + pre + "key_heads", "zero", (b, s, nh, d))
    dk = fn.generic(
        "d_" + pre + "key_heads", ["pv_pt", "pv_v", "pv_c"], ["parallel"] * 4 + ["reduction"],
        [(dsc, shape4), (heads["q"], (b, s, nh, d))], init, ["in", "q", "acc"],
        ["%%m = arith.mulf %%in, %%q : %s" % dt,
         "%%s = arith.addf %%m, %%acc : %s" % dt, "s"], (b, s, nh, d))

    fn.comment("merge the heads of dQ, dK, dV; backward of the Q, K, V projections")
    dln = None
    for n, full, d4 in (("q", "query", dq), ("k", "key", dk), ("v", "value", dv)):
        d2 = fn.name("d_" + pre + full)
        fn.emit("  %%%s = tensor.collapse_shape %%%s [[0, 1], [2, 3]] : %s into %s"
                % (d2, d4, fn.ty(b, s, nh, d), fn.ty(t, h)))
        part = linear_backward(fn, sv["ln1"], p["w" + n], p["b" + n], d2, t, h, h,
                               "d_" + pre + "ln1_" + n, grads)
        if dln is not None:
            # dLN1 = dQ·Wqᵀ + dK·Wkᵀ + dV·Wvᵀ, summed as the parts come
            dln = fn.add("d_" + pre + ("ln1" if n == "v" else "ln1_qk"), dln, part, t, h)
        else:
            dln = part

    dxl = layer_norm_backward(fn, "d_" + pre + "ln1", dln, sv["ln1_saved"],
                              p["ln1_gamma"], p["ln1_beta"], t, h,
                              "d_" + pre + "ln1_in" if need_dx else None, grads)
    if not need_dx:
        return None
    fn.comment("residual: dX = dH + dLN1_in")
    return fn.add("d_" + pre + "x", dy, dxl, t, h)


def optimizer_update(fn, cfg, params, grads, moments):
    """The update of every parameter (and, for Adam, of its moments), each
    an elementwise generic. params: [(name, shape)]; grads: name -> SSA;
    moments: name -> (m arg, v arg). Returns {name: new SSA}, and the new
    moments {name: (new m, new v)}."""
    dt = fn.dt
    new, new_mom = {}, {}
    if cfg.optimizer == "sgd":
        fn.comment("SGD: p' = p - lr·dp, lr = %r" % cfg.lr)
    else:
        fn.comment("Adam, step 1 (beta1 %r, beta2 %r, eps %r, lr %r):" % (
            ADAM_BETA1, ADAM_BETA2, ADAM_EPS, cfg.lr),
            "  m' = beta1·m + (1 - beta1)·dp;  v' = beta2·v + (1 - beta2)·dp²;",
            "  p' = p - lr·(m'/(1 - beta1)) / (sqrt(v'/(1 - beta2)) + eps)")
    for pn, shape in params:
        rank = len(shape)
        mp = ["id" if rank == 2 else "vec"] * 3
        iters = ["parallel"] * rank
        g = grads[pn]
        if cfg.optimizer == "sgd":
            e = fn.empty("new_" + pn + "_e", shape)
            new[pn] = fn.generic(
                "new_" + pn, mp, iters, [(pn, shape), (g, shape)], e, ["in", "gr", "out"],
                ["%%lr = arith.constant %s : %s" % (fn.const(cfg.lr), dt),
                 "%%upd = arith.mulf %%lr, %%gr : %s" % dt,
                 "%%r = arith.subf %%in, %%upd : %s" % dt, "r"], shape)
            continue
        m_arg, v_arg = moments[pn]
        e = fn.empty("new_" + m_arg + "_e", shape)
        nm = fn.generic(
            "new_" + m_arg, mp, iters, [(m_arg, shape), (g, shape)], e, ["in", "gr", "out"],
            ["%%beta1 = arith.constant %s : %s" % (fn.const(ADAM_BETA1), dt),
             "%%omb1 = arith.constant %s : %s" % (fn.const(1 - ADAM_BETA1), dt),
             "%%a = arith.mulf %%beta1, %%in : %s" % dt,
             "%%upd = arith.mulf %%omb1, %%gr : %s" % dt,
             "%%r = arith.addf %%a, %%upd : %s" % dt, "r"], shape)
        e = fn.empty("new_" + v_arg + "_e", shape)
        nv = fn.generic(
            "new_" + v_arg, mp, iters, [(v_arg, shape), (g, shape)], e, ["in", "gr", "out"],
            ["%%beta2 = arith.constant %s : %s" % (fn.const(ADAM_BETA2), dt),
             "%%omb2 = arith.constant %s : %s" % (fn.const(1 - ADAM_BETA2), dt),
             "%%a = arith.mulf %%beta2, %%in : %s" % dt,
             "%%g2 = arith.mulf %%gr, %%gr : %s" % dt,
             "%%upd = arith.mulf %%omb2, %%g2 : %s" % dt,
             "%%r = arith.addf %%a, %%upd : %s" % dt, "r"], shape)
        e = fn.empty("new_" + pn + "_e", shape)
        new[pn] = fn.generic(
            "new_" + pn, mp + mp[:1], iters, [(pn, shape), (nm, shape), (nv, shape)], e,
            ["in", "mo", "vo", "out"],
            ["%%lr = arith.constant %s : %s" % (fn.const(cfg.lr), dt),
             "%%bc1 = arith.constant %s : %s" % (fn.const(1 / (1 - ADAM_BETA1)), dt),
             "%%bc2 = arith.constant %s : %s" % (fn.const(1 / (1 - ADAM_BETA2)), dt),
             "%%eps = arith.constant %s : %s" % (fn.const(ADAM_EPS), dt),
             "%%mh = arith.mulf %%mo, %%bc1 : %s" % dt,
             "%%vh = arith.mulf %%vo, %%bc2 : %s" % dt,
             "%%sqv = math.sqrt %%vh : %s" % dt,
             "%%den = arith.addf %%sqv, %%eps : %s" % dt,
             "%%q = arith.divf %%mh, %%den : %s" % dt,
             "%%upd = arith.mulf %%lr, %%q : %s" % dt,
             "%%r = arith.subf %%in, %%upd : %s" % dt, "r"], shape)
        new_mom[pn] = (nm, nv)
    return new, new_mom


# -- whole function ----------------------------------------------------------

def wrapped(lead, items, sep, width=96):
    """`lead` followed by the items joined with `sep`, wrapped before
    `width` columns with continuation lines aligned under the first item."""
    lines, row = [], lead
    for i, item in enumerate(items):
        piece = item + (sep if i + 1 < len(items) else "")
        if row != lead and len(row) + 1 + len(piece) > width:
            lines.append(row.rstrip())
            row = " " * len(lead)
        elif row != lead:
            row += " "
        row += piece
    lines.append(row)
    return lines


def build(cfg):
    fn = Func(cfg.dtype)
    t, h = cfg.batch * cfg.seq, cfg.hidden
    kind = FORWARD_KIND.get(cfg.kind, cfg.kind)  # the forward model
    train = cfg.kind in FORWARD_KIND

    # Arguments, in the order of the conventions.
    args = [("x", "x", "activation")]
    if train:
        args.append(("target", "target", "activation"))
    if kind == "mlp":
        args += [("w1", "w1", "weight"), ("b1", "b1", "bias"),
                 ("w2", "w2", "weight"), ("b2", "b2", "bias")]
    elif kind == "attention":
        args += layer_params("", with_mlp=False)
    elif kind == "layer":
        args += layer_params("")
    else:
        for i in range(cfg.layers):
            args += layer_params("l%d_" % i)
        args += [("lnf_gamma", "lnf_gamma", "bias"), ("lnf_beta", "lnf_beta", "bias")]
    params = [(a, short) for a, short, r in args if r != "activation"]
    moments = {}
    nonnegative = set()
    if train and cfg.optimizer == "adam":
        roles = {a: r for a, _, r in args}
        for a, short in params:
            moments[a] = ("m_" + a, "v_" + a)
        args += [("m_" + a, short, roles[a]) for a, short in params]
        args += [("v_" + a, short, roles[a]) for a, short in params]
        nonnegative = {"v_" + a for a, _ in params}
    for a, _, _ in args:
        fn.used_names.add(a)

    fn.emit("  %%zero = arith.constant %s : %s" % (fn.const(0.0), fn.dt))
    fn.used_names.add("zero")
    if kind != "mlp" and cfg.softmax == "decomposed":
        fn.emit("  %%ninf = arith.constant %s : %s" % (NEG_INF[fn.dt], fn.dt))
        fn.used_names.add("ninf")

    saved = {}  # values of the forward that the backward reads
    if kind == "mlp":
        y = mlp_only(fn, cfg, "x", {a: a for a, _, _ in args}, saved)
    elif kind == "attention":
        y = attention_block(fn, cfg, "x", {a: a for a, _, _ in args}, "")
    elif kind == "layer":
        p = {a: a for a, _, _ in args}
        y = attention_block(fn, cfg, "x", p, "")
        y = mlp_block(fn, cfg, y, p, "")
    else:
        y = "x"
        for i in range(cfg.layers):
            pre = "l%d_" % i
            p = {short: a for a, short, _ in args if a.startswith(pre)}
            saved[i] = {}
            fn.emit()
            fn.emit("  // ===== layer %d =====" % i)
            y = attention_block(fn, cfg, y, p, pre, saved[i])
            y = mlp_block(fn, cfg, y, p, pre, saved[i])
        fn.emit()
        fn.emit("  // ===== final LayerNorm =====")
        fn.comment("LNF = LayerNorm(%%%s) over the hidden dim:" % y, *LN_STEPS)
        y = fn.layer_norm("lnf", y, "lnf_gamma", "lnf_beta", t, h)
        saved["lnf"] = fn.last_ln

    def arg_shape(short):
        if short in ("x", "target"):
            return (t, h)
        return param_shape(short, cfg)

    if not train:
        fn.emit("  return %%%s : %s" % (y, fn.ty(t, h)))
        results = [(fn.ty(t, h), None)]
    else:
        fn.emit()
        fn.emit("  // ===== loss =====")
        loss, dy = mse_loss(fn, y, "target", t, h)
    if train and cfg.forward_only:
        # The input of summa-differentiate: forward and loss, no backward.
        fn.emit("  return %%%s : %s" % (loss, fn.ty(1)))
        results = [(fn.ty(1), None)]
    elif train:
        grads = {}
        fn.emit()
        fn.emit("  // ===== backward =====")
        if kind == "mlp":
            f = cfg.ffn
            fn.comment("backward of Y = G·W2 + b2 + X: dW2 = Gᵀ·dY, db2 = sum dY, dG = dY·W2ᵀ",
                       "(X is an input: no dX)")
            dg = linear_backward(fn, saved["g"], "w2", "b2", dy, t, f, h, "d_g", grads)
            fn.comment("backward of GeLU (%s form)" % cfg.gelu)
            dhid = gelu_backward(fn, "d_h", dg, saved["h"], t, f, cfg.gelu)
            fn.comment("backward of H = X·W1 + b1: dW1 = Xᵀ·dH, db1 = sum dH")
            linear_backward(fn, "x", "w1", "b1", dhid, t, h, f, None, grads)
        else:
            d = layer_norm_backward(fn, "d_lnf", dy, saved["lnf"], "lnf_gamma", "lnf_beta",
                                    t, h, "d_lnf_in", grads)
            for i in reversed(range(cfg.layers)):
                pre = "l%d_" % i
                p = {short: a for a, short, _ in args if a.startswith(pre)}
                fn.emit()
                fn.emit("  // ===== layer %d backward =====" % i)
                d = mlp_block_backward(fn, cfg, d, p, saved[i], pre, grads)
                d = attention_block_backward(fn, cfg, d, p, saved[i], pre, i > 0, grads)
        fn.emit()
        fn.emit("  // ===== optimizer =====")
        new, new_mom = optimizer_update(
            fn, cfg, [(a, arg_shape(short)) for a, short in params], grads, moments)

        # An updated parameter or moment replaces its argument in the next
        # step: summa.updates names that argument (summa-compile's driver
        # feeds it back with --steps).
        arg_index = {a: i for i, (a, _, _) in enumerate(args)}

        def updates(a):
            return " {summa.updates = %d : i64}" % arg_index[a]
        results = [(fn.ty(1), loss, "loss", "")]
        results += [(fn.ty(*arg_shape(short)), grads[a], "d " + a, "") for a, short in params]
        results += [(fn.ty(*arg_shape(short)), new[a], a + " updated", updates(a))
                    for a, short in params]
        for k in (0, 1):
            results += [(fn.ty(*arg_shape(short)), new_mom[a][k],
                         moments[a][k] + " updated", updates(moments[a][k]))
                        for a, short in params if a in new_mom]
        fn.lines += wrapped("  return ", ["%" + r[1] for r in results], ",")
        fn.lines += wrapped("      : ", [r[0] for r in results], ",")
        results = [(r[0] + r[3], r[2]) for r in results]

    # Signature.
    sig = ["func.func @%s(" % cfg.name]
    pad = " " * len(sig[0])

    def attrs(a, r):
        text = "summa.role = \"%s\"" % r
        if a in nonnegative:
            text += ", summa.init = \"nonnegative\""
        return text
    arg_text = ["%%%s: %s {%s}" % (a, fn.ty(*arg_shape(short)), attrs(a, r))
                for a, short, r in args]
    lines = []
    for i, a in enumerate(arg_text):
        end = "," if i + 1 < len(arg_text) else ")"
        lines.append(("" if i == 0 else pad) + a + end)
    lines[0] = sig[0] + lines[0]
    if len(results) == 1:
        lines.append("    -> %s {" % results[0][0])
    else:
        width = max(len(ty) for ty, _ in results) + 3
        for i, (ty, what) in enumerate(results):
            lead = "    -> (" if i == 0 else "        "
            end = "," if i + 1 < len(results) else ") {"
            lines.append(lead + (ty + end).ljust(width) + "  // " + what)

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
        "mlp_train": "A training step of the MLP block Y = GeLU(X·W1 + b1)·W2 + b2 + X: "
                     "forward, loss, backward, update.",
        "gpt_train": "A training step of a %d-layer pre-LN GPT-2 stack with a final "
                     "LayerNorm: forward, loss, backward, update." % cfg.layers,
    }[cfg.kind]
    if cfg.kind in FORWARD_KIND and cfg.forward_only:
        what = (what.split(":")[0] + ": forward and MSE loss only, the input of "
                "summa-differentiate.").replace("A training step of", "The loss of")
    kind = FORWARD_KIND.get(cfg.kind, cfg.kind)
    out = ["// " + what,
           "// Written as torch-mlir emits it (linalg on tensors). Generated, do not edit:",
           "//   " + command,
           "//"]
    dims = "// Tokens T = batch·seq = %d·%d = %d (token t = b·seq + s), hidden %d" % (
        cfg.batch, cfg.seq, t, h)
    if kind in ("attention", "layer", "gpt"):
        dims += ", heads %d of dim %d" % (cfg.heads, h // cfg.heads)
    if kind != "attention":
        dims += ", ffn %d" % cfg.ffn
    if kind == "gpt":
        dims += ", %d layers" % cfg.layers
    dims += ", %s." % cfg.dtype
    out.append(dims)
    opts = []
    if kind != "mlp":
        opts.append("Softmax %s, LayerNorm eps 1e-5" % cfg.softmax)
    if kind != "attention":
        opts.append("GeLU in %s form" % cfg.gelu)
    out.append("// " + "; ".join(opts) + ".")
    if kind != cfg.kind:
        out.append("// Loss: mean squared error, sum over t, h of (Y - target)^2 / (T·H).")
        if cfg.optimizer == "sgd":
            out.append("// Update: SGD, p' = p - lr·dp, lr %r." % cfg.lr)
        else:
            out.append("// Update: Adam, step 1: lr %r, beta1 %r, beta2 %r, eps %r, bias "
                       "corrections" % (cfg.lr, ADAM_BETA1, ADAM_BETA2, ADAM_EPS))
            out.append("// 1/(1 - beta1) and 1/(1 - beta2). The moments m_<p>, then v_<p>, "
                       "follow the parameters;")
            out.append("// v_<p> has summa.init = \"nonnegative\".")
    out.append("// Arguments carry summa.role = \"activation\" | \"weight\" | \"bias\"; "
               "weights are [in, out].")
    if kind != cfg.kind:
        out.append("// Results: loss (tensor<1x%s>), the gradient of every parameter, then the "
                   "updated" % cfg.dtype)
        out.append("// parameters%s, each list in argument order."
                   % (", the updated m's and the updated v's" if cfg.optimizer == "adam" else ""))
    return out


def canonical_command(cfg, output):
    kind = FORWARD_KIND.get(cfg.kind, cfg.kind)
    argv = ["python3", "examples/generate.py", cfg.kind]
    if kind == "gpt":
        argv += ["--layers", str(cfg.layers)]
    argv += ["--batch", str(cfg.batch), "--seq", str(cfg.seq), "--hidden", str(cfg.hidden)]
    if kind != "mlp":
        argv += ["--heads", str(cfg.heads)]
    if kind != "attention":
        argv += ["--ffn", str(cfg.ffn)]
    argv += ["--dtype", cfg.dtype]
    if kind != "mlp":
        argv += ["--softmax", cfg.softmax]
    if kind != "attention":
        argv += ["--gelu", cfg.gelu]
    if kind != cfg.kind and cfg.forward_only:
        argv += ["--loss", cfg.loss, "--forward-only"]
    elif kind != cfg.kind:
        argv += ["--optimizer", cfg.optimizer, "--lr", repr(cfg.lr), "--loss", cfg.loss]
    if cfg.name != default_name(cfg):
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
                         "gpt (N layers + final LayerNorm) | mlp_train | gpt_train "
                         "(a training step of mlp / gpt)")
    ap.add_argument("--layers", type=int, default=2,
                    help="layers of kind gpt / gpt_train (default 2)")
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
    ap.add_argument("--optimizer", choices=("sgd", "adam"), default="sgd",
                    help="update of the training kinds (default sgd)")
    ap.add_argument("--lr", type=float, default=None,
                    help="learning rate of the training kinds (default 0.01 for sgd, "
                         "0.001 for adam)")
    ap.add_argument("--loss", choices=("mse",), default="mse",
                    help="loss of the training kinds (default mse: mean squared error)")
    ap.add_argument("--forward-only", action="store_true",
                    help="training kinds: write only the forward and the loss, "
                         "returning the loss (the input of summa-differentiate)")
    ap.add_argument("--name", default=None,
                    help="function name (default mlp / attention / gpt_layer / gpt / "
                         "mlp_train_step / gpt_train_step)")
    ap.add_argument("-o", "--output", default=None, help="output file (default stdout)")
    cfg = ap.parse_args(argv)

    if cfg.ffn is None:
        cfg.ffn = 4 * cfg.hidden
    if cfg.name is None:
        cfg.name = default_name(cfg)
    if cfg.lr is None:
        cfg.lr = DEFAULT_LR[cfg.optimizer]

    fail = ap.error  # prints the usage and the message, exits with status 2

    for opt in ("layers", "hidden", "heads", "ffn", "seq", "batch"):
        if getattr(cfg, opt) <= 0:
            fail("--%s must be positive, got %d" % (opt, getattr(cfg, opt)))
    if cfg.kind in FORWARD_KIND and not (math.isfinite(cfg.lr) and cfg.lr > 0):
        fail("--lr must be a positive number, got %r" % cfg.lr)
    if FORWARD_KIND.get(cfg.kind, cfg.kind) != "mlp" and cfg.hidden % cfg.heads != 0:
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
