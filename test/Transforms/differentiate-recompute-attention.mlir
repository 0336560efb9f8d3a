// RUN: summa-opt %s --summa-differentiate="params=floats recompute=attention" | FileCheck %s

// recompute=attention: what lies between a product of two batch values
// (the scores q·kᵀ) and the next product that reads it (the probabilities
// times v), both included, is computed again before its backward; q, k and
// v are kept, the scores and probabilities are not (their forward values
// die at p·v).
// CHECK-LABEL: func.func @attention_grad
// CHECK: %[[Q:.*]] = linalg.matmul ins(%arg0, %arg1 :
// CHECK: %[[K:.*]] = linalg.matmul ins(%arg0, %arg2 :
// CHECK: %[[V:.*]] = linalg.matmul ins(%arg0, %arg3 :
// CHECK: %[[S:.*]] = linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[Q]], %[[K]] :
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%[[S]] :
// CHECK: %[[O:.*]] = linalg.matmul ins(%[[P]], %[[V]] :
// The backward, from the loss: the scores and probabilities again, then
// the adjoints read the recomputed ones.
// CHECK: %[[S2:.*]] = linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[Q]], %[[K]] :
// CHECK: %[[P2:.*]] = linalg.generic {{.*}} ins(%[[S2]] :
// CHECK: linalg.matmul ins(%[[P2]], %[[V]] :
// CHECK-NOT: %[[P]]{{[ ,:)]}}
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_map<(d0, d1) -> ()>
func.func @attention(%x: tensor<4x8xf32> {summa.name = "x", summa.role = "activation"}, %wq: tensor<8x8xf32> {summa.name = "wq"}, %wk: tensor<8x8xf32> {summa.name = "wk"}, %wv: tensor<8x8xf32> {summa.name = "wv"}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %k = linalg.matmul ins(%x, %wk : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %v = linalg.matmul ins(%x, %wv : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e4 = tensor.empty() : tensor<4x4xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%q, %k : tensor<4x8xf32>, tensor<4x8xf32>) outs(%f4 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x4xf32>) outs(%e4 : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.exp %a : f32
    linalg.yield %t : f32
  } -> tensor<4x4xf32>
  %o = linalg.matmul ins(%p, %v : tensor<4x4xf32>, tensor<4x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %s0 = tensor.empty() : tensor<f32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]} ins(%o : tensor<4x8xf32>) outs(%s1 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %r = arith.addf %sq, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
