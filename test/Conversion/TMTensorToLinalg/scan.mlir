// RUN: summa-opt %s --convert-tm-tensor-to-linalg | FileCheck %s

// Inclusive: out[b, i] = f(... f(x[b, 0], x[b, 1]) ..., x[b, i]), as the
// first column broadcast along the row and then a fold over j in 1..i; the
// accumulator is the last column.

// CHECK-DAG: #[[FIRST:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[NEXT:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[ACC:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[NEXT0:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-LABEL: func.func @inclusive
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xi64>, %[[O:.*]]: tensor<2x8xi64>, %[[A:.*]]: tensor<2xi64>)
// CHECK: %[[INIT:.*]] = linalg.generic {indexing_maps = [#[[FIRST]], #[[ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<2x8xi64>) outs(%[[O]] : tensor<2x8xi64>)
// CHECK: %[[SCAN:.*]] = linalg.generic {indexing_maps = [#[[NEXT]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] : tensor<2x8xi64>) outs(%[[INIT]] : tensor<2x8xi64>)
// CHECK: ^bb0(%[[IN:.*]]: i64, %[[SOFAR:.*]]: i64):
// CHECK-DAG: %[[I:.*]] = linalg.index 1 : index
// CHECK-DAG: %[[J:.*]] = linalg.index 2 : index
// CHECK-DAG: %[[GE1:.*]] = arith.cmpi uge, %[[J]], %{{.*}} : index
// CHECK-DAG: %[[LEI:.*]] = arith.cmpi ule, %[[J]], %[[I]] : index
// CHECK: %[[TAKE:.*]] = arith.andi %[[GE1]], %[[LEI]] : i1
// CHECK: %[[TWICE:.*]] = arith.muli %[[SOFAR]], %{{.*}} : i64
// CHECK: %[[F:.*]] = arith.addi %[[TWICE]], %[[IN]] : i64
// CHECK: %[[SEL:.*]] = arith.select %[[TAKE]], %[[F]], %[[SOFAR]] : i64
// CHECK: linalg.yield %[[SEL]] : i64
// CHECK: %[[LAST:.*]] = tensor.extract_slice %[[SCAN]][0, 7] [2, 1] [1, 1] : tensor<2x8xi64> to tensor<2xi64>
// CHECK: return %[[SCAN]], %[[LAST]]
// CHECK-NOT: tm_tensor
func.func @inclusive(%x: tensor<2x8xi64>, %o: tensor<2x8xi64>, %a: tensor<2xi64>) -> (tensor<2x8xi64>, tensor<2xi64>) {
  %c2 = arith.constant 2 : i64
  // f(prev, next) = 2 * prev + next: the region's first argument is the
  // value so far.
  %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<2x8xi64>) outs(%o, %a : tensor<2x8xi64>, tensor<2xi64>) {
  ^bb0(%prev: i64, %next: i64):
    %t = arith.muli %prev, %c2 : i64
    %s = arith.addi %t, %next : i64
    tm_tensor.yield %s : i64
  } -> tensor<2x8xi64>, tensor<2xi64>
  return %r#0, %r#1 : tensor<2x8xi64>, tensor<2xi64>
}

// Exclusive along dimension 0: the accumulator operand broadcast along the
// column, then the fold over j < i.

// CHECK-LABEL: func.func @exclusive
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf32>, %[[O:.*]]: tensor<4x3xf32>, %[[A:.*]]: tensor<3xf32>)
// CHECK: %[[INIT:.*]] = linalg.generic {indexing_maps = [#[[ACC]], #[[ID2]]], {{.*}}} ins(%[[A]] : tensor<3xf32>) outs(%[[O]] : tensor<4x3xf32>)
// CHECK: %[[SCAN:.*]] = linalg.generic {indexing_maps = [#[[NEXT0]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] : tensor<4x3xf32>) outs(%[[INIT]] : tensor<4x3xf32>)
// CHECK-DAG: %[[I:.*]] = linalg.index 0 : index
// CHECK-DAG: %[[J:.*]] = linalg.index 2 : index
// CHECK: %[[TAKE:.*]] = arith.cmpi ult, %[[J]], %[[I]] : index
// CHECK: %[[F:.*]] = arith.addf
// CHECK: arith.select %[[TAKE]], %[[F]]
// CHECK: tensor.extract_slice %[[SCAN]][3, 0] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<3xf32>
func.func @exclusive(%x: tensor<4x3xf32>, %o: tensor<4x3xf32>, %a: tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>) {
  %r:2 = tm_tensor.scan dimension(0) inclusive(false) ins(%x : tensor<4x3xf32>) outs(%o, %a : tensor<4x3xf32>, tensor<3xf32>) {
  ^bb0(%prev: f32, %next: f32):
    %s = arith.addf %prev, %next : f32
    tm_tensor.yield %s : f32
  } -> tensor<4x3xf32>, tensor<3xf32>
  return %r#0, %r#1 : tensor<4x3xf32>, tensor<3xf32>
}

// An empty dimension: the output is empty and the accumulator is the
// operand's.

// CHECK-LABEL: func.func @empty
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<2xi64>)
// CHECK-NOT: tensor.extract_slice
// CHECK: return %{{.*}}, %[[A]]
func.func @empty(%x: tensor<2x0xi64>, %o: tensor<2x0xi64>, %a: tensor<2xi64>) -> (tensor<2x0xi64>, tensor<2xi64>) {
  %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<2x0xi64>) outs(%o, %a : tensor<2x0xi64>, tensor<2xi64>) {
  ^bb0(%prev: i64, %next: i64):
    %s = arith.addi %prev, %next : i64
    tm_tensor.yield %s : i64
  } -> tensor<2x0xi64>, tensor<2xi64>
  return %r#0, %r#1 : tensor<2x0xi64>, tensor<2xi64>
}
