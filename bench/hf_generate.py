#!/usr/bin/env python3
"""Hugging Face's own greedy generation, the baseline of bench/generate.sh.

    bench/hf_generate.py CONFIG INPUTS EXPECT

CONFIG, INPUTS and EXPECT are what export_torch.py's --save-generate wrote:
the model's Hugging Face configuration (any causal language model:
GPT2LMHeadModel, LlamaForCausalLM, ...), its weights named model.* with the
prompt as input_ids, and the ids generate() chose (the export's sequence
length). Builds the model from CONFIG around the weights, runs
generate(do_sample=False, cache_implementation="static") on one thread for
one new token (prefill) and for all of them, and prints the prefill time,
the time per decoded token and whether the ids are EXPECT's."""

import json
import os
import sys
import time

import torch
import transformers as t
from safetensors.torch import load_file

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "examples", "export"))
from export_torch import hf_greedy  # noqa: E402


def main(argv):
    config, inputs, expect = argv
    torch.set_num_threads(1)
    settings = json.load(open(config))
    cfg = t.AutoConfig.for_model(settings.pop("model_type"), **settings)
    # As the export ran it: attention as written out (eager), no dropout.
    cfg._attn_implementation = "eager"
    lm = t.AutoModelForCausalLM.from_config(cfg).eval()
    w = load_file(inputs)
    prompt = w["input_ids"]
    expected = load_file(expect)["generated"]
    P, S = prompt.shape[1], expected.shape[1]
    # A tied output projection is the embedding's: the only parameter the
    # file may lack.
    missing, unexpected = lm.load_state_dict(
        {k[len("model."):]: v for k, v in w.items() if k.startswith("model.")}, strict=False)
    tied = {k for k in missing if k.endswith("lm_head.weight")}
    assert not unexpected and set(missing) == tied and (
        not tied or cfg.tie_word_embeddings), (missing, unexpected)
    hf_greedy(lm, prompt, 2)  # warm-up
    t0 = time.perf_counter()
    hf_greedy(lm, prompt, 1)
    t1 = time.perf_counter()
    out = hf_greedy(lm, prompt, S - P)
    t2 = time.perf_counter()
    prefill = (t1 - t0) * 1e3
    decode = ((t2 - t1) * 1e3 - prefill) / (S - P - 1)
    same = bool((out == expected).all())
    print(f"hf [{cfg.model_type}] prefill_ms {prefill:.1f} decode_ms_per_token {decode:.1f} "
          f"same_ids {same}")


if __name__ == "__main__":
    main(sys.argv[1:])
