#!/usr/bin/env python3
"""Export a pre-LN GPT-2 block from JAX to MLIR `linalg` on tensors.

The block is written in JAX (random weights, no downloaded model), lowered by
JAX to StableHLO, and converted to `linalg` on tensors by IREE's StableHLO
input conversion (`iree-opt` from the `iree-base-compiler` wheel). The only
other passes are upstream MLIR's `inline` (JAX emits `jnp.tril` and
`jnp.where` as private functions) and `symbol-dce`. The ops are not edited:
the script only renames the entry function and adds `summa.role` argument
attributes, then checks that the result uses upstream dialects only
(func, linalg, tensor, arith, math).

See README.md in this folder for the environment and the pinned versions.

    python3 examples/export/export_gpt2_block.py -o examples/fixtures/gpt2_block_jax.mlir
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from iree.compiler import ir  # noqa: E402
from iree.compiler.tools import binaries  # noqa: E402

LN_EPS = 1e-5
ALLOWED_DIALECTS = {"builtin", "func", "linalg", "tensor", "arith", "math"}
# The pipeline given to iree-opt: IREE's StableHLO -> linalg conversion, then
# upstream inlining and dead-symbol removal.
PIPELINE = "builtin.module(iree-stablehlo-to-iree-input,inline,symbol-dce)"


def param_specs(hidden, ffn):
    """(name, role, shape) of the parameters, in argument order after x."""
    H, F = hidden, ffn
    return [
        ("ln1_gamma", "bias", (H,)),
        ("ln1_beta", "bias", (H,)),
        ("wq", "weight", (H, H)),
        ("bq", "bias", (H,)),
        ("wk", "weight", (H, H)),
        ("bk", "bias", (H,)),
        ("wv", "weight", (H, H)),
        ("bv", "bias", (H,)),
        ("wo", "weight", (H, H)),
        ("bo", "bias", (H,)),
        ("ln2_gamma", "bias", (H,)),
        ("ln2_beta", "bias", (H,)),
        ("w1", "weight", (H, F)),
        ("b1", "bias", (F,)),
        ("w2", "weight", (F, H)),
        ("b2", "bias", (H,)),
    ]


def make_block(batch, seq, hidden, heads):
    """The GPT-2 block as a JAX function of (x, *params).

    x is [tokens, hidden] with tokens = batch*seq, batch-major
    (token t = b*seq + s); weights are [in, out]."""
    B, S, H, NH = batch, seq, hidden, heads
    D = H // NH

    def layer_norm(x, gamma, beta):
        mean = jnp.mean(x, axis=-1, keepdims=True)
        c = x - mean
        var = jnp.mean(c * c, axis=-1, keepdims=True)
        return c * jax.lax.rsqrt(var + LN_EPS) * gamma + beta

    def block(x, ln1_gamma, ln1_beta, wq, bq, wk, bk, wv, bv, wo, bo,
              ln2_gamma, ln2_beta, w1, b1, w2, b2):
        # Attention half: H = X + Attn(LN1(X))·Wo + bo
        a = layer_norm(x, ln1_gamma, ln1_beta)
        q = (a @ wq + bq).reshape(B, S, NH, D)
        k = (a @ wk + bk).reshape(B, S, NH, D)
        v = (a @ wv + bv).reshape(B, S, NH, D)
        scores = jnp.einsum("bihd,bjhd->bhij", q, k) / jnp.sqrt(jnp.float32(D))
        causal = jnp.tril(jnp.ones((S, S), dtype=bool))
        scores = jnp.where(causal, scores, -jnp.inf)
        probs = jax.nn.softmax(scores, axis=-1)
        ctx = jnp.einsum("bhij,bjhd->bihd", probs, v).reshape(B * S, H)
        h = x + (ctx @ wo + bo)
        # MLP half: Y = H + GeLU(LN2(H)·W1 + b1)·W2 + b2 (GPT-2's tanh GeLU)
        m = layer_norm(h, ln2_gamma, ln2_beta)
        u = jax.nn.gelu(m @ w1 + b1, approximate=True)
        return h + (u @ w2 + b2)

    return block


def reference(x, p, batch, seq, hidden, heads):
    """The same block in plain NumPy (float64), for the self-check."""
    B, S, H, NH = batch, seq, hidden, heads
    D = H // NH
    x = x.astype(np.float64)
    p = {k: v.astype(np.float64) for k, v in p.items()}

    def ln(t, g, b):
        mu = t.mean(-1, keepdims=True)
        var = ((t - mu) ** 2).mean(-1, keepdims=True)
        return (t - mu) / np.sqrt(var + LN_EPS) * g + b

    a = ln(x, p["ln1_gamma"], p["ln1_beta"])
    heads_of = lambda t: t.reshape(B, S, NH, D).transpose(0, 2, 1, 3)  # noqa: E731
    q = heads_of(a @ p["wq"] + p["bq"])
    k = heads_of(a @ p["wk"] + p["bk"])
    v = heads_of(a @ p["wv"] + p["bv"])
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(D)
    s = np.where(np.tril(np.ones((S, S), bool)), s, -np.inf)
    s = np.exp(s - s.max(-1, keepdims=True))
    s = s / s.sum(-1, keepdims=True)
    ctx = (s @ v).transpose(0, 2, 1, 3).reshape(B * S, H)
    h = x + ctx @ p["wo"] + p["bo"]
    m = ln(h, p["ln2_gamma"], p["ln2_beta"])
    z = m @ p["w1"] + p["b1"]
    u = 0.5 * z * (1 + np.tanh(np.sqrt(2 / np.pi) * (z + 0.044715 * z ** 3)))
    return h + u @ p["w2"] + p["b2"]


def random_params(specs, tokens, hidden, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((tokens, hidden)).astype(np.float32)
    params = {}
    for name, _, shape in specs:
        if name.endswith("gamma"):
            val = 1.0 + 0.1 * rng.standard_normal(shape)
        elif len(shape) == 2:
            val = rng.standard_normal(shape) / np.sqrt(shape[0])
        else:
            val = 0.1 * rng.standard_normal(shape)
        params[name] = val.astype(np.float32)
    return x, params


def self_check(block, specs, args):
    """Run the JAX block on random weights and compare it with NumPy."""
    T = args.batch * args.seq
    x, params = random_params(specs, T, args.hidden, args.seed)
    got = np.asarray(jax.jit(block)(x, *[params[n] for n, _, _ in specs]))
    want = reference(x, params, args.batch, args.seq, args.hidden, args.heads)
    err = np.linalg.norm(got - want) / np.linalg.norm(want)
    if not err < 1e-5:
        sys.exit(f"error: the JAX block disagrees with the NumPy reference "
                 f"(relative L2 error {err:.3e})")
    return err


def to_linalg(stablehlo_text, iree_opt, pipeline=PIPELINE):
    proc = subprocess.run(
        [iree_opt, f"--pass-pipeline={pipeline}", "-"],
        input=stablehlo_text, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"error: iree-opt failed:\n{proc.stderr}")
    return proc.stdout


def annotate(linalg_text, fn_name, roles, names=None, updates=None):
    """Rename the entry function and add summa.role argument attributes
    (and summa.name, given `names`).

    updates[k], given, is the argument index that result k replaces (the
    summa.updates result attribute), or None.
    Only attributes change; the ops are printed as iree-opt produced them."""
    ctx = ir.Context()
    ctx.allow_unregistered_dialects = False
    module = ir.Module.parse(linalg_text, ctx)
    with ctx:
        funcs = [op for op in module.body.operations if op.operation.name == "func.func"]
        if len(funcs) != 1:
            sys.exit(f"error: expected one function after inlining, got {len(funcs)}")
        fn = funcs[0]
        fn_type = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
        if len(fn_type.inputs) != len(roles):
            sys.exit(f"error: the function has {len(fn_type.inputs)} arguments, "
                     f"expected {len(roles)}")
        if updates is not None:
            if len(fn_type.results) != len(updates):
                sys.exit(f"error: the function has {len(fn_type.results)} results, "
                         f"expected {len(updates)}")
            for k, j in enumerate(updates):
                if j is not None and fn_type.results[k] != fn_type.inputs[j]:
                    sys.exit(f"error: result {k} ({fn_type.results[k]}) does not have the type "
                             f"of argument {j} ({fn_type.inputs[j]})")
        fn.attributes["sym_name"] = ir.StringAttr.get(fn_name)
        attrs = [{"summa.role": ir.StringAttr.get(r)} for r in roles]
        if names is not None:
            for a, n in zip(attrs, names):
                a["summa.name"] = ir.StringAttr.get(n)
        fn.attributes["arg_attrs"] = ir.ArrayAttr.get([ir.DictAttr.get(a) for a in attrs])
        if updates is not None:
            i64 = ir.IntegerType.get_signless(64)
            fn.attributes["res_attrs"] = ir.ArrayAttr.get([
                ir.DictAttr.get({} if j is None else
                                {"summa.updates": ir.IntegerAttr.get(i64, j)})
                for j in updates])
        # The module keeps no JAX/IREE attributes; drop its name too.
        if "sym_name" in module.operation.attributes:
            del module.operation.attributes["sym_name"]

        dialects = set()

        def visit(op):
            dialects.add(op.name.split(".")[0])
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        extra = dialects - ALLOWED_DIALECTS
        if extra:
            sys.exit(f"error: dialects other than upstream ones remain: {sorted(extra)}")
        return str(module)


def versions():
    import importlib.metadata as md
    return {p: md.version(p) for p in ("jax", "jaxlib", "iree-base-compiler")}


def write_output(text, args, summary):
    """Checks `text` with mlir-opt-22 (or --mlir-opt) where there is one, then
    writes it to -o (and `summary` to stderr) or to stdout."""
    if not text.endswith("\n"):
        text += "\n"
    mlir_opt = args.mlir_opt or shutil.which("mlir-opt-22")
    if mlir_opt:
        proc = subprocess.run([mlir_opt, "-", "-o", os.devnull], input=text,
                              capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"error: {mlir_opt} does not accept the output:\n{proc.stderr}")
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
        note = f" verified by {os.path.basename(mlir_opt)}" if mlir_opt else ""
        print(f"wrote {args.output}{note}; {summary}", file=sys.stderr)
    else:
        sys.stdout.write(text)


def block_arg_parser(description, default_name):
    """The command line of the block's exporters: sizes, names, tools."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--seq", type=int, default=8)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--ffn", type=int, default=None, help="default 4*hidden")
    ap.add_argument("--name", default=default_name)
    ap.add_argument("--seed", type=int, default=0, help="seed of the self-check's random weights")
    ap.add_argument("--iree-opt", default=None, help="iree-opt binary (default: the one in iree-base-compiler)")
    ap.add_argument("--mlir-opt", default=None,
                    help="upstream mlir-opt to verify the output with (default: mlir-opt-22 if on PATH)")
    ap.add_argument("-o", "--output", default=None)
    return ap


