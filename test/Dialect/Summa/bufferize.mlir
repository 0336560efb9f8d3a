// RUN: summa-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s

// broadcast / reduce / all_reduce work in place; the analysis copies an
// input that is still read afterwards. all_gather / reduce_scatter write a
// new buffer.
summa.grid @grid shape = [2, 2, 1]

// CHECK-LABEL: func.func @collectives
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>, %[[T:.*]]: index)
// CHECK: %[[COPY:.*]] = memref.alloc() {{.*}} : memref<4x8xf32>
// CHECK: memref.copy %[[A]], %[[COPY]]
// CHECK: summa.broadcast %[[COPY]] on @grid axes = [col] root = %[[T]] : memref<4x8xf32>
// CHECK: summa.all_reduce %[[COPY]] on @grid axes = [row] kind = sum : memref<4x8xf32>
// CHECK: summa.reduce %[[COPY]] on @grid axes = [row] root = %[[T]] kind = max : memref<4x8xf32>
// CHECK: %[[G:.*]] = memref.alloc() {{.*}} : memref<4x16xf32>
// CHECK: summa.all_gather %[[A]] into %[[G]] on @grid axes = [col] dim = 1 : memref<4x8xf32> into memref<4x16xf32>
// CHECK: %[[S:.*]] = memref.alloc() {{.*}} : memref<4x4xf32>
// CHECK: summa.reduce_scatter %[[A]] into %[[S]] on @grid axes = [col] dim = 1 kind = sum : memref<4x8xf32> into memref<4x4xf32>
// CHECK: return %[[A]], %[[COPY]], %[[G]], %[[S]]
func.func @collectives(%a: tensor<4x8xf32>, %t: index) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x16xf32>, tensor<4x4xf32>) {
  %0 = summa.broadcast %a on @grid axes = [col] root = %t : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = summa.all_reduce %0 on @grid axes = [row] kind = sum : tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = summa.reduce %1 on @grid axes = [row] root = %t kind = max : tensor<4x8xf32> -> tensor<4x8xf32>
  %3 = summa.all_gather %a on @grid axes = [col] dim = 1 : tensor<4x8xf32> -> tensor<4x16xf32>
  %4 = summa.reduce_scatter %a on @grid axes = [col] dim = 1 kind = sum : tensor<4x8xf32> -> tensor<4x4xf32>
  return %a, %2, %3, %4 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x16xf32>, tensor<4x4xf32>
}

// An input that is not read again is broadcast in place, without a copy.
// CHECK-LABEL: func.func @in_place
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>, %[[T:.*]]: index)
// CHECK-NOT: memref.copy
// CHECK: summa.broadcast %[[A]] on @grid axes = [col] root = %[[T]] : memref<4x8xf32>
// CHECK-NEXT: return %[[A]]
func.func @in_place(%a: tensor<4x8xf32>, %t: index) -> tensor<4x8xf32> {
  %0 = summa.broadcast %a on @grid axes = [col] root = %t : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// A slice of a larger tensor bufferizes to a strided view; the runtime's
// collectives take dense buffers: all_gather reads a dense copy of it.
// CHECK-LABEL: func.func @strided_gather
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>)
// CHECK: %[[V:.*]] = memref.subview %[[A]][0, 2] [4, 4] [1, 1] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 2>>
// CHECK: %[[D:.*]] = memref.alloc() {{.*}} : memref<4x4xf32>
// CHECK: memref.copy %[[V]], %[[D]]
// CHECK: %[[G:.*]] = memref.alloc() {{.*}} : memref<4x8xf32>
// CHECK: summa.all_gather %[[D]] into %[[G]] on @grid axes = [col] dim = 1 : memref<4x4xf32> into memref<4x8xf32>
func.func @strided_gather(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = tensor.extract_slice %a[0, 2] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
  %g = summa.all_gather %s on @grid axes = [col] dim = 1 : tensor<4x4xf32> -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// An in-place all_reduce on a view works on a dense copy, which goes back
// into the view.
// CHECK-LABEL: func.func @strided_in_place
// CHECK: %[[W:.*]] = memref.subview %{{.*}}[0, 4] [4, 4] [1, 1] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 4>>
// CHECK: %[[E:.*]] = memref.alloc() {{.*}} : memref<4x4xf32>
// CHECK: memref.copy %[[W]], %[[E]]
// CHECK: summa.all_reduce %[[E]] on @grid axes = [row] kind = sum : memref<4x4xf32>
// CHECK: memref.copy %[[E]], %[[W]]
func.func @strided_in_place(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %g = summa.all_gather %a on @grid axes = [col] dim = 1 : tensor<4x4xf32> -> tensor<4x8xf32>
  %t = tensor.extract_slice %g[0, 4] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
  %r = summa.all_reduce %t on @grid axes = [row] kind = sum : tensor<4x4xf32> -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
