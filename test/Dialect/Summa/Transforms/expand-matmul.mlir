// RUN: summa-opt %s -split-input-file --summa-expand-matmul | FileCheck %s

// The 2.5D product on [2,2,2]: two SUMMA steps; step t broadcasts the lhs
// panel of column t along each row (axes = [col]) and the rhs panel of row t
// along each column (axes = [row]), then multiplies locally.
summa.grid @grid shape = [2, 2, 2]
// CHECK-LABEL: func.func @ab
// CHECK-SAME: (%[[A:.*]]: tensor<48x48xf32>, %[[B:.*]]: tensor<48x192xf32>, %[[C:.*]]: tensor<48x192xf32>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[Q:.*]] = arith.constant 2 : index
// CHECK: %[[R:.*]] = scf.for %[[T:.*]] = %[[C0]] to %[[Q]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[C]]) -> (tensor<48x192xf32>) {
// CHECK-NEXT: %[[AP:.*]] = summa.broadcast %[[A]] on @grid axes = [col] root = %[[T]] : tensor<48x48xf32> -> tensor<48x48xf32>
// CHECK-NEXT: %[[BP:.*]] = summa.broadcast %[[B]] on @grid axes = [row] root = %[[T]] : tensor<48x192xf32> -> tensor<48x192xf32>
// CHECK-NEXT: %[[P:.*]] = linalg.matmul ins(%[[AP]], %[[BP]] : tensor<48x48xf32>, tensor<48x192xf32>) outs(%[[ACC]] : tensor<48x192xf32>)
// CHECK-NEXT: scf.yield %[[P]]
// CHECK: return %[[R]]
func.func @ab(%a: tensor<48x48xf32>, %b: tensor<48x192xf32>, %c: tensor<48x192xf32>) -> tensor<48x192xf32> {
  %0 = summa.matmul %a, %b, %c on @grid form = ab : tensor<48x48xf32>, tensor<48x192xf32>, tensor<48x192xf32> -> tensor<48x192xf32>
  return %0 : tensor<48x192xf32>
}

// -----

// With q = 1 (pure data parallel [1,1,4]) the broadcasts span one rank and
// fold away: one local GEMM, no communication.
summa.grid @grid shape = [1, 1, 4]
// CHECK-LABEL: func.func @data_parallel
// CHECK-NOT: summa.broadcast
// CHECK: linalg.matmul
// CHECK-NOT: summa.broadcast
func.func @data_parallel(%a: tensor<8x16xf32>, %b: tensor<16x16xf32>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = summa.matmul %a, %b, %c on @grid form = ab : tensor<8x16xf32>, tensor<16x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// Products that broadcast the same activation (Q, K, V projections) share
// one loop: its panel is broadcast once per step, each weight panel once.
summa.grid @grid shape = [2, 2, 1]
// CHECK-LABEL: func.func @shared_lhs
// CHECK-SAME: (%[[X:[^:]*]]: tensor<4x4xf32>, %[[WQ:[^:]*]]: tensor<4x4xf32>, %[[WK:[^:]*]]: tensor<4x4xf32>
// CHECK: %[[R:.*]]:2 = scf.for %[[T:.*]] = {{.*}} iter_args(%[[A0:.*]] = %{{.*}}, %[[A1:.*]] = %{{.*}}) -> (tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK-NEXT: %[[XP:.*]] = summa.broadcast %[[X]] on @grid axes = [col] root = %[[T]]
// CHECK-NEXT: %[[QP:.*]] = summa.broadcast %[[WQ]] on @grid axes = [row] root = %[[T]]
// CHECK-NEXT: linalg.matmul ins(%[[XP]], %[[QP]] : {{.*}}) outs(%[[A0]] :
// CHECK-NEXT: %[[KP:.*]] = summa.broadcast %[[WK]] on @grid axes = [row] root = %[[T]]
// CHECK-NEXT: linalg.matmul ins(%[[XP]], %[[KP]] : {{.*}}) outs(%[[A1]] :
// CHECK-NOT: summa.broadcast
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @shared_lhs(%x: tensor<4x4xf32>, %wq: tensor<4x4xf32>, %wk: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x4xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %q = summa.matmul %x, %wq, %f0 on @grid form = ab : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %e1 = tensor.empty() : tensor<4x4xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %k = summa.matmul %x, %wk, %f1 on @grid form = ab : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %q, %k : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// With q = 1 the backward forms own every block: the product accumulates
// onto the accumulator (no partial product, no reduce, no owner test); Aᵀ·B
// still adds the depth layers' sums.
summa.grid @grid shape = [1, 1, 2]
// CHECK-LABEL: func.func @backward_q1
// CHECK-SAME: (%[[DY:[^:]*]]: tensor<8x4xf32>, %[[X:[^:]*]]: tensor<8x6xf32>, %[[W:[^:]*]]: tensor<6x4xf32>, %[[DW:[^:]*]]: tensor<6x4xf32>, %[[DX:[^:]*]]: tensor<8x6xf32>)
// CHECK-NOT: linalg.fill
// CHECK-NOT: summa.reduce
// CHECK-NOT: arith.select
// CHECK: %[[GW:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[DW]])
// CHECK-NEXT: %[[P:.*]] = linalg.matmul indexing_maps = {{.*}} ins(%[[X]], %[[DY]] : tensor<8x6xf32>, tensor<8x4xf32>) outs(%[[ACC]] : tensor<6x4xf32>)
// CHECK-NEXT: scf.yield %[[P]]
// CHECK: %[[SUM:.*]] = summa.all_reduce %[[GW]] on @grid axes = [depth] kind = sum
// CHECK: %[[GX:.*]] = scf.for {{.*}} iter_args(%[[ACC2:.*]] = %[[DX]])
// CHECK-NEXT: %[[P2:.*]] = linalg.matmul indexing_maps = {{.*}} ins(%[[DY]], %[[W]] : tensor<8x4xf32>, tensor<6x4xf32>) outs(%[[ACC2]] : tensor<8x6xf32>)
// CHECK-NEXT: scf.yield %[[P2]]
// CHECK-NOT: summa.reduce
// CHECK: return %[[SUM]], %[[GX]]
func.func @backward_q1(%dy: tensor<8x4xf32>, %x: tensor<8x6xf32>, %w: tensor<6x4xf32>, %dw: tensor<6x4xf32>, %dx: tensor<8x6xf32>) -> (tensor<6x4xf32>, tensor<8x6xf32>) {
  %0 = summa.matmul %x, %dy, %dw on @grid form = atb : tensor<8x6xf32>, tensor<8x4xf32>, tensor<6x4xf32> -> tensor<6x4xf32>
  %1 = summa.matmul %dy, %w, %dx on @grid form = abt : tensor<8x4xf32>, tensor<6x4xf32>, tensor<8x6xf32> -> tensor<8x6xf32>
  return %0, %1 : tensor<6x4xf32>, tensor<8x6xf32>
}
