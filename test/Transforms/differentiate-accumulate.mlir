// RUN: summa-opt %s --summa-differentiate="params=floats optimizer=adamw lr=0.01 accumulate=2 gradients=false" | FileCheck %s
// RUN: not summa-opt %s --summa-differentiate="params=floats lr=0.1 accumulate=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not summa-opt %s --summa-differentiate="function=weights_only params=floats lr=0.1 accumulate=2" 2>&1 | FileCheck %s --check-prefix=NOBATCH

// Gradient accumulation: the function is one micro-batch (4 rows); the
// step's batch arguments (x and ids: not parameters, 4 rows) take 2 of
// them, 8 rows. Micro-batch k is rows k, k + 2, ... (an expand to [4, 2],
// index k of the new dimension): a batch split over the grid is sliced where
// it lies. The forward and backward of micro-batch 0 come before micro-batch
// 1's, each seeded with 1/2 (PyTorch's (loss / 2).backward()); the
// gradients are summed, the loss is the mean; one AdamW update.
// CHECK-LABEL: func.func @exported_grad
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<8x4xf32> {summa.name = "x", summa.role = "activation"}, %[[IDS:[a-z0-9]+]]: tensor<8xi64> {summa.name = "ids"}, %[[W:[a-z0-9]+]]: tensor<4x4xf32> {summa.name = "w"}
// CHECK-SAME: summa.name = "w.exp_avg"
// CHECK: %[[X0:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1], [2]] output_shape [4, 2, 4] : tensor<8x4xf32> into tensor<4x2x4xf32>
// CHECK: tensor.extract_slice %[[X0]][0, 0, 0] [4, 1, 4] [1, 1, 1]
// CHECK: %[[M0:.*]] = tensor.collapse_shape {{.*}} : tensor<4x1x4xf32> into tensor<4x4xf32>
// CHECK: tensor.expand_shape %[[IDS]] {{\[\[}}0, 1]] output_shape [4, 2]
// CHECK: linalg.matmul ins(%[[M0]], %[[W]] :
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: %[[G0:.*]] = linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[M0]], %{{.*}} : tensor<4x4xf32>, tensor<4x4xf32>) outs(%{{.*}} : tensor<4x4xf32>)
// CHECK: %[[X1:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1], [2]] output_shape [4, 2, 4]
// CHECK: tensor.extract_slice %[[X1]][0, 1, 0] [4, 1, 4] [1, 1, 1]
// CHECK: %[[M1:.*]] = tensor.collapse_shape
// CHECK: linalg.matmul ins(%[[M1]], %[[W]] :
// CHECK: %[[G1:.*]] = linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[M1]], %{{.*}} : tensor<4x4xf32>, tensor<4x4xf32>) outs(%{{.*}} : tensor<4x4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[G0]], %[[G1]] : tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK: math.sqrt
// CHECK: return

// ZERO: error: summa-differentiate: accumulate=0 is not a number of micro-batches (1 or more)
// NOBATCH: error: summa-differentiate: accumulate=2 needs a batch: a tensor argument with a static leading dimension that is not a parameter (token ids, labels, activations)
func.func @exported(%x: tensor<4x4xf32> {summa.name = "x", summa.role = "activation"}, %ids: tensor<4xi64> {summa.name = "ids"}, %w: tensor<4x4xf32> {summa.name = "w"}, %b: tensor<4xf32> {summa.name = "b"}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %s0 = tensor.empty() : tensor<f32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%y : tensor<4x4xf32>) outs(%s1 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.mulf %a, %a : f32
    %t = arith.addf %s, %acc : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}

// A loss of the parameters alone: no batch to split.
func.func private @weights_only(%w: tensor<4x4xf32> {summa.name = "w"}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<f32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%w : tensor<4x4xf32>) outs(%s1 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.mulf %a, %a : f32
    %t = arith.addf %s, %acc : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
