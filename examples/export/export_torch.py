#!/usr/bin/env python3
"""Export small PyTorch transformer models to MLIR `linalg` on tensors.

This is the PyTorch front door. The models are defined in plain PyTorch or
taken from Hugging Face `transformers` (architecture code only: random
weights from a fixed seed, nothing is downloaded). Each model is exported
with torch-mlir's FX importer,

    torch_mlir.fx.export_and_import(module, *args,
                                    output_type="linalg-on-tensors",
                                    func_name=MODEL)

which runs torch.export, torch-mlir's decompositions and its
`torch-backend-to-linalg-on-tensors-backend-pipeline`. The ops are not
edited afterwards: the script only checks the function name and adds
`summa.name` / `summa.role` argument attributes.

By default the weights are function ARGUMENTS: the model is wrapped in a
module whose forward is (inputs..., *state) and calls
`torch.func.functional_call(model, state, inputs)`, where `state` is the
model's state_dict (its parameters and persistent buffers, e.g. nanoGPT's
causal-mask buffer `attn.bias`). `--buffers-as-constants` passes only the
parameters and leaves buffers as constants; `--weights-as-constants` exports
the model itself, so torch-mlir freezes all weights into the IR as constants
(its default behaviour).

Checks before anything is written: the wrapper's output equals the model's
bit for bit; the sequence models are causal; hf_gpt2_block equals
nanogpt_block given the same weights; and the printed module, parsed back and
JIT-compiled with upstream MLIR passes and MLIR's ExecutionEngine (both from
the torch_mlir package), reproduces PyTorch's output on the example inputs.

Models (MODEL):
  nanogpt_block   nanoGPT-style pre-LN GPT-2 block, x [batch, seq, hidden]
  hf_gpt2_block   transformers GPT2Block (eager attention), x [batch, seq, hidden]
  llama_layer     transformers LlamaDecoderLayer (GQA, RoPE, eager), x [batch, seq, hidden]
  gpt_small       whole nanoGPT-style GPT with cross-entropy loss,
                  (idx [batch, seq] int64, targets [batch, seq] int64) -> scalar loss
  gpt_small_logits  the same GPT for its logits, idx -> [batch, seq, vocab]: the
                  forward summa-compile --generate takes (weights named as
                  gpt_small's, so a gpt_small training checkpoint loads)

See TORCH.md in this folder for the environment and the pinned versions.

    python3 examples/export/export_torch.py nanogpt_block -o examples/fixtures/nanogpt_block.mlir
"""

import argparse
import importlib.metadata
import math
import os
import re
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from summa.export import decompositions  # noqa: E402  aten.gelu as PyTorch computes it

MODELS = ("nanogpt_block", "hf_gpt2_block", "llama_layer", "gpt_small", "gpt_small_logits",
          "hf_llama_model", "hf_llama_lm",
          "hf_gpt2_lm", "hf_gpt2_logits", "hf_llama_logits")
# Which size flags each model uses (besides --seed). Any other flag is an error.
MODEL_FLAGS = {
    "nanogpt_block": ("batch", "seq", "hidden", "heads", "ffn"),
    "hf_gpt2_block": ("batch", "seq", "hidden", "heads", "ffn"),
    "llama_layer": ("batch", "seq", "hidden", "heads", "kv_heads", "ffn"),
    "gpt_small": ("batch", "seq", "hidden", "heads", "ffn", "layers", "vocab"),
    "gpt_small_logits": ("batch", "seq", "hidden", "heads", "ffn", "layers", "vocab"),
    "hf_llama_model": ("batch", "seq", "hidden", "heads", "kv_heads", "ffn", "layers", "vocab"),
    "hf_llama_lm": ("batch", "seq", "hidden", "heads", "kv_heads", "ffn", "layers", "vocab"),
    "hf_gpt2_lm": ("batch", "seq", "hidden", "heads", "ffn", "layers", "vocab"),
    "hf_gpt2_logits": ("batch", "seq", "hidden", "heads", "ffn", "layers", "vocab"),
    "hf_llama_logits": ("batch", "seq", "hidden", "heads", "kv_heads", "ffn", "layers", "vocab"),
}
LN_EPS = 1e-5
SCRIPT = "examples/export/export_torch.py"
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# --------------------------------------------------------------------------
# nanoGPT (https://github.com/karpathy/nanoGPT model.py), dropout removed.
# --------------------------------------------------------------------------
class CausalSelfAttention(nn.Module):
    def __init__(self, hidden, heads, block_size):
        super().__init__()
        assert hidden % heads == 0
        self.c_attn = nn.Linear(hidden, 3 * hidden)
        self.c_proj = nn.Linear(hidden, hidden)
        self.n_head = heads
        self.n_embd = hidden
        self.register_buffer(
            "bias",
            torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size),
        )

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class MLP(nn.Module):
    def __init__(self, hidden, ffn):
        super().__init__()
        self.c_fc = nn.Linear(hidden, ffn)
        self.gelu = nn.GELU(approximate="tanh")
        self.c_proj = nn.Linear(ffn, hidden)

    def forward(self, x):
        return self.c_proj(self.gelu(self.c_fc(x)))


class Block(nn.Module):
    def __init__(self, hidden, heads, ffn, block_size):
        super().__init__()
        self.ln_1 = nn.LayerNorm(hidden, eps=LN_EPS)
        self.attn = CausalSelfAttention(hidden, heads, block_size)
        self.ln_2 = nn.LayerNorm(hidden, eps=LN_EPS)
        self.mlp = MLP(hidden, ffn)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlp(self.ln_2(x))
        return x


