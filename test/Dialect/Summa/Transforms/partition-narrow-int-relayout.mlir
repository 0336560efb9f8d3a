// RUN: summa-opt %s --summa-partition | FileCheck %s

// The runtime's collectives move 32- and 64-bit integers: an i1 mask (a
// cross-entropy's ignore_index test) is gathered as i32, zero-extended,
// and truncated back.
summa.grid @grid shape = [2, 2, 1]
// CHECK-LABEL: func.func @mask
// CHECK-SAME: (%[[M:.*]]: tensor<2x2xi1>
// CHECK: %[[W:.*]] = linalg.generic {{.*}} ins(%[[M]] : tensor<2x2xi1>) outs(%{{.*}} : tensor<2x2xi32>)
// CHECK: arith.extui %{{.*}} : i1 to i32
// CHECK: %[[G:.*]] = summa.all_gather %[[W]] on @grid axes = [col] dim = 1 : tensor<2x2xi32> -> tensor<2x4xi32>
// CHECK: linalg.generic {{.*}} ins(%[[G]] : tensor<2x4xi32>) outs(%{{.*}} : tensor<2x4xi1>)
// CHECK: arith.trunci %{{.*}} : i32 to i1
func.func @mask(%m: tensor<4x4xi1> {summa.layout = #summa.layout<@grid, [[row], [col]]>}) -> (tensor<4x4xi1> {summa.layout = #summa.layout<@grid, [[row], []]>}) {
  %r = summa.relayout %m to <@grid, [[row], []]> {summa.layouts = [#summa.layout<@grid, [[row], []]>]} : tensor<4x4xi1>
  return %r : tensor<4x4xi1>
}
