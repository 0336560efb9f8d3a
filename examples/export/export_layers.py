#!/usr/bin/env python3
# ===- export_layers.py - one model per layer kind, and PyTorch's answers -=== #
#
# Part of the summa project.
#
# ===------------------------------------------------------------------------=== #
"""Exports one small model per layer kind summa accepts, with PyTorch's own
forward and SGD step on it, as the fixtures of the differential sweep
(test/Integration/layer-sweep.mlir; no torch needed to run it).

Each model returns `(loss, y)`: `y` the layer's output, `loss` a scalar
that reads all of it (`(y * r).sum() / y.numel()` with a fixed random `r`,
or the model's own loss for ViT). Every float tensor is an argument named by
`summa.name` (the input `x`, `r`, and the parameters by their state_dict
names), so `summa-differentiate params=floats` derives the gradient of every
one of them, the input's included (a convolution's input gradient is its
transposed window). Per model NAME the script writes, into --out:

    NAME.mlir                the forward, torch-mlir's FX import to linalg
    NAME.inputs.safetensors  its arguments
    NAME.torch.safetensors   result0 (loss), result1 (y), and, per float
                             argument, its value after one SGD step of
                             --lr on the loss by PyTorch's autograd

    /tmp/tvenv/bin/python examples/export/export_layers.py \\
        --out test/Integration/Inputs/layers [--models conv2d_k2s1 ...]

Needs the packages of requirements-torch.txt (TORCH.md).
"""

import argparse
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

LR = 0.1


class Scored(nn.Module):
    """(loss, y) of a layer: loss = (layer(x) * r).sum() / numel."""

    def __init__(self, layer):
        super().__init__()
        self.layer = layer

    def forward(self, x, r):
        y = self.layer(x)
        return (y * r).sum() / y.numel(), y


class ConvPool(nn.Module):
    def __init__(self, pool):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 2)
        self.pool = pool

    def forward(self, x):
        return self.pool(torch.tanh(self.conv(x)))


class Attention(nn.Module):
    """Causal self-attention with `kv_heads` key/value heads (grouped-query
    attention where fewer than the query heads), as Llama writes it."""

    def __init__(self, hidden, heads, kv_heads):
        super().__init__()
        self.heads, self.kv_heads, self.dim = heads, kv_heads, hidden // heads
        self.q = nn.Linear(hidden, hidden)
        self.k = nn.Linear(hidden, kv_heads * self.dim)
        self.v = nn.Linear(hidden, kv_heads * self.dim)
        self.o = nn.Linear(hidden, hidden)

    def forward(self, x):
        b, s, _ = x.shape
        q = self.q(x).view(b, s, self.heads, self.dim).transpose(1, 2)
        k = self.k(x).view(b, s, self.kv_heads, self.dim).transpose(1, 2)
        v = self.v(x).view(b, s, self.kv_heads, self.dim).transpose(1, 2)
        rep = self.heads // self.kv_heads
        if rep > 1:
            k = k.repeat_interleave(rep, dim=1)
            v = v.repeat_interleave(rep, dim=1)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o(y.transpose(1, 2).reshape(b, s, -1))


class MoE(nn.Module):
    """A routed mixture of experts: top-2 of 4 experts by a softmax router,
    the experts' weights gathered per token (Mixtral's batched_mm form)."""

    def __init__(self, hidden, ffn, experts, top):
        super().__init__()
        self.top = top
        self.router = nn.Linear(hidden, experts, bias=False)
        self.w1 = nn.Parameter(torch.randn(experts, hidden, ffn) / hidden ** 0.5)
        self.w2 = nn.Parameter(torch.randn(experts, ffn, hidden) / ffn ** 0.5)

    def forward(self, x):
        b, s, h = x.shape
        t = x.reshape(b * s, h)
        probs = torch.softmax(self.router(t), dim=-1)
        weights, chosen = torch.topk(probs, self.top, dim=-1)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        out = torch.zeros_like(t)
        for j in range(self.top):
            w1 = self.w1[chosen[:, j]]  # [tokens, hidden, ffn]
            w2 = self.w2[chosen[:, j]]
            hid = F.silu(torch.bmm(t.unsqueeze(1), w1))
            out = out + weights[:, j:j + 1] * torch.bmm(hid, w2).squeeze(1)
        return out.reshape(b, s, h)


