// Gradient accumulation and activation recompute in the step
// summa-differentiate derives from Hugging Face's GPT2LMHeadModel, against
// PyTorch's own loop (examples/export/export_torch.py --accumulate 2
// --ignore-labels 8: twenty AdamW steps, each (loss / 2).backward() on
// micro-batches rows 0, 2 and rows 1, 3 of the batch, then clip_grad_norm_
// and step()). The first sequence ends in 8 ignored labels (padding), so the
// two micro-batches hold different numbers of tokens and the mean of their
// losses is not the loss of the whole batch: the full-batch step disagrees.
//
// The exported function is one micro-batch (2 sequences); the step takes
// the batch of 4.
// RUN: summa-opt %summa_src/examples/fixtures/hf_gpt2_adamw_micro.mlir --summa-differentiate="optimizer=adamw lr=0.01 beta1=0.9 beta2=0.95 eps=1e-8 weight-decay=0.1 clip-norm=1.0 schedule=cosine warmup=5 decay-steps=20 min-lr=0.001 params=floats gradients=false accumulate=2" -o %t.mlir
// RUN: summa-compile %t.mlir --entry=hf_gpt2_lm_grad --grid=1,1,1 -o %t.111
// RUN: %mpirun -np 1 %t.111 --inputs %summa_src/examples/fixtures/hf_gpt2_adamw_padded.inputs.safetensors --steps 20 --log-every 20 --iters 0 --gradcheck --expect %summa_src/examples/fixtures/hf_gpt2_adamw_padded.accumulate2.run.safetensors --tol 1e-4 --tol '*.c_attn.bias=1e-2' | FileCheck %s
// CHECK: step 20/20 loss {{[0-9.]+}} lr 1.098e-03 grad_norm
// CHECK: expect: result0 rel_err=
// CHECK: expect: model.transformer.wte.weight rel_err=
// CHECK: expect: model.transformer.wte.weight.exp_avg_sq rel_err=
// CHECK: expect: PASS
//
// With recompute, on [2,2,2] with the optimizer state split over depth
// (each depth replica's rows of a micro-batch are its own: micro-batch k
// is rows k, k + 2).
// RUN: summa-opt %summa_src/examples/fixtures/hf_gpt2_adamw_micro.mlir --summa-differentiate="optimizer=adamw lr=0.01 beta1=0.9 beta2=0.95 eps=1e-8 weight-decay=0.1 clip-norm=1.0 schedule=cosine warmup=5 decay-steps=20 min-lr=0.001 params=floats gradients=false accumulate=2 recompute=layers" -o %t.r.mlir
// RUN: summa-compile %t.r.mlir --entry=hf_gpt2_lm_grad --grid=2,2,2 --zero -o %t.222
// RUN: %mpirun -np 8 %t.222 --inputs %summa_src/examples/fixtures/hf_gpt2_adamw_padded.inputs.safetensors --steps 20 --iters 0 --gradcheck --expect %summa_src/examples/fixtures/hf_gpt2_adamw_padded.accumulate2.run.safetensors --tol 1e-4 --tol '*.c_attn.bias=1e-2' | FileCheck %s --check-prefix=PASS
// PASS: expect: PASS
//
// The full-batch step on the same batch is another computation:
// RUN: summa-opt %summa_src/examples/fixtures/hf_gpt2_adamw.mlir --summa-differentiate="optimizer=adamw lr=0.01 beta1=0.9 beta2=0.95 eps=1e-8 weight-decay=0.1 clip-norm=1.0 schedule=cosine warmup=5 decay-steps=20 min-lr=0.001 params=floats gradients=false" -o %t.full.mlir
// RUN: summa-compile %t.full.mlir --entry=hf_gpt2_lm_grad --grid=1,1,1 -o %t.full
// RUN: not %mpirun -np 1 %t.full --inputs %summa_src/examples/fixtures/hf_gpt2_adamw_padded.inputs.safetensors --steps 20 --iters 0 --expect %summa_src/examples/fixtures/hf_gpt2_adamw_padded.accumulate2.run.safetensors --tol 1e-4 --tol '*.c_attn.bias=1e-2' | FileCheck %s --check-prefix=FULL
// FULL: expect: result0 rel_err={{.*}} (FAIL)
// FULL: expect: FAIL
//
// Recompute alone changes no result: the full-batch step with
// recompute=layers against PyTorch's full-batch loop, on [2,2,1].
// RUN: summa-opt %summa_src/examples/fixtures/hf_gpt2_adamw.mlir --summa-differentiate="optimizer=adamw lr=0.01 beta1=0.9 beta2=0.95 eps=1e-8 weight-decay=0.1 clip-norm=1.0 schedule=cosine warmup=5 decay-steps=20 min-lr=0.001 params=floats gradients=false recompute=layers" -o %t.rf.mlir
// RUN: summa-compile %t.rf.mlir --entry=hf_gpt2_lm_grad --grid=2,2,1 -o %t.221
// RUN: %mpirun -np 4 %t.221 --inputs %summa_src/examples/fixtures/hf_gpt2_adamw.inputs.safetensors --steps 20 --iters 0 --gradcheck --expect %summa_src/examples/fixtures/hf_gpt2_adamw.run.safetensors --tol 1e-4 --tol '*.c_attn.bias=1e-2' | FileCheck %s --check-prefix=PASS
//
// Attention recompute alone (the scores and probabilities computed again
// in the backward), on [1,1,2]:
// RUN: summa-opt %summa_src/examples/fixtures/hf_gpt2_adamw.mlir --summa-differentiate="optimizer=adamw lr=0.01 beta1=0.9 beta2=0.95 eps=1e-8 weight-decay=0.1 clip-norm=1.0 schedule=cosine warmup=5 decay-steps=20 min-lr=0.001 params=floats gradients=false recompute=attention" -o %t.ra.mlir
// RUN: summa-compile %t.ra.mlir --entry=hf_gpt2_lm_grad --grid=1,1,2 -o %t.112
// RUN: %mpirun -np 2 %t.112 --inputs %summa_src/examples/fixtures/hf_gpt2_adamw.inputs.safetensors --steps 20 --iters 0 --gradcheck --expect %summa_src/examples/fixtures/hf_gpt2_adamw.run.safetensors --tol 1e-4 --tol '*.c_attn.bias=1e-2' | FileCheck %s --check-prefix=PASS