def parse_block_args(ap):
    args = ap.parse_args()
    if args.ffn is None:
        args.ffn = 4 * args.hidden
    for k in ("batch", "seq", "hidden", "heads", "ffn"):
        if getattr(args, k) <= 0:
            ap.error(f"--{k} must be positive")
    if args.hidden % args.heads:
        ap.error("--hidden must be a multiple of --heads")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", args.name):
        ap.error("--name is not a valid MLIR symbol")
    return args


def main():
    args = parse_block_args(block_arg_parser(__doc__.split("\n\n")[0], "gpt2_block"))

    T = args.batch * args.seq
    specs = param_specs(args.hidden, args.ffn)
    block = make_block(args.batch, args.seq, args.hidden, args.heads)
    err = self_check(block, specs, args)

    f32 = jnp.float32
    arg_shapes = [jax.ShapeDtypeStruct((T, args.hidden), f32)] + [
        jax.ShapeDtypeStruct(shape, f32) for _, _, shape in specs]
    stablehlo = jax.jit(block).lower(*arg_shapes).as_text()

    iree_opt = args.iree_opt or binaries.find_tool("iree-opt")
    linalg = to_linalg(stablehlo, iree_opt)
    roles = ["activation"] + [r for _, r, _ in specs]
    body = annotate(linalg, args.name, roles)

    v = versions()
    cmd = ("python3 examples/export/export_gpt2_block.py"
           f" --batch {args.batch} --seq {args.seq} --hidden {args.hidden}"
           f" --heads {args.heads} --ffn {args.ffn}"
           + (f" --name {args.name}" if args.name != "gpt2_block" else "")
           + (f" -o {args.output}" if args.output else ""))
    arg_names = ["x"] + [n for n, _, _ in specs]
    header = [
        "// One pre-LN GPT-2 block exported from JAX: H = X + Attn(LN1(X)); Y = H + MLP(LN2(H)),",
        "// causal attention, tanh GeLU, LayerNorm eps 1e-5. Generated, do not edit:",
        f"//   {cmd}",
        f"// with jax {v['jax']}, jaxlib {v['jaxlib']}, iree-base-compiler {v['iree-base-compiler']}:",
        "// jax.jit(block).lower(...) -> StableHLO -> iree-opt",
        f"//   --pass-pipeline=\"{PIPELINE}\"",
        "// then only the function name and the summa.role argument attributes are set.",
        "//",
        f"// Tokens T = batch·seq = {args.batch}·{args.seq} = {T} (token t = b·seq + s), hidden {args.hidden},",
        f"// heads {args.heads} of dim {args.hidden // args.heads}, ffn {args.ffn}, f32. Weights are [in, out].",
        "// Arguments: " + ", ".join(f"%arg{i} = {n}" for i, n in enumerate(arg_names[:9])) + ",",
        "//   " + ", ".join(f"%arg{i} = {n}" for i, n in enumerate(arg_names) if i >= 9) + ".",
        "",
    ]
    write_output("\n".join(header) + body, args,
                 f"JAX vs NumPy self-check rel_err={err:.2e}")


if __name__ == "__main__":
    main()
