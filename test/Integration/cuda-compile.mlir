// REQUIRES: cuda-backend
// Every example compiles for --target=cuda and links with
// libsumma_runtime_cuda.so: kernels through NVVM, ptxas and fatbinary into
// one fat binary each, embedded in the host code. Running them needs a GPU
// (cuda-run.mlir); without one the binary says so and fails cleanly.
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=2,2,1 --target=cuda -o %t.mlp
// RUN: %mpirun -np 1 %t.mlp --help | FileCheck %s --check-prefix=HELP
// RUN: summa-compile %summa_src/examples/mlp_erf.mlir --grid=1,1,2 --target=cuda -o %t.erf
// RUN: summa-compile %summa_src/examples/attention.mlir --grid=2,2,2 --target=cuda -o %t.att
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=2,2,1 --target=cuda --cuda-chip=sm_90 -o %t.layer
// Exports with redistributions, reshapes folded by summa-normalize and f64 LayerNorm statistics (torch-mlir).
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block.mlir --grid=2,2,1 --target=cuda --cuda-chip=sm_90 -o %t.nanogpt
// Constants an exporter inlined (Llama's rotary tables, every weight of a
// _const export) are copied from their host globals into device buffers.
// RUN: summa-compile %summa_src/examples/fixtures/llama_layer.mlir --grid=1,1,1 --target=cuda -o %t.llama
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block_const.mlir --grid=2,2,1 --target=cuda --emit=llvm -o %t.const.ll
// RUN: FileCheck %s --check-prefix=CONST < %t.const.ll
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=2,2,2 --target=cuda --overlap -o %t.layer.overlap
// RUN: summa-compile %summa_src/examples/gpt.mlir --grid=1,1,4 --target=cuda -o %t.gpt
// RUN: summa-compile %summa_src/examples/gpt_loss.mlir --grid=2,2,1 --target=cuda -o %t.gpt_loss
// RUN: summa-compile %summa_src/examples/mlp_loss.mlir --grid=2,2,2 --target=cuda -o %t.mlp_loss
// RUN: summa-compile %summa_src/examples/mlp_train_step.mlir --grid=2,2,2 --target=cuda -o %t.sgd
// RUN: summa-compile %summa_src/examples/mlp_train_adam.mlir --grid=2,2,1 --target=cuda -o %t.adam
// RUN: summa-compile %summa_src/examples/gpt_train_step.mlir --grid=2,2,1 --target=cuda -o %t.gpt_train
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_block_jax.mlir --grid=2,2,2 --target=cuda -o %t.jax
// 16-bit floats run on the GPU driver (the CPU driver refuses them).
// RUN: %python %summa_src/examples/generate.py layer --dtype bf16 -o %t.bf16.mlir
// RUN: summa-compile %t.bf16.mlir --grid=2,2,1 --target=cuda -o %t.bf16
// RUN: %python %summa_src/examples/generate.py layer --dtype f16 -o %t.f16.mlir
// RUN: summa-compile %t.f16.mlir --grid=2,2,1 --target=cuda -o %t.f16
// On one rank the rows are whole and become block reductions: 16-bit rows
// accumulate in f32, the width of a warp shuffle.
// RUN: summa-compile %t.bf16.mlir --grid=1,1,1 --target=cuda -o %t.bf16.one
// RUN: summa-compile %t.f16.mlir --grid=1,1,1 --target=cuda -o %t.f16.one
// RUN: not summa-compile %t.bf16.mlir --grid=2,2,1 -o %t.bf16.cpu 2>&1 | FileCheck %s --check-prefix=CPU16
// Integer inputs (token ids) run on the GPU driver too; an i8 one on neither.
// RUN: summa-compile %summa_src/examples/fixtures/gpt_lm_train_step_jax.mlir --grid=1,1,1 --target=cuda -o %t.lm
// RUN: sed -e 's/i32/i8/g' %summa_src/examples/fixtures/gpt_lm_train_step_jax.mlir > %t.i8.mlir
// RUN: not summa-compile %t.i8.mlir --grid=1,1,1 --target=cuda -o %t.i8 2>&1 | FileCheck %s --check-prefix=GPUI8

// --check's reference is host code in f64, independent of the kernels: the
// bf16 layer's reference functions compute in doubles, launch nothing and
// call no runtime function (loops and libm only).
// RUN: summa-compile %t.bf16.mlir --grid=2,2,1 --target=cuda --emit=llvm -o %t.bf16.ll
// RUN: sed -n '/^define[^@]*@gpt_layer__ref/,/^}/p' %t.bf16.ll > %t.bf16.ref.ll
// RUN: FileCheck %s --check-prefix=REF < %t.bf16.ref.ll
// RUN: FileCheck %s --check-prefix=REFCALLS < %t.bf16.ref.ll
// REF: define void @gpt_layer__ref(ptr
// REF: fmul double
// REFCALLS-NOT: @mgpu
// REFCALLS-NOT: @summaRt
// REFCALLS-NOT: bfloat
// A planted kernel bug compiles for the GPU too (cuda-run.mlir runs it).
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=2,2,1 --target=cuda --test-plant-kernel-bug -o %t.mlp.bug

// HELP: Runs the summa program 'mlp', compiled for the grid [2,2,1], on GPUs
// HELP: (libsumma_runtime_cuda.so)

// CPU16: error: arg0 has element type 'bf16'; the CPU driver runs f32, f64, i64 and i32 (f16 and bf16 need --target=cuda)
// GPUI8: error: arg0 has element type 'i8'; the GPU driver runs f32, f64, f16, bf16, i64 and i32

// Without a visible device: one clear line per rank, non-zero exit, no hang.
// RUN: env CUDA_VISIBLE_DEVICES= not %mpirun -np 4 %t.layer --check 2>&1 | FileCheck %s --check-prefix=NODEV
// NODEV: summaRtInit: no CUDA device is visible to this rank

// Option errors.
// RUN: not summa-compile %summa_src/examples/mlp.mlir --grid=1,1,1 --target=cuda --cuda-chip=90 -o %t.bad 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: summa-compile: error: --cuda-chip must name an architecture such as sm_80 or sm_90, got '90'
// RUN: not summa-compile %summa_src/examples/mlp.mlir --grid=1,1,1 --target=cuda --gpu-block-size=2000 -o %t.bad 2>&1 | FileCheck %s --check-prefix=BLOCK
// BLOCK: summa-compile: error: --gpu-block-size must be in [1, 1024]
// A toolkit is needed only where there are kernels to build: the GPT layer
// (LayerNorm, softmax), not the MLP on [1,1,1], whose two GEMMs take all of
// their epilogues (bias + GeLU, bias + residual) into cuBLASLt.
// RUN: not summa-compile %summa_src/examples/gpt_layer.mlir --grid=1,1,1 --target=cuda --cuda-toolkit=%t.nowhere -o %t.bad 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// TOOLKIT: error

// CONST-LABEL: define {{.*}}@nanogpt_block__spmd(
// CONST: call ptr @_mlir_memref_to_llvm_alloc
// CONST: call void @mgpuMemcpy(ptr %{{.*}}, ptr @__constant_
