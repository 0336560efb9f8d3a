// RUN: summa-opt %s -split-input-file --summa-promote-floats | FileCheck %s

// Every f16, bf16 and f32 becomes f64: the signature, tensor and scalar
// types, the generic's block arguments, scalar, dense and dense_resource
// constants (their values widened, not reinterpreted). Integers stay. The
// extf/truncf that became f64 to f64 are gone.
// CHECK-LABEL: func.func @model
// CHECK-SAME: (%{{.*}}: tensor<2x3xf64>, %{{.*}}: tensor<2x3xf64>, %{{.*}}: tensor<2x3xi64>) -> (tensor<2x3xf64>, tensor<2x3xf64>)
// CHECK-DAG: arith.constant 5.000000e-01 : f64
// CHECK-DAG: arith.constant dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf64>
// CHECK-DAG: arith.constant dense<{{\[}}[-1.000000e+00, 2.500000e-01, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf64>
// CHECK: tensor.empty() : tensor<2x3xf64>
// CHECK: ^bb0(%{{.*}}: f64, %{{.*}}: f64, %{{.*}}: f64, %{{.*}}: f64):
// CHECK-NEXT: arith.mulf {{.*}} : f64
// CHECK-NEXT: arith.addf {{.*}} : f64
// CHECK-NEXT: arith.addf {{.*}} : f64
// CHECK-NEXT: math.tanh {{.*}} : f64
// CHECK-NEXT: linalg.yield {{.*}} : f64
// CHECK: arith.addf {{.*}} : tensor<2x3xf64>
// CHECK-NOT: arith.extf
// CHECK-NOT: arith.truncf
// CHECK: return {{.*}} : tensor<2x3xf64>, tensor<2x3xf64>
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @model(%x: tensor<2x3xf32>, %h: tensor<2x3xf16>, %t: tensor<2x3xi64>) -> (tensor<2x3xf32>, tensor<2x3xf16>) {
  %c = arith.constant 0.5 : f32
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %r = arith.constant dense_resource<weights> : tensor<2x3xbf16>
  %e = tensor.empty() : tensor<2x3xf32>
  %y = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %w, %r : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xbf16>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32, %rb: bf16, %o: f32):
    %m = arith.mulf %a, %b : f32
    %re = arith.extf %rb : bf16 to f32
    %s = arith.addf %m, %c : f32
    %s2 = arith.addf %s, %re : f32
    %d = arith.truncf %s2 : f32 to f16
    %d2 = arith.extf %d : f16 to f32
    %g = math.tanh %d2 : f32
    linalg.yield %g : f32
  } -> tensor<2x3xf32>
  %ht = arith.extf %h : tensor<2x3xf16> to tensor<2x3xf32>
  %sum = arith.addf %ht, %y : tensor<2x3xf32>
  %hh = arith.truncf %sum : tensor<2x3xf32> to tensor<2x3xf16>
  return %y, %hh : tensor<2x3xf32>, tensor<2x3xf16>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x0200000080BF803E40408040A040C040"
    }
  }
#-}

// -----

// Calls between functions and splats: both sides of a call agree.
// CHECK-LABEL: func.func private @helper
// CHECK-SAME: (%{{.*}}: tensor<4xf64>) -> tensor<4xf64>
// CHECK: arith.constant dense<2.500000e-01> : tensor<4xf64>
// CHECK-LABEL: func.func @caller
// CHECK: call @helper(%{{.*}}) : (tensor<4xf64>) -> tensor<4xf64>
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<0.25> : tensor<4xf32>
  %y = arith.mulf %x, %c : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
