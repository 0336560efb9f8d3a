// Options summa-differentiate cannot honour are errors that say why.
// RUN: not summa-opt %s --summa-differentiate="params=floats optimizer=adam lr=0.1" 2>&1 | FileCheck %s --check-prefix=KIND
// KIND: error: summa-differentiate: optimizer=adam is not sgd, momentum or adamw
// RUN: not summa-opt %s --summa-differentiate="params=floats optimizer=adamw lr=0.1 schedule=step" 2>&1 | FileCheck %s --check-prefix=SCHEDULE
// SCHEDULE: error: summa-differentiate: schedule=step is not constant, cosine or linear
// RUN: not summa-opt %s --summa-differentiate="params=floats optimizer=adamw" 2>&1 | FileCheck %s --check-prefix=RATE
// RATE: error: summa-differentiate: the learning rate must be positive (lr=, or sgd-lr=)
// RUN: not summa-opt %s --summa-differentiate="params=floats optimizer=adamw lr=0.1 beta2=1.0" 2>&1 | FileCheck %s --check-prefix=BETA
// BETA: error: summa-differentiate: adamw needs 0 <= beta1, beta2 < 1 and eps > 0
// RUN: not summa-opt %s --summa-differentiate="params=floats optimizer=adamw lr=0.1 clip-norm=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: summa-differentiate: weight-decay, clip-norm, min-lr, warmup and decay-steps must not be negative
// RUN: not summa-opt %s --summa-differentiate="params=floats optimizer=adamw lr=0.1 schedule=cosine warmup=10 decay-steps=10" 2>&1 | FileCheck %s --check-prefix=WARMUP
// WARMUP: error: summa-differentiate: a schedule needs decay-steps > warmup
// RUN: not summa-opt %s --summa-differentiate="params=floats optimizer=momentum lr=0.1 weight-decay=0.1" 2>&1 | FileCheck %s --check-prefix=COUPLED
// COUPLED: error: summa-differentiate: weight-decay is decoupled (AdamW's): use optimizer=adamw
// RUN: not summa-opt %s --summa-differentiate="params=floats sgd-lr=0.1 lr=0.1" 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: error: summa-differentiate: sgd-lr and lr exclude each other (sgd-lr=R is optimizer=sgd lr=R)
// RUN: not summa-opt %s --summa-differentiate="params=floats optimizer=adamw lr=0.1 decay=biases" 2>&1 | FileCheck %s --check-prefix=DECAY
// DECAY: error: summa-differentiate: decay=biases is not matrices or all

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

