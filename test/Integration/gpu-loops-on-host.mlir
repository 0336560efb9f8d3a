// The loop nests that --target=cuda turns into kernels, run on the CPU:
// summa-compile --gpu-loops-on-host builds every local op exactly as for a
// GPU (copies as structured ops, serial reductions in one-iteration loops,
// long row reductions as a block's threads striding over the row, every
// other parallel loop collapsed to one dimension, tiled by the block size
// with a guard for the partial last block) and then lowers those loops on
// the host for the CPU runtime, so that --check tests summa's part of the
// GPU lowering without a GPU. --check's reference is lowered without those
// loop forms (the plain CPU pipeline: linalg to loops), so a bug in them
// cannot hide on both sides: --test-plant-kernel-bug miscompiles the last
// kernel loop nest (its stores write value + 1) and --check fails. Block
// sizes 7 and 100 divide none of the iteration spaces, so every partial
// block is exercised.
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=2,2,1 --gpu-loops-on-host --test-plant-kernel-bug -o %t.bug
// RUN: not %mpirun -np 4 %t.bug --check | FileCheck %s --check-prefix=BUG
// BUG: check: FAIL output
// RUN: not summa-compile %summa_src/examples/mlp.mlir --grid=2,2,1 --test-plant-kernel-bug -o %t.bug2 2>&1 | FileCheck %s --check-prefix=BUGOPT
// BUGOPT: --test-plant-kernel-bug needs --gpu-loops-on-host or --target=cuda
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=2,2,1 --gpu-loops-on-host --gpu-block-size=7 -o %t.mlp
// RUN: %mpirun -np 4 %t.mlp --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp_erf.mlir --grid=1,1,2 --gpu-loops-on-host -o %t.erf
// RUN: %mpirun -np 2 %t.erf --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/attention.mlir --grid=2,2,2 --gpu-loops-on-host --gpu-block-size=7 -o %t.att
// RUN: %mpirun -np 8 %t.att --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=2,2,1 --gpu-loops-on-host --gpu-block-size=100 -o %t.layer
// RUN: %mpirun -np 4 %t.layer --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=2,2,2 --gpu-loops-on-host --overlap --gpu-block-size=7 -o %t.layer.overlap
// RUN: %mpirun -np 8 %t.layer.overlap --check | FileCheck %s
// An export's inlined constants (host globals) read where they are.
// RUN: summa-compile %summa_src/examples/fixtures/llama_layer.mlir --grid=2,2,1 --gpu-loops-on-host -o %t.llama
// RUN: %mpirun -np 4 %t.llama --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt.mlir --grid=1,1,4 --gpu-loops-on-host -o %t.gpt
// RUN: %mpirun -np 4 %t.gpt --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt_loss.mlir --grid=2,2,1 --gpu-loops-on-host --gpu-block-size=7 -o %t.gpt_loss
// RUN: %mpirun -np 4 %t.gpt_loss --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp_loss.mlir --grid=2,2,2 --gpu-loops-on-host -o %t.mlp_loss
// RUN: %mpirun -np 8 %t.mlp_loss --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp_train_step.mlir --grid=2,2,2 --gpu-loops-on-host --gpu-block-size=7 -o %t.sgd
// RUN: %mpirun -np 8 %t.sgd --check --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp_train_adam.mlir --grid=2,2,1 --gpu-loops-on-host -o %t.adam
// RUN: %mpirun -np 4 %t.adam --check --steps 3 | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt_train_step.mlir --grid=2,2,1 --gpu-loops-on-host --gpu-block-size=100 -o %t.gpt_train
// RUN: %mpirun -np 4 %t.gpt_train --check --steps 2 | FileCheck %s
// Rows long enough for block reductions (summa-block-reductions: LayerNorm
// and softmax rows, the loss; 64 columns and 64 keys per rank): each thread
// of a block strides over a row, the block combines.
// RUN: %python %summa_src/examples/generate.py layer --batch 2 --seq 64 --hidden 128 --heads 2 --ffn 256 -o %t.wide.mlir
// RUN: summa-compile %t.wide.mlir --grid=2,2,1 --gpu-loops-on-host --gpu-block-size=100 -o %t.wide
// RUN: %mpirun -np 4 %t.wide --check | FileCheck %s
// RUN: %python %summa_src/examples/generate.py gpt_train --layers 1 --batch 4 --seq 64 --hidden 128 --heads 2 --ffn 256 -o %t.wide_train.mlir
// RUN: summa-compile %t.wide_train.mlir --grid=2,2,2 --gpu-loops-on-host --gpu-block-size=7 -o %t.wide_train
// RUN: %mpirun -np 8 %t.wide_train --check --steps 2 | FileCheck %s
// On one rank the loss reduces 32768 elements: a two-level tree of blocks.
// RUN: summa-compile %t.wide_train.mlir --grid=1,1,1 --gpu-loops-on-host --gpu-block-size=100 -o %t.wide_train1
// RUN: %mpirun -np 1 %t.wide_train1 --check --steps 2 | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_block_jax.mlir --grid=2,2,2 --gpu-loops-on-host --gpu-block-size=7 -o %t.jax
// RUN: %mpirun -np 8 %t.jax --check | FileCheck %s

// CHECK: check: PASS max_rel_err={{[0-9.e+-]+}}

// Real exports: Hugging Face's GPT2Block (torch-mlir) and the JAX training
// step, with their redistributions and summa-normalize's generics.
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_block.mlir --grid=2,2,1 --gpu-loops-on-host -o %t.hf
// RUN: %mpirun -np 4 %t.hf --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_train_step_jax.mlir --grid=2,2,1 --gpu-loops-on-host -o %t.ts
// RUN: %mpirun -np 4 %t.ts --check --steps 2 | FileCheck %s

// Option errors.
// RUN: not summa-compile %summa_src/examples/mlp.mlir --grid=1,1,1 --gpu-loops-on-host --gpu-block-size=0 -o %t.bad 2>&1 | FileCheck %s --check-prefix=BLOCK
// BLOCK: summa-compile: error: --gpu-block-size must be in [1, 1024]
