// On a training step the 1D and data-parallel models find the backward's
// collectives in the IR. gpt_train_step.mlir (2 layers) on 4 ranks:
// * 1D Megatron: per layer two forward all-reduces (after O and W2) and two
//   backward ones (dX of the QKV and W1 column-parallel linears; the three
//   partial dX of Q, K and V are summed first), 8 in all, of [32, 32] f32;
// * data parallel: one all-reduce per parameter gradient (16 per layer, 2
//   for the final LayerNorm) and one for the loss, 35 in all, of exactly
//   the bytes summa's own data-parallel grid [1,1,4] is counted to send
//   (there: weight gradients over depth, bias and LayerNorm gradients over
//   row+depth, the loss over all axes; summa-combine-collectives packs each
//   group's all-reduces into fewer calls, the model does not).
// RUN: summa-plan %summa_src/examples/gpt_train_step.mlir --ranks 4 | FileCheck %s
// Hugging Face GPT-2's AdamW step with a batch of 2 sequences
// (hf_gpt2_adamw_micro.mlir) on 4 ranks: summa's [1,1,4] and the
// data-parallel row both split the 2 sequences into padded blocks (two
// ranks hold padding) instead of refusing the grid.
// RUN: summa-opt %summa_src/examples/fixtures/hf_gpt2_adamw_micro.mlir --summa-differentiate="optimizer=adamw lr=0.01 params=floats gradients=false" -o %t.micro.mlir
// RUN: summa-plan %t.micro.mlir --entry=hf_gpt2_lm_grad --ranks 4 | FileCheck %s --check-prefix=MICRO
// MICRO: @hf_gpt2_lm_grad (read from the IR): 32 tokens (2 sequences of 16
// MICRO: * [1,1,4]    counted
// MICRO: DP         model
// MICRO: best: [1,1,4]

// CHECK: [1,1,4]    counted     [[DPBYTES:[0-9.]+ KiB]]
// CHECK: DP         model       [[DPBYTES]]
// CHECK: [1,1,4]: memory per rank
// CHECK-NEXT: all_reduce     depth             4 ranks  nvlink {{ *[0-9]+}} calls            98304 B
// CHECK-NEXT: all_reduce     row+depth         4 ranks  nvlink {{ *[0-9]+}} calls             3584 B
// CHECK-NEXT: all_reduce     row+col+depth     4 ranks  nvlink {{ *[0-9]+}} calls                4 B
// CHECK: 1D: memory per rank
// CHECK-NEXT: all_reduce     world             4 ranks  nvlink        8 calls            32768 B
// CHECK: DP: memory per rank
// CHECK-NEXT: all_reduce     world             4 ranks  nvlink       35 calls           101892 B
