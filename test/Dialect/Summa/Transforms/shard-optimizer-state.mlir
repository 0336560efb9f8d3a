// RUN: summa-opt %s --summa-normalize --summa-assign-layouts=grid=2,2,2 --summa-shard-optimizer-state | FileCheck %s
// RUN: summa-opt %s --summa-normalize --summa-assign-layouts=grid=2,2,2 --summa-shard-optimizer-state --summa-partition | FileCheck %s --check-prefix=SPMD
// RUN: summa-opt %s --summa-normalize --summa-assign-layouts=grid=2,2,1 --summa-shard-optimizer-state | FileCheck %s --check-prefix=FLAT

// ZeRO stage 1 along depth: the update of a weight laid out [[row], [col]]
// and its state (role "state") take [[row, depth], [col]] (each depth
// replica owns half of every block); the gradient is read as that slice, the
// weight too, and the new weight is gathered back over depth. Partitioned,
// the gradient's depth sum (an A^T.B product's) is reduce-scattered by the
// product itself; a total sum of the gradient (clipping's norm) reads the
// slice and adds depth to its all-reduce; two gradients added (a tied
// embedding's) are each reduce-scattered and added as slices.

#id = affine_map<(d0, d1) -> (d0, d1)>
#s = affine_map<(d0, d1) -> ()>
#tA = affine_map<(m, n, k) -> (k, m)>
#tB = affine_map<(m, n, k) -> (k, n)>
#tC = affine_map<(m, n, k) -> (m, n)>

// CHECK-LABEL: func.func @momentum
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<16x16xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}row], [col]]>}
// CHECK-SAME: %[[M:[a-z0-9]+]]: tensor<16x16xf32> {summa.init = "zeros", summa.layout = #summa.layout<@grid, {{\[\[}}row, depth], [col]]>, summa.role = "state"}
// CHECK-SAME: -> (tensor<16x16xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}row], [col]]>, summa.updates = 1 : i64}, tensor<16x16xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}row, depth], [col]]>, summa.updates = 2 : i64})
// CHECK: %[[G:.*]] = linalg.matmul indexing_maps
// CHECK-NEXT: %[[GS:.*]] = summa.relayout %[[G]] to <@grid, {{\[\[}}row, depth], [col]]>
// CHECK: %[[WS:.*]] = summa.relayout %[[W]] to <@grid, {{\[\[}}row, depth], [col]]>
// CHECK: %[[U:.*]]:2 = linalg.generic {{.*}} ins(%[[WS]], %[[M]], %[[GS]], %{{.*}} : {{.*}}) outs({{.*}}) attrs = {summa.layouts = [#summa.layout<@grid, {{\[\[}}row, depth], [col]]>, #summa.layout<@grid, {{\[\[}}row, depth], [col]]>]}
// CHECK: %[[NW:.*]] = summa.relayout %[[U]]#0 to <@grid, {{\[\[}}row], [col]]>
// CHECK: return %[[NW]], %[[U]]#1

// SPMD-LABEL: func.func @momentum
// SPMD-SAME: tensor<8x8xf32> {summa.layout
// SPMD-SAME: tensor<4x8xf32> {summa.init = "zeros"
// SPMD: summa.matmul %{{.*}}, %{{.*}}, %{{.*}} on @grid form = atb {depth_scatter = 0 : i64} : tensor<2x8xf32>, tensor<2x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
// SPMD-NOT: summa.all_reduce
// SPMD: %[[U:.*]]:2 = linalg.generic
// SPMD: summa.all_gather %[[U]]#0 on @grid axes = [depth] dim = 0 : tensor<4x8xf32> -> tensor<8x8xf32>

