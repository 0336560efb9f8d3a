"""python -m summa train: a Hugging Face causal LM trained on a text file
with summa, saved as a directory from_pretrained loads.

    python -m summa train --hf-config config.json --grid 2,2,1 --data text.txt \\
        --steps 300 --out DIR [--batch 4] [--seq 128] [--tokenizer bpe|bytes] [--lr 1e-3]

The model is built from the config (random weights, torch.manual_seed
--seed), a byte-level tokenizer is trained on the text (the config's
vocab_size; nothing downloaded), the model's next-token loss is exported
(summa.export loss="causal_lm"), its AdamW step compiled for the grid and
trained as a job (summa-run), and DIR gets the model, its config and the
tokenizer. Last, the loss of a held-out batch (the text's last 10%) is
computed twice, by summa's compiled forward on the grid and by
`AutoModelForCausalLM.from_pretrained(DIR)` in PyTorch; --check makes a
difference above --tol (relative) an error.
"""

import argparse
import json
import os
import sys

from ._tools import SummaError


def load_config(path):
    """A transformers config from a config.json file (or a folder holding
    one); its model_type says which class."""
    import transformers

    if os.path.isdir(path):
        return transformers.AutoConfig.from_pretrained(path)
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise SummaError(f"summa: --hf-config {path}: {e}") from None
    if "model_type" not in d:
        raise SummaError(f"summa: --hf-config {path}: no model_type (which model it configures)")
    return transformers.AutoConfig.for_model(**d)


def max_positions(config):
    for key in ("n_positions", "max_position_embeddings", "seq_length"):
        if getattr(config, key, None):
            return int(getattr(config, key))
    return 1 << 30


def held_out_batch(ids, batch, seq):
    """The first `batch` windows of `seq` ids of the held-out text (fewer
    rows than `batch` only if it is that short)."""
    import torch

    rows = min(batch, len(ids) // seq)
    if rows == 0:
        raise SummaError(f"summa: the held-out text has {len(ids)} ids, fewer than one row of "
                         f"{seq}; give a longer text")
    return torch.tensor(ids[:rows * seq], dtype=torch.long).reshape(rows, seq)


def train_hf(config, data, grid, steps, out, batch=4, seq=None, tokenizer="bpe", seed=0,
             train=None, work=None, progress=True, evaluate=True):
    """What `python -m summa train` does; returns {"losses", "held_out_summa",
    "held_out_torch", "out", "checkpoint"}."""
    import torch
    import transformers

    from .compile import TrainingOptions, compile
    from .export import export
    from .hf import save_pretrained
    from .text import tokenize, train_tokenizer
    from .train import train as run_job

    seq = seq or min(max_positions(config), 128)
    if seq > max_positions(config):
        raise SummaError(f"summa: --seq {seq} is longer than the model's {max_positions(config)} "
                         "positions")
    tok = train_tokenizer(data, config.vocab_size, tokenizer)
    train_ids, held = tokenize(data, tok)
    if len(train_ids) <= seq + 1:
        raise SummaError(f"summa: {data} gives {len(train_ids)} ids to train on, fewer than a "
                         f"row of {seq}")
    torch.manual_seed(seed)
    model = transformers.AutoModelForCausalLM.from_config(config)
    work = work or os.path.join(out, "summa")
    os.makedirs(work, exist_ok=True)
    example = torch.zeros(batch, seq, dtype=torch.long)
    exported = export(model, example, loss="causal_lm", name="causal_lm", out=work)
    compiled = compile(exported, grid=grid, train=train or TrainingOptions())
    result = run_job(compiled, train_ids, steps, checkpoint=os.path.join(work, "checkpoint"),
                     vocab=config.vocab_size, progress=progress)
    save_pretrained(result, model, out, tokenizer=tok)
    report = {"losses": result.losses, "out": out, "checkpoint": result.final}
    if evaluate:
        ids = held_out_batch(held, batch, seq)
        forward = compile(export(model, ids, loss="causal_lm", name="causal_lm_eval", out=work),
                          grid=grid)
        report["held_out_summa"] = forward.loss((ids,), weights=result.final)
        loaded = transformers.AutoModelForCausalLM.from_pretrained(out)
        with torch.no_grad():
            report["held_out_torch"] = float(loaded(input_ids=ids, labels=ids,
                                                    use_cache=False).loss)
    return report


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m summa",
                                 description="summa from Python (docs/Python.md)")
    sub = ap.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train a Hugging Face causal LM on a text file",
                       description=__doc__.split("\n\n")[0])
    t.add_argument("--hf-config", required=True, help="config.json (or a folder with one)")
    t.add_argument("--data", required=True, help="the text file")
    t.add_argument("--grid", default="2,2,1", help="q,q,d (default 2,2,1)")
    t.add_argument("--steps", type=int, default=100)
    t.add_argument("--out", required=True, help="the directory from_pretrained will load")
    t.add_argument("--batch", type=int, default=4)
    t.add_argument("--seq", type=int, default=None,
                   help="tokens per row (default: the model's positions, at most 128)")
    t.add_argument("--tokenizer", choices=("bpe", "bytes"), default="bpe")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--optimizer", choices=("adamw", "sgd", "momentum"), default="adamw")
    t.add_argument("--lr", type=float, default=1e-3)
    t.add_argument("--weight-decay", type=float, default=0.01)
    t.add_argument("--clip-norm", type=float, default=0.0)
    t.add_argument("--schedule", choices=("constant", "cosine", "linear"), default="constant")
    t.add_argument("--warmup", type=int, default=0)
    t.add_argument("--zero", action="store_true", help="optimizer state split over depth")
    t.add_argument("--work", default=None, help="where the compiled files go (default OUT/summa)")
    t.add_argument("--no-eval", action="store_true", help="skip the held-out comparison")
    t.add_argument("--check", action="store_true",
                   help="exit status 1 unless summa's held-out loss and from_pretrained's agree")
    t.add_argument("--tol", type=float, default=1e-4)
    args = ap.parse_args(argv)

    from .compile import TrainingOptions

    try:
        config = load_config(args.hf_config)
        options = TrainingOptions(optimizer=args.optimizer, lr=args.lr,
                                  weight_decay=args.weight_decay, clip_norm=args.clip_norm,
                                  schedule=args.schedule, warmup=args.warmup,
                                  decay_steps=args.steps if args.schedule != "constant" else 0,
                                  zero=args.zero)
        report = train_hf(config, args.data, args.grid, args.steps, args.out, batch=args.batch,
                          seq=args.seq, tokenizer=args.tokenizer, seed=args.seed, train=options,
                          work=args.work, evaluate=not args.no_eval)
    except SummaError as e:
        print(e, file=sys.stderr)
        return 1
    losses = report["losses"]
    print(f"summa: trained {len(losses)} steps, loss {losses[0]:.4f} -> {losses[-1]:.4f}")
    print(f"summa: wrote {args.out} (transformers.AutoModelForCausalLM.from_pretrained loads it, "
          "AutoTokenizer its tokenizer)")
    if "held_out_summa" in report:
        a, b = report["held_out_summa"], report["held_out_torch"]
        rel = abs(a - b) / max(abs(b), 1e-30)
        print(f"summa: held-out loss: summa {a:.6f}, PyTorch from_pretrained {b:.6f} "
              f"(relative difference {rel:.1e})")
        if args.check and not rel <= args.tol:
            print(f"summa: FAIL: the held-out losses differ by more than {args.tol}",
                  file=sys.stderr)
            return 1
    return 0
