// RUN: summa-opt %s --summa-assign-layouts="grid=2,2,1" | FileCheck %s

// A result that updates an argument (summa.updates) is laid out like that
// argument: the driver feeds it back in the argument's place. Here the
// update follows the activation's layout, so it is redistributed to the
// argument's (whole on every rank) before the return; a tied embedding's
// table after an SGD step is the case that needs it.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @step
// CHECK-SAME: -> (tensor<8x8xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}], []]>, summa.updates = 1 : i64})
// CHECK: %[[Y:.*]] = linalg.generic
// CHECK: %[[R:.*]] = summa.relayout %[[Y]] to <@grid, {{\[\[}}], []]>
// CHECK: return %[[R]]
func.func @step(%x: tensor<8x8xf32> {summa.role = "activation"}, %w: tensor<8x8xf32> {summa.role = "replicated"}) -> (tensor<8x8xf32> {summa.updates = 1 : i64}) {
  %e = tensor.empty() : tensor<8x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %b, %a : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
