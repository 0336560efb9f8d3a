// Panel reuse (summa-reuse-panels) lowers the broadcast bytes per rank by
// exactly what summa-plan predicts, and the counters with reuse (and with
// summa-overlap's asynchronous collectives) still equal the plan.
// MLP training step on [2,2,2]: the forward's panels of X and of the hidden
// activation are broadcast again by the weight gradients, W2's by dX.
// RUN: summa-compile %summa_src/examples/mlp_train_step.mlir --grid=2,2,2 -o %t.mlp.sync
// RUN: summa-compile %summa_src/examples/mlp_train_step.mlir --grid=2,2,2 --reuse-panels --overlap -o %t.mlp.reuse
// RUN: rm -f %t.mlp.*.prof.*.json
// RUN: env SUMMA_PROFILE=%t.mlp.sync.prof.%%r.json %mpirun -np 8 %t.mlp.sync --iters 0
// RUN: env SUMMA_PROFILE=%t.mlp.reuse.prof.%%r.json %mpirun -np 8 %t.mlp.reuse --iters 0 --check --exact-replicas | FileCheck %s --check-prefix=PASS
// RUN: summa-plan %summa_src/examples/mlp_train_step.mlir --ranks 8 --grid 2,2,2 --reuse-panels --json > %t.mlp.plan.json
// RUN: %python %S/compare_profile.py %t.mlp.plan.json %t.mlp.reuse.prof.%%r.json 8 | FileCheck %s --check-prefix=MLP
// RUN: %python %S/compare_reuse.py %t.mlp.plan.json %t.mlp.sync.prof.%%r.json %t.mlp.reuse.prof.%%r.json 8 | FileCheck %s --check-prefix=MLPSAVE
// With a memory budget that holds one set of panels (X's, 1152 B per rank).
// RUN: summa-compile %summa_src/examples/mlp_train_step.mlir --grid=2,2,2 --memory-budget=2000 -o %t.mlp.budget
// RUN: rm -f %t.mlp.budget.prof.*.json
// RUN: env SUMMA_PROFILE=%t.mlp.budget.prof.%%r.json %mpirun -np 8 %t.mlp.budget --iters 0 --check | FileCheck %s --check-prefix=PASS
// RUN: summa-plan %summa_src/examples/mlp_train_step.mlir --ranks 8 --grid 2,2,2 --memory-budget 2000 --json > %t.budget.plan.json
// RUN: %python %S/compare_reuse.py %t.budget.plan.json %t.mlp.sync.prof.%%r.json %t.mlp.budget.prof.%%r.json 8 | FileCheck %s --check-prefix=BUDGET
// The GPT training step on [2,2,1].
// RUN: summa-compile %summa_src/examples/gpt_train_step.mlir --grid=2,2,1 -o %t.gpt.sync
// RUN: summa-compile %summa_src/examples/gpt_train_step.mlir --grid=2,2,1 --reuse-panels --overlap -o %t.gpt.reuse
// RUN: rm -f %t.gpt.*.prof.*.json
// RUN: env SUMMA_PROFILE=%t.gpt.sync.prof.%%r.json %mpirun -np 4 %t.gpt.sync --iters 0
// RUN: env SUMMA_PROFILE=%t.gpt.reuse.prof.%%r.json %mpirun -np 4 %t.gpt.reuse --iters 0 --check | FileCheck %s --check-prefix=PASS
// RUN: summa-plan %summa_src/examples/gpt_train_step.mlir --ranks 4 --grid 2,2,1 --reuse-panels --json > %t.gpt.plan.json
// RUN: %python %S/compare_profile.py %t.gpt.plan.json %t.gpt.reuse.prof.%%r.json 4 | FileCheck %s --check-prefix=GPT
// RUN: %python %S/compare_reuse.py %t.gpt.plan.json %t.gpt.sync.prof.%%r.json %t.gpt.reuse.prof.%%r.json 4 | FileCheck %s --check-prefix=GPTSAVE

// PASS: check: PASS
// MLP: exact: [2,2,2] on 8 ranks:
// MLPSAVE: reuse exact: [2,2,2] on 8 ranks: broadcast bytes per rank 25344 -> 14976 (10368 saved, as planned)
// BUDGET: reuse exact: [2,2,2] on 8 ranks: broadcast bytes per rank 25344 -> 24192 (1152 saved, as planned)
// GPT: exact: [2,2,1] on 4 ranks:
// GPTSAVE: reuse exact: [2,2,1] on 4 ranks: broadcast bytes per rank