class GPT(nn.Module):
    """nanoGPT's GPT with untied lm_head; forward(idx, targets) -> loss."""

    def __init__(self, vocab, block_size, layers, hidden, heads, ffn):
        super().__init__()
        self.transformer = nn.ModuleDict(
            dict(
                wte=nn.Embedding(vocab, hidden),
                wpe=nn.Embedding(block_size, hidden),
                h=nn.ModuleList([Block(hidden, heads, ffn, block_size) for _ in range(layers)]),
                ln_f=nn.LayerNorm(hidden, eps=LN_EPS),
            )
        )
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, idx, targets):
        logits = self.logits(idx)
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)

    def logits(self, idx):
        b, t = idx.size()
        pos = torch.arange(0, t, dtype=torch.long, device=idx.device)
        x = self.transformer.wte(idx) + self.transformer.wpe(pos)
        for block in self.transformer.h:
            x = block(x)
        x = self.transformer.ln_f(x)
        return self.lm_head(x)


class GPTLogits(GPT):
    """The same GPT for its logits: forward(idx) -> [batch, seq, vocab]."""

    def forward(self, idx):
        return self.logits(idx)


# --------------------------------------------------------------------------
# Hugging Face transformers layers. Submodules are held in a ModuleList so
# that parameter names match the checkpoints' (h.0.*, layers.0.*).
# --------------------------------------------------------------------------
class HFGPT2Block(nn.Module):
    """transformers GPT2Block; forward(x) -> hidden states.

    GPT2Block's eager attention only applies the mask it is given (GPT2Model
    builds it), so the wrapper builds the causal mask the way GPT2Model does,
    with transformers.masking_utils.create_causal_mask. position_ids is not
    passed to it: with it, the traced graph keeps create_causal_mask's
    packed-sequence detection (diff + cumsum, which lowers to tensor.concat and
    tm_tensor.scan) although positions 0..seq-1 are a single sequence."""

    def __init__(self, config):
        super().__init__()
        from transformers.models.gpt2.modeling_gpt2 import GPT2Block

        self.config = config
        self.h = nn.ModuleList([GPT2Block(config, layer_idx=0)])

    def forward(self, x):
        from transformers.masking_utils import create_causal_mask

        position_ids = torch.arange(x.shape[1], device=x.device).unsqueeze(0)
        mask = create_causal_mask(
            config=self.config, inputs_embeds=x, attention_mask=None, cache=None,
            position_ids=None,
        )
        out = self.h[0](x, attention_mask=mask)
        return out[0] if isinstance(out, tuple) else out


class HFLlamaLayer(nn.Module):
    """transformers LlamaDecoderLayer; forward(x) -> hidden states.

    As in LlamaModel.forward: position ids 0..seq-1, the causal mask from
    create_causal_mask (without position_ids, see HFGPT2Block), and cos/sin
    from LlamaRotaryEmbedding."""

    def __init__(self, config):
        super().__init__()
        from transformers.models.llama.modeling_llama import (
            LlamaDecoderLayer,
            LlamaRotaryEmbedding,
        )

        self.config = config
        self.layers = nn.ModuleList([LlamaDecoderLayer(config, layer_idx=0)])
        self.rotary_emb = LlamaRotaryEmbedding(config=config)

    def forward(self, x):
        from transformers.masking_utils import create_causal_mask

        position_ids = torch.arange(x.shape[1], device=x.device).unsqueeze(0)
        mask = create_causal_mask(
            config=self.config, inputs_embeds=x, attention_mask=None, cache=None,
            position_ids=None,
        )
        position_embeddings = self.rotary_emb(x, position_ids=position_ids)
        out = self.layers[0](
            x, attention_mask=mask, position_ids=position_ids,
            position_embeddings=position_embeddings,
        )
        return out[0] if isinstance(out, tuple) else out


class HFLlamaModel(nn.Module):
    """transformers LlamaModel as a user calls it: forward(input_ids) ->
    last_hidden_state, with everything LlamaModel.forward does itself
    (embedding, position ids, create_causal_mask with its packed-sequence
    check, whose cumsum torch-mlir writes as tm_tensor.scan, rotary tables,
    the layers and the final norm) and transformers' default attention
    (scaled_dot_product_attention, which torch-mlir decomposes)."""

    def __init__(self, config):
        super().__init__()
        from transformers import LlamaModel

        self.model = LlamaModel(config)

    def forward(self, input_ids):
        return self.model(input_ids=input_ids, use_cache=False).last_hidden_state


class HFCausalLM(nn.Module):
    """A transformers *ForCausalLM called with labels: forward(input_ids,
    labels) -> its loss (the shifted next-token cross-entropy transformers
    computes)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, labels):
        return self.model(input_ids=input_ids, labels=labels, use_cache=False).loss


class HFLlamaLM(nn.Module):
    """transformers LlamaForCausalLM with labels: forward(input_ids, labels)
    -> its loss (the shifted next-token cross-entropy transformers
    computes), the function summa-differentiate derives a training step
    from."""

    def __init__(self, config):
        super().__init__()
        from transformers import LlamaForCausalLM

        self.model = LlamaForCausalLM(config)

    def forward(self, input_ids, labels):
        return self.model(input_ids=input_ids, labels=labels, use_cache=False).loss


class HFLogits(nn.Module):
    """A transformers *ForCausalLM as generation calls it: forward(input_ids)
    -> logits [batch, seq, vocab], no KV cache (the forward
    summa-derive-generation derives a prefill and a decode step from)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids):
        return self.model(input_ids=input_ids, use_cache=False).logits


