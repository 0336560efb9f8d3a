// REQUIRES: cuda-backend
// The training steps summa-differentiate derives from the hand-written
// losses of examples/ (mlp_loss.mlir, gpt_loss.mlir: the steps that
// differentiate-grids.mlir checks on the CPU against the hand-written
// mlp_train_step.mlir and gpt_train_step.mlir, which cuda-compile.mlir
// compiles for the GPU as they are) compile for --target=cuda through ptxas
// (sm_90) on [1,1,1] and [2,2,2], their kernel launch sites pinned as in
// gpt-small.mlir.
// RUN: summa-opt %summa_src/examples/mlp_loss.mlir --summa-differentiate="sgd-lr=0.01" -o %t.mlp.mlir
// RUN: summa-compile %t.mlp.mlir --entry=mlp_loss_grad --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -o %t.mlp.111
// RUN: llvm-objdump -d --no-show-raw-insn %t.mlp.111 | grep -c "call.*<mgpuLaunchKernel@plt>" | FileCheck %s --check-prefix=MLP111
// RUN: summa-compile %t.mlp.mlir --entry=mlp_loss_grad --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -o %t.mlp.222
// RUN: llvm-objdump -d --no-show-raw-insn %t.mlp.222 | grep -c "call.*<mgpuLaunchKernel@plt>" | FileCheck %s --check-prefix=MLP222
// RUN: summa-opt %summa_src/examples/gpt_loss.mlir --summa-differentiate="sgd-lr=0.01" -o %t.gpt.mlir
// RUN: summa-compile %t.gpt.mlir --entry=gpt_loss_grad --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -o %t.gpt.111
// RUN: llvm-objdump -d --no-show-raw-insn %t.gpt.111 | grep -c "call.*<mgpuLaunchKernel@plt>" | FileCheck %s --check-prefix=GPT111
// RUN: summa-compile %t.gpt.mlir --entry=gpt_loss_grad --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -o %t.gpt.222
// RUN: llvm-objdump -d --no-show-raw-insn %t.gpt.222 | grep -c "call.*<mgpuLaunchKernel@plt>" | FileCheck %s --check-prefix=GPT222
// MLP111: {{^}}20{{$}}
// MLP222: {{^}}43{{$}}
// GPT111: {{^}}291{{$}}
// GPT222: {{^}}463{{$}}
