// What summa-plan says about a model it reads (the first line of the table
// and the JSON "model"): language models take token ids (an integer
// [batch, seq] argument that reaches an embedding), the embedding table
// gives the hidden size, the vocabulary and the element type of the
// weights; layers are counted from the weights' names (h.0., layers.1.,
// h1.), else from the period of their shapes, else one where there is
// attention. GPT-2-like nanoGPT (fused QKV: 4 matrices a layer, an untied
// LM head), its derived training step, Llama with labels (7 a layer) and
// without (ids in, hidden states out), JAX's LM whose embedding is a
// product with one-hot ids, Llama without names (layers by structure), a
// GPT layer without names (one layer, by its attention), and weights left
// in as constants.
// RUN: summa-plan %summa_src/examples/fixtures/gpt_small.mlir --ranks 2 | FileCheck %s --check-prefix=GS
// RUN: summa-opt %summa_src/examples/fixtures/gpt_small.mlir --summa-differentiate="sgd-lr=0.01 params=floats" -o %t.gs-step.mlir
// RUN: summa-plan %t.gs-step.mlir --ranks 2 --entry gpt_small_grad | FileCheck %s --check-prefix=GSSTEP
// RUN: summa-plan %summa_src/examples/fixtures/hf_llama_lm.mlir --ranks 2 | FileCheck %s --check-prefix=LLAMA
// RUN: summa-plan %summa_src/examples/fixtures/hf_llama_model.mlir --ranks 2 | FileCheck %s --check-prefix=LLAMAFWD
// RUN: summa-plan %summa_src/examples/fixtures/gpt_lm_train_step_jax.mlir --ranks 2 | FileCheck %s --check-prefix=ONEHOT
// RUN: summa-plan %summa_src/examples/fixtures/gpt_small.mlir --ranks 2 --json | FileCheck %s --check-prefix=JSON
// RUN: sed -e 's/summa\.name = /x.label = /g' %summa_src/examples/fixtures/hf_llama_lm.mlir > %t.noname.mlir
// RUN: summa-plan %t.noname.mlir --ranks 2 --json | FileCheck %s --check-prefix=NONAME
// RUN: summa-plan %summa_src/examples/gpt_layer.mlir --ranks 2 --json | FileCheck %s --check-prefix=BLOCK
// RUN: summa-plan %summa_src/examples/fixtures/gpt_small_const.mlir --ranks 2 | FileCheck %s --check-prefix=CONST

// GS: summa-plan: @gpt_small (read from the IR): 32 tokens (4 sequences of 8, token ids i64), hidden 32, vocabulary 64, f32; 9 weight matrices (2 layers), 29984 parameter elements
// GSSTEP: summa-plan: @gpt_small_grad (read from the IR): 32 tokens (4 sequences of 8, token ids i64), hidden 32, vocabulary 64, f32; 9 weight matrices (2 layers), 29984 parameter elements
// LLAMA: summa-plan: @hf_llama_lm (read from the IR): 16 tokens (2 sequences of 8, token ids i64), hidden 32, vocabulary 64, f32; 15 weight matrices (2 layers)
// LLAMAFWD: summa-plan: @hf_llama_model (read from the IR): 16 tokens (2 sequences of 8, token ids i64), hidden 32, vocabulary 64, f32; 14 weight matrices (2 layers)
// ONEHOT: summa-plan: @gpt_lm_train_step_jax (read from the IR): 256 tokens (8 sequences of 32, token ids i32), hidden 32, vocabulary 256, f32; 14 weight matrices (2 layers)

// JSON:      "tokens": 32,
// JSON-NEXT: "hidden": 32,
// JSON-NEXT: "batch": 4,
// JSON-NEXT: "seq": 8,
// JSON-NEXT: "token_ids": true,
// JSON-NEXT: "id_type": "i64",
// JSON-NEXT: "vocab": 64,
// JSON:      "layers": 2,
// JSON-NEXT: "layers_from": "names",

// NONAME:      "weight_matrices": 15,
// NONAME-NEXT: "layers": 2,
// NONAME-NEXT: "layers_from": "structure",

// BLOCK:      "weight_matrices": 6,
// BLOCK-NEXT: "layers": 1,
// BLOCK-NEXT: "layers_from": "attention",

// CONST: summa-plan: @gpt_small (read from the IR): 32 tokens (4 sequences of 8, token ids i64), hidden 32, vocabulary 64, f32; 9 weight matrices (2 layers), 32 parameter elements
