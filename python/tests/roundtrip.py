#!/usr/bin/env python3
"""The Python front door end to end, against PyTorch itself.

For tiny Hugging Face configs (GPT-2, Llama with grouped-query attention,
Mixtral with 4 experts, top-2), what `python -m summa train` does: a
tokenizer trained on the text, the model's causal-LM loss exported by
summa.export, its AdamW step compiled for the grid and trained as a job for
--steps steps, save_pretrained. Then, independently of summa:

  * PyTorch's own loop: the same initial model, torch.optim.AdamW (decay
    on the matrices, as summa's default and Hugging Face's Trainer), the
    same batches (summa.batches: the --data loader's draw), loss.backward()
    and step(): its loss at every step equals summa's (--loss-tol,
    relative), and its final weights equal the directory's
    (--weight-tol, relative L2 per tensor; a parameter whose gradient is
    zero in exact arithmetic, a key's bias, is rounding noise after Adam
    in every implementation and is not compared);
  * `AutoModelForCausalLM.from_pretrained(DIR)`: its loss on a held-out
    batch equals summa's compiled forward's on the grid (1e-4 relative);
  * text from the trained model, summa's generator (compile(generate=True)
    of the logits export) against the loaded model's `generate` (greedy,
    static cache): the same ids, every new token's logits within 1e-4.

    python/tests/roundtrip.py [--models gpt2 llama mixtral] [--grid 2,2,1] [--steps 20]

`--families` takes instead every causal LM family of docs/Families.md in
the tiny configs of examples/export/try_hf_models.py (vocabulary and
positions raised for the tokenizer and the rows), through the same calls:
no code of the user's for any family; and BERT, the encoder, exported as
it is and run forward against PyTorch.
"""

import argparse
import math
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
try:
    import summa  # the package pip installed (scripts/python-env.sh)
except ImportError:
    sys.path.insert(0, os.path.join(REPO, "python"))
    import summa
from summa.batches import batch  # noqa: E402
from summa.cli import train_hf  # noqa: E402

V = 320
GENERATE = ("gpt2", "llama", "mixtral")


def configs():
    import transformers as t

    ids = dict(bos_token_id=0, eos_token_id=0, pad_token_id=0)
    return {
        "gpt2": t.GPT2Config(n_layer=2, n_embd=32, n_head=4, n_positions=32, vocab_size=V,
                             resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, **ids),
        "llama": t.LlamaConfig(hidden_size=32, num_attention_heads=4, num_key_value_heads=2,
                               intermediate_size=64, num_hidden_layers=2,
                               max_position_embeddings=32, vocab_size=V, **ids),
        "mixtral": t.MixtralConfig(hidden_size=32, num_attention_heads=4, num_key_value_heads=2,
                                   intermediate_size=48, num_hidden_layers=2,
                                   max_position_embeddings=32, vocab_size=V, num_local_experts=4,
                                   num_experts_per_tok=2, router_aux_loss_coef=0.0, **ids),
    }


def family_configs():
    """{family: config} of examples/export/try_hf_models.py's causal LMs,
    with a vocabulary a byte-level tokenizer fits and 32 positions; the
    attention and experts implementations left to summa.export."""
    sys.path.insert(0, os.path.join(REPO, "examples", "export"))
    import try_hf_models

    out = {}
    for name, (cls, kwargs) in try_hf_models.configs().items():
        if name == "bert":  # an encoder: no causal LM
            continue
        kwargs = dict(kwargs, vocab_size=V)
        for key in ("max_position_embeddings", "n_positions", "n_ctx"):
            if key in kwargs:
                kwargs[key] = 32
        kwargs.pop("attn_implementation", None)
        kwargs.pop("experts_implementation", None)
        out[name] = cls(**kwargs)
    return out