# --------------------------------------------------------------------------
# Model construction.
# --------------------------------------------------------------------------
def build(args):
    """Returns (model, example inputs, input names, input roles)."""
    B, S, H, NH = args.batch, args.seq, args.hidden, args.heads
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed + 1)
    if args.model == "nanogpt_block":
        model = Block(H, NH, args.ffn, block_size=S)
    elif args.model == "hf_gpt2_block":
        from transformers import GPT2Config

        config = GPT2Config(
            n_embd=H, n_head=NH, n_inner=args.ffn, n_positions=S, n_layer=1,
            activation_function="gelu_new", layer_norm_epsilon=LN_EPS,
            resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
            attn_implementation="eager",
        )
        model = HFGPT2Block(config)
    elif args.model == "llama_layer":
        from transformers import LlamaConfig

        config = LlamaConfig(
            hidden_size=H, num_attention_heads=NH, num_key_value_heads=args.kv_heads,
            intermediate_size=args.ffn, num_hidden_layers=1, max_position_embeddings=S,
            vocab_size=32, attention_dropout=0.0, attn_implementation="eager",
        )
        model = HFLlamaLayer(config)
    elif args.model in ("gpt_small", "gpt_small_logits"):
        cls = GPT if args.model == "gpt_small" else GPTLogits
        model = cls(args.vocab, S, args.layers, H, NH, args.ffn)
    elif args.model in ("hf_llama_model", "hf_llama_lm", "hf_llama_logits"):
        from transformers import LlamaConfig

        config = LlamaConfig(
            hidden_size=H, num_attention_heads=NH, num_key_value_heads=args.kv_heads,
            intermediate_size=args.ffn, num_hidden_layers=args.layers,
            max_position_embeddings=S, vocab_size=args.vocab, attention_dropout=0.0,
            pad_token_id=0, bos_token_id=0, eos_token_id=0,
        )
        if args.model == "hf_llama_logits":
            from transformers import LlamaForCausalLM

            model = HFLogits(LlamaForCausalLM(config))
        else:
            model = HFLlamaModel(config) if args.model == "hf_llama_model" else HFLlamaLM(config)
    elif args.model in ("hf_gpt2_lm", "hf_gpt2_logits"):
        # GPT2LMHeadModel as a user trains it: tied lm_head, eager attention,
        # GPT-2's GELU (tanh form), no dropout.
        from transformers import GPT2Config, GPT2LMHeadModel

        config = GPT2Config(
            n_embd=H, n_head=NH, n_inner=args.ffn, n_positions=S, n_layer=args.layers,
            vocab_size=args.vocab, layer_norm_epsilon=LN_EPS,
            activation_function=args.activation,
            resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
            attn_implementation="eager", pad_token_id=0, bos_token_id=0, eos_token_id=0,
        )
        lm = GPT2LMHeadModel(config)
        model = HFCausalLM(lm) if args.model == "hf_gpt2_lm" else HFLogits(lm)
    else:
        raise AssertionError(args.model)
    model.eval()
    if args.init == "model":
        # The framework's own initialisation (transformers' post_init:
        # N(0, 0.02) weights, scaled residual projections), the scale a
        # model at its real size is trained from; a small perturbation makes
        # no bias or norm parameter trivially 0 or 1.
        with torch.no_grad():
            for p in model.parameters():
                p.add_(torch.randn(p.shape, generator=gen) * 0.02)
    elif args.model.startswith("hf_") or args.model == "llama_layer":
        # transformers initialises weights in from_pretrained/post_init only;
        # a bare layer keeps nn defaults (RMSNorm weights = 1, zero biases in
        # Conv1D). Re-draw every parameter so that none is trivially 0 or 1.
        with torch.no_grad():
            for name, p in model.named_parameters():
                is_norm_scale = name.endswith("weight") and (
                    "ln_" in name or "layernorm" in name or name == "model.norm.weight")
                p.copy_(torch.randn(p.shape, generator=gen) * 0.2 + (1.0 if is_norm_scale else 0.0))
    if args.model in ("hf_llama_model", "hf_gpt2_logits", "hf_llama_logits"):
        ids = torch.randint(0, args.vocab, (B, S), generator=gen, dtype=torch.long)
        return model, (ids,), ("input_ids",), (None,)
    if args.model == "gpt_small_logits":
        idx = torch.randint(0, args.vocab, (B, S), generator=gen, dtype=torch.long)
        return model, (idx,), ("idx",), (None,)
    if args.model in ("hf_llama_lm", "hf_gpt2_lm"):
        ids = torch.randint(0, args.vocab, (B, S), generator=gen, dtype=torch.long)
        labels = torch.randint(0, args.vocab, (B, S), generator=gen, dtype=torch.long)
        if args.ignore_labels:
            # Padding: the loss averages over the other tokens only.
            labels[0, S - args.ignore_labels:] = -100
        return model, (ids, labels), ("input_ids", "labels"), (None, None)
    if args.model == "gpt_small":
        idx = torch.randint(0, args.vocab, (B, S), generator=gen, dtype=torch.long)
        targets = torch.randint(0, args.vocab, (B, S), generator=gen, dtype=torch.long)
        return model, (idx, targets), ("idx", "targets"), (None, None)
    x = torch.randn(B, S, H, generator=gen)
    return model, (x,), ("x",), ("activation",)


class Functional(nn.Module):
    """forward(*inputs, *state) = functional_call(model, state, inputs).

    The model is stored outside nn.Module's registry so that torch.export
    sees no parameters of its own: every weight is a user input."""

    def __init__(self, model, n_inputs, state_names):
        super().__init__()
        object.__setattr__(self, "_model", model)
        self.n_inputs = n_inputs
        self.state_names = tuple(state_names)

    def forward(self, *args):
        inputs = args[: self.n_inputs]
        state = dict(zip(self.state_names, args[self.n_inputs:]))
        return functional_call(self._model, state, inputs)


def exported_state(model, buffers_as_constants):
    if buffers_as_constants:
        return dict(model.named_parameters())
    # The state_dict: parameters and persistent buffers. Non-persistent
    # buffers (LlamaRotaryEmbedding.inv_freq) stay constants. A tied
    # parameter (GPT-2's lm_head and wte) is one argument, under its first
    # name, as named_parameters() lists it.
    state, seen = {}, set()
    for name, t in model.state_dict(keep_vars=True).items():
        if id(t) not in seen:
            seen.add(id(t))
            state[name] = t
    return state


