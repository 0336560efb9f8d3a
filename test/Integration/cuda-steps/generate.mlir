// REQUIRES: cuda-backend
// The generators of Hugging Face's GPT2LMHeadModel and LlamaForCausalLM
// (Inputs/generate/*.mlir, their forwards for logits) compile for
// --target=cuda through ptxas and link with libsumma_runtime_cuda.so: the
// prefill and the decode step, whose position (a device buffer) the host
// reads through summaRtLoadScalar to place its cache writes and mask rows
// (convert-scalar-loads-to-runtime), every cache in device memory. The same
// host code runs on the CPU runtime with --gpu-loops-on-host
// (generate-binary.mlir).
// RUN: summa-compile %S/../Inputs/generate/gpt2.mlir --generate --prompt-length=4 --grid=2,2,1 --target=cuda --cuda-chip=sm_90 -o %t.gpt2
// RUN: %mpirun -np 1 %t.gpt2 --help | FileCheck %s
// RUN: summa-compile %S/../Inputs/generate/llama.mlir --generate --prompt-length=4 --grid=2,2,2 --target=cuda -o %t.llama
// The decode step alone, as summa-derive-generation writes it (greedy token
// and generated ids in the step).
// RUN: summa-opt %S/../Inputs/generate/llama.mlir --summa-derive-generation=prompt=4 -o %t.llama.mlir
// RUN: summa-compile %t.llama.mlir --entry=hf_llama_logits_decode --grid=2,2,2 --target=cuda -o %t.llama.decode
// CHECK: Generates text with 'hf_gpt2_logits_decode' (prefill 'hf_gpt2_logits_prefill'), compiled for the grid [2,2,1]
