// RUN: summa-opt %s --convert-tm-tensor-to-linalg | FileCheck %s

// torch.topk as torch-mlir writes it (a router's experts, descending): the
// position of every element (a count over the other elements j of the row:
// those the comparator puts first, ties by index), then each output taken
// at its positions.
// CHECK-LABEL: func.func @topk
// CHECK: %[[POS:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg0, %arg1, %arg1 : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xi64>, tensor<3x4xi64>) outs(%{{.*}} : tensor<3x4xi64>)
// CHECK: arith.cmpf oge
// CHECK: arith.cmpf oge
// CHECK: linalg.index 1
// CHECK: linalg.index 2
// CHECK: arith.cmpi ult
// CHECK: arith.extui
// CHECK: %[[V:.*]] = linalg.generic {{.*}} ins(%[[POS]], %arg0 : tensor<3x4xi64>, tensor<3x4xf32>) outs(%{{.*}} : tensor<3x4xf32>)
// CHECK: arith.select
// CHECK: arith.addf
// CHECK: %[[I:.*]] = linalg.generic {{.*}} ins(%[[POS]], %arg1 : tensor<3x4xi64>, tensor<3x4xi64>) outs(%{{.*}} : tensor<3x4xi64>)
// CHECK: arith.addi
// CHECK: return %[[V]], %[[I]]
// CHECK-NOT: tm_tensor
func.func @topk(%v: tensor<3x4xf32>, %i: tensor<3x4xi64>) -> (tensor<3x4xf32>, tensor<3x4xi64>) {
  %r:2 = tm_tensor.sort dimension(1) outs(%v, %i : tensor<3x4xf32>, tensor<3x4xi64>) {
  ^bb0(%a: f32, %b: f32, %ia: i64, %ib: i64):
    %ge = arith.cmpf oge, %a, %b : f32
    tm_tensor.yield %ge : i1
  } -> tensor<3x4xf32>, tensor<3x4xi64>
  return %r#0, %r#1 : tensor<3x4xf32>, tensor<3x4xi64>
}
