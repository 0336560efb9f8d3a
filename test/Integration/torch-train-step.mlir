// A training step derived by summa-differentiate from a PyTorch export
// (torch-mlir's nanoGPT with its loss, examples/fixtures/gpt_small.mlir:
// embeddings and the cross-entropy's pick are gathers, GELU has x**3, the
// fused QKV projection is sliced, LayerNorm's variance is computed in f64)
// agrees with PyTorch's autograd: the loss, the gradient of every float
// argument (result1..result31, in argument order) and every argument after
// one SGD step of 0.01, on the example arguments
// (gpt_small.sgd.safetensors: torch.autograd.grad of the same module).
// torch-mlir writes GELU-tanh with 0.797724 for sqrt(2/pi), which moves the
// gradients by up to ~7e-5: --tol 1e-4.
// RUN: summa-opt %summa_src/examples/fixtures/gpt_small.mlir --summa-differentiate="sgd-lr=0.01 params=floats" -o %t.mlir
// RUN: summa-compile %t.mlir --entry=gpt_small_grad --grid=1,1,1 -o %t.111
// RUN: %mpirun -np 1 %t.111 --inputs %summa_src/examples/fixtures/gpt_small.inputs.safetensors --expect %summa_src/examples/fixtures/gpt_small.sgd.safetensors --tol 1e-4 --check --iters 0 --gradcheck | FileCheck %s
// Partitioned (the cross-entropy's i1 mask is gathered as i32):
// RUN: summa-compile %t.mlir --entry=gpt_small_grad --grid=2,2,2 -o %t.222
// RUN: %mpirun -np 8 %t.222 --inputs %summa_src/examples/fixtures/gpt_small.inputs.safetensors --expect %summa_src/examples/fixtures/gpt_small.sgd.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s
// CHECK: check: PASS
// CHECK: expect: result0 rel_err=
// CHECK: expect: result1 rel_err=
// CHECK: expect: lm_head.weight rel_err=
// CHECK: expect: PASS

// Hugging Face's LlamaForCausalLM with labels (its shifted cross-entropy;
// rotary embedding through tensor.concat, RMSNorm with x**2, SwiGLU,
// grouped-query attention, the causal mask's tm_tensor.scan), the same way
// (examples/fixtures/hf_llama_lm.sgd.safetensors).
// RUN: summa-opt %summa_src/examples/fixtures/hf_llama_lm.mlir --summa-differentiate="sgd-lr=0.01 params=floats" -o %t.lm.mlir
// RUN: summa-compile %t.lm.mlir --entry=hf_llama_lm_grad --grid=2,2,2 -o %t.lm
// RUN: %mpirun -np 8 %t.lm --inputs %summa_src/examples/fixtures/hf_llama_lm.inputs.safetensors --expect %summa_src/examples/fixtures/hf_llama_lm.sgd.safetensors --check --iters 0 --gradcheck | FileCheck %s --check-prefix=LM
// LM: check: PASS
// LM: expect: result0 rel_err=
// LM: expect: model.lm_head.weight rel_err=
// LM: expect: PASS
