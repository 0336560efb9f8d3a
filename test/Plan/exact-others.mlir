// Exactness on the other examples: one GPT layer, the attention block and
// the erf MLP (see exact-mlp.mlir and exact-gpt.mlir for the method).
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=2,2,1 -o %t.221
// RUN: rm -f %t.221.prof.*.json
// RUN: env SUMMA_PROFILE=%t.221.prof.%%r.json %mpirun -np 4 %t.221 --iters 0
// RUN: summa-plan %summa_src/examples/gpt_layer.mlir --ranks 4 --grid 2,2,1 --json > %t.221.plan.json
// RUN: %python %S/compare_profile.py %t.221.plan.json %t.221.prof.%%r.json 4 | FileCheck %s --check-prefix=G221
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=2,2,2 -o %t.222
// RUN: rm -f %t.222.prof.*.json
// RUN: env SUMMA_PROFILE=%t.222.prof.%%r.json %mpirun -np 8 %t.222 --iters 0
// RUN: summa-plan %summa_src/examples/gpt_layer.mlir --ranks 8 --grid 2,2,2 --json > %t.222.plan.json
// RUN: %python %S/compare_profile.py %t.222.plan.json %t.222.prof.%%r.json 8 | FileCheck %s --check-prefix=G222
// RUN: summa-compile %summa_src/examples/attention.mlir --grid=2,2,2 -o %t.att
// RUN: rm -f %t.att.prof.*.json
// RUN: env SUMMA_PROFILE=%t.att.prof.%%r.json %mpirun -np 8 %t.att --iters 0
// RUN: summa-plan %summa_src/examples/attention.mlir --ranks 8 --grid 2,2,2 --json > %t.att.plan.json
// RUN: %python %S/compare_profile.py %t.att.plan.json %t.att.prof.%%r.json 8 | FileCheck %s --check-prefix=ATT
// RUN: summa-compile %summa_src/examples/mlp_erf.mlir --grid=2,2,2 -o %t.erf
// RUN: rm -f %t.erf.prof.*.json
// RUN: env SUMMA_PROFILE=%t.erf.prof.%%r.json %mpirun -np 8 %t.erf --iters 0
// RUN: summa-plan %summa_src/examples/mlp_erf.mlir --ranks 8 --grid 2,2,2 --json > %t.erf.plan.json
// RUN: %python %S/compare_profile.py %t.erf.plan.json %t.erf.prof.%%r.json 8 | FileCheck %s --check-prefix=ERF
// RUN: summa-compile %summa_src/examples/mlp_erf.mlir --grid=3,3,1 -o %t.erf3
// RUN: rm -f %t.erf3.prof.*.json
// RUN: env SUMMA_PROFILE=%t.erf3.prof.%%r.json %mpirun -np 9 %t.erf3 --iters 0
// RUN: summa-plan %summa_src/examples/mlp_erf.mlir --ranks 9 --grid 3,3,1 --json > %t.erf3.plan.json
// RUN: %python %S/compare_profile.py %t.erf3.plan.json %t.erf3.prof.%%r.json 9 | FileCheck %s --check-prefix=ERF3

// G221: exact: [2,2,1] on 4 ranks:
// G222: exact: [2,2,2] on 8 ranks:
// ATT: exact: [2,2,2] on 8 ranks:
// ERF: exact: [2,2,2] on 8 ranks:
// ERF3: exact: [3,3,1] on 9 ranks:
