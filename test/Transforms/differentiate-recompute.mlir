// RUN: summa-opt %s --summa-differentiate="params=floats recompute=layers" | FileCheck %s
// RUN: summa-opt %s --summa-differentiate="params=floats" | FileCheck %s --check-prefix=KEEP
// RUN: not summa-opt %s --summa-differentiate="params=floats recompute=everything" 2>&1 | FileCheck %s --check-prefix=BAD

// Activation recompute: the forward is cut where one value alone carries
// the batch on, before the next product (here %h1, the residual stream
// between the two layers). The backward of the last part comes first, as
// always; then the first layer's forward is computed again from its input
// (x·w1 and its tanh + residual), and its backward reads the recomputed
// values: the forward's own %m1 is dead once %h1 is computed.
// CHECK-LABEL: func.func @two_layers_grad
// CHECK: %[[M1:.*]] = linalg.matmul ins(%arg0, %arg1 :
// CHECK: %[[H1:.*]] = linalg.generic {{.*}} ins(%[[M1]], %arg0 :
// CHECK: %[[M2:.*]] = linalg.matmul ins(%[[H1]], %arg2 :
// The last part's backward: the gradient of w2 reads the kept %h1.
// CHECK: linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[H1]], %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>) outs(%{{.*}} : tensor<8x8xf32>)
// The first layer again, then its backward from the recomputed product.
// CHECK: %[[R1:.*]] = linalg.matmul ins(%arg0, %arg1 :
// CHECK: linalg.generic {{.*}} ins(%[[R1]], %arg0 :
// CHECK-NOT: %[[M1]]{{[ ,:)]}}
// CHECK: return
// Without recompute the backward reads the forward's %m1.
// KEEP-LABEL: func.func @two_layers_grad
// KEEP: %[[M1:.*]] = linalg.matmul ins(%arg0, %arg1 :
// KEEP-NOT: linalg.matmul ins(%arg0, %arg1 :
// KEEP: linalg.generic {{.*}} ins(%[[M1]], %arg0, %{{.*}}, %{{.*}} :
// BAD: error: summa-differentiate: recompute=everything is not none, layers or attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_map<(d0, d1) -> ()>
func.func @two_layers(%x: tensor<4x8xf32> {summa.name = "x", summa.role = "activation"}, %w1: tensor<8x8xf32> {summa.name = "w1"}, %w2: tensor<8x8xf32> {summa.name = "w2"}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %h1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%m1, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %r: f32, %o: f32):
    %t = math.tanh %a : f32
    %s = arith.addf %t, %r : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %m2 = linalg.matmul ins(%h1, %w2 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %h2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%m2, %h1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %r: f32, %o: f32):
    %t = math.tanh %a : f32
    %s = arith.addf %t, %r : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %s0 = tensor.empty() : tensor<f32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]} ins(%h2 : tensor<4x8xf32>) outs(%s1 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