def check_encoder(grid):
    """BERT, the encoder of try_hf_models.py (no causal LM): summa.export
    of `BertModel(input_ids)` as it is (its last hidden state), compiled
    for the grid and run, against PyTorch's output (1e-4)."""
    import torch
    import transformers

    sys.path.insert(0, os.path.join(REPO, "examples", "export"))
    import try_hf_models

    cls, kwargs = try_hf_models.configs()["bert"]
    torch.manual_seed(0)
    model = transformers.BertModel(cls(**kwargs), add_pooling_layer=False)
    ids = torch.randint(0, kwargs["vocab_size"], (2, 8))
    forward = summa.compile(summa.export(model, ids, name="bert"), grid=grid)
    got = forward.run(ids)["result0"]
    with torch.no_grad():
        want = model(input_ids=ids).last_hidden_state
    err = (got - want).abs().max().item()
    ok = got.shape == want.shape and err <= 1e-4
    print(f"{'PASS' if ok else 'FAIL'} bert: the forward on {grid} against PyTorch's "
          f"last hidden state: max |error| {err:.1e}", flush=True)
    return ok


def torch_loop(config, ids, steps, rows, seq, options, seed):
    """PyTorch's own training of the same model on the same batches:
    (losses, the final model)."""
    import torch
    import transformers

    torch.manual_seed(seed)
    model = transformers.AutoModelForCausalLM.from_config(config)
    model.set_attn_implementation("eager")
    if hasattr(model, "set_experts_implementation") and getattr(config, "num_local_experts", 0):
        model.set_experts_implementation("batched_mm")
    model.eval()  # summa's step has no dropout
    matrices = [p for p in model.parameters() if p.dim() >= 2]
    others = [p for p in model.parameters() if p.dim() < 2]
    if options.optimizer == "adamw":
        opt = torch.optim.AdamW([{"params": matrices, "weight_decay": options.weight_decay},
                                 {"params": others, "weight_decay": 0.0}], lr=options.lr,
                                betas=(options.beta1, options.beta2), eps=options.eps)
    else:
        opt = torch.optim.SGD(model.parameters(), lr=options.lr)
    losses, largest = [], {}
    for step in range(steps):
        x = torch.tensor(batch(ids, 42, step, rows, seq), dtype=torch.long)
        loss = model(input_ids=x, labels=x, use_cache=False).loss
        opt.zero_grad()
        loss.backward()
        for name, p in model.named_parameters():
            g = 0.0 if p.grad is None else p.grad.abs().max().item()
            largest[name] = max(largest.get(name, 0.0), g)
        opt.step()
        losses.append(loss.item())
    # A parameter whose gradient is zero in exact arithmetic (a key's bias:
    # softmax does not see a constant added to a row of scores) gets
    # rounding noise as its gradient, which Adam normalises into full-size
    # steps of any sign: its value is noise in every implementation.
    noise = {n for n, g in largest.items() if g < 1e-6}
    return losses, model, noise


