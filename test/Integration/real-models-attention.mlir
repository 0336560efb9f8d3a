// On the CPU, the attention of each real export is computed a head at a
// time (summa-tile-attention), whatever the exporter's softmax looks like:
// nanoGPT's and Hugging Face's (torch keepdim reductions, a mask buffer),
// JAX's, and Llama's grouped-query attention where a rank holds one head of
// keys per group (grid [2,2,x]: the split of the heads is then a reshape of
// size-one dimensions); with all groups on one rank, the heads of P are
// split before P·V and the attention stays as it is, with the reason. The
// binaries' --check against the untiled reference is in real-models.mlir.
// RUN: summa-opt %summa_src/examples/fixtures/nanogpt_block.mlir --summa-pipeline="grid=2,2,2 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED
// RUN: summa-opt %summa_src/examples/fixtures/hf_gpt2_block.mlir --summa-pipeline="grid=1,1,2 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED
// RUN: summa-opt %summa_src/examples/fixtures/gpt2_block_jax.mlir --summa-pipeline="grid=2,2,1 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED
// RUN: summa-opt %summa_src/examples/fixtures/llama_layer.mlir --summa-pipeline="grid=2,2,1 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED
// RUN: summa-opt %summa_src/examples/fixtures/llama_layer.mlir --summa-pipeline="grid=1,1,1 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GQA
// The training step's backward reads the probabilities: not tiled.
// RUN: summa-opt %summa_src/examples/fixtures/gpt2_train_step_jax.mlir --summa-pipeline="grid=1,1,1 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TRAIN

// FUSED-NOT: error
// FUSED: remark: fused attention: Q·Kᵀ, {{[0-9]+}} ops between and this product tiled by one head and 8 query rows at a time
// FUSED-NOT: attention not fused
// FUSED-NOT: error
// GQA: remark: attention not fused: the probabilities are reshaped on the way (heads grouped, as in grouped-query attention)
// GQA-NOT: fused attention
// TRAIN-NOT: remark: fused attention
// TRAIN: remark: attention not fused: its scores or probabilities are also read by
// TRAIN-NOT: remark: fused attention
