// Exactness on the training steps (forward, MSE loss, backward, SGD or Adam
// update): the backward's SUMMA broadcasts and reduces, the LayerNorm
// all-reduces and the depth all-reduces of the weight gradients that
// summa-plan counts equal the runtime's counters of one step on every rank.
// RUN: summa-compile %summa_src/examples/mlp_train_step.mlir --grid=2,2,2 -o %t.mlp222
// RUN: rm -f %t.mlp222.prof.*.json
// RUN: env SUMMA_PROFILE=%t.mlp222.prof.%%r.json %mpirun -np 8 %t.mlp222 --iters 0
// RUN: summa-plan %summa_src/examples/mlp_train_step.mlir --ranks 8 --grid 2,2,2 --json > %t.mlp222.plan.json
// RUN: %python %S/compare_profile.py %t.mlp222.plan.json %t.mlp222.prof.%%r.json 8 | FileCheck %s --check-prefix=MLP222
// RUN: summa-compile %summa_src/examples/mlp_train_step.mlir --grid=1,1,4 -o %t.mlp114
// RUN: rm -f %t.mlp114.prof.*.json
// RUN: env SUMMA_PROFILE=%t.mlp114.prof.%%r.json %mpirun -np 4 %t.mlp114 --iters 0
// RUN: summa-plan %summa_src/examples/mlp_train_step.mlir --ranks 4 --grid 1,1,4 --json > %t.mlp114.plan.json
// RUN: %python %S/compare_profile.py %t.mlp114.plan.json %t.mlp114.prof.%%r.json 4 | FileCheck %s --check-prefix=MLP114
// RUN: summa-compile %summa_src/examples/mlp_train_adam.mlir --grid=2,2,1 -o %t.adam221
// RUN: rm -f %t.adam221.prof.*.json
// RUN: env SUMMA_PROFILE=%t.adam221.prof.%%r.json %mpirun -np 4 %t.adam221 --iters 0
// RUN: summa-plan %summa_src/examples/mlp_train_adam.mlir --ranks 4 --grid 2,2,1 --json > %t.adam221.plan.json
// RUN: %python %S/compare_profile.py %t.adam221.plan.json %t.adam221.prof.%%r.json 4 | FileCheck %s --check-prefix=ADAM221
// RUN: summa-compile %summa_src/examples/gpt_train_step.mlir --grid=2,2,2 -o %t.gpt222
// RUN: rm -f %t.gpt222.prof.*.json
// RUN: env SUMMA_PROFILE=%t.gpt222.prof.%%r.json %mpirun -np 8 %t.gpt222 --iters 0
// RUN: summa-plan %summa_src/examples/gpt_train_step.mlir --ranks 8 --grid 2,2,2 --json > %t.gpt222.plan.json
// RUN: %python %S/compare_profile.py %t.gpt222.plan.json %t.gpt222.prof.%%r.json 8 | FileCheck %s --check-prefix=GPT222
// RUN: summa-compile %summa_src/examples/gpt_train_step.mlir --grid=2,2,1 -o %t.gpt221
// RUN: rm -f %t.gpt221.prof.*.json
// RUN: env SUMMA_PROFILE=%t.gpt221.prof.%%r.json %mpirun -np 4 %t.gpt221 --iters 0
// RUN: summa-plan %summa_src/examples/gpt_train_step.mlir --ranks 4 --grid 2,2,1 --json > %t.gpt221.plan.json
// RUN: %python %S/compare_profile.py %t.gpt221.plan.json %t.gpt221.prof.%%r.json 4 | FileCheck %s --check-prefix=GPT221

// MLP222: exact: [2,2,2] on 8 ranks:
// MLP114: exact: [1,1,4] on 4 ranks:
// ADAM221: exact: [2,2,1] on 4 ranks:
// GPT222: exact: [2,2,2] on 8 ranks:
// GPT221: exact: [2,2,1] on 4 ranks:
