// The training steps summa-differentiate derives from two more Hugging Face
// families agree with PyTorch's autograd on the 2.5D grid: GPT-J (rotary on
// interleaved pairs, strided slices) and Mixtral (a mixture of experts with
// transformers' batched_mm experts: the router's top-k is a tm_tensor.sort,
// lowered to linalg before the derivative is taken). Both exported by
// examples/export/try_hf_models.py --train --save (tiny configs, random
// weights, ForCausalLM(input_ids, labels).loss with the weights as
// arguments); the reference is PyTorch's own SGD step (lr 0.1) on the same
// batch: the loss and every updated weight. --check runs the unpartitioned
// step too.
// RUN: summa-opt %summa_src/examples/fixtures/hf_gptj_train.mlir --summa-differentiate="sgd-lr=0.1 params=floats gradients=false" -o %t.gptj.mlir
// RUN: summa-compile %t.gptj.mlir --entry=gptj_grad --grid=2,2,2 -O0 -o %t.gptj
// RUN: %mpirun -np 8 %t.gptj --inputs %summa_src/examples/fixtures/hf_gptj_train.inputs.safetensors --expect %summa_src/examples/fixtures/hf_gptj_train.torch.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s
// RUN: summa-opt %summa_src/examples/fixtures/hf_mixtral_train.mlir --summa-differentiate="sgd-lr=0.1 params=floats gradients=false" -o %t.mixtral.mlir
// RUN: summa-compile %t.mixtral.mlir --entry=mixtral_grad --grid=2,2,2 -O0 -o %t.mixtral
// RUN: %mpirun -np 8 %t.mixtral --inputs %summa_src/examples/fixtures/hf_mixtral_train.inputs.safetensors --expect %summa_src/examples/fixtures/hf_mixtral_train.torch.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s --check-prefixes=CHECK,MOE
// CHECK: check: PASS
// CHECK: expect: result0 rel_err=
// MOE: expect: model.model.layers.0.mlp.gate.weight rel_err=
// CHECK: expect: PASS
