// A training run as a job that survives a lost rank: summa-run relaunches
// it from the newest complete checkpoint, and the data loader goes on with
// the batches of the next step, so the weights at the end equal those of a
// run that was never interrupted, byte for byte. The faults come from the
// driver's testing aid SUMMA_KILL_AT=R:S[:checkpoint] (rank R raises SIGKILL
// on itself before step S, or while writing the checkpoint of step S): a
// step, not a time, so the kill lands at the same point however loaded the
// machine is. (The JAX-exported GPT language model on Paradise Lost, as in
// train-data.mlir; [2,2,1], compiled at -O0.)
// RUN: %python %summa_src/examples/data/prepare.py %summa_src/examples/data/paradise_lost.txt %t.bin
// RUN: summa-compile %summa_src/examples/fixtures/gpt_lm_train_step_jax.mlir --grid=2,2,1 -O0 -o %t.lm

// The uninterrupted run.
// RUN: %mpirun -np 4 %t.lm --inputs %summa_src/examples/fixtures/gpt_lm.init.safetensors --data %t.bin --steps 12 --iters 0 --log-every 0 --outputs %t.plain.out --metrics %t.plain.jsonl

// Rank 1 is killed before step 8: the job ends (mpirun: exit status 137),
// summa-run relaunches it once from step 6 (the checkpoint of step 9 was
// never written), and the run completes with the same outputs, metrics
// lines and TensorBoard scalars as the uninterrupted one.
// RUN: rm -rf %t.ckpt %t.tb %t.killed.jsonl
// RUN: env SUMMA_KILL_AT=1:8 summa-run -np 4 --max-restarts 2 %t.lm --inputs %summa_src/examples/fixtures/gpt_lm.init.safetensors --data %t.bin --steps 12 --checkpoint %t.ckpt --save-every 3 --iters 0 --log-every 0 --outputs %t.killed.out --metrics %t.killed.jsonl --tensorboard %t.tb 2>&1 | FileCheck %s --check-prefix=KILL
// KILL: summa-run: launch 1: {{.*}} -np 4 {{.*}}lm --inputs
// KILL: summa: rank 1: SUMMA_KILL_AT: SIGKILL before step 8
// KILL: summa-run: the job failed (exit status 137 (a rank ended by SIGKILL)); restart 1 of 2 from {{.*}}ckpt/step6 (step 6 of 12, 6 steps left)
// KILL: summa-run: launch 2: {{.*}} --inputs {{.*}}ckpt/step6 --steps 6
// KILL-NOT: restart 2
// KILL: summa-run: the job completed in {{[0-9.]+}} s after 1 restart
// RUN: diff -r %t.plain.out %t.killed.out
// RUN: %python %summa_src/runtime/test/check-metrics.py metrics %t.killed.jsonl --steps 12 --same-as %t.plain.jsonl | FileCheck %s --check-prefix=METRICS
// METRICS: metrics: 12 steps, fields ok
// METRICS: metrics: loss 5.5{{[0-9]+}} -> {{[0-4]\.[0-9]+}}
// METRICS: metrics: the loss of every step equals
// Two event files (one per launch), each step once.
// RUN: %python %summa_src/runtime/test/check-metrics.py events %t.tb --same-as %t.killed.jsonl | FileCheck %s --check-prefix=EVENTS
// EVENTS: events: 2 files, {{[0-9]+}} tags, steps 1..12
// EVENTS: tag loss 12 points
// EVENTS: tag throughput/tokens_per_s 12 points
// EVENTS: events: the loss of every step equals the metrics file's

// Killed before the first checkpoint (rank 1 before step 2, a checkpoint
// every 3 steps): the job starts again from the beginning, which removes the
// event file of the first launch; each step is there once.
// RUN: rm -rf %t.early %t.early.tb
// RUN: env SUMMA_KILL_AT=1:2 summa-run -np 4 --max-restarts 1 %t.lm --inputs %summa_src/examples/fixtures/gpt_lm.init.safetensors --data %t.bin --steps 4 --checkpoint %t.early --save-every 3 --iters 0 --log-every 0 --metrics %t.early.jsonl --tensorboard %t.early.tb 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: summa-run: the job failed (exit status 137 (a rank ended by SIGKILL)); restart 1 of 1 from the beginning (no complete checkpoint yet)
// EARLY: summa-run: the job completed
// RUN: %python %summa_src/runtime/test/check-metrics.py events %t.early.tb --same-as %t.early.jsonl | FileCheck %s --check-prefix=EARLY-EVENTS
// EARLY-EVENTS: events: 1 files, {{[0-9]+}} tags, steps 1..4
// EARLY-EVENTS: events: the loss of every step equals the metrics file's

// Rank 2 is killed halfway through writing its part of the checkpoint of
// step 9: the temporary directory stays behind, step9 does not exist, and
// the checkpoint of step 6 is the newest complete one.
// RUN: rm -rf %t.mid && not env SUMMA_KILL_AT=2:9:checkpoint %mpirun -np 4 %t.lm --inputs %summa_src/examples/fixtures/gpt_lm.init.safetensors --data %t.bin --steps 12 --checkpoint %t.mid --save-every 3 --iters 0 --log-every 0
// RUN: ls %t.mid | FileCheck %s --check-prefix=PARTIAL
// PARTIAL: step3
// PARTIAL-NEXT: step6
// PARTIAL-NEXT: step9.tmp
// RUN: not ls %t.mid/step9
// RUN: summa-run -np 4 --resume --dry-run %t.lm --inputs %summa_src/examples/fixtures/gpt_lm.init.safetensors --data %t.bin --steps 12 --checkpoint %t.mid --save-every 3 2>&1 | FileCheck %s --check-prefix=RESUME
// RESUME: summa-run: resuming from {{.*}}mid/step6 (step 6 of 12)
// RESUME: {{.*}} -np 4 {{.*}}lm --data {{.*}} --inputs {{.*}}mid/step6 --steps 6

