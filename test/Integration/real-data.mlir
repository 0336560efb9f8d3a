// Real data in and out: the exported models run on the weights and inputs
// PyTorch used (--inputs, a safetensors file the exporter wrote with
// --save-inputs; each rank reads only its tiles) and their outputs are
// compared with PyTorch's (--expect, written with --save-outputs), as well
// as with the unpartitioned function (--check).
//
// nanoGPT's GELU(approximate="tanh") is exported by torch-mlir with the
// constant 0.797724 for sqrt(2/pi) = 0.7978846: the IR itself differs from
// PyTorch by ~1.3e-5 (export_torch.py's own run of the IR sees it too), so
// its --expect tolerance is 1e-4.
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block.mlir --grid=2,2,1 -o %t.nb
// RUN: %mpirun -np 4 %t.nb --inputs %summa_src/examples/fixtures/nanogpt_block.inputs.safetensors --expect %summa_src/examples/fixtures/nanogpt_block.torch.safetensors --tol 1e-4 --check --iters 0 | FileCheck %s --check-prefixes=CHECK,EXPECT
// RUN: summa-compile %summa_src/examples/fixtures/hf_gpt2_block.mlir --grid=2,2,2 -o %t.hf
// RUN: %mpirun -np 8 %t.hf --inputs %summa_src/examples/fixtures/hf_gpt2_block.inputs.safetensors --expect %summa_src/examples/fixtures/hf_gpt2_block.torch.safetensors --check --iters 0 | FileCheck %s --check-prefixes=CHECK,EXPECT
// RUN: summa-compile %summa_src/examples/fixtures/llama_layer.mlir --grid=1,1,2 -o %t.ll
// RUN: %mpirun -np 2 %t.ll --inputs %summa_src/examples/fixtures/llama_layer.inputs.safetensors --expect %summa_src/examples/fixtures/llama_layer.torch.safetensors --check --iters 0 | FileCheck %s --check-prefixes=CHECK,EXPECT
// The whole small GPT: its token ids and targets are i64 tensors of the file.
// RUN: summa-compile %summa_src/examples/fixtures/gpt_small.mlir --grid=2,2,1 -o %t.gs
// RUN: %mpirun -np 4 %t.gs --inputs %summa_src/examples/fixtures/gpt_small.inputs.safetensors --expect %summa_src/examples/fixtures/gpt_small.torch.safetensors --check --iters 0 | FileCheck %s --check-prefixes=CHECK,EXPECT
// Hugging Face's LlamaModel as a user calls it (token ids in, the last hidden
// state out): its causal mask goes through torch.cumsum, which torch-mlir
// writes as tm_tensor.scan, and its attention is transformers' default
// scaled_dot_product_attention, which torch-mlir decomposes. Its batch of 2
// is smaller than depth x row = 4 on [2,2,2]: the tokens' split spreads over
// the batch (depth) and the sequence (row).
// RUN: summa-compile %summa_src/examples/fixtures/hf_llama_model.mlir --grid=2,2,2 -o %t.lm
// RUN: %mpirun -np 8 %t.lm --inputs %summa_src/examples/fixtures/hf_llama_model.inputs.safetensors --expect %summa_src/examples/fixtures/hf_llama_model.torch.safetensors --check --iters 0 | FileCheck %s --check-prefixes=CHECK,EXPECT
// RUN: summa-compile %summa_src/examples/fixtures/hf_llama_model.mlir --grid=1,1,1 -o %t.lm1
// RUN: %mpirun -np 1 %t.lm1 --inputs %summa_src/examples/fixtures/hf_llama_model.inputs.safetensors --expect %summa_src/examples/fixtures/hf_llama_model.torch.safetensors --check --iters 0 | FileCheck %s --check-prefixes=CHECK,EXPECT
// CHECK: check: PASS
// EXPECT: expect: result0 rel_err=
// EXPECT: expect: PASS

// A directory of .npy files named after the arguments reads the same.
// RUN: rm -rf %t.npy && %python %S/Inputs/safetensors_to_npy.py %summa_src/examples/fixtures/nanogpt_block.inputs.safetensors %t.npy
// RUN: %mpirun -np 4 %t.nb --inputs %t.npy --expect %summa_src/examples/fixtures/nanogpt_block.torch.safetensors --tol 1e-4 --iters 0 | FileCheck %s --check-prefix=EXPECT

// The model's own outputs name their results: written with --outputs and
// read back with --expect they agree exactly.
// RUN: %mpirun -np 4 %t.nb --inputs %t.npy --outputs %t.nb.out --iters 0
// RUN: %mpirun -np 4 %t.nb --inputs %t.npy --expect %t.nb.out --tol 0 --atol 0 --iters 0 | FileCheck %s --check-prefix=SELF
// SELF: expect: result0 rel_err=0.000e+00 max_abs_err=0.000e+00
// SELF: expect: PASS

// A training step stops and resumes bit-identically: 4 steps in one run
// write the same file as 2 steps, a checkpoint, and 2 more steps from it.
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_train_step_jax.mlir --grid=2,2,1 -o %t.ts
// RUN: %mpirun -np 4 %t.ts --steps 4 --outputs %t.four --iters 0
// RUN: rm -rf %t.ckpt && %mpirun -np 4 %t.ts --steps 2 --checkpoint %t.ckpt --save-every 2 --iters 0 | FileCheck %s --check-prefix=CKPT
// RUN: %mpirun -np 4 %t.ts --inputs %t.ckpt/step2 --steps 2 --outputs %t.resumed --iters 0
// RUN: diff -r %t.four %t.resumed
// CKPT: checkpoint: step 2 written to {{.*}}step2{{$}}
// The checkpoint holds every input of the next step, updated weights
// included, under the function's argument names.
// RUN: %mpirun -np 4 %t.ts --inputs %t.ckpt/step2 --steps 2 --check --exact-replicas --iters 0 | FileCheck %s

// A checkpoint holds boxes of the whole tensors (each rank writes its own):
// written on [2,2,1], it resumes on [1,1,1] and on [2,2,2] to the same
// result as the run that never stopped.
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_train_step_jax.mlir --grid=1,1,1 -O0 -o %t.ts1
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_train_step_jax.mlir --grid=2,2,2 -O0 -o %t.ts8
// RUN: %mpirun -np 1 %t.ts1 --inputs %t.ckpt/step2 --steps 2 --expect %t.four --iters 0 | FileCheck %s --check-prefix=ROUND
// RUN: %mpirun -np 8 %t.ts8 --inputs %t.ckpt/step2 --steps 2 --expect %t.four --iters 0 | FileCheck %s --check-prefix=ROUND
// ROUND: expect: PASS

// Each rank reads only the bytes of its tiles (the profile's io counter):
// a quarter of the block's weights and input on each rank of [2,2,1], plus
// the vectors every rank holds whole (the file has 56224 bytes).
// RUN: rm -f %t.prof.*.json && env SUMMA_PROFILE=%t.prof.%%r.json %mpirun -np 4 %t.nb --inputs %summa_src/examples/fixtures/nanogpt_block.inputs.safetensors --iters 0
// RUN: %python %S/Inputs/read_bytes.py %t.prof.%%r.json 4 | FileCheck %s --check-prefix=IO
// IO-COUNT-4: rank {{[0-3]}} read_bytes 14400{{$}}
// IO: total read_bytes 57600{{$}}

// Bad files: each a clear error naming the file and the tensor.
// RUN: printf 'not a tensor file' > %t.bad
// RUN: not %mpirun -np 4 %t.nb --inputs %t.bad 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: --inputs: '{{.*}}.bad' is not a valid safetensors file: its header length ({{[0-9]+}} bytes) runs past the end of the file (17 bytes)
// RUN: not %mpirun -np 4 %t.nb --inputs %t.missing-file 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: --inputs: cannot open '{{.*}}missing-file': No such file or directory
// A tensor of another element type, and a truncated file.
// RUN: %python %S/Inputs/retype_safetensors.py %summa_src/examples/fixtures/nanogpt_block.inputs.safetensors %t.retyped attn.c_attn.weight I32
// RUN: not %mpirun -np 4 %t.nb --inputs %t.retyped 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: --inputs '{{.*}}.retyped': tensor 'attn.c_attn.weight' has element type I32; input 'attn.c_attn.weight' is F32
// RUN: head -c 30000 %summa_src/examples/fixtures/nanogpt_block.inputs.safetensors > %t.truncated
// RUN: not %mpirun -np 4 %t.nb --inputs %t.truncated 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: --inputs: '{{.*}}.truncated' is not a valid safetensors file: tensor '{{.*}}': data offsets [{{[0-9]+}}, {{[0-9]+}}) outside the 28944 data bytes
// The q3 export of the same block has other shapes.
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block_q3.mlir --grid=1,1,1 -o %t.q3
// RUN: not %mpirun -np 1 %t.q3 --inputs %summa_src/examples/fixtures/nanogpt_block.inputs.safetensors 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: --inputs '{{.*}}nanogpt_block.inputs.safetensors': tensor 'x' has shape [4, 8, 32]; input 'x' has shape [3, 8, 24]
// Another model's file lacks this one's tensors: all are named, and
// --fill-missing takes them from the seed instead.
// RUN: not %mpirun -np 4 %t.nb --inputs %summa_src/examples/fixtures/llama_layer.inputs.safetensors 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: has no tensor named 'ln_1.weight', 'ln_1.bias', 'attn.bias', 'attn.c_attn.weight'
// RUN: %mpirun -np 4 %t.nb --inputs %summa_src/examples/fixtures/llama_layer.inputs.safetensors --fill-missing --check --iters 0 | FileCheck %s
// An --expect file with the wrong shape fails the comparison.
// RUN: not %mpirun -np 1 %t.q3 --expect %summa_src/examples/fixtures/nanogpt_block.torch.safetensors --iters 0 | FileCheck %s --check-prefix=EXPECTSHAPE
// EXPECTSHAPE: expect: FAIL result0 is F32 [3, 8, 24], '{{.*}}' holds F32 [4, 8, 32]
// RUN: not %mpirun -np 4 %t.nb --checkpoint %t.ckpt2 --iters 0 2>&1 | FileCheck %s --check-prefix=PAIR
// PAIR: --checkpoint DIR and --save-every K go together
