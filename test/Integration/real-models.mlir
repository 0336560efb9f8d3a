// Models exported by torch-mlir's FX importer (examples/export/
// export_torch.py), unedited: a nanoGPT block (fused c_attn, [out, in]
// weights, the causal mask a buffer argument), Hugging Face's GPT2Block
// (eager attention) and a Llama decoder layer (RMSNorm, SwiGLU, rotary
// embedding with tensor.concat, grouped-query attention), each checked
// against the unpartitioned function on the grids of the 2.5D design. The
// same models and the JAX training step with their weights left as
// constants (the exporters' default) too, constants lifted into arguments.
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block.mlir --grid=1,1,1 -o %t.nb.111
// RUN: %mpirun -np 1 %t.nb.111 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block.mlir --grid=2,2,1 -o %t.nb.221
// RUN: %mpirun -np 4 %t.nb.221 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block.mlir --grid=1,1,2 -o %t.nb.112
// RUN: %mpirun -np 2 %t.nb.112 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block.mlir --grid=2,2,2 -o %t.nb.222
// RUN: %mpirun -np 8 %t.nb.222 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_block.mlir --grid=1,1,1 -o %t.hf.111
// RUN: %mpirun -np 1 %t.hf.111 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_block.mlir --grid=2,2,1 -o %t.hf.221
// RUN: %mpirun -np 4 %t.hf.221 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_block.mlir --grid=1,1,2 -o %t.hf.112
// RUN: %mpirun -np 2 %t.hf.112 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_block.mlir --grid=2,2,2 -o %t.hf.222
// RUN: %mpirun -np 8 %t.hf.222 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/llama_layer.mlir --grid=1,1,1 -o %t.ll.111
// RUN: %mpirun -np 1 %t.ll.111 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/llama_layer.mlir --grid=2,2,1 -o %t.ll.221
// RUN: %mpirun -np 4 %t.ll.221 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/llama_layer.mlir --grid=1,1,2 -o %t.ll.112
// RUN: %mpirun -np 2 %t.ll.112 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/llama_layer.mlir --grid=2,2,2 -o %t.ll.222
// RUN: %mpirun -np 8 %t.ll.222 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block_const.mlir --grid=2,2,1 -o %t.nbc.221
// RUN: %mpirun -np 4 %t.nbc.221 --check | FileCheck %s
// The same with its constants of >= 256 elements lifted into arguments
// (summa-lift-constants): the weights are then split like weights instead
// of whole on every rank.
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block_const.mlir --lift-constants=256 --grid=2,2,1 -o %t.nbl.221
// RUN: %mpirun -np 4 %t.nbl.221 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block_const.mlir --lift-constants=256 --grid=2,2,2 -o %t.nbl.222
// RUN: %mpirun -np 8 %t.nbl.222 --check | FileCheck %s
// With --save-constants the lifted values go to a file under the
// arguments' names (the resources' keys), which the binary reads: the same
// outputs as the program that kept its constants (the activation from the
// seed in both); with the seed's weights instead, they differ.
// RUN: %mpirun -np 4 %t.nbc.221 --iters 0 --outputs %t.nbc.out.safetensors
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block_const.mlir --lift-constants=256 --save-constants=%t.consts.safetensors --grid=2,2,1 -o %t.nbs.221
// RUN: %mpirun -np 4 %t.nbs.221 --inputs %t.consts.safetensors --fill-missing --iters 0 --expect %t.nbc.out.safetensors --tol 1e-6 | FileCheck %s --check-prefix=SAVED
// RUN: not %mpirun -np 4 %t.nbs.221 --iters 0 --expect %t.nbc.out.safetensors --tol 1e-6 | FileCheck %s --check-prefix=SEEDED
// SAVED: expect: PASS
// SEEDED: expect: FAIL
// The other four exported with their weights as constants (JAX's training
// step closing over its parameters), constants lifted.
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_block_const.mlir --lift-constants=256 --grid=2,2,1 -o %t.hfl.221
// RUN: %mpirun -np 4 %t.hfl.221 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/llama_layer_const.mlir --lift-constants=256 --grid=2,2,1 -o %t.lll.221
// RUN: %mpirun -np 4 %t.lll.221 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/gpt_small_const.mlir --lift-constants=256 --grid=2,2,1 -o %t.gsl.221
// RUN: %mpirun -np 4 %t.gsl.221 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_train_step_jax_const.mlir --lift-constants=256 --grid=2,2,1 -o %t.tsl.221
// RUN: %mpirun -np 4 %t.tsl.221 --check | FileCheck %s
// A JAX training step (jax.value_and_grad of a GPT-2 block's loss and an
// SGD update; examples/export/export_jax_train_step.py), three steps, the
// weight replicas bit-identical across depth.
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_train_step_jax.mlir --grid=1,1,1 -o %t.ts.111
// RUN: %mpirun -np 1 %t.ts.111 --check --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_train_step_jax.mlir --grid=2,2,1 -o %t.ts.221
// RUN: %mpirun -np 4 %t.ts.221 --check --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_train_step_jax.mlir --grid=1,1,2 -o %t.ts.112
// RUN: %mpirun -np 2 %t.ts.112 --check --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_train_step_jax.mlir --grid=2,2,2 -o %t.ts.222
// RUN: %mpirun -np 8 %t.ts.222 --check --steps 3 --exact-replicas | FileCheck %s
// A whole small GPT (token and position embeddings looked up with
// tensor.extract, two nanoGPT blocks, final LayerNorm, LM head and the
// cross-entropy loss against integer targets): the token ids are i64
// inputs that the driver fills with ids below the vocabulary size.
// RUN: summa-compile %summa_src/examples/fixtures/gpt_small.mlir --grid=1,1,1 -o %t.gs.111
// RUN: %mpirun -np 1 %t.gs.111 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/gpt_small.mlir --grid=2,2,1 -o %t.gs.221
// RUN: %mpirun -np 4 %t.gs.221 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/gpt_small.mlir --grid=1,1,2 -o %t.gs.112
// RUN: %mpirun -np 2 %t.gs.112 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/gpt_small.mlir --grid=2,2,2 -o %t.gs.222
// RUN: %mpirun -np 8 %t.gs.222 --check | FileCheck %s