// On a grid without depth nothing changes.
// FLAT-LABEL: func.func @momentum
// FLAT-NOT: summa.relayout
// FLAT: return
func.func @momentum(%x: tensor<8x16xf32> {summa.role = "activation"}, %w: tensor<16x16xf32>, %m: tensor<16x16xf32> {summa.role = "state", summa.init = "zeros"}, %lr: tensor<f32> {summa.role = "replicated"}) -> (tensor<16x16xf32> {summa.updates = 1 : i64}, tensor<16x16xf32> {summa.updates = 2 : i64}) {
  %z = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<8x16xf32>
  %fy = linalg.fill ins(%z : f32) outs(%ey : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x16xf32>) outs(%fy : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %g = linalg.matmul indexing_maps = [#tA, #tB, #tC] ins(%x, %y : tensor<8x16xf32>, tensor<8x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %e1 = tensor.empty() : tensor<16x16xf32>
  %e2 = tensor.empty() : tensor<16x16xf32>
  %u:2 = linalg.generic {indexing_maps = [#id, #id, #id, #s, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%w, %m, %g, %lr : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<f32>) outs(%e1, %e2 : tensor<16x16xf32>, tensor<16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %l: f32, %o1: f32, %o2: f32):
    %c9 = arith.constant 0.9 : f32
    %mb = arith.mulf %b, %c9 : f32
    %nm = arith.addf %mb, %c : f32
    %st = arith.mulf %l, %nm : f32
    %nw = arith.subf %a, %st : f32
    linalg.yield %nw, %nm : f32, f32
  } -> (tensor<16x16xf32>, tensor<16x16xf32>)
  return %u#0, %u#1 : tensor<16x16xf32>, tensor<16x16xf32>
}

// CHECK-LABEL: func.func @tied_clipped
// CHECK: %[[G:.*]] = linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.addf
// CHECK-NEXT: linalg.yield
// CHECK-NEXT: } -> tensor<16x16xf32>
// CHECK-NEXT: %[[GS:.*]] = summa.relayout %[[G]] to <@grid, {{\[\[}}row, depth], [col]]>
// CHECK: %[[N:.*]] = linalg.generic {{.*}} ins(%[[GS]] : tensor<16x16xf32>) {{.*}} summa.reduce_axes = array<i32: 2, 0, 1>, summa.reduce_kinds = [0 : i32]
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %[[GS]], %{{.*}}, %[[N]] :

// SPMD-LABEL: func.func @tied_clipped
// SPMD: %[[G1:.*]] = summa.matmul {{.*}} form = atb {depth_scatter = 0 : i64} : {{.*}} -> tensor<4x8xf32>
// SPMD: %[[G2:.*]] = summa.matmul {{.*}} form = atb {depth_scatter = 0 : i64} : {{.*}} -> tensor<4x8xf32>
// SPMD: linalg.generic {{.*}} ins(%[[G1]], %[[G2]] : tensor<4x8xf32>, tensor<4x8xf32>)
// SPMD: summa.all_reduce %{{.*}} on @grid axes = [depth, row, col] kind = sum : tensor<f32> -> tensor<f32>
// SPMD-NOT: summa.all_reduce
// SPMD: summa.all_gather %{{.*}} on @grid axes = [depth] dim = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
func.func @tied_clipped(%x: tensor<8x16xf32> {summa.role = "activation"}, %w: tensor<16x16xf32>, %m: tensor<16x16xf32> {summa.role = "state", summa.init = "zeros"}, %lr: tensor<f32> {summa.role = "replicated"}) -> (tensor<16x16xf32> {summa.updates = 1 : i64}, tensor<16x16xf32> {summa.updates = 2 : i64}, tensor<f32>) {
  %z = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<8x16xf32>
  %fy = linalg.fill ins(%z : f32) outs(%ey : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x16xf32>) outs(%fy : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %g1 = linalg.matmul indexing_maps = [#tA, #tB, #tC] ins(%x, %y : tensor<8x16xf32>, tensor<8x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %g2 = linalg.matmul indexing_maps = [#tA, #tB, #tC] ins(%y, %x : tensor<8x16xf32>, tensor<8x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %eg = tensor.empty() : tensor<16x16xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%g1, %g2 : tensor<16x16xf32>, tensor<16x16xf32>) outs(%eg : tensor<16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  %en = tensor.empty() : tensor<f32>
  %fn = linalg.fill ins(%z : f32) outs(%en : tensor<f32>) -> tensor<f32>
  %n = linalg.generic {indexing_maps = [#id, #s], iterator_types = ["reduction", "reduction"]} ins(%g : tensor<16x16xf32>) outs(%fn : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %o, %sq : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %e1 = tensor.empty() : tensor<16x16xf32>
  %e2 = tensor.empty() : tensor<16x16xf32>
  %u:2 = linalg.generic {indexing_maps = [#id, #id, #id, #s, #s, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%w, %m, %g, %lr, %n : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<f32>, tensor<f32>) outs(%e1, %e2 : tensor<16x16xf32>, tensor<16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %l: f32, %nn: f32, %o1: f32, %o2: f32):
    %c9 = arith.constant 0.9 : f32
    %mb = arith.mulf %b, %c9 : f32
    %cs = arith.divf %c, %nn : f32
    %nm = arith.addf %mb, %cs : f32
    %st = arith.mulf %l, %nm : f32
    %nw = arith.subf %a, %st : f32
    linalg.yield %nw, %nm : f32, f32
  } -> (tensor<16x16xf32>, tensor<16x16xf32>)
  return %u#0, %u#1, %n : tensor<16x16xf32>, tensor<16x16xf32>, tensor<f32>
}

// Left as they are: a state that something besides its update reads, and
// a state whose blocks depth does not divide (3 x 3).
// CHECK-LABEL: func.func @kept
// CHECK-SAME: tensor<16x16xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}row], [col]]>, summa.role = "state"}
// CHECK-SAME: tensor<6x6xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}row], [col]]>, summa.role = "state"}
// CHECK-NOT: summa.relayout
// CHECK: return
func.func @kept(%x: tensor<8x16xf32> {summa.role = "activation"}, %x6: tensor<8x6xf32> {summa.role = "activation"}, %w: tensor<16x16xf32>, %m: tensor<16x16xf32> {summa.role = "state"}, %v: tensor<6x6xf32>, %s: tensor<6x6xf32> {summa.role = "state"}) -> (tensor<8x16xf32>, tensor<8x6xf32>, tensor<16x16xf32> {summa.updates = 2 : i64}, tensor<16x16xf32> {summa.updates = 3 : i64}, tensor<6x6xf32> {summa.updates = 4 : i64}, tensor<6x6xf32> {summa.updates = 5 : i64}) {
  %z = arith.constant 0.0 : f32
  %ey = tensor.empty() : tensor<8x16xf32>
  %fy = linalg.fill ins(%z : f32) outs(%ey : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x16xf32>) outs(%fy : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e86 = tensor.empty() : tensor<8x6xf32>
  %f86 = linalg.fill ins(%z : f32) outs(%e86 : tensor<8x6xf32>) -> tensor<8x6xf32>
  %y6 = linalg.matmul ins(%x6, %v : tensor<8x6xf32>, tensor<6x6xf32>) outs(%f86 : tensor<8x6xf32>) -> tensor<8x6xf32>
  %e = tensor.empty() : tensor<16x16xf32>
  %u = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%w, %m : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<16x16xf32>
  %e6 = tensor.empty() : tensor<6x6xf32>
  %u6 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%v, %s : tensor<6x6xf32>, tensor<6x6xf32>) outs(%e6 : tensor<6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<6x6xf32>
  return %y, %y6, %u, %m, %u6, %u6 : tensor<8x16xf32>, tensor<8x6xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<6x6xf32>, tensor<6x6xf32>
}
