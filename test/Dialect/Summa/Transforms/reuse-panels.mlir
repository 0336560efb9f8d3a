// RUN: summa-opt %s -split-input-file --summa-reuse-panels | FileCheck %s
// RUN: summa-opt %s -split-input-file --summa-reuse-panels="memory-budget=100 remarks" -verify-diagnostics | FileCheck %s --check-prefix=BUDGET

// The forward loop keeps the panels of %x (2 steps of 4x8 f32: 256 bytes)
// in a stack; the weight gradient reads them instead of broadcasting again.
// The panels of %w, broadcast once, are not kept.
// CHECK-LABEL: func.func @fwd_bwd
// CHECK-SAME: (%[[X:[^:]*]]: tensor<4x8xf32>, %[[W:[^:]*]]: tensor<8x6xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x4x8xf32>
// CHECK: %[[FWD:.*]]:2 = scf.for %[[T:[a-z0-9_]+]] = {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[ST:.*]] = %[[EMPTY]]) -> (tensor<4x6xf32>, tensor<2x4x8xf32>)
// CHECK: %[[PX:.*]] = summa.broadcast %[[X]] on @grid axes = [col] root = %[[T]]
// CHECK: summa.broadcast %[[W]] on @grid axes = [row] root = %[[T]]
// CHECK: %[[KEPT:.*]] = tensor.insert_slice %[[PX]] into %[[ST]][%[[T]], 0, 0] [1, 4, 8] [1, 1, 1]
// CHECK: scf.yield %{{.*}}, %[[KEPT]]
// CHECK: scf.for %[[T2:[a-z0-9_]+]] =
// CHECK-NOT: summa.broadcast
// CHECK: %[[PANEL:.*]] = tensor.extract_slice %[[FWD]]#1[%[[T2]], 0, 0] [1, 4, 8] [1, 1, 1] : tensor<2x4x8xf32> to tensor<4x8xf32>
// CHECK: linalg.matmul {{.*}} ins(%[[PANEL]],

// With a budget of 100 bytes per rank the 256 bytes are not kept.
// BUDGET-LABEL: func.func @fwd_bwd
// BUDGET-NOT: tensor.insert_slice
// BUDGET-COUNT-3: summa.broadcast
summa.grid @grid shape = [2, 2, 1]
func.func @fwd_bwd(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %dy: tensor<4x6xf32>, %acc: tensor<4x6xf32>, %gacc: tensor<8x6xf32>) -> (tensor<4x6xf32>, tensor<8x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %y = scf.for %t = %c0 to %c2 step %c1 iter_args(%a = %acc) -> (tensor<4x6xf32>) {
    // expected-remark @+1 {{panels not kept: 256 bytes per rank would exceed the memory budget of 100 (0 used)}}
    %px = summa.broadcast %x on @grid axes = [col] root = %t : tensor<4x8xf32> -> tensor<4x8xf32>
    %pw = summa.broadcast %w on @grid axes = [row] root = %t : tensor<8x6xf32> -> tensor<8x6xf32>
    %m = linalg.matmul ins(%px, %pw : tensor<4x8xf32>, tensor<8x6xf32>) outs(%a : tensor<4x6xf32>) -> tensor<4x6xf32>
    scf.yield %m : tensor<4x6xf32>
  }
  %g = scf.for %t = %c0 to %c2 step %c1 iter_args(%a = %gacc) -> (tensor<8x6xf32>) {
    %px = summa.broadcast %x on @grid axes = [col] root = %t : tensor<4x8xf32> -> tensor<4x8xf32>
    %m = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%px, %dy : tensor<4x8xf32>, tensor<4x6xf32>) outs(%a : tensor<8x6xf32>) -> tensor<8x6xf32>
    scf.yield %m : tensor<8x6xf32>
  }
  return %y, %g : tensor<4x6xf32>, tensor<8x6xf32>
}
// -----

// Loops of different trip counts, or panels broadcast from another root,
// are not the same panels.
summa.grid @grid shape = [2, 2, 1]
// CHECK-LABEL: func.func @different
// CHECK-NOT: tensor.insert_slice
// CHECK-COUNT-2: summa.broadcast
// BUDGET-LABEL: func.func @different
func.func @different(%x: tensor<4x8xf32>, %acc: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = scf.for %t = %c0 to %c2 step %c1 iter_args(%s = %acc) -> (tensor<4x8xf32>) {
    %p = summa.broadcast %x on @grid axes = [col] root = %t : tensor<4x8xf32> -> tensor<4x8xf32>
    %r = linalg.add ins(%p, %s : tensor<4x8xf32>, tensor<4x8xf32>) outs(%s : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %r : tensor<4x8xf32>
  }
  %b = scf.for %t = %c0 to %c2 step %c1 iter_args(%s = %acc) -> (tensor<4x8xf32>) {
    %p = summa.broadcast %x on @grid axes = [col] root = %c0 : tensor<4x8xf32> -> tensor<4x8xf32>
    %r = linalg.add ins(%p, %s : tensor<4x8xf32>, tensor<4x8xf32>) outs(%s : tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %r : tensor<4x8xf32>
  }
  return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}