// The same under summa-run: the partial directory is removed, the job restarts
// from step 6 and ends with the uninterrupted run's outputs.
// RUN: rm -rf %t.mid
// RUN: env SUMMA_KILL_AT=2:9:checkpoint summa-run -np 4 --max-restarts 2 %t.lm --inputs %summa_src/examples/fixtures/gpt_lm.init.safetensors --data %t.bin --steps 12 --checkpoint %t.mid --save-every 3 --iters 0 --log-every 0 --outputs %t.mid.out 2>&1 | FileCheck %s --check-prefix=MIDWRITE
// MIDWRITE: summa: rank 2: SUMMA_KILL_AT: SIGKILL while writing the checkpoint of step 9
// MIDWRITE: summa-run: removed the partial checkpoint {{.*}}mid/step9.tmp
// MIDWRITE: restart 1 of 2 from {{.*}}mid/step6 (step 6 of 12, 6 steps left)
// MIDWRITE: summa-run: the job completed in {{[0-9.]+}} s after 1 restart
// RUN: diff -r %t.plain.out %t.mid.out

// A checkpoint with a file cut short after its rename (a copy that failed,
// a disk error) is not complete: the file's size is not what its header
// says, and the one before is taken.
// RUN: head -c 1000 %t.mid/step9/rank1.safetensors > %t.mid/step9.short && mv %t.mid/step9.short %t.mid/step9/rank1.safetensors
// RUN: summa-run -np 4 --resume --dry-run %t.lm --data %t.bin --steps 12 --checkpoint %t.mid --save-every 3 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: summa-run: resuming from {{.*}}mid/step6 (step 6 of 12)

// Under Slurm (SLURM_JOB_ID set) summa-run launches with srun; a stand-in
// srun on PATH runs the job with mpirun and records how it was called.
// RUN: rm -rf %t.fakebin %t.slurm %t.srun.log && mkdir %t.fakebin && cp %S/Inputs/fake-srun.sh %t.fakebin/srun
// RUN: env PATH=%t.fakebin:%PATH% SLURM_JOB_ID=1234 FAKE_SRUN_LOG=%t.srun.log FAKE_SRUN_MPIRUN="%mpirun" SUMMA_KILL_AT=2:5 summa-run -np 4 --max-restarts 1 %t.lm --inputs %summa_src/examples/fixtures/gpt_lm.init.safetensors --data %t.bin --steps 12 --checkpoint %t.slurm --save-every 3 --iters 0 --log-every 0 --outputs %t.slurm.out 2>&1 | FileCheck %s --check-prefix=SLURM
// SLURM: summa-run: launch 1: srun -n 4 --kill-on-bad-exit=1 {{.*}}lm
// SLURM: restart 1 of 1 from {{.*}}slurm/step3 (step 3 of 12, 9 steps left)
// SLURM: summa-run: launch 2: srun -n 4 --kill-on-bad-exit=1
// SLURM: summa-run: the job completed
// RUN: diff -r %t.plain.out %t.slurm.out
// RUN: FileCheck %s --check-prefix=CALLS < %t.srun.log
// CALLS: srun -n 4 --kill-on-bad-exit=1 {{.*}}lm {{.*}}--steps 12 {{.*}}(SUMMA_RESTART_COUNT=0)
// CALLS-NEXT: srun -n 4 --kill-on-bad-exit=1 {{.*}}lm {{.*}}--inputs {{.*}}step3 --steps 9 (SUMMA_RESTART_COUNT=1)

// When not to restart: a job killed again after --max-restarts restarts
// (here 0), a job without --checkpoint, and exit status 2 (the wrong
// number of ranks: a restart would fail the same way).
// RUN: rm -rf %t.none && not env SUMMA_KILL_AT=1:4 summa-run -np 4 --max-restarts 0 %t.lm --data %t.bin --steps 6 --checkpoint %t.none --save-every 3 --iters 0 --log-every 0 2>&1 | FileCheck %s --check-prefix=GIVEUP
// GIVEUP: summa-run: the job failed (exit status 137 (a rank ended by SIGKILL)); giving up after 0 restarts (--max-restarts 0)
// RUN: not env SUMMA_KILL_AT=1:2 summa-run -np 4 %t.lm --data %t.bin --steps 3 --iters 0 --log-every 0 2>&1 | FileCheck %s --check-prefix=NOCKPT
// NOCKPT: not restarting: the program has no --checkpoint DIR
// RUN: not summa-run -np 2 %t.lm --data %t.bin --steps 3 --checkpoint %t.none --save-every 1 --iters 0 2>&1 | FileCheck %s --check-prefix=RANKS
// RANKS: summa-run: the job failed (exit status 2: an option or the number of ranks is refused); not restarting
// RUN: not summa-run %t.lm 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: summa-run: -np N (a positive number of ranks) is required
// USAGE-NEXT: usage: summa-run -np N [--max-restarts K]
