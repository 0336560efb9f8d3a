// The 1D Megatron and data-parallel rows model every op the layout rules
// accept (linalg ops by their indexing maps, softmax, reshapes, slices,
// inserts, concatenations, pads, gathers of a table read inside a body,
// what tm_tensor becomes after import), on every committed model and on
// the training step summa-differentiate derives from it: a row is either a
// model or infeasible because P does not divide a dimension, never "not
// modelled".
// RUN: %python %S/plan_fixtures.py summa-plan summa-opt 4 %t.steps %summa_src/examples/*.mlir %summa_src/examples/fixtures/*.mlir | FileCheck %s
// CHECK-NOT: not modelled
// CHECK: gpt_small.mlir: 1D model, DP model
// CHECK: gpt_small.mlir (step): 1D model, DP model
// CHECK-NOT: not modelled
// CHECK: planned {{2[89]|[3-9][0-9]}} forward models and {{2[0-9]|[3-9][0-9]}} training steps; 0 rows not modelled

// nanoGPT as a language model (gpt_small: 2 layers, fused QKV, vocabulary
// 64, 32 tokens, hidden 32) on 4 ranks. 1D Megatron: the embedding table
// split along the vocabulary (one all-reduce of the [4, 8, 32] rows), two
// all-reduces per layer (after the attention's and the MLP's row-parallel
// linears; Q, K and V are slices of the column-parallel fused product),
// and the cross-entropy over the split vocabulary completed by all-reduces
// of per-token partials (max, sum of exponentials, the target's logit):
// 5 x 4096 + 3 x 128 bytes. Data parallel: the mean loss over the split
// batch. Llama (7 matrices a layer, rotary halves concatenated) on 2:
// Megatron's two all-reduces of the [32, 32] activation.
// RUN: summa-plan %summa_src/examples/fixtures/gpt_small.mlir --ranks 4 | FileCheck %s --check-prefix=GS
// RUN: summa-plan %summa_src/examples/fixtures/llama_layer.mlir --ranks 2 | FileCheck %s --check-prefix=LL
// GS: 1D: memory per rank
// GS-NEXT: all_reduce     world             4 ranks  nvlink        8 calls            20864 B
// GS: DP: memory per rank
// GS-NEXT: all_reduce     world             4 ranks  nvlink        1 calls                4 B
// LL: 1D: memory per rank
// LL-NEXT: all_reduce     world             2 ranks  nvlink        2 calls             8192 B
// LL: DP: memory per rank
// LL-NEXT: no communication
