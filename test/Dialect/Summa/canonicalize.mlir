// RUN: summa-opt %s -split-input-file -canonicalize | FileCheck %s

// Collectives over axes of size 1 move nothing and fold away.
summa.grid @g shape = [2, 2, 1]

// CHECK-LABEL: func @fold_depth_of_one
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>
// CHECK-NOT: summa.all_reduce
// CHECK-NOT: summa.all_gather
// CHECK: return %[[X]], %[[X]]
func.func @fold_depth_of_one(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = summa.all_reduce %x on @g axes = [depth] kind = sum : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = summa.all_gather %0 on @g axes = [depth] dim = 0 : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func @keep_real_groups
// CHECK: summa.all_reduce %{{.*}} on @g axes = [col]
// CHECK: summa.all_reduce %{{.*}} on @g axes = [row, depth]
func.func @keep_real_groups(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = summa.all_reduce %x on @g axes = [col] kind = sum : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = summa.all_reduce %x on @g axes = [row, depth] kind = sum : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// A broadcast whose result is unused dies.
// CHECK-LABEL: func @dead_broadcast
// CHECK-NOT: summa.broadcast
func.func @dead_broadcast(%x: tensor<4x8xf32>, %t: index) {
  %0 = summa.broadcast %x on @g axes = [col] root = %t : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// On memrefs: an in-place collective over one rank is erased, a gather over
// one rank becomes a copy; real ones stay.
// CHECK-LABEL: func @memref_forms
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<4x8xf32>
// CHECK-NEXT: memref.copy %[[A]], %[[B]]
// CHECK-NEXT: summa.broadcast %[[A]] on @g axes = [row]
// CHECK-NEXT: return
func.func @memref_forms(%a: memref<4x8xf32>, %b: memref<4x8xf32>, %t: index) {
  summa.all_reduce %a on @g axes = [depth] kind = sum : memref<4x8xf32>
  summa.all_gather %a into %b on @g axes = [depth] dim = 1 : memref<4x8xf32> into memref<4x8xf32>
  summa.broadcast %a on @g axes = [row] root = %t : memref<4x8xf32>
  return
}

// -----

// A rank's coordinate on an axis of one rank is 0.
summa.grid @g shape = [1, 1, 2]

// CHECK-LABEL: func @coord_of_one
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[K:.*]] = summa.coord @g axis = depth
// CHECK: return %[[C0]], %[[C0]], %[[K]]
func.func @coord_of_one() -> (index, index, index) {
  %i = summa.coord @g axis = row
  %j = summa.coord @g axis = col
  %k = summa.coord @g axis = depth
  return %i, %j, %k : index, index, index
}
