// Checkpoints and outputs written by the ranks that own them (a directory
// of one safetensors file per rank and an index of boxes in the tensors'
// global coordinates, runtime/tooling/ShardedFormat.h): twenty AdamW steps
// of the tiny Hugging Face GPT-2 with the optimizer state split over depth
// (--zero) on [2,2,2].
// RUN: summa-opt %summa_src/examples/fixtures/hf_gpt2_adamw.mlir --summa-differentiate="optimizer=adamw lr=0.01 beta1=0.9 beta2=0.95 eps=1e-8 weight-decay=0.1 clip-norm=1.0 schedule=cosine warmup=5 decay-steps=20 min-lr=0.001 params=floats gradients=false" -o %t.mlir
// RUN: summa-compile %t.mlir --entry=hf_gpt2_lm_grad --grid=2,2,2 --zero -O0 -o %t.222
// RUN: summa-compile %t.mlir --entry=hf_gpt2_lm_grad --grid=2,2,1 -O0 -o %t.221
// RUN: summa-compile %t.mlir --entry=hf_gpt2_lm_grad --grid=1,1,1 -O0 -o %t.111
// RUN: rm -rf %t.d && mkdir %t.d && cd %t.d
//
// The uninterrupted run, its outputs whole (gathered on rank 0: a
// .safetensors path) and written by their owners (any other path), with a
// checkpoint every 10 steps; each rank's profile counts the bytes it wrote.
// RUN: %mpirun -np 8 %t.222 --inputs %summa_src/examples/fixtures/hf_gpt2_adamw.inputs.safetensors --steps 20 --iters 0 --gradcheck --log-every 0 --outputs whole.safetensors
// RUN: env SUMMA_PROFILE=prof.%%r.json %mpirun -np 8 %t.222 --inputs %summa_src/examples/fixtures/hf_gpt2_adamw.inputs.safetensors --steps 20 --iters 0 --log-every 0 --outputs owned --checkpoint ckpt --save-every 10 | FileCheck %s --check-prefix=WRITE
// WRITE: checkpoint: step 10 written to ckpt/step10{{$}}
// WRITE: checkpoint: step 20 written to ckpt/step20{{$}}
// RUN: ls owned | FileCheck %s --check-prefix=FILES
// FILES: index.json
// FILES-NEXT: rank0.safetensors
// FILES-COUNT-7: rank{{[1-7]}}.safetensors
//
// Every element is written once, and the bytes spread over the ranks (a
// weight's depth replicas each write half of its tile): the bytes of the
// two checkpoints and the outputs add up to their tensors' (the indexes'),
// and each rank's are within 2x of the mean.
// RUN: %python -c "import json, math; w = [json.load(open('prof.%%d.json' %% r))['io']['write_bytes'] for r in range(8)]; m = sum(w) / 8; size = {'F32': 4, 'I64': 8, 'I32': 4}; tensors = sum(math.prod(t['shape']) * size[t['dtype']] for d in ('owned', 'ckpt/step10', 'ckpt/step20') for t in json.load(open(d + '/index.json'))['tensors']); print('written', 'once' if sum(w) == tensors else '%%d bytes for %%d' %% (sum(w), tensors), 'max/mean %%.2f min/mean %%.2f' %% (max(w) / m, min(w) / m), 'balanced' if max(w) <= 2 * m and min(w) >= m / 2 else 'unbalanced')" | FileCheck %s --check-prefix=BYTES
// BYTES: written once max/mean {{[0-9.]+}} min/mean {{[0-9.]+}} balanced
//
// The conversion to one whole file (the parameters' names, the layout
// Hugging Face reads) gives the bytes rank 0 gathered, and a whole file
// cut into pieces and put back together is the same file.
// RUN: summa-ckpt whole owned assembled.safetensors | FileCheck %s --check-prefix=CONVERT
// RUN: cmp assembled.safetensors whole.safetensors
// RUN: summa-ckpt shard whole.safetensors cut --parts 3 | FileCheck %s --check-prefix=CONVERT
// RUN: summa-ckpt whole cut again.safetensors
// RUN: cmp again.safetensors whole.safetensors
// CONVERT: summa-ckpt: 88 tensors of '{{.*}}' written
// A checkpoint holds every input of the next step, its step in its
// metadata; the fused query-key-value weight, laid out as three groups
// each split over the columns, is three boxes on each rank.
// RUN: summa-ckpt info ckpt/step10 | FileCheck %s --check-prefix=INFO
// INFO: ckpt/step10: 87 tensors, sharded
// INFO: metadata summa.step = 10
// INFO: model.transformer.h.0.attn.c_attn.weight F32 [64, 192] pieces 24
//
// The checkpoint of step 10 from [2,2,2] resumes on [2,2,2] bit for bit,
// and on [2,2,1] and [1,1,1] (each rank reading the boxes of its own
// tiles) to the uninterrupted run's weights: the tolerances of
// adamw-run.mlir, where Adam turns the rounding of the key bias's zero
// gradient into whole steps.
// RUN: %mpirun -np 8 %t.222 --inputs ckpt/step10 --steps 10 --iters 0 --log-every 0 --expect owned --tol 0 --atol 0 | FileCheck %s --check-prefix=EXACT
// EXACT: expect: PASS max_rel_err=0.000e+00
// RUN: %mpirun -np 4 %t.221 --inputs ckpt/step10 --steps 10 --iters 0 --log-every 0 --expect owned --tol 1e-4 --tol '*.c_attn.bias=1e-2' | FileCheck %s --check-prefix=ANY
// RUN: %mpirun -np 1 %t.111 --inputs ckpt/step10 --steps 10 --iters 0 --log-every 0 --expect whole.safetensors --tol 1e-4 --tol '*.c_attn.bias=1e-2' | FileCheck %s --check-prefix=ANY
// ANY: expect: PASS
//
// A writer killed halfway through its part of the checkpoint of step 20
// (rank 5, after the first box of its file) leaves the checkpoint of
// step 10 as it was and no step20; the run resumed from it ends as the
// uninterrupted one.
// RUN: cp -r ckpt/step10 step10.before && rm -rf ckpt/step20
// RUN: not env SUMMA_KILL_AT=5:20:checkpoint %mpirun -np 8 %t.222 --inputs %summa_src/examples/fixtures/hf_gpt2_adamw.inputs.safetensors --steps 20 --iters 0 --log-every 0 --checkpoint ckpt --save-every 10 2>&1 | FileCheck %s --check-prefix=KILLED
// KILLED: summa: rank 5: SUMMA_KILL_AT: SIGKILL while writing the checkpoint of step 20
// RUN: ls ckpt | FileCheck %s --check-prefix=LEFT
// LEFT: step10
// LEFT-NEXT: step20.tmp
// RUN: diff -r step10.before ckpt/step10
// RUN: %mpirun -np 8 %t.222 --inputs ckpt/step10 --steps 10 --iters 0 --log-every 0 --outputs resumed
// RUN: diff -r owned resumed
//
// Bad checkpoints are located errors: a piece missing from its file, an
// index that does not parse, pieces that do not cover their tensor.
// RUN: cp -r ckpt/step10 broken && %python -c "import sys; p = 'broken/index.json'; s = open(p).read(); open(p, 'w').write(s.replace('\"key\": \"step@\"', '\"key\": \"step@9\"', 1))"
// RUN: not %mpirun -np 1 %t.111 --inputs broken --steps 1 --iters 0 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: --inputs: '{{.*}}broken/index.json' is not a valid sharded checkpoint index file: tensor 'step': its piece 'step@9' is not in '{{.*}}broken/rank{{[0-9]}}.safetensors'
// RUN: printf '{"format": "summa-sharded", "files": [' > broken/index.json
// RUN: not %mpirun -np 1 %t.111 --inputs broken --steps 1 --iters 0 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: '{{.*}}broken/index.json' is not a valid sharded checkpoint index file: the JSON ends early
// RUN: rm -rf broken && cp -r ckpt/step10 broken && %python -c "import json; p = 'broken/index.json'; d = json.load(open(p)); t = [t for t in d['tensors'] if t['name'] == 'model.lm_head.weight' or t['name'].endswith('wte.weight')][0]; t['pieces'].pop(); json.dump(d, open(p, 'w'))"
// RUN: not %mpirun -np 1 %t.111 --inputs broken --steps 1 --iters 0 2>&1 | FileCheck %s --check-prefix=COVER
// COVER: tensor '{{.*}}': its pieces hold {{[0-9]+}} elements, the tensor has {{[0-9]+}}
