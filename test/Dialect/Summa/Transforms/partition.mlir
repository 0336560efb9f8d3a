// RUN: summa-opt %s --summa-assign-layouts="grid=2,2,2" --summa-partition | FileCheck %s
// RUN: summa-opt %s --summa-assign-layouts="grid=3,3,1" --summa-partition | FileCheck %s --check-prefix=Q3

#id = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>

// Every value becomes the tile of its rank; contractions become
// summa.matmul; elementwise ops keep their maps and need no communication.
// CHECK: summa.grid @grid shape = [2, 2, 2]
// CHECK-LABEL: func.func @linear
// CHECK-SAME: (%[[X:.*]]: tensor<6x6xf32> {{.*}}, %[[W:.*]]: tensor<6x6xf32> {{.*}}, %[[B:.*]]: tensor<6xf32> {{.*}}) -> (tensor<6x6xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.0
// CHECK: %[[E:.*]] = tensor.empty() : tensor<6x6xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<6x6xf32>) -> tensor<6x6xf32>
// CHECK: %[[MM:.*]] = summa.matmul %[[X]], %[[W]], %[[F]] on @grid form = ab : tensor<6x6xf32>, tensor<6x6xf32>, tensor<6x6xf32> -> tensor<6x6xf32>
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[MM]], %[[B]] : tensor<6x6xf32>, tensor<6xf32>) outs(%[[E]] : tensor<6x6xf32>)
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[Y]] : tensor<6x6xf32>) outs(%[[E]] : tensor<6x6xf32>)
// CHECK: arith.maximumf
// CHECK: return %[[R]] : tensor<6x6xf32>
// CHECK-NOT: summa.layouts

// Q3: summa.grid @grid shape = [3, 3, 1]
// Q3-LABEL: func.func @linear
// Q3-SAME: tensor<8x4xf32> {{.*}}, %{{.*}}: tensor<4x4xf32> {{.*}}, %{{.*}}: tensor<4xf32>
// Q3: summa.matmul {{.*}} : tensor<8x4xf32>, tensor<4x4xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
func.func @linear(%x: tensor<24x12xf32>, %w: tensor<12x12xf32>, %b: tensor<12xf32>) -> tensor<24x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<24x12xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<24x12xf32>) -> tensor<24x12xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<24x12xf32>, tensor<12x12xf32>) outs(%f : tensor<24x12xf32>) -> tensor<24x12xf32>
  %y = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<24x12xf32>, tensor<12xf32>) outs(%e : tensor<24x12xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<24x12xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<24x12xf32>) outs(%e : tensor<24x12xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  } -> tensor<24x12xf32>
  return %r : tensor<24x12xf32>
}

// Splat constants become splats of the tile shape.
// CHECK-LABEL: func.func @splat
// CHECK: arith.constant dense<1.000000e+00> : tensor<6x6xf32>
func.func @splat(%x: tensor<24x12xf32>) -> tensor<24x12xf32> {
  %one = arith.constant dense<1.0> : tensor<24x12xf32>
  %e = tensor.empty() : tensor<24x12xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %one : tensor<24x12xf32>, tensor<24x12xf32>) outs(%e : tensor<24x12xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<24x12xf32>
  return %y : tensor<24x12xf32>
}
