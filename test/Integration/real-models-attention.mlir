// On the CPU, the attention of each real export is computed a head at a
// time (summa-tile-attention), whatever the exporter's softmax looks like:
// nanoGPT's and Hugging Face's (torch keepdim reductions, a mask buffer),
// JAX's, and Llama's grouped-query attention (the heads of P split into
// groups before P·V), on one rank and partitioned. The binaries' --check
// against the untiled reference is in real-models.mlir.
// RUN: summa-opt %summa_src/examples/fixtures/nanogpt_block.mlir --summa-pipeline="grid=2,2,2 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED
// RUN: summa-opt %summa_src/examples/fixtures/hf_gpt2_block.mlir --summa-pipeline="grid=1,1,2 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED
// RUN: summa-opt %summa_src/examples/fixtures/gpt2_block_jax.mlir --summa-pipeline="grid=2,2,1 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED
// RUN: summa-opt %summa_src/examples/fixtures/llama_layer.mlir --summa-pipeline="grid=2,2,1 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED
// RUN: summa-opt %summa_src/examples/fixtures/llama_layer.mlir --summa-pipeline="grid=1,1,1 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED
// A training step: the forward's attention is tiled, its probabilities,
// which the backward reads, computed whole by the loop as well; the
// backward's products read probabilities computed before them and are
// not attentions of their own.
// RUN: summa-opt %summa_src/examples/fixtures/gpt2_train_step_jax.mlir --summa-pipeline="grid=1,1,1 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TRAIN

// FUSED-NOT: error
// FUSED: remark: fused attention: Q·Kᵀ, {{[0-9]+}} ops between and this product tiled by one head and 8 query rows at a time
// FUSED-NOT: attention not fused
// FUSED-NOT: error
// TRAIN-COUNT-2: remark: attention not fused: its scores or probabilities are also read by linalg.generic at {{.*}} before it
// TRAIN: gpt2_train_step_jax.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: fused attention: Q·Kᵀ, {{[0-9]+}} ops between
// TRAIN-NOT: remark: fused attention