def vit(batch):
    import transformers as t

    config = t.ViTConfig(image_size=8, patch_size=4, num_channels=3, hidden_size=32,
                         num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
                         num_labels=3, hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)
    model = t.ViTForImageClassification(config).eval()

    class Loss(nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, pixel_values, labels):
            out = self.model(pixel_values=pixel_values, labels=labels)
            return out.loss, out.logits

    gen = torch.Generator().manual_seed(1)
    return Loss(), {"pixel_values": torch.randn(batch, 3, 8, 8, generator=gen),
                    "labels": torch.randint(0, 3, (batch,), generator=gen)}


def layers():
    """name -> (module returning (loss, y), {input name: tensor}) for the
    inputs before the parameters. `r` has y's shape."""

    def scored(layer, x):
        with torch.no_grad():
            y = layer(x)
        return Scored(layer), {"x": x, "r": torch.randn(y.shape)}

    def image(c, h, w, b=4):
        return torch.randn(b, c, h, w)

    emb = nn.Embedding(32, 16, padding_idx=0)

    class Lookup(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = emb

        def forward(self, ids, r):
            y = self.emb(ids)
            return (y * r).sum() / y.numel(), y

    ids = torch.randint(0, 32, (8, 4))
    ids[0, 0] = 0  # the padding row is looked up
    return {
        "linear": lambda: scored(nn.Linear(16, 24), torch.randn(8, 4, 16)),
        "conv2d_k2s1": lambda: scored(nn.Conv2d(3, 8, 2, stride=1), image(3, 6, 6)),
        "conv2d_k2s2_nobias": lambda: scored(nn.Conv2d(3, 8, 2, stride=2, bias=False), image(3, 6, 6)),
        "conv2d_k3p1": lambda: scored(nn.Conv2d(4, 8, 3, padding=1), image(4, 6, 6)),
        "conv1d_k3s2p1": lambda: scored(nn.Conv1d(4, 8, 3, stride=2, padding=1), torch.randn(4, 4, 9)),
        "conv2d_depthwise": lambda: scored(nn.Conv2d(4, 4, 3, padding=1, groups=4), image(4, 6, 6)),
        "maxpool": lambda: scored(ConvPool(nn.MaxPool2d(2)), image(3, 7, 7)),
        "avgpool": lambda: scored(ConvPool(nn.AvgPool2d(2)), image(3, 7, 7)),
        "embedding": lambda: (Lookup(), {"ids": ids, "r": torch.randn(8, 4, 16)}),
        "layernorm": lambda: scored(nn.LayerNorm(16), torch.randn(8, 4, 16)),
        "rmsnorm": lambda: scored(nn.RMSNorm(16), torch.randn(8, 4, 16)),
        "attention": lambda: scored(Attention(16, 4, 4), torch.randn(4, 8, 16)),
        "attention_gqa": lambda: scored(Attention(16, 4, 2), torch.randn(4, 8, 16)),
        "moe_top2": lambda: scored(MoE(16, 32, 4, 2), torch.randn(8, 4, 16)),
        "vit_b2": lambda: vit(2),
        "vit_b4": lambda: vit(4),
    }


def build(name):
    torch.manual_seed(0)
    model, inputs = layers()[name]()
    model.eval()
    gen = torch.Generator().manual_seed(2)
    with torch.no_grad():
        for p in model.parameters():
            p.add_(torch.randn(p.shape, generator=gen) * 0.1)
    return model, inputs


def export(name, out, lr):
    from safetensors.torch import save_file

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from export_torch import export_with_state, sgd_reference

    model, inputs = build(name)
    module, fn, names, args = export_with_state(model, inputs.values(), inputs, name)
    base = os.path.join(out, name)
    with open(base + ".mlir", "w") as f:
        f.write(f"// {name}: examples/export/export_layers.py --models {name}\n")
        f.write(str(module))
    save_file({n: t.contiguous() for n, t in zip(names, args)}, base + ".inputs.safetensors")
    # PyTorch's own autograd and SGD step on every float argument.
    (loss, y), updated = sgd_reference(fn, names, args, lr)
    expected = {"result0": loss.detach(), "result1": y.detach().contiguous(), **updated}
    save_file(expected, base + ".torch.safetensors")
    return base


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--models", nargs="+", default=list(layers()))
    p.add_argument("--lr", type=float, default=LR)
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in args.models:
        print(export(name, args.out, args.lr))


if __name__ == "__main__":
    main()
