// Dimensions the grid does not divide are split into blocks of
// ceil(n / p), the last ones padded: reductions skip the padding, the
// contracted dimension of a product is zeroed there, files and --check
// read and write the unpadded tensors.
//
// The MLP on [5, 5, 1]: 192 tokens, hidden 96 and 384 over 5 blocks each
// (every tensor uneven), against the unpartitioned reference.
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=5,5,1 -o %t.mlp
// RUN: %mpirun -np 25 %t.mlp --check --iters 0 | FileCheck %s
// CHECK: check: PASS
//
// A dimension split unevenly and merged by a reshape with others keeps
// only the axes that divide it at the reshape (assign-layouts-uneven-
// merge.mlir), and the uses that want more get it redistributed:
// the GPT layer on [3, 3, 1] (32 tokens of 4 sequences over 3 rows, 4
// heads over 3 columns), against the unpartitioned reference, and GPT-2's
// step with a batch of 2 on [1, 1, 4] below.
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=3,3,1 -o %t.gpt331
// RUN: %mpirun -np 9 %t.gpt331 --check --iters 0 | FileCheck %s
//
// A reduction, a product and a softmax over a hidden dimension of 9 on
// q = 2 (Inputs/uneven-ops.mlir; partition-uneven.mlir shows the IR), and
// tokens 6 over depth x row = 4 on [2,2,2] (blocks of 2: the last rank's is
// all padding).
// RUN: summa-compile %S/Inputs/uneven-ops.mlir --grid=2,2,1 -o %t.ops221
// RUN: %mpirun -np 4 %t.ops221 --check --iters 0 | FileCheck %s
// RUN: summa-compile %S/Inputs/uneven-ops.mlir --grid=2,2,2 -o %t.ops222
// RUN: %mpirun -np 8 %t.ops222 --check --iters 0 | FileCheck %s
//
// Hugging Face's GPT2LMHeadModel with labels and a vocabulary of 67 (odd:
// uneven on every grid with q > 1), its tied embedding split over the
// vocabulary; the training step summa-differentiate derives agrees with
// PyTorch's autograd (the loss, every gradient and every updated weight:
// examples/fixtures/hf_gpt2_lm.sgd.safetensors) and with the unpartitioned
// reference, and stays so over several steps (--steps 4: the padding of the
// updated table is never read).
// RUN: summa-opt %summa_src/examples/fixtures/hf_gpt2_lm.mlir --summa-differentiate="sgd-lr=0.01 params=floats" -o %t.lm.mlir
// RUN: summa-compile %t.lm.mlir --entry=hf_gpt2_lm_grad --grid=2,2,1 -o %t.221
// RUN: %mpirun -np 4 %t.221 --inputs %summa_src/examples/fixtures/hf_gpt2_lm.inputs.safetensors --expect %summa_src/examples/fixtures/hf_gpt2_lm.sgd.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s --check-prefix=LM
// RUN: %mpirun -np 4 %t.221 --inputs %summa_src/examples/fixtures/hf_gpt2_lm.inputs.safetensors --steps 4 --check --iters 0 | FileCheck %s
// RUN: summa-compile %t.lm.mlir --entry=hf_gpt2_lm_grad --grid=2,2,2 -o %t.222
// RUN: %mpirun -np 8 %t.222 --inputs %summa_src/examples/fixtures/hf_gpt2_lm.inputs.safetensors --expect %summa_src/examples/fixtures/hf_gpt2_lm.sgd.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s --check-prefix=LM
// RUN: summa-compile %t.lm.mlir --entry=hf_gpt2_lm_grad --grid=1,1,2 -o %t.112
// RUN: %mpirun -np 2 %t.112 --inputs %summa_src/examples/fixtures/hf_gpt2_lm.inputs.safetensors --expect %summa_src/examples/fixtures/hf_gpt2_lm.sgd.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s --check-prefix=LM
// A batch of 2 on [1, 1, 4]: the depth split does not divide the batch
// where it merges with the sequence, so the tokens lose the split there
// and are redistributed to the uses that want it; against PyTorch's
// autograd step and finite differences.
// RUN: summa-compile %t.lm.mlir --entry=hf_gpt2_lm_grad --grid=1,1,4 -o %t.114
// RUN: %mpirun -np 4 %t.114 --inputs %summa_src/examples/fixtures/hf_gpt2_lm.inputs.safetensors --expect %summa_src/examples/fixtures/hf_gpt2_lm.sgd.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s --check-prefix=LM
// LM: check: PASS
// LM: expect: result0 rel_err=
// LM: expect: model.transformer.wte.weight rel_err=
// LM: expect: PASS

// What the derived step moves on [2,2,1] besides its SUMMA products and
// the all-reduces of partial sums (LayerNorm, softmax and cross-entropy
// statistics, the vocabulary-parallel pick): nothing of the logits, the
// embedding table or its gradient, or any weight. The lookups' partial
// sums are reduce-scattered into the activation's layout; the embedding's
// gradient is scattered from the output gradient of the tokens, gathered
// over row only (B x S x H / q floats); the rest are local slices.
// (The step alone: gradcheck=false leaves out the gradients' function that
// --gradcheck compiles unpartitioned, whose layouts these passes would lay
// out too.)
// RUN: summa-opt %summa_src/examples/fixtures/hf_gpt2_lm.mlir --summa-differentiate="sgd-lr=0.01 params=floats gradcheck=false" -o %t.moves.mlir
// RUN: summa-opt %t.moves.mlir --convert-tm-tensor-to-linalg --summa-normalize --summa-assign-layouts="grid=2,2,1" --summa-partition="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MOVES --implicit-check-not=summa.all_gather
// MOVES: redistribution of 'tensor<1x8x16xf32>' from #summa.layout<@grid, {{\[\[}}depth, row], [], [col]]> to #summa.layout<@grid, {{\[\[}}depth], [], [col]]>: 512 bytes received per rank; summa.all_gather over [row] of dimension 0
