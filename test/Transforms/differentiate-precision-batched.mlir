// RUN: summa-opt %s --summa-differentiate="params=floats precision=bf16" | FileCheck %s

// A batched product (attention's shape: a batch_matmul, a generic after
// summa-normalize) reads bf16 operands too: the generic's inputs become
// the bf16 tensors and its body widens their elements before the
// multiply-add. A batched dot product is not a GEMM and stays f32: the
// gradient of the scale %g (a sum over rows of dY·X, as a LayerNorm
// weight's) is computed from f32 values, as autocast computes it.
// CHECK-LABEL: func.func @batched_grad
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x8xf32> {{.*}}, %[[W:.*]]: tensor<2x8x4xf32> {{.*}}, %[[G:.*]]: tensor<4xf32>
// CHECK: %[[WB:.*]] = linalg.generic {{.*}} ins(%[[W]] : tensor<2x8x4xf32>) outs(%{{.*}} : tensor<2x8x4xbf16>)
// CHECK: %[[XB:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<2x4x8xf32>) outs(%{{.*}} : tensor<2x4x8xbf16>)
// CHECK: %[[P:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[XB]], %[[WB]] : tensor<2x4x8xbf16>, tensor<2x8x4xbf16>) outs(%{{.*}} : tensor<2x4x4xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: bf16, %[[B:.*]]: bf16, %[[C:.*]]: f32):
// CHECK-DAG: arith.extf %[[A]] : bf16 to f32
// CHECK-DAG: arith.extf %[[B]] : bf16 to f32
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[PB:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<2x4x4xf32>) outs(%{{.*}} : tensor<2x4x4xbf16>)
// CHECK: %[[PW:.*]] = linalg.generic {{.*}} ins(%[[PB]] : tensor<2x4x4xbf16>) outs(%{{.*}} : tensor<2x4x4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[PW]], %[[G]] : tensor<2x4x4xf32>, tensor<4xf32>)
// The scale's gradient: f32 operands, an f32 result returned as it is.
// CHECK: %[[DG:.*]] = linalg.generic {{.*}} ins(%[[PW]], %{{.*}} : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%{{.*}} : tensor<4xf32>)
// The weight's gradient: a batched product of bf16 operands, rounded.
// CHECK: %[[DW:.*]] = linalg.generic {{.*}} ins(%[[XB]], %{{.*}} : tensor<2x4x8xbf16>, tensor<2x4x4xbf16>) outs(%{{.*}} : tensor<2x8x4xf32>)
// CHECK: %[[DWB:.*]] = linalg.generic {{.*}} ins(%[[DW]] : tensor<2x8x4xf32>) outs(%{{.*}} : tensor<2x8x4xbf16>)
// CHECK: %[[DWW:.*]] = linalg.generic {{.*}} ins(%[[DWB]] : tensor<2x8x4xbf16>) outs(%{{.*}} : tensor<2x8x4xf32>)
// CHECK: return %{{.*}}, %[[DWW]], %[[DG]] :
#x = affine_map<(b, i, h) -> (b, i, h)>
#g = affine_map<(b, i, h) -> (h)>
#all = affine_map<(b, i, h) -> ()>
func.func @batched(%x: tensor<2x4x8xf32> {summa.name = "x", summa.role = "activation"}, %w: tensor<2x8x4xf32> {summa.name = "w"}, %g: tensor<4xf32> {summa.name = "g"}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = linalg.batch_matmul ins(%x, %w : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%f : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %y = linalg.generic {indexing_maps = [#x, #g, #x], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %g : tensor<2x4x4xf32>, tensor<4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %m = arith.mulf %a, %s : f32
    linalg.yield %m : f32
  } -> tensor<2x4x4xf32>
  %s0 = tensor.empty() : tensor<f32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [#x, #all], iterator_types = ["reduction", "reduction", "reduction"]} ins(%y : tensor<2x4x4xf32>) outs(%s1 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
