// RUN: summa-opt %s -split-input-file --summa-lower-scatter | FileCheck %s
// RUN: summa-opt %s -split-input-file --summa-lower-scatter=parallel | FileCheck %s --check-prefix=PAR

// On the CPU: a loop over the updates in order; each loads its index,
// checks it (unsigned: a negative index is out of bounds too) and, when
// in bounds, combines its row into the table's, innermost.
// CHECK-LABEL: func.func @scatter_add
// CHECK-SAME: (%[[U:.*]]: memref<4x8xf32>, %[[I:.*]]: memref<4x1xi64>, %[[T:.*]]: memref<16x8xf32>)
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[RAW:.*]] = memref.load %[[I]][%[[N]], %{{.*}}] : memref<4x1xi64>
// CHECK: %[[ROW:.*]] = arith.index_cast %[[RAW]] : i64 to index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[ROW]], %{{.*}} : index
// CHECK: scf.if %[[IN]] {
// CHECK: scf.for %[[S:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[UP:.*]] = memref.load %[[U]][%[[N]], %[[S]]] : memref<4x8xf32>
// CHECK: %[[CUR:.*]] = memref.load %[[T]][%[[ROW]], %[[S]]] : memref<16x8xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[CUR]], %[[UP]] : f32
// CHECK: memref.store %[[SUM]], %[[T]][%[[ROW]], %[[S]]] : memref<16x8xf32>
// CHECK-NOT: summa.scatter
// On the GPU: one thread per position of the row, applying the updates in
// order (no atomics: the same result on every run).
// PAR-LABEL: func.func @scatter_add
// PAR: scf.parallel (%[[S:.*]]) = (%{{.*}}) to (%{{.*}}) step
// PAR: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// PAR: memref.load %{{.*}}[%[[N]], %{{.*}}] : memref<4x1xi64>
// PAR: scf.if
// PAR: memref.load %{{.*}}[%[[N]], %[[S]]] : memref<4x8xf32>
// PAR: memref.store
func.func @scatter_add(%u: memref<4x8xf32>, %ids: memref<4x1xi64>, %t: memref<16x8xf32>) {
  summa.scatter dimension_map = [0] ins(%u, %ids : memref<4x8xf32>, memref<4x1xi64>) outs(%t : memref<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %b, %a : f32
    summa.yield %s : f32
  }
  return
}

// -----

// Two index columns (dimensions 1 and 0 of the original) and no slice: a
// loop over the updates only, both indices checked.
// CHECK-LABEL: func.func @points
// CHECK: scf.for
// CHECK: arith.cmpi ult
// CHECK: arith.cmpi ult
// CHECK: arith.andi
// CHECK: scf.if
// CHECK: arith.maximumf
// CHECK-NOT: scf.for
func.func @points(%u: memref<5xf32>, %ids: memref<5x2xindex>, %t: memref<3x4xf32>) {
  summa.scatter dimension_map = [1, 0] ins(%u, %ids : memref<5xf32>, memref<5x2xindex>) outs(%t : memref<3x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    summa.yield %m : f32
  }
  return
}
