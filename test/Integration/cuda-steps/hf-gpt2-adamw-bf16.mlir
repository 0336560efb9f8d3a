// REQUIRES: cuda-backend
// The AdamW step of hf-gpt2-adamw.mlir derived with precision=bf16
// (adamw-bf16-run.mlir checks it against torch.autocast on the CPU):
// the bf16 operand tensors, the products of bf16 operands into f32 and
// the rounding of their results compile for --target=cuda through ptxas
// (sm_90) and link with libsumma_runtime_cuda.so on [1,1,1] and [2,2,2].
// Launch sites pinned as in gpt-small.mlir (the f32 step's plus the
// roundings and widenings).
// RUN: summa-opt %summa_src/examples/fixtures/hf_gpt2_adamw.mlir --summa-differentiate="optimizer=adamw lr=0.01 beta1=0.9 beta2=0.95 eps=1e-8 weight-decay=0.1 clip-norm=1.0 schedule=cosine warmup=5 decay-steps=20 min-lr=0.001 params=floats gradients=false precision=bf16" -o %t.step.mlir
// RUN: summa-compile %t.step.mlir --entry=hf_gpt2_lm_grad --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -o %t.111
// RUN: llvm-objdump -d --no-show-raw-insn %t.111 | grep -c "call.*<mgpuLaunchKernel@plt>" | FileCheck %s --check-prefix=LAUNCH111
// RUN: summa-compile %t.step.mlir --entry=hf_gpt2_lm_grad --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -o %t.222
// RUN: llvm-objdump -d --no-show-raw-insn %t.222 | grep -c "call.*<mgpuLaunchKernel@plt>" | FileCheck %s --check-prefix=LAUNCH222
// LAUNCH111: {{^}}758{{$}}
// LAUNCH222: {{^}}859{{$}}
