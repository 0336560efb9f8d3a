// Exactness with redistributions: the planner counts the all-gathers of
// summa.relayout like every other collective (see exact-mlp.mlir for the
// method).
// RUN: summa-compile %summa_src/test/Integration/Inputs/reshard.mlir --grid=2,2,1 -o %t.221
// RUN: rm -f %t.221.prof.*.json
// RUN: env SUMMA_PROFILE=%t.221.prof.%%r.json %mpirun -np 4 %t.221 --iters 0
// RUN: summa-plan %summa_src/test/Integration/Inputs/reshard.mlir --ranks 4 --grid 2,2,1 --json > %t.221.plan.json
// RUN: %python %S/compare_profile.py %t.221.plan.json %t.221.prof.%%r.json 4 | FileCheck %s --check-prefix=R221
// RUN: summa-compile %summa_src/test/Integration/Inputs/reshard.mlir --grid=2,2,2 -o %t.222
// RUN: rm -f %t.222.prof.*.json
// RUN: env SUMMA_PROFILE=%t.222.prof.%%r.json %mpirun -np 8 %t.222 --iters 0
// RUN: summa-plan %summa_src/test/Integration/Inputs/reshard.mlir --ranks 8 --grid 2,2,2 --json > %t.222.plan.json
// RUN: %python %S/compare_profile.py %t.222.plan.json %t.222.prof.%%r.json 8 | FileCheck %s --check-prefix=R222
// The nanoGPT block as torch-mlir exports it (its c_attn all-gather) and
// the Llama layer (summa-normalize's generics).
// RUN: summa-compile %summa_src/examples/fixtures/nanogpt_block.mlir --grid=2,2,1 -o %t.nb
// RUN: rm -f %t.nb.prof.*.json
// RUN: env SUMMA_PROFILE=%t.nb.prof.%%r.json %mpirun -np 4 %t.nb --iters 0
// RUN: summa-plan %summa_src/examples/fixtures/nanogpt_block.mlir --ranks 4 --grid 2,2,1 --json > %t.nb.plan.json
// RUN: %python %S/compare_profile.py %t.nb.plan.json %t.nb.prof.%%r.json 4 | FileCheck %s --check-prefix=NB
// RUN: summa-compile %summa_src/examples/fixtures/llama_layer.mlir --grid=2,2,2 -o %t.ll
// RUN: rm -f %t.ll.prof.*.json
// RUN: env SUMMA_PROFILE=%t.ll.prof.%%r.json %mpirun -np 8 %t.ll --iters 0
// RUN: summa-plan %summa_src/examples/fixtures/llama_layer.mlir --ranks 8 --grid 2,2,2 --json > %t.ll.plan.json
// RUN: %python %S/compare_profile.py %t.ll.plan.json %t.ll.prof.%%r.json 8 | FileCheck %s --check-prefix=LL

// NB: exact: [2,2,1] on 4 ranks:
// LL: exact: [2,2,2] on 8 ranks:
// R221: exact: [2,2,1] on 4 ranks: 3 collective entries
// R222: exact: [2,2,2] on 8 ranks:
