#!/usr/bin/env python3
"""Export a JAX training step of a pre-LN GPT-2 block to MLIR `linalg` on tensors.

The block is the one of export_gpt2_block.py (imported from it). The step is

    loss(params, x, y) = mean((block(x, *params) - y)**2)      # over all T·H entries
    loss, grads = jax.value_and_grad(loss)(params, x, y)
    new_p = p - LR * g                                           # SGD, for every parameter
    return (loss, *new_params)

with LR a Python constant baked into the IR. JAX differentiates the block
itself (reverse mode); the step is lowered with jax.jit(step).lower(...) to
StableHLO and converted to `linalg` on tensors by IREE's StableHLO input
conversion (`iree-opt` from the `iree-base-compiler` wheel), after IREE's
StableHLO canonicalization (needed for the softmax backward) and followed by
upstream `inline` and `symbol-dce`. The ops are not edited: the script only
renames the entry function, sets `summa.role` / `summa.name` argument
attributes and a `summa.updates = <argument index>` result attribute on each
updated parameter, then checks that only upstream dialects remain
(func, linalg, tensor, arith, math).

Exported function: arguments x, y, then the 16 parameters in the order of
export_gpt2_block.py; results loss (tensor<f32>), then the 16 updated
parameters in argument order. Result 1+i updates argument 2+i.

With --weights-as-constants the step closes over the parameters (the
self-check's random ones, from --seed) instead of taking them as arguments:
jax.jit then bakes them into the IR as constants, the exporter's default for
a function of its inputs only. The function is step(x, y) -> (loss,
*new_params), with no summa.updates (`summa-compile --lift-constants=N`
turns the constants into arguments again).

See README.md in this folder for the environment and the pinned versions.

    python3 examples/export/export_jax_train_step.py -o examples/fixtures/gpt2_train_step_jax.mlir
"""

import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from iree.compiler.tools import binaries  # noqa: E402

from export_gpt2_block import (  # noqa: E402
    annotate, block_arg_parser, make_block, param_specs, parse_block_args,
    random_params, reference, to_linalg, versions, write_output)

# Learning rate of the SGD update, baked into the IR as a constant.
LR = 0.1
# IREE's StableHLO canonicalization must run before the conversion: without it
# the softmax backward fails with "failed to legalize unresolved materialization".
PIPELINE = ("builtin.module(func.func(iree-stablehlo-canonicalize),iree-stablehlo-to-iree-input,"
            "inline,symbol-dce)")


def make_step(block, n_params, lr):
    """step(x, y, *params) -> (loss, *new_params)."""

    def loss_fn(params, x, y):
        d = block(x, *params) - y
        return jnp.mean(d * d)

    def step(x, y, *params):
        loss, grads = jax.value_and_grad(loss_fn)(list(params), x, y)
        assert len(grads) == n_params
        return (loss, *[p - lr * g for p, g in zip(params, grads)])

    return step, loss_fn


def ref_loss(x, y, p, args):
    """float64 NumPy loss of the block of export_gpt2_block.py."""
    out = reference(x, p, args.batch, args.seq, args.hidden, args.heads)
    return float(np.mean((out - y.astype(np.float64)) ** 2))


def self_check(block, specs, args):
    """Check the JAX step against NumPy float64.

    - the loss against the float64 reference;
    - every parameter's gradient, projected on a random direction, against a
      central finite difference of the float64 reference loss;
    - the update p - LR·g against the gradients of jax.grad.
    Returns (loss rel err, worst gradient rel err)."""
    T = args.batch * args.seq
    x, params = random_params(specs, T, args.hidden, args.seed)
    rng = np.random.default_rng(args.seed + 1)
    y = rng.standard_normal((T, args.hidden)).astype(np.float32)
    names = [n for n, _, _ in specs]
    plist = [params[n] for n in names]

    step, loss_fn = make_step(block, len(specs), LR)
    out = jax.jit(step)(x, y, *plist)
    loss = float(out[0])
    want = ref_loss(x, y, params, args)
    loss_err = abs(loss - want) / abs(want)
    if not loss_err < 1e-5:
        sys.exit(f"error: JAX loss {loss!r} disagrees with the NumPy reference {want!r} "
                 f"(relative error {loss_err:.3e})")

    grads = jax.jit(jax.grad(loss_fn))(plist, x, y)
    # Each gradient is checked along a random unit direction v: <g, v> against
    # (L(p + eps·v) - L(p - eps·v)) / 2eps. Errors are relative to the FD value,
    # floored at 1e-3 of the largest gradient norm (the gradient of bk is 0 in
    # exact arithmetic: softmax does not see a bias shared by all keys).
    gmax = max(float(np.linalg.norm(np.asarray(g))) for g in grads)
    p64 = {k: val.astype(np.float64) for k, val in params.items()}
    worst = 0.0
    eps = 1e-4
    for i, name in enumerate(names):
        g = np.asarray(grads[i], np.float64)
        new = np.asarray(out[1 + i])
        expect_new = plist[i] - np.float32(LR) * np.asarray(grads[i])
        if not np.allclose(new, expect_new, rtol=1e-6, atol=1e-7):
            sys.exit(f"error: the update of {name} is not p - {LR}·g")
        v = rng.standard_normal(plist[i].shape)
        v /= np.linalg.norm(v)
        plus = dict(p64, **{name: p64[name] + eps * v})
        minus = dict(p64, **{name: p64[name] - eps * v})
        fd = (ref_loss(x, y, plus, args) - ref_loss(x, y, minus, args)) / (2 * eps)
        ad = float(np.sum(g * v))
        err = abs(ad - fd) / max(abs(fd), 1e-3 * gmax)
        worst = max(worst, err)
        if not err < 1e-3:
            sys.exit(f"error: gradient of {name} disagrees with a float64 finite difference: "
                     f"<g,v> = {ad!r}, FD = {fd!r} (relative error {err:.3e})")
    return loss_err, worst


def main():
    ap = block_arg_parser(__doc__.split("\n\n")[0], "gpt2_train_step_jax")
    ap.add_argument("--weights-as-constants", action="store_true",
                    help="close over the parameters: they become constants in the IR")
    args = parse_block_args(ap)

    T = args.batch * args.seq
    specs = param_specs(args.hidden, args.ffn)
    block = make_block(args.batch, args.seq, args.hidden, args.heads)
    loss_err, grad_err = self_check(block, specs, args)

    f32 = jnp.float32
    act = jax.ShapeDtypeStruct((T, args.hidden), f32)
    arg_shapes = [act, act] + [jax.ShapeDtypeStruct(shape, f32) for _, _, shape in specs]
    step, _ = make_step(block, len(specs), LR)
    if args.weights_as_constants:
        # The parameters of the self-check, closed over: constants in the IR.
        _, params = random_params(specs, T, args.hidden, args.seed)
        plist = [jnp.asarray(params[n]) for n, _, _ in specs]
        traced = jax.jit(lambda x, y: step(x, y, *plist))
        stablehlo = traced.lower(act, act).as_text()
    else:
        stablehlo = jax.jit(step).lower(*arg_shapes).as_text()

    iree_opt = args.iree_opt or binaries.find_tool("iree-opt")
    linalg = to_linalg(stablehlo, iree_opt, PIPELINE)
    if args.weights_as_constants:
        arg_names = ["x", "y"]
        roles = ["activation", "activation"]
        updates = [None] * (1 + len(specs))
    else:
        arg_names = ["x", "y"] + [n for n, _, _ in specs]
        roles = ["activation", "activation"] + [r for _, r, _ in specs]
        updates = [None] + [2 + i for i in range(len(specs))]
    body = annotate(linalg, args.name, roles, names=arg_names, updates=updates)

    v = versions()
    cmd = ("python3 examples/export/export_jax_train_step.py"
           f" --batch {args.batch} --seq {args.seq} --hidden {args.hidden}"
           f" --heads {args.heads} --ffn {args.ffn}"
           + (f" --name {args.name}" if args.name != "gpt2_train_step_jax" else "")
           + (f" --seed {args.seed}" if args.seed != 0 else "")
           + (" --weights-as-constants" if args.weights_as_constants else "")
           + (f" -o {args.output}" if args.output else ""))
    header = [
        "// A training step of one pre-LN GPT-2 block (the block of export_gpt2_block.py) exported",
        "// from JAX. Generated, do not edit:",
        f"//   {cmd}",
        f"// with jax {v['jax']}, jaxlib {v['jaxlib']}, iree-base-compiler {v['iree-base-compiler']}:",
        "// jax.jit(step).lower(...) -> StableHLO -> iree-opt",
        f"//   --pass-pipeline=\"{PIPELINE}\"",
        "// then only the function name, the summa.name / summa.role argument attributes and the",
        "// summa.updates result attributes are set.",
        "//",
        "// step(x, y, *params): loss = mean((block(x, params) - y)^2) over all T·H entries,",
        "//   loss, grads = jax.value_and_grad(loss)(params, x, y); new_p = p - lr·g, lr "
        f"{LR}.",
        f"// Tokens T = batch·seq = {args.batch}·{args.seq} = {T} (token t = b·seq + s), hidden {args.hidden},",
        f"// heads {args.heads} of dim {args.hidden // args.heads}, ffn {args.ffn}, f32. Weights are [in, out].",
    ]
    if args.weights_as_constants:
        header += [
            "// Arguments: %arg0 = x, %arg1 = y; the parameters (seed "
            f"{args.seed}) are constants.",
            "// Results: loss (tensor<f32>), then the updated parameters in the order of",
            "//   export_gpt2_block.py.",
            "",
        ]
    else:
        header += [
            "// Arguments: " + ", ".join(f"%arg{i} = {n}" for i, n in enumerate(arg_names[:9])) + ",",
            "//   " + ", ".join(f"%arg{i} = {n}" for i, n in enumerate(arg_names) if i >= 9) + ".",
            "// Results: loss (tensor<f32>), then the updated parameters in argument order;",
            "//   result k >= 1 has summa.updates = k + 1 (it replaces %arg<k+1> in the next step).",
            "",
        ]
    write_output("\n".join(header) + body, args,
                 f"self-check: loss rel_err={loss_err:.2e} (vs NumPy f64), worst gradient "
                 f"rel_err={grad_err:.2e} (vs f64 finite differences)")


if __name__ == "__main__":
    main()
