// RUN: summa-opt %s -split-input-file --summa-overlap --canonicalize | FileCheck %s

// Aᵀ·B with q = 3 (a weight gradient): step t's panel is started at step
// t-1; step t's partial product is reduced asynchronously into one of two
// buffers, and the owner's accumulation of step t runs after step t+1's
// GEMM, behind the wait for that reduce; the last one after the loop.
summa.grid @g3 shape = [3, 3, 1]
func.func @atb_q3(%x: memref<4x8xf32>, %dy: memref<4x6xf32>, %dw: memref<8x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %cst = arith.constant 0.0 : f32
  %i = summa.coord @g3 axis = row
  scf.for %t = %c0 to %c3 step %c1 {
    %px = memref.alloc() : memref<4x8xf32>
    memref.copy %x, %px : memref<4x8xf32> to memref<4x8xf32>
    summa.broadcast %px on @g3 axes = [col] root = %t : memref<4x8xf32>
    %p = memref.alloc() : memref<8x6xf32>
    linalg.fill ins(%cst : f32) outs(%p : memref<8x6xf32>)
    linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%px, %dy : memref<4x8xf32>, memref<4x6xf32>) outs(%p : memref<8x6xf32>)
    summa.reduce %p on @g3 axes = [row] root = %t kind = sum : memref<8x6xf32>
    %owner = arith.cmpi eq, %i, %t : index
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p : memref<8x6xf32>) outs(%dw : memref<8x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %out, %in : f32
      %k = arith.select %owner, %s, %out : f32
      linalg.yield %k : f32
    }
    memref.dealloc %px : memref<4x8xf32>
    memref.dealloc %p : memref<8x6xf32>
  }
  return
}
// CHECK-LABEL: func.func @atb_q3
// CHECK-SAME: (%[[X:.*]]: memref<4x8xf32>, %[[DY:.*]]: memref<4x6xf32>, %[[DW:.*]]: memref<8x6xf32>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[I:.*]] = summa.coord @g3 axis = row
// CHECK: %[[X0:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK: %[[X1:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK: %[[P0:.*]] = memref.alloc() : memref<8x6xf32>
// CHECK: %[[P1:.*]] = memref.alloc() : memref<8x6xf32>
// Prologue, and step 0 (starts step 1's panel).
// CHECK: memref.copy %[[X]], %[[X0]]
// CHECK: %[[B0:.*]] = summa.async_broadcast %[[X0]] on @g3 axes = [col] root = %[[C0]]
// CHECK: memref.copy %[[X]], %[[X1]]
// CHECK: %[[B1:.*]] = summa.async_broadcast %[[X1]] on @g3 axes = [col] root = %[[C1]]
// CHECK: summa.wait %[[B0]]
// CHECK: linalg.fill {{.*}} outs(%[[P0]] :
// CHECK: linalg.matmul {{.*}} ins(%[[X0]], %[[DY]] : {{.*}}) outs(%[[P0]] :
// CHECK: %[[R0:.*]] = summa.async_reduce %[[P0]] on @g3 axes = [row] root = %[[C0]] kind = sum
// Step 1: starts step 2's panel, multiplies, then completes step 0.
// CHECK: memref.copy %[[X]], %[[X0]]
// CHECK: %[[B2:.*]] = summa.async_broadcast %[[X0]] on @g3 axes = [col] root = %[[C2]]
// CHECK: summa.wait %[[B1]]
// CHECK: linalg.matmul {{.*}} ins(%[[X1]], %[[DY]] : {{.*}}) outs(%[[P1]] :
// CHECK: %[[R1:.*]] = summa.async_reduce %[[P1]] on @g3 axes = [row] root = %[[C1]] kind = sum
// CHECK: summa.wait %[[R0]]
// CHECK: %[[OWN0:.*]] = arith.cmpi eq, %[[I]], %[[C0]]
// CHECK: linalg.generic {{.*}} ins(%[[P0]] : {{.*}}) outs(%[[DW]] :
// CHECK: arith.select %[[OWN0]]
// Step 2 (no prefetch), completes step 1; the epilogue completes step 2.
// CHECK: summa.wait %[[B2]]
// CHECK: linalg.fill {{.*}} outs(%[[P0]] :
// CHECK: linalg.matmul {{.*}} ins(%[[X0]], %[[DY]] : {{.*}}) outs(%[[P0]] :
// CHECK: %[[R2:.*]] = summa.async_reduce %[[P0]] on @g3 axes = [row] root = %[[C2]] kind = sum
// CHECK: summa.wait %[[R1]]
// CHECK: %[[OWN1:.*]] = arith.cmpi eq, %[[I]], %[[C1]]
// CHECK: linalg.generic {{.*}} ins(%[[P1]] : {{.*}}) outs(%[[DW]] :
// CHECK: arith.select %[[OWN1]]
// CHECK: summa.wait %[[R2]]
// CHECK: %[[OWN2:.*]] = arith.cmpi eq, %[[I]], %[[C2]]
// CHECK: linalg.generic {{.*}} ins(%[[P0]] : {{.*}}) outs(%[[DW]] :
// CHECK: arith.select %[[OWN2]]
// CHECK-NOT: summa.reduce
// CHECK-NOT: summa.broadcast
// CHECK: return

