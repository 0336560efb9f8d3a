#!/usr/bin/env python3
"""Exports small Hugging Face models the way a user calls them and checks
summa's compiled programs against PyTorch's own outputs.

Each model is built from a tiny config with random weights (nothing is
downloaded), called with token ids as `Model(input_ids=...)` returns its
last hidden state (`--loss`: `ForCausalLM(input_ids, labels)` returns the
loss), exported by torch-mlir's FX importer with the weights as constants
and transformers' default attention, and then compiled by summa-compile for
each grid and run under mpirun with --inputs/--expect (PyTorch's output) and
--check (the unpartitioned program). `--train`: the loss with the weights
as arguments, the SGD step summa-differentiate derives from it, against
PyTorch's autograd step (the loss and every updated weight). One line per
model and grid:

    /tmp/tvenv/bin/python examples/export/try_hf_models.py --summa build/bin \\
        --grids 1,1,1 2,2,1 1,1,2 [--models llama mistral ...] [--loss]

Needs the packages of requirements-torch.txt (TORCH.md). Not a test of the
suite (CI has no torch); the fixtures it does not write are what the suite
runs (export_torch.py).
"""

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from summa.export import decompositions  # noqa: E402  aten.gelu as PyTorch computes it

B, S, H, NH, V = 2, 8, 32, 4, 64


def configs():
    import transformers as t

    common = dict(vocab_size=V, max_position_embeddings=S, num_hidden_layers=2)
    ids = dict(pad_token_id=0, bos_token_id=0, eos_token_id=0)
    return {
        "llama": (t.LlamaConfig, dict(hidden_size=H, num_attention_heads=NH, num_key_value_heads=2,
                                      intermediate_size=64, **common, **ids)),
        "mistral": (t.MistralConfig, dict(hidden_size=H, num_attention_heads=NH, num_key_value_heads=2,
                                          intermediate_size=64, sliding_window=4, **common, **ids)),
        "qwen2": (t.Qwen2Config, dict(hidden_size=H, num_attention_heads=NH, num_key_value_heads=2,
                                      intermediate_size=64, **common, **ids)),
        "gemma": (t.GemmaConfig, dict(hidden_size=H, num_attention_heads=NH, num_key_value_heads=1,
                                      head_dim=8, intermediate_size=64, **common, **ids)),
        "phi3": (t.Phi3Config, dict(hidden_size=H, num_attention_heads=NH, num_key_value_heads=NH,
                                    intermediate_size=64, **common, **ids)),
        "gpt_neox": (t.GPTNeoXConfig, dict(hidden_size=H, num_attention_heads=NH, intermediate_size=64,
                                           rotary_pct=0.25, **common, **ids)),
        "falcon": (t.FalconConfig, dict(hidden_size=H, num_attention_heads=NH, num_hidden_layers=2,
                                        vocab_size=V, new_decoder_architecture=False, multi_query=True,
                                        parallel_attn=True, bias=False, alibi=False, **ids)),
        "opt": (t.OPTConfig, dict(hidden_size=H, num_attention_heads=NH, ffn_dim=64, word_embed_proj_dim=H,
                                  dropout=0.0, **common, **ids)),
        "gpt2": (t.GPT2Config, dict(n_embd=H, n_head=NH, n_layer=2, n_positions=S, vocab_size=V,
                                    resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
                                    attn_implementation="eager", **ids)),
        # Rotary on interleaved pairs (x[..., ::2], x[..., 1::2]): strided slices.
        "gptj": (t.GPTJConfig, dict(n_embd=H, n_head=NH, n_layer=2, n_positions=S, vocab_size=V,
                                    rotary_dim=4, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
                                    **ids)),
        "codegen": (t.CodeGenConfig, dict(n_embd=H, n_head=NH, n_layer=2, n_positions=S, n_ctx=S,
                                          vocab_size=V, rotary_dim=4, resid_pdrop=0.0,
                                          embd_pdrop=0.0, attn_pdrop=0.0, **ids)),
        "cohere": (t.CohereConfig, dict(hidden_size=H, num_attention_heads=NH, num_key_value_heads=2,
                                        intermediate_size=64, **common, **ids)),
        # Mixture of experts: the router's torch.topk is tm_tensor.sort; the
        # experts as batched products (the default grouped_mm fails inside
        # torch-mlir on aten.histc).
        "mixtral": (t.MixtralConfig, dict(hidden_size=H, num_attention_heads=NH, num_key_value_heads=2,
                                          intermediate_size=64, num_local_experts=4,
                                          num_experts_per_tok=2, experts_implementation="batched_mm",
                                          **common, **ids)),
        "qwen2_moe": (t.Qwen2MoeConfig, dict(hidden_size=H, num_attention_heads=NH, num_key_value_heads=2,
                                             intermediate_size=64, moe_intermediate_size=32,
                                             shared_expert_intermediate_size=64, num_experts=4,
                                             num_experts_per_tok=2, experts_implementation="batched_mm",
                                             **common, **ids)),
        "qwen3": (t.Qwen3Config, dict(hidden_size=H, num_attention_heads=NH, num_key_value_heads=2,
                                      head_dim=8, intermediate_size=64, **common, **ids)),
        "gemma2": (t.Gemma2Config, dict(hidden_size=H, num_attention_heads=NH, num_key_value_heads=2,
                                        head_dim=8, intermediate_size=64, sliding_window=4,
                                        **common, **ids)),
        "olmo2": (t.Olmo2Config, dict(hidden_size=H, num_attention_heads=NH, num_key_value_heads=2,
                                      intermediate_size=64, **common, **ids)),
        "stablelm": (t.StableLmConfig, dict(hidden_size=H, num_attention_heads=NH, num_key_value_heads=2,
                                            intermediate_size=64, **common, **ids)),
        "phi": (t.PhiConfig, dict(hidden_size=H, num_attention_heads=NH, intermediate_size=64,
                                  resid_pdrop=0.0, embd_pdrop=0.0, attention_dropout=0.0,
                                  **common, **ids)),
        "bloom": (t.BloomConfig, dict(hidden_size=H, n_head=NH, n_layer=2, vocab_size=V,
                                      hidden_dropout=0.0, attention_dropout=0.0, **ids)),
        # Multi-query attention: one key/value head (c_attn is 32 + 8 + 8 wide).
        "gpt_bigcode": (t.GPTBigCodeConfig, dict(n_embd=H, n_head=NH, n_layer=2, n_positions=S,
                                                 vocab_size=V, multi_query=True, resid_pdrop=0.0,
                                                 embd_pdrop=0.0, attn_pdrop=0.0, **ids)),
        "bert": (t.BertConfig, dict(hidden_size=H, num_attention_heads=NH, intermediate_size=64,
                                    hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0,
                                    **common, **ids)),
    }


class LastHidden(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids):
        return self.model(input_ids=input_ids, use_cache=False).last_hidden_state


class Loss(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, labels):
        return self.model(input_ids=input_ids, labels=labels, use_cache=False).loss


def build(name, loss):
    import transformers as t

    cls, kwargs = configs()[name]
    config = cls(**kwargs)
    gen = torch.Generator().manual_seed(0)
    if loss:
        model = t.AutoModelForCausalLM.from_config(config)
    elif name == "bert":
        model = t.BertModel(config, add_pooling_layer=False)
    else:
        model = t.AutoModel.from_config(config)
    model.eval()
    with torch.no_grad():
        for p in model.parameters():
            p.add_(torch.randn(p.shape, generator=gen) * 0.1)
    # torch-mlir's frozen export looks every buffer up in the state_dict.
    for m in model.modules():
        m._non_persistent_buffers_set.clear()
    ids = torch.randint(0, V, (B, S), generator=gen)
    if loss:
        labels = torch.randint(0, V, (B, S), generator=gen)
        return Loss(model).eval(), (ids, labels)
    return LastHidden(model).eval(), (ids,)


def export(name, loss, workdir):
    from safetensors.torch import save_file
    from torch_mlir import fx

    wrapper, inputs = build(name, loss)
    module = fx.export_and_import(wrapper, *inputs, output_type="linalg-on-tensors", func_name=name,
                                  decomposition_table=decompositions())
    with torch.no_grad():
        expected = wrapper(*inputs)
    base = os.path.join(workdir, name)
    with open(base + ".mlir", "w") as f:
        f.write(str(module))
    save_file({f"arg{i}": t.contiguous() for i, t in enumerate(inputs)}, base + ".inputs.safetensors")
    save_file({"result0": expected.contiguous()}, base + ".torch.safetensors")
    return base


def export_train(name, workdir, lr):
    """--train: ForCausalLM(input_ids, labels).loss with the weights as
    arguments (named by the state_dict, export_torch.py's Functional), and
    PyTorch's own SGD step on it (autograd: the loss and every weight after
    one step of `lr`, export_torch.py's --save-sgd-step without the
    gradients), the --expect file of the step summa-differentiate derives."""
    from safetensors.torch import save_file

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from export_torch import export_with_state, sgd_reference

    wrapper, inputs = build(name, loss=True)
    module, fn, names, fn_args = export_with_state(wrapper, inputs, ["input_ids", "labels"], name)
    base = os.path.join(workdir, name)
    with open(base + ".mlir", "w") as f:
        f.write(str(module))
    save_file({n: t.contiguous() for n, t in zip(names, fn_args)}, base + ".inputs.safetensors")
    loss, updated = sgd_reference(fn, names, fn_args, lr)
    save_file({"result0": loss.detach(), **updated}, base + ".torch.safetensors")
    return base


def derive_step(base, name, summa, lr):
    """summa-differentiate's SGD step of the exported loss, in place of it."""
    step = subprocess.run([os.path.join(summa, "summa-opt"), base + ".mlir",
                           f"--summa-differentiate=sgd-lr={lr} params=floats gradients=false",
                           "-o", base + ".step.mlir"], capture_output=True, text=True)
    if step.returncode != 0:
        raise RuntimeError("summa-differentiate: " + step.stderr.strip().splitlines()[0])
    os.replace(base + ".step.mlir", base + ".mlir")
    return name + "_grad"


def run(base, grid, summa, tol, entry=None):
    ranks = math.prod(int(x) for x in grid.split(","))
    exe = f"{base}.{grid.replace(',', 'x')}"
    compiled = subprocess.run([os.path.join(summa, "summa-compile"), base + ".mlir", f"--grid={grid}", "-o", exe]
                              + ([f"--entry={entry}"] if entry else []), capture_output=True, text=True)
    if compiled.returncode != 0:
        return "compile error: " + compiled.stderr.strip().splitlines()[0]
    ran = subprocess.run(["mpirun", "--oversubscribe", "--allow-run-as-root", "-np", str(ranks), exe,
                          "--inputs", base + ".inputs.safetensors", "--expect", base + ".torch.safetensors",
                          "--tol", str(tol), "--check", "--iters", "0"], capture_output=True, text=True)
    lines = [l for l in ran.stdout.splitlines() if l.startswith(("check: PASS", "check: FAIL",
                                                                  "expect: PASS", "expect: FAIL"))]
    verdict = "PASS" if ran.returncode == 0 else "FAIL"
    return f"{verdict}  " + "; ".join(lines) if lines else f"{verdict}  {ran.stderr.strip()[-300:]}"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--summa", default="build/bin", help="folder of summa-compile")
    p.add_argument("--grids", nargs="+", default=["1,1,1", "2,2,1", "1,1,2"])
    p.add_argument("--models", nargs="+", default=list(configs()))
    p.add_argument("--loss", action="store_true", help="ForCausalLM(input_ids, labels).loss instead")
    p.add_argument("--train", action="store_true",
                   help="the SGD step summa-differentiate derives from the loss (weights as arguments) "
                        "against PyTorch's autograd: the loss and every updated weight")
    p.add_argument("--lr", type=float, default=0.1, help="--train's learning rate")
    p.add_argument("--save", metavar="DIR",
                   help="keep each export in DIR as hf_<model>[_lm|_train].{mlir,inputs.safetensors,"
                        "torch.safetensors} (the exported program, before summa-differentiate)")
    # torch-mlir writes GELU(approximate="tanh") with 0.797724 for sqrt(2/pi)
    # (TORCH.md), ~2e-5 against PyTorch for models that use it (Gemma).
    p.add_argument("--tol", type=float, default=1e-4)
    args = p.parse_args()
    torch.manual_seed(0)
    failed = 0
    with tempfile.TemporaryDirectory() as workdir:
        for name in args.models:
            entry = None
            try:
                base = export_train(name, workdir, args.lr) if args.train else export(name, args.loss, workdir)
            except Exception as e:  # the exporter's failure, not summa's
                print(f"{name:10s} export failed: {type(e).__name__}: {str(e).splitlines()[0]}")
                continue
            if args.save:
                kept = os.path.join(args.save, f"hf_{name}" + ("_train" if args.train else "_lm" if args.loss else ""))
                for suffix in (".mlir", ".inputs.safetensors", ".torch.safetensors"):
                    shutil.copyfile(base + suffix, kept + suffix)
            if args.train:
                try:
                    entry = derive_step(base, name, args.summa, args.lr)
                except RuntimeError as e:
                    failed += 1
                    print(f"{name:10s} {e}")
                    continue
            for grid in args.grids:
                line = run(base, grid, args.summa, args.tol, entry)
                failed += not line.startswith("PASS")
                print(f"{name:10s} [{grid}] {line}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
