#!/usr/bin/env python3
"""Export a JAX training step of a small GPT language model to MLIR `linalg` on tensors.

The model is a byte-level (or any vocabulary) GPT: token and position
embeddings, `--layers` pre-LN GPT-2 blocks (the block of export_gpt2_block.py),
a final LayerNorm and an untied LM head, trained with the cross-entropy of the
next token. The step is

    logits = gpt(idx, params)                                   # [T, V]
    loss   = mean over t of -log softmax(logits)[t, targets[t]]
    loss, grads = jax.value_and_grad(loss)(params, idx, targets)
    new_p  = p - LR * g                                          # SGD
    return (loss, *new_params)

The embedding lookup and the choice of the target's log-probability are
written as products with one-hot matrices (`jax.nn.one_hot`), the way
TPU-oriented JAX models (T5X, Mesh TensorFlow) write them: the forward is a
matmul and its gradient another, with no gather or scatter-add, so the IR is
dense linear algebra that a partitioner can shard. The token ids are int32.

The step is lowered with jax.jit(step).lower(...) to StableHLO and converted
to `linalg` on tensors by IREE's StableHLO input conversion exactly as in
export_jax_train_step.py. The script only renames the entry function, sets
`summa.role` / `summa.name` argument attributes and `summa.updates` result
attributes, then checks that only upstream dialects remain.

With --save-init FILE it also writes the initial parameters (GPT-2's
initialisation: normal(0, 0.02) matrices and embeddings, zero biases, unit
LayerNorm gains; from --seed) as safetensors under the argument names, the
file a compiled binary's --inputs starts a training run from. With
--reference-data TOKENS --reference-steps N --reference-out FILE it trains
the same model in JAX for N steps on the batches summa's --data loader
feeds (the same sampling, see runtime/tooling/DataLoader.h) and writes the
losses, the last loss as `result0` and the final parameters: the
framework's own run, an --expect file for the compiled step's run.

    python3 examples/export/export_jax_lm_train_step.py -o examples/fixtures/gpt_lm_train_step_jax.mlir \\
        --save-init examples/fixtures/gpt_lm.init.safetensors
"""

import json
import os
import struct
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from iree.compiler.tools import binaries  # noqa: E402

from export_gpt2_block import (  # noqa: E402
    LN_EPS, annotate, block_arg_parser, make_block, param_specs,
    parse_block_args, to_linalg, versions, write_output)
from export_jax_train_step import PIPELINE  # noqa: E402
from summa.batches import batch_offset  # noqa: E402



def lm_specs(layers, vocab, seq, hidden, ffn):
    """(name, role, shape) of every parameter, in argument order after
    idx and targets."""
    specs = [("wte", "weight", (vocab, hidden)), ("wpe", "weight", (seq, hidden))]
    for i in range(layers):
        specs += [(f"h{i}.{n}", r, s) for n, r, s in param_specs(hidden, ffn)]
    specs += [("lnf_gamma", "bias", (hidden,)), ("lnf_beta", "bias", (hidden,)),
              ("lm_head", "weight", (hidden, vocab))]
    return specs


def make_loss(args):
    B, S, H, V, L = args.batch, args.seq, args.hidden, args.vocab, args.layers
    block = make_block(B, S, H, args.heads)
    per_block = len(param_specs(H, args.ffn))

    def layer_norm(x, gamma, beta):
        mean = jnp.mean(x, axis=-1, keepdims=True)
        c = x - mean
        var = jnp.mean(c * c, axis=-1, keepdims=True)
        return c * jax.lax.rsqrt(var + LN_EPS) * gamma + beta

    def loss_fn(params, idx, targets):
        wte, wpe = params[0], params[1]
        onehot = jax.nn.one_hot(idx.reshape(B * S), V, dtype=jnp.float32)
        x = (onehot @ wte).reshape(B, S, H) + wpe
        x = x.reshape(B * S, H)
        for i in range(L):
            x = block(x, *params[2 + i * per_block: 2 + (i + 1) * per_block])
        lnf_gamma, lnf_beta, lm_head = params[-3:]
        logits = layer_norm(x, lnf_gamma, lnf_beta) @ lm_head
        logp = jax.nn.log_softmax(logits, axis=-1)
        picked = jnp.sum(logp * jax.nn.one_hot(targets.reshape(B * S), V,
                                               dtype=jnp.float32), axis=-1)
        return -jnp.mean(picked)

    return loss_fn


def make_step(loss_fn, lr):
    def step(idx, targets, *params):
        loss, grads = jax.value_and_grad(loss_fn)(list(params), idx, targets)
        return (loss, *[p - lr * g for p, g in zip(params, grads)])
    return step


