// RUN: summa-opt %s --summa-differentiate="params=floats precision=bf16" | FileCheck %s
// RUN: summa-opt %s --summa-differentiate="params=floats" | FileCheck %s --check-prefix=F32
// RUN: summa-opt %s --summa-differentiate="params=floats precision=bf16 optimizer=adamw lr=0.01 gradients=false" | FileCheck %s --check-prefix=ADAMW
// RUN: summa-opt %s --summa-differentiate="params=floats precision=bf16 accumulate=2" | FileCheck %s --check-prefix=ACC

// precision=bf16: every product of the derived step, forward and
// backward, reads bf16 operands (one arith.truncf per value, where the
// value is defined: the weight once, at the top, for its forward product
// and the backward's dX = dY·Wᵀ), accumulates in f32 and its result is
// rounded to bf16 (users read it widened back; a product reading it takes
// the bf16 tensor itself). The tanh, the loss and the gradients' sums stay
// f32, and so does the returned gradient of w: the f32 value of the
// rounded product, as autocast's weight gradient through the cast.
// CHECK-LABEL: func.func @layer_grad
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32> {{.*}}, %[[W:.*]]: tensor<8x8xf32>
// CHECK: %[[WB:.*]] = linalg.generic {{.*}} ins(%[[W]] : tensor<8x8xf32>) outs(%{{.*}} : tensor<8x8xbf16>)
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: %[[XB:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xbf16>)
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[XB]], %[[WB]] : tensor<4x8xbf16>, tensor<8x8xbf16>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: %[[MB:.*]] = linalg.generic {{.*}} ins(%[[M]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xbf16>)
// CHECK: %[[MW:.*]] = linalg.generic {{.*}} ins(%[[MB]] : tensor<4x8xbf16>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: math.tanh
// The loss: f32, no rounding.
// CHECK: %[[L:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<f32>)
// The backward of tanh in f32, its result rounded as the next product's
// operand.
// CHECK: %[[DM:.*]] = linalg.generic {{.*}} ins(%[[MW]], {{.*}}) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: %[[DMB:.*]] = linalg.generic {{.*}} ins(%[[DM]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xbf16>)
// dW = Xᵀ·dM from the bf16 values kept from the forward, rounded.
// CHECK: %[[DW:.*]] = linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[XB]], %[[DMB]] : tensor<4x8xbf16>, tensor<4x8xbf16>) outs(%{{.*}} : tensor<8x8xf32>)
// CHECK: %[[DWB:.*]] = linalg.generic {{.*}} ins(%[[DW]] : tensor<8x8xf32>) outs(%{{.*}} : tensor<8x8xbf16>)
// CHECK: %[[DWW:.*]] = linalg.generic {{.*}} ins(%[[DWB]] : tensor<8x8xbf16>) outs(%{{.*}} : tensor<8x8xf32>)
// CHECK: return %[[L]], %[[DWW]] : tensor<f32>, tensor<8x8xf32>
// Without the option nothing is rounded.
// F32-LABEL: func.func @layer_grad
// F32-NOT: bf16
// F32: return
// The optimizer's update reads the f32 master weight and the f32 gradient:
// after the last product nothing is bf16.
// ADAMW-LABEL: func.func @layer_grad
// ADAMW: linalg.matmul {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<4x8xbf16>) outs(%{{.*}} : tensor<8x8xf32>)
// ADAMW: arith.extf %{{.*}} : bf16 to f32
// ADAMW-NOT: bf16
// ADAMW: math.sqrt
// ADAMW-NOT: bf16
// ADAMW: return
// With accumulation each micro-batch's products are rounded, the sum of
// their gradients is f32.
// ACC-LABEL: func.func @layer_grad
// ACC-COUNT-4: linalg.matmul {{.*}}tensor<{{.*}}xbf16>, tensor<{{.*}}xbf16>)
// ACC-NOT: linalg.matmul
// ACC: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_map<(d0, d1) -> ()>
func.func @layer(%x: tensor<4x8xf32> {summa.name = "x", summa.role = "activation"}, %w: tensor<8x8xf32> {summa.name = "w"}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  %s0 = tensor.empty() : tensor<f32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]} ins(%h : tensor<4x8xf32>) outs(%s1 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
