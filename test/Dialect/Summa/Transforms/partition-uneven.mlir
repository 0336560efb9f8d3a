// RUN: summa-opt %s --summa-assign-layouts="grid=2,2,1" --summa-partition | FileCheck %s
// RUN: summa-opt %s --summa-assign-layouts="grid=2,2,1" --summa-partition="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// A hidden dimension of 9 on q = 2: blocks of 5, the second holding 4 and
// one element of padding (docs/Layouts.md, "Uneven dimensions"). Each rank
// knows how much of its block is not padding: min(max(9 - block * 5, 0),
// 5). A reduction over it skips the padding; a product contracting it
// zeroes the padding of both operands first; a redistribution cuts the
// padding off what it gathers and pads what it slices.
// CHECK-LABEL: func.func @uneven
// CHECK-SAME: %arg0: tensor<3x5xf32>
// CHECK-SAME: %arg1: tensor<5x2xf32>
// CHECK: %[[LEFT:.*]] = arith.subi %c9
// CHECK: %[[POS:.*]] = arith.maxsi %[[LEFT]]
// CHECK: %[[VALID:.*]] = arith.minsi %[[POS]], %c5
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: %[[SUM:.*]] = arith.addf %{{.*}}, %[[ACC:.*]] : f32
// CHECK: %[[J:.*]] = linalg.index 1 : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[J]], %[[VALID]] : index
// CHECK: arith.select %[[IN]], %[[SUM]], %[[ACC]] : f32
// CHECK: summa.all_reduce %{{.*}} axes = [col]
// The product's K: the activation's columns and the weight's rows.
// CHECK: %[[A:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<3x5xf32>)
// CHECK: linalg.index 1
// CHECK: arith.select
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<5x2xf32>)
// CHECK: linalg.index 0
// CHECK: arith.select
// CHECK: summa.matmul %[[A]], %[[B]], %{{.*}} on @grid form = ab
// The softmax over the hidden dimension: gathered, the padding cut off.
// CHECK: %[[G:.*]] = summa.all_gather %arg0 on @grid axes = [col] dim = 1 : tensor<3x5xf32> -> tensor<3x10xf32>
// CHECK: %[[CUT:.*]] = tensor.extract_slice %[[G]][0, 0] [3, 9] [1, 1] : tensor<3x10xf32> to tensor<3x9xf32>
// CHECK: %[[SM:.*]] = linalg.softmax dimension(1) ins(%[[CUT]] : tensor<3x9xf32>)
// And back: padded to 10, this rank's 5.
// CHECK: %[[PAD:.*]] = tensor.insert_slice %[[SM]] into %{{.*}}[0, 0] [3, 9] [1, 1] : tensor<3x9xf32> into tensor<3x10xf32>
// CHECK: tensor.extract_slice %[[PAD]][0, %{{.*}}] [3, 5] [1, 1] : tensor<3x10xf32> to tensor<3x5xf32>
// REMARK: remark: reduces over a dimension split unevenly: the padding of the last blocks is skipped
// REMARK: remark: redistribution of 'tensor<3x5xf32>' from #summa.layout<@grid, {{\[\[}}depth, row], [col]]> to #summa.layout<@grid, {{\[\[}}depth, row], []]>: 60 bytes received per rank; summa.all_gather over [col] of dimension 1 (its padding cut off)
func.func @uneven(%x: tensor<6x9xf32> {summa.role = "activation"}, %w: tensor<9x4xf32> {summa.role = "weight"}) -> (tensor<6x1xf32>, tensor<6x4xf32>, tensor<6x9xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<6x1xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<6x1xf32>) -> tensor<6x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6x9xf32>) outs(%f1 : tensor<6x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<6x1xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<6x4xf32>) -> tensor<6x4xf32>
  %y = linalg.matmul ins(%x, %w : tensor<6x9xf32>, tensor<9x4xf32>) outs(%f2 : tensor<6x4xf32>) -> tensor<6x4xf32>
  %e3 = tensor.empty() : tensor<6x9xf32>
  %sm = linalg.softmax dimension(1) ins(%x : tensor<6x9xf32>) outs(%e3 : tensor<6x9xf32>) -> tensor<6x9xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%sm, %x : tensor<6x9xf32>, tensor<6x9xf32>) outs(%e3 : tensor<6x9xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<6x9xf32>
  return %sum, %y, %r : tensor<6x1xf32>, tensor<6x4xf32>, tensor<6x9xf32>
}
