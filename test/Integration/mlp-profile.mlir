// SUMMA_PROFILE counts every collective per group: for examples/mlp.mlir on
// [2,2,1] (M=192, h=96, 4h=384; tiles X 96x48, W1 48x192, G 96x192,
// W2 192x48) each rank runs two SUMMA loops of q=2 steps. Along its row
// (group "col") it broadcasts the activation panels: 2·96·48·4 B +
// 2·96·192·4 B = 184320 B; along its column (group "row") the weight
// panels: 2·48·192·4 B + 2·192·48·4 B = 147456 B. Local GEMMs: 4 calls,
// 4·2·96·48·192 = 7077888 flops. No other collective runs.
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=2,2,1 -o %t
// RUN: rm -f %t.prof.*.json
// RUN: env SUMMA_PROFILE=%t.prof.%%r.json %mpirun -np 4 %t --iters 0
// RUN: FileCheck %s < %t.prof.0.json
// RUN: FileCheck %s < %t.prof.3.json

// CHECK-DAG: {"op":"broadcast","group":"col","count":4,"bytes":184320,
// CHECK-DAG: {"op":"broadcast","group":"row","count":4,"bytes":147456,
// CHECK-DAG: "matmul":{"count":4,"flops":7077888,
// CHECK-NOT: all_reduce
// CHECK-NOT: all_gather