def export_with_state(model, inputs, input_names, func_name):
    """torch-mlir's linalg-on-tensors export of `model` called on `inputs`,
    its parameters and buffers the arguments after them (Functional,
    buffers as constants), every argument named by summa.name
    (`input_names`, then the state_dict's names) and an embedding with its
    summa.padding_idx. Returns (module, fn, names, args): fn(*args) is what
    the module computes."""
    from torch_mlir import fx, ir

    state = exported_state(model, buffers_as_constants=True)
    fn = Functional(model, len(inputs), state.keys())
    args = tuple(inputs) + tuple(t.detach() for t in state.values())
    names = list(input_names) + list(state.keys())
    module = fx.export_and_import(fn, *args, output_type="linalg-on-tensors", func_name=func_name,
                                  decomposition_table=decompositions())
    with module.context:
        func = [op for op in module.body.operations if op.operation.name == "func.func"][0]
        padding = padding_indices(model, state)
        i64 = ir.IntegerType.get_signless(64)
        func.attributes["arg_attrs"] = ir.ArrayAttr.get(
            [ir.DictAttr.get({"summa.name": ir.StringAttr.get(n)}
                             | ({"summa.padding_idx": ir.IntegerAttr.get(i64, padding[n])}
                                if n in padding else {}))
             for n in names])
    return module, fn, names, args


def sgd_reference(fn, names, args, lr):
    """PyTorch's own autograd and one SGD step of `lr` on every float
    argument of fn (whose first output is the loss): (fn's outputs, {name:
    the argument after the step}); an argument the loss does not reach keeps
    its value."""
    leaves = [t.detach().clone().requires_grad_(t.is_floating_point()) for t in args]
    outputs = fn(*leaves)
    loss = outputs[0] if isinstance(outputs, tuple) else outputs
    floats = [(n, t) for n, t in zip(names, leaves) if t.is_floating_point()]
    grads = torch.autograd.grad(loss, [t for _, t in floats], allow_unused=True)
    updated = {n: (t - lr * (torch.zeros_like(t) if g is None else g)).detach().contiguous()
               for (n, t), g in zip(floats, grads)}
    return outputs, updated


def padding_indices(model, state):
    """{state name: padding_idx} of the nn.Embedding tables in `state` that
    have one: their summa.padding_idx, so that summa-differentiate gives
    that row no gradient from lookups, as PyTorch's backward does (the
    exported forward does not carry it)."""
    padding = {id(m.weight): m.padding_idx for m in model.modules()
               if isinstance(m, nn.Embedding) and m.padding_idx is not None}
    return {name: padding[id(t)] for name, t in state.items() if id(t) in padding}


def self_check(args, model, inputs, fn, fn_args):
    """The wrapper must give the same output as the model, bit for bit, and
    the sequence models must be causal."""
    with torch.no_grad():
        ref = model(*inputs)
        got = fn(*fn_args)
        assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, ref.shape)
        assert torch.equal(got, ref), f"wrapper differs: max |d| = {(got - ref).abs().max()}"
        assert torch.isfinite(ref).all()
        if args.model not in ("gpt_small", "hf_llama_lm", "hf_gpt2_lm"):
            x2 = inputs[0].clone()
            if x2.dtype.is_floating_point:
                x2[:, -1, :] += 1.0
            else:
                x2[:, -1] = (x2[:, -1] + 1) % args.vocab
            ref2 = model(x2)
            assert torch.equal(ref2[:, :-1], ref[:, :-1]), "model is not causal"
            assert not torch.equal(ref2[:, -1], ref[:, -1])
        if args.model == "hf_gpt2_block":
            # Same weights in the nanoGPT block (Conv1D stores [in, out]).
            nano = Block(args.hidden, args.heads, args.ffn, block_size=args.seq).eval()
            sd = {}
            for k, v in model.h[0].state_dict().items():
                if k.endswith("weight") and v.dim() == 2:
                    v = v.t()
                sd[k] = v
            sd["attn.bias"] = nano.attn.bias
            nano.load_state_dict(sd, strict=True)
            d = (nano(inputs[0]) - ref).abs().max().item()
            assert d < 1e-5, f"hf_gpt2_block differs from nanogpt_block by {d}"


# --------------------------------------------------------------------------
# Export and annotation.
# --------------------------------------------------------------------------
def export(args):
    from torch_mlir import fx, ir

    model, inputs, in_names, in_roles = build(args)
    if args.weights_as_constants:
        # torch-mlir's import_frozen_program looks every buffer up in the
        # ExportedProgram's state_dict, which lacks non-persistent buffers
        # (LlamaRotaryEmbedding.inv_freq): "Could not find state mapping for
        # buffer". Making them persistent changes nothing else.
        for m in model.modules():
            m._non_persistent_buffers_set.clear()
        fn, fn_args = model, inputs
        names, roles = list(in_names), list(in_roles)
    else:
        state = exported_state(model, args.buffers_as_constants)
        fn = Functional(model, len(inputs), state.keys())
        fn_args = tuple(inputs) + tuple(t.detach() for t in state.values())
        names = list(in_names) + list(state.keys())
        roles = list(in_roles) + [None] * len(state)
    self_check(args, model, inputs, fn, fn_args)

    module = fx.export_and_import(
        fn, *fn_args, output_type="linalg-on-tensors", func_name=args.model,
        decomposition_table=decompositions()
    )

    with module.context:
        funcs = [op for op in module.body.operations if op.operation.name == "func.func"]
        assert len(funcs) == 1, f"expected one function, got {len(funcs)}"
        func = funcs[0]
        func.attributes["sym_name"] = ir.StringAttr.get(args.model)
        n_args = len(func.regions[0].blocks[0].arguments)
        assert n_args == len(names), f"function has {n_args} arguments, expected {len(names)}"
        assert "arg_attrs" not in func.attributes, "unexpected existing arg_attrs"
        attrs = []
        padding = {} if args.weights_as_constants else padding_indices(model, state)
        for name, role in zip(names, roles):
            d = {"summa.name": ir.StringAttr.get(name)}
            if role is not None:
                d["summa.role"] = ir.StringAttr.get(role)
            if name in padding:
                d["summa.padding_idx"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), padding[name])
            attrs.append(ir.DictAttr.get(d))
        func.attributes["arg_attrs"] = ir.ArrayAttr.get(attrs)
        module.operation.verify()
        body = module.operation.get_asm(print_generic_op_form=False)
    text = header(args, names, fn_args) + body
    with torch.no_grad():
        expected = model(*inputs)
    if not args.skip_ir_check:
        run_ir_check(text, args.model, fn_args, expected)
    save_tensors(args, names, fn_args, expected)
    if args.save_sgd_step:
        save_sgd_step(args, fn, fn_args, names)
    if args.save_adamw_run:
        save_adamw_run(args, fn, fn_args, names)
    if args.save_generate:
        save_generate(args, model, fn_args, names)
    return text


def save_tensors(args, names, fn_args, expected):
    """--save-inputs / --save-outputs: the example arguments by name and
    PyTorch's result, for `program --inputs FILE --expect FILE`."""
    from safetensors.torch import save_file

    if args.save_inputs:
        save_file({n: t.detach().contiguous() for n, t in zip(names, fn_args)},
                  args.save_inputs)
        print(f"wrote {args.save_inputs}", file=sys.stderr)
    if args.save_outputs:
        save_file({"result0": expected.detach().contiguous()}, args.save_outputs)
        print(f"wrote {args.save_outputs}", file=sys.stderr)


def hf_greedy(lm, prompt, new_tokens, logits=False, attention_mask=None):
    """Hugging Face's own greedy generation of exactly `new_tokens` ids after
    `prompt` (no EOS stop), with its static KV cache: the ids summa's derived
    prefill and decode must reproduce (bench/hf_generate.py times it). With
    `logits`, (ids, the logits of every new token [new_tokens, batch, V]).
    `attention_mask` (default all ones) left-pads rows."""
    if attention_mask is None:
        attention_mask = torch.ones_like(prompt)
    with torch.no_grad():
        out = lm.generate(prompt, attention_mask=attention_mask,
                          max_new_tokens=new_tokens, min_new_tokens=new_tokens,
                          do_sample=False, pad_token_id=0, cache_implementation="static",
                          return_dict_in_generate=logits, output_logits=logits)
    if not logits:
        return out
    return out.sequences, torch.stack(out.logits)


def save_generate(args, model, fn_args, names):
    """--save-generate PREFIX: Hugging Face's own greedy generate() on the
    first --prompt ids of every row, the --inputs and --expect files of the
    prefill and decode steps summa-derive-generation{prompt=P} derives from
    the forward. PREFIX.inputs.safetensors: the weights and the prompt
    (input_ids, [batch, P]); PREFIX.expect.safetensors: `generated`, the
    prompt followed by the tokens generate() chose, seq ids in all (the
    prefill's one, then one per decode step), the same as `sequences` (as
    generate() names them, for summa-compile --generate's --expect), and
    `scores`, the logits of each new token [S - P, batch, V].
    PREFIX.padded.safetensors: the same with rows of different lengths, each
    row but the last left-padded (pad id 0) by P / B more tokens than the
    row after it, as generate() takes them: `input_ids` and `attention_mask`
    (the prompt), `sequences` and `scores` (what generate() returns).
    PREFIX.config.json: the model's Hugging Face configuration, with which
    bench/hf_generate.py builds the model again around the weights."""
    from safetensors.torch import save_file

    lm = model.model
    ids = fn_args[0]
    P = args.prompt
    S = ids.shape[1]
    if not 0 < P < S:
        raise SystemExit(f"--prompt must be in [1, {S - 1}], got {P}")
    prompt = ids[:, :P].contiguous()
    out, scores = hf_greedy(lm, prompt, S - P, logits=True)
    assert out.shape == ids.shape, out.shape
    inputs = {n: t.detach().contiguous() for n, t in zip(names, fn_args)}
    inputs[names[0]] = prompt
    save_file(inputs, args.save_generate + ".inputs.safetensors")
    save_file({"generated": out.contiguous(), "sequences": out.clone(),
               "scores": scores.float().contiguous()},
              args.save_generate + ".expect.safetensors")
    # Rows of different lengths: row r loses its first (B - 1 - r) * P / B
    # tokens to padding (at least one, at most P - 1).
    padded = prompt.clone()
    mask = torch.ones_like(prompt)
    rows = prompt.shape[0]
    for r in range(rows):
        pad = min((rows - 1 - r) * max(1, P // rows), P - 1)
        padded[r, :pad] = 0
        mask[r, :pad] = 0
    out, scores = hf_greedy(lm, padded, S - P, logits=True, attention_mask=mask)
    save_file({"input_ids": padded, "attention_mask": mask,
               "sequences": out.contiguous(), "scores": scores.float().contiguous()},
              args.save_generate + ".padded.safetensors")
    lm.config.to_json_file(args.save_generate + ".config.json")
    print(f"wrote {args.save_generate}.inputs, .expect and .padded .safetensors "
          f"and .config.json", file=sys.stderr)


def save_adamw_run(args, fn, fn_args, names):
    """--save-adamw-run: PyTorch's own training loop on the example arguments,
    the --expect file of the step summa-differentiate{optimizer=adamw ...}
    derives, run --steps N times: torch.optim.AdamW (decoupled weight decay
    on the tensors of rank >= 2, as nanoGPT's configure_optimizers),
    torch.nn.utils.clip_grad_norm_, and nanoGPT's get_lr schedule (linear
    warmup, cosine down to min_lr at decay_steps) set before each step.
    Writes every float argument after the last step under its own name, its
    exp_avg and exp_avg_sq as `<name>.exp_avg(_sq)`, `step`, and the last
    step's loss as `result0`, learning rate as `lr` and gradient norm before
    clipping (what clip_grad_norm_ returns) as `grad_norm`.

    --autocast bf16: each forward runs under torch.autocast("cpu",
    dtype=torch.bfloat16) (the backward outside it, as PyTorch recommends),
    the parameters and AdamW's state stay f32: the reference of
    summa-differentiate precision=bf16. The moments are then left out of
    the file (the weights carry the comparison; the file stays small)."""
    import contextlib

    from safetensors.torch import save_file

    leaves = [t.detach().clone().requires_grad_(t.is_floating_point()) for t in fn_args]
    params = [(n, t) for n, t in zip(names, leaves) if t.is_floating_point()]
    decay = [t for _, t in params if t.dim() >= 2]
    no_decay = [t for _, t in params if t.dim() < 2]
    opt = torch.optim.AdamW(
        [{"params": decay, "weight_decay": args.weight_decay},
         {"params": no_decay, "weight_decay": 0.0}],
        lr=args.lr, betas=(args.beta1, args.beta2), eps=args.eps, foreach=False)

    def get_lr(it):
        if it < args.warmup:
            return args.lr * (it + 1) / args.warmup
        if it > args.decay_steps:
            return args.min_lr
        ratio = (it - args.warmup) / (args.decay_steps - args.warmup)
        return args.min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (args.lr - args.min_lr)

    # --accumulate K: micro-batch k is rows k, k + K, ... of every batch
    # argument (the tensors that are not parameters, with the batch's
    # leading dimension), as summa-differentiate accumulate=K slices them.
    K = args.accumulate
    batch_args = [i for i, t in enumerate(leaves) if not t.is_floating_point()]
    rows = leaves[batch_args[0]].shape[0] if batch_args else 0
    sliced = [i for i in batch_args if leaves[i].dim() >= 1 and leaves[i].shape[0] == rows]
    if K > 1 and (not sliced or rows % K):
        sys.exit(f"--accumulate {K}: the batch ({rows} rows) does not divide into {K}")

    def micro_batch(k):
        return [t[k::K] if i in sliced else t for i, t in enumerate(leaves)]

    def forward(*xs):
        with (torch.autocast("cpu", dtype=torch.bfloat16) if args.autocast == "bf16"
              else contextlib.nullcontext()):
            return fn(*xs).float()

    for it in range(args.train_steps):
        lr = get_lr(it)
        for group in opt.param_groups:
            group["lr"] = lr
        opt.zero_grad(set_to_none=True)
        if K == 1:
            loss = forward(*leaves)
            loss.backward()
        else:
            loss = 0.0
            for k in range(K):
                part = forward(*micro_batch(k)) / K
                part.backward()
                loss = loss + part.detach()
        if args.clip_norm > 0:
            norm = torch.nn.utils.clip_grad_norm_([t for _, t in params], args.clip_norm)
        else:
            norm = torch.nn.utils.get_total_norm([t.grad for _, t in params])
        opt.step()
    out = {"result0": loss.detach(), "step": torch.tensor(args.train_steps),
           "lr": torch.tensor(lr, dtype=torch.float32),
           "grad_norm": norm.detach().to(torch.float32)}
    for name, t in params:
        out[name] = t.detach().contiguous()
        if args.autocast == "bf16":
            continue
        state = opt.state[t]
        out[name + ".exp_avg"] = state["exp_avg"].detach().contiguous()
        out[name + ".exp_avg_sq"] = state["exp_avg_sq"].detach().contiguous()
    save_file(out, args.save_adamw_run)
    print(f"wrote {args.save_adamw_run}", file=sys.stderr)


def save_sgd_step(args, fn, fn_args, names):
    """--save-sgd-step: PyTorch's own training step on the example arguments,
    the --expect file of the step summa-differentiate{params=floats
    sgd-lr=LR} derives from the exported loss: the loss as `result0`, the
    gradient of the k-th floating-point argument as `result<k>` (in argument
    order, 1-based; zeros where the loss does not depend on it, as for the
    causal-mask buffers) and each such argument after one SGD step under its
    own name. --autocast bf16: the forward under torch.autocast("cpu",
    dtype=torch.bfloat16), the file holds only the loss and the gradients
    (the reference of summa-differentiate{params=floats precision=bf16})."""
    import contextlib

    from safetensors.torch import save_file

    leaves = [t.detach().clone().requires_grad_(t.is_floating_point()) for t in fn_args]
    with (torch.autocast("cpu", dtype=torch.bfloat16) if args.autocast == "bf16"
          else contextlib.nullcontext()):
        loss = fn(*leaves).float()
    assert loss.dim() == 0, f"{args.model} returns {tuple(loss.shape)}, not a loss"
    params = [(n, t) for n, t in zip(names, leaves) if t.is_floating_point()]
    grads = torch.autograd.grad(loss, [t for _, t in params], allow_unused=True)
    out = {"result0": loss.detach()}
    for k, ((name, t), g) in enumerate(zip(params, grads), start=1):
        g = torch.zeros_like(t) if g is None else g
        out[f"result{k}"] = g.detach().contiguous()
        if args.autocast != "bf16":
            out[name] = (t - args.sgd_lr * g).detach().contiguous()
    save_file(out, args.save_sgd_step)
    print(f"wrote {args.save_sgd_step}", file=sys.stderr)


# Upstream MLIR passes only (bufferize, loops, LLVM), used to run the output.
BUFFERIZE = (
    "builtin.module(one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map})"
)
TO_LLVM = (
    "builtin.module(func.func(convert-linalg-to-loops),"
    "convert-scf-to-cf,expand-strided-metadata,lower-affine,convert-math-to-funcs,convert-math-to-llvm,convert-math-to-libm,"
    "convert-to-llvm,reconcile-unrealized-casts)"
)


def lower_tm_tensor(text):
    """torch-mlir's own lowering of its tm_tensor ops (tm_tensor.scan, the
    cumsum of Hugging Face's causal mask) to loops on buffers, with the
    torch-mlir-opt of the torch_mlir wheel: the Python bindings' context does
    not know the dialect. The rest is left to run_ir_check's passes."""
    import subprocess

    import torch_mlir._mlir_libs as libs

    opt = os.path.join(os.path.dirname(libs.__file__), "torch-mlir-opt")
    loops = subprocess.run(
        [opt, "--pass-pipeline=builtin.module(func.func(tm-tensor-bufferize,tm-tensor-to-loops))"],
        input=text, capture_output=True, text=True, check=True,
    ).stdout
    # Each result is a buffer the lowering allocated for it alone, which
    # One-Shot Bufferize takes only when it is said so.
    return re.sub(r"bufferization\.to_tensor (%[\w.]+) :",
                  r"bufferization.to_tensor \1 restrict :", loops)


def run_ir_check(text, func_name, fn_args, expected):
    """Parses the printed module back, JIT-compiles it with MLIR's
    ExecutionEngine (from torch_mlir) and compares its result on the example
    arguments with PyTorch's. The printed text is not changed."""
    import ctypes

    import numpy as np
    from torch_mlir import ir, passmanager
    from torch_mlir.dialects import linalg
    from torch_mlir.execution_engine import ExecutionEngine
    from torch_mlir.runtime import np_to_memref as n2m

    if "tm_tensor." in text:
        text = lower_tm_tensor(text)
    with ir.Context():
        module = ir.Module.parse(text)
        func = [op for op in module.body.operations if op.operation.name == "func.func"][0]
        func.attributes["llvm.emit_c_interface"] = ir.UnitAttr.get()
        passmanager.PassManager.parse(BUFFERIZE).run(module.operation)
        # Strided memref.copy lowers to a call of memrefCopy from
        # libmlir_c_runner_utils, which torch_mlir does not ship; linalg.copy
        # lowers to loops instead.
        copies = []

        def collect(op):
            if op.name == "memref.copy":
                copies.append(op)
            return ir.WalkResult.ADVANCE

        module.operation.walk(collect)
        for op in copies:
            with ir.InsertionPoint(op), op.location:
                linalg.copy(op.operands[0], outs=[op.operands[1]])
            op.erase()
        passmanager.PassManager.parse(TO_LLVM).run(module.operation)
        engine = ExecutionEngine(module, opt_level=0)
        want = expected.detach().numpy()
        if want.ndim == 0:
            out = n2m.make_zero_d_memref_descriptor(n2m.as_ctype(want.dtype))()
        else:
            out = n2m.make_nd_memref_descriptor(want.ndim, n2m.as_ctype(want.dtype))()
        keep = [np.ascontiguousarray(t.detach().numpy()) for t in fn_args]
        ptrs = [ctypes.pointer(ctypes.pointer(out))]
        ptrs += [ctypes.pointer(ctypes.pointer(n2m.get_ranked_memref_descriptor(a))) for a in keep]
        engine.invoke(func_name, *ptrs)
        if want.ndim == 0:
            got = np.array(out.aligned.contents.value, dtype=want.dtype)
        else:
            got = n2m.ranked_memref_to_numpy([out])
    err = float(np.abs(got - want).max() / max(np.abs(want).max(), 1e-30))
    print(f"IR run check: max |IR - torch| / max |torch| = {err:.1e}", file=sys.stderr)
    # f32 rounding alone gives < 1e-6 here. torch-mlir lowers
    # aten.gelu(approximate="tanh") with the constant 0.797724 where
    # sqrt(2/pi) = 0.7978846, which gives ~1e-5 for nanogpt_block.
    assert err < 1e-4, f"the exported IR differs from PyTorch: relative error {err:.1e}"


def versions():
    return ", ".join(
        f"{p} {importlib.metadata.version(p)}" for p in ("torch", "torch-mlir", "transformers")
    )


def command(args):
    out = os.path.abspath(args.output)
    if out.startswith(REPO_ROOT + os.sep):
        out = os.path.relpath(out, REPO_ROOT)
    parts = ["python3", SCRIPT, args.model]
    for f in MODEL_FLAGS[args.model] + ("seed",):
        parts += [f"--{f.replace('_', '-')}", str(getattr(args, f))]
    if args.weights_as_constants:
        parts.append("--weights-as-constants")
    if args.buffers_as_constants:
        parts.append("--buffers-as-constants")
    if args.init != ("model" if args.model == "hf_gpt2_lm" else "redraw"):
        parts += ["--init", args.init]
    if args.activation != "gelu_new":
        parts += ["--activation", args.activation]
    if args.save_generate:
        prefix = os.path.abspath(args.save_generate)
        if prefix.startswith(REPO_ROOT + os.sep):
            prefix = os.path.relpath(prefix, REPO_ROOT)
        parts += ["--save-generate", prefix, "--prompt", str(args.prompt)]
    parts += ["-o", out]
    return " ".join(parts)


def header(args, names, fn_args):
    lines = [
        f"{args.model} exported from PyTorch by torch-mlir's FX importer. Generated, do not edit:",
        f"  {command(args)}",
        f"with {versions()}:",
        f"  torch_mlir.fx.export_and_import(..., output_type=\"linalg-on-tensors\", func_name=\"{args.model}\")",
        "then only the function name and the summa.name / summa.role argument attributes are set.",
    ]
    if args.weights_as_constants:
        lines.append("Weights are constants (the module is exported directly).")
    else:
        what = "parameters" if args.buffers_as_constants else "parameters and persistent buffers (state_dict)"
        lines.append(f"Weights are arguments: {what} via torch.func.functional_call.")
    lines.append("Arguments:")
    for i, (n, t) in enumerate(zip(names, fn_args)):
        shape = "x".join(str(s) for s in t.shape)
        lines.append(f"  %arg{i} = {n} [{shape}] {str(t.dtype).replace('torch.', '')}")
    return "".join(f"// {l}".rstrip() + "\n" for l in lines)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("model", choices=MODELS)
    p.add_argument("--batch", type=int)
    p.add_argument("--seq", type=int)
    p.add_argument("--hidden", type=int)
    p.add_argument("--heads", type=int)
    p.add_argument("--kv-heads", type=int, help="llama_layer, hf_llama_model; default heads/2")
    p.add_argument("--ffn", type=int, help="default 4*hidden")
    p.add_argument("--layers", type=int, help="gpt_small, hf_llama_model; default 2")
    p.add_argument("--vocab", type=int, help="gpt_small, hf_llama_model; default 64")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--weights-as-constants", action="store_true",
                   help="export the module itself: weights become constants")
    p.add_argument("--buffers-as-constants", action="store_true",
                   help="pass only parameters as arguments; buffers stay constants")
    p.add_argument("--save-inputs", metavar="FILE",
                   help="also write the function's example arguments (input and "
                        "weights, by their summa.name) as safetensors: "
                        "the compiled program's --inputs")
    p.add_argument("--save-outputs", metavar="FILE",
                   help="also write PyTorch's output on them as safetensors "
                        "(result0): the compiled program's --expect")
    p.add_argument("--save-sgd-step", metavar="FILE",
                   help="a model that returns a loss (gpt_small): also write PyTorch's "
                        "loss, gradients and SGD update of every float argument")
    p.add_argument("--save-generate", metavar="PREFIX",
                   help="hf_gpt2_logits, hf_llama_logits: also write Hugging Face's greedy "
                        "generate() from the first --prompt ids of each row: PREFIX.inputs "
                        "and PREFIX.expect .safetensors for the derived prefill and decode")
    p.add_argument("--prompt", type=int, default=4,
                   help="--save-generate's prompt length (default 4)")
    p.add_argument("--sgd-lr", type=float, default=0.01,
                   help="--save-sgd-step's learning rate (default 0.01)")
    p.add_argument("--activation", default="gelu_new",
                   help="hf_gpt2_lm: GPT2Config.activation_function (default gelu_new, "
                        "GPT-2's tanh form; gelu: the erf form)")
    p.add_argument("--save-adamw-run", metavar="FILE",
                   help="a model that returns a loss: also write the weights, AdamW state "
                        "and step after PyTorch's own loop of --train-steps steps "
                        "(torch.optim.AdamW, clip_grad_norm_, nanoGPT's get_lr)")
    p.add_argument("--ignore-labels", type=int, default=0, metavar="N",
                   help="hf_gpt2_lm, hf_llama_lm: the last N labels of the first sequence "
                        "are -100 (ignore_index, as padding): micro-batches then hold "
                        "different numbers of tokens")
    p.add_argument("--accumulate", type=int, default=1, metavar="K",
                   help="--save-adamw-run: accumulate the gradients of K micro-batches "
                        "(rows k, k+K, ... of the batch), (loss / K).backward() each, "
                        "before every step")
    p.add_argument("--autocast", choices=("none", "bf16"), default="none",
                   help="--save-adamw-run, --save-sgd-step: run each forward under "
                        "torch.autocast (cpu, bfloat16) with f32 parameters and optimizer "
                        "state; the files then hold the weights, step, loss, lr and "
                        "grad_norm (adamw run), the loss and gradients (sgd step)")
    for flag, default in (("train-steps", 20), ("lr", 1e-2), ("beta1", 0.9), ("beta2", 0.95),
                          ("eps", 1e-8), ("weight-decay", 0.1), ("clip-norm", 1.0),
                          ("warmup", 5), ("decay-steps", 20), ("min-lr", 1e-3)):
        p.add_argument(f"--{flag}", type=type(default), default=default,
                       help=f"--save-adamw-run (default {default})")
    p.add_argument("--init", choices=("redraw", "model"),
                   help="weights: 'redraw' every parameter from N(0, 0.2) (norm scales "
                        "around 1; the small fixtures), or 'model': the framework's own "
                        "initialisation, perturbed (real sizes); default: model for "
                        "hf_gpt2_lm, redraw otherwise")
    p.add_argument("--skip-ir-check", action="store_true",
                   help="do not run the printed IR with MLIR's ExecutionEngine (its naive "
                        "loops take minutes at real size; the compiled program's --expect "
                        "against PyTorch checks the same)")
    p.add_argument("-o", "--output", required=True)
    args = p.parse_args(argv)
    used = MODEL_FLAGS[args.model]
    for f in ("batch", "seq", "hidden", "heads", "kv_heads", "ffn", "layers", "vocab"):
        if f not in used and getattr(args, f) is not None:
            p.error(f"--{f.replace('_', '-')} does not apply to {args.model}")
    if args.init is None:
        args.init = "model" if args.model == "hf_gpt2_lm" else "redraw"
    defaults = dict(batch=4, seq=8, hidden=32, heads=4, layers=2, vocab=64)
    for f, v in defaults.items():
        if f in used and getattr(args, f) is None:
            setattr(args, f, v)
    if "ffn" in used and args.ffn is None:
        args.ffn = 4 * args.hidden
    if "kv_heads" in used and args.kv_heads is None:
        args.kv_heads = max(1, args.heads // 2)
    if args.hidden % args.heads:
        p.error("--hidden must be a multiple of --heads")
    if "kv_heads" in used and args.heads % args.kv_heads:
        p.error("--heads must be a multiple of --kv-heads")
    if args.weights_as_constants and args.buffers_as_constants:
        p.error("--weights-as-constants and --buffers-as-constants exclude each other")
    return args


def main(argv):
    args = parse_args(argv)
    torch.use_deterministic_algorithms(True)
    text = export(args)
    with open(args.output, "w") as f:
        f.write(text)
    print(f"wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