// The same families exported at sizes that divide by 3, on [3,3,1].
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block_q3.mlir --grid=3,3,1 -o %t.nb.331
// RUN: %mpirun -np 9 %t.nb.331 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_block_q3.mlir --grid=3,3,1 -o %t.hf.331
// RUN: %mpirun -np 9 %t.hf.331 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/llama_layer_q3.mlir --grid=3,3,1 -o %t.ll.331
// RUN: %mpirun -np 9 %t.ll.331 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_train_step_jax_q3.mlir --grid=3,3,1 -o %t.ts.331
// RUN: %mpirun -np 9 %t.ts.331 --check --steps 3 --exact-replicas | FileCheck %s

// What moves for the nanoGPT block on [2,2,1] (summa-compile runs
// summa-normalize first), besides its SUMMA products and LayerNorm
// all-reduces: nothing. The fused c_attn product, its [out, in] weight and
// its bias are factored into 3 groups (Q, K, V), the product's and the
// bias's split over col, the weight's [out] dimension over row, so the
// three slices stay inside every tile; the [out, in] weights are the rhs
// of A·Bᵀ products (summa-normalize folds nn.Linear's transpose into the
// product) and need nothing either.
// RUN: summa-opt %summa_src/examples/fixtures/nanogpt_block.mlir --summa-normalize --summa-assign-layouts="grid=2,2,1" | FileCheck %s --check-prefix=NBLAYOUT
// NBLAYOUT: %arg4: tensor<96x32xf32> {summa.layout = #summa.layout<@grid, [3x[row], [col]]>
// NBLAYOUT-SAME: %arg5: tensor<96xf32> {summa.layout = #summa.layout<@grid, [3x[col]]>
// NBLAYOUT-NOT: summa.relayout
// RUN: summa-opt %summa_src/examples/fixtures/nanogpt_block.mlir --summa-normalize --summa-assign-layouts="grid=2,2,1" --summa-partition="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NB221
// NB221: remark: 2.5D SUMMA matmul
// NB221-NOT: redistribution
// Hugging Face's GPT2Block (Conv1D weights [in, 3h]) alike.
// RUN: summa-opt %summa_src/examples/fixtures/hf_gpt2_block.mlir --summa-normalize --summa-assign-layouts="grid=2,2,1" --summa-partition="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NB221

// The Llama layer on [2,2,1] (summa-compile runs summa-normalize first):
// heads stay split over col through the grouped-query repeat and the
// [batch, heads] collapses around its batch_matmuls; the only
// redistribution is a free slice of the causal mask.
// RUN: summa-opt %summa_src/examples/fixtures/llama_layer.mlir --summa-normalize --summa-assign-layouts="grid=2,2,1" --summa-partition="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LL221
// LL221-NOT: summa.all_gather
// LL221: redistribution of 'tensor<4x1x8x8xf32>' from #summa.layout<@grid, {{\[}}[], [], [], []]> to #summa.layout<@grid, {{\[}}[depth, row], [], [], []]>: 0 bytes received per rank; a local slice over [depth, row] of dimension 0
// LL221-NOT: summa.all_gather

// The JAX training step on [2,2,1]: every product, forward and backward,
// is a SUMMA loop (the backward generics are raised to A·Bᵀ and Aᵀ·B
// products, the transposed weight gradients computed with swapped
// operands) and nothing is redistributed.
// RUN: summa-opt %summa_src/examples/fixtures/gpt2_train_step_jax.mlir --summa-normalize --summa-assign-layouts="grid=2,2,1" --summa-partition="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TS221
// TS221-COUNT-6: remark: 2.5D SUMMA matmul A·Bᵀ
// TS221-NOT: redistribution
// RUN: summa-opt %summa_src/examples/fixtures/gpt2_train_step_jax.mlir --summa-normalize --summa-assign-layouts="grid=2,2,1" --summa-partition="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TS221ATB
// TS221ATB-COUNT-6: remark: 2.5D SUMMA matmul Aᵀ·B

// CHECK: check: PASS
