// REQUIRES: cuda-backend
// Every committed fixture (examples/fixtures/*.mlir: exports of PyTorch,
// Hugging Face and JAX models, their forward passes, losses and JAX's own
// training steps) compiles for --target=cuda through ptxas (sm_90) and
// links with libsumma_runtime_cuda.so, on [1,1,1] (one rank: whole rows,
// block reductions, cuBLASLt epilogues) and [2,2,2] (every collective, the
// split attention and vocabulary). The _q3 fixtures are sized for q = 3
// (dimensions of 3 and 24 that [2,2,2] cannot split with merged reshapes):
// [1,1,1] and [3,3,1]. The training steps summa-differentiate derives from
// the loss fixtures are in the other files of this folder, at the default
// -O (NVVM's and ptxas's -O3); these compile at -O0 (kernels through ptxas
// -O0 too): the breadth of ops and grids, not the optimiser, is what this
// file checks. About 50 s on a 2-core machine.
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_block_jax.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.gpt2_block_jax.111
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_block_jax.mlir --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -O0 -o %t.gpt2_block_jax.222
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_train_step_jax.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.gpt2_train_step_jax.111
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_train_step_jax.mlir --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -O0 -o %t.gpt2_train_step_jax.222
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_train_step_jax_const.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.gpt2_train_step_jax_const.111
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_train_step_jax_const.mlir --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -O0 -o %t.gpt2_train_step_jax_const.222
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_train_step_jax_q3.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.gpt2_train_step_jax_q3.111
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_train_step_jax_q3.mlir --grid=3,3,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.gpt2_train_step_jax_q3.331
// RUN: summa-compile %summa_src/examples/fixtures/gpt_lm_train_step_jax.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.gpt_lm_train_step_jax.111
// RUN: summa-compile %summa_src/examples/fixtures/gpt_lm_train_step_jax.mlir --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -O0 -o %t.gpt_lm_train_step_jax.222
// RUN: summa-compile %summa_src/examples/fixtures/gpt_lm_torch.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.gpt_lm_torch.111
// RUN: summa-compile %summa_src/examples/fixtures/gpt_lm_torch.mlir --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -O0 -o %t.gpt_lm_torch.222
// RUN: summa-compile %summa_src/examples/fixtures/gpt_small.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.gpt_small.111
// RUN: summa-compile %summa_src/examples/fixtures/gpt_small.mlir --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -O0 -o %t.gpt_small.222
// RUN: summa-compile %summa_src/examples/fixtures/gpt_small_const.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.gpt_small_const.111
// RUN: summa-compile %summa_src/examples/fixtures/gpt_small_const.mlir --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -O0 -o %t.gpt_small_const.222
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_adamw.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.hf_gpt2_adamw.111
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_adamw.mlir --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -O0 -o %t.hf_gpt2_adamw.222
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_adamw_micro.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.hf_gpt2_adamw_micro.111
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_adamw_micro.mlir --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -O0 -o %t.hf_gpt2_adamw_micro.222
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_block.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.hf_gpt2_block.111
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_block.mlir --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -O0 -o %t.hf_gpt2_block.222
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_block_const.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.hf_gpt2_block_const.111
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_block_const.mlir --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -O0 -o %t.hf_gpt2_block_const.222
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_block_q3.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.hf_gpt2_block_q3.111
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_block_q3.mlir --grid=3,3,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.hf_gpt2_block_q3.331
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_lm.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.hf_gpt2_lm.111
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_lm.mlir --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -O0 -o %t.hf_gpt2_lm.222
// RUN: summa-compile %summa_src/examples/fixtures/hf_llama_lm.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.hf_llama_lm.111
// RUN: summa-compile %summa_src/examples/fixtures/hf_llama_lm.mlir --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -O0 -o %t.hf_llama_lm.222
// RUN: summa-compile %summa_src/examples/fixtures/hf_llama_model.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.hf_llama_model.111
// RUN: summa-compile %summa_src/examples/fixtures/hf_llama_model.mlir --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -O0 -o %t.hf_llama_model.222
// RUN: summa-compile %summa_src/examples/fixtures/llama_layer.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.llama_layer.111
// RUN: summa-compile %summa_src/examples/fixtures/llama_layer.mlir --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -O0 -o %t.llama_layer.222
// RUN: summa-compile %summa_src/examples/fixtures/llama_layer_const.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.llama_layer_const.111
// RUN: summa-compile %summa_src/examples/fixtures/llama_layer_const.mlir --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -O0 -o %t.llama_layer_const.222
// RUN: summa-compile %summa_src/examples/fixtures/llama_layer_q3.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.llama_layer_q3.111
// RUN: summa-compile %summa_src/examples/fixtures/llama_layer_q3.mlir --grid=3,3,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.llama_layer_q3.331
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.nanogpt_block.111
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block.mlir --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -O0 -o %t.nanogpt_block.222
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block_const.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.nanogpt_block_const.111
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block_const.mlir --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -O0 -o %t.nanogpt_block_const.222
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block_q3.mlir --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.nanogpt_block_q3.111
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block_q3.mlir --grid=3,3,1 --target=cuda --cuda-chip=sm_90 -O0 -o %t.nanogpt_block_q3.331