// -----

// A loop whose body writes the tile it broadcasts is left as it is.
summa.grid @g2 shape = [2, 2, 1]
// CHECK-LABEL: func.func @source_written
// CHECK: scf.for
// CHECK: summa.broadcast
// CHECK-NOT: summa.async_broadcast
func.func @source_written(%a: memref<4x8xf32>, %c: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cst = arith.constant 1.0 : f32
  scf.for %t = %c0 to %c2 step %c1 {
    %pa = memref.alloc() : memref<4x8xf32>
    memref.copy %a, %pa : memref<4x8xf32> to memref<4x8xf32>
    summa.broadcast %pa on @g2 axes = [col] root = %t : memref<4x8xf32>
    linalg.add ins(%pa, %c : memref<4x8xf32>, memref<4x8xf32>) outs(%c : memref<4x8xf32>)
    linalg.fill ins(%cst : f32) outs(%a : memref<4x8xf32>)
    memref.dealloc %pa : memref<4x8xf32>
  }
  return
}

// -----

// The accumulation reads what the next step's GEMM writes: the reduce stays
// synchronous, the panel broadcast is still started a step early.
summa.grid @g2 shape = [2, 2, 1]
// CHECK-LABEL: func.func @accumulation_conflict
// CHECK: summa.async_broadcast
// CHECK: summa.async_broadcast
// CHECK: summa.reduce
// CHECK: summa.reduce
// CHECK-NOT: summa.async_reduce
func.func @accumulation_conflict(%x: memref<4x8xf32>, %dy: memref<4x8xf32>, %acc: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %t = %c0 to %c2 step %c1 {
    %px = memref.alloc() : memref<4x8xf32>
    memref.copy %x, %px : memref<4x8xf32> to memref<4x8xf32>
    summa.broadcast %px on @g2 axes = [col] root = %t : memref<4x8xf32>
    %p = memref.alloc() : memref<8x8xf32>
    linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%px, %dy : memref<4x8xf32>, memref<4x8xf32>) outs(%acc : memref<8x8xf32>)
    linalg.copy ins(%acc : memref<8x8xf32>) outs(%p : memref<8x8xf32>)
    summa.reduce %p on @g2 axes = [row] root = %t kind = sum : memref<8x8xf32>
    linalg.add ins(%p, %acc : memref<8x8xf32>, memref<8x8xf32>) outs(%acc : memref<8x8xf32>)
    memref.dealloc %px : memref<4x8xf32>
    memref.dealloc %p : memref<8x8xf32>
  }
  return
}

// -----

// Not a SUMMA loop: it carries values, or its trip count is 1 (q = 1,
// where the step has no collective anyway).
summa.grid @g2 shape = [2, 2, 1]
// CHECK-LABEL: func.func @not_summa_loops
// CHECK-NOT: summa.async_broadcast
// CHECK: return
func.func @not_summa_loops(%a: memref<4x8xf32>, %n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %t = %c0 to %c2 step %c1 iter_args(%s = %c0) -> index {
    %pa = memref.alloc() : memref<4x8xf32>
    memref.copy %a, %pa : memref<4x8xf32> to memref<4x8xf32>
    summa.broadcast %pa on @g2 axes = [col] root = %t : memref<4x8xf32>
    memref.dealloc %pa : memref<4x8xf32>
    %s2 = arith.addi %s, %t : index
    scf.yield %s2 : index
  }
  scf.for %t = %c0 to %n step %c1 {
    %pa = memref.alloc() : memref<4x8xf32>
    memref.copy %a, %pa : memref<4x8xf32> to memref<4x8xf32>
    summa.broadcast %pa on @g2 axes = [col] root = %c0 : memref<4x8xf32>
    memref.dealloc %pa : memref<4x8xf32>
  }
  return %r : index
}
