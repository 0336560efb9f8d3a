// RUN: summa-opt %s --summa-differentiate="params=floats optimizer=adamw lr=0.01 weight-decay=0.1 clip-norm=1.0 schedule=cosine warmup=2 decay-steps=10 min-lr=0.001 gradients=false" | FileCheck %s --check-prefix=ADAMW
// RUN: summa-opt %s --summa-differentiate="params=floats optimizer=momentum lr=0.1 momentum=0.9" | FileCheck %s --check-prefix=MOMENTUM
// RUN: summa-opt %s --summa-differentiate="params=floats lr=0.1 schedule=linear warmup=1 decay-steps=4" | FileCheck %s --check-prefix=PLAIN

// The optimizer step summa-differentiate appends: AdamW keeps exp_avg and
// exp_avg_sq per parameter (new arguments, role "state", zeros unless the
// inputs give them) and a step counter (i64, replicated); it returns the
// updated parameters, state and counter (summa.updates), the learning rate
// of the step and the gradient norm before clipping. gradients=false drops
// the gradients themselves from the results.
// ADAMW-LABEL: func.func @exported_grad
// ADAMW-SAME: %[[W:[a-z0-9]+]]: tensor<4x4xf32> {summa.name = "w"}, %[[B:[a-z0-9]+]]: tensor<4xf32> {summa.name = "b"}
// ADAMW-SAME: tensor<4x4xf32> {summa.init = "zeros", summa.name = "w.exp_avg", summa.role = "state"}
// ADAMW-SAME: tensor<4x4xf32> {summa.init = "zeros", summa.name = "w.exp_avg_sq", summa.role = "state"}
// ADAMW-SAME: tensor<4xf32> {summa.init = "zeros", summa.name = "b.exp_avg", summa.role = "state"}
// ADAMW-SAME: tensor<4xf32> {summa.init = "zeros", summa.name = "b.exp_avg_sq", summa.role = "state"}
// ADAMW-SAME: tensor<i64> {summa.init = "zeros", summa.name = "step", summa.role = "replicated"})
// ADAMW-SAME: -> (tensor<f32>, tensor<4x4xf32> {summa.updates = 2 : i64}, tensor<4xf32> {summa.updates = 3 : i64},
// ADAMW-SAME: tensor<4x4xf32> {summa.updates = 4 : i64}, tensor<4x4xf32> {summa.updates = 5 : i64}, tensor<4xf32> {summa.updates = 6 : i64}, tensor<4xf32> {summa.updates = 7 : i64},
// ADAMW-SAME: tensor<i64> {summa.updates = 8 : i64}, tensor<f32> {summa.name = "lr"}, tensor<f32> {summa.name = "grad_norm"})
// The cosine schedule, the global norm and Adam's denominator:
// ADAMW: math.cos
// ADAMW: math.sqrt
// ADAMW: math.sqrt
// ADAMW: return

// Momentum SGD: one buffer per parameter, no counter (constant rate); the
// gradients are results too.
// MOMENTUM-LABEL: func.func @exported_grad
// MOMENTUM-SAME: tensor<4x4xf32> {summa.init = "zeros", summa.name = "w.momentum_buffer", summa.role = "state"}, %{{.*}}: tensor<4xf32> {summa.init = "zeros", summa.name = "b.momentum_buffer", summa.role = "state"})
// MOMENTUM-SAME: -> (tensor<f32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4x4xf32> {summa.updates = 2 : i64}, tensor<4xf32> {summa.updates = 3 : i64}, tensor<4x4xf32> {summa.updates = 4 : i64}, tensor<4xf32> {summa.updates = 5 : i64})

// Plain SGD with a schedule: the counter and the rate, no state.
// PLAIN-LABEL: func.func @exported_grad
// PLAIN-SAME: %{{.*}}: tensor<4xf32> {summa.name = "b"}, %{{.*}}: tensor<i64> {summa.init = "zeros", summa.name = "step", summa.role = "replicated"})
// PLAIN-SAME: -> (tensor<f32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4x4xf32> {summa.updates = 2 : i64}, tensor<4xf32> {summa.updates = 3 : i64}, tensor<i64> {summa.updates = 4 : i64}, tensor<f32> {summa.name = "lr"})
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
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}

