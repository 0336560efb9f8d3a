// RUN: summa-opt %s | summa-opt | FileCheck %s
// RUN: summa-opt %s --mlir-print-op-generic | summa-opt | FileCheck %s

// CHECK: summa.grid @grid shape = [2, 2, 2]
summa.grid @grid shape = [2, 2, 2]

// CHECK-LABEL: func @layouts
// CHECK-SAME: #summa.layout<@grid, {{\[\[}}depth, row], [col]]>
// CHECK-SAME: #summa.layout<@grid, {{\[\[}}row], [col]]>
// CHECK-SAME: #summa.layout<@grid, {{\[\[}}col]]>
// CHECK-SAME: #summa.layout<@grid, {{\[\[}}], []]>
func.func @layouts(
    %x: tensor<8x8xf32> {summa.layout = #summa.layout<@grid, [[depth, row], [col]]>},
    %w: tensor<8x8xf32> {summa.layout = #summa.layout<@grid, [[row], [col]]>},
    %b: tensor<8xf32> {summa.layout = #summa.layout<@grid, [[col]]>},
    %r: tensor<8x8xf32> {summa.layout = #summa.layout<@grid, [[], []]>}) {
  return
}

// CHECK-LABEL: func @matmul
// CHECK: summa.matmul %{{.*}}, %{{.*}}, %{{.*}} on @grid form = ab : tensor<4x8xf32>, tensor<8x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
// CHECK: summa.matmul %{{.*}}, %{{.*}}, %{{.*}} on @grid form = abt : tensor<4x16xf32>, tensor<8x16xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK: summa.matmul %{{.*}}, %{{.*}}, %{{.*}} on @grid form = atb : tensor<4x8xf32>, tensor<4x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK: summa.matmul %{{.*}}, %{{.*}}, %{{.*}} on @grid form = atb {depth_scatter = 1 : i64} : tensor<4x8xf32>, tensor<4x16xf32>, tensor<8x16xf32> -> tensor<8x8xf32>
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>,
                  %ct: tensor<4x8xf32>, %w: tensor<8x16xf32>) {
  %0 = summa.matmul %a, %b, %c on @grid form = ab
      : tensor<4x8xf32>, tensor<8x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
  %1 = summa.matmul %c, %b, %ct on @grid form = abt
      : tensor<4x16xf32>, tensor<8x16xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = summa.matmul %a, %c, %w on @grid form = atb
      : tensor<4x8xf32>, tensor<4x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  // The depth sum reduce-scattered along dimension 1 (d = 2).
  %3 = summa.matmul %a, %c, %w on @grid form = atb {depth_scatter = 1 : i64}
      : tensor<4x8xf32>, tensor<4x16xf32>, tensor<8x16xf32> -> tensor<8x8xf32>
  return
}

// CHECK-LABEL: func @collectives_on_tensors
func.func @collectives_on_tensors(%x: tensor<4x8xf32>, %t: index) {
  // CHECK: summa.broadcast %{{.*}} on @grid axes = [col] root = %{{.*}} : tensor<4x8xf32> -> tensor<4x8xf32>
  %0 = summa.broadcast %x on @grid axes = [col] root = %t : tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK: summa.reduce %{{.*}} on @grid axes = [row] root = %{{.*}} kind = sum : tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = summa.reduce %x on @grid axes = [row] root = %t kind = sum : tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK: summa.all_reduce %{{.*}} on @grid axes = [depth] kind = sum : tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = summa.all_reduce %x on @grid axes = [depth] kind = sum : tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK: summa.all_reduce %{{.*}} on @grid axes = [row, col] kind = max : tensor<4x8xf32> -> tensor<4x8xf32>
  %3 = summa.all_reduce %x on @grid axes = [row, col] kind = max : tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK: summa.all_gather %{{.*}} on @grid axes = [col] dim = 1 : tensor<4x8xf32> -> tensor<4x16xf32>
  %4 = summa.all_gather %x on @grid axes = [col] dim = 1 : tensor<4x8xf32> -> tensor<4x16xf32>
  // CHECK: summa.reduce_scatter %{{.*}} on @grid axes = [depth] dim = 0 kind = min : tensor<4x8xf32> -> tensor<2x8xf32>
  %5 = summa.reduce_scatter %x on @grid axes = [depth] dim = 0 kind = min : tensor<4x8xf32> -> tensor<2x8xf32>
  // CHECK: summa.all_reduce %{{.*}} on @grid axes = [depth] kind = prod : tensor<4x8xf32> -> tensor<4x8xf32>
  %6 = summa.all_reduce %x on @grid axes = [depth] kind = prod : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func @collectives_on_memrefs
func.func @collectives_on_memrefs(%x: memref<4x8xf32>, %y: memref<4x16xf32>, %t: index) {
  // CHECK: summa.broadcast %{{.*}} on @grid axes = [col] root = %{{.*}} : memref<4x8xf32>
  summa.broadcast %x on @grid axes = [col] root = %t : memref<4x8xf32>
  // CHECK: summa.reduce %{{.*}} on @grid axes = [col] root = %{{.*}} kind = sum : memref<4x8xf32>
  summa.reduce %x on @grid axes = [col] root = %t kind = sum : memref<4x8xf32>
  // CHECK: summa.all_reduce %{{.*}} on @grid axes = [depth] kind = sum : memref<4x8xf32>
  summa.all_reduce %x on @grid axes = [depth] kind = sum : memref<4x8xf32>
  // CHECK: summa.all_gather %{{.*}} into %{{.*}} on @grid axes = [col] dim = 1 : memref<4x8xf32> into memref<4x16xf32>
  summa.all_gather %x into %y on @grid axes = [col] dim = 1 : memref<4x8xf32> into memref<4x16xf32>
  // CHECK: summa.reduce_scatter %{{.*}} into %{{.*}} on @grid axes = [col] dim = 1 kind = sum : memref<4x16xf32> into memref<4x8xf32>
  summa.reduce_scatter %y into %x on @grid axes = [col] dim = 1 kind = sum : memref<4x16xf32> into memref<4x8xf32>
  return
}

// Asynchronous collectives: tokens, also carried by a loop.
// CHECK-LABEL: func.func @async
// CHECK: %[[T0:.*]] = summa.async_broadcast %{{.*}} on @grid axes = [col] root = %{{.*}} : memref<4x8xf32>
// CHECK: %[[T1:.*]] = summa.async_reduce %{{.*}} on @grid axes = [row] root = %{{.*}} kind = sum : memref<8x6xf32>
// CHECK: %[[L:.*]] = scf.for {{.*}} iter_args(%[[W:.*]] = %[[T0]]) -> (!summa.token)
// CHECK: summa.wait %[[W]]
// CHECK: summa.wait %[[T1]]
func.func @async(%a: memref<4x8xf32>, %p: memref<8x6xf32>, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = summa.async_broadcast %a on @grid axes = [col] root = %t : memref<4x8xf32>
  %1 = summa.async_reduce %p on @grid axes = [row] root = %t kind = sum : memref<8x6xf32>
  %2 = scf.for %i = %c0 to %c1 step %c1 iter_args(%w = %0) -> (!summa.token) {
    summa.wait %w
    %n = summa.async_broadcast %a on @grid axes = [col] root = %i : memref<4x8xf32>
    scf.yield %n : !summa.token
  }
  summa.wait %1
  summa.wait %2
  return
}

// CHECK-LABEL: func.func @relayout
// CHECK: summa.relayout %{{.*}} to <@grid, {{\[}}[depth, row], []]> : tensor<8x8xf32>
func.func @relayout(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = summa.relayout %x to <@grid, [[depth, row], []]> : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