def init_params(specs, seed):
    """GPT-2's initialisation."""
    rng = np.random.default_rng(seed)
    params = {}
    for name, _, shape in specs:
        if name.endswith("gamma"):
            val = np.ones(shape)
        elif len(shape) == 2:
            val = 0.02 * rng.standard_normal(shape)
        else:
            val = np.zeros(shape)
        params[name] = val.astype(np.float32)
    return params


# -- the batches of summa's --data loader (python/summa/batches.py) ----------

def read_tokens(path):
    """A flat uint16 file (nanoGPT's prepare.py) or a 1-D .npy file."""
    if path.endswith(".npy"):
        return np.load(path).astype(np.int64)
    return np.fromfile(path, dtype=np.uint16).astype(np.int64)


def batch(tokens, seed, step, B, S):
    offs = [batch_offset(seed, step, b, len(tokens), S) for b in range(B)]
    x = np.stack([tokens[o:o + S] for o in offs]).astype(np.int32)
    y = np.stack([tokens[o + 1:o + 1 + S] for o in offs]).astype(np.int32)
    return x, y


def write_safetensors(path, tensors, metadata=None):
    header, offset, blobs = {}, 0, []
    if metadata:
        header["__metadata__"] = metadata
    for name, arr in tensors.items():
        arr = np.asarray(arr)
        if not arr.flags.c_contiguous:  # (ascontiguousarray makes 0-d 1-d)
            arr = arr.copy(order="C")
        dtype = {np.dtype(np.float32): "F32", np.dtype(np.int32): "I32"}[arr.dtype]
        blob = arr.tobytes()
        header[name] = {"dtype": dtype, "shape": list(arr.shape),
                        "data_offsets": [offset, offset + len(blob)]}
        offset += len(blob)
        blobs.append(blob)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def self_check(loss_fn, specs, args):
    """The loss at initialisation is close to log(V) (near-uniform logits),
    and the JAX gradient agrees with a central finite difference along a
    random direction of every parameter (float32, so loosely)."""
    params = init_params(specs, args.seed)
    plist = [jnp.asarray(params[n]) for n, _, _ in specs]
    rng = np.random.default_rng(args.seed + 1)
    idx = rng.integers(0, args.vocab, (args.batch, args.seq), dtype=np.int32)
    tgt = rng.integers(0, args.vocab, (args.batch, args.seq), dtype=np.int32)
    loss = float(jax.jit(loss_fn)(plist, idx, tgt))
    if not abs(loss - np.log(args.vocab)) < 0.05 * np.log(args.vocab):
        sys.exit(f"error: initial loss {loss} is far from log(V) = {np.log(args.vocab)}")
    grads = jax.jit(jax.grad(loss_fn))(plist, idx, tgt)
    f = jax.jit(loss_fn)
    worst = 0.0
    for i, (name, _, _) in enumerate(specs):
        v = rng.standard_normal(plist[i].shape).astype(np.float32)
        v /= np.linalg.norm(v)
        eps = 1e-2
        plus = list(plist)
        minus = list(plist)
        plus[i] = plist[i] + eps * v
        minus[i] = plist[i] - eps * v
        fd = (float(f(plus, idx, tgt)) - float(f(minus, idx, tgt))) / (2 * eps)
        ad = float(np.sum(np.asarray(grads[i]) * v))
        err = abs(ad - fd) / max(abs(fd), 1e-2)
        worst = max(worst, err)
        if not err < 5e-2:
            sys.exit(f"error: gradient of {name}: <g,v> = {ad!r}, FD = {fd!r}")
    return loss, worst


def main():
    ap = block_arg_parser(__doc__.split("\n\n")[0], "gpt_lm_train_step_jax")
    ap.set_defaults(batch=8, seq=32, hidden=32, heads=4)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--vocab", type=int, default=256, help="vocabulary size (default 256: bytes)")
    ap.add_argument("--lr", type=float, default=0.2, help="SGD learning rate, baked into the IR")
    ap.add_argument("--save-init", default=None, metavar="FILE",
                    help="write the initial parameters (from --seed) as safetensors")
    ap.add_argument("--reference-data", default=None, metavar="TOKENS",
                    help="train in JAX on this token file, as summa's --data does")
    ap.add_argument("--reference-steps", type=int, default=20)
    ap.add_argument("--reference-seed", type=int, default=42,
                    help="the --seed of the compiled binary's run (batch sampling)")
    ap.add_argument("--reference-out", default=None, metavar="FILE",
                    help="safetensors of the JAX run: 'losses' and the final parameters")
    args = parse_block_args(ap)

    specs = lm_specs(args.layers, args.vocab, args.seq, args.hidden, args.ffn)
    loss_fn = make_loss(args)
    init_loss, grad_err = self_check(loss_fn, specs, args)
    step = make_step(loss_fn, args.lr)

    params = init_params(specs, args.seed)
    if args.save_init:
        write_safetensors(args.save_init, params)
        print(f"wrote {args.save_init}", file=sys.stderr)
    if args.reference_data:
        tokens = read_tokens(args.reference_data)
        jstep = jax.jit(step)
        plist = [jnp.asarray(params[n]) for n, _, _ in specs]
        losses = []
        for k in range(args.reference_steps):
            x, y = batch(tokens, args.reference_seed, k, args.batch, args.seq)
            out = jstep(x, y, *plist)
            losses.append(float(out[0]))
            plist = list(out[1:])
            print(f"jax: step {k + 1} loss {losses[-1]:.4f}", file=sys.stderr)
        if args.reference_out:
            # result0 is the compiled step's name for its loss output: the
            # file is an --expect file for a run of as many steps.
            result = {"losses": np.asarray(losses, np.float32),
                      "result0": np.asarray(losses[-1], np.float32)}
            result.update({n: np.asarray(p) for (n, _, _), p in zip(specs, plist)})
            write_safetensors(args.reference_out, result)
            print(f"wrote {args.reference_out}", file=sys.stderr)
    if not args.output and args.reference_data:
        return

    i32 = jax.ShapeDtypeStruct((args.batch, args.seq), jnp.int32)
    arg_shapes = [i32, i32] + [jax.ShapeDtypeStruct(s, jnp.float32) for _, _, s in specs]
    stablehlo = jax.jit(step).lower(*arg_shapes).as_text()
    iree_opt = args.iree_opt or binaries.find_tool("iree-opt")
    linalg = to_linalg(stablehlo, iree_opt, PIPELINE)
    names = ["idx", "targets"] + [n for n, _, _ in specs]
    roles = ["activation", "activation"] + [r for _, r, _ in specs]
    updates = [None] + [2 + i for i in range(len(specs))]
    body = annotate(linalg, args.name, roles, names=names, updates=updates)

    v = versions()
    cmd = ("python3 examples/export/export_jax_lm_train_step.py"
           f" --layers {args.layers} --vocab {args.vocab} --batch {args.batch}"
           f" --seq {args.seq} --hidden {args.hidden} --heads {args.heads} --ffn {args.ffn}"
           f" --lr {args.lr!r}"
           + (f" --name {args.name}" if args.name != "gpt_lm_train_step_jax" else "")
           + (f" --seed {args.seed}" if args.seed != 0 else "")
           + (f" -o {args.output}" if args.output else ""))
    T = args.batch * args.seq
    header = [
        f"// A training step of a {args.layers}-layer GPT language model exported from JAX.",
        "// Generated, do not edit:",
        f"//   {cmd}",
        f"// with jax {v['jax']}, jaxlib {v['jaxlib']}, iree-base-compiler {v['iree-base-compiler']}:",
        "// jax.jit(step).lower(...) -> StableHLO -> iree-opt",
        f"//   --pass-pipeline=\"{PIPELINE}\"",
        "// then only the function name, the summa.name / summa.role argument attributes and the",
        "// summa.updates result attributes are set.",
        "//",
        "// step(idx, targets, *params): logits = gpt(idx); loss = mean cross-entropy of targets;",
        f"//   loss, grads = jax.value_and_grad(loss)(params, idx, targets); new_p = p - lr·g, lr {args.lr}.",
        "// The embedding and the target pick are products with one-hot matrices (no gather).",
        f"// Batch {args.batch} of {args.seq} tokens (T = {T}, int32 ids < vocab {args.vocab}), hidden "
        f"{args.hidden}, heads {args.heads},",
        f"// ffn {args.ffn}, f32; the blocks are those of export_gpt2_block.py. Weights are [in, out].",
        "// Arguments: idx, targets, then " + ", ".join(n for n, _, _ in specs[:2]) + ", the "
        "parameters of block i as h<i>.<name>,",
        "//   lnf_gamma, lnf_beta, lm_head. Results: loss (tensor<f32>), then the updated "
        "parameters; result k >= 1",
        "//   has summa.updates = k + 1 (it replaces %arg<k+1> in the next step).",
        "",
    ]
    write_output("\n".join(header) + body, args,
                 f"self-check: initial loss {init_loss:.4f} (log V = {np.log(args.vocab):.4f}), "
                 f"worst gradient rel_err={grad_err:.2e} (vs f32 finite differences)")


if __name__ == "__main__":
    main()
