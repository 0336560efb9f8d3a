// Mixture-of-experts families as users call them, against PyTorch's own
// outputs: Mixtral and Qwen2-MoE (tiny random configs, transformers'
// batched_mm experts; Qwen2-MoE adds a shared expert and its sigmoid gate),
// exported by examples/export/try_hf_models.py --save with the weights as
// constants: the model's last hidden state (Model(input_ids)) and the
// causal-LM loss (ForCausalLM(input_ids, labels).loss). The router's
// torch.topk is torch-mlir's tm_tensor.sort. --expect compares with
// PyTorch's result (1e-4), --check with the unpartitioned program, on
// [1,1,1], [2,2,1] and [2,2,2].
// RUN: summa-compile %summa_src/examples/fixtures/hf_mixtral.mlir --grid=1,1,1 -O0 -o %t.m111
// RUN: %mpirun -np 1 %t.m111 --inputs %summa_src/examples/fixtures/hf_mixtral.inputs.safetensors --expect %summa_src/examples/fixtures/hf_mixtral.torch.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/hf_mixtral.mlir --grid=2,2,1 -O0 -o %t.m221
// RUN: %mpirun -np 4 %t.m221 --inputs %summa_src/examples/fixtures/hf_mixtral.inputs.safetensors --expect %summa_src/examples/fixtures/hf_mixtral.torch.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/hf_mixtral.mlir --grid=2,2,2 -O0 -o %t.m222
// RUN: %mpirun -np 8 %t.m222 --inputs %summa_src/examples/fixtures/hf_mixtral.inputs.safetensors --expect %summa_src/examples/fixtures/hf_mixtral.torch.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/hf_mixtral_lm.mlir --grid=1,1,1 -O0 -o %t.ml111
// RUN: %mpirun -np 1 %t.ml111 --inputs %summa_src/examples/fixtures/hf_mixtral_lm.inputs.safetensors --expect %summa_src/examples/fixtures/hf_mixtral_lm.torch.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/hf_mixtral_lm.mlir --grid=2,2,1 -O0 -o %t.ml221
// RUN: %mpirun -np 4 %t.ml221 --inputs %summa_src/examples/fixtures/hf_mixtral_lm.inputs.safetensors --expect %summa_src/examples/fixtures/hf_mixtral_lm.torch.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/hf_mixtral_lm.mlir --grid=2,2,2 -O0 -o %t.ml222
// RUN: %mpirun -np 8 %t.ml222 --inputs %summa_src/examples/fixtures/hf_mixtral_lm.inputs.safetensors --expect %summa_src/examples/fixtures/hf_mixtral_lm.torch.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/hf_qwen2_moe.mlir --grid=1,1,1 -O0 -o %t.q111
// RUN: %mpirun -np 1 %t.q111 --inputs %summa_src/examples/fixtures/hf_qwen2_moe.inputs.safetensors --expect %summa_src/examples/fixtures/hf_qwen2_moe.torch.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/hf_qwen2_moe.mlir --grid=2,2,1 -O0 -o %t.q221
// RUN: %mpirun -np 4 %t.q221 --inputs %summa_src/examples/fixtures/hf_qwen2_moe.inputs.safetensors --expect %summa_src/examples/fixtures/hf_qwen2_moe.torch.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/hf_qwen2_moe.mlir --grid=2,2,2 -O0 -o %t.q222
// RUN: %mpirun -np 8 %t.q222 --inputs %summa_src/examples/fixtures/hf_qwen2_moe.inputs.safetensors --expect %summa_src/examples/fixtures/hf_qwen2_moe.torch.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/hf_qwen2_moe_lm.mlir --grid=1,1,1 -O0 -o %t.ql111
// RUN: %mpirun -np 1 %t.ql111 --inputs %summa_src/examples/fixtures/hf_qwen2_moe_lm.inputs.safetensors --expect %summa_src/examples/fixtures/hf_qwen2_moe_lm.torch.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/hf_qwen2_moe_lm.mlir --grid=2,2,1 -O0 -o %t.ql221
// RUN: %mpirun -np 4 %t.ql221 --inputs %summa_src/examples/fixtures/hf_qwen2_moe_lm.inputs.safetensors --expect %summa_src/examples/fixtures/hf_qwen2_moe_lm.torch.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/hf_qwen2_moe_lm.mlir --grid=2,2,2 -O0 -o %t.ql222
// RUN: %mpirun -np 8 %t.ql222 --inputs %summa_src/examples/fixtures/hf_qwen2_moe_lm.inputs.safetensors --expect %summa_src/examples/fixtures/hf_qwen2_moe_lm.torch.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s
// CHECK: check: PASS
// CHECK: expect: PASS
