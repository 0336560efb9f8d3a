// A training loop on real text: --data feeds every step of the JAX-exported
// language model (examples/fixtures/gpt_lm_train_step_jax.mlir) a new batch
// of token ids of Paradise Lost, tokenised at byte level by
// examples/data/prepare.py, into its idx and targets; each rank reads only
// the ids of its own tiles, and rank 0 prints a progress line per step.
// (Compiled at -O0: a 3600-line step takes ~40 s at -O2 on 2 cores.)
// RUN: %python %summa_src/examples/data/prepare.py %summa_src/examples/data/paradise_lost.txt %t.bin
// RUN: summa-compile %summa_src/examples/fixtures/gpt_lm_train_step_jax.mlir --grid=2,2,2 -O0 -o %t.222
// RUN: summa-compile %summa_src/examples/fixtures/gpt_lm_train_step_jax.mlir --grid=1,1,1 -O0 -o %t.111

// The --check reference (the unpartitioned step on rank 0) trains on the
// same batches. The loss starts at log(256) = 5.545 and falls.
// RUN: %mpirun -np 8 %t.222 --inputs %summa_src/examples/fixtures/gpt_lm.init.safetensors --data %t.bin --vocab 256 --steps 8 --check --iters 0 | FileCheck %s
// CHECK: step 1/8 loss 5.5{{[0-9]+}} tokens/s {{[0-9]+}} ms/step {{[0-9.]+}}
// CHECK: step 8/8 loss {{[0-4]\.[0-9]+}} tokens/s
// CHECK: check: PASS

// The framework's own run: JAX trained the same model from the same weights
// on the same batches for 20 steps (export_jax_lm_train_step.py
// --reference-data); its last loss and its weights agree with the compiled
// step's, on [2,2,2] and on [1,1,1]. Twenty f32 SGD steps through
// differently ordered sums drift apart by ~2e-4 at most.
// RUN: %mpirun -np 8 %t.222 --inputs %summa_src/examples/fixtures/gpt_lm.init.safetensors --data %t.bin --steps 20 --expect %summa_src/examples/fixtures/gpt_lm.jax20.safetensors --tol 1e-3 --iters 0 --log-every 0 | FileCheck %s --check-prefix=JAX
// RUN: %mpirun -np 1 %t.111 --inputs %summa_src/examples/fixtures/gpt_lm.init.safetensors --data %t.bin --steps 20 --expect %summa_src/examples/fixtures/gpt_lm.jax20.safetensors --tol 1e-3 --iters 0 --log-every 0 --outputs %t.one | FileCheck %s --check-prefix=JAX
// JAX: expect: result0 rel_err=
// JAX: expect: lm_head rel_err=
// JAX: expect: PASS

// Every grid draws the same batches: [1,1,1] and [2,2,2] agree after 20
// steps to f32 rounding, amplified by training as above.
// RUN: %mpirun -np 8 %t.222 --inputs %summa_src/examples/fixtures/gpt_lm.init.safetensors --data %t.bin --steps 20 --expect %t.one --tol 1e-3 --iters 0 --log-every 0 | FileCheck %s --check-prefix=GRIDS
// GRIDS: expect: PASS

// Stop and resume bit-identically: a checkpoint records its step, so the run
// resumed from step 2 trains on the batches of steps 3 and 4.
// RUN: %mpirun -np 8 %t.222 --inputs %summa_src/examples/fixtures/gpt_lm.init.safetensors --data %t.bin --steps 4 --outputs %t.four --iters 0 --log-every 0
// RUN: rm -rf %t.ckpt && %mpirun -np 8 %t.222 --inputs %summa_src/examples/fixtures/gpt_lm.init.safetensors --data %t.bin --steps 2 --checkpoint %t.ckpt --save-every 2 --iters 0 --log-every 0
// RUN: %mpirun -np 8 %t.222 --inputs %t.ckpt/step2 --data %t.bin --steps 2 --outputs %t.resumed --iters 0 | FileCheck %s --check-prefix=RESUME
// RUN: diff -r %t.four %t.resumed
// RESUME: step 3/4 loss
// RESUME: step 4/4 loss

// Each rank reads only its ids: idx and targets ([8, 32] each, 2-byte ids)
// are 1024 bytes a step, and the 8 ranks of [2,2,2] hold one eighth each.
// RUN: rm -f %t.prof.*.json && env SUMMA_PROFILE=%t.prof.%%r.json %mpirun -np 8 %t.222 --data %t.bin --iters 0 --log-every 0
// RUN: %python %S/Inputs/read_bytes.py %t.prof.%%r.json 8 | FileCheck %s --check-prefix=IO
// IO-COUNT-8: rank {{[0-7]}} read_bytes 128{{$}}
// IO: total read_bytes 1024{{$}}

// Bad data: ids outside the vocabulary (a text file read as uint16), a file
// of an odd number of bytes, and a program without token inputs.
// RUN: not %mpirun -np 1 %t.111 --data %summa_src/examples/data/prepare.py --vocab 256 --iters 0 2>&1 | FileCheck %s --check-prefix=VOCAB
// VOCAB: --data '{{.*}}prepare.py': id {{[0-9]+}} at position {{[0-9]+}} is outside the vocabulary [0, 256)
// RUN: printf 'abc' > %t.odd && not %mpirun -np 1 %t.111 --data %t.odd --iters 0 2>&1 | FileCheck %s --check-prefix=ODD
// ODD: --data: '{{.*}}.odd' has 3 bytes, not a whole number of uint16 token ids
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=1,1,1 -o %t.mlp
// RUN: not %mpirun -np 1 %t.mlp --data %t.bin --iters 0 2>&1 | FileCheck %s --check-prefix=NOIDS
// NOIDS: --data feeds one or two inputs (token ids, then the next ids), and the program has integer inputs of rank 2: 0
