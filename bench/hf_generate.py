#!/usr/bin/env python3
"""Hugging Face's own greedy generation, the baseline of bench/generate.sh.

    bench/hf_generate.py MODEL INPUTS EXPECT [PADDED]

MODEL is gpt2; INPUTS the --save-generate inputs of export_torch.py
(weights named model.*, the prompt as input_ids); EXPECT its generated ids
(the export's sequence length). Loads the weights into GPT2LMHeadModel, runs
generate(do_sample=False, cache_implementation="static") on one thread for
one new token (prefill) and for all of them, and prints the prefill time,
the time per decoded token and whether the ids are EXPECT's. With PADDED,
also writes there the prompt with its first row left-padded by a third of
its length (input_ids, attention_mask) and generate()'s sequences from it:
a generator's --prompt and --expect for rows of different lengths."""

import os
import sys
import time

import torch
import transformers as t
from safetensors.torch import load_file

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "examples", "export"))
from export_torch import LN_EPS, hf_greedy  # noqa: E402


def main(argv):
    model, inputs, expect = argv[:3]
    padded = argv[3] if len(argv) > 3 else None
    assert model == "gpt2", model
    torch.set_num_threads(1)
    w = load_file(inputs)
    prompt = w["input_ids"]
    expected = load_file(expect)["generated"]
    P, S = prompt.shape[1], expected.shape[1]
    cfg = t.GPT2Config(n_positions=S, vocab_size=w["model.transformer.wte.weight"].shape[0],
                       attn_implementation="eager", pad_token_id=0, bos_token_id=0,
                       eos_token_id=0, layer_norm_epsilon=LN_EPS, resid_pdrop=0.0,
                       embd_pdrop=0.0, attn_pdrop=0.0)
    lm = t.GPT2LMHeadModel(cfg).eval()
    # lm_head.weight is wte's (tied): the only parameter the file lacks.
    missing, unexpected = lm.load_state_dict(
        {k[len("model."):]: v for k, v in w.items() if k.startswith("model.")}, strict=False)
    assert not unexpected and set(missing) <= {"lm_head.weight"}, (missing, unexpected)
    hf_greedy(lm, prompt, 2)  # warm-up
    t0 = time.perf_counter()
    hf_greedy(lm, prompt, 1)
    t1 = time.perf_counter()
    out = hf_greedy(lm, prompt, S - P)
    t2 = time.perf_counter()
    prefill = (t1 - t0) * 1e3
    decode = ((t2 - t1) * 1e3 - prefill) / (S - P - 1)
    same = bool((out == expected).all())
    print(f"hf prefill_ms {prefill:.1f} decode_ms_per_token {decode:.1f} same_ids {same}")
    if padded:
        from safetensors.torch import save_file
        ids, mask = prompt.clone(), torch.ones_like(prompt)
        ids[0, :P // 3] = 0
        mask[0, :P // 3] = 0
        out = hf_greedy(lm, ids, S - P, attention_mask=mask)
        save_file({"input_ids": ids, "attention_mask": mask, "sequences": out.contiguous()},
                  padded)


if __name__ == "__main__":
    main(sys.argv[1:])
