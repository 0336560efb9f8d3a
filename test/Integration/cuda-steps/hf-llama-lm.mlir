// REQUIRES: cuda-backend
// Hugging Face's LlamaForCausalLM with labels (examples/fixtures/hf_llama_lm.mlir).
// The training step summa-differentiate derives from it (SGD, every float
// argument a parameter) compiles for --target=cuda through ptxas (sm_90) and
// links with libsumma_runtime_cuda.so on [1,1,1] and [2,2,2]: every loop
// nest of the step (the cross-entropy pick and its adjoint, the embedding
// gathers and their scatter-add adjoints, index arithmetic) is a kernel or a
// runtime call, none is left on the host ([2,2,1] and [1,1,2]
// compile too; they are left out here for CI time: each grid of a step is
// about a minute of ptxas on a 2-core machine).
//
// The kernel launch sites of the step's host code are pinned (counted in
// the linked binary's calls of mgpuLaunchKernel, one per gpu.launch_func;
// the --check reference and --gradcheck's functions launch nothing, and the
// forward the step was derived from is not compiled into it), so that a
// change that multiplies them shows; a change that moves them on purpose
// updates the numbers.
// RUN: summa-opt %summa_src/examples/fixtures/hf_llama_lm.mlir --summa-differentiate="sgd-lr=0.01 params=floats" -o %t.step.mlir
// RUN: summa-compile %t.step.mlir --entry=hf_llama_lm_grad --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -o %t.111
// RUN: llvm-objdump -d --no-show-raw-insn %t.111 | grep -c "call.*<mgpuLaunchKernel@plt>" | FileCheck %s --check-prefix=LAUNCH111
// RUN: summa-compile %t.step.mlir --entry=hf_llama_lm_grad --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -o %t.222
// RUN: llvm-objdump -d --no-show-raw-insn %t.222 | grep -c "call.*<mgpuLaunchKernel@plt>" | FileCheck %s --check-prefix=LAUNCH222
// LAUNCH111: {{^}}456{{$}}
// LAUNCH222: {{^}}629{{$}}
