// REQUIRES: cuda-backend
// The AdamW step summa-differentiate derives from Hugging Face's
// GPT2LMHeadModel (examples/fixtures/hf_gpt2_adamw.mlir, GeLU's erf form),
// with the options adamw-run.mlir checks against PyTorch's own loop on the
// CPU (decoupled weight decay, clip_grad_norm_, warmup and cosine decay),
// compiles for --target=cuda through ptxas (sm_90) and links with
// libsumma_runtime_cuda.so on [1,1,1] and [2,2,2]: the optimizer's
// elementwise updates, the global gradient norm (a reduction per parameter
// and its all-reduce), the schedule on the i64 step counter and the
// zero-initialised moments are kernels or runtime calls like the rest of
// the step. Launch sites pinned as in gpt-small.mlir.
// RUN: summa-opt %summa_src/examples/fixtures/hf_gpt2_adamw.mlir --summa-differentiate="optimizer=adamw lr=0.01 beta1=0.9 beta2=0.95 eps=1e-8 weight-decay=0.1 clip-norm=1.0 schedule=cosine warmup=5 decay-steps=20 min-lr=0.001 params=floats gradients=false" -o %t.step.mlir
// RUN: summa-compile %t.step.mlir --entry=hf_gpt2_lm_grad --grid=1,1,1 --target=cuda --cuda-chip=sm_90 -o %t.111
// RUN: llvm-objdump -d --no-show-raw-insn %t.111 | grep -c "call.*<mgpuLaunchKernel@plt>" | FileCheck %s --check-prefix=LAUNCH111
// RUN: summa-compile %t.step.mlir --entry=hf_gpt2_lm_grad --grid=2,2,2 --target=cuda --cuda-chip=sm_90 -o %t.222
// RUN: llvm-objdump -d --no-show-raw-insn %t.222 | grep -c "call.*<mgpuLaunchKernel@plt>" | FileCheck %s --check-prefix=LAUNCH222
// LAUNCH111: {{^}}628{{$}}
// LAUNCH222: {{^}}739{{$}}