def check(name, config, text, grid, steps, work, loss_tol, weight_tol, generate,
          optimizer="adamw"):
    import torch
    import transformers

    rows, seq = 2, 32
    options = summa.TrainingOptions(optimizer=optimizer, lr=3e-3, weight_decay=0.1)
    out = os.path.join(work, name)
    report = train_hf(config, text, grid, steps, out, batch=rows, seq=seq, train=options,
                      progress=False)
    tok = transformers.AutoTokenizer.from_pretrained(out)
    train_ids, _ = summa.tokenize(text, tok)
    losses, reference, noise = torch_loop(config, train_ids, steps, rows, seq, options, seed=0)
    failures = []
    worst_loss = max(abs(a - b) / abs(b) for a, b in zip(report["losses"], losses))
    if len(report["losses"]) != steps or not worst_loss <= loss_tol:
        failures.append(f"losses differ from PyTorch's loop by {worst_loss:.1e} (relative)")
    loaded = transformers.AutoModelForCausalLM.from_pretrained(out)
    got, want = loaded.state_dict(), reference.state_dict()
    worst_weight, worst_name = 0.0, ""
    for key, w in want.items():
        if not w.is_floating_point() or key in noise:
            continue
        err = (torch.linalg.norm(got[key] - w) / max(torch.linalg.norm(w), 1e-30)).item()
        if not err <= worst_weight:
            worst_weight, worst_name = err, key
    if not worst_weight <= weight_tol:
        failures.append(f"weight {worst_name} differs from PyTorch's by {worst_weight:.1e}")
    generated = ""
    if generate:
        prompt = torch.tensor([ids[:8] for ids in tok([
            "Of Mans First Disobedience, and the Fruit",
            "And chiefly Thou O Spirit, that dost prefer"])["input_ids"]])
        logits = summa.export(loaded, torch.zeros(rows, seq, dtype=torch.long), loss="logits",
                              name="logits", out=os.path.join(out, "summa"))
        gen = summa.compile(logits, grid=grid, generate=True, prompt_length=8)
        ids, scores = gen.generate(prompt, max_new_tokens=16, return_logits=True)
        with torch.no_grad():
            hf = loaded.generate(prompt, attention_mask=torch.ones_like(prompt),
                                 max_new_tokens=16, min_new_tokens=16, do_sample=False,
                                 pad_token_id=0, cache_implementation="static",
                                 return_dict_in_generate=True, output_logits=True)
        err = (scores - torch.stack(hf.logits)).abs().max().item()
        if not torch.equal(ids, hf.sequences) or not err <= 1e-4:
            failures.append(f"generation: ids equal {torch.equal(ids, hf.sequences)}, logits "
                            f"differ by {err:.1e}")
        generated = f"; 16 tokens generated = Hugging Face's (logits {err:.1e})"
    a, b = report["held_out_summa"], report["held_out_torch"]
    held = abs(a - b) / abs(b)
    if not held <= 1e-4:
        failures.append(f"held-out loss: summa {a}, from_pretrained {b}")
    line = (f"{name}: {steps} {optimizer} steps on {grid}: loss {losses[0]:.4f} -> {losses[-1]:.4f}, "
            f"vs PyTorch's loop {worst_loss:.1e} (losses) {worst_weight:.1e} (weights); "
            f"held-out summa {a:.6f} from_pretrained {b:.6f} ({held:.1e}){generated}")
    print(("FAIL " if failures else "PASS ") + line, flush=True)
    for f in failures:
        print("  " + f, flush=True)
    return not failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", nargs="+", default=None,
                    help="of gpt2, llama, mixtral (default: the three), or with --families of those")
    ap.add_argument("--families", action="store_true",
                    help="the causal LM families of examples/export/try_hf_models.py")
    ap.add_argument("--generate", action="store_true",
                    help="check generation for every model (default: gpt2 and llama)")
    ap.add_argument("--grid", default="2,2,1")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--optimizer", choices=("adamw", "sgd"), default="adamw")
    ap.add_argument("--text", default=os.path.join(REPO, "examples", "data", "paradise_lost.txt"))
    ap.add_argument("--chars", type=int, default=40000, help="the text's first CHARS characters")
    ap.add_argument("--loss-tol", type=float, default=1e-4)
    ap.add_argument("--weight-tol", type=float, default=1e-3)
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="summa-python-")
    text = os.path.join(work, "text.txt")
    with open(args.text, encoding="utf-8") as f, open(text, "w", encoding="utf-8") as g:
        g.write(f.read()[:args.chars])
    all_configs = family_configs() if args.families else configs()
    ok = True
    for name in args.models or list(all_configs):
        try:
            ok &= check(name, all_configs[name], text, args.grid, args.steps, work,
                        args.loss_tol, args.weight_tol,
                        args.generate or (name in GENERATE and not args.families),
                        args.optimizer)
        except summa.SummaError as e:
            print(f"FAIL {name}: {e}", flush=True)
            ok = False
    if args.families and not args.models:
        try:
            ok &= check_encoder(args.grid)
        except summa.SummaError as e:
            print(f"FAIL bert: {e}", flush=True)
            ok = False
    if args.keep:
        print(f"work folder: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
